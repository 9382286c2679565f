"""Conflict arbitration: may a new memory line stand beside the user's active directives and decisions?

The active constraints of a workspace are the DIRECTIVE lines and the in-scope DECISION lines of *all* its memory
files (a directive in ``USER.md`` binds writes to ``MEMORY.md`` and daily notes), stamped or not: lines written
before cuticle was installed are classified on the fly, never stamped here. They are indexed by concept id so a
check looks only at the constraints a new line could be about.

Modules, along the seams of a check:

- ``records``: the named records (Constraint, Conflict, Arbitration) and the block's error object;
- ``index``: the constraints of a workspace by concept id, and the candidates of a line;
- ``cache``: the index's persistent side in ``.cuticle/cache/``;
- ``compare``: relatedness, polarity, time windows and thresholds between two analyses;
- ``values``: slot values a candidate substitutes;
- ``scope``: scoped decisions restated without their scope;
- ``structure``: typed values found by their shape (numbers with units, versions, regions, addresses, formats,
  people, ordered sequences);
- ``lifecycle``: when a DECISION stops binding, and the lower-tier lines a new line retires;
- ``decide``: one check (``check_conflict``) and the decision for a line (``arbitrate``).

See docs/arbitration.md for the rules and their thresholds.
"""

from __future__ import annotations

from .cache import DISK, indexed_on_disk
from .decide import arbitrate, check_conflict
from .index import FILE_CACHE, MAX_CANDIDATES, RELATED_MIN, ConstraintIndex, constraints_from_text
from .lifecycle import Retired, binding, scope_end, scope_ended
from .records import Arbitration, Conflict, Constraint, conflict_error

__all__ = ["Arbitration", "Constraint", "ConstraintIndex", "Conflict", "arbitrate", "check_conflict",
           "conflict_error", "constraints_from_text", "indexed_on_disk", "DISK", "FILE_CACHE", "MAX_CANDIDATES",
           "RELATED_MIN", "Retired", "binding", "scope_end", "scope_ended"]
