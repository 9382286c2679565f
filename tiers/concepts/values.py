"""Slot values of a clause: times, dates, zones, numbers, URLs, branches, flags, proper words."""

from __future__ import annotations

from functools import reduce
from operator import or_
TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed

from .flags import _F_CITY, _F_DIGIT, _F_MON_ANY, _F_MON_EN, _F_UTC, _F_VIA, _MONTH_OR_UTC
from .names import _proper_words
from .patterns import _lazy
from .tables import lexicon
from .words import _MONTHS, _NUM_WORDS, _STOP, _TZ_ABBR, _stem

if TYPE_CHECKING:
    from .records import Clause


_TZ = _lazy(
    r"^(?:africa|america|antarctica|asia|atlantic|australia|europe|indian|pacific|etc)/[a-z_+-]+(?:/[a-z_]+)?$"
)
_CITY_TZ = {"moscow": "europe/moscow", "москв": "europe/moscow", "московск": "europe/moscow",
            "berlin": "europe/berlin", "берлин": "europe/berlin", "london": "europe/london",
            "лондон": "europe/london", "paris": "europe/paris", "lisbon": "europe/lisbon", "kyiv": "europe/kyiv",
            "киев": "europe/kyiv", "tokyo": "asia/tokyo", "warsaw": "europe/warsaw", "riga": "europe/riga",
            "new york": "america/new_york", "pacific": "america/los_angeles", "eastern": "america/new_york",
            "tbilisi": "asia/tbilisi", "тбилис": "asia/tbilisi", "yerevan": "asia/yerevan"}
_CITY_TIME = _lazy(
    r"\b(moscow|berlin|london|paris|lisbon|kyiv|tokyo|warsaw|riga|new york|pacific|eastern|tbilisi|yerevan)\s+time\b"
    r"|\b(?:по\s+)?(московск|берлинск|лондонск|киевск|тбилисск)\w*\s+времен\w*"
    r"|\bпо\s+(москв|берлин|лондон|киев|тбилис)\w*"
    r"|\b(msk|мск)\b")
