"""The one secret masker: what cuticle prints, logs or sends never repeats a secret it read (docs/secrets.md).

``find_secrets(text)`` finds the secrets in a text: provider formats (AWS key ids, GitHub/GitLab/Slack/OpenAI…
tokens, JWTs, private key blocks), credentials in URLs, ``Authorization``/``Bearer`` values, credential-named
assignments and options (``DB_PASSWORD=…``, ``--password …``, ``mysql -pSECRET``, ``curl -u user:pass``), labelled
values in several languages (``password: …``, ``пароль: …``, ``токен=…``) and, as a guess, long random-looking
tokens. ``mask_secrets`` replaces each with ``[MASKED]`` (a provider's public prefix such as ``ghp_`` or ``AKIA`` stays,
so the reader still sees what it was); ``mask_json`` does it for every string of a JSON-like value, and hides the
secrets found anywhere in it (or in the raw input it was derived from) wherever a piece of one recurs.

It lives in ``tiers`` because the judge (tiers.judge) masks what it sends; every other layer imports it from here.
Masking is idempotent: ``mask_secrets(mask_secrets(x)) == mask_secrets(x)``.
"""

from __future__ import annotations

import functools
import math
import re

from .record import dataclass

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MASK", "Secret", "find_secrets", "mask_json", "mask_secrets", "needs_mask", "redact", "secret_lines",
           "secret_values"]

MASK = "[MASKED]"  #: the mask of the upstream Chitin engine: decision logs read alike


@dataclass(frozen=True, slots=True)
class Secret:
    """One secret in a text: ``text[start:end] == value``. ``guess``: hidden, but maybe no secret: a long
    random-looking token with no label, or a plain word after a credential name or label (``SORT_KEY=name``)."""

    kind: str
    start: int
    end: int
    value: str
    guess: bool = False


class _Pattern:
    """One secret shape (a module-private table row: a plain slotted class, since each stdlib dataclass costs the
    hook's start-up about 0.7 ms to build and this one never leaves the module)."""

    __slots__ = ("kind", "regex", "anchors", "check", "also", "run")

    def __init__(self, kind: str, regex: str, anchors: tuple[str, ...], check: str = "format",
                 also: tuple[str, ...] = (), *, run: bool = False) -> None:
        self.kind = kind
        self.regex = regex
        #: lowercase substrings one of which every match holds (the cheap pre-check of needs_mask, find_secrets)
        self.anchors = anchors
        #: how a value is judged: "format" (any match), "free" (any value but a placeholder), "name" and "label"
        #: (a placeholder, or a plain word of prose after ``:``, is not a secret), "guess" (a random-looking token)
        self.check = check
        #: on ASCII text every match also holds one of these (lowercase): a URL has a password only with an ``@``
        self.also = also
        #: every match holds a run of 15 characters of ``[A-Za-z0-9_\-+/=.]`` (the provider formats)
        self.run = run


_CRED = r"(?:password|passwd|passphrase|pass|pwd|token|secret|api-?key|apikey|(?:access|secret|auth|client|master|" \
        r"private|encryption|license)-key|credentials?|auth-token|access-token|client-secret)"
#: a shell value: quoted, or a run up to a blank, a quote, ``;``, ``|`` or a backquote (``&`` is kept: a password
#: may hold one, and ``x && y`` has a blank before it)
_VALUE = r"(?P<v>\"[^\"]*\"|'[^']*'|<[^<>\n]*>|[^\s'\";|`]+)"
_LABELS_LATIN = (r"password|passwd|passphrase|passwort|kennwort|mot de passe|contraseña|senha|hasło|heslo|salasana|"
                 r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|secret[ _-]?key|client[ _-]?secret|"
                 r"token|secret|пароль|парол[ьяеюи]|токен|секрет|ключ api|api-ключ|ключ")
_LABELS_CJK = r"密码|口令|令牌|密鑰|密钥|パスワード|トークン|비밀번호|토큰"

