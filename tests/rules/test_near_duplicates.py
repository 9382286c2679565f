"""CU203 near duplicates: lines whose words mostly agree are reported once, against the earlier line; lines that
differ in a number (a port, a version) are different facts, and exact duplicates are left to CU202."""

from __future__ import annotations

import re

import pytest

from rules.memory.cu203_near_duplicate import check


class _Line:
    def __init__(self, number: int) -> None:
        self.number = number


class _Ctx:
    """The part of a FileContext that CU203 reads: the memory lines and their normalised keys."""

    def __init__(self, keys: list[str]) -> None:
        self.memory_lines = [_Line(n) for n in range(1, len(keys) + 1)]
        self.memory_keys = keys
        self.options = {"threshold": 0.8, "min_words": 4}
        self.path = "MEMORY.md"


def _pairs(keys: list[str]) -> list[tuple[int, int, float]]:
    out = []
    for p in check(_Ctx(keys)):
        other, sim = re.search(r"line (\d+) \(similarity ([\d.]+)\)", p.message).groups()
        out.append((p.line, int(other), round(float(sim), 2)))
    return out


@pytest.mark.parametrize("keys, pairs", [
    (["use ruff for linting python code", "use ruff for linting the python code"], [(2, 1, 0.86)]),
    (["use ruff for linting python code", "use ruff for linting python code"], []),
    (["deploy runs on port 8080 every day", "deploy runs on port 9090 every day"], []),
    (["deploy runs on port 8080 every day", "deploy runs on port 8080 every single day"], [(2, 1, 0.88)]),
    (["the api lives at v1 endpoint now", "the api lives at v2 endpoint now"], []),
    (["a b c", "a b c d"], []),
    (["alpha beta gamma delta", "alpha beta gamma epsilon", "alpha beta gamma delta zeta"], [(3, 1, 0.8)]),
    (["one two three four five six", "seven eight nine ten eleven twelve"], []),
    ([], []),
], ids=["one-word-added", "exact-duplicate-is-cu202", "different-port", "same-port-word-added",
        "different-version", "too-short", "at-the-threshold", "unrelated", "empty-file"])
def test_near_duplicate_lines_are_reported_against_the_earlier_line(keys, pairs):
    assert _pairs(keys) == pairs
