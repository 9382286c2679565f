"""Frozen records built without one ``object.__setattr__`` call per field, for the per-command hot path.

A frozen record's generated ``__init__`` sets every field through ``object.__setattr__``, a wrapper call that costs
about as much as the rest of a short command's bookkeeping together (a 14-field :class:`Evaluation` ~20k machine
instructions here). :func:`builder` makes a twin class with the same slots and no frozen ``__setattr__``: the hot
path fills an instance slot by slot and then gives it the record's class, which CPython allows because the two
layouts are identical. The result is an ordinary frozen instance of the record: equal to, hashing like and as
immutable as one built by the constructor (tests check all three for every record built this way). The twin is
made by calling it (``_CanonicalBuilder()``): it has no ``__init__``, and a class call is cheaper than
``object.__new__(twin)``, whose wrapper packs and checks its arguments.
"""

from __future__ import annotations


from tiers.record import builder

__all__ = ["builder"]
