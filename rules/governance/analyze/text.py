"""What ``echo`` and ``printf`` print: escapes, format specifiers and base64, computed from literal arguments.
"""

from __future__ import annotations

from tiers.lazy import LazyRe

_OCTAL_ESCAPE = LazyRe(r"\\[0-7]{3}")
_HEX_ESCAPE = LazyRe(r"\\x([0-9a-fA-F]{1,2})")
_OCTAL_ESCAPE_1_3 = LazyRe(r"\\([0-7]{1,3})")


def _echo_text(tool: str, args: list[str]) -> str:
    if tool == "printf":
        return _printf(args)
    words = [a for a in args]
    interpret = False
    while words and words[0] in ("-n", "-e", "-E", "-ne", "-en"):
        interpret = interpret or "e" in words[0]
        words = words[1:]
    text = " ".join(words)
    if interpret:
        text = _HEX_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text).replace("\\n", "\n")
    return text


#: a hex or octal escape (``\\x65``, ``\\145``, ``\\0145``) that printf or ``echo -e`` decodes
_ENCODED_CHAR = LazyRe(r"\\x[0-9a-fA-F]|\\0?[0-7]{3}")
_PRINTF_SPEC = LazyRe(r"%([-+ #0]*)(\d*)(?:\.(\d*))?([sbqdiouxXcfeEgG%])")


def _unescape(text: str) -> str:
    """printf's backslash escapes (in the format, and in ``%b`` arguments)."""
    if "\\" not in text:
        return text
    text = _HEX_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    text = _OCTAL_ESCAPE_1_3.sub(lambda m: chr(int(m.group(1), 8) % 256), text)
    return text.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\\\", "\\")


def _printf(args: list[str]) -> str:
    """What ``printf [-v VAR] [--] FORMAT ARGS…`` prints, as bash does it: the format is reused while arguments
    remain, ``%s``/``%b``/``%d``… take one argument each (a missing one is empty or 0), escapes are decoded. So
    ``printf '%s' MEM ORY.md`` is ``MEMORY.md`` and ``printf -- '--- a/USER.md\\n…'`` is the patch text."""
    if args[:1] == ["-v"]:
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return ""
    fmt, rest = _unescape(args[0]), list(args[1:])
    out: list[str] = []
    for _ in range(64):  # bound the reuse of the format (each pass takes at least one argument)
        took = False

        def conv(m: re.Match[str]) -> str:
            nonlocal took
            flags, width, prec, kind = m.groups()
            if kind == "%":
                return "%"
            width = str(min(int(width), 256)) if width else width  # bounded: the text is for matching, not display
            prec = str(min(int(prec), 256)) if prec else prec
            took = True
            arg = rest.pop(0) if rest else ""
            if kind in "sq":
                value = arg if prec is None else arg[:int(prec or 0)]
            elif kind == "b":
                value = _unescape(arg)
            elif kind == "c":
                value = arg[:1]
            else:
                try:
                    num = float(arg) if kind in "feEgG" else int(arg or "0", 0)
                    value = ("%" + flags + width + ("." + prec if prec is not None else "") + kind) % num
                except (ValueError, TypeError):
                    value = arg
                return value
            return value.rjust(int(width)) if width and "-" not in flags else value.ljust(int(width or 0))

        out.append(_PRINTF_SPEC.sub(conv, fmt))
        if not took or not rest:
            break
    return "".join(out)


def _b64(text: str) -> str | None:
    import base64
    import binascii

    try:
        data = base64.b64decode(text.strip() + "=" * (-len(text.strip()) % 4), validate=False)
        return data.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):  # noqa: F821 - imported above
        return None
