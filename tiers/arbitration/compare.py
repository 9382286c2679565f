"""Comparing a candidate's analysis with a constraint's: relatedness, polarity, time windows, thresholds.

Each function takes two ``tiers.concepts.Analysis`` values (the candidate ``c``, the constraint ``k``) and says
what the candidate does to the constraint, or None. docs/arbitration.md states the rules.

Over 800 lines because polarity, time windows and licences share their clause helpers; the time-window functions
(``time_window``, ``timed_elsewhere`` and their span helpers) are the next seam to split along.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import re

from ..concepts import DAY_GROUPS, Analysis, Clause, analyze, lexicon
from .phrasing import agent_act, artifact_modifiers, prescribes
from .values import SHAPE_SLOTS, same_value, shared_signs

#: Minimum shared weight between a candidate clause and a constraint clause for a polarity comparison.
OVERLAP_MIN = 1.3
CONFLICT_FORCES = frozenset({"permit", "relax", "assert", "oblige", "prohibit", "indiff"})
PERMISSIVE = frozenset({"permit", "relax", "indiff"})


def _w(cid: str, cl: Clause | None = None) -> float:
    if cl is not None:
        w = cl.wmap.get(cid)
        if w is not None:
            return w
    return lexicon().weight(cid)


def _content_ids(cl: Clause) -> tuple[str, ...]:
    return cl.content


def _coverage(k_cl: Clause, c: Analysis) -> float:
    total = k_cl.content_total
    if total <= 0:
        return 0.0
    concepts = c.concepts
    wmap = k_cl.cov_w
    return math.fsum(wmap[x] for x in k_cl.content if x in concepts) / total


def c_coverage(c: Analysis, k: Analysis) -> float:
    """Share of the candidate's own content that the constraint talks about."""
    ids = {x for cl in c.clauses for x in _content_ids(cl) if x in cl.direct}
    total = math.fsum(_w(x) for x in ids)
    return math.fsum(_w(x) for x in ids if x in k.concepts) / total if total else 0.0


def relatedness(k: Analysis, c: Analysis) -> float:
    best = 0.0
    for kc in k.clauses:
        if kc.exception:
            continue
        best = max(best, _coverage(kc, c))
    return best


def _pair_w(x: str, cc: Clause, kc: Clause) -> float:
    w = min(_w(x, cc), _w(x, kc))
    if x in cc.antonymic or x in kc.antonymic:
        w *= 1.5  # one of a pair of opposites: evaluative core of the claim
    return w


def _overlap(cc: Clause, kc: Clause) -> float:
    return math.fsum(_pair_w(x, cc, kc) for x in shared_signs(cc, kc))


def _best_clause(cc: Clause, k: Analysis, frame: frozenset[str] = frozenset()) -> tuple[Clause | None, float]:
    best, best_ov = None, 0.0
    for kc in k.clauses:
        if kc.exception or (frame and kc.content and all(x in frame or x == "USER_G" for x in kc.content)):
            continue  # a clause that is only the decision's scope ("for the spring concert") claims nothing
        ov = _overlap(cc, kc)
        if ov > best_ov + 1e-9:
            best, best_ov = kc, ov
    return best, best_ov


_SIGNED: dict[int, tuple] = {}


def signed(a: Analysis) -> tuple[frozenset[str], frozenset[str], bool]:
    """(concepts with a positive sign, with a negative sign — in clauses that are not exceptions —, whether a
    clause relaxes or waves away), computed once per analysis."""
    got = _SIGNED.get(id(a))
    if got is not None and got[0] is a:
        return got[1]
    pos, neg = set(), set()
    loose = False
    for cl in a.clauses:
        if cl.exception:
            continue
        loose |= cl.force in ("relax", "indiff")
        for x, sg in cl.signs.items():
            if sg > 0:
                pos.add(x)
            elif sg < 0:
                neg.add(x)
    value = (frozenset(pos), frozenset(neg), loose)
    if len(_SIGNED) > 50_000:
        _SIGNED.clear()
    _SIGNED[id(a)] = (a, value)
    return value


def may_flip(c: Analysis, k: Analysis) -> bool:
    """Whether ``polarity`` or ``licensed`` could find anything: both need a concept the two lines sign
    oppositely (a flip, a dropped requirement, a bypassed gate, a licensed exception; antonyms are folded onto one
    id with the opposite sign), or a clause of the candidate that relaxes or waves away — or a prohibited window or
    limit the candidate gives a time or an amount for (``time_window``, ``threshold``), or a prohibited weekday
    the candidate gives a date for (``date_on_ruled_day``)."""
    c_pos, c_neg, loose = signed(c)
    k_pos, k_neg, _ = signed(k)
    if loose or not c_pos.isdisjoint(k_neg) or not c_neg.isdisjoint(k_pos):
        return True
    if "PERMIT" in c.markers and "ONLY" in k.markers and any(cl.has_only for cl in k.clauses):
        return True  # a permission beside an "only" rule may give the act to another (``only_excepted``)
    if _limited(k) and any(sg > 0 and (s == "TIME" or s.startswith("NUM:")) for s, _, sg in c.values):
        return True
    return any(sg > 0 and s == "DATE" for s, _, sg in c.values) and any(
        not cl.exception and cl.force == "prohibit" and any(s == "DAY" for s, _, _ in cl.values) for cl in k.clauses)


def _limited(k: Analysis) -> bool:
    """A prohibiting clause of ``k`` holds a time or a number (a window or a limit)."""
    return any(not cl.exception and cl.force == "prohibit" and any(s == "TIME" or s.startswith("NUM:")
                                                                    for s, _, _ in cl.values) for cl in k.clauses)


#: the gate acts themselves; a pull request is where a review happens, not the review
_GATE_ACTS = frozenset({"APPROVE", "ASK", "CONFIRM", "REVIEW", "PERMISSION_N", "DIFF", "SHOW_PLAN", "GATE"})


def _gate_sign(cc: Clause) -> int:
    """The sign a clause gives the approval gate: +1 kept, -1 bypassed, 0 not about it. "Never merge without an
    approval" (a gate after "without" inside a prohibition) keeps it; "don't use merge commits for PRs" (a
    prohibition that names a PR only as its context) says nothing about it."""
    lx = lexicon()
    if cc.force == "prohibit":
        if any(x == "GATE" or "GATE" in lx.expand(x) for x in cc.local_neg):
            return 1
        if not any(x in _GATE_ACTS or ("GATE" in lx.expand(x) and x != "PR") for x in cc.direct):
            return 0
    return cc.signs["GATE"]


