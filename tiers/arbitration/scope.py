"""Scoped DECISIONs: a candidate that restates a decision's choice without its scope, or for a wider one."""

from __future__ import annotations

import math
import re

from ..concepts import Analysis, analyze, lexicon
from .compare import _w
from .structure import shape, stem, stems

#: Share of a scoped decision's choice a candidate must restate to generalize it.
CHOICE_MIN = 0.5
#: At most this share of a restatement may be new material before it counts as a different claim, when the line
#: names a case of its own (``own_case``); a line that names none may add up to two thirds of ordinary words
#: ("budget", "preferred", "wherever they travel") and still restate the choice without its scope.
NOVEL_MAX = 0.34
NOVEL_MAX_PLAIN = 0.67
KIND_VALUE = 1.6
ENV_SCOPE = frozenset({"PROD", "STAGING", "PREVIEW", "LOCAL_DEV", "MAIN_BRANCH", "FEATURE_BRANCH", "MOBILE_APP",
                       "WEB", "BACKEND", "DESKTOP_APP", "PROTOTYPE"})


def _scope_choices(k: Analysis, scope: str) -> tuple[Analysis, set[str], list[tuple[dict[str, float], float]],
                                                       frozenset[str], frozenset[str]]:
    """What a scoped decision chooses, clause by clause (its own content minus the scope): (the scope's analysis,
    its concept ids, [(choice -> weight, total weight)], every choice key, the values of the "v:" keys).
    Depends on the constraint only."""
    lx = lexicon()
    scope_a = analyze(scope)
    scope_ids = {x for cl in scope_a.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    scope_values = {v for _, v, _ in scope_a.values} | {scope.casefold()}
    ks = shape(k.text)
    identifiers = ks.code | ks.regions | {w.casefold() for w in re.findall(r"\b\w+(?:[-_.]\w+)+\b", k.text)}
    choices = []
    for kc in k.clauses:
        if kc.exception:
            continue
        ch: dict[str, float] = {}
        for x in kc.direct:
            if x in scope_ids or lx.kind.get(x) in {"generic"} or x in {"BEFORE_X", "AFTER_X", "MONTH", "QUARTER"}:
                continue
            ch[x] = _w(x)
        for slot, v, sg in kc.values:
            if sg > 0 and slot not in {"DAY", "DATE", "TIME", "MONTH_V", "DOM", "DAYPART"} \
                    and v not in scope_values and not any(v in tok and v != tok for tok in identifiers):
                ch["v:" + v] = KIND_VALUE  # not a value of the scope, nor a piece of "us-east-1" or "PAY-311"
        if not ch:
            continue
        choices.append((ch, math.fsum(ch.values())))
    keys = frozenset(x for ch, _ in choices for x in ch)
    return scope_a, scope_ids, choices, keys, frozenset([x[2:] for x in keys if x.startswith("v:")])


def scope_frame(k: Analysis, scope: str) -> frozenset[str]:
    """The concepts of a decision's scope (and their lexical words): a clause of the decision holding nothing else
    frames the choice and claims nothing."""
    return frozenset(_scope_choices(k, scope)[1]) | frozenset(
        x for cl in analyze(scope).clauses for x in cl.signs)


_WIDE = re.compile(r"\b(?:all|every|everywhere|any|always|permanent\w*|forever|from now on|for good|across|"
                   r"все|всех|всем|всё|везде|всегда|любо\w+|навсегда|постоянно|отныне|во всех|по всем)\b", re.I)
#: how often, not over which cases: "every night", «каждое утро» (the lexicon's FREQUENCY marker)
_FREQUENCY = re.compile(r"\b(?:every|each)\s+(?:night|day|morning|evening|hour|week|month|year|minute|weekday)\b|"
                        r"\bкажд\w+\s+(?:ночь|день|утро|вечер|час|неделю|месяц|год)\b", re.I)
_GENERAL = re.compile(r"\b(?:our|now|new|nowadays|primary|default|standard|company-wide|org-wide|в проекте|наш\w*|"
                      r"теперь|новы\w+|основн\w+|главн\w+|по умолчанию|стандартн\w+|(?:в|по|для)\s+(?:всей\s+)?компании)\b|"
                      r"\b(?:this|the whole|the entire|across the)\s+(?:project|repo|repository|monorepo|codebase|"
                      r"company|team|org|organi[sz]ation)\b|"
                      r"(?:в|во|по)\s+(?:этом|всем|всём|нашем)\s+(?:проекте|репозитории|монорепо|коде|компании)|"
                      r"\b(?:in|across)\s+the\s+(?:codebase|code base|repo|repository|monorepo)\b|"
                      r"(?:в|во|по)\s+(?:всей\s+|всему\s+)?(?:кодовой\s+базе|кодовой\s+базы|коду|репозиторию|монорепе)",
                      re.I)
_TEMPORAL = re.compile(r"\b(?:until|till|while|during|before|after|by|до|пока|на время|во время|в течение|"
                       r"после|к)\b", re.I)
_SPECIFIC = re.compile(r"`[^`]+`|«[^»]+»|(?<=\w\s)[A-ZА-ЯЁ]\b|\b[\w.-]*\d[\w./-]*\b|(?<![.!?]\s)(?<!^)\b[A-ZА-ЯЁ][a-zа-яё]+\b")


def _scope_parts(scope: str) -> tuple[frozenset[str], frozenset[str]]:
    """(stems of the scope's words, its specific parts: code spans, names, numbered things such as "demo-3" or
    "4.0"), compared with a candidate's words."""
    case = _TEMPORAL.split(scope, maxsplit=1)[0]  # "in staging until the Q2 review": "Q2" bounds it in time
    words = {stem(w) for w in re.findall(r"[^\W\d_][\w-]*", _SPECIFIC.sub(" ", scope)) if len(w) > 2}
    words -= {stem(w) for w in ("only", "for", "the", "until", "while", "during", "только", "для", "пока", "время",
                                "before", "after", "within", "inside")}
    specific = {x.strip("`«»").casefold() for x in _SPECIFIC.findall(case)}
    specific = {x for x in specific if x not in {"only", "for"}}
    return frozenset(words), frozenset(specific)


#: words of a scope that are neither its case nor its bound
_BOUND_STOP = frozenset(stem(w) for w in ("only", "for", "the", "until", "while", "during", "только", "для", "пока",
                                          "время", "before", "after", "within", "inside", "done", "ends", "over",
                                          "не", "is", "are"))
#: an additive particle: the claim holds in one more case ("on the new cluster too", «там тоже»)
_ADDITIVE = re.compile(r"\b(?:too|also|as well|тоже|также|и там|и на)\b", re.I)


#: a scope that is only a deadline ("until the end of December", «до конца года»): it runs from now, so a line about
#: the present is inside it (a period, "while in Japan", «на время переезда», is a case of its own)
_DEADLINE = re.compile(r"^\W*(?:until|till|by|до|к)\s+(?!.*\b(?:for|in|on|для|в|на)\s)", re.I)
_QUOTED = re.compile(r"`[^`]+`|«[^»]+»|\"[^\"]+\"|“[^”]+”")


def own_case(text: str, k_text: str) -> bool:
    """Whether a line names a case of its own, a part the constraint does not name: a code span, a quoted name, a
    token with a digit ("OPS-412", "iOS 16", "№3", "14:00"), a capitalised or upper-case word that does not open
    the claim or a sentence. "`scripts/seed.py` prints …", «Договор с «Алтын Жол»» speak of one case, not of the
    choice in general. (Tokens, not one pattern over the line: a long word is read once.)"""
    from .structure import _strip

    body = _strip(text)
    k_fold = k_text.casefold()
    parts = [m.group(0)[1:-1] for m in _QUOTED.finditer(body)]
    opens = True  # the claim's first word, or a sentence's, is capitalised as any first word is
    for tok in _QUOTED.sub(" ", body).split():
        word = tok.strip(",;()[]\"'.:!?—–")
        if any(ch.isdigit() for ch in word) or (word[:1].isupper() and not opens):
            parts.append(word)
        opens = tok[-1:] in ".:!?—–" or (opens and not word)
    return any(p and p.casefold() not in k_fold for p in parts)


_LEAD_WORDS = frozenset("""only for the a an in on at of to with within inside при для в во на с со по только у""".split())


def _head(scope: str) -> str | None:
    """The stem of the word that names a scope's case: in English the last noun before "of" or of the phrase
    ("the prototype of the inventory app", "the mobile prototype"), in Russian the first («прототип мобильного
    приложения», «кэш сессий»)."""
    words = [w for w in re.findall(r"[^\W\d_][\w-]*", case_of(scope).casefold())]
    if not words:
        return None
    if all(w.isascii() for w in words):
        if "of" in words:
            words = words[:words.index("of")]
        words = [w for w in words if w not in _LEAD_WORDS]
        return stem(words[-1]) if words else None
    words = [w for w in words if w not in _LEAD_WORDS]
    return stem(words[0]) if words else None


def _acts_restated(choice: dict[str, float], c: Analysis) -> bool:
    """A choice of acts ("skip the code review step") comes back whole: every act of it, at least two."""
    acts = [x for x in choice if lexicon().kind.get(x) == "action"]
    return len(acts) >= 2 and all(x in c.concepts for x in acts)


def case_of(scope: str) -> str:
    """The case part of a scope, before its time bound ("for hotfixes" of "for hotfixes during the freeze")."""
    return _TEMPORAL.split(scope, maxsplit=1)[0]


def _text_has(text: str, part: str) -> bool:
    """The line names a specific part: as written, or, for a name of words alone, in another inflection («для
    клиента «Вектор»» is named by «счёт «Вектору»», "Altyn Zhol" by «Алтын Жола»)."""
    if re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text.casefold()) is not None:
        return True
    words = part.split()
    if not words or not all(w.isalpha() and len(w) > 3 for w in words):
        return False
    have = {stem(w) for w in re.findall(r"[^\W\d_]+", text.casefold())}
    return all(stem(w) in have for w in words)


