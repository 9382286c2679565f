"""Secret masking for everything governance prints or logs: commands, canonical forms, reasons, targets.

Provider-format secrets (API keys, tokens, private keys, credentials in URLs) are found by the shared scrubber
``rules.secrets`` (imported only when a cheap pre-check says a secret may be present, so the hook stays fast).
On top of it, shell-specific shapes: values assigned to credential-looking names (``OPENAI_API_KEY=sk-test``,
``--password hunter2``, ``mysql -pSECRET``) and long high-entropy tokens.
"""

from __future__ import annotations

import math
import re

from ._lazy import LazyRe

MASK = "[MASKED]"

_CRED_NAME = r"[A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH|PWD|PRIVATE)[A-Za-z0-9_]*"
#: NAME=value where NAME looks like a credential (case-insensitive on the name)
_ASSIGN = LazyRe(r"(?i)\b(" + _CRED_NAME + r")(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s'\";|&]+)")
#: --password VALUE / --token=VALUE / -p'x' style options
_OPT = LazyRe(r"(?i)(--?(?:password|passwd|pass|token|api-key|apikey|secret|auth-token|access-token|client-secret)"
                  r"(?:=|\s+))(\"[^\"]*\"|'[^']*'|[^\s'\";|&]+)")
#: mysql/mariadb -pSECRET (attached value only; a bare -p prompts)
_MYSQL_P = LazyRe(r"(\b(?:mysql|mariadb|mysqldump|mysqladmin)\b[^|;&\n]*?\s-p)([^\s'\";|&]{2,})")
#: a long token: letters, digits and -_+/= with no spaces
_TOKEN = re.compile(r"[A-Za-z0-9_\-+/=]{24,}")
#: cheap pre-check before importing the provider scrubber
_HINT = LazyRe(r"(?i)[A-Za-z0-9_\-+=]{20,}|://[^\s/@]+:[^\s/@]+@|BEGIN [A-Z ]*PRIVATE|bearer|password|passwd|"
                   r"secret|token|api.?key|eyJ|hooks\.slack")


#: patterns the handlers use, compiled on first use (not looked up in re's cache on every call)
_HEX_ONLY = LazyRe(r"[0-9a-f]+")


def _entropy(s: str) -> float:
    # the same counts in the same order (first occurrence) as counting character by character, each counted in C
    n = len(s)
    return -sum([c / n * math.log2(c / n) for c in map(s.count, dict.fromkeys(s))])


_DIGITS = frozenset("0123456789")


def _looks_random(tok: str) -> bool:
    # tok is a _TOKEN match: ASCII letters, digits and -_+/= only, so the character-class tests below are exact as
    # whole-string operations (a digit is 0-9; upper() changes exactly the lowercase letters, lower() the capitals)
    if "/" in tok and not tok.endswith("=") and _DIGITS.isdisjoint(tok[:8]):
        return False  # path-like
    core = tok.strip("=")
    if len(core) < 24:
        return False
    if _HEX_ONLY.fullmatch(core) and len(core) in (40, 64):
        return False  # git object ids and sha256 digests are not secrets
    if core.isalpha() or core.isdigit():
        return False
    classes = (core.upper() != core) + (core.lower() != core) + (not _DIGITS.isdisjoint(core))
    if classes < 2:
        return False
    if "-" in core:  # long-kebab-case-branch-names: letters between the dashes only
        r = core.replace("-", "")
        if not r or r.isalpha():
            return False
    if "_" in core:
        r = core.replace("_", "")
        if not r or r.isalpha():
            return False
    return _entropy(core) >= 3.6


def _mask_assign(m: re.Match[str]) -> str:
    value = m.group(3)
    bare = value.strip("'\"")
    if not bare or bare.startswith("$") or bare == MASK or len(bare) < 3:
        return m.group(0)
    quote = value[0] if value[0] in "'\"" else ""
    return f"{m.group(1)}{m.group(2)}{quote}{MASK}{quote}"


