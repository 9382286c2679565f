"""Arbitration decisions per conflict kind and language, one fixture line per case (fixtures/conflicts/*.jsonl).

The cases were written for these tests, not taken from an evaluation set; adding a case is adding a line.
"""

from __future__ import annotations

import json

import pytest

from arbitrate_table import FIXTURES, cases, decide


@pytest.mark.parametrize(("memory", "candidate", "expect"), cases())
def test_the_candidate_is_decided_as_the_case_expects(memory, candidate, expect):
    res = decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")


def test_every_fixture_line_is_a_well_formed_case():
    for path in FIXTURES.glob("*.jsonl"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            case = json.loads(line)
            where = f"{path.name}:{n}"
            assert set(case) <= {"id", "lang", "memory", "candidate", "expect", "kind", "known_miss", "note"}, where
            assert case["expect"] in {"block", "allow"}, where
            assert case["lang"] in {"en", "ru", "mixed"}, where
            assert isinstance(case["memory"], list) and case["memory"], where
            assert case["candidate"].strip(), where


def test_case_ids_are_unique_within_a_file():
    for path in FIXTURES.glob("*.jsonl"):
        ids = [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(ids) == len(set(ids)), path.name
