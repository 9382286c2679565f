"""Slot values: a candidate that gives another value to a slot a constraint fixed (``substitution``).

A slot is a typed place in a rule (timezone, name, tool, URL, date, time, version, branch, a number of a unit, a
key's value); ``tiers.concepts`` extracts (slot, value, sign) per clause.
"""

from __future__ import annotations

import functools
import re

from ..concepts import DAY_GROUPS, Analysis, Clause, lexicon
from .phrasing import agent_act, artifact_modifiers, prescribes
from .structure import _parse_number, in_range, one_amount, other_thing, refines, shape, stems


def shared_signs(cc: Clause, kc: Clause) -> list[str]:
    """The content signs (not generic words, not slot names) both clauses carry with a sign."""
    lx = lexicon()
    return [x for x in cc.signs if x in kc.signs and lx.kind.get(x) not in {"generic", "slot"}
            and cc.signs[x] and kc.signs[x]]


_BY_SLOT: dict[int, tuple] = {}


def values_by_slot(a: Analysis) -> dict[str, list[tuple[str, int, Clause]]]:
    """The values of ``a``'s clauses that are not exceptions, by slot (read only), computed once per analysis:
    ``substitution`` asks it of both lines of every pair a lint checks."""
    got = _BY_SLOT.get(id(a))
    if got is not None and got[0] is a:
        return got[1]
    out: dict[str, list[tuple[str, int, Clause]]] = {}
    for cl in a.clauses:
        if cl.exception:
            continue
        for slot, val, sg in cl.values:
            out.setdefault(slot, []).append((val, sg, cl))
    if len(_BY_SLOT) > 50_000:
        _BY_SLOT.clear()
    _BY_SLOT[id(a)] = (a, out)
    return out


def same_value(slot: str, a: str, b: str) -> bool:
    if a == b:
        return True
    if slot == "DAY":
        ga, gb = DAY_GROUPS.get(a, {a}), DAY_GROUPS.get(b, {b})
        return ga <= gb or gb <= ga
    if slot == "NAME":
        ta, tb = set(a.split()), set(b.split())
        return ta <= tb or tb <= ta
    if slot == "TZ":
        return ("/" in a or "/" in b) and (a in b or b in a)
    if slot == "URL":
        return a in b or b in a
    return False


def mentions_value(c: Analysis, slot: str, val: str) -> bool:
    """The candidate names the value itself: the same value of the slot, or — for a zone, a name, a branch — a
    word of it; a URL only as a whole (its host alone, "api.example.com/v1" for ".../v2", is another URL)."""
    if any(same_value(slot, val, v) for s, v, _ in c.values if s == slot):
        return True
    if slot == "TZ" and "/" in val:
        val = val.split("/", 1)[1]  # "europe/london" is mentioned by "London", not by "Europe"
    parts = [p for p in val.replace("/", " ").replace("_", " ").split() if len(p) > 2]
    text = c.text.casefold()
    if slot in {"TZ", "NAME", "BRANCH"} and any(p in text for p in parts):
        return True
    return False


LIGHT = {"USE_TOOL", "CHANGE", "ADD", "WRITE", "SWITCH"}
#: Slots that say when something happens: a value of them belongs to the act of its clause.
WHEN_SLOTS = frozenset({"DATE", "TIME", "DAYPART", "DOM"})
#: Acts that set when another act happens (moving the standup sets the standup's time, not a time of its own).
#: Running a thing at a time is the thing at that time ("run the backup at 04:00").
_TIMING_ACTS = frozenset({"SCHEDULE", "MOVE", "BOOK_V", "SWITCH", "CHANGE", "DO", "GET", "GO", "USE_TOOL", "ADD",
                          "RUN"})


def own_act(ccl: Clause, kcl: Clause) -> bool:
    """The candidate's clause is about an act of its own, one the constraint's clause does not name and that does
    not set a time for another ("bib pickup on Dec 4" beside "the marathon on Dec 6", "send the agenda the evening
    before" beside "planning calls at 14:00"): a date or time in it is that act's, not another value of the
    constraint's."""
    kind = lexicon().kind
    return any(kind.get(x) == "action" and x not in kcl.signs and x not in _TIMING_ACTS for x in ccl.direct)
#: Slots that describe the user's own settings: one value at a time, whatever the sentence around it.
PERSONAL_SLOTS = {"NAME", "TZ", "SEAT", "UNITS", "CURRENCY", "DATE_FORMAT", "TRAVEL_CLASS"}
#: Value slots found by the shape of the text rather than the lexicon (compared like lexicon slots).
SHAPE_SLOTS = {"DATE_FORMAT", "VIA"}


