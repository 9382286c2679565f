"""Shared helpers of the arbitration tests: decide one candidate as the gate does, load the case fixtures."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.classify import classify

FIXTURES = Path(__file__).parent / "fixtures" / "conflicts"
#: the day the fixture cases are read on (date-bounded decisions in them are live on it)
TODAY = date(2026, 11, 30)


def decide(memory: list[str], candidate: str, *, file: str = "MEMORY.md"):
    """Arbitrate ``candidate`` as if appended to ``file`` holding ``memory`` (classified like the gate does)."""
    index = ConstraintIndex.from_texts({file: "\n".join(memory) + "\n"})
    cls = classify(candidate)
    return arbitrate(index, candidate, cls.tier, file=file, scope=cls.scope, today=TODAY)


def cases(directory: Path = FIXTURES) -> list:
    """Every case of the ``*.jsonl`` fixtures as pytest params (``<file stem>: <id>``). A line is one case:
    ``{"id", "lang", "memory": [lines], "candidate", "expect": "block"|"allow", "kind"}``, and ``known_miss``
    (the reason) for a case the rules still get wrong: a strict xfail, so fixing it asks for the mark to go."""
    out = []
    for path in sorted(directory.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            case = json.loads(line)
            miss = case.get("known_miss")
            out.append(pytest.param(case["memory"], case["candidate"], case["expect"],
                                    id=f"{path.stem}: {case['id']}",
                                    marks=[pytest.mark.xfail(strict=True, reason=miss)] if miss else []))
    return out
