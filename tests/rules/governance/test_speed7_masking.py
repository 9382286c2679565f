"""The masking fast paths of session 7 keep behaviour: tokens are substituted only when one looks random, and the
shared scrubber is imported once, on first need."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules.governance import masking as m


def _reference_tokens(text: str) -> str:
    """``_TOKEN.sub`` with the callback on every match, as mask() ran it before."""
    return m._TOKEN.sub(lambda x: m.MASK if m._looks_random(x.group(0)) else x.group(0), text)


@pytest.mark.parametrize("text", [
    "", "short", "/home/dev/projects/old-site", "https://api.github.com/repos/acme/shopfront/releases/latest",
    "sk-abcdefghijklmnopqrstuv1234", "a sk-abcdefghijklmnopqrstuv1234 b /home/dev/projects/old-site c",
    "/home/dev/projects/old-site sk-abcdefghijklmnopqrstuv1234", "0123456789abcdef0123456789abcdef01234567",
    "cm0gLXJmIH4vcHJvamVjdHM=", "AAAAC3NzaC1lZDI1NTE5AAAAIGq7 deploy@laptop", "long-kebab-case-branch-name-here",
    "snake_case_identifier_that_is_long", "é" * 30 + "x" * 30, "x" * 24, "Ab1" * 10 + "/" + "Zz9" * 10,
    "\x00" * 30, "a=b " * 20,
], ids=repr)
def test_token_masking_agrees_with_the_substitution_on_every_match(text):
    assert m._mask_tokens(text) == _reference_tokens(text)


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