_OFFSET = _lazy(r"(?:utc|gmt)\s?([+-]\s?\d{1,2})(?::?(\d{2}))?|(?<=\d)([+-]\d{2}):?(\d{2})\b")
_DATE_MD = _lazy(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\b(?!:)")
_DATE_DM = _lazy(
    r"\b(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя|дек)[a-zа-я]*\b"
)
#: day ranges within a month, read from the clause's tokens (a dash between digits is no token): "Dec 4–5",
#: "Dec 21 to 31" give the end, "21–31 декабря", «с 21 по 31 декабря» the start
_RANGE_MD = _lazy(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\s+(?:(?:to|through|till|"
                  r"until|-)\s+)?(\d{1,2})\b(?![:.\d])")
_RANGE_DM = _lazy(r"\b(\d{1,2})\s+(?:(?:по|до|to|through|-)\s+)?(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
                  r"nov|dec|янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя|дек)[a-zа-я]*\b")
_DATE_DOT = _lazy(r"(?<![\d.])(\d{1,2})\.(\d{1,2})(?:\.(\d{2,4}))?(?![\d.])")
_ISO_OFFSET = _lazy(r"t\d{2}:\d{2}(?::\d{2})?(z|[+-]\d{2}:?\d{2})$")
_AIRPORT = _lazy(r"\(([A-Z]{3})\)")
_BRANCH_WORDS = frozenset({"main", "master", "trunk", "develop", "dev"})


class _Line:
    """What the value passes of every clause of one line share."""

    __slots__ = ("texts", "kinds", "codes", "infos", "line_flags", "concept_at", "span_end", "nfc", "value_toks",
                 "date_toks", "month_day_toks", "num_keys", "months", "proper", "flags")

    def __init__(self, texts, kinds, codes, infos, line_flags, concept_at, span_end, nfc, value_toks, date_toks,
                 month_day_toks, flags) -> None:
        self.flags = flags  # each token's text flags and kind bits
        self.texts = texts
        self.kinds = kinds
        self.codes = codes
        self.infos = infos
        self.line_flags = line_flags
        self.concept_at = concept_at
        self.span_end = span_end
        self.nfc = nfc
        self.value_toks = value_toks  # tokens the first value pass can use (by kind or text), in order
        self.date_toks = date_toks  # ... the second one
        self.month_day_toks = month_day_toks  # ... the third one
        self.num_keys: dict[int, str] | None = None  # token -> the concept a number next to it counts
        self.months: set[int] | None = None  # where a MONTH concept starts
        self.proper: frozenset[str] | None = None  # _proper_words(nfc), for every clause


def _near_month_at(line: _Line, k: int) -> bool:
    """``_near_month``: a MONTH concept starts at k or next to it (the number is a day of the month)."""
    months = line.months
    if months is None:
        months = line.months = {kk for kk, ids in line.concept_at if "MONTH" in ids}
    return bool(months) and (k - 1 in months or k in months or k + 1 in months)


_NOT_NUM_KEY = frozenset({"generic", "qualifier"})
_NO_MONTHS: frozenset[int] = frozenset()


def _num_keys(concept_at: list[tuple[int, set[str]]], span_end: dict[int, int], kind: dict[str, str]) -> dict:
    """For each token, the first concept covering it (in concept_at order) with a non-generic, non-qualifier id:
    its smallest such id (what a number next to the token counts)."""
    keys: dict[int, str] = {}
    for kk, ids in concept_at:
        end = span_end.get(kk, kk + 1)
        if end == kk + 1 and len(ids) == 1:  # most concepts: one token, one id
            if kk not in keys:
                (c,) = ids
                if kind.get(c) not in _NOT_NUM_KEY:
                    keys[kk] = c
            continue
        cands = None
        for j in range(kk, end):
            if j not in keys:
                if cands is None:
                    cands = [c for c in ids if kind.get(c) not in _NOT_NUM_KEY]
                if cands:
                    keys[j] = min(cands)
    return keys


def _values_for(cl: Clause, line: _Line, s: int, e: int, local: set[int], base: int) -> None:
    """The slot values of clause tokens s..e, appended to ``cl.values`` in token order, one pass after another.

    Each pass visits only the tokens that can give it a value (line.value_toks, date_toks, month_day_toks: by kind
    and text flags); a token it skips would have fallen through every branch."""
    lx = lexicon()
    texts, kinds, codes, infos, concept_at = line.texts, line.kinds, line.codes, line.infos, line.concept_at
    has_branch = "BRANCH" in cl.signs
    n_tok = len(texts)
    append = cl.values.append
    if has_branch:
        value_toks = range(s, e)
    elif s == 0 and e == n_tok or not line.value_toks:
        value_toks = line.value_toks  # the clause is the line
    else:
        value_toks = [k for k in line.value_toks if s <= k < e]
    for k in value_toks:
        t = texts[k]
        kind = kinds[k]
        sg = -base if k in local else base
        if kind == "time":
            hh, mm = t.split(":")
            append(("TIME", f"{int(hh):02d}:{mm}", sg))
            h = int(hh)
            part = ("PART_MORNING" if 5 <= h < 12 else "PART_AFTERNOON" if 12 <= h < 17
                    else "PART_EVENING" if 17 <= h < 22 else "PART_NIGHT")
            if sg > 0:  # "not before 8:00" rules out a time, not the whole morning
                append(("DAYPART", part, sg))
        elif kind == "flag" and len(t) > 2:
            append(("FLAG", t, sg))
        elif kind == "url":
            append(("URL", t.split("://", 1)[1].rstrip("/.").lower(), sg))
        elif kind == "path" and _TZ.match(t):
            append(("TZ", t, sg))
        elif kind == "word" and t in _TZ_ABBR:
            append(("TZ", t, sg))
        elif kind == "iso":
            append(("DATE", t[5:10], sg))
            off = _ISO_OFFSET.search(t)
            if off:
                o = off.group(1)
                append(("TZ", "utc" if o == "z" else "utc" + o.replace(":", "")[:3].replace("+0", "+").replace("-0", "-"), sg))
        elif (kind == "num" or (kind == "word" and t in _NUM_WORDS and not codes[k])) \
                and not _near_month_at(line, k):
            keys = line.num_keys
            if keys is None:
                keys = line.num_keys = _num_keys(concept_at, line.span_end, lx.kind)
            num = _NUM_WORDS.get(t, t)
            key = None  # the nearest token in the clause with a key, the one before first at equal distance
            for dist in (1, 2, 3):
                if k - dist >= s:
                    key = keys.get(k - dist)
                    if key is not None:
                        break
                if k + dist < e:
                    key = keys.get(k + dist)
                    if key is not None:
                        break
            if key:
                append(("NUM:" + key, num.rstrip("+%"), sg))
        if has_branch:
            code = codes[k]
            single_code = code and not (k > 0 and codes[k - 1]) and not (k + 1 < n_tok and codes[k + 1])
            if single_code and kind in {"word", "path"}:
                append(("BRANCH", t, sg))
            elif kind == "word" and t in _BRANCH_WORDS:
                append(("BRANCH", "main" if t in {"master", "trunk"} else t, sg))
    for k in line.date_toks:
        if k < s:
            continue
        if k >= e:
            break
        info = infos[k]
        kind = kinds[k]
        if info[1] is not None and (kind in {"word", "path"} or texts[k] == "8601"):
            # "DD.MM.YYYY", "MM/DD/YYYY", "yyyy-mm-dd": the order of day, month and year is the value
            append(("DATE_FORMAT", info[1], -base if k in local else base))
        if kind == "word" and info[0] & _F_VIA and k + 1 < e:
            nxt = texts[k + 1]
            if kinds[k + 1] in {"word", "path"} and nxt not in _STOP and not any(
                    kk == k + 1 and any(lx.kind.get(c) not in (None,) and not c.startswith("w:") for c in ids)
                    for kk, ids in concept_at):
                # "через Тинькофф", "via Wise": a named channel or provider is a value of "how it is done"
                append(("VIA", _stem(nxt), -base if k + 1 in local else base))
    proper = line.proper
    if proper is None:
        proper = line.proper = _proper_words(line.nfc)
    if proper:
        covered = {kk for kk, ids in concept_at if not all(c.startswith("w:") for c in ids)}
        third_pass = range(s, e)
    else:
        covered = ()
        third_pass = [k for k in line.month_day_toks if s <= k < e] if line.month_day_toks else ()
    for k in third_pass:
        info = infos[k]
        kind = kinds[k]
        if kind == "word" and info[2] is not None:
            append(("MONTH_V", info[2], -base if k in local else base))
        if kind == "alnum":
            if info[3] is not None:  # "on the 15th", «15-го»: a day of the month
                append(("DOM", info[3], -base if k in local else base))
        elif kind == "word" and not codes[k] and k not in covered and texts[k] in proper:
            # a place, shop or person named in the line ("Munich", «Ригла»): a value of where/who
            append(("PROPER", _stem(texts[k]), -base if k in local else base))
    if "AIRPORT" in cl.signs:
        for m in _AIRPORT.finditer(line.nfc):
            append(("AIRPORT_CODE", m.group(1), 1))
    # The patterns below read the clause's text; a flag no token has rules a pattern out (see _text_info).
    # _CITY_TIME needs _F_CITY; the date and offset patterns a digit and a month (_F_MON_EN is within _F_MON_ANY)
    # or "utc"/"gmt".
    line_flags = line.line_flags
    if not (line_flags & _F_CITY or line_flags & _F_DIGIT and line_flags & _MONTH_OR_UTC):
        return
    if s == 0 and e == n_tok:
        seg_flags = line_flags
    else:
        seg_flags = reduce(or_, line.flags[s:e], 0)  # the text bits of the clause's tokens (and kind bits)
        if not (seg_flags & _F_CITY or seg_flags & _F_DIGIT and seg_flags & _MONTH_OR_UTC):
            return
    seg = " ".join(texts[s:e])
    if seg_flags & _F_CITY:  # every match of _CITY_TIME holds one of _CITY_TIME_NEEDS, none holds a space
        for m in _CITY_TIME.finditer(seg):
            city = next(g for g in m.groups() if g)
            tz = "europe/moscow" if city in {"msk", "мск"} else next(
                (v for k2, v in _CITY_TZ.items() if city.startswith(k2) or k2.startswith(city)), None)
            if tz:
                append(("TZ", tz, 1))
    if not seg_flags & _F_DIGIT:
        return  # the date and offset patterns below all need a digit
    if seg_flags & _F_MON_EN:
        for m in _DATE_MD.finditer(seg):
            append(("DATE", f"{_MONTHS[m.group(1)[:3]]:02d}-{int(m.group(2)):02d}", cl.signs and 1 or 1))
        for m in _RANGE_MD.finditer(seg):  # both ends of a range are its dates ("Dec 21–31": 12-21 and 12-31)
            if int(m.group(2)) < int(m.group(3)) <= 31:
                append(("DATE", f"{_MONTHS[m.group(1)[:3]]:02d}-{int(m.group(3)):02d}", 1))
    if seg_flags & _F_MON_ANY:
        for m in _DATE_DM.finditer(seg):
            append(("DATE", f"{_MONTHS[m.group(2)[:3]]:02d}-{int(m.group(1)):02d}", 1))
        for m in _RANGE_DM.finditer(seg):
            if int(m.group(1)) < int(m.group(2)) <= 31:
                append(("DATE", f"{_MONTHS[m.group(3)[:3]]:02d}-{int(m.group(1)):02d}", 1))
    if seg_flags & _F_UTC:  # only the "utc"/"gmt" alternative of _OFFSET sets group 1
        for m in _OFFSET.finditer(seg):
            if m.group(1):
                h = int(m.group(1).replace(" ", ""))
                append(("TZ", f"utc{h:+d}" if h else "utc", 1))


def _near_month(k: int, concept_at, span_end) -> bool:
    for kk, ids in concept_at:
        if "MONTH" in ids and abs(kk - k) <= 1:
            return True
    return False