def _mask_opt(m: re.Match[str]) -> str:
    value = m.group(2)
    bare = value.strip("'\"")
    if not bare or bare.startswith("$") or bare == MASK:
        return m.group(0)
    return m.group(1) + MASK


_KEYWORDS = ("key", "token", "secret", "pass", "pwd", "auth", "credential", "private", "bearer", "eyj",
             "hooks.slack", "begin")
#: a keyword counts only where a value can follow it (NAME=…, --password …, "Bearer …", a PEM header)
_KEY_CONTEXT = LazyRe(r"(?i)(?:key|token|secret|pass|pwd|auth|credential|private)[a-z0-9_-]*['\"]?\s*[=:]|"
                          r"--?[a-z-]*(?:key|token|secret|pass|pwd|auth)[a-z-]*(?:\s|=)|bearer\s|eyJ|hooks\.slack|"
                          r"BEGIN [A-Z ]*PRIVATE|(?:password|passwd|token|secret)\s+(?:is|:)")


#: a run of 24 token characters: some _TOKEN match exists exactly when this finds one (no greedy rescans)
_TOKEN_PROBE = re.compile(r"[A-Za-z0-9_\-+/=]{24}")


def _class_table(chars: str) -> bytes:
    """A ``bytes.translate`` table sending the ASCII characters ``chars`` to ``a`` and every other byte to a space:
    on ASCII text, a run of N characters of a class is then a substring test for N ``a``s, a few machine
    instructions per character where the regex engine's search spends a few hundred."""
    return bytes(0x61 if i < 128 and chr(i) in chars else 0x20 for i in range(256))


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: _TOKEN's characters (``[A-Za-z0-9_\-+/=]``) and the run _TOKEN_PROBE looks for
_TOKEN_BYTES = _class_table(_ALNUM + "_-+/=")
_TOKEN_RUN = b"a" * 24


def _has_token_run(text: str) -> bool:
    """``_TOKEN_PROBE.search(text) is not None`` (some _TOKEN match exists), without the regex on ASCII text."""
    if text.isascii():
        return _TOKEN_RUN in text.encode().translate(_TOKEN_BYTES)
    return _TOKEN_PROBE.search(text) is not None


def _has_keyword(low: str) -> bool:
    """Any of ``_KEYWORDS`` in the lowercased text (substring tests in C beat one regex alternation here). Each
    group of keywords is searched only when the text has a letter all of them contain: a one-character test is a
    memchr, several times cheaper than a substring search, and most texts lack most of these letters."""
    return (("k" in low and ("key" in low or "token" in low or "hooks.slack" in low))
            or ("p" in low and ("pass" in low or "pwd" in low or "private" in low))
            or ("c" in low and ("secret" in low or "credential" in low))
            or ("b" in low and ("bearer" in low or "begin" in low))
            or "auth" in low or "eyj" in low)


#: ASCII twins of the case-insensitive patterns above, for lowercased ASCII text: ``(?i)`` matching is several
#: times slower in ``re``, and on ASCII text ``P`` with ``(?i)`` matches exactly where lowercase ``P`` without it
#: matches the lowercased text (same spans: ``str.lower`` keeps the length of ASCII text). Non-ASCII text keeps the
#: ``(?i)`` patterns (they also fold a few non-ASCII letters: the Kelvin sign, the long s).
_ASSIGN_LOW = LazyRe(r"\b([a-z0-9_]*(?:key|token|secret|password|passwd|passphrase|credentials?|auth|pwd|private)"
                         r"[a-z0-9_]*)(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s'\";|&]+)")
_OPT_LOW = LazyRe(r"(--?(?:password|passwd|pass|token|api-key|apikey|secret|auth-token|access-token|client-secret)"
                      r"(?:=|\s+))(\"[^\"]*\"|'[^']*'|[^\s'\";|&]+)")