#: in order: the first pattern to claim a span keeps it (provider formats first: they are certain)
_PATTERNS: tuple[_Pattern, ...] = (
    _Pattern("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?P<v>(?:(?!-----END )[\s\S])*)",
             ("-----begin",)),
    _Pattern("AWS access key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|APKA|ABIA|ACCA)(?P<v>[0-9A-Z]{16})\b",
             ("akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa", "apka", "abia", "acca"), run=True),
    _Pattern("GitHub token", r"\b(?:gh[pousr]_(?P<v>[A-Za-z0-9]{30,})|github_pat_(?P<w>[A-Za-z0-9_]{22,}))",
             ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), run=True),
    _Pattern("GitLab token", r"\bgl(?:pat|dt|ptt|rt|cbt)-(?P<v>[A-Za-z0-9_\-]{20,})",
             ("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-"), run=True),
    _Pattern("Slack token", r"\bxox[abposr]-(?P<v>[A-Za-z0-9\-]{10,})", ("xox",), run=True),
    _Pattern("Slack webhook", r"https://hooks\.slack\.com/services/(?P<v>[A-Za-z0-9/_\-]{20,})", ("hooks.slack",), run=True),
    _Pattern("Anthropic API key", r"\bsk-ant-(?P<v>[A-Za-z0-9_\-]{20,})", ("sk-ant-",), run=True),
    _Pattern("OpenAI API key", r"\bsk-(?:proj-|svcacct-|admin-)?(?P<v>[A-Za-z0-9_\-]{20,})", ("sk-",), run=True),
    _Pattern("Google API key", r"\bAIza(?P<v>[0-9A-Za-z_\-]{35})(?![0-9A-Za-z_\-])", ("aiza",), run=True),
    _Pattern("Stripe key", r"\b(?:sk|rk|pk)_(?:live|test)_(?P<v>[0-9A-Za-z]{16,})", ("_live_", "_test_"), run=True),
    _Pattern("SendGrid key", r"\bSG\.(?P<v>[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{20,})", ("sg.",), run=True),
    _Pattern("npm token", r"\bnpm_(?P<v>[A-Za-z0-9]{36})\b", ("npm_",), run=True),
    _Pattern("PyPI token", r"\bpypi-(?P<v>AgE[A-Za-z0-9_\-]{40,})", ("pypi-",), run=True),
    _Pattern("Hugging Face token", r"\bhf_(?P<v>[A-Za-z0-9]{30,})\b", ("hf_",), run=True),
    _Pattern("Telegram bot token", r"\b[0-9]{8,10}:(?P<v>AA[A-Za-z0-9_\-]{33})\b", (":aa",), run=True),
    _Pattern("JSON web token", r"\b(?P<v>eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})", ("eyj",), run=True),
    _Pattern("credentials in URL",
             r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@'\"<>]{0,64}:(?P<v>[^\s@/'\"<>]{1,128})@(?=[^\s/'\"<>@])", ("://",),
             "free", ("@",)),
    _Pattern("authorization header",
             r"(?i)\b(?:proxy-)?authorization['\"]?\s*[:=]\s*['\"]?(?:(?:bearer|basic|token|digest|negotiate)\s+)?"
             r"(?P<v>[A-Za-z0-9._~+/\-]{8,}=*)", ("auth",), "label", (":", "=")),
    _Pattern("bearer token", r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9._~+/\-]{8,}=*)", ("bearer",), "label"),
    _Pattern("database password", r"\b(?:mysql|mariadb|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|"
             r"mysqlpump|mysqlsh)\b[^|;&\n]*?\s-p" + _VALUE, ("mysql", "mariadb"), "free", ("-p",)),
    _Pattern("sshpass password", r"\bsshpass\b[^|;&\n]*?\s-p\s*" + _VALUE, ("sshpass",), "free", ("-p",)),
    _Pattern("user:password option", r"\b(?:curl|wget|http|https)\b[^|;&\n]*?\s(?:-u\s*|-U\s*|--user[=\s]\s*|"
             r"--proxy-user[=\s]\s*)['\"]?[^\s:'\"]*:(?P<v>[^\s'\";|&]+)", ("curl", "wget", "http"),
             "free", ("-u", "-U")),
    _Pattern("credential option", r"(?i)(?<![\w-])--?(?:[a-z0-9]+-)*" + _CRED + r"(?:=|\s+(?!-))" + _VALUE,
             ("pass", "pwd", "token", "secret", "key", "credential"), "free", ("-",)),
    _Pattern("credential assignment",
             r"(?i)(?<![\w$-])(?P<n>[a-z_][a-z0-9_.]*)['\"]?\s*(?P<s>[:=])\s*" + _VALUE,
             ("pass", "pwd", "token", "secret", "key", "credential", "auth"), "name", ("=", ":")),
    _Pattern("labelled secret",
             r"(?i)(?:(?<!\w)(?:" + _LABELS_LATIN + r")|" + _LABELS_CJK + r")(?:\s+(?:for|to|от|для|к|für|de|pour|"
             r"para|do)\s+[^\s:=]{1,40})?\s*(?P<s>[:=：]|\s(?:is|это|ist|est|es|é)\s|\s[—–-]\s|\s+—)\s*['\"`]?"
             r"(?P<v><[^<>\n]*>|[^\s'\"`,;]+)",
             ("pass", "парол", "токен", "секрет", "ключ", "api", "token", "secret", "kennwort", "contrase", "senha",
              "hasło", "heslo", "salasana", "密码", "口令", "令牌", "密鑰", "密钥", "パスワード", "トークン", "비밀번호", "토큰"),
             "label", (":", "=", "is", "es", "-")),
    _Pattern("random-looking token", r"(?<![A-Za-z0-9_\-+/=])[A-Za-z0-9_\-+/=]{24,}", (), "guess"),
)

