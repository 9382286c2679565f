"""The decision for one candidate line: check it against the constraints it could be about, block on a conflict."""

from __future__ import annotations

import functools
import re

from ..concepts import Analysis, analyze, lexicon
from ..lazy import LazyRe
from ..model import Tier
from ..line import Line, prepare
from .index import RELATED_MIN, ConstraintIndex
from .lifecycle import Retired, binding
from .records import Arbitration, Conflict, Constraint, conflict_error, explain

TYPE_CHECKING = False  # datetime only names types here: the hook path does not load it
if TYPE_CHECKING:
    import datetime as _dt

# compare, scope, structure and values (the comparisons of two lines) compile some hundred patterns at import, a
# fifth of an in-process hook call: ``check_conflict`` imports them when a line first meets a constraint it could
# be about, so a write that meets none (most writes to a large memory file) never loads them. They are bound as
# this module's globals once (``_load_comparisons``): an import statement run for every pair cost ~3 µs, a tenth
# of a check (a 10,000-line lint checks 80,000 pairs).
_loaded = False


def _load_comparisons() -> None:
    global _loaded, c_coverage, date_on_ruled_day, dated_elsewhere, gate_bypassed, insufficient, licensed, \
        may_flip, polarity, relatedness, threshold, time_window, in_scope, scope_frame, scope_generalization, \
        _shown, bounded, shape, stems, substituted, LIGHT, substitution, window_moved, only_excepted, prescribes, \
        agent_act, window_kept, speaks_of_another, offers, qualified, timed_elsewhere
    from .compare import (c_coverage, date_on_ruled_day, dated_elsewhere, gate_bypassed, insufficient, licensed,
                          may_flip, offers, only_excepted, polarity, relatedness, threshold, time_window,
                          timed_elsewhere, window_kept)
    from .modality import qualified
    from .phrasing import agent_act, prescribes, speaks_of_another
    from .scope import in_scope, scope_frame, scope_generalization
    from .structure import _shown, bounded, shape, stems, substituted
    from .values import LIGHT, substitution, window_moved

    _loaded = True


_MODAL = frozenset({"PERMIT", "RELAX", "INDIFF", "OBLIGE", "HEDGE", "FUTURE_PLAN"})
_LICENSING = frozenset({"PERMIT", "RELAX", "INDIFF"})
#: markers of a line that may make an exception or guess one: checked from LICENSE_REL, below RELATED_MIN
_EXCEPTING = frozenset({"PERMIT", "RELAX", "HEDGE"})
#: clause forces of a line that sets something (not a plain statement)
_SETTING = frozenset({"oblige", "permit", "relax", "indiff"})
_INFER_WORDS = frozenset({"so", "therefore", "hence", "thus", "means", "значит", "поэтому", "следовательно",
                          "выходит", "итак"})


def _log():
    import logging

    return logging.getLogger("tiers.arbitrate")


@functools.lru_cache(maxsize=4096)
def inferred(text: str) -> bool:
    """The line draws a conclusion ("…, so reviews can be skipped", «значит, можно»): an inference, not a report."""
    from ..text import words

    return any(w in _INFER_WORDS for w in words(text))


#: Relatedness from which a permission or a guess may license what a rule forbids (``licensed``).
LICENSE_REL = 0.15
#: Relatedness from which two lines count as about the same slot for a structural value (shared words count too).
ANCHOR_MIN = 0.25


def _structural(c: Analysis, k: Analysis, rel: float) -> tuple[str, str, str] | None:
    """A typed value (number, version, region, address, format, person, order) the candidate replaces."""
    if c.report:
        return None
    ks = shape(k.text)
    if not ks.typed or not ks.may_meet(c.text):
        return None  # most rules fix no typed value, most lines hold none of its type: no shape needed
    cs = shape(c.text)
    if not (rel >= ANCHOR_MIN or cs.code & ks.code or stems(c.text) & stems(k.text)):
        return None
    setting = c.hedged or "FUTURE_PLAN" in c.markers or any(
        cl.force in _SETTING for cl in c.clauses if not cl.exception) or (
        bool(cs.people) and _routed().search(c.text) is not None) or prescribes(cs.text)
    got = substituted(cs, ks, setting)
    if got is not None and got[0] in _FORMAT_TYPES and "NEG" in c.markers and "NEG" not in k.markers:
        return None  # "no locale date formats like DD/MM/YYYY": a format ruled out is not one given
    return got


