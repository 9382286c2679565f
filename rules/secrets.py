"""Secret detection and masking shared by the secret rule, every output format, and the gate.

``find_secrets(text)`` returns the secrets in a line (provider API keys, tokens, private keys, passwords,
connection strings with credentials); ``mask_secrets(text)`` replaces each with a short masked form
(``ghp_****``) so no output of cuticle ever repeats a secret.
"""

from __future__ import annotations

import functools
import re

from tiers.record import dataclass


@dataclass(frozen=True, slots=True)
class Secret:
    kind: str
    start: int
    end: int
    value: str

    @property
    def masked(self) -> str:
        return mask_value(self.value)


def mask_value(value: str) -> str:
    """Keep a recognizable prefix (at most 4 characters, fewer for short values) and hide the rest."""
    keep = 4 if len(value) >= 16 else (2 if len(value) >= 8 else 0)
    return value[:keep] + "****"


# (kind, pattern, group holding the secret value). Provider formats first: they are certain.
_PATTERNS: list[tuple[str, str, int]] = [
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----", 0),
    ("AWS access key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b", 0),
    ("AWS secret key", r"(?i)aws_?secret_?(?:access_?)?key\W{0,3}[:=]\s*['\"]?([A-Za-z0-9/+=]{40})\b", 1),
    ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})", 0),
    ("GitLab token", r"\bgl(?:pat|dt|ptt|rt|cbt)-[A-Za-z0-9_\-]{20,}", 0),
    ("Slack token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", 0),
    ("Slack webhook", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}", 0),
    ("Anthropic API key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}", 0),
    ("OpenAI API key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", 0),
    ("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}\b", 0),
    ("Stripe key", r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}", 0),
    ("SendGrid key", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{20,}", 0),
    ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    ("PyPI token", r"\bpypi-AgE[A-Za-z0-9_\-]{40,}", 0),
    ("Hugging Face token", r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    ("Telegram bot token", r"\b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}\b", 0),
    ("JSON web token", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", 0),
    ("bearer token", r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", 1),
    ("credentials in URL", r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@'\"<>]{1,64}:([^\s@/'\"<>]{3,128})@[^\s/'\"<>]+", 1),
    # key = value assignments and prose ("password is ...", "пароль: ...")
    ("password",
     r"(?i)(?:\b(?:password|passwd|passphrase|pwd|pass)|пароль|парол[ьяеюи])\b(?:\s+(?:for|to|от|для|к)\s+[^\s:=]{1,40})?"
     r"\s*(?:[:=]|\bis\b|\s[—–-]\s|\bэто\b|\s+—)\s*['\"`]?(?P<v>[^\s'\"`,;]{6,})", "v"),
    ("API key or token",
     r"(?i)\b(?:api[_\- ]?key|api[_\- ]?token|access[_\- ]?token|auth[_\- ]?token|secret[_\- ]?key|client[_\- ]?secret"
     r"|токен|ключ api|api-ключ)\b\s*(?:[:=]|\bis\b|\s[—–-]\s)\s*['\"`]?(?P<v>[A-Za-z0-9_\-./+=]{12,})", "v"),
]

#: Values that are obviously not secrets: placeholders, variables, masked forms, file references.
_PLACEHOLDER = (
    r"^(?:<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|\*+|x{3,}|\.{3,}|…|\{\{.*\}\}|"
    r"(?:your|my|the|example|placeholder|redacted|changeme|dummy|secret|password|token|none|null|empty|"
    r"stored|hidden|masked|in|see|from|unset|required|\[redacted\])[\w\-]*)$")


@functools.lru_cache(maxsize=1)
def _placeholder() -> re.Pattern[str]:
    return re.compile(_PLACEHOLDER, re.I)


@functools.lru_cache(maxsize=None)
def _compiled(i: int) -> tuple[str, object, int | str]:
    """Pattern ``i`` of _PATTERNS, compiled the first time a line holds one of its anchors: the `regex` import
    and the compiles cost tens of milliseconds in all, and a line with "token" or a URL needs two or three of the
    patterns, not all of them."""
    import regex

    kind, pat, group = _PATTERNS[i]
    return kind, regex.compile(pat), group


def _looks_real(value: str, kind: str) -> bool:
    if _placeholder().match(value):
        return False
    if kind in ("password", "API key or token", "credentials in URL", "bearer token"):
        if value.endswith("****") or set(value) <= set("*xX.-_"):
            return False
    if kind == "password":
        # prose ("the password is required", "пароль — в 1Password") is not a password: require a digit, a
        # symbol or an inner capital letter
        return any(c.isdigit() or not c.isalnum() for c in value) or any(c.isupper() for c in value[1:])
    return True


#: Every pattern above needs one of these anchors; lines without any skip the full scan.
_ANCHORS = (  # matched against the lowercased line: IGNORECASE makes `re` several times slower
    r"-----begin|\b(?:akia|asia|agpa|aida|aroa|anpa)|aws|gh[pousr]_|github_pat_|gl(?:pat|dt|ptt|rt|cbt)-|xox|"
    r"hooks\.slack|sk-|aiza|_live_|_test_|\bsg\.|npm_|pypi-|hf_|:aa|eyj|bearer|://|pass|pwd|парол|api|token|"
    r"secret|токен|ключ")

#: The anchors of each pattern of _PATTERNS (same order), as plain substrings of the lowercased line; every
#: string of _ANCHORS belongs to a pattern here. A test checks each pattern's matches hold one of its anchors.
_PATTERN_ANCHORS: tuple[tuple[str, ...], ...] = (
    ("-----begin",),
    ("akia", "asia", "agpa", "aida", "aroa", "anpa"),
    ("aws",),
    ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-"),
    ("xox",),
    ("hooks.slack",),
    ("sk-",),
    ("sk-",),
    ("aiza",),
    ("_live_", "_test_"),
    ("sg.",),
    ("npm_",),
    ("pypi-",),
    ("hf_",),
    (":aa",),
    ("eyj",),
    ("bearer",),
    ("://",),
    ("pass", "pwd", "парол"),
    ("api", "token", "secret", "токен", "ключ"),
)


@functools.lru_cache(maxsize=1)
def _anchors() -> re.Pattern[str]:
    return re.compile(_ANCHORS)

#: each anchor -> the indexes (ascending) of the patterns that need it
_ANCHOR_PATTERNS: dict[str, tuple[int, ...]] = {}
for _i, _anchors_of in enumerate(_PATTERN_ANCHORS):
    for _a in _anchors_of:
        _ANCHOR_PATTERNS[_a] = _ANCHOR_PATTERNS.get(_a, ()) + (_i,)
del _i, _anchors_of, _a
_ALL_ANCHORS: tuple[str, ...] = tuple(_ANCHOR_PATTERNS)


def _needed(text: str) -> list[int] | None:
    """Indexes of the patterns that can match ``text`` (None: none can). The anchors are tested on the lowercased
    line; that is exact for the case-insensitive patterns only on ASCII lines (``(?i)s`` also matches "ſ"), so a
    non-ASCII line keeps the one combined anchor check and, when it passes, runs every pattern."""
    low = text.lower()
    if not text.isascii():
        return list(range(len(_PATTERNS))) if _anchors().search(low) else None
    hits = [a for a in _ALL_ANCHORS if a in low]  # one pass over a flat tuple (cheaper than any(map(...)))
    if not hits:
        return None  # the common case
    if len(hits) == 1:
        return list(_ANCHOR_PATTERNS[hits[0]])
    needed: set[int] = set()
    for a in hits:
        needed.update(_ANCHOR_PATTERNS[a])
    return sorted(needed)  # the order of _PATTERNS: the first pattern to claim a span keeps it


def secret_lines(texts: list[str]) -> list[int]:
    """Indexes (ascending) of the ``texts`` that may hold a secret: :func:`find_secrets` is empty for every other
    one. A whole file is searched at once for the anchors (a few substring searches over one string instead of a
    test per line): a line without any of ``_ALL_ANCHORS`` in its lowercased text is skipped by :func:`_needed`
    too (on a non-ASCII line every match of the anchor pattern holds one of them; a test checks it)."""
    joined = "\n".join(texts)
    if joined.isascii():
        low = joined.lower()  # same length, line by line
        lengths = [len(t) for t in texts]
    else:
        lows = [t.lower() for t in texts]  # lowercasing may change a line's length
        low = "\n".join(lows)
        lengths = [len(t) for t in lows]
    hits: list[int] = []
    find = low.find
    for anchor in _ALL_ANCHORS:
        i = find(anchor)
        while i >= 0:
            hits.append(i)
            i = find(anchor, i + 1)
    if not hits:
        return []
    hits.sort()
    out: list[int] = []
    index = 0
    end = lengths[0]  # offset of the end of line ``index`` (its "\n", never inside an anchor)
    for pos in hits:
        while pos > end:
            index += 1
            end += 1 + lengths[index]
        if not out or out[-1] != index:
            out.append(index)
    return out


def find_secrets(text: str) -> list[Secret]:
    """Secrets in ``text``, left to right, non-overlapping (the most specific pattern wins)."""
    if len(text) < 8:
        return []
    needed = _needed(text)
    if needed is None:
        return []
    found: list[Secret] = []
    taken: list[tuple[int, int]] = []
    for i in needed:
        kind, pat, group = _compiled(i)
        for m in pat.finditer(text):
            start, end = m.span(group)
            value = m.group(group)
            if not value or not _looks_real(value, kind):
                continue
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            found.append(Secret(kind, start, end, value))
    found.sort(key=lambda s: s.start)
    return found


def mask_secrets(text: str) -> str:
    """``text`` with every secret replaced by its masked form."""
    secrets = find_secrets(text)
    if not secrets:
        return text
    out: list[str] = []
    pos = 0
    for s in secrets:
        out.append(text[pos:s.start])
        out.append(s.masked)
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str, replacement: str = "[REDACTED]") -> str:
    """``text`` with every secret replaced by ``replacement`` (the unsafe fix of the secret rule)."""
    secrets = find_secrets(text)
    for s in reversed(secrets):
        text = text[:s.start] + replacement + text[s.end:]
    return text