#: the last word of a credential name (``DB_PASSWORD``, ``apiKey``, ``SECRET_KEY_BASE``); ``monkey``, ``keyboard``
#: and ``NOPASSWD`` are not credential names
_CRED_WORDS = frozenset({"password", "passwd", "passphrase", "pass", "pwd", "token", "secret", "key", "apikey",
                         "credential", "credentials", "auth", "pat"})
_NAME_TAILS = frozenset({"base", "value", "b64", "base64", "hex", "raw"})
_CAMEL = r"(?<=[a-z0-9])(?=[A-Z])"

#: values that are not secrets: placeholders, variables, masked forms, common words after a label
_PLACEHOLDER = (
    r"(?:<[^>]*>|\$.*|%[A-Za-z_]+%|\*+|x{3,}|\.{3,}|…|\{\{.*\}\}|"
    r"\[(?:masked|redacted|secret|hidden|removed)\]|"
    r"(?:your|example|placeholder|redacted|changeme|dummy|secret|password|token|masked|hidden)(?:[_-][\w-]*)?|"
    r"none|null|nil|empty|stored|in|see|from|unset|required|the|a|an|is|not|and|or|to|of|at|on|true|false|yes|no)")
_TAIL = r"[\s.,;:!?)\]}'\"`]*(?:\n|$)"
_TOKEN_RUN = r"[A-Za-z0-9_\-+/=]{24}"
#: ``bytes.translate`` table: the token characters to ``a``, every other byte to a blank. On ASCII text a run of 24
#: token characters is then a substring test for 24 ``a``s, a few instructions a character where the regex
#: engine's search spends a few hundred (this runs for most segments of most commands)
_TOKEN_BYTES = bytes(0x61 if i < 128 and (chr(i).isalnum() or chr(i) in "_-+/=") else 0x20 for i in range(256))
_RUN = b"a" * 24
_HEX = r"[0-9a-f]+"
#: a key fingerprint as OpenSSH and GnuPG print it (``SHA256:<base64>``, ``MD5:<hex pairs>``): a digest of a public
#: key, public by design, whatever label it carries ("host key:")
_DIGEST_PREFIX = r"(?i)(?:sha(?:1|224|256|384|512)|md5):"
_DIGEST_BODY = r"[A-Za-z0-9+/=:]{16,}"
_WORD = r"[A-Za-z]+[0-9]*|[0-9]+[A-Za-z]{0,3}"
_DIGITS = frozenset("0123456789")
_ALL_ANCHORS: tuple[str, ...] = tuple(dict.fromkeys(a for p in _PATTERNS for a in p.anchors))
_GUESS = len(_PATTERNS) - 1
#: characters from the rarest to the most common in commands and notes (the rest count as common)
_RARITY = "qzjxkvbywg@fpmhcu_dlrnsoitae:-/."  # "://" goes under ":", "-----begin" under "b"