_FORMAT_TYPES = frozenset({"file format", "encoding", "date format", "delimiter"})


def _bound(c: Analysis, k: Analysis, rel: float) -> tuple[str, str] | None:
    """("inside" | "beyond", detail) when the constraint sets a bound on an amount ("at most 3 meetings a day",
    «не меньше 40 минут», "twice a week, not more") and the candidate, about the same thing, names an amount of
    that measure."""
    ks = shape(k.text)
    if not any(n.bound for n in ks.numbers) or not ks.may_meet(c.text):
        return None  # most rules set no bound: the candidate need not be shaped
    cs = shape(c.text)
    if not (rel >= ANCHOR_MIN or cs.code & ks.code or stems(c.text) & stems(k.text)):
        return None
    got = bounded(cs, ks)
    if got is None:
        return None
    side, cn, kn = got
    word = "at most" if kn.bound == "max" else "at least"
    return side, f"{_shown(cn)} is beyond the bound the constraint sets ({word} {_shown(kn)})"


# The patterns below are compiled on first use: every write imports this module, few of its lines need them.

#: a person named as where things go or who does them ("questions go to Tomasz", "owned by Lena", «отправляем
#: Сергею»): the line assigns a role, it does not report
@functools.cache
def _routed() -> re.Pattern[str]:
    return re.compile(r"\b(?:go(?:es)?|goes|sent|send|route[sd]?|assign(?:ed)?|owned|handled|reviewed|signed|"
                      r"approved|led|run|managed|checked|done)\s+"
                      r"(?:\w+\s+){0,2}?(?:to|by)\s+[A-Z][a-z]+|"
                      r"\b(?:отправляем|шлём|шлем|передаём|передаем|пересылаем|направляем|назначаем|подписывает|"
                      r"согласует|утверждает|одобряет|проверяет|ревьюит|делает|ведёт|ведет|отвечает\s+за|"
                      r"принимает)\b", re.U)


_WHEN_WORD = (r"(?:\d|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|понедел|вторн|сред|"
              r"четверг|пятниц|суббот|воскрес|янв|фев|март|апрел|мая|июн|июл|август|сентяб|октяб|ноябр|декаб|утр|вечер)")
#: "from <when> to", «с <when> на»: the time or day a thing is moved away from
@functools.cache
def _moved_from() -> re.Pattern[str]:
    return re.compile(rf"\b(?:from|с|со)\s+(?=[^\s,;]*{_WHEN_WORD})((?:[^\s,;]+\s+){{0,3}}?[^\s,;]+)\s+"
                      r"(?=(?:to|на)\b)", re.I)


#: a question ("Should we deploy on Friday?", «Можно ли выкатить в пятницу?»): a sentence ending in "?" that asks
#: by its form (an interrogative or auxiliary first, or «ли»); "Friday deploys are fine?" is a claim with a "?".
#: Possessive runs and the look-ahead for the closing "?" keep it linear: blanks after a "?" cost 2.6 s at 16 KiB.
_QUESTION_SENTENCE = LazyRe(
    r"(?:^|(?<=[.!?;]))\s*+(?=[^.!?;]*+\?)(?:(?:should|shall|can|could|may|might|must|is|are|was|were|do|does|did|will|"
    r"would|have|has|what|when|where|who|whom|which|why|how|whether|кто|что|когда|где|куда|почему|зачем|как|какой|"
    r"какая|какие|сколько|разве|неужели)\b[^.!?;]*+|[^.!?;]*\bли\b[^.!?;]*+)\?", re.I)
#: «за выходные», «за пятницу»: the period a report or a sum covers, not when the act happens
_COVERS = LazyRe(r"(?<![\w-])за\s+(?:эти\s+|прошл\w+\s+)?(?:выходн\w+|понедельник|вторник|сред[уы]|четверг|"
                 r"пятниц[уы]|суббот[уы]|воскресень[ея])(?![\w-])", re.I)
#: the answer that opens a reply to the question before it ("No, deploy it on Friday")
_ANSWER = LazyRe(r"^(?:yes|no|nope|yeah|да|нет)\s*[,.!:—–-]\s*", re.I)