_NOT_ENOUGH = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+)?enough\b|\binsufficient\b|\bнедостаточно\b|"
                         r"\bне\s+хватает\b|\bне\s+хватит\b|\bмало\b", re.I)


@functools.lru_cache(maxsize=65536)
def _says_not_enough(text: str) -> bool:
    # memo: asked of the same candidate for each of its candidates (a 10,000-line lint asks 80,000 times)
    return _NOT_ENOUGH.search(text) is not None


def insufficient(c: Analysis, k: Analysis) -> bool:
    """"One approval is not enough" against "two approvals": the candidate calls an amount below the
    constraint's own amount of the same thing insufficient, which restates the minimum."""
    if not _says_not_enough(c.text):
        return False
    k_nums = {s: v for kc in k.clauses if kc.force in {"oblige", "assert"} for s, v, sg in kc.values
              if s.startswith("NUM:") and sg > 0}
    for s, v, _ in c.values:
        if s in k_nums:
            try:
                return float(v.replace(",", ".")) < float(k_nums[s].replace(",", "."))
            except ValueError:
                return False
    return False


def elliptical_denial(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """"production logs at WARN or above, never DEBUG" against «на проде включаем DEBUG-логи»: a prohibition that
    names nothing but the denied value or word (no act or thing of its own) is about the clause before it; a
    candidate that gives that value positively, about the same thing, does what the rule rules out."""
    if c.report:
        return None
    kind = lexicon().kind
    for i, kc in enumerate(k.clauses):
        if i == 0 or kc.exception or kc.force != "prohibit":
            continue
        if any(kind.get(x) in {"action", "object"} for x in kc.direct if x != "USER_G"):
            continue
        denied = {x for x in kc.direct if kc.signs.get(x, 0) < 0 and kind.get(x) in {"value", None}}
        if not denied:
            continue
        prev = k.clauses[i - 1]
        topic = {x for x in prev.direct if kind.get(x) in {"action", "object"} and x != "USER_G"}
        for cc in c.clauses:
            if cc.exception or cc.force not in {"assert", "permit", "oblige"}:
                continue
            if any(cc.signs.get(x, 0) > 0 for x in denied) and topic & set(cc.signs):
                return ("permits" if cc.force == "permit" else "asserts"), "it does what the constraint rules out"
    return None


#: acts of a rule that do not make it a rule about an act: a rule "no emoji in anything you write" is about emoji
_THING_RULE_ACTS = frozenset({"USE_TOOL", "CHANGE", "ADD", "WRITE", "SWITCH", "DO", "GET", "GO"})
#: acts of putting a thing somewhere: a rule of one with a setting keeps the thing away from that setting
_PLACING_ACTS = frozenset({"COMMIT", "PUSH", "STORE", "RETENTION"})
_SETTING_THINGS = frozenset({"object", "lexical", "tool", "value"})


#: a label that opens a line and names what the rest of it is for ("Menu idea for Dec 12:", «На десерт —»)
_LABEL_OPEN = re.compile(r"^[-*+]?\s*[^:—–.;!?]{1,60}?(?::|\s[—–-])\s", re.U)
#: who a thing is for or kept from ("no dairy for the kids"): the audience of a rule about a thing, not the thing
_AUDIENCE = frozenset({"USER_G", "CHILD", "EMPLOYEE", "CLIENT", "MANAGER", "TEAM", "CONTRACTOR", "RECRUITER",
                       "CAREGIVER", "DOG"})
_OFFER_MARKERS = frozenset({"HEDGE", "PERMIT", "OBLIGE", "FUTURE_PLAN"})
_OFFER_CONCEPTS = frozenset({"SUGGEST", "MEAL", "ORDER", "BOOK_V", "LUNCH"})


def offers(c: Analysis) -> bool:
    """The line offers, plans or gives a thing rather than stating a fact about it: a guess or a permission, a
    plan, an imperative, the agent's record of its act ("Ordered …", «Заказал …»), a suggestion or a meal, or a
    labelled pick ("Dinner idea: …", «На десерт — …»)."""
    return bool(c.markers & _OFFER_MARKERS or c.concepts & _OFFER_CONCEPTS) or prescribes(c.text) \
        or agent_act(c.text) or _LABEL_OPEN.match(c.text) is not None


def avoided_thing(c: Analysis, cc: Clause, kc: Clause) -> bool:
    """A rule that keeps a thing away ("I'm allergic to tree nuts", «свинину не ем», "I don't fly", "no emoji in
    anything you write", «без эмодзи в письмах») and a clause that offers, plans or gives that thing, named or as a member of its family
    ("pistachio baklava for dessert", «карбонара с гуанчале», "the 07:15 Ryanair", "end the update with ✅"). One
    thing shared is enough here, where an act needs more overlap: the rule names no act of its own (eating is
    generic), so the thing is all it is about; a rule about a kind of thing ("red-eye flights") is about that kind,
    not its whole family. The line must offer the thing (``offers``): "The `dairy` table
    tracks milk yield", "Sugar Ray tickets arrive Dec 10" only name it. The weighing of the signs still decides."""
    if cc.force not in {"assert", "oblige", "permit"} or not offers(c):
        return False
    lx = lexicon()
    kind = lx.kind
    acts = {x for x in kc.direct if kind.get(x) == "action" and x not in _THING_RULE_ACTS}
    if acts:
        # "never commit API keys to the repo", «не хранить ключи в репозитории»: an act of placing a thing in a
        # setting keeps the thing away from there; a line that gives the thing in that setting (a key put in
        # settings.py, a file of the repo) does what the rule rules out, one that gives it elsewhere does not
        where = [x for x in kc.setting if kind.get(x, "lexical" if x.startswith("w:") else "") in _SETTING_THINGS]
        if not (acts <= _PLACING_ACTS and where and not c.concepts.isdisjoint(where)):
            return False
    heads = {p for y in kc.direct for p in lx.expand(y)}  # "red-eye flights": flight is the head of the kind
    stated = _stated_sides(lx)
    return any(kind.get(x) == "object" and x in kc.direct and cc.signs.get(x, 0) * kc.signs[x] < 0
               and (kc.force == "prohibit" or (x in kc.local_neg and kc.signs[x] < 0)
                    or (x in stated and kc.force == "assert" and kc.signs[x] > 0))
               for x in kc.signs if x not in _AUDIENCE and x not in heads)


_SIDES: tuple | None = None


def _stated_sides(lx) -> frozenset[str]:
    """The first sides of the ``[antonyms]`` pairs of two object concepts (VEGETARIAN against MEAT, CELIAC against
    GLUTEN, SOBER against ALCOHOL): a user who states one ("I'm coeliac", «я вегетарианец») keeps away the things
    of the other, as "no gluten" does — also those named only through their family ("carbonara", "seitan"), which
    the pair's own direct opposition does not reach. Computed once per lexicon."""
    global _SIDES
    if _SIDES is None or _SIDES[0] is not lx:
        _SIDES = (lx, frozenset(a for b, a in lx.antonym.items()
                                if lx.kind.get(a) == "object" and lx.kind.get(b) == "object"))
    return _SIDES[1]


def _acts_with(c: Analysis, cc: Clause, kc: Clause, k_actions: frozenset[str], shared) -> bool:
    """"Install dependencies with `npm install`" against "don't use npm": a rule that only forbids using a tool is
    broken by any act done with it — a clause naming an act of its own and the ruled-out tool, in a line that
    offers, plans or records the act (not a fact that names the tool: "npm's registry had an outage")."""
    if not k_actions <= {"USE_TOOL"}:
        return False
    lx = lexicon()
    return any(lx.kind.get(x) == "action" for x in cc.direct) and any(
        lx.slot_of.get(x) and kc.signs.get(x, 0) < 0 < cc.signs.get(x, 0) for x in shared) and offers(c)


def polarity(c: Analysis, k: Analysis, frame: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(what the candidate does, detail) when it flips the constraint's polarity, else None. ``frame``: the
    concepts of a DECISION's scope; a clause of the constraint holding nothing else is not compared."""
    if insufficient(c, k):
        return None  # "one approval is not enough" restates "two approvals"
    hit = elliptical_denial(c, k)
    if hit:
        return hit
    # Required approval gates: "ask first", "without review", "directly".
    k_gate = [kc.signs["GATE"] for kc in k.clauses if not kc.exception and kc.signs.get("GATE")]
    required = k_gate and all(s > 0 for s in k_gate)
    if required:
        c_gate = [(cc, s) for cc in c.clauses if cc.signs.get("GATE") for s in (_gate_sign(cc),) if s]
        if any(s < 0 and (cc.force in PERMISSIVE or not c.report) for cc, s in c_gate):
            return "bypasses", "it skips the approval the constraint requires"
        if c_gate and all(s > 0 for _, s in c_gate):
            return None
    hit = time_window(c, k)
    if hit:
        return hit
    th = threshold(c, k)
    if th == "conflict":
        return "permits", "the amount is beyond the limit the constraint sets"
    if th == "ok":
        return None
    for cc in c.clauses:
        if cc.exception:
            continue
        kc, ov = _best_clause(cc, k, frame)
        avoid = kc is not None and avoided_thing(c, cc, kc)
        if kc is not None and ov < OVERLAP_MIN and not avoid and not _nominal_permission(cc, kc):
            # "coffee black, no sugar": the thing kept away may be in another clause than the best one
            kc = next((kc2 for kc2 in k.clauses if not kc2.exception and avoided_thing(c, cc, kc2)), None)
            avoid = kc is not None
        if kc is None:
            continue
        if c.report and cc.force not in PERMISSIVE and not agent_act(c.text):
            continue  # a report of the environment states a fact; the agent's record of its own act does not
        if cc.force not in CONFLICT_FORCES:
            continue
        if cc.local_neg and cc.force == "assert" and all(
                x in cc.local_neg or lexicon().kind.get(x) in {"generic", "slot"} for x in cc.direct):
            continue  # "Outside staging, …", «кроме прода, …»: a frame naming the case left out, not a claim
        shared = shared_signs(cc, kc)
        kind = lexicon().kind
        if cc.force == "assert" and not c.universal:
            # "Deploy notes for Friday", «заметки о деплое»: a plain statement about an artifact of the act
            mods = artifact_modifiers(c.text)
            if mods:
                shared = [x for x in shared if x not in mods]
                acts = _clause_actions(kc, kind)
                if not shared or (acts and acts <= mods) or (kc.direct & mods and not any(
                        kind.get(x) in {"action", "object"} and x not in mods for x in shared)):
                    continue
        if kc.force == "prohibit" and cc.force in {"assert", "oblige"} and any(
                x in cc.local_neg and cc.signs.get(x, 0) < 0 and kc.signs.get(x, 0) < 0
                and kind.get(x) in {"object", "action", "value"} for x in shared):
            continue  # "alcohol-free drinks only" against "no alcohol at team events": it rules the thing out too
        if all(kind.get(x) == "qualifier" for x in shared):
            continue  # sharing only "Wednesday" or "prod" is not being about the same thing
        if kc.setting and all(x in kc.setting or kind.get(x) in {"generic", "slot"} for x in shared) and not any(
                kind.get(x) == "action" and x not in _THING_RULE_ACTS for x in kc.direct):
            continue  # "gift baskets get a handwritten card" against "no alcohol in gift baskets": where a rule
            # about a thing applies, without the thing (a rule about an act keeps its case: "on prod")
        if _disjoint_values(cc, kc):
            continue  # "never deploy on Fridays" says nothing about Monday deploys
        if _moved_off(cc, kc, c.text):
            continue  # "Thursday instead of Friday": the line applies the rule
        if cc.force in {"assert", "oblige"} and _when(kc) and not any(map(_when, c.clauses)) and not c.universal:
            continue  # "the deploy pipeline takes 11 minutes", "deploys need a changelog entry" say nothing
            # about when deploys happen
        k_actions, k_denied, required = _clause_rules(kc)
        # A rule about doing something ("don't *use* Docker") is flipped by a claim about doing it, or by an
        # explicit permission/relaxation; a plain fact that merely names the thing ("Docker seat renewal") is not.
        # ... so is a claim that removes what the rule keeps ("drop the Oxford comma" against "use the Oxford
        # comma": the act of removal is the rule's act denied)
        removes = any(x in cc.local_neg and cc.signs[x] < 0 < kc.signs[x] for x in shared)
        if k_actions and k_actions.isdisjoint(cc.signs) and cc.force not in PERMISSIVE and not removes \
                and not avoid and not _acts_with(c, cc, kc, k_actions, shared):
            continue  # (a thing put where a rule of placing keeps it away is the ruled act in other words)
        # "text messages, not voice notes" against "no voice messages": the line denies the very thing the
        # constraint denies elsewhere in it; its other clause is about a sibling, not a flip.
        # (a denied concept counts through its parents too: "emails" denies what "email addresses" does)
        if kc.force == "prohibit" and cc.force in {"assert", "oblige"} and any(
                cl2 is not cc and x not in cc.signs and (cl2.signs.get(x, 0) < 0 or any(
                    cl2.signs.get(y, 0) < 0 for y in lexicon().expand(x) if y != x and y not in cc.signs
                    and kind.get(y) not in {"generic", "slot", "qualifier"}))
                for cl2 in c.clauses for x in k_denied):
            continue
        if _contrapositive(c, cc, k, kc):
            return None  # "never merge while CI is red" restates "merge only after CI is green"; "CI is red"
            # is its condition, not a claim of its own
        # "only X" is denied by "not Y" for any Y other than X: a prohibition that spares X agrees.
        if kc.has_only and cc.force == "prohibit" and not (cc.negated_direct & kc.only_targets):
            continue
        # "never X without Y" makes Y a requirement: a line that keeps Y ("X with Y") agrees with it.
        if required and any(cc.signs.get(x, 0) > 0 for x in required):
            continue
        # "never push without a green run" is itself a requirement: it restates "always run the tests before
        # pushing" (two requirements on one act), it does not deny it
        # (so is "don't merge functions that lack type hints" against the plain rule "type hints on all functions",
        # when what it requires is the rule's own thing)
        if cc.force == "prohibit" and kc.force in {"oblige", "assert"} and any(
                cc.signs.get(x, 0) > 0 and (kc.force == "oblige" or kc.signs.get(x, 0) > 0) for x in cc.local_neg):
            continue
        # "don't use merge commits" against "always squash-merge": ruling out an alternative agrees
        if cc.force == "prohibit" and kc.force in {"oblige", "assert"} and not c.markers & _LICENSING \
                and prohibits_alternative(cc, kc):
            continue
        # "X without Y" against "always Y (for X)": what the candidate drops on purpose is its point.
        dropped = [x for x in shared if x in cc.local_neg and cc.signs[x] < 0 < kc.signs[x]
                   and lexicon().kind.get(x) not in {"qualifier", "generic"}]
        if dropped and cc.force in {"permit", "relax", "assert"}:
            return ("permits" if cc.force == "permit" else "asserts"), "it drops what the constraint requires"
        agree = dis = 0.0
        ant_agree = ant_dis = False
        thing_dis = False
        for x in shared:
            s = cc.signs[x] * kc.signs[x]
            w = _pair_w(x, cc, kc)
            antonymic = (x in cc.antonymic or x in kc.antonymic) and x in cc.direct and x in kc.direct
            if s > 0:
                agree += w
                ant_agree |= antonymic
            else:
                dis += w
                ant_dis |= antonymic
                thing_dis |= antonymic or kind.get(x) in {"object", "value"}
        if c.report and cc.force not in PERMISSIVE and not thing_dis:
            continue  # the agent's record of the ruled act done to another thing ("Published the release notes"
            # beside "never publish packages to the public registry") is another case
        # A pair of opposites ("HTTP"/"HTTPS", "failing"/"pass") is the core of the claim: it decides alone.
        if ant_dis or ant_agree:
            conflict = ant_dis
        elif avoid:
            conflict = True  # the thing kept away, given: what else the two share is where the rule applies
        else:
            conflict = dis > agree + 1e-9
        if conflict:
            what = {"permit": "permits", "relax": "relaxes", "indiff": "waves away"}.get(cc.force, "asserts")
            return what, "it says the opposite of the constraint"
    return None


def gate_bypassed(c: Analysis, k: Analysis) -> bool:
    """A rule that requires an approval gate for an act ("never publish without my confirmation", "show me the plan
    before applying") and a candidate clause that permits, or guesses it fine, to do that act past the gate
    ("can be published right away", "probably fine to apply it without waiting for the user"): the clause bypasses
    the gate and names a thing or act of the gated clause (not only the gate, the user or a qualifier)."""
    kind = lexicon().kind
    gated = [kc for kc in k.clauses if not kc.exception and kc.signs.get("GATE", 0) > 0]
    if not gated or any(kc.signs.get("GATE", 0) < 0 for kc in k.clauses if not kc.exception):
        return False
    for cc in c.clauses:
        if cc.exception or not (cc.force in PERMISSIVE or (c.hedged and cc.force in {"assert", "oblige"})):
            continue
        if not cc.signs.get("GATE") or _gate_sign(cc) >= 0:
            continue
        named = {x for x in cc.signs if x in cc.direct and x != "GATE" and x not in _LIGHT_CORE
                 and kind.get(x) not in {"generic", "qualifier", "slot"} and "GATE" not in lexicon().expand(x)}
        own = set(c.concepts) - {"GATE"}
        if any(named & kc.signs.keys() or (own & {x for x in kc.direct if kind.get(x) == "action"}) for kc in gated):
            return True
    return False


def _contrapositive(c: Analysis, cc: Clause, k: Analysis, kc: Clause) -> bool:
    """A prohibition under the opposite of an "only" rule's condition restates the rule: "never merge a PR while
    CI is red" against "merge only after CI is green" (the condition clauses share a concept with opposite signs;
    one with the same sign everywhere, "never merge while CI is green", is a flip)."""
    if not (kc.has_only and cc.force == "prohibit"):
        return False
    flipped = False
    for a in k.clauses:  # the rule's condition may sit in its own clause ("мержим только после зелёного CI")
        if a.exception:
            continue
        for b in c.clauses:
            if b is cc or b.exception:
                continue
            for x, sa in a.signs.items():
                sb = b.signs.get(x, 0)
                if sa and sb and lexicon().kind.get(x) != "generic" and x in (a.antonymic | b.antonymic
                                                                               | a.direct | b.direct):
                    if sa * sb > 0 and (x in a.antonymic or x in b.antonymic):
                        return False
                    flipped |= sa * sb < 0
    return flipped


_LICENSING = frozenset({"PERMIT", "RELAX", "INDIFF"})
_ALT_KINDS = frozenset({"object", "value", None})  # None: a word the lexicon does not know


def prohibits_alternative(cc: Clause, kc: Clause) -> bool:
    """A prohibition ``cc`` that rules out an alternative to what the positive rule ``kc`` chooses: the
    prohibition names another value of a slot the rule fixes, or else both name something of their own (the rule
    its choice, the prohibition the alternative: a thing or word the rule does not name); what both name is the
    context. "Don't use merge commits" agrees with "always squash-merge", "no DEBUG logging in production" with
    "log at INFO or higher in production"; "never squash-merge" and "never squash-merge into main" do not (the
    rule names nothing the prohibition leaves out)."""
    kind = lexicon().kind
    k_pos = {(s, v) for s, v, sg in kc.values if sg > 0}
    c_neg = {(s, v) for s, v, sg in cc.values if sg < 0}
    k_slots = {s for s, _ in k_pos}
    other_value = any(s in k_slots and (s, v) not in k_pos for s, v in c_neg)

    def own(a: Clause, b: Clause) -> bool:
        return any(x in a.direct and x not in b.signs and kind.get(x) in _ALT_KINDS and x not in _LIGHT_CORE
                   and not lexicon().slot_of.get(x) for x, sg in a.signs.items() if sg)

    alternative = other_value or any(cc.signs.get(x, 0) < 0 and x in cc.direct and x not in kc.signs
                                     and kind.get(x) in _ALT_KINDS and x not in _LIGHT_CORE
                                     and not lexicon().slot_of.get(x) for x in cc.signs)
    return alternative and (other_value or own(kc, cc))


_WHEN_SLOTS = frozenset({"DAY", "TIME", "DATE", "MONTH_V", "DOM"})


def _when(cl: Clause) -> bool:
    """The clause names when (a weekday, a time, a date, a month)."""
    return any(slot in _WHEN_SLOTS for slot, _, _ in cl.values)


def _clause_rules(kc: Clause) -> tuple[frozenset[str], list[str], frozenset[str]]:
    """What ``polarity`` asks of a constraint clause whatever the line: its own actions (the act a rule is about),
    the concepts it denies directly (not generic, qualifier or slot ids), the concepts "without" makes it
    require."""
    kind = lexicon().kind
    return (_clause_actions(kc, kind),
            [x for x in kc.negated_direct
             if kind.get(x) not in {"generic", "qualifier", "slot"} and kc.signs.get(x, 0) < 0],
            frozenset([x for x in kc.local_neg if kc.signs.get(x, 0) > 0 and kind.get(x) != "generic"]))


def _clause_actions(kc: Clause, kind: dict[str, str]) -> frozenset[str]:
    """A constraint clause's own actions (the act a rule is about; not the light DO, GET, GO)."""
    return frozenset([x for x in kc.direct if kind.get(x) == "action" and x not in {"DO", "GET", "GO"}])


def _nominal_permission(cc: Clause, kc: Clause) -> bool:
    """"A taxi is fine" against «не заказывай такси»: a permission naming no act of its own, about all the
    constraint's clause is about apart from its verb (one shared object is then enough to compare)."""
    if cc.force not in PERMISSIVE:
        return False
    lx = lexicon()
    if any(lx.kind.get(x) == "action" for x in cc.direct):
        return False
    k_things = {x for x in kc.content if x in kc.direct and lx.kind.get(x) not in {"action", "qualifier"}}
    if k_things and k_things <= set(cc.signs):
        return True
    # «глютен теперь можно» against «никакого глютена в продуктах»: the permission is about nothing but the
    # constraint's own things
    own = {x for x in cc.content if x in cc.direct}
    return bool(own) and own <= set(kc.signs) and bool(own & k_things)


def _minutes(v: str) -> int:
    h, m = v.split(":")
    return int(h) * 60 + int(m)


def window_kept(c: Analysis, k: Analysis) -> bool:
    """"Earliest slot for any meeting: 10:00" or "calls are fine before 12:00 or after 13:00" against "no meetings
    before 10 am", "no calls 12:00–13:00": a clause about the same thing whose every time bounds it away from the
    window the constraint rules out (on the window's edge or beyond it, with "after"/"earliest" on the late side and
    "before"/"at the latest" on the early side) restates the rule."""
    kind = lexicon().kind
    for kc in k.clauses:
        win = None if kc.exception or kc.force != "prohibit" else _window(kc)
        if win is None:
            continue
        lo, hi = win
        for cc in c.clauses:
            times = [_minutes(v) for s, v, sg in cc.values if s == "TIME" and sg > 0]
            if cc.exception or not times or cc.force not in {"permit", "assert", "oblige", "indiff"}:
                continue
            if not any(x in kc.signs and kind.get(x) not in {"generic", "qualifier"} for x in cc.signs):
                continue
            if all((t >= hi and "AFTER_X" in cc.signs) or (t <= lo and "BEFORE_X" in cc.signs) for t in times):
                return True
    return False


def time_window(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """"nothing before 10:00" against "a 9:00 meeting is fine": a time inside a forbidden window."""
    for kc in k.clauses:
        if kc.exception or kc.force != "prohibit":
            continue
        before, after = "BEFORE_X" in kc.signs, "AFTER_X" in kc.signs
        k_times = sorted({v for s, v, _ in kc.values if s == "TIME"}, key=_minutes)
        window = _rule_window(k, kc)
        if window is None:
            continue
        lo, hi = window
        for cc in c.clauses:
            if cc.exception or cc.force not in {"permit", "assert", "oblige"} or (c.report and cc.force != "permit"):
                continue
            topic = [x for x in cc.signs if x in kc.signs and lexicon().kind.get(x) not in {"generic", "qualifier"}]
            k_topic = any(lexicon().kind.get(x) not in {"generic", "qualifier"} and x != "USER_G" for x in kc.direct)
            # "calls before 10:00 are acceptable" against "nothing before 10:00": the very window, permitted (a rule
            # naming nothing but the window rules on anything in it)
            if (topic or not k_topic) and cc.force == "permit" and len(k_times) == 1 and before != after \
                    and ("BEFORE_X" in cc.signs) == before and ("AFTER_X" in cc.signs) == after \
                    and any(s == "TIME" and v == k_times[0] for s, v, _ in cc.values):
                side = "before" if before else "after"
                return "permits", f"it permits the window the constraint rules out ({side} {k_times[0]})"
            if not topic:
                continue
            timed = any(s == "TIME" for s, _, _ in cc.values)  # a part of the day read off a clock time adds nothing
            for s, v, sg in cc.values:
                if s == "TIME" and sg > 0 and _inside(_minutes(v), lo, hi):
                    return "permits", f"{v} falls in the window the constraint rules out"
                span = _DAYPART_SPAN.get(v) if s == "DAYPART" and sg > 0 and not timed else None
                if span is not None and _covers(lo, hi, span):
                    part = v.removeprefix("PART_").lower()
                    return "permits", f"the {part} falls in the window the constraint rules out"
    return None


def _window(kc: Clause) -> tuple[int, int] | None:
    """The minutes a prohibiting clause's time window covers, (from, to) as written: "no calls 15:00–16:00",
    "nothing before 10:00", "no pings after 22:00"; a window written from late to early ("22:00–07:00") runs over
    midnight (from > to). None without one."""
    before, after = "BEFORE_X" in kc.signs, "AFTER_X" in kc.signs
    k_times = list(dict.fromkeys(v for s, v, _ in kc.values if s == "TIME"))
    if len(k_times) == 2 and before == after:
        return _minutes(k_times[0]), _minutes(k_times[1])
    if len(k_times) == 1 and before != after:
        return (-1, _minutes(k_times[0])) if before else (_minutes(k_times[0]), 24 * 60 + 1)
    return None


def _rule_window(k: Analysis, kc: Clause) -> tuple[int, int] | None:
    """The window of a prohibiting clause, or — when the clause names no time — of a clause of the rule that names
    a window and no act ("quiet hours 22:00–07:00, no notifications")."""
    if not any(s == "TIME" for s, _, _ in k.values):
        return None  # most rules name no clock time (asked for each pair a line meets)
    got = _window(kc)
    if got is not None or any(s == "TIME" for s, _, _ in kc.values):
        return got
    kind = lexicon().kind
    for other in k.clauses:
        if other is not kc and not other.exception and not any(kind.get(x) == "action" for x in other.direct):
            times = list(dict.fromkeys(v for s, v, _ in other.values if s == "TIME"))
            if len(times) == 2:
                return _minutes(times[0]), _minutes(times[1])
    return None


def _inside(m: int, lo: int, hi: int) -> bool:
    return lo < m < hi if lo <= hi else (m > lo or m < hi)


def _covers(lo: int, hi: int, span: tuple[int, int]) -> bool:
    a, b = span
    return lo <= a and b <= hi if lo <= hi else (a >= lo or b <= hi)


def _apart(lo: int, hi: int, span: tuple[int, int]) -> bool:
    a, b = span
    return (b <= lo or a >= hi) if lo <= hi else (a >= hi and b <= lo)


def timed_elsewhere(c: Analysis, k: Analysis) -> bool:
    """The constraint forbids a time window and every time or part of the day the line gives lies wholly outside
    it ("deploys can go out in the evening" beside "no deploys 09:00–18:00"): another case, not an exception."""
    windows = [w for kc in k.clauses if not kc.exception and kc.force == "prohibit" for w in [_rule_window(k, kc)]
               if w]
    if not windows:
        return False
    spans = []
    for cc in c.clauses:
        timed = any(s == "TIME" for s, _, _ in cc.values)  # a part of the day read off a clock time adds nothing
        for s, v, sg in cc.values:
            if sg <= 0 or (timed and s == "DAYPART"):
                continue
            if s == "TIME":
                spans.append((_minutes(v), _minutes(v)))
            elif s == "DAYPART" and v in _DAYPART_SPAN:
                spans.append(_DAYPART_SPAN[v])
            elif s == "DAYPART":
                return False  # a part of the day not placed on the clock
    return bool(spans) and all(_apart(lo, hi, (a, b)) for a, b in spans for lo, hi in windows)


#: the clock hours a part of the day covers, in minutes: a part wholly inside a forbidden window falls in it
#: ("mid-afternoon" in "09:00–18:00"; "the evening" after 18:00); the morning is not wholly inside 09:00–18:00
_DAYPART_SPAN = {"PART_MORNING": (6 * 60, 12 * 60), "PART_AFTERNOON": (12 * 60, 18 * 60),
                 "PART_EVENING": (18 * 60, 23 * 60), "PART_NIGHT": (23 * 60, 24 * 60)}


_WEEKDAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")


def _weekday(md: str, today: _dt.date) -> str | None:
    """The weekday of a date "MM-DD" without a year: the nearest such date not more than half a year before
    ``today`` (a plan names a coming day; "Dec 11" read on Nov 30, 2026 is Friday, Dec 11, 2026)."""
    try:
        month, day = (int(x) for x in md.split("-"))
        got = _dt.date(today.year, month, day)
        if (today - got).days > 183:
            got = _dt.date(today.year + 1, month, day)
    except ValueError:
        return None
    return _WEEKDAYS[got.weekday()]


def date_on_ruled_day(c: Analysis, k: Analysis, today: _dt.date | None = None) -> tuple[str, str] | None:
    """"Release 4.1 goes out Dec 11" against "don't deploy on Fridays": a date whose weekday the constraint rules
    out, for the act it rules on (the clauses share an action or object, or the rule names nothing but days). A
    report counts only when it records the agent's own act ("Booked the dentist for Dec 5")."""
    if c.report and not agent_act(c.text):
        return None
    today = today or _dt.date.today()
    kind = lexicon().kind
    for kc in k.clauses:
        if kc.exception or kc.force != "prohibit":
            continue
        days = set()
        for s_, v, _ in kc.values:
            if s_ == "DAY":
                days |= DAY_GROUPS.get(v, {v})
        if not days:
            continue
        k_topic = {x for x in kc.signs if kind.get(x) in {"action", "object"} and x not in _LIGHT_CORE}
        for cc in c.clauses:
            if cc.exception or cc.force not in {"assert", "permit", "oblige"}:
                continue
            target = _move_target(cc, c.text)
            dates = [v for s_, v, sg in cc.values if s_ == "DATE" and sg > 0 and (target is None or (s_, v) in target)]
            if not dates or _moved_off(cc, kc, c.text):
                continue  # none, or "Thursday Dec 3 instead of Friday Dec 4": the rule applied
            if k_topic and not (k_topic & set(cc.signs)):
                continue
            if not k_topic and not any(kind.get(x) == "action" for x in cc.signs):
                continue
            for v in dates:
                wd = _weekday(v, today)
                if wd in days:
                    return "permits", f"{v} is a {wd.capitalize()}, a day the constraint rules out"
    return None


def dated_elsewhere(c: Analysis, k: Analysis, today: _dt.date | None = None) -> bool:
    """"Deploy on Dec 17" against "no deploys on Fridays": every date of the candidate falls on a day the rule
    does not name (and the candidate names no weekday), so it speaks of another case."""
    days = set()
    for kc in k.clauses:
        if not kc.exception and kc.force == "prohibit":
            for s_, v, _ in kc.values:
                if s_ == "DAY":
                    days |= DAY_GROUPS.get(v, {v})
    if not days or any(s_ == "DAY" for s_, _, _ in c.values):
        return False
    dates = [v for s_, v, sg in c.values if s_ == "DATE" and sg > 0]
    today = today or _dt.date.today()
    return bool(dates) and all(_weekday(v, today) not in days for v in dates)


_WORK_START, _WORK_END = 8 * 60, 19 * 60


def _outside_business_hours(cc: Clause) -> bool:
    days = [v for s, v, _ in cc.values if s == "DAY"]
    times = [v for s, v, _ in cc.values if s == "TIME"]
    if days and all(DAY_GROUPS.get(d, {d}) <= DAY_GROUPS["WEEKEND"] for d in days):
        return True
    return bool(times) and all(not _WORK_START <= _minutes(t) < _WORK_END for t in times)


def _disjoint_values(cc: Clause, kc: Clause) -> bool:
    """Both clauses name values of one slot and none coincide: they are about different cases."""
    if "BUSINESS_HOURS" in kc.signs and "BUSINESS_HOURS" not in cc.signs and _outside_business_hours(cc):
        return True
    kv: dict[str, list[str]] = {}
    for slot, v, _ in kc.values:
        kv.setdefault(slot, []).append(v)
    cv: dict[str, list[str]] = {}
    for slot, v, _ in cc.values:
        cv.setdefault(slot, []).append(v)
    compared = None
    for slot, vals in cv.items():
        if slot not in kv:
            continue
        if compared is None:  # {"DAY", "TIME", "DATE", "FLAG", "AIRPORT_CODE"} | _SHAPE_SLOTS | the lexicon's slots
            compared = compared_slots()
        if slot in compared:
            if not any(same_value(slot, a, b) for a in vals for b in kv[slot]):
                return True
    return False


def _moved_off(cc: Clause, kc: Clause, text: str = "") -> bool:
    """"Propose Thursday instead of Friday" against "no meetings on Fridays": the candidate's clause rules out the
    value the prohibition names and gives another value of that slot: the act is moved off the ruled case. A move
    ("Dec 4 is a Friday, so the deploy moves to Thursday", «переносим с пятницы на четверг») rules out every value
    of the clause outside its target."""
    if kc.force != "prohibit":
        return False
    k_vals = {(s_, v) for s_, v, sg in kc.values if s_ in compared_slots()}
    target = _move_target(cc, text) if text else None
    if target is not None:
        c_pos = target
        c_neg = {(s_, v) for s_, v, sg in cc.values if (s_, v) not in target}
    else:
        c_neg = {(s_, v) for s_, v, sg in cc.values if sg < 0}
        c_pos = {(s_, v) for s_, v, sg in cc.values if sg > 0}
    return any(sv in c_neg and any(s2 == sv[0] and v2 != sv[1] for s2, v2 in c_pos) for sv in k_vals)


#: The preposition that names where a move goes ("moves to Thursday", «переносим на четверг»).
_TARGET = re.compile(r"(?<!\w)(?:to|onto|until|till|на)\s+", re.I)


def _move_target(cc: Clause, text: str) -> frozenset[tuple[str, str]] | None:
    """The values a clause moves its act to: those after the first target preposition of the line that follows a
    move word (``MOVE`` in the concept lexicon); None when the clause moves nothing."""
    if "MOVE" not in cc.signs or not text:
        return None
    seg = text  # clause bounds are token indices: the line's first move is the clause's
    for m in _TARGET.finditer(seg):
        if "MOVE" in analyze(seg[:m.start()]).concepts:
            return frozenset((s_, v) for s_, v, sg in analyze(seg[m.end():]).values if sg > 0)
    return None


def threshold(c: Analysis, k: Analysis) -> str | None:
    """"never above 150" against 220 (conflict) or 120 (compatible): 'conflict', 'ok' or None."""
    for kc in k.clauses:
        if kc.exception or kc.force != "prohibit":
            continue
        above, below = "ABOVE" in kc.raw, "BELOW" in kc.raw
        if above == below:
            continue
        for ks, kv, _ in kc.values:
            if not ks.startswith("NUM:"):
                continue
            for cc in c.clauses:
                for cs, cv, sg in cc.values:
                    if cs != ks or sg <= 0:
                        continue
                    try:
                        a, b = float(cv.replace(",", ".")), float(kv.replace(",", "."))
                    except ValueError:
                        continue
                    inside = a > b if above else a < b
                    if not inside:
                        return "ok"
                    if cc.force in {"permit", "assert", "oblige"} and not (c.report and cc.force != "permit"):
                        return "conflict"
    return None




def compared_slots() -> frozenset[str]:
    """The slots whose values tell cases apart ("never deploy on Fridays" says nothing about Mondays)."""
    return _compared_slots(lexicon())


@functools.lru_cache(maxsize=2)
def _compared_slots(lx) -> frozenset[str]:
    return frozenset({"DAY", "TIME", "DATE", "FLAG", "AIRPORT_CODE"} | SHAPE_SLOTS | set(lx.slot_of.values()))


#: Share of a prohibition's denied core a permission must name to license it ("X is fine when …").
def _names_the_case(cc: Clause, kc: Clause) -> bool:
    """The candidate's clause gives one of the values that make the rule's case (a weekday, a time, a version…)."""
    return any(s1 == s2 and same_value(s1, v1, v2) for s1, v1, _ in kc.values for s2, v2, _ in cc.values)


LICENSE_MIN = 0.5
#: The same for a hedged guess, which need not restate all of the rule to recommend the act ("probably fine to
#: apply it"): it names its act.
GUESS_MIN = 0.3
_QUESTION = re.compile(r"\?|\bли\b|\bwhether\b|\bask(?:ed|s|ing)? (?:if|whether)\b", re.I)


@functools.lru_cache(maxsize=65536)
def _asks(text: str) -> bool:
    # memo: asked of the same candidate for each of its candidates
    return _QUESTION.search(text) is not None


_CORE_KINDS = frozenset({"action", "object", "value", None})  # None: a word the lexicon does not know


def _core(kc: Clause, sign: int) -> dict[str, float]:
    """The concepts a rule clause is about with the given sign (its core): actions, objects, values and unknown
    words; not generic words, slots, or the user who said it."""
    kind = lexicon().kind
    return {x: _w(x, kc) for x, sg in kc.signs.items()
            if sg * sign > 0 and x in kc.direct and kind.get(x) in _CORE_KINDS and x not in _LIGHT_CORE}


#: the weight of a code span in a rule's core (an object the user named exactly)
CODE_WEIGHT = 1.5
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _code_spans(text: str) -> frozenset[str]:
    return frozenset(x.strip().casefold() for x in _CODE_SPAN.findall(text)) if "`" in text else frozenset()


_LIGHT_CORE = frozenset({"USER_G", "DO", "GET", "GO", "THING", "w:first"})


_UNIVERSAL_WORD = re.compile(r"\b(?:all|every|each|any|все|всех|всем|каждый|каждого|каждую|каждом|любой|любые|любых)\s+"
                             r"([^,;.!?]+)", re.I)


@functools.lru_cache(maxsize=4096)
def _domain(text: str) -> frozenset[str]:
    """The concepts a rule's universal word ranges over ("all new Python functions" → NEW, PYTHON, function)."""
    m = _UNIVERSAL_WORD.search(text)
    return analyze(m.group(1)).concepts if m else frozenset()


_ONLY_WORD = re.compile(r"\b(?:only|solely|exclusively|только|лишь)\s+([^\W\d_][\w'-]*)", re.I)
_ONLY_SKIP = frozenset("""for in on at to by with from after before when if the a an our my для в во на по с со к
после до при если когда""".split())


@functools.lru_cache(maxsize=65536)
def _only_word(text: str) -> str | None:
    """The word after "only" in a rule ("only Omar restarts …"), or None (memo: asked for each candidate)."""
    m = _ONLY_WORD.search(text)
    return m.group(1) if m else None


def only_excepted(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """"Only Omar restarts the workers" against "anyone on call can restart the workers": a permission of the
    rule's act that leaves out the one thing "only" allows and names another of its kind in its place."""
    word = _only_word(k.text)
    if word is None or word.casefold() in _ONLY_SKIP:
        return None
    lx = lexicon()
    target = {x for x in analyze(word).concepts if lx.kind.get(x) not in {"generic", "slot"}}
    if not target:
        return None
    lexical = all(x.startswith("w:") for x in target)
    slots = {lx.slot_of.get(x) for x in target} - {None}
    for kc in k.clauses:
        if kc.exception or not kc.has_only:
            continue
        acts = {x for x in kc.direct if lx.kind.get(x) == "action" and x not in _LIGHT_CORE and x not in target
                and kc.signs.get(x, 0) > 0}
        if not acts:
            continue
        for cc in c.clauses:
            if cc.exception or cc.force != "permit" or not any(cc.signs.get(x, 0) > 0 for x in acts):
                continue
            if any(x in cc.signs for x in target):
                continue
            other = [x for x in cc.direct if x not in k.concepts and cc.signs.get(x, 0) > 0 and (
                (lexical and x.startswith("w:")) or (slots and lx.slot_of.get(x) in slots))]
            if other:
                return "permits", "it permits the act to another than the only one the constraint allows"
    return None


def licensed(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """(what, detail) when the candidate permits, relaxes or — as a guess — recommends what a constraint's clause
    rules out, with or without a condition of its own ("… are acceptable when …", «в тестах допустим»): an
    exception the user never gave. None otherwise.

    A prohibiting clause's denied core must come back unnegated in the candidate's permissive clauses (for a
    guess: any clause) for at least LICENSE_MIN of its weight (GUESS_MIN for a guess, which must name one of its
    actions); an obliging clause's core must come back negated or relaxed. Clauses about other values of a
    compared slot (another weekday, another time) are other cases, not exceptions."""
    guess = c.hedged
    if (c.report and not guess) or c.mention or _asks(c.text):
        return None  # "asked whether it may be moved" licenses nothing; a guess after a report is still a guess
    # a code span the rule names (`any`, `legacy/`) is part of its core; a permission naming it again names it
    k_code = _code_spans(k.text)
    shared_code = k_code & _code_spans(c.text) if k_code else frozenset()
    for kc in k.clauses:
        # a plain statement over every case ("type hints on all new functions") is a rule, like an obligation
        # (so is a rule given by its mood: "answer within 2 hours", «отвечать в течение двух часов»)
        ruling = kc.force in {"prohibit", "oblige"} or (kc.force == "assert" and (
            "UNIVERSAL" in kc.markers or prescribes(k.text)))
        if kc.exception or not ruling:
            continue
        sign = -1 if kc.force == "prohibit" else 1
        core = _core(kc, sign)
        if sign > 0 and "UNIVERSAL" in kc.markers:
            # "type hints on all new functions": what "all" ranges over is where an exception falls ("private
            # helpers can skip type hints"), not what it must name again
            domain = _domain(k.text)
            if any(x not in domain for x in core):
                core = {x: w for x, w in core.items() if x not in domain}
        total = math.fsum(core.values()) + CODE_WEIGHT * len(k_code)
        if total <= 0:
            continue
        kind = lexicon().kind
        got: dict[str, float] = {}
        acts = False
        for cc in c.clauses:
            if cc.exception or _disjoint_values(cc, kc):
                continue
            permissive = cc.force in PERMISSIVE
            # a guess that recommends or assumes the act ("probably the pragmatic way", «видимо, тут норма»)
            if not (permissive or (guess and cc.force in {"oblige", "assert"})):
                continue
            if not permissive and kc.values and not _names_the_case(cc, kc):
                continue  # a guess about the act in general, not about the case the rule rules out ("on Sunday")
            # a permission naming no act of its own ("raw SQL is acceptable") permits the rule's act on its things
            nominal = permissive and sign < 0 and not any(kind.get(x) == "action" for x in cc.direct)
            for x, w in core.items():
                sg = cc.signs.get(x, 0)
                if (sign < 0 and sg > 0) or (sign > 0 and (sg < 0 or (sg > 0 and cc.force == "relax"))):
                    got[x] = w
                    acts |= kind.get(x) == "action"
            if nominal and any(x in got for x in core if kind.get(x) != "action"):
                for x, w in core.items():
                    if kind.get(x) == "action":
                        got[x] = w
            if permissive and sign < 0:
                for span in shared_code:
                    got["code:" + span] = CODE_WEIGHT
        share = math.fsum(got.values()) / total
        # a guess that puts the very case the rule rules out (its weekday, time, version) on the rule's thing
        # ("Friday 15:00 probably works for the vendor call" beside "no meetings on Fridays") proposes the act
        cased = guess and kc.values and any(
            _names_the_case(cc, kc) and any(cc.signs.get(x, 0) > 0 for x in got)
            for cc in c.clauses if not cc.exception)
        if share >= LICENSE_MIN or (guess and (acts or cased) and share >= GUESS_MIN):
            what = "recommends" if guess else "permits"
            return what, "it makes an exception the user never gave" if not guess else \
                "it guesses that what the constraint rules out is fine"
    return None
