"""Record classes: the stdlib :mod:`dataclasses`, imported from one place by every package of the project.

Records are ``@dataclass(frozen=True, slots=True)``. ``builder`` is kept for the shell-governance hot path
(``rules.governance._records``) until it builds its records with their constructors; nothing in ``tiers`` uses it.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields, replace
from dataclasses import is_dataclass as is_record

__all__ = ["FrozenInstanceError", "MISSING", "Field", "builder", "dataclass", "field", "fields", "is_record", "replace"]


def builder(cls: type) -> type:
    """A class with ``cls``'s slots (in order) and nothing else; assign ``cls`` to an instance's ``__class__``
    once every slot is set (see rules/governance/_records.py)."""
    slots = cls.__dict__.get("__slots__")
    if not isinstance(slots, tuple) or "__dict__" in slots or "__weakref__" in slots:
        raise TypeError(f"{cls.__name__} is not a slotted record")
    return type(f"_{cls.__name__}Builder", (), {"__slots__": slots, "__module__": cls.__module__})