def claims(text: str) -> str:
    """What a line claims: its questions dropped ("Should we deploy on Friday? Asking the user first." claims only
    the second sentence; "No, …" answering it is not a negation), and the days a thing covers («отчёт за
    выходные») left out of when it happens."""
    if "?" in text:
        marker = re.match(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?", text).group(0)
        body = _ANSWER.sub("", _QUESTION_SENTENCE.sub(" ", text[len(marker):]).strip())
        text = (marker + body) if body.strip(" -") else ""
    if "за " in text:
        text = _COVERS.sub(" ", text)
    return text


def moved_to(text: str) -> str:
    """A move states where a thing goes: "moved from 9:00 to 11:00", «перенесён с пятницы на четверг» say 11:00
    and Thursday; the value left behind is dropped before the line is analysed."""
    return _moved_from().sub("", text) if ("from" in text or "с" in text) else text


#: a line that ends by citing the user as the source of the rule it follows: "(user's rule)", "as the user
#: asked", «как просил пользователь», «(по просьбе пользователя)»; at the end of the line, after what it says
@functools.cache
def _cites_user() -> re.Pattern[str]:
    return re.compile(
        r"(?:\(\s*(?:the\s+|per\s+(?:the\s+)?)?user(?:'s)?(?:\s+(?:rule|request|instruction|order|wish))?\s*\)"
        r"|,?\s+(?:as|like)\s+(?:the\s+)?user\s+(?:asked|said|requested|wanted|wished|instructed|told\s+us)"
        r"|\(\s*(?:правило|просьба|по\s+просьбе|по\s+правилу)\s+пользовател\w*\s*\)"
        r"|,?\s+как\s+(?:и\s+)?(?:просил\w*|сказал\w*|велел\w*|хотел\w*)\s+пользовател\w*"
        r"|,?\s+как\s+пользовател\w*\s+(?:и\s+)?(?:просил\w*|сказал\w*|велел\w*|хотел\w*))\W*$", re.I)


def cites_user(text: str) -> bool:
    """The line follows a rule and names the user as its source at its end: a mention of the rule, not a new
    instruction of the user's (the agent wrote it, the user did not say it this turn)."""
    return ("user" in text or "пользовател" in text) and _cites_user().search(text.rstrip()) is not None


def _mentions(c: Analysis) -> bool:
    return (c.mention or cites_user(c.text)) and not (c.markers & _LICENSING)


def _before_value(scope: str, value: str) -> str:
    """A scope cut before the constraint's own value, when the scope finder took the choice in with the case ("for
    the EU launch is `eu-west-1`"): the value chosen is not the case it is chosen for."""
    at = scope.casefold().find(value.casefold().lstrip("!")) if len(value) > 2 else -1
    return scope[:at].rstrip(" `«\"'") if at > 0 else scope


def check_conflict(c: Analysis, cand_tier: Tier, cons: Constraint,
                   today: _dt.date | None = None) -> Conflict | None:
    """The conflict between a candidate and one constraint, or None when they are compatible (``today``: the day
    a date without a year is read from)."""
    if not _loaded:
        _load_comparisons()
    if _mentions(c):
        return None
    k = cons.analysis
    if not c.markers & _MODAL and speaks_of_another(c.text, k.text) and not offers(c):
        return None  # "My wife drinks coffee" beside "I don't drink coffee": another person's habit
    rel = relatedness(k, c)
    if rel < RELATED_MIN and "`" in c.text and "`" in k.text and shape(c.text).code & shape(k.text).code:
        rel = RELATED_MIN  # the same thing named exactly (a code span of both: `any`, `legacy/`) is related
    structural = _structural(c, k, rel)
    bound = _bound(c, k, rel)
    if rel < RELATED_MIN and cons.tier is not Tier.DECISION and not c.indiff and structural is None \
            and bound is None:
        c_slots = {s for s, _, _ in c.values}
        if "DATE" in c_slots:
            c_slots.add("DAY")  # a date is a case of its weekday (date_on_ruled_day compares them)
        if not any(s in c_slots for s, _, _ in k.values) and (
                rel < LICENSE_REL or not c.markers & _EXCEPTING or not may_flip(c, k)):
            return None  # unrelated and no common slot: nothing below could fire (but an exception or a guess,
            # which licensed and gate_bypassed look for from LICENSE_REL, and which need a flipped sign)
    how = scope_generalization(c, k, cons.scope) if cons.scope else None
    if how:
        reason, res = explain("scope-generalization", cand_tier, cons,
                              "the line drops the scope" if how == "dropped" else "the line widens the scope")
        return Conflict(cons, "scope-generalization", reason, res, 1.0 + rel)
    sub = substitution(c, k)
    if sub and shape(c.text).report and not agent_act(c.text):
        sub = None  # "scaled from 6 to 9 nodes": a report substitutes nothing (the agent's own act does)
    sub = sub or structural or window_moved(c, k)
    if sub and bound is not None and (sub[0] == "number" or sub[0].startswith("NUM:")):
        sub = None  # an amount beside a bound the rule sets is a case of the bound ("5 stars" beside "4 or more")
    if sub and insufficient(c, k):
        sub = None  # "one approval is not enough" beside "two approvals" restates the minimum
    if sub and cons.scope and not in_scope(c, _before_value(cons.scope, sub[2])):
        sub = None  # another value outside the scope's case is that case's own
    if sub:
        slot, val, kval = sub
        label = "number" if slot.startswith("NUM:") else slot.lower().replace("_", " ")
        kind = "lower-tier-over-directive" if c.hedged and cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) \
            else "value-substitution"
        shown = val.replace("_", " ").lower() if val.isupper() else val
        if kval.startswith("!"):
            detail = f'{label} "{shown}", which the user ruled out'
        else:
            kshown = kval.replace("_", " ").lower() if kval.isupper() else kval
            detail = f'{label} "{shown}" instead of "{kshown}"'
        if kind != "value-substitution":
            detail = f"it guesses the {detail}"
        reason, res = explain(kind, cand_tier, cons, detail)
        return Conflict(cons, kind, reason, res, 1.0 + rel)
    if bound is not None:
        if bound[0] == "inside" and sum(not cl.exception for cl in k.clauses) == 1:
            return None  # "two meetings" beside "at most three meetings a day": a case of the bound
        if bound[0] == "beyond" and not (c.report or shape(c.text).report):
            lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and (c.hedged or cand_tier is Tier.OBSERVATION)
            kind = "lower-tier-over-directive" if lower else "polarity-flip"
            reason, res = explain(kind, cand_tier, cons, bound[1])
            return Conflict(cons, kind, reason, res, max(rel, RELATED_MIN))
    if cand_tier is Tier.OBSERVATION and not (c.markers & _MODAL) and not inferred(c.text):
        # An environment report states a fact ("`npm audit` reports …", "Calendar API: 4 meetings"): naming the
        # tool or the thing is not doing what the rule is about. It conflicts only when it reports the ruled act.
        kind = lexicon().kind
        k_acts = {x for kc in k.clauses for x in kc.direct if kind.get(x) == "action" and x not in LIGHT}
        if not (k_acts & c.concepts):
            return None
    if c.indiff and max(rel, c_coverage(c, k)) >= 0.5:
        rel = max(rel, RELATED_MIN)
    flips = may_flip(c, k)
    window = (time_window(c, k) or (("permits", "the amount is beyond the limit the constraint sets")
                                    if threshold(c, k) == "conflict" else None)
              or date_on_ruled_day(c, k, today)) if flips else None
    if window is not None:
        lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and (c.hedged or cand_tier is Tier.OBSERVATION)
        kind = "lower-tier-over-directive" if lower else "polarity-flip"
        reason, res = explain(kind, cand_tier, cons, window[1])
        return Conflict(cons, kind, reason, res, max(rel, RELATED_MIN))
    mod = qualified(c, k) if rel >= RELATED_MIN and not c.report else None
    if mod is not None:
        lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and c.hedged
        kind = "lower-tier-over-directive" if lower else "polarity-flip"
        reason, res = explain(kind, cand_tier, cons, mod[1])
        return Conflict(cons, kind, reason, res, rel)
    if rel < LICENSE_REL or (rel < RELATED_MIN and c.indiff) or not (flips or c.indiff):
        return None
    if window_kept(c, k):
        return None  # "earliest slot for any meeting: 10:00" restates "no meetings before 10 am"
    if dated_elsewhere(c, k, today) or timed_elsewhere(c, k):
        return None  # its dates fall on days the rule does not name, its hours outside the window: another case
    if c.indiff:
        detail = "it treats as indifferent something the user ruled on"
    else:
        pol = polarity(c, k, scope_frame(k, cons.scope) if cons.scope else frozenset()) \
            if rel >= RELATED_MIN else None
        if pol is not None:
            what, detail = pol
            detail = f"the line {what} what the constraint rules out" if what != "bypasses" else detail
        elif gate_bypassed(c, k):
            detail = "it skips the approval the constraint requires"
        elif cons.tier is Tier.DIRECTIVE and (pol := only_excepted(c, k)) is not None:
            detail = pol[1]
        else:
            pol = licensed(c, k)
            if pol is None:
                return None
            detail = pol[1]
    lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and (c.hedged or cand_tier is Tier.OBSERVATION
                                                                  or inferred(c.text))
    kind = "lower-tier-over-directive" if lower else "polarity-flip"
    if cand_tier is Tier.DIRECTIVE:
        kind = "unverified-amendment"
    reason, res = explain(kind, cand_tier, cons, detail)
    return Conflict(cons, kind, reason, res, rel)


