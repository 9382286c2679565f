"""Conflict arbitration (the public names of ``tiers.arbitration``, where the code lives)."""

from __future__ import annotations

from .arbitration import (DISK, FILE_CACHE, MAX_CANDIDATES, RELATED_MIN, Arbitration, Conflict, Constraint,
                          ConstraintIndex, arbitrate, check_conflict, conflict_error, constraints_from_text,
                          indexed_on_disk)

#: the in-memory side of ``.cuticle/cache`` and the file indexes of this process (benchmarks and tests clear them)
_DISK = DISK
_FILE_CACHE = FILE_CACHE

__all__ = ["Arbitration", "Constraint", "ConstraintIndex", "Conflict", "arbitrate", "check_conflict",
           "conflict_error", "constraints_from_text", "indexed_on_disk", "MAX_CANDIDATES", "RELATED_MIN"]