def in_scope(c: Analysis, scope: str) -> bool:
    """Whether ``c`` speaks of the scope's own case (its specific parts, else most of its words): a value given
    outside the scope ("Prototype B uses Postgres" beside "SQLite only for prototype A") is another case."""
    if not _TEMPORAL.split(scope, maxsplit=1)[0].strip(" ,"):
        return True  # a time bound only ("until Dec 15"): any line without another time speaks of it
    words, specific = _scope_parts(scope)
    if specific:
        return any(_text_has(c.text, p) for p in specific)
    return not words or len(words & stems(c.text)) * 2 >= len(words)


#: concepts that name the kind of a scope's case (a service, an app, a repo), not the case itself: "the search
#: service" is another case of the kind "service", not the billing service kept
_KIND_HEADS = frozenset({"SERVICE", "APP", "PROJECT", "REPO", "TEAM", "WEB"})
_ONLY = re.compile(r"\bonly\b|(?<![\w-])только(?![\w-])|\bexclusively\b|\bисключительно\b", re.I)


def _exclusive(k: Analysis, scope: str) -> bool:
    """The decision holds its choice to its case alone: "only for the marketing site", «только для биллинга»."""
    return _ONLY.search(scope) is not None or any(cl.has_only for cl in k.clauses if not cl.exception)