def _ask_judge(index: ConstraintIndex, cand_tier: Tier, content: str,
               grey: list[tuple[float, Constraint]]) -> tuple[list[Conflict], Tier | None]:
    """Ask the optional judge about the three most related constraints the local layer let pass: the conflicts
    it found, and the lowest tier it demoted the line to (tiers.judge drops any tier that is not lower)."""
    out: list[Conflict] = []
    demote: Tier | None = None
    for rel, cons in sorted(grey, key=lambda g: -g[0])[:3]:
        ctx = {"tier": cand_tier.name, "constraint_tier": cons.tier.name, "scope": cons.scope,
               "relatedness": round(rel, 3)}
        try:
            verdict = index.judge(content, cons.content, ctx)
        except Exception:  # noqa: BLE001 - the judge is optional; its failures never block or crash a write
            _log().exception("arbitration judge failed; ignoring it")
            return out, demote
        if isinstance(verdict, dict) and verdict.get("tier") in Tier.__members__:
            low = Tier[verdict["tier"]]
            if low.rank < cand_tier.rank and (demote is None or low.rank < demote.rank):
                demote = low
        if not isinstance(verdict, dict) or not verdict.get("conflict"):
            continue
        try:
            confidence = float(verdict.get("confidence", 0.0))
        except (TypeError, ValueError):
            continue
        if confidence < index.judge_threshold:
            continue
        why = str(verdict.get("reason") or "a semantic judge found the line contradicts the constraint")[:300]
        reason, res = explain("polarity-flip", cand_tier, cons, why)
        out.append(Conflict(cons, "judge", reason + f" (decided by the local judge, confidence {confidence:.2f})",
                            res, rel))
    return out, demote