def _value_is_object(cl: Clause, value: str) -> bool:
    """In "don't use Docker" the value is what is denied; in "never run npm install --force" it is context."""
    lx = lexicon()
    own = {value, *lx.expand(value), lx.slot_of.get(value)}
    others = [x for x in cl.direct if x not in own and x not in LIGHT and lx.kind.get(x) not in {"generic", "qualifier"}
              and not lx.slot_of.get(x)]
    return len(others) <= 1


def _time_bound(kcl: Clause, slot: str, pvs: list[str], k_text: str):
    """For a clause that bounds a time on one side ("only after 11:00", "before 12:00", «не раньше 10:00»): a test
    of whether a time, in minutes, is on the allowed side; None for a clause that gives a time as a value."""
    if slot != "TIME" or len(set(pvs)) != 1:
        return None
    before, after = "BEFORE_X" in kcl.signs, "AFTER_X" in kcl.signs
    if before == after:
        return None
    bound = _minutes(pvs[0])
    # "only after 11:00", "send it before 12:00" allow that side; "no calls after 22:00" forbids it; a plain
    # statement ("departures before 8 am are off limits") is read by the other rules
    if kcl.force == "prohibit":
        allowed = False
    elif kcl.force == "oblige" or kcl.has_only or prescribes(k_text):
        allowed = True
    else:
        return None
    if after:
        return (lambda m: m > bound) if allowed else (lambda m: m < bound)
    return (lambda m: m < bound) if allowed else (lambda m: m > bound)


_DAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
_DAY_WORD = (r"(mon|tue|wed|thu|fri|sat|sun|понедельник\w*|вторник\w*|сред\w*|четверг\w*|пятниц\w*|суббот\w*|"
             r"воскресень\w*|пн|вт|ср|чт|пт|сб|вс)[a-zа-яё]*\.?")
_DAY_RANGE = re.compile(rf"(?<![\w-]){_DAY_WORD}\s*(?:[–—-]|\bto\b|\bthrough\b|\bthru\b|\btill\b|\buntil\b|\bпо\b|"
                        rf"\bдо\b)\s*{_DAY_WORD}(?![\w-])", re.I)
_DAY_INDEX = {**{d[:3].lower(): i for i, d in enumerate(_DAYS)},
              **dict(zip(("пон", "вто", "сре", "чет", "пят", "суб", "вос"), range(7))),
              **dict(zip(("пн", "вт", "ср", "чт", "пт", "сб", "вс"), range(7)))}


def _day_index(word: str) -> int | None:
    w = word.casefold().rstrip(".")
    return _DAY_INDEX.get(w[:3]) if w[:3] in _DAY_INDEX else _DAY_INDEX.get(w[:2])


@functools.lru_cache(maxsize=4096)
def _day_span(text: str) -> frozenset[str] | None:
    """The days of a weekday range the text gives ("Mon–Thu", "Monday through Thursday", «с понедельника по
    четверг»), or None without one: a day inside it is a day of the rule's, not another value."""
    m = _DAY_RANGE.search(text)
    if m is None:
        return None
    a, b = _day_index(m.group(1)), _day_index(m.group(2))
    if a is None or b is None or a == b:
        return None
    span = range(a, b + 1) if a < b else [*range(a, 7), *range(0, b + 1)]
    return frozenset(_DAYS[i] for i in span)


_VERSION_SEGMENT = re.compile(r"v?\d+(?:\.\d+)*", re.I)


def _other_version(a: str, b: str) -> bool:
    """Two URLs that differ only in a version segment: "api.example.com/v1" and "api.example.com/v2"."""
    pa, pb = a.rstrip("/").split("/"), b.rstrip("/").split("/")
    if len(pa) != len(pb) or pa == pb:
        return False
    diff = [(x, y) for x, y in zip(pa, pb) if x != y]
    return len(diff) == 1 and all(_VERSION_SEGMENT.fullmatch(x) for x in diff[0])


def _list_item(kcl: Clause, slot: str) -> bool:
    """The clause holds nothing but values of the slot (an item of a list or sequence the constraint spreads over
    clauses: "…, then canary, then prod"), not a case of its own ("web stays on REST")."""
    lx = lexicon()
    own = {slot} | {v for s2, v, _ in kcl.values if s2 == slot}
    own |= {p for v in list(own) for p in lx.expand(v)}
    return not [x for x in kcl.direct if x not in own and lx.kind.get(x) not in {"generic", "qualifier"}
                and not lx.slot_of.get(x)]


