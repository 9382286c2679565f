"""Argument and word helpers: quoting, brace expansion, option skipping, operands, and the literal value a
substitution prints (echo, ls/find listings, lookups, decoders).
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe

from ..paths import DEVICES
from ..shell import Simple
from .find import _find_pattern
from .text import _OCTAL_ESCAPE, _echo_text
from .tools import DECODE_FLAGS, _DECODER_TOOLS

def _shell_quote(a: str) -> str:
    if a and all(c.isalnum() or c in "@%+=:,./-_" for c in a):
        return a
    return "'" + a.replace("'", "'\\''") + "'"


def _braces(text: str, limit: int = 64) -> list[str]:
    """Bash brace expansion of one word: ``{a,b}c`` -> ``ac bc``, ``x{1..3}`` -> ``x1 x2 x3``; a word without a
    valid brace group (``{}``, ``{a}``, ``${x}``) stays as it is."""
    i = 0
    n = len(text)
    while i < n:
        if text[i] == "{" and (i == 0 or text[i - 1] != "$"):
            depth = 0
            commas = []
            for j in range(i, n):
                c = text[j]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        body = text[i + 1:j]
                        pre, post = text[:i], text[j + 1:]
                        if commas:
                            parts, last = [], i + 1
                            for k in commas:
                                parts.append(text[last:k])
                                last = k + 1
                            parts.append(text[last:j])
                        else:
                            m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)|([a-zA-Z])\.\.([a-zA-Z])", body)
                            if not m:
                                break
                            if m.group(1) is not None:
                                a, b = int(m.group(1)), int(m.group(2))
                                step = 1 if b >= a else -1
                                parts = [str(x) for x in range(a, b + step, step)[:limit]]  # a range slice is lazy
                            else:
                                a, b = ord(m.group(3)), ord(m.group(4))
                                step = 1 if b >= a else -1
                                parts = [chr(x) for x in range(a, b + step, step)[:limit]]
                        out: list[str] = []
                        for part in parts:
                            for tail in _braces(post, limit):
                                out.extend(_braces(pre + part + tail, limit) if "{" in part else [pre + part + tail])
                                if len(out) >= limit:
                                    return out
                        return out
                elif c == "," and depth == 1:
                    commas.append(j)
            else:
                return [text]
        i += 1
    return [text]


def _skip_opts(argv: list[str], valued: set[str], start: int = 1) -> int:
    i = start
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return i + 1
        if not a.startswith("-") or a == "-":
            return i
        name = a.split("=", 1)[0]
        if name in valued and "=" not in a:
            i += 2
            continue
        if not a.startswith("--") and len(a) > 2 and f"-{a[1]}" in valued:
            i += 1  # value attached: -u0
            continue
        if not a.startswith("--") and len(a) > 2 and f"-{a[-1]}" in valued:
            i += 2  # cluster ending in a valued flag
            continue
        i += 1
    return i


def _listing_value(script: Script) -> str | None:
    """What ``$(find START … -name N)`` or ``$(ls X)`` prints, as a pattern (``START/$(…)/N``, ``X``): enough to
    see that ``cat "$(find . -name key -path '*cuticle*')"`` reads the key. Other substitutions stay unknown."""
    if len(script.items) != 1:
        return None
    pipe = script.items[0][1]
    if not pipe.commands or not isinstance(pipe.commands[0], Simple):
        return None
    words = [w.text for w in pipe.commands[0].words]
    if not words or not all(w.literal for w in pipe.commands[0].words):
        return None
    if words[0] == "find" and len(pipe.commands) == 1:
        i = 1
        starts = []
        while i < len(words) and not words[i].startswith("-") and words[i] not in ("(", "!"):
            starts.append(words[i])
            i += 1
        expr = words[i:]
        names = [expr[k + 1] for k, a in enumerate(expr) if a in ("-name", "-iname") and k + 1 < len(expr)]
        if len(starts) <= 1:
            return _find_pattern(starts[0] if starts else ".", names[:1])
    return None


def _lone_simple(script: Script) -> Simple | None:
    """The one simple command a substitution's script is, or None (a list, a pipeline, a compound)."""
    if len(script.items) != 1:
        return None
    pipe = script.items[0][1]
    if len(pipe.commands) != 1 or not isinstance(pipe.commands[0], Simple):
        return None
    return pipe.commands[0]


def _lookup_value(script: Script) -> str | None:
    """What ``$(which NAME)``, ``$(command -v NAME)`` or ``$(type -P NAME)`` prints: the path of program NAME (as
    ``/usr/bin/NAME``: its directory does not matter, its name says what runs), so ``$(which python3) -c …`` is
    looked through like ``python3 -c …``."""
    cmd = _lone_simple(script)
    if cmd is None:
        return None
    if cmd.redirects and not all(r.target is not None and r.target.text in DEVICES for r in cmd.redirects):
        return None
    words = [w.text for w in cmd.words]
    if not all(w.literal for w in cmd.words) or len(words) < 2:
        return None
    if words[0] == "which" and len(words) == 2 or words[:2] in (["command", "-v"], ["type", "-P"], ["type", "-p"]) \
            and len(words) == 3:
        name = words[-1]
        if not name or name.startswith("-"):
            return None
        return name if "/" in name else "/usr/bin/" + name
    return None