def _tier_of(tier: Tier | str) -> Tier:
    return tier if isinstance(tier, Tier) else Tier.from_code(str(tier))


def _retires(index: ConstraintIndex, a: Analysis, cand_tier: Tier, content: str, file: str) -> tuple:
    """The stamped lower-tier lines a new line retires (docs/tiers.md, the lifecycle): an OBSERVATION supersedes an
    older observation of the same fact it contradicts; an OBSERVATION, DECISION or DIRECTIVE marks a HYPOTHESIS it
    contradicts. Compared like a candidate with a constraint, the line's tier left out of it."""
    if cand_tier is Tier.HYPOTHESIS or a.mention:
        return ()
    out = []
    # would the older line be blocked if it were written now, beside the new one?
    new = Constraint(cand_tier, "new", file, 0, content, None, None, False)
    for fact in index.facts_about(a):
        if fact.file == file and fact.content == content:
            continue
        if fact.tier is Tier.OBSERVATION and cand_tier is not Tier.OBSERVATION:
            continue  # only the environment overwrites what the environment said
        try:
            hit = check_conflict(fact.analysis, Tier.HYPOTHESIS, new)
        except Exception:  # noqa: BLE001 - a failed comparison retires nothing
            _log().exception("lifecycle check failed for %s", fact.id)
            continue
        if hit is not None:
            out.append(Retired(fact, "superseded" if fact.tier is Tier.OBSERVATION else "contradicted"))
    return tuple(out)