def _by_char(among) -> tuple[tuple[str, tuple[tuple[str, tuple[int, ...]], ...]], ...]:
    """The anchors grouped under their rarest character, each with the patterns that need it: on lowercased ASCII
    text a test for one character is a memchr, and most texts lack most of these characters, so most anchors are
    never searched (one alternation of all of them costs the regex engine a few hundred instructions a character)."""
    groups: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    among = set(among)
    for a in _ALL_ANCHORS:
        if not a.isascii():
            continue  # these tables are for ASCII text only
        idx = tuple(i for i, p in enumerate(_PATTERNS) if a in p.anchors and i in among)
        if idx:
            c = min(a, key=lambda ch: _RARITY.find(ch) if ch in _RARITY else len(_RARITY))
            groups.setdefault(c, []).append((a, idx))
    return tuple((c, tuple(g)) for c, g in groups.items())


@functools.lru_cache(maxsize=2)
def _tables(short: bool):
    """The anchor table of every pattern, or (``short``) of the patterns that are no provider format: without a
    run of 15 token characters none of those can match, and their anchors are not searched."""
    return _by_char([i for i, p in enumerate(_PATTERNS) if not (short and p.run)])
_RUN_BYTES = bytes(0x61 if i < 128 and (chr(i).isalnum() or chr(i) in "_-+/=.") else 0x20 for i in range(256))


def _ascii_hits(text: str) -> list[int]:
    """Indexes (ascending) of the patterns whose anchors (and ``also``) ASCII ``text`` holds."""
    low = text.lower()
    found: set[int] = set()
    for c, anchors in _tables(len(text) < 15 or b"a" * 15 not in text.encode().translate(_RUN_BYTES)):
        if c in low:
            for a, idx in anchors:
                if a in low:
                    found.update(idx)
    if not found:
        return []
    return [i for i in sorted(found) if not _PATTERNS[i].also or any(b in text for b in _PATTERNS[i].also)]


def _token_run(text: str) -> bool:
    """Some match of the random-looking-token pattern may start in ``text`` (a run of 24 token characters)."""
    if len(text) < 24:
        return False
    # the class is ASCII-only: every byte of a non-ASCII character's UTF-8 form (>= 0x80) translates to a blank
    return _RUN in text.encode("utf-8", "surrogatepass").translate(_TOKEN_BYTES)


@functools.lru_cache(maxsize=None)
def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled on first use: compiling every pattern of this module at import would cost the hook a
    millisecond, and most calls need none of them."""
    return re.compile(pattern, flags)


@functools.lru_cache(maxsize=None)
def _compiled(i: int) -> re.Pattern[str]:
    """Pattern ``i``, compiled the first time a text holds one of its anchors (most texts hold none)."""
    return re.compile(_PATTERNS[i].regex)


def _folded(text: str) -> str:
    """``text`` lowercased as the patterns' ``(?i)`` matching folds it: besides str.lower(), the long s and the
    dotless i match s and i (the Kelvin sign and the dotted capital I lowercase to a k and an i already)."""
    return text.lower().replace("\u017f", "s").replace("\u0131", "i")


def _unicode_hits(text: str) -> list[int]:
    """Indexes (ascending) of the patterns one of whose anchors non-ASCII ``text`` holds (folded)."""
    low = _folded(text)
    found: set[int] = set()
    for c, anchors in _tables(False):
        if c in low:
            for a, idx in anchors:
                if a in low:
                    found.update(idx)
    for a, idx in _non_ascii_anchors():
        if a in low:
            found.update(idx)
    return sorted(found)


@functools.cache
def _non_ascii_anchors() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The anchors the ASCII tables leave out (``пароль``, ``hasło``), each with the patterns that hold it."""
    return tuple((a, tuple(i for i, p in enumerate(_PATTERNS) if a in p.anchors))
                 for a in _ALL_ANCHORS if not a.isascii())