def _other_object(ccl: Clause, kcl: Clause) -> bool:
    """Each clause names an object the other does not (the API and the docs site): the tool is each thing's own."""
    kind = lexicon().kind

    def objects(cl: Clause) -> set[str]:
        return {x for x in cl.direct if kind.get(x) == "object"}

    co, ko = objects(ccl), objects(kcl)
    return bool(co - ko) and bool(ko - co)


@functools.cache
def _whole_project() -> frozenset[str]:
    """The concepts of "the whole project" (repo, project, codebase, team, default; «проект», «команда»): a rule
    that names only them besides a tool chooses the tool for everything."""
    from ..concepts import analyze

    return frozenset(analyze("repo project codebase team company default our проект команда компания").concepts)


def bare_choice(kcl: Clause, slot: str) -> bool:
    """The constraint's clause chooses a tool of ``slot`` and says nothing else ("we use pnpm for this repo",
    «у нас pnpm», "Package manager: pnpm"): the tool is chosen for every act of the project, so another tool of
    the slot used for any act ("run yarn install") substitutes it, with no shared act needed."""
    lx = lexicon()
    if slot not in _lexicon_slots(lx) or kcl.force == "prohibit":
        return False
    own = {slot} | {v for s2, v, _ in kcl.values if s2 == slot}
    own |= {p for v in list(own) for p in lx.expand(v)}
    rest = [x for x in kcl.direct if x not in own and x not in LIGHT and x != "USER_G" and x not in _whole_project()
            and lx.kind.get(x) not in {"generic", "qualifier"}]
    return not rest


@functools.lru_cache(maxsize=2)
def _lexicon_slots(lx) -> frozenset[str]:
    """The slots the lexicon's values fill (a set once, not a scan of every value on each comparison)."""
    return frozenset(lx.slot_of.values())


