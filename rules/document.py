"""The rules' view of a Markdown file: `tiers.markdown` Documents, plus rendering a Document with line edits.

Rules see ``doc.lines`` (number, text, eol, kind, is_memory, content, body, stamp, stamp_error) exactly as the
memory model parses them, so lint and the gate agree on what a memory line is.
"""

from __future__ import annotations

import functools
import re

from tiers.lazy import LazyRe

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

#: an inline suppression comment (rules.suppress reads its kind and arguments)
DIRECTIVE_RE = LazyRe(r"<!--\s*cuticle\s*:\s*(?P<kind>[A-Za-z-]*)(?P<args>[^>]*?)\s*-->")


def parse(data: bytes | str) -> Any:
    """Parse a memory file with the memory model's Markdown line model."""
    from tiers.markdown import parse_document

    return parse_document(data)


@functools.lru_cache(maxsize=32768)
def normalized_content(text: str) -> str:
    """A line's content for matching and fingerprints: stamp removed, markup stripped, normalized."""
    from tiers.stamps import split_stamp
    from tiers.text import normalize, strip_markup

    content, _, _ = split_stamp(text)
    if "cuticle" in content:
        content = DIRECTIVE_RE.sub(" ", content)
    return normalize(strip_markup(content))


def normalized_bodies(texts: list[str], bodies: list[str]) -> list[str]:
    """:func:`normalized_content` of each line text, given each line's ``body`` (``Line.body``: the content without
    stamp and markup, which the caller has already computed): ``normalize(body)`` unless the line holds a
    suppression comment, which :func:`normalized_content` removes first."""
    from tiers.text import normalize

    memo: dict[str, str] = {}
    out: list[str] = []
    for text, body in zip(texts, bodies):
        if "cuticle" in text:
            out.append(normalized_content(text))
            continue
        key = memo.get(body)
        if key is None:
            key = memo[body] = normalize(body)
        out.append(key)
    return out


def render_lines(doc: Any, texts: dict[int, str | None]) -> bytes:
    """The document's bytes with line ``n`` replaced by ``texts[n]`` (or deleted when None).

    Every other line keeps its text and end-of-line exactly (the memory model's ``Document.with_texts``).
    """
    return doc.with_texts(texts).render()
