"""Masking of shell text: what ``mask`` hides, what it leaves alone, and when ``needs_mask`` lets it look."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules.governance.masking import mask, needs_mask

MASKED = [
    ('OPENAI_API_KEY=sk-test', 'OPENAI_API_KEY=[MASKED]'),
    ('Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123', 'Authorization: [MASKED] [MASKED]'),
    ('cm0gLXJmIH4vcHJvamVjdHM=', 'cm0gLXJmIH4vcHJvamVjdHM='),
    ('plain text', 'plain text'),
    ('', ''),
    ('ghp_a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2', 'ghp_****'),
    ("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789'", "curl -H 'Authorization: [MASKED] [MASKED]'"),
    ('https://api.github.com/repos/acme/shopfront/releases/latest', 'https://api.github.com/repos/acme/shopfront/releases/latest'),
    ('mysql -pHunter22 db', 'mysql -p[MASKED] db'),
    ('mysql -p db', 'mysql -p db'),
    ('git clone https://user:pw@host/x', 'git clone https://user:pw@host/x'),
    ('--token abcdefghijkl', '--token [MASKED]'),
    ('password is hunter2', 'password is ****'),
    ('secret : abcdef', 'secret : [MASKED]'),
    ('api-key=xyz', 'api-key=[MASKED]'),
    ('Key=abc', 'Key=[MASKED]'),
    ('AAAAC3NzaC1lZDI1NTE5AAAAIGq7', '[MASKED]'),
    ('sk-abcdefghijklmnopqrstuv1234', '[MASKED]'),
    ('xxxxxxxxxxxxxxxxxxxxxxxx', 'xxxxxxxxxxxxxxxxxxxxxxxx'),
    ('a ba ba ba ba ba ba ba ba ba ba ba b', 'a ba ba ba ba ba ba ba ba ba ba ba b'),
    ('éZZZZZZZZZZZZZZZZZZZZZZZZ', 'éZZZZZZZZZZZZZZZZZZZZZZZZ'),
    ('TestTokenizerVsAST_BypassCoverage', 'TestTokenizerVsAST_BypassCoverage'),
    ('1234567890abcdef1234567890abcdef12345678', '1234567890abcdef1234567890abcdef12345678'),
    ('eyJabc.def.ghi', 'eyJabc.def.ghi'),
    ('-----BEGIN RSA PRIVATE KEY-----', '----****'),
    ('https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX', 'http****'),
    ('README.md', 'README.md'),
    ('key', 'key'),
    ('KEY=val', 'KEY=[MASKED]'),
]

NEEDS_MASK = [
    ('OPENAI_API_KEY=sk-test', True),
    ('Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123', True),
    ('cm0gLXJmIH4vcHJvamVjdHM=', True),
    ('plain text', False),
    ('', False),
    ('ghp_a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2', True),
    ("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789'", True),
    ('https://api.github.com/repos/acme/shopfront/releases/latest', True),
    ('mysql -pHunter22 db', True),
    ('mysql -p db', True),
    ('git clone https://user:pw@host/x', True),
    ('--token abcdefghijkl', True),
    ('password is hunter2', True),
    ('secret : abcdef', True),
    ('api-key=xyz', True),
    ('Key=abc', True),
    ('AAAAC3NzaC1lZDI1NTE5AAAAIGq7', True),
    ('sk-abcdefghijklmnopqrstuv1234', True),
    ('xxxxxxxxxxxxxxxxxxxxxxxx', True),
    ('a ba ba ba ba ba ba ba ba ba ba ba b', False),
    ('éZZZZZZZZZZZZZZZZZZZZZZZZ', True),
    ('TestTokenizerVsAST_BypassCoverage', True),
    ('1234567890abcdef1234567890abcdef12345678', True),
    ('eyJabc.def.ghi', True),
    ('-----BEGIN RSA PRIVATE KEY-----', True),
    ('https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX', True),
    ('README.md', False),
    ('key', False),
    ('KEY=val', True),
]


@pytest.mark.parametrize("text, masked", MASKED, ids=[repr(t)[:40] for t, _ in MASKED])
def test_mask_hides_secret_values_and_leaves_plain_text_alone(text, masked):
    assert mask(text) == masked


@pytest.mark.parametrize("text, needed", NEEDS_MASK, ids=[repr(t)[:40] for t, _ in NEEDS_MASK])
def test_needs_mask_says_whether_a_text_may_hold_a_secret(text, needed):
    assert needs_mask(text) is needed
    if mask(text) != text:
        assert needed  # the pre-check never skips a text that mask would change


@pytest.mark.parametrize("value", [None, 12, b"OPENAI_API_KEY=sk-test"], ids=repr)
def test_mask_returns_non_text_unchanged(value):
    assert mask(value) is value


def test_importing_masking_on_the_hook_path_does_not_import_the_secret_scrubber():
    """The Bash hook imports masking on every call; the scrubber is loaded only when a text needs it."""
    code = "import sys; import rules.governance.masking; print('rules.secrets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
