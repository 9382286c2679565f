"""The one secret masker: what it hides (and which part of a secret stays), what it leaves alone, and its laws:
masking is idempotent, the cheap pre-check never skips a text it would change, pieces of a known secret are
hidden in derived strings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers.secrets import find_secrets, mask_json, mask_secrets, needs_mask, redact, secret_lines, secret_values

#: text -> the text as every output of cuticle shows it
MASKED = [
    # shell shapes: options, glued short options, user:password, assignments
    ("mysql -pS3cretLeak1 db", "mysql -p[MASKED] db"),
    ("mysqldump -uroot -p'x y 1' shop", "mysqldump -uroot -p'[MASKED]' shop"),
    ("sshpass -p Hunter22 ssh host", "sshpass -p [MASKED] ssh host"),
    ("curl --password Xl3akPw9 https://example.com", "curl --password [MASKED] https://example.com"),
    ("curl -u bob:Pa55leak https://example.com", "curl -u bob:[MASKED] https://example.com"),
    ("wget --user=bob:Pa55leak https://example.com", "wget --user=bob:[MASKED] https://example.com"),
    ("psql --password=Leak77pw db", "psql --password=[MASKED] db"),
    ("gh auth login --with-token --token abcdefghijkl", "gh auth login --with-token --token [MASKED]"),
    ("openssl enc -pass pass:Leak12 -in f", "openssl enc -pass [MASKED] -in f"),
    ("sed -i 's/DB_PASSWORD=.*/DB_PASSWORD=Leak88pw/' .env", "sed -i 's/DB_PASSWORD=[MASKED]' .env"),
    ("export API_TOKEN=Leak99tok", "export API_TOKEN=[MASKED]"),
    ("GH_SECRET=Leak44sec make deploy", "GH_SECRET=[MASKED] make deploy"),
    ("STRIPE_KEY=Leak33key node app.js", "STRIPE_KEY=[MASKED] node app.js"),
    ("SECRET_KEY_BASE=abcd1234 rails s", "SECRET_KEY_BASE=[MASKED] rails s"),
    ("OPENAI_API_KEY=sk-test", "OPENAI_API_KEY=[MASKED]"),
    ('{"api_key": "abc"}', '{"api_key": "[MASKED]"}'),
    ("apiKey=x1", "apiKey=[MASKED]"),
    ("Key=abc", "Key=[MASKED]"),
    # a second secret on the same line is masked too
    ("echo password=Leak11aa token=Leak22bb", "echo password=[MASKED] token=[MASKED]"),
    ("AKIAIOSFODNN7EXAMPLE and AKIAIOSFODNN7EXAMPLF", "AKIA[MASKED] and AKIA[MASKED]"),
    # labels, in several languages
    ("password: Hunter2!x", "password: [MASKED]"),
    ("password is hunter2", "password is [MASKED]"),
    ("secret : abcdef", "secret : [MASKED]"),
    ("token: x", "token: [MASKED]"),
    ("пароль: x", "пароль: [MASKED]"),
    ("echo 'пароль: Leak55pw'", "echo 'пароль: [MASKED]'"),
    ("echo токен=Leak66tok", "echo токен=[MASKED]"),
    ("мой пароль — Qwerty123!", "мой пароль — [MASKED]"),
    ("токен — abcdefghijklmnop1234", "токен — [MASKED]"),
    ("Passwort: Geheim123", "Passwort: [MASKED]"),
    ("mot de passe : Soleil42", "mot de passe : [MASKED]"),
    ("我的密码：abc123", "我的密码：[MASKED]"),
    ("İstanbul PASSWORD: Abcdef1!", "İstanbul PASSWORD: [MASKED]"),
    ("ſecret_key = abcdefghijklmnop", "ſecret_key = [MASKED]"),  # the long s folds to s, as in the patterns
    # provider formats keep their public prefix
    ("aws s3 ls AKIAIOSFODNN7LEAKXYZ", "aws s3 ls AKIA[MASKED]"),
    ("- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "- Deploy token: ghp_[MASKED]"),
    ("github_pat_11ABCDEFG0123456789abcdefghij", "github_pat_[MASKED]"),
    ("glpat-abcdefghijklmnopqrstu", "glpat-[MASKED]"),
    ("xoxb-1234567890-abcdef", "xoxb-[MASKED]"),
    ("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX", "https://hooks.slack.com/services/[MASKED]"),
    ("sk_live_0123456789abcdefABCD and sk-ant-abcdefghijklmnopqrstuvwx", "sk_live_[MASKED] and sk-ant-[MASKED]"),
    ('echo "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx" >> .env', 'echo "OPENAI_API_KEY=sk-proj-[MASKED]" >> .env'),
    ("AIzaeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "AIza[MASKED]"),
    ("SG.abcdefghijklmnop.abcdefghijklmnopqrstu", "SG.[MASKED]"),
    ("npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "npm_[MASKED]"),
    ("pypi-AgEdddddddddddddddddddddddddddddddddddddddd", "pypi-[MASKED]"),
    ("hf_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "hf_[MASKED]"),
    ("123456789:AAccccccccccccccccccccccccccccccccc", "123456789:[MASKED]"),
    ("eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.abcdefghijk", "[MASKED]"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [MASKED]"),
    # bearer tokens and Authorization headers
    ("curl -H 'Authorization: Bearer abcLEAKdefghijklmnopqrstuv' https://x",
     "curl -H 'Authorization: Bearer [MASKED]' https://x"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [MASKED]"),
    ("Bearer abcdefghijklmnopqrstuvwxyz012345", "Bearer [MASKED]"),
    # private key blocks: the whole body, not only the header
    ("printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAALEAK\\n-----END OPENSSH PRIVATE KEY-----'",
     "printf -- '-----BEGIN OPENSSH PRIVATE KEY-----[MASKED]-----END OPENSSH PRIVATE KEY-----'"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nxyz\n-----END RSA PRIVATE KEY-----",
     "-----BEGIN RSA PRIVATE KEY-----[MASKED]-----END RSA PRIVATE KEY-----"),
    ("-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----[MASKED]"),
    # URLs with user:password@
    ("git clone https://bob:LeakPw12@github.com/x.git", "git clone https://bob:[MASKED]@github.com/x.git"),
    ("git clone https://bob:pw@github.com/x.git", "git clone https://bob:[MASKED]@github.com/x.git"),
    ("postgres://app:s3cr3tPW@db.internal/app", "postgres://app:[MASKED]@db.internal/app"),
    # a long random-looking token with no label (a guess)
    ("AAAAC3NzaC1lZDI1NTE5AAAAIGq7", "[MASKED]"),
    ("sk-abcdefghijklmnopqrstuv1234", "sk-[MASKED]"),
    # already masked: nothing changes (masking is idempotent, also for the masks of earlier versions)
    ("KEY=****", "KEY=****"),
    ("mysql -p[MASKED] db", "mysql -p[MASKED] db"),
    ("password: [REDACTED]", "password: [REDACTED]"),
    ("https://user:****@host/x", "https://user:****@host/x"),
    ("TOKEN=ghp_****", "TOKEN=ghp_****"),
]

#: ordinary text that stays as it is: no over-masking
KEPT = [
    "", "git status", "ls -la /tmp/foo/bar", "plain text", "README.md", "key", "short", "xxxxxxx", "x" * 300,
    "password policy: at least 12 characters",
    "the password policy is strict",
    "token budget is 4000",
    "Token budget: 4000 words per day",
    "max_tokens=4000",
    "Secret: never commit .env files",
    "the token is stored in vault",
    "Bearer authentication is used",
    "Пароль от Wi-Fi хранится в 1Password",
    "бюджет токенов — 4000",
    "sort --key=2 file",
    "- Prod bastion host key: SHA256:q3T1m8Yx0pVb2LrW5cKjN7eZfH4uAi9dGsOo6tPyE1c (checked by phone).",
    "ED25519 key fingerprint is SHA256:Xy1bK9pQ2rT8vW3zL0nM5cJ7hF4dG6sA1eR9uI2oP3k.",
    "host_key = MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48",
    "monkey=banana",
    "keyboard=us",
    "echo 'red ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers",
    "docker login --password-stdin -u bob",
    "mysql -p db",
    "echo $DB_PASSWORD",
    "DB_PASSWORD=$(cat /run/secret)",
    "export GITHUB_TOKEN=${GITHUB_TOKEN}",
    "password: <your password>",
    "https://api.github.com/repos/acme/shopfront/releases/latest",
    "git clone https://user@host/x",
    "go test -v -run TestTokenizerVsAST_BypassCoverage",
    "1234567890abcdef1234567890abcdef12345678",
    "81c2bc2f-d728-4c00-b124-c9aeb44067e6",
    "fingerprint a60130389b1f1a4d4ffe2a977d1f10d4",
    "cm0gLXJmIH4vcHJvamVjdHM=",
    "a ba ba ba ba ba ba ba ba ba ba ba b",
    "long-kebab-case-branch-name-for-the-feature",
    ".claude/settings.json.cuticle-backup-20261202162000",
    "cp 2026-12-02/notes-v2/draft-final-review.md out/",
    "python -I -S /tmp/s14final/gate/cuticle_hook.py",  # an absolute path, digits near its start, all lower case
    "eyJabc.def.ghi",
]


@pytest.mark.parametrize("text, masked", MASKED, ids=[repr(t)[:48] for t, _ in MASKED])
def test_a_secret_is_masked_in_place_and_masking_again_changes_nothing(text, masked):
    assert mask_secrets(text) == masked
    assert mask_secrets(masked) == masked
    assert needs_mask(text)


@pytest.mark.parametrize("text", KEPT, ids=[repr(t)[:48] for t in KEPT])
def test_ordinary_text_is_left_alone(text):
    assert mask_secrets(text) == text
    assert find_secrets(text) == []


#: text -> [(kind, start, end, guess)]
FOUND = [
    ("AKIAABCDEFGHIJKLMNOP", [("AWS access key", 4, 20, False)]),
    ("password: Hunter2!x", [("credential assignment", 10, 19, False)]),
    ("пароль: Hunter2!x", [("labelled secret", 8, 17, False)]),
    ("mysql -pHunter22 db", [("database password", 8, 16, False)]),
    ("echo password=ab12 token=cd34", [("credential assignment", 14, 18, False),
                                       ("credential assignment", 25, 29, False)]),
    ("postgres://app:s3cr3tPW@db.internal/app", [("credentials in URL", 15, 23, False)]),
    ("AAAAC3NzaC1lZDI1NTE5AAAAIGq7", [("random-looking token", 0, 28, True)]),
    ("-----BEGIN RSA PRIVATE KEY-----", [("private key", 31, 31, False)]),
    ("SORT_KEY=name", [("credential assignment", 9, 13, True)]),
    ("DB_PASSWORD=hunter2", [("credential assignment", 12, 19, False)]),
    ("plain text", []),
]


@pytest.mark.parametrize("text, found", FOUND, ids=[repr(t)[:40] for t, _ in FOUND])
def test_a_secret_is_found_by_kind_and_span(text, found):
    assert [(s.kind, s.start, s.end, s.guess) for s in find_secrets(text)] == found


def test_redact_replaces_certain_secrets_only():
    assert redact("- key ghp_0123456789abcdefghijABCDEFGHIJ012345 ok") == "- key ghp_[REDACTED] ok"
    assert redact("id AAAAC3NzaC1lZDI1NTE5AAAAIGq7") == "id AAAAC3NzaC1lZDI1NTE5AAAAIGq7"


@pytest.mark.parametrize("value", [None, 12, b"OPENAI_API_KEY=sk-test"], ids=repr)
def test_non_text_is_returned_unchanged(value):
    assert mask_secrets(value) is value
    assert mask_json(value) is value


def test_a_piece_of_a_secret_split_off_by_a_parser_is_hidden_in_every_derived_string():
    # `mysql -pS3cretLeak1` parsed as `-p -S 3cretLeak1` (socket): the piece is hidden too
    record = {"command": "mysql -pS3cretLeak1 db", "flags": {"p": "", "socket": "3cretLeak1"},
              "canonical": "mysql --p --socket=3cretLeak1 db", "n": 3}
    assert mask_json(record) == {"command": "mysql -p[MASKED] db", "flags": {"p": "", "socket": "[MASKED]"},
                                 "canonical": "mysql --p --socket=[MASKED] db", "n": 3}
    assert secret_values("curl -u bob:pw https://x", "https://bob:pw@host", "plain") == ("pw",)
    assert mask_json(["user=bob pw", "pwd"], ("pw",)) == ["user=bob [MASKED]", "pwd"]


def test_mask_json_keeps_keys_and_non_strings_and_copies_deep_structures():
    deep: list = ["token=Leak22bb"]
    for _ in range(2000):
        deep = [deep]
    out = mask_json({"password": "x", "list": (1, None, True), "deep": deep})
    assert out["password"] == "x" and out["list"] == [1, None, True]
    inner = out["deep"]
    for _ in range(2000):
        inner = inner[0]
    assert inner == ["token=[MASKED]"]


def test_secret_lines_names_the_lines_that_may_hold_a_secret():
    lines = ["# Memory", "- use ruff", "- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "- ok",
             "password: Hunter2!x", "", "- x"]
    assert secret_lines(lines) == [2, 4]
    assert secret_lines([]) == []


_PIECES = st.sampled_from([t for t, _ in MASKED] + KEPT + [" ", "=", ":", "'", '"', "/", "-p", "[MASKED]", "@", "://",
                                                            "token", "пароль", "\n", "Bearer ", "AKIA"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=6).map("".join) | st.text(max_size=80))
def test_masking_is_idempotent_and_the_pre_check_never_skips_a_text_it_would_change(text):
    once = mask_secrets(text)
    assert mask_secrets(once) == once
    if once != text:
        assert needs_mask(text)