def _needed(text: str) -> list[int]:
    """Indexes (ascending) of the patterns that can match ``text``; every match holds one of its anchors."""
    out = [_GUESS] if _token_run(text) else []
    if text.isascii():
        hits = _ascii_hits(text)
    else:
        hits = _unicode_hits(text)
    return hits + out


def needs_mask(text: str) -> bool:
    """Cheap check: could :func:`mask_secrets` change ``text``? (False means it certainly would not.)"""
    if not text or not isinstance(text, str):
        return False
    if _token_run(text):
        return True
    if text.isascii():
        return bool(_ascii_hits(text))
    return bool(_unicode_hits(text))


def _is_credential_name(name: str) -> bool:
    words = [w.lower() for w in re.split(r"[_.\-]+", _rx(_CAMEL).sub("_", name)) if w]
    if not words:
        return False
    return words[-1] in _CRED_WORDS or (len(words) > 1 and words[-1] in _NAME_TAILS and words[-2] in _CRED_WORDS)


def _wordish(part: str) -> bool:
    """Words, numbers and versions (``v2``, ``py311``, ``2nd``) joined by ``-``, ``_``, ``+`` or ``=``."""
    return all(_rx(_WORD).fullmatch(w) for w in re.split(r"[-_+=]+", part) if w)


def _looks_random(tok: str) -> bool:
    """A run of 24+ token characters that is neither a word, a path, a hash nor a kebab or snake name."""
    if "/" in tok and not tok.endswith("=") and (_DIGITS.isdisjoint(tok[:8]) or tok[0] == "/" and tok.lower() == tok
                                                 or all(_wordish(part) for part in tok.split("/"))):
        # a path: no digit near its start, or absolute and all lower case (/tmp/s14final/gate/hook: random keys mix
        # cases), or every part words and numbers (2026-12-02/notes-v2/draft)
        return False
    core = tok.strip("=")
    if len(core) < 24 or core.isalpha() or core.isdigit():
        return False
    if _rx(_HEX).fullmatch(core.replace("-", "").lower()):
        return False  # git object ids, digests, fingerprints, UUIDs (a labelled hex key is still found by its label)
    if (core.upper() != core) + (core.lower() != core) + (not _DIGITS.isdisjoint(core)) < 2:
        return False
    if ("-" in core or "_" in core) and _wordish(core):
        return False  # long-kebab-case-names, snake_case_names, name-backup-20261202162000
    n = len(core)
    return -sum(c / n * math.log2(c / n) for c in map(core.count, dict.fromkeys(core))) >= 3.6


def _plain(value: str) -> bool:
    """A value with no digit, no symbol and no inner capital: a word of prose, not a password."""
    return value.isalpha() and not any(c.isupper() for c in value[1:])


def _is_secret(p: _Pattern, m: re.Match[str], value: str) -> bool:
    if p.check == "format":
        return True
    if p.check == "guess":
        return _looks_random(value)
    bare = value.strip("'\"`")
    if not bare or _already_masked(bare) or _rx(_PLACEHOLDER, re.I).fullmatch(bare):
        return False
    if p.check == "free":
        return True
    if p.check == "name":
        if not _is_credential_name(m.group("n")):
            return False
        if m.group("s") == "=" or value[:1] in "'\"":
            return True
    else:
        sep = m.groupdict().get("s")
        if sep is None:  # ``Bearer …``, ``Authorization: …``: a token, not a word of prose
            return not _plain(bare) or len(bare) >= 20
        if sep == "=":
            return True
    # after ``:``, "is" or a dash: a value that ends the line, or one that is not a plain word
    if m.group("s") in (":", "：") and _rx(_TAIL).match(m.string, m.end()):
        return True
    word = bare.rstrip(".,:;!?)")  # "the old token is revoked." ends a sentence
    return not _plain(word) and len(word) >= 4


