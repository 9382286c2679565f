"""Shared runner for the arbitration case tables: one decision per (memory, candidate), strict-xfail known misses."""

from __future__ import annotations

import pytest

from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.classify import classify


#: line prefixes the case tables use for the user's own markers
U = "- User said: "
R = "- Пользователь сказал: "
D = "- Decided with the user: "
DR = "- Решили с пользователем: "
P = "- Просьба пользователя: "


def decide(memory: list[str], candidate: str, *, file: str = "MEMORY.md"):
    """Arbitrate ``candidate`` as if appended to ``file`` holding ``memory`` (classified like the gate does)."""
    index = ConstraintIndex.from_texts({file: "\n".join(memory) + "\n"})
    cls = classify(candidate)
    return arbitrate(index, candidate, cls.tier, file=file, scope=cls.scope)


def table(cases: list[tuple], known_misses: dict[str, str]) -> list:
    """``(id, memory, candidate, expect)`` rows as pytest params; a known miss is a strict xfail with its reason,
    so fixing it turns into a failing test that asks for the mark to go."""
    return [pytest.param(*c[1:], id=c[0], marks=[pytest.mark.xfail(strict=True, reason=known_misses[c[0]])]
                         if c[0] in known_misses else []) for c in cases]
