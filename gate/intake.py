"""The hook's first step: the bytes a host wrote on stdin, as a plain JSON object every later step can trust.

Every input has an answer here (docs/bad-input.md): a payload that is too large, not UTF-8, not JSON, not an
object or nested too deep is a ``PayloadError`` with a one-line message; lone UTF-16 surrogates (``"\\ud800"``
is valid JSON, and JavaScript hosts send it) become U+FFFD, which is what such a host writes to disk for them, so
no later encode can crash. What the fields of the object mean per host is ``gate.payload``'s business.
"""

from __future__ import annotations

#: larger than any memory write the gate accepts (4 MiB of text, JSON-escaped); above it a payload is refused
MAX_PAYLOAD = 32 * 1024 * 1024
#: real payloads nest 2 to 6 levels (OpenClaw's event.params.edits[i]); a deeper one is refused before any
#: recursive code (masking, the policy layer) could meet it
MAX_DEPTH = 100

_SPACE = b" \t\n\r"


class PayloadError(ValueError):
    """The payload cannot be read; the message says why in one line (turned into the host's answer)."""


def decode(data: bytes | str | None) -> dict:
    """The payload as a dict (empty stdin is ``{}``). Raises PayloadError for every input it cannot accept."""
    if not data:
        return {}
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_PAYLOAD:
        raise PayloadError(f"payload of {len(data)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if not data.strip(_SPACE):
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PayloadError(f"payload is not UTF-8 (byte {exc.start} is 0x{data[exc.start]:02x})") from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark before the JSON (PowerShell pipes write one)
    import json

    try:
        value = json.loads(text)
    except RecursionError:
        raise PayloadError(f"payload nests more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise PayloadError(f"payload is not JSON ({_one_line(exc)})") from None
    if not isinstance(value, dict):
        raise PayloadError(f"payload must be a JSON object, not {_json_type(value)}")
    # strict UTF-8 has no surrogates: a lone one can only come from a \\uD800-\\uDFFF escape
    return _checked(value, lone="\\ud" in text or "\\uD" in text)


def _checked(root: dict, *, lone: bool) -> dict:
    """``root`` after a depth check; with ``lone``, every lone surrogate in keys and strings replaced by U+FFFD.

    Iterative: a recursive walk would itself fail on the deep input it is there to refuse."""
    stack: list[tuple[object, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise PayloadError(f"payload nests more than {MAX_DEPTH} levels deep")
        if isinstance(node, dict):
            if lone and any(type(k) is str and _has_lone(k) for k in node):
                items = [(_fix(k), v) for k, v in node.items()]
                node.clear()
                node.update(items)
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1))
                elif lone and type(v) is str and _has_lone(v):
                    node[k] = _fix(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1))
                elif lone and type(v) is str and _has_lone(v):
                    node[i] = _fix(v)
    return root


def _has_lone(s: str) -> bool:
    if s.isascii():
        return False
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


#: every UTF-16 surrogate code point -> U+FFFD (json.loads already joined the valid pairs)
_LONE = dict.fromkeys(range(0xD800, 0xE000), 0xFFFD)


def _fix(s: str) -> str:
    return s.translate(_LONE) if type(s) is str and _has_lone(s) else s


def wire(text: str) -> bytes:
    """``text`` as UTF-8 for the host, whatever it holds (a lone surrogate from a file on disk becomes U+FFFD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(_LONE).encode("utf-8", "replace")


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"
