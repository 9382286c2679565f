"""Session-5 fast paths of ``arbitrate`` give what checking every candidate with the exhaustive check gives.

- ``arbitrate`` rejects a candidate whose relatedness is under ``RELATED_MIN`` without calling the check (a
  constraint other than a DECISION, a line that is not "indifferent" and shares no value slot with it), and
  passes that relatedness on to the check otherwise;
- the per-constraint memos of the check's features (the clause rules ``_polarity`` asks, the clauses denying a
  value as their object, the scope choices' values) give the same answers whatever lines were checked before.

The reference below is the loop of ``arbitrate`` as it was before them, calling ``_check_conflict_exhaustive``.
"""

from __future__ import annotations

import random

import pytest

from test_arbitrate_speed4_candidates import _plain_arbitrate
from test_arbitrate_speed_equivalence import dense_corpus
from tiers import arbitrate as arb
from tiers.classify import classify
from tiers.model import Tier


def _reference(index: arb.ConstraintIndex, text: str, tier: Tier, file: str) -> tuple[str, list[tuple]]:
    """(decision, conflicts as (constraint id, kind, reason, strength)) from the exhaustive check of every
    candidate, in the order ``arbitrate`` reports them (no judge, not verified)."""
    decision, conflicts = _plain_arbitrate(index, text, tier, file, arb._check_conflict_exhaustive)
    return decision, [(cf.constraint.id, cf.kind, cf.reason, cf.strength) for cf in conflicts]


def _got(index: arb.ConstraintIndex, text: str, tier: Tier, file: str) -> tuple[str, list[tuple]]:
    res = arb.arbitrate(index, text, tier, file=file)
    return res.decision, [(cf.constraint.id, cf.kind, cf.reason, cf.strength) for cf in res.conflicts]


@pytest.fixture(scope="module")
def dense() -> tuple[arb.ConstraintIndex, list[str]]:
    """Every case's memory in one index (spread over files, with synthetic constraints) and the lines to check:
    the candidates, the memory lines, synthetic lines and their word-level mutations."""
    return dense_corpus("2026-03", 5, 400, 11, "2026-04", 3,
                        ["not", "never", "always", "fine", "OK", "не", "можно"], keep_dash=True)


def test_arbitrate_equals_the_exhaustive_check_of_every_candidate(dense):
    index, lines = dense
    blocks = 0
    for line in lines:
        for tier in {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}:
            for file in ("MEMORY.md", "memory/2026-04-01.md"):
                got = _got(index, line, tier, file)
                assert got == _reference(index, line, tier, file), (line, tier, file)
                blocks += got[0] == "block"
    assert blocks > 500  # conflicts of every kind are compared, not only passes


def test_feature_memos_do_not_depend_on_the_order_lines_are_checked(dense):
    """A fresh index (fresh analyses' memos are shared: the check's features are kept per analysis) checked in
    another order gives the same results as the exhaustive check."""
    index, lines = dense
    shuffled = list(lines)
    random.Random(8).shuffle(shuffled)
    fresh = arb.ConstraintIndex(index._files)
    for line in shuffled[:600]:
        tier = classify(line).tier
        assert _got(fresh, line, tier, "memory/x.md") == _reference(fresh, line, tier, "memory/x.md"), line
