"""When the classifier fails on a line (a bug: it then keeps the line as HYPOTHESIS, the lowest tier), its log
record says what failed and where in the code, with a bounded excerpt of the line's start, secret-masked by the
one masker (``tiers.secrets.mask_secrets``): never the whole memory line, never a secret in it."""

from __future__ import annotations

import logging

import pytest

import tiers.classify as classify
from tiers.model import Tier

AWS = "AKIAIOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
TAIL = "the rest of this memory line must never reach a log"

LINES = {
    "secret-at-the-start": f"- {AWS} is the deploy key; {TAIL}.",
    "secret-across-the-cut": "- deploy token " + "x" * 30 + " " + GITHUB + f" {TAIL}.",
    "long-line": "- " + "note " * 20_000 + TAIL,
}


def _boom(line):
    raise RuntimeError("a bug in the classifier")


@pytest.fixture
def failing(monkeypatch):
    classify._classify_cached.cache_clear()
    monkeypatch.setattr(classify, "_classify", _boom)
    yield
    classify._classify_cached.cache_clear()


@pytest.mark.parametrize("name", list(LINES), ids=list(LINES))
def test_the_log_record_holds_a_masked_bounded_excerpt(failing, caplog, name: str) -> None:
    line = LINES[name]
    with caplog.at_level(logging.DEBUG, logger="tiers.classify"):
        result = classify.classify(line)
    assert result.tier is Tier.HYPOTHESIS and result.confidence == 0.0
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "classify failed (RuntimeError)" in logged
    assert f"a line of {len(line)} chars" in logged
    assert "_classify" in logged  # where in the code it failed
    assert AWS not in logged and GITHUB not in logged and GITHUB[:12] not in logged
    assert TAIL not in logged
    excerpt = logged.split(" chars: ", 1)[1].split("\n", 1)[0]
    assert len(excerpt) <= classify.LOG_EXCERPT + 2  # the quotes around it


def test_a_secret_at_the_start_is_shown_masked(failing, caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="tiers.classify"):
        classify.classify(LINES["secret-at-the-start"])
    assert "[MASKED]" in caplog.text
