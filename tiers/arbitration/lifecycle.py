"""The tier lifecycle (docs/tiers.md, the tiers table): how long a line binds and what retires it.

- A DECISION binds until its scope ends: a scope bounded by a date ("until Dec 6", «до 15 декабря») stops binding
  the day after it; one bounded by the session ("for this session", «в этой сессии») when the session it was
  stamped in is over (the bounds are read by ``tiers.expiry``). ``binding(constraint, today, session)`` says whether
  it still binds; GC collects a stamped DECISION that no longer binds like an expired hypothesis, recoverably.
- A newer OBSERVATION of the same fact supersedes the older one; a line of a higher tier that contradicts a
  HYPOTHESIS marks it contradicted (``retired``). Both are then GC candidates.
"""

from __future__ import annotations

from ..expiry import decision_ended, scope_end
from ..model import Tier
from ..record import dataclass
from .records import Constraint

TYPE_CHECKING = False  # datetime only names types here: the hook path does not load it
if TYPE_CHECKING:
    import datetime as _dt

__all__ = ["Retired", "binding", "scope_end", "scope_ended"]


@dataclass(frozen=True, slots=True)
class Retired:
    """A line a new one retires: ``superseded`` (an older observation of the same fact) or ``contradicted`` (a
    hypothesis a higher tier contradicts)."""

    line: Constraint
    state: str


def scope_ended(cons: Constraint, today: _dt.date | None = None, session: int | None = None) -> str | None:
    """Why a DECISION's scope has ended ("date bound Dec 6 passed", "session bound"), or None while it binds."""
    if cons.tier is not Tier.DECISION:
        return None
    return decision_ended(f"{cons.scope or ''} {cons.content}", cons.session, today, session)


def binding(cons: Constraint, today: _dt.date | None = None, session: int | None = None) -> bool:
    """Whether a constraint still binds new lines (a DIRECTIVE always does; a DECISION until its scope ends)."""
    return scope_ended(cons, today, session) is None
