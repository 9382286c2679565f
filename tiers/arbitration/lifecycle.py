"""The tier lifecycle (docs/tiers.md, the tiers table): how long a line binds and what retires it.

- A DECISION binds until its scope ends: a scope bounded by a date ("until Dec 6", «до 15 декабря») stops binding
  the day after it; one bounded by the session ("for this session", «в этой сессии») when the session it was
  stamped in is over. ``binding(constraint, today, session)`` says whether it still binds; GC collects what no
  longer binds like an expired hypothesis (``scope_ended``), recoverably.
- A newer OBSERVATION of the same fact supersedes the older one; a line of a higher tier that contradicts a
  HYPOTHESIS marks it contradicted (``retired``). Both are then GC candidates.
"""

from __future__ import annotations

import datetime as _dt
import re

from ..model import Tier
from ..record import dataclass
from .records import Constraint

_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
           "nov": 11, "dec": 12, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
           "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12}
_BOUND = r"(?:until|till|through|up to|by|before|до|по)"
_MON = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|мая|май|июн|июл|авг|сен|окт|ноя|дек)[\wа-я]*\.?"
#: "until Dec 6", "until 6 December 2026", «до 15 декабря», "(до 6 декабря)", "until 2026-12-06", "до 06.12.2026"
_DATE_BOUNDS = (
    re.compile(rf"\b{_BOUND}\s+(?:the\s+)?{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?", re.I),
    re.compile(rf"\b{_BOUND}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th|-?го)?\s+(?:of\s+)?{_MON}(?:\s+(\d{{4}}))?", re.I),
    re.compile(rf"\b{_BOUND}\s+(\d{{4}})-(\d{{2}})-(\d{{2}})\b", re.I),
    re.compile(rf"\b{_BOUND}\s+(\d{{1,2}})\.(\d{{1,2}})(?:\.(\d{{2,4}}))?\b", re.I),
)
_SESSION_BOUND = re.compile(r"\b(?:for|in|during)\s+this\s+session\b|\bthis session only\b|"
                            r"\b(?:в|на)\s+(?:эт(?:ой|у)|текущ(?:ей|ую))\s+сесси[июя]\b", re.I)


@dataclass(frozen=True, slots=True)
class Retired:
    """A line a new one retires: ``superseded`` (an older observation of the same fact) or ``contradicted`` (a
    hypothesis a higher tier contradicts)."""

    line: Constraint
    state: str


def scope_end(text: str, today: _dt.date) -> _dt.date | None:
    """The last day a scope's date bound covers ("until Dec 6" -> Dec 6), or None without one. A date without a
    year is the nearest such date not more than half a year after ``today`` (a bound written last December is
    read in January as last December's)."""
    for n, rx in enumerate(_DATE_BOUNDS):
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
            return got
        except (KeyError, ValueError):
            continue
    return None


def scope_ended(cons: Constraint, today: _dt.date | None = None, session: int | None = None) -> str | None:
    """Why a DECISION's scope has ended ("date bound Dec 6 passed", "session bound"), or None while it binds."""
    if cons.tier is not Tier.DECISION:
        return None
    text = f"{cons.scope or ''} {cons.content}"
    today = today or _dt.date.today()
    end = scope_end(text, today)
    if end is not None and end < today:
        return f"date bound {end.isoformat()} passed"
    if session is not None and cons.session is not None and cons.session < session and _SESSION_BOUND.search(text):
        return "session bound passed"
    return None


def binding(cons: Constraint, today: _dt.date | None = None, session: int | None = None) -> bool:
    """Whether a constraint still binds new lines (a DIRECTIVE always does; a DECISION until its scope ends)."""
    return scope_ended(cons, today, session) is None