#: the alternatives of _HINT (lowercase, for lowercased ASCII text) that are not plain words, each searched alone
#: and only when the text has its literal parts: a search for the whole alternation tries every alternative at
#: every position (~30k machine instructions for a 60-character URL); a run of 20 is there exactly when a longer
#: one is
_HINT_RUN_BYTES = _class_table("abcdefghijklmnopqrstuvwxyz0123456789_-+=")
_HINT_RUN = b"a" * 20
_HINT_URL_CRED = LazyRe(r"://[^\s/@]+:[^\s/@]+@")
_HINT_PEM = LazyRe(r"begin [a-z ]*private")
_HINT_API_KEY = LazyRe(r"api.?key")


def _hint_low(low: str) -> bool:
    """Whether ``_HINT`` finds something in ASCII text whose lowercased form is ``low``, one alternative at a time
    (an alternation matches somewhere exactly when one of its alternatives does)."""
    return ("bearer" in low or "passw" in low and ("password" in low or "passwd" in low) or "secret" in low
            or "token" in low or "eyj" in low or "hooks.slack" in low
            or ("api" in low and "key" in low and _HINT_API_KEY.search(low) is not None)
            or ("begin " in low and "private" in low and _HINT_PEM.search(low) is not None)
            or ("@" in low and "://" in low and _HINT_URL_CRED.search(low) is not None)
            or (len(low) >= 20 and _HINT_RUN in low.encode().translate(_HINT_RUN_BYTES)))


#: the alternatives of _KEY_CONTEXT, each tried only when the text has the character it cannot match without
_KC_ASSIGN = LazyRe(r"(?:key|token|secret|pass|pwd|auth|credential|private)[a-z0-9_-]*['\"]?\s*[=:]")
_KC_OPT = LazyRe(r"--?[a-z-]*(?:key|token|secret|pass|pwd|auth)[a-z-]*(?:\s|=)")
_KC_BEARER = LazyRe(r"bearer\s")
_KC_PEM = LazyRe(r"begin [a-z ]*private")
_KC_IS = LazyRe(r"(?:password|passwd|token|secret)\s+(?:is|:)")


def _key_context(text: str, low: str) -> bool:
    """``_KEY_CONTEXT.search(text) is not None`` (``low``: ``text.lower()``)."""
    if not text.isascii():
        return _KEY_CONTEXT.search(text) is not None
    if ("=" in text or ":" in text) and _KC_ASSIGN.search(low) is not None:
        return True
    if "-" in text and _KC_OPT.search(low) is not None:
        return True
    if "eyj" in low or "hooks.slack" in low:
        return True
    if "bearer" in low and _KC_BEARER.search(low) is not None:
        return True
    if "begin " in low and _KC_PEM.search(low) is not None:
        return True
    return ("passw" in low or "token" in low or "secret" in low) and _KC_IS.search(low) is not None


def needs_mask(text: str) -> bool:
    """Cheap check: could ``mask`` change anything in ``text``? (False means it certainly would not.)"""
    if not text:
        return False
    # the cheap tests first (the result is their disjunction, in any order)
    if "://" in text and "@" in text:
        return True
    # a _TOKEN match is a run of 24+ non-blank characters, so it needs no separate "long word" pre-check
    if len(text) >= 24 and _has_token_run(text):
        return True
    low = text.lower()
    if "-p" in text and ("mysql" in low or "mariadb" in low):
        return True
    # _has_keyword(low), inline (this runs for most segments of most commands)
    if (("k" in low and ("key" in low or "token" in low or "hooks.slack" in low))
            or ("p" in low and ("pass" in low or "pwd" in low or "private" in low))
            or ("c" in low and ("secret" in low or "credential" in low))
            or ("b" in low and ("bearer" in low or "begin" in low))
            or "auth" in low or "eyj" in low):
        return _key_context(text, low)
    return False