def arbitrate(index: ConstraintIndex, text: str | Line, tier: Tier | str, *, file: str = "MEMORY.md",
              scope: str | None = None, verified: bool = False, today: _dt.date | None = None) -> Arbitration:
    """Decide whether ``text`` (a new line of ``file`` with ``tier``) may be written beside the constraints.

    ``verified`` marks a line built from the user's own words this turn (tiers.provenance): a verified
    DIRECTIVE/DECISION amends what it contradicts and is allowed, returning the superseded constraints. A DECISION
    whose scope ended (a date bound before ``today``, a session bound before the index's session) binds nothing.
    An allowed line lists the lower-tier lines it retires (``Arbitration.retires``).
    """
    cand_tier = _tier_of(tier)
    line = text if isinstance(text, Line) else prepare(text)
    content = line.content.strip()
    if not line.body:
        return Arbitration("allow", cand_tier, content, file)
    claim = claims(content)
    if not claim:
        return Arbitration("allow", cand_tier, content, file)  # a question asks, it claims nothing
    a = analyze(moved_to(claim))  # the stamp-free content: Analysis.text is what the comparisons read
    if _mentions(a) and index.judge is None:
        return Arbitration("allow", cand_tier, content, file)  # check_conflict passes a mention against anything
    conflicts: list[Conflict] = []
    grey: list[tuple[float, Constraint]] = []
    # (content, tier, scope) of constraints found compatible: the check depends on nothing else of a constraint,
    # so the same rule restated in another file passes too
    passed: set[tuple] = set()
    for cons in index.candidates(a):
        if cons.file == file and cons.content == content:
            continue  # the line restates itself (an unchanged line re-sent by a whole-file write)
        if cons.tier is Tier.DECISION and not binding(cons, today, index.session):
            continue  # its scope has ended
        same = (cons.content, cons.tier, cons.scope)
        if same in passed:
            continue
        try:
            cf = check_conflict(a, cand_tier, cons, today)
        except Exception:  # noqa: BLE001 - a bug in one comparison must not block or crash the write path
            _log().exception("arbitration failed for constraint %s", cons.id)
            continue
        if cf is not None:
            conflicts.append(cf)
            continue
        passed.add(same)
        if index.judge is not None:
            from .compare import relatedness

            rel = relatedness(cons.analysis, a)
            if rel >= RELATED_MIN:
                grey.append((rel, cons))
    if not conflicts and index.judge is not None and hasattr(index.judge, "related"):
        live = [k for k in index.constraints if k.tier is not Tier.DECISION or binding(k, today, index.session)]
        grey = index.judge.related(content, grey, live)  # + the directives related by embedding
    if not conflicts and grey:
        found, demote = _ask_judge(index, cand_tier, content, grey)
        conflicts.extend(found)
        if demote is not None and not verified and not conflicts:
            cand_tier = demote  # the judge may demote an unverified line, never promote one
    if not conflicts:
        return Arbitration("allow", cand_tier, content, file, retires=_retires(index, a, cand_tier, content, file))
    if verified and cand_tier in (Tier.DIRECTIVE, Tier.DECISION):
        sup = tuple(cf.constraint for cf in conflicts
                    if cand_tier is Tier.DIRECTIVE or cf.constraint.tier is Tier.DECISION)
        if len(sup) == len(conflicts):
            return Arbitration("allow", cand_tier, content, file, supersedes=sup, conflicts=tuple(conflicts),
                               retires=_retires(index, a, cand_tier, content, file))
        conflicts = [cf for cf in conflicts if cf.constraint not in sup]
    # ties by the constraint's place in the workspace: the verdict never depends on set order (hash seed)
    conflicts.sort(key=lambda cf: (-cf.constraint.tier.rank, -cf.strength, cf.constraint.file, cf.constraint.line))
    error = conflict_error(cand_tier, content, conflicts[0])
    return Arbitration("block", cand_tier, content, file, error=error, conflicts=tuple(conflicts))
