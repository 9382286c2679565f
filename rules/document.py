"""The rules' view of a Markdown file: `tiers.markdown` Documents, plus rendering a Document with line edits.

Rules see ``doc.lines`` (number, text, eol, kind, is_memory, content, body, stamp, stamp_error) exactly as the
memory model parses them, so lint and the gate agree on what a memory line is.
"""

from __future__ import annotations

import re
from typing import Any

BOM = "\ufeff"
_WS = re.compile(r"\s+")


def parse(data: bytes | str) -> Any:
    """Parse a memory file with the memory model's Markdown line model."""
    from tiers.markdown import parse_document

    return parse_document(data)


def normalized_content(text: str) -> str:
    """A line's content for matching and fingerprints: stamp removed, markup stripped, normalized."""
    from tiers.stamps import split_stamp
    from tiers.text import normalize, strip_markup

    content, _, _ = split_stamp(text)
    return normalize(strip_markup(content))


def render_lines(doc: Any, texts: dict[int, str | None]) -> bytes:
    """The document's bytes with line ``n`` replaced by ``texts[n]`` (or deleted when None).

    Every other line keeps its text and end-of-line exactly; a leading BOM is kept; a file that did not end
    with a newline still does not after its last line is deleted.
    """
    original = doc.render()
    bom = original.startswith(BOM.encode("utf-8"))
    kept: list[tuple[str, str]] = []
    last_eol_missing = bool(doc.lines) and doc.lines[-1].eol == ""
    for line in doc.lines:
        new = texts.get(line.number, line.text) if line.number in texts else line.text
        if new is None:
            continue
        text = new
        if line.number == 1 and bom and text.startswith(BOM):
            text = text[len(BOM):]
        kept.append((text, line.eol))
    if kept and last_eol_missing and kept[-1][1] != "":
        kept[-1] = (kept[-1][0], "")
    body = "".join(t + e for t, e in kept)
    return (BOM if bom else "").encode("utf-8") + body.encode("utf-8", "surrogateescape")
