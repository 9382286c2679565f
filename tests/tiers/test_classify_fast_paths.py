"""The classifier's fast paths against the straightforward ones.

``_lazy_colon`` finds the colon that the label and payload patterns (``_LABEL``, ``_COLON``) end at (the classifier no
longer runs those lazy patterns with lookarounds); ``_round2`` is ``round(x, 2)``; ``_made`` builds the same frozen
``Classification`` as its constructor.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import classify as cl
from tiers.model import Classification, Tier
from tiers.record import FrozenInstanceError, replace

_ALPHABET = "ab1 :\n.\t\u00a0٣²"


def _colon_end(f: str, start: int) -> int | None:
    colon = cl._lazy_colon(f, start, 0, 60)
    if colon is None:
        return None
    end = colon + 1
    while end < len(f) and f[end].isspace():
        end += 1
    return end


def _assert_agrees(f: str, start: int) -> None:
    label = cl._LABEL.match(f)
    assert cl._lazy_colon(f, 0, 1, 48) == (label.end(1) if label else None), f
    payload = cl._COLON.match(f, start)
    assert _colon_end(f, start) == (payload.end() if payload else None), (f, start)


@pytest.mark.parametrize("f", [
    "", ":", "a:", ":a", "1:2", "1:2:", "1:2: x", "a1:2b: c", "a:1", "1:a", "a\n: b", "a" * 48 + ":", "a" * 49 + ":",
    "pytest: 3 failed", "статус ci: зелёный", "at 10:30: standup", "10:30", "x:\n", "٣:٣: y", "²:²: y",
], ids=lambda f: repr(f))
def test_lazy_colon_agrees_with_the_patterns_on_edge_lines(f: str) -> None:
    for start in range(len(f) + 1):
        _assert_agrees(f, start)


def test_lazy_colon_agrees_with_the_patterns_on_random_lines() -> None:
    rng = random.Random(3)
    for _ in range(20000):
        f = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 80)))
        _assert_agrees(f, rng.randint(0, len(f)))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=120), st.integers(min_value=0, max_value=70))
def test_lazy_colon_agrees_with_the_patterns_on_any_line(f: str, start: int) -> None:
    _assert_agrees(f, min(start, len(f)))


@pytest.mark.parametrize("score", [0.0, 0.1 + 0.2, 0.3, 0.5 + 0.4 + 0.2, 1.2000000000000002, 0.8, 2.3, 0.125, 0.005,
                                   1e-9, 12.345])
def test_round2_is_round_to_two_digits(score: float) -> None:
    assert cl._round2(score) == round(score, 2)
    assert cl._round2(score) == round(score, 2)  # memoised


@pytest.mark.parametrize(("tier", "confidence", "scope", "reasons"), [
    (Tier.DECISION, 0.9, "for svc1", ("agreement marker 'x'", "scope 'for svc1'")),
    (Tier.HYPOTHESIS, 0.5, None, ()),
    (Tier.OBSERVATION, 0.95, None, ("environment evidence 1.3: 'x'",)),
], ids=["decision", "empty-reasons", "observation"])
def test_made_classification_is_the_constructed_one(tier, confidence, scope, reasons) -> None:
    import copy
    import pickle

    made = cl._made(tier, confidence, scope, reasons)
    built = Classification(tier, confidence, scope, reasons)
    assert type(made) is Classification
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built and copy.deepcopy(made) == built
    assert replace(made, scope=None) == replace(built, scope=None)
    with pytest.raises(FrozenInstanceError):
        made.tier = Tier.DIRECTIVE
    assert made.verified is False


def test_classify_returns_plain_classifications() -> None:
    for line in ("- User said: no emojis.", "- Decided with the user: use Postgres for svc1 until May.", "",
                 "- maybe the cache is stale", "- `pytest` reported 3 failed in 12 ms"):
        got = cl._classify(line)
        assert type(got) is Classification
        assert got == Classification(got.tier, got.confidence, got.scope, got.reasons)
