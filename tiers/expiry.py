"""When a DECISION's scope ends: the date or session bound its words set (docs/arbitration.md, the tier lifecycle).

A scope bounded by a date ("until Dec 6", "until 2027-01-15", «до 15 декабря», "до 06.12.2026") stops binding the
day after that date; one bounded by the session ("for this session", «в этой сессии») once the workspace's session
counter passes the session the line was stamped in. Arbitration asks it whether a constraint still binds
(``tiers.arbitration.lifecycle``), GC why a stamped DECISION may be collected (``tiers.gc``); it imports nothing
of either, so a GC at session start reads bounds without loading the arbitration package.
"""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False  # datetime is imported by the functions that compute dates: every write imports this module
if TYPE_CHECKING:  # (through arbitration), few meet a DECISION
    import datetime as _dt

__all__ = ["decision_ended", "scope_end"]

_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
           "nov": 11, "dec": 12, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
           "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12}
_BOUND = r"(?:until|till|through|up to|by|before|до|по)"
_MON = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|мая|май|июн|июл|авг|сен|окт|ноя|дек)[\wа-я]*\.?"


@functools.cache
def _date_bounds() -> tuple[re.Pattern[str], ...]:
    """"until Dec 6", "until 6 December 2026", «до 15 декабря», "(до 6 декабря)", "until 2026-12-06",
    "до 06.12.2026". Compiled on first use: every write imports arbitration, few meet a DECISION."""
    return (
        re.compile(rf"\b{_BOUND}\s+(?:the\s+)?{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?", re.I),
        re.compile(rf"\b{_BOUND}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th|-?го)?\s+(?:of\s+)?{_MON}(?:\s+(\d{{4}}))?",
                   re.I),
        re.compile(rf"\b{_BOUND}\s+(\d{{4}})-(\d{{2}})-(\d{{2}})\b", re.I),
        re.compile(rf"\b{_BOUND}\s+(\d{{1,2}})\.(\d{{1,2}})(?:\.(\d{{2,4}}))?\b", re.I),
    )


@functools.cache
def _session_bound() -> re.Pattern[str]:
    return re.compile(r"\b(?:for|in|during)\s+this\s+session\b|\bthis session only\b|"
                      r"\b(?:в|на)\s+(?:эт(?:ой|у)|текущ(?:ей|ую))\s+сесси[июя]\b", re.I)


@functools.lru_cache(maxsize=8192)  # asked for each DECISION a line meets: a lint asks ~40,000 times
def scope_end(text: str, today: _dt.date) -> _dt.date | None:
    """The last day a scope's date bound covers ("until Dec 6" -> Dec 6), or None without one. A date without a
    year is its nearest occurrence, at most half a year away: a bound written last December is read in January as
    last December's, and "until Mar 1" written in November is next March's."""
    import datetime as _dt

    for n, rx in enumerate(_date_bounds()):
        m = rx.search(text)
        if not m:
            continue
        try:
            if n == 0:
                month, day, year = _MONTHS[m.group(1).casefold()[:3]], int(m.group(2)), m.group(3)
            elif n == 1:
                day, month, year = int(m.group(1)), _MONTHS[m.group(2).casefold()[:3]], m.group(3)
            elif n == 2:
                year, month, day = m.group(1), int(m.group(2)), int(m.group(3))
            else:
                day, month, year = int(m.group(1)), int(m.group(2)), m.group(3)
            if year is not None:
                y = int(year)
                return _dt.date(y + 2000 if y < 100 else y, month, day)
            got = _dt.date(today.year, month, day)
            if (got - today).days > 183:
                got = _dt.date(today.year - 1, month, day)
            elif (today - got).days > 183:
                got = _dt.date(today.year + 1, month, day)
            return got
        except (KeyError, ValueError):
            continue
    return None


def decision_ended(text: str, stamped_in: int | None, today: _dt.date | None = None,
                   session: int | None = None) -> str | None:
    """Why a DECISION whose scope and content are ``text`` no longer binds ("date bound 2026-12-06 passed",
    "session bound passed"), or None while it binds. ``stamped_in``: the session its stamp records (None for an
    unstamped line: no session bound can be read then); ``session``: the workspace's current session."""
    import datetime as _dt

    today = today or _dt.date.today()
    end = scope_end(text, today)
    if end is not None and end < today:
        return f"date bound {end.isoformat()} passed"
    if session is not None and stamped_in is not None and stamped_in < session and _session_bound().search(text):
        return f"session bound passed (stamped in session {stamped_in}, now session {session})"
    return None
