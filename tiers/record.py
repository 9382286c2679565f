"""Record classes: the stdlib :mod:`dataclasses`, imported from one place by every package of the project.

Records are ``@dataclass(frozen=True, slots=True)``, built with their constructors.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields, replace
from dataclasses import is_dataclass as is_record

__all__ = ["FrozenInstanceError", "MISSING", "Field", "dataclass", "field", "fields", "is_record", "replace"]