def substitution(c: Analysis, k: Analysis) -> tuple[str, str, str] | None:
    """(slot, candidate value, constraint value) when the candidate sets a slot the constraint fixed (a report of
    the environment sets nothing; the agent's record of its own act does: "Rented a manual car")."""
    if c.report and not agent_act(c.text):
        return None
    kv, cv = values_by_slot(k), values_by_slot(c)
    lx = lexicon()
    mods = artifact_modifiers(c.text)  # "customer email templates" gives no channel
    for slot, cvals in cv.items():
        kvals = kv.get(slot)
        if not kvals or slot == "MONTH_V":
            continue  # a month names when a rule applies; another month is another case, not another value
        k_neg = [v for v, sg, _ in kvals if sg < 0]
        # whether a value the constraint denies can be "ruled out" below: a slot compared as a value
        ruled = bool(k_neg) and (slot in _lexicon_slots(lx) or slot == "NAME" or slot in SHAPE_SLOTS)
        k_pos = [(v, cl) for v, sg, cl in kvals if sg > 0]
        for val, sg, ccl in cvals:
            if sg <= 0 or (mods and val in mods and ccl.force == "assert"):
                continue
            if (ruled and any(same_value(slot, val, nv) for nv in k_neg)
                    and not any(same_value(slot, val, pv) for pv, _ in k_pos)):
                # a value the user ruled out ("not Samuel", "Zoom doesn't work for me"), now asserted
                # the constraint's clauses denying the value as their object
                k_cls = [cl for v, sg2, cl in kvals if sg2 < 0 and same_value(slot, val, v)
                         and _value_is_object(cl, v)]
                if not k_cls and slot != "NAME":
                    continue
                lonely = len([x for x in ccl.content if not lx.slot_of.get(x)]) <= 2 and (
                    slot in ccl.direct or any(x in k.concepts for x in ccl.content if lx.slot_of.get(x) != slot))
                anchored = any(x for kcl in k_cls for x in shared_signs(ccl, kcl)
                               if not lx.slot_of.get(x) and x != slot and lx.kind.get(x) != "qualifier"
                               and (x in ccl.direct or x in kcl.direct))
                if lonely or anchored or slot == "NAME":
                    return slot, val, "!" + next(v for v in k_neg if same_value(slot, val, v))
            if slot == "DATE" and (len({pv for pv, _ in k_pos}) > 1
                                   or len({v for v, sg2, cl2 in cvals if sg2 > 0 and cl2 is ccl}) > 1):
                continue  # a date range, in the constraint ("off Dec 22 - Jan 2") or the line: not one value
            # Compare clause by clause: "GraphQL only for mobile, web stays on REST" fixes REST for the web.
            by_clause: dict[int, tuple[Clause, list[str]]] = {}
            for pv, kcl in k_pos:
                by_clause.setdefault(id(kcl), (kcl, []))[1].append(pv)
            for kcl, pvs in by_clause.values():
                if any(same_value(slot, val, pv) for pv in pvs):
                    continue
                if _list_item(kcl, slot) and any(same_value(slot, val, pv) for pv, _ in k_pos):
                    continue  # "staging first, then canary, then prod": "then prod" is an item of K's list, and
                    # the line's value is another item of it, not another value
                k_months = {v for s2, v, sg2 in kcl.values if s2 == "MONTH_V" and sg2 > 0}
                c_months = {v for s2, v, sg2 in ccl.values if s2 == "MONTH_V" and sg2 > 0}
                if k_months and c_months and not (k_months & c_months) and slot != "DATE":
                    continue  # "in January: Wednesdays" says nothing about February (a date's own month is
                    # part of the date: "starts Dec 18" against "starts Jan 8" moves the day)
                if any(mentions_value(c, slot, pv) for pv in pvs):
                    continue
                if slot == "URL" and any(_other_version(val, pv) for pv in pvs):
                    return slot, val, pvs[0]  # the same address at another version ("/v1" for "/v2"), whatever
                    # else the lines share
                if kcl.force == "prohibit" and slot in {"DATE", "TIME", "DAY"}:
                    continue
                if slot in WHEN_SLOTS and own_act(ccl, kcl):
                    continue  # "tables are released at 18:00" beside "book for 19:30": another act's time
                if slot == "DAYPART" and any(s2 == "TIME" for s2, _, _ in kcl.values) and any(
                        s2 == "TIME" for s2, _, _ in ccl.values):
                    continue  # parts of the day read off clock times: the times are compared, not their parts
                if slot == "TIME" and len(set(pvs)) == 2:
                    continue  # a window ("02:00–04:00"): a time in or out of it is window_moved's to judge
                side = _time_bound(kcl, slot, pvs, k.text)
                if side is not None and side(_minutes(val)):
                    continue  # "11:30" beside "calls only after 11:00": inside the bound the rule sets
                days = _day_span(k.text) if slot == "DAY" else None
                if days is not None and (val in days or DAY_GROUPS.get(val, {val}) <= days):
                    continue  # "Wednesday" beside "deploys Mon–Thu": a day of the range the rule gives
                if any(cl2.signs.get(x, 0) < 0 < kcl.signs.get(x, 0) for cl2 in c.clauses for x in cl2.local_neg):
                    continue  # "outside staging, the cache is Memcached": the line places itself outside this case
                if slot.startswith("NUM:"):
                    if _within_limit(k.text, pvs[0], c.text, val):
                        continue  # an amount within a limit ("1200" beside «до 1500 рублей») is a case of it
                    cnum, knum = _parse_number(val), _parse_number(pvs[0])
                    if cnum is not None and knum is not None and in_range(shape(k.text), cnum, knum):
                        continue  # 20 beside "19–21°C": inside the range the rule gives
                    if cnum is not None and knum is not None and refines(cnum, knum, c.text, k.text):
                        continue  # "Node 20.11" beside "Node 20": a release of the version the rule fixes
                    anchors = frozenset(a for n in shape(k.text).numbers for a in n.anchors)
                    if other_thing(c.text, k.text, anchors & stems(c.text)):
                        continue  # "the DB query timeout" is not "the HTTP timeout"
                    if slot[4:] in ccl.signs and not one_amount(c.text, k.text, val, pvs[0]):
                        return slot, val, pvs[0]
                    continue
                anchors = [x for x in shared_signs(ccl, kcl) if not lx.slot_of.get(x) and x != slot
                           and lx.kind.get(x) not in {"qualifier"} and (x in ccl.direct or x in kcl.direct)]
                if not anchors and not [x for x in ccl.content if not lx.slot_of.get(x)]:
                    # "…, Word is fine too": a clause holding only the value takes its topic from the line
                    anchors = [x for cl2 in c.clauses if cl2 is not ccl for x in shared_signs(cl2, kcl)
                               if not lx.slot_of.get(x) and x != slot and lx.kind.get(x) not in {"qualifier"}]
                lonely = len([x for x in ccl.content if not lx.slot_of.get(x)]) <= 2 and (
                    slot in ccl.direct or any(x in k.concepts for x in ccl.content if lx.slot_of.get(x) != slot))
                if lonely and not anchors and _other_object(ccl, kcl):
                    lonely = False  # "the API is hosted on Fly.io" beside "deploy the docs site with Netlify"
                if slot in PERSONAL_SLOTS and not anchors and _someone_else(c):
                    continue  # "the vendor's support team sits in America/Chicago": another's setting
                if anchors or (lonely and slot not in {"DATE", "TIME", "DAY", "PROPER", "DOM"}) \
                        or slot in PERSONAL_SLOTS \
                        or slot.startswith("KEY:") or bare_choice(kcl, slot):
                    return slot, val, pvs[0]
    return None




