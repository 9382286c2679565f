"""Secrets in memory text: which values are found (kind and span) and how they are masked."""

from __future__ import annotations

import pytest

from rules.secrets import find_secrets, mask_secrets, secret_lines

#: text -> [(kind, start, end)] found, and the text with each value masked
FOUND = [
    ('', [], ''),
    ('git status', [], 'git status'),
    ('ls -la /tmp/foo/bar', [], 'ls -la /tmp/foo/bar'),
    ('echo "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx" >> .env', [('OpenAI API key', 21, 53)], 'echo "OPENAI_API_KEY=sk-p****" >> .env'),
    ('go test -v -run TestTokenizerVsAST_BypassCoverage', [], 'go test -v -run TestTokenizerVsAST_BypassCoverage'),
    ("echo 'red ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers", [], "echo 'red ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers"),
    ('- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345', [('GitHub token', 16, 56)], '- Deploy token: ghp_****'),
    ('AKIAABCDEFGHIJKLMNOP', [('AWS access key', 0, 20)], 'AKIA****'),
    ('password: Hunter2!x', [('password', 10, 19)], 'password: Hu****'),
    ('postgres://app:s3cr3tPW@db.internal/app', [('credentials in URL', 15, 23)], 'postgres://app:s3****@db.internal/app'),
    ('Bearer abcdefghijklmnopqrstuvwxyz012345', [('bearer token', 7, 39)], 'Bearer abcd****'),
    ('SG.abcdefghijklmnop.abcdefghijklmnopqrstu', [('SendGrid key', 0, 41)], 'SG.a****'),
    ('sk_live_0123456789abcdefABCD and sk-ant-abcdefghijklmnopqrstuvwx', [('Stripe key', 0, 28), ('Anthropic API key', 33, 64)], 'sk_l**** and sk-a****'),
    ('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', [('AWS secret key', 24, 64)], 'aws_secret_access_key = wJal****'),
    ('пароль: Qwerty123!', [('password', 8, 18)], 'пароль: Qw****'),
    ('токен — abcdefghijklmnop1234', [('API key or token', 8, 28)], 'токен — abcd****'),
    ('-----BEGIN RSA PRIVATE KEY-----', [('private key', 0, 31)], '----****'),
    ('npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', [('npm token', 0, 40)], 'npm_****'),
    ('hf_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', [('Hugging Face token', 0, 35)], 'hf_b****'),
    ('123456789:AAccccccccccccccccccccccccccccccccc', [('Telegram bot token', 0, 45)], '1234****'),
    ('eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.abcdefghijk', [('JSON web token', 0, 45)], 'eyJh****'),
    ('https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX', [('Slack webhook', 0, 67)], 'http****'),
    ('xoxb-1234567890-abcdef', [('Slack token', 0, 22)], 'xoxb****'),
    ('glpat-abcdefghijklmnopqrstu', [('GitLab token', 0, 27)], 'glpa****'),
    ('pypi-AgEdddddddddddddddddddddddddddddddddddddddd', [('PyPI token', 0, 48)], 'pypi****'),
    ('AIzaeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', [('Google API key', 0, 39)], 'AIza****'),
    ('ſecret_key = abcdefghijklmnop', [], 'ſecret_key = abcdefghijklmnop'),
    ('İstanbul PASSWORD: Abcdef1!', [('password', 19, 27)], 'İstanbul PASSWORD: Ab****'),
    ('xxxxxxx', [], 'xxxxxxx'),
    ('short', [], 'short'),
    ("x" * 300, [], "x" * 300),
]


@pytest.mark.parametrize("text, found, masked", FOUND, ids=[repr(t)[:40] for t, _, _ in FOUND])
def test_a_secret_is_found_by_kind_and_span_and_masked_in_place(text, found, masked):
    assert [(s.kind, s.start, s.end) for s in find_secrets(text)] == found
    assert mask_secrets(text) == masked


def test_secret_lines_names_the_lines_of_a_file_that_hold_a_secret():
    lines = ["# Memory", "- use ruff", "- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "- ok",
             "password: Hunter2!x", "", "- x"]
    assert secret_lines(lines) == [2, 4]
    assert secret_lines([]) == []
    assert secret_lines(["- use ruff"]) == []
