"""docs/secrets.md's table of examples is what the masker does: each row, text and what every output shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tiers.secrets import mask_secrets

DOC = Path(__file__).resolve().parents[2] / "docs" / "secrets.md"
ROWS = [(a.replace("\\n", "\n"), b.replace("\\n", "\n"))
        for a, b in re.findall(r"^\| `(.+)` \| `(.+)` \|$", DOC.read_text(encoding="utf-8"), re.M)]


def test_the_table_has_rows():
    assert len(ROWS) >= 20


@pytest.mark.parametrize("text, shown", ROWS, ids=[t[:40] for t, _ in ROWS])
def test_each_documented_example_is_masked_as_the_table_says(text, shown):
    assert mask_secrets(text) == shown
