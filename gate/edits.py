"""Apply string-replacement edits the way the hosts' edit tools do, to learn the file an edit would produce.

Semantics (pi / Claude Code / Gemini): a UTF-8 BOM is ignored for matching and kept; CRLF is matched as LF and
restored on write; each ``old`` must occur exactly once unless ``replace_all`` (or an expected count) says
otherwise; edits apply in order. An edit that cannot apply raises ``ParseError`` — the host's tool would fail
the same way, and the gate must not guess a different result than the host would write.
"""

from __future__ import annotations

from tiers.errors import ParseError
from tiers.record import dataclass

BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Edit:
    """One replacement: ``old`` -> ``new``; ``count`` is the expected number of matches (None: exactly one)."""

    old: str
    new: str
    replace_all: bool = False
    count: int | None = None


def apply_edits(text: str, edits: tuple[Edit, ...] | list[Edit], *, path: str = "file") -> str:
    """The text after applying ``edits`` in order. Raises ParseError when an edit does not match as required."""
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    crlf = "\r\n" in body
    work = body.replace("\r\n", "\n") if crlf else body
    for n, e in enumerate(edits, 1):
        old = e.old.replace("\r\n", "\n")
        new = e.new.replace("\r\n", "\n")
        if old == "":
            if work.strip() == "" and len(edits) == 1:
                work = new  # creating a file through an edit with an empty old string
                continue
            raise ParseError(f"{path}: edit {n} has an empty old text; give the exact text to replace")
        found = work.count(old)
        if found == 0:
            raise ParseError(f"{path}: edit {n}: old text {_short(old)} not found; re-read the file and retry")
        if e.replace_all:
            work = work.replace(old, new)
        elif e.count is not None:
            if found != e.count:
                raise ParseError(f"{path}: edit {n}: expected {e.count} occurrence(s) of {_short(old)}, found {found}")
            work = work.replace(old, new)
        else:
            if found > 1:
                raise ParseError(
                    f"{path}: edit {n}: old text {_short(old)} occurs {found} times; it must be unique (add context)"
                )
            work = work.replace(old, new, 1)
    if crlf:
        work = work.replace("\r\n", "\n").replace("\n", "\r\n")
    return (BOM if bom else "") + work


def _short(s: str) -> str:
    s = s if len(s) <= 60 else s[:57] + "..."
    return repr(s)