def _fingerprint(text: str, start: int, value: str) -> bool:
    """``value`` (found at ``start``) is a key fingerprint: it carries a digest prefix, or directly follows one."""
    if _rx(_DIGEST_PREFIX + _DIGEST_BODY).fullmatch(value):
        return True
    before = _rx(_DIGEST_PREFIX + "$").search(text, max(0, start - 7), start)
    return before is not None and bool(_rx(_DIGEST_BODY).fullmatch(value))


def _already_masked(value: str) -> bool:
    """A value that holds a mask: this module's, a fix's ``[REDACTED]`` or the stars of older outputs."""
    return MASK in value or "[REDACTED]" in value or "****" in value


def _spans(text: str) -> list[Secret]:
    found: list[Secret] = []
    for i in _needed(text):
        p = _PATTERNS[i]
        for m in _compiled(i).finditer(text):
            group = "w" if "w" in m.re.groupindex and m.group("w") is not None else "v" if "v" in m.re.groupindex else 0
            start, end = m.span(group)
            value = m.group(group)
            if not value and p.kind != "private key":
                continue
            if p.kind == "private key" and _already_masked(value):
                continue
            if not _is_secret(p, m, value) or _fingerprint(text, start, value):
                continue
            if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
                start, end, value = start + 1, end - 1, value[1:-1]  # the quotes stay: only the value is hidden
            # a plain word after a name or a label (``SORT_KEY=name``) is hidden, but only a guess
            guess = p.check == "guess" or (p.check in ("name", "label") and _plain(value.rstrip(".,:;!?)")))
            found.append(Secret(p.kind, start, end, value, guess))
    return found


def find_secrets(text: str) -> list[Secret]:
    """Secrets in ``text``, left to right, non-overlapping: where two findings overlap, the one of the earlier
    pattern (a provider format before a label) is kept; a guess never takes a span another finding holds."""
    if not text or len(text) < 4:
        return []
    kept: list[Secret] = []
    for s in _spans(text):
        if any(k.start < s.end and s.start < k.end or k.start == s.start == s.end for k in kept):
            continue
        kept.append(s)
    kept.sort(key=lambda s: s.start)
    return kept


def _replace(text: str, secrets: list[Secret], replacement: str) -> str:
    out: list[str] = []
    pos = 0
    for s in secrets:
        out.append(text[pos:s.start])
        out.append(replacement)
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def _hide_pieces(text: str, known: tuple[str, ...]) -> str:
    """``text`` with every piece of a ``known`` secret hidden: the whole value, or any run of 6 of its characters
    (a parser may split ``-pSECRET`` into ``-p -S ECRET``); a value shorter than 6 only as a whole word."""
    marks: bytearray | None = None
    for value in known:
        if len(value) < 6:
            if value not in text:
                continue
            for m in re.finditer(r"(?<![A-Za-z0-9])" + re.escape(value) + r"(?![A-Za-z0-9])", text):
                marks = marks or bytearray(len(text))
                marks[m.start():m.end()] = b"\x01" * (m.end() - m.start())
            continue
        find = text.find
        for gram in {value[i:i + 6] for i in range(len(value) - 5)}:  # a few searches in C per value
            j = find(gram)
            while j >= 0:
                marks = marks or bytearray(len(text))
                marks[j:j + 6] = b"\x01\x01\x01\x01\x01\x01"
                j = find(gram, j + 1)
    if marks is None:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if marks[i]:
            while i < len(text) and marks[i]:
                i += 1
            out.append(MASK)
        else:
            j = marks.find(b"\x01", i)
            j = len(text) if j < 0 else j
            out.append(text[i:j])
            i = j
    return "".join(out)


def mask_secrets(text: str, known: tuple[str, ...] = ()) -> str:
    """``text`` with every secret replaced by ``[MASKED]`` and every piece of a ``known`` secret value hidden."""
    if not text or not isinstance(text, str):
        return text
    out = text
    for _ in range(4):  # to a fixpoint: a masked text holds nothing to mask (mask_secrets is idempotent)
        found = find_secrets(out)
        if not found:
            break
        out = _replace(out, found, MASK)
    if known:
        out = _hide_pieces(out, known)
    return out