def _within_limit(k_text: str, k_value: str, c_text: str, c_value: str) -> bool:
    """The constraint states ``k_value`` as an upper limit ("up to 1500", «до 1500 рублей»; not a minimum) and the
    candidate gives an amount within it that is not a limit of its own."""
    try:
        kv, cv = float(k_value.replace(",", ".")), float(c_value.replace(",", "."))
    except ValueError:
        return False
    if not any(n.limit and n.bound != "min" and abs(n.value - kv) < 1e-9 for n in shape(k_text).numbers):
        return False
    return cv <= kv and not any(n.limit and abs(n.value - cv) < 1e-9 for n in shape(c_text).numbers)


#: another party whose settings a line may give: a vendor, a client, a colleague, a team
_OTHER_PARTY = re.compile(r"\b(?:vendor|client|customer|colleague|partner|team|contractor|supplier)s?(?:'s)?\b|"
                          r"(?<![\w-])(?:у|для)\s+(?:клиент|коллег|подрядчик|партн[её]р|поставщик|команд)\w*", re.I)


def _someone_else(c: Analysis) -> bool:
    """The candidate gives a setting of another party than the user: it names no user and names a vendor, a
    client, a colleague or a team ("the vendor's support team sits in America/Chicago")."""
    return "USER_G" not in c.concepts and _OTHER_PARTY.search(c.text) is not None


def _window(times: list[str]) -> tuple[str, str] | None:
    uniq = sorted(set(times))
    return (uniq[0], uniq[1]) if len(uniq) == 2 else None


def window_moved(c: Analysis, k: Analysis) -> tuple[str, str, str] | None:
    """("window", candidate window, constraint window) when the constraint sets a window of time ("calls only
    11:00–16:00", «с 11:00 до 16:00») and the candidate, about the same thing, sets another one ("call window:
    9:00–14:00"). A window is a pair of clock times in one rule clause that does not prohibit; the candidate's pair
    may sit in any of its clauses ("Window for team calls: 9:00–14:00")."""
    if c.report:
        return None
    lx = lexicon()
    c_times = [v for cl in c.clauses if not cl.exception for s, v, sg in cl.values if s == "TIME" and sg > 0]
    cw = _window(c_times)
    if cw is None and len(set(c_times)) != 1:
        return None
    c_topic = {x for cl in c.clauses for x in cl.direct if lx.kind.get(x) in {"action", "object"}}
    for kc in k.clauses:
        if kc.exception or kc.force == "prohibit":
            continue
        kw = _window([v for s, v, sg in kc.values if s == "TIME" and sg > 0])
        if kw is None or kw == cw:
            continue
        topic = {x for x in kc.direct if lx.kind.get(x) in {"action", "object"}} & c_topic
        if not topic - {"CONTACT"}:
            continue
        lo, hi = _minutes(kw[0]), _minutes(kw[1])
        if cw is None:
            # one time: inside the window it is a case of it; outside, the act is set where the rule does not allow
            # it ("calls can be booked from 9:00" against «созвоны только с 11 до 17»), unless it is another act's
            t = _minutes(c_times[0])
            if lo <= t < hi or any(own_act(cl, kc) for cl in c.clauses if not cl.exception):
                continue
            return "window", c_times[0], "–".join(kw)
        if lo <= _minutes(cw[0]) and _minutes(cw[1]) <= hi:
            continue  # "this Sunday's maintenance runs 02:30–03:30" inside "02:00–04:00": a case of the window
        return "window", "–".join(cw), "–".join(kw)
    return None


def _minutes(v: str) -> int:
    h, m = v.split(":")
    return int(h) * 60 + int(m)