def _sub_ascii(pattern: re.Pattern[str], repl, text: str, low: str) -> str:
    """``pattern.sub(repl, text)`` for a lowercase twin ``pattern`` of a ``(?i)`` pattern, ``text`` ASCII:
    matches found in ``low`` (same spans), ``repl`` called with the groups of ``text`` (the pattern never
    matches the empty string)."""
    parts: list[str] = []
    pos = 0
    for m in pattern.finditer(low):
        start, end = m.span()
        parts.append(text[pos:start])
        parts.append(repl([text[a:b] if a >= 0 else None for a, b in m.regs]))
        pos = end
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)


def _mask_assign_groups(g: list) -> str:
    value = g[3]
    bare = value.strip("'\"")
    if not bare or bare.startswith("$") or bare == MASK or len(bare) < 3:
        return g[0]
    quote = value[0] if value[0] in "'\"" else ""
    return f"{g[1]}{g[2]}{quote}{MASK}{quote}"


def _mask_opt_groups(g: list) -> str:
    value = g[2]
    bare = value.strip("'\"")
    if not bare or bare.startswith("$") or bare == MASK:
        return g[0]
    return g[1] + MASK


def _has_cred_name(low: str) -> bool:
    """A word of ``_CRED_NAME`` can occur in lowercased ASCII text (a substring test per alternative)."""
    return ("key" in low or "token" in low or "secret" in low or "pass" in low or "credential" in low
            or "auth" in low or "pwd" in low or "private" in low)


def mask(text: str) -> str:
    """``text`` with every secret-looking value replaced by ``[MASKED]`` or a short masked form."""
    if not text or not isinstance(text, str):
        return text
    if not needs_mask(text):
        return text
    if text.isascii():  # the same substitutions, on the lowercase twins, each skipped when it cannot match
        out = text
        low = text.lower()
        if ("=" in out or ":" in out) and _has_cred_name(low):
            out = _sub_ascii(_ASSIGN_LOW, _mask_assign_groups, out, low)
            low = out.lower()
        if "-" in out and ("pass" in low or "token" in low or "api" in low or "secret" in low):
            out = _sub_ascii(_OPT_LOW, _mask_opt_groups, out, low)
        if "-p" in out and ("mysql" in out or "mariadb" in out):
            out = _MYSQL_P.sub(lambda m: m.group(1) + MASK, out)
        if len(out) >= 24 and _TOKEN_RUN in out.encode().translate(_TOKEN_BYTES):  # else _TOKEN finds nothing
            out = _TOKEN.sub(lambda m: MASK if _looks_random(m.group(0)) else m.group(0), out)
        hint = _hint_low(out.lower())
    else:
        out = _ASSIGN.sub(_mask_assign, text)
        out = _OPT.sub(_mask_opt, out)
        out = _MYSQL_P.sub(lambda m: m.group(1) + MASK, out)
        out = _TOKEN.sub(lambda m: MASK if _looks_random(m.group(0)) else m.group(0), out)
        hint = _HINT.search(out) is not None
    if hint:
        scrub = _SCRUBBER[0] or _load_scrubber()
        if scrub is None:  # pragma: no cover - the shared scrubber is part of the package
            return out
        out = scrub(out)
    return out


#: the shared scrubber's mask_secrets once imported (an import statement in mask() costs ~6k machine instructions
#: a call even when the module is loaded; importing it at module level would put it on the hook's import path)
_SCRUBBER: list = [None]


def _load_scrubber():
    try:
        from rules.secrets import mask_secrets
    except ImportError:  # pragma: no cover - the shared scrubber is part of the package
        return None
    _SCRUBBER[0] = mask_secrets
    return mask_secrets


def mask_obj(obj):
    """Mask every string inside a JSON-like structure (dicts, lists, tuples)."""
    if isinstance(obj, str):
        return mask(obj)
    if isinstance(obj, dict):
        return {k: mask_obj(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [mask_obj(v) for v in obj]
    return obj
