"""Session 7: mask() imports the shared scrubber once, on first need, and masks exactly as with an import per call."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules.governance import masking as m


@pytest.mark.parametrize("text", ["OPENAI_API_KEY=sk-test", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123",
                                  "cm0gLXJmIH4vcHJvamVjdHM=", "plain text", "", "ghp_" + "a1B2" * 9],
                         ids=repr)
def test_mask_with_the_cached_scrubber_agrees_with_a_fresh_import(text, monkeypatch):
    first = m.mask(text)
    monkeypatch.setattr(m, "_SCRUBBER", [None])  # as in a fresh process: the next hint imports it again
    assert m.mask(text) == first
    assert m.mask(text) == first  # and once cached


def test_mask_tolerates_non_text():
    assert m.mask(None) is None
    assert m.mask(12) == 12


def test_importing_masking_does_not_import_the_scrubber():
    code = "import sys; import rules.governance.masking; print('rules.secrets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