def _universal_over_choice(c: Analysis, k: Analysis, choice: dict[str, float]) -> bool:
    """The line quantifies over every case ("all modules", «во всех сервисах») while it restates the choice and
    drops a thing the choice named (the mobile app, the payments module): the case made universal."""
    if not (c.universal or _WIDE.search(_FREQUENCY.sub(" ", c.text))):
        return False
    kind = lexicon().kind
    return any(kind.get(x) == "object" and x not in c.concepts for x in choice)


def scope_generalization(c: Analysis, k: Analysis, scope: str) -> str | None:
    """How ``c`` restates the choice of the scoped constraint ``k`` beyond ``scope``: "dropped" (the scope left
    out), "widened" (a universal word, or the scope's kind kept without its specific case: "hotfix branches" for
    `hotfix/3.1.4`, "tests" for "unit tests"), or None when it keeps the scope, says something else or negates
    the choice."""
    lx = lexicon()
    scope_a, scope_ids, choices, _, _ = _scope_choices(k, scope)
    c_vals = {v for _, v, sg in c.values if sg > 0}
    ks, ss = shape(k.text), shape(scope)
    k_typed = (ks.code | ks.regions | set(ks.people) | ks.addresses) - (ss.code | ss.regions | set(ss.people))
    best_concepts = max((math.fsum(w for x, w in ch.items() if x in c.concepts or (x.startswith("v:") and x[2:] in c_vals))
                         / total for ch, total in choices), default=0.0)
    if not k_typed and best_concepts < CHOICE_MIN:
        return None  # nothing typed to add: the concepts alone decide, and they do not restate the choice
    cs = shape(c.text)
    c_typed = cs.code | cs.regions | set(cs.people) | cs.addresses
    choice: dict[str, float] = {}
    best = 0.0
    for ch, total in choices:
        got = math.fsum(w for x, w in ch.items() if x in c.concepts or (x.startswith("v:") and x[2:] in c_vals))
        typed = k_typed & c_typed
        cov = (got + KIND_VALUE * len(typed)) / (total + KIND_VALUE * len(typed))
        if cov > best:
            best, choice = cov, ch
    if best < CHOICE_MIN:
        return None
    # The choice itself must be named: a tool, a value, a name, not only generic actions.
    # (or restated whole: "push without review" names nothing but acts, and all of them)
    if not (k_typed & c_typed) and not any(
            (x in c.concepts and (lx.kind.get(x) in {"value", "object"} or x.startswith("w:")))
            or (x.startswith("v:") and x[2:] in c_vals) for x in choice) and not (best >= 1.0 and len(choice) >= 2) \
            and not _acts_restated(choice, c):
        return None
    # A restatement keeps the choice's polarity: "No SQLite in production" does not restate "SQLite for the demo".
    k_sign = {x: sg for cl in k.clauses if not cl.exception for x, sg in cl.signs.items() if sg}
    c_sign = {x: sg for cl in c.clauses if not cl.exception for x, sg in cl.signs.items() if sg}
    shared = [x for x in choice if x in k_sign and x in c_sign]
    if shared and sum(k_sign[x] == c_sign[x] for x in shared) * 2 < len(shared):
        return None
    when = {"MONTH_V", "DATE", "DAY", "DOM"}
    # a weekday of the choice ("on weekdays, order dinner in") is not a scope; a date of the decision is its bound
    # even outside the scope phrase ("for the hackathon (until Dec 6)")
    scope_when = {(s, v) for s, v, _ in scope_a.values if s in when} | {
        (s, v) for s, v, _ in k.values if s in when and s != "DAY"}
    if scope_when and scope_when & {(s, v) for s, v, _ in c.values}:
        if _universal_over_choice(c, k, choice):
            return "widened"  # "all releases frozen Dec 14 – Jan 4" for the mobile app's freeze then: the bound
            # kept, the case made every case
        return None  # "until the end of January" kept as "in January"; "after Dec 6" is about the bound
    words, specific = _scope_parts(scope)
    # the concepts the line names itself: "Redis" brings CACHE as its parent, which does not name "the session cache"
    c_named = frozenset(x for cl in c.clauses if not cl.exception for x in cl.direct)
    kept_words = words & stems(c.text)
    kept_specific = {p for p in specific if _text_has(c.text, p)}
    if kept_specific:
        return None  # the scope's own case is named: a narrower or the same claim
    if _ADDITIVE.search(c.text) and _exclusive(k, scope) and not c.report and not (
            (words - {_head(scope)}) & stems(c.text)) and not (scope_ids & c_named - _KIND_HEADS):
        # "Tailwind in the dashboard app as well" for "Tailwind for the marketing site only"; «для сервиса поиска
        # тоже» for «только для сервиса биллинга» (the scope's kind kept, its case another)
        return "widened"
    bound = scope[len(_TEMPORAL.split(scope, maxsplit=1)[0]):]
    if bound and _TEMPORAL.search(c.text) and any(
            _text_has(c.text, x.strip("`«»").casefold()) for x in _SPECIFIC.findall(bound)
            if re.search(r"\d|`|«", x)):
        return None  # "until 3.0 ships" for «до релиза 3.0»: the line speaks of the bound itself
    if bound.strip() and not c.report:
        bound_words = {stem(w) for w in re.findall(r"[^\W\d_][\w-]*", _TEMPORAL.sub(" ", bound)) if len(w) > 2}
        bound_words -= _BOUND_STOP
        named_bound = bool(bound_words & stems(c.text))
        if named_bound and _ADDITIVE.search(c.text):
            return "widened"  # "7 days, on the new cluster too": the choice carried past its bound
        case_words = {stem(w) for w in re.findall(r"[^\W\d_][\w-]*", case_of(scope)) if len(w) > 2} - _BOUND_STOP
        rule = c.universal or any(cl.force in {"permit", "relax", "indiff", "oblige"} for cl in c.clauses)
        if rule and case_words and case_words & stems(c.text) and not named_bound and not _TEMPORAL.search(c.text) \
                and not any(s_ in when or s_ in {"TIME", "DAYPART"} for s_, _, _ in c.values):
            return "dropped"  # "for hotfixes during the freeze" -> "hotfixes may": the case kept as a rule, its time
            # dropped (a plain statement of the present is inside any time bound: "prod runs on Redis too")
    # a month or date that names the scope's case ("the report for November"), not its time bound: kept kind
    # without it is the kind in general («в отчётах» for «для отчёта за ноябрь»)
    case = _TEMPORAL.split(scope, maxsplit=1)[0]
    case_when = {(s_, v) for s_, v, _ in analyze(case).values if s_ in when} if case.strip() else set()
    kind_ids = scope_ids - {"MONTH", "BEFORE_X", "AFTER_X", "QUARTER", "TEMPORARY"}
    if case_when and not any(s_ in when for s_, _, _ in c.values) and (kept_words or kind_ids & c_named) \
            and not c.report:
        return "widened"
    matched = {x.removeprefix("v:") for x in choice if x in c.concepts or (x.startswith("v:") and x[2:] in c_vals)}
    if (c.universal or _WIDE.search(_FREQUENCY.sub(" ", c.text))) and (
            best >= 0.75 or len(matched | (k_typed & c_typed)) >= 2):
        return "widened"  # restating more than the bare value: "all X", "permanently", «во всех»
    if not kept_words and not (scope_ids & c_named) and _GENERAL.search(c.text):
        return "widened"  # "new services", "our Python version … now": a general claim, the scope dropped
    c_ids = {x for cl in c.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    env_scope = scope_ids & ENV_SCOPE
    env_c = {x for x in c_ids if x in ENV_SCOPE}
    if env_scope and env_c and not (env_c & env_scope):
        return "widened"  # "Docker Compose only for local development" -> "production runs on Docker Compose"
    numeric = all(re.fullmatch(r"[\d.,]+", p) for p in specific)
    if specific and (kept_words or scope_ids & c_named) and not c.report and not (
            numeric and shape(c.text).numbers):
        return "widened"  # the kind of the scope without its case: "on hotfix branches" for `hotfix/3.1.4`
    head = _head(scope)
    # "for the inventory app" kept of "for the prototype of the inventory app": the whole named, not the case
    whole_only = len(words) >= 3 and head is not None and head in words and head not in stems(c.text)
    # a scope concept that the choice itself implies (a parent of the chosen thing, held by the line only as that
    # parent) says nothing of the case: "taxis only for airport trips" is kept by "a taxi to the airport"
    implied = {p for x in choice if not x.startswith(("v:", "w:")) for p in lx.expand(x)}
    weighed = scope_ids - (implied & (c.concepts - c_named))
    if weighed and not whole_only:
        sw = math.fsum(_w(x) for x in weighed)
        kept = math.fsum(_w(x) for x in weighed if x in c_named)
        if kept / sw > 0.5 or (scope_ids & c_ids & ENV_SCOPE):
            return None
    if words and len(kept_words) * 2 > len(words) and not whole_only:
        return None
    plain = not (kept_words or own_case(c.text, k.text) or _DEADLINE.match(scope))
    cap = NOVEL_MAX_PLAIN if plain else NOVEL_MAX
    # judged on the whole line, and on each clause that restates the choice by itself: "the user doesn't drink
    # alcohol — suggest alcohol-free options at restaurants" drops the scope in its first clause, whatever the
    # second adds
    # (not for a deadline: a clause about the present is inside "until 3.0 ships")
    parts = [c_ids] + [ids for cl in (() if _DEADLINE.match(scope) else c.clauses) if not cl.exception
                       for ids in [{x for x in cl.direct if lx.kind.get(x) != "generic"}]
                       if ids and math.fsum(w for x, w in choice.items() if x in ids) / max(math.fsum(choice.values()), 1e-9)
                       >= CHOICE_MIN]
    for ids in parts:
        novel = [x for x in ids if x not in choice and x not in scope_ids and x not in k.concepts
                 and not lx.slot_of.get(x)]
        if len(novel) / max(len(ids), 1) <= cap:
            return "dropped"
    return None
