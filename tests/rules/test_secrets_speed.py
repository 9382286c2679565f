"""The fast paths of rules.secrets give exactly what the straightforward logic gives.

``_needed`` looks each anchor up once in a prebuilt anchor -> patterns index; the reference below is the former
per-pattern test (``any(a in low for a in anchors)`` for every pattern), and ``_reference_find`` runs the patterns
that reference selects, as ``find_secrets`` did before.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import secrets

ROOT = Path(__file__).resolve().parents[2]


def _reference_needed(text: str) -> list[int] | None:
    low = text.lower()
    if not text.isascii():
        return list(range(len(secrets._PATTERNS))) if secrets._anchors().search(low) else None
    needed = [i for i, anchors in enumerate(secrets._PATTERN_ANCHORS) if any(a in low for a in anchors)]
    return needed or None


def _reference_find(text: str) -> list[secrets.Secret]:
    if len(text) < 8:
        return []
    needed = _reference_needed(text)
    if needed is None:
        return []
    found: list[secrets.Secret] = []
    taken: list[tuple[int, int]] = []
    for i in needed:
        kind, pat, group = secrets._compiled(i)
        for m in pat.finditer(text):
            start, end = m.span(group)
            value = m.group(group)
            if not value or not secrets._looks_real(value, kind):
                continue
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            found.append(secrets.Secret(kind, start, end, value))
    found.sort(key=lambda s: s.start)
    return found


_TABLE = [
    "", "git status", "ls -la /tmp/foo/bar", "x" * 300,
    'echo "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx" >> .env',
    "sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=Hunter2!x/' .env.production",
    "go test -v -run TestTokenizerVsAST_BypassCoverage",
    "echo 'red ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers",
    "- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "AKIAABCDEFGHIJKLMNOP", "password: Hunter2!x",
    "postgres://app:s3cr3tPW@db.internal/app", "Bearer abcdefghijklmnopqrstuvwxyz012345",
    "SG.abcdefghijklmnop.abcdefghijklmnopqrstu", "sk_live_0123456789abcdefABCD and sk-ant-abcdefghijklmnopqrstuvwx",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "api_key: abcdefghijkl0123 token=ZZZZ99998888x",
    "пароль: Qwerty123!", "токен — abcdefghijklmnop1234", "-----BEGIN RSA PRIVATE KEY-----", "npm_" + "a" * 36,
    "hf_" + "b" * 32, "123456789:AA" + "c" * 33, "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.abcdefghijk",
    "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX", "xoxb-1234567890-abcdef",
    "glpat-abcdefghijklmnopqrstu", "pypi-AgE" + "d" * 40, "AIza" + "e" * 35, "ſecret_key = abcdefghijklmnop",
]


def _corpus() -> list[str]:
    lines = list(_TABLE)
    for path in sorted((ROOT / "tests" / "rules").glob("*.py")) + sorted((ROOT / "tests" / "rules" / "fixtures").glob("*.md")):
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    return list(dict.fromkeys(lines))


def test_needed_and_find_match_the_reference_on_a_table_and_the_test_corpus() -> None:
    for text in _corpus():
        assert secrets._needed(text) == _reference_needed(text), text
        assert secrets.find_secrets(text) == _reference_find(text), text


def test_anchor_index_covers_every_anchor_in_pattern_order() -> None:
    assert set(secrets._ALL_ANCHORS) == {a for anchors in secrets._PATTERN_ANCHORS for a in anchors}
    for anchor, indexes in secrets._ANCHOR_PATTERNS.items():
        assert list(indexes) == [i for i, anchors in enumerate(secrets._PATTERN_ANCHORS) if anchor in anchors]


_PIECES = st.sampled_from(
    [a for anchors in secrets._PATTERN_ANCHORS for a in anchors]
    + [a.upper() for anchors in secrets._PATTERN_ANCHORS for a in anchors]
    + ["=", ": ", " is ", "Hunter2!x", "0123456789abcdefghijABCDEFGHIJ012345", "_", "-", " ", "/", "@", "'", '"',
       "sk-proj-", "ghp_", "AKIA", "ABCDEFGHIJKLMNOP", "key", "KEY", "ſ", "é", "—"])
_TEXT = st.one_of(st.text(max_size=80), st.lists(_PIECES, max_size=12).map("".join))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_needed_and_masking_match_the_reference(text: str) -> None:
    assert secrets._needed(text) == _reference_needed(text)
    found = _reference_find(text)
    assert secrets.find_secrets(text) == found
    expected = text
    for s in reversed(found):
        expected = expected[:s.start] + s.masked + expected[s.end:]
    assert secrets.mask_secrets(text) == expected