# -- tool handlers ---------------------------------------------------------------------------------------
def _operands(args: list[str]) -> list[str]:
    out: list[str] = []
    end = False
    for a in args:
        if end:
            out.append(a)
        elif a == "--":
            end = True
        elif a.startswith("-") and a != "-":
            continue
        else:
            out.append(a)
    return out


def _opts_and_operands(args: list[str], valued: set[str]) -> tuple[list[str], list[str], dict[str, str]]:
    flags: list[str] = []
    ops: list[str] = []
    values: dict[str, str] = {}
    i = 0
    end = False
    while i < len(args):
        a = args[i]
        i += 1
        if end or a == "-" or not a.startswith("-"):
            ops.append(a)
            continue
        if a == "--":
            end = True
            continue
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            if not eq and f"--{name}" in valued and i < len(args):
                val = args[i]
                i += 1
            flags.append(name)
            values[name] = val
            continue
        body = a[1:]
        for k, ch in enumerate(body):
            flags.append(ch)
            if f"-{ch}" in valued:
                val = body[k + 1:]
                if not val and i < len(args):
                    val = args[i]
                    i += 1
                values[ch] = val
                break
    return flags, ops, values


_LONG_PREFIX = {"rm": ("recursive", "force", "interactive", "one-file-system", "no-preserve-root",
                       "preserve-root", "dir", "verbose")}


def _long(tool: str, name: str) -> str:
    opts = _LONG_PREFIX.get(tool, ())
    hits = [o for o in opts if o.startswith(name)]
    return hits[0] if len(hits) == 1 else name
_VAR = LazyRe(r"\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])\}|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])")
_VAR_ANY = LazyRe(r"\$[A-Za-z_{@*#?!0-9]")


def _is_decoder(tool: str, argv) -> bool:
    if tool not in _DECODER_TOOLS:  # cheap prefilter: only these tools decode
        return False
    args = argv[1:]
    if tool in ("base64", "base32", "basenc"):
        return any(a in DECODE_FLAGS or (a.startswith("-") and not a.startswith("--") and "d" in a) for a in args)
    if tool == "xxd":
        return any(a.startswith("-r") or a == "-revert" for a in args)
    if tool in ("uudecode", "unbase64"):
        return True
    if tool == "openssl":
        return ("-d" in args or "-decode" in args) and any(a in ("base64", "enc", "-base64", "-a") for a in args)
    if tool == "python" and any("b64decode" in a for a in args):
        return True
    if tool == "printf" and any("\\x" in a or _OCTAL_ESCAPE.search(a) for a in args):
        return False
    return False


def _echo_value(script: Script) -> str | None:
    """The output of ``$(echo literal)`` (so ``$(echo rm) -rf /`` is seen as ``rm -rf /``)."""
    cmd = _lone_simple(script)
    if cmd is None:
        return None
    if not cmd.words or cmd.words[0].text not in ("echo", "printf") or not all(w.literal for w in cmd.words):
        return None
    return _echo_text(cmd.words[0].text, [w.text for w in cmd.words[1:]]).rstrip("\n")


def _substitutions(text: str) -> list[str]:
    """The command texts of ``$(…)`` and backtick substitutions in expandable text (an unquoted heredoc body)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if text.startswith("$((", i):
            i += 3
            continue
        if text.startswith("$(", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                j += 1
            out.append(text[i + 2:j - 1] if depth == 0 else text[i + 2:])
            i = j
            continue
        if c == "`":
            j = text.find("`", i + 1)
            j = n if j < 0 else j
            out.append(text[i + 1:j])
            i = j + 1
            continue
        i += 1
    return out


def _is_pwd(script: Script) -> bool:
    """``$(pwd)``: its value is the working directory."""
    if len(script.items) != 1 or len(script.items[0][1].commands) != 1:
        return False
    cmd = script.items[0][1].commands[0]
    return isinstance(cmd, Simple) and [w.text for w in cmd.words] in (["pwd"], ["pwd", "-P"], ["pwd", "-L"])


def _stdin_items(stdin: Flow | None) -> list[str]:
    """What ``xargs`` appends: the literal text's words, the path patterns a listing produces, or one item
    standing for anything (a write to it reaches every protected path)."""
    if stdin is not None and stdin.names is not None:
        return list(stdin.names)
    if stdin is None or stdin.text is None:
        return ["$(…)"]
    return stdin.text.split()


def _short(s: str) -> str:
    s = " ".join(s.split())
    return s if len(s) <= 60 else s[:57] + "..."