def redact(text: str, replacement: str = "[REDACTED]") -> str:
    """``text`` with every secret that is not a guess replaced by ``replacement`` (the secret rule's fix)."""
    return _replace(text, [s for s in find_secrets(text) if not s.guess], replacement)


def _strings(obj: Any) -> list[str]:
    out: list[str] = []
    stack = [obj]
    while stack:  # iterative: a deep payload must never be the crash
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return out


def secret_values(*texts: str) -> tuple[str, ...]:
    """The secret values (quotes stripped) in ``texts``: what :func:`mask_json` hides wherever a piece recurs."""
    values: dict[str, None] = {}
    for t in texts:
        if isinstance(t, str):
            for s in find_secrets(t):
                v = s.value.strip("'\"`").strip()
                if v:
                    values[v] = None
    return tuple(values)


def mask_json(obj: Any, known: tuple[str, ...] | None = None) -> Any:
    """A copy of ``obj`` (strings, dicts, lists, tuples, to any depth; keys kept) with every string masked, and
    every piece of a secret hidden in all of them: the ``known`` secrets of the raw input ``obj`` was derived from
    (``secret_values(raw)``), or, by default, the secrets found in any string of ``obj``."""
    if isinstance(obj, str):
        return mask_secrets(obj, known or ())
    if not isinstance(obj, (dict, list, tuple)):
        return obj
    if known is None:
        known = secret_values(*_strings(obj))
    root: list = [obj]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, obj)]
    while stack:
        parent, key, node = stack.pop()
        if isinstance(node, dict):
            copy: Any = dict.fromkeys(node)
            parent[key] = copy
            stack.extend((copy, k, v) for k, v in node.items())
        elif isinstance(node, (list, tuple)):
            copy = [None] * len(node)
            parent[key] = copy
            stack.extend((copy, i, v) for i, v in enumerate(node))
        elif isinstance(node, str):
            parent[key] = mask_secrets(node, known)
        else:
            parent[key] = node
    return root[0]


def _line_hits(joined: str, lengths: list[int], needles, find_all) -> set[int]:
    """Indexes of the lines (of ``lengths``, joined by newlines into ``joined``) where ``find_all`` finds one of
    ``needles``; once a line is a hit, the search goes on from the next line."""
    import bisect

    starts = [0]
    for n in lengths[:-1]:
        starts.append(starts[-1] + n + 1)
    hits: set[int] = set()
    for needle in needles:
        j = find_all(joined, needle, 0)
        while j >= 0:
            k = bisect.bisect_right(starts, j) - 1
            hits.add(k)
            j = find_all(joined, needle, starts[k + 1]) if k + 1 < len(starts) else -1
    return hits


def _find_run(joined: str, _needle, start: int) -> int:
    m = _rx(_TOKEN_RUN).search(joined, start)
    return -1 if m is None else m.start()


def secret_lines(texts: list[str]) -> list[int]:
    """Indexes (ascending) of the ``texts`` that may hold a secret (:func:`needs_mask`): :func:`find_secrets` is
    empty for every other one. All lines are searched at once (each anchor, and each run of 24 token characters,
    in one string: a few searches in C instead of a test per line); a line that holds one is then checked alone."""
    if not texts:
        return []
    folded = [t.lower() if t.isascii() else _folded(t) for t in texts]
    hits = _line_hits("\n".join(folded), [len(t) for t in folded], _ALL_ANCHORS, str.find)
    joined = "\n".join(texts)
    lengths = [len(t) for t in texts]
    if joined.isascii():  # the token characters as "a", then a run is a substring
        runs = joined.encode().translate(_TOKEN_BYTES)
        hits |= _line_hits(runs, lengths, (_RUN,), bytes.find)
    else:
        hits |= _line_hits(joined, lengths, (None,), _find_run)
    return sorted(k for k in hits if needs_mask(texts[k]))
