"""The line model of a memory file: which lines are tierable memory, and the exact bytes back.

markdown-it-py decides the block structure and python-frontmatter recognizes the front matter; both are wrapped
here (imported only when a document is parsed) so their tokens and posts never leave this module.

Only the content lines of paragraphs (including paragraphs inside list items and blockquotes) are ``memory``;
headings, fenced and indented code (``fence``), HTML blocks, front matter, tables, blank lines and everything else
(thematic breaks, reference definitions, empty list items: ``other``) are structure and never tiered or rewritten.

Bytes: UTF-8 with or without a BOM is decoded as such. Input that is not valid UTF-8 is decoded with
``surrogateescape``: undecodable bytes become lone surrogates in ``Line.text`` (never matched by any marker) and
are written back unchanged, so ``render()`` is always the original bytes. ``\\n``, ``\\r\\n`` and a lone ``\\r`` end a
line (the same rule markdown-it uses); a missing final newline is kept.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from .record import dataclass, field

from .errors import ParseError, UsageError
from .lazy import LazyRe
from .stamps import Stamp, split_stamp
from .text import strip_markup

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

__all__ = ["KINDS", "Document", "Line", "memory_lines", "parse_document", "prose_text", "rendered_text"]

#: Every line kind, in the order a reader meets them.
KINDS = ("memory", "heading", "fence", "html", "frontmatter", "table", "blank", "other")

BOM = b"\xef\xbb\xbf"
_LINE = LazyRe(r"([^\r\n]*)(\r\n|\n|\r|\Z)")


@dataclass(frozen=True, slots=True)
class Line:
    """One physical line: 1-based number, text without its end-of-line (stamp included), the EOL and a kind."""

    number: int
    text: str
    eol: str
    kind: str

    @property
    def is_memory(self) -> bool:
        """A paragraph or list-item content line with something to classify."""
        return self.kind == "memory" and bool(self.body)

    @property
    def content(self) -> str:
        """The text without a trailing stamp."""
        return split_stamp(self.text)[0]

    @property
    def body(self) -> str:
        """The content with list markers, quotes, checkboxes, timestamps and bold-label asterisks stripped."""
        return strip_markup(self.content)

    @property
    def stamp(self) -> Stamp | None:
        return split_stamp(self.text)[1]

    @property
    def stamp_error(self) -> str | None:
        """Why the trailing stamp is malformed (without file and line; callers add them), else None."""
        return split_stamp(self.text)[2]


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed memory file. ``render()`` gives back the exact bytes it was parsed from."""

    lines: tuple[Line, ...]
    bom: bool = False
    #: "utf-8", or "utf-8+surrogateescape" when the input was not valid UTF-8.
    encoding: str = "utf-8"
    _front: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The decoded text (without the BOM); undecodable bytes are lone surrogates."""
        return "".join(line.text + line.eol for line in self.lines)

    def render(self) -> bytes:
        data = self.text.encode("utf-8", "surrogateescape")
        return BOM + data if self.bom else data

    def memory_lines(self) -> list[Line]:
        return [line for line in self.lines if line.is_memory]

    def line(self, number: int) -> Line:
        if not 1 <= number <= len(self.lines):
            raise UsageError(f"line {number} is outside the document (1-{len(self.lines)})")
        return self.lines[number - 1]

    def with_texts(self, texts: Mapping[int, str | None]) -> Document:
        """A new document with the given lines' texts replaced (each keeps its EOL); ``None`` deletes a line.

        The structure is re-parsed, so a replacement that turns a paragraph into a heading gets the kind
        ``heading``. A replacement text may not contain a line break.
        """
        for number, new in texts.items():
            if not isinstance(number, int) or not 1 <= number <= len(self.lines):
                raise UsageError(f"line {number!r} is outside the document (1-{len(self.lines)})")
            if new is not None and ("\n" in new or "\r" in new):
                raise UsageError(f"line {number}: a replacement text may not contain a line break")
        parts: list[str] = []
        kept = [line for line in self.lines if texts.get(line.number, "") is not None]
        for k, line in enumerate(kept):
            eol = line.eol
            if not eol and k < len(kept) - 1:
                eol = "\n"  # the old last line is no longer last: it needs a line break
            parts.append(texts.get(line.number, line.text) + eol)
        if kept and kept[-1] is not self.lines[-1] and self.lines[-1].eol == "" and kept[-1].eol:
            # the deleted last line had no EOL: the new last line loses its own to keep the file's shape
            parts[-1] = parts[-1][: -len(kept[-1].eol)]
        return _parse_text("".join(parts), bom=self.bom, encoding=self.encoding)

    @property
    def metadata(self) -> dict[str, Any]:
        """The front matter as a dict (empty when there is none); ParseError when it is not valid YAML."""
        if self._front is None:
            return {}
        start, end = self._front
        chunk = "".join(line.text + line.eol for line in self.lines[start - 1:end])
        import frontmatter

        try:
            meta = frontmatter.loads(chunk).metadata
        except Exception as exc:  # noqa: BLE001 - YAML errors come in many classes
            raise ParseError(f"line {start}: front matter does not parse ({exc})") from None
        return dict(meta)


def parse_document(data: bytes | bytearray | memoryview | str) -> Document:
    """Parse a memory file's bytes (or text) into lines with kinds. Never fails on content; bad types raise."""
    if isinstance(data, str):
        return _parse_text(data, bom=False, encoding="utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UsageError(f"parse_document() needs bytes or str, not {type(data).__name__}")
    raw = bytes(data)
    bom = raw.startswith(BOM)
    if bom:
        raw = raw[len(BOM):]
    try:
        text = raw.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "surrogateescape")
        encoding = "utf-8+surrogateescape"
    return _parse_text(text, bom=bom, encoding=encoding)


_HEADING_MARKS = LazyRe(r"^[ \t]{0,3}#{1,6}(?:[ \t]+|$)|[ \t]+#+[ \t]*$")
_SETEXT = LazyRe(r"[ \t]{0,3}(?:=+|-+)[ \t]*")
_FENCE_MARK = LazyRe(r"[ \t]*(?:`{3,}|~{3,})[^`]*")
_TABLE_RULE = LazyRe(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)*[ \t]*:?-+:?[ \t]*\|?[ \t]*")
_TAG = LazyRe(r"<!--|-->|</?[A-Za-z][^<>]*>|<!\[CDATA\[|\]\]>")
_FM_KEY = LazyRe(r"[ \t]*-?[ \t]*[\w.-]+[ \t]*:[ \t]*")


def prose_text(line: Line) -> str:
    """The words a structural line (heading, table row, code, HTML, front matter, other) puts before a reader,
    without its Markdown syntax, for the checks every new memory text gets (arbitration, the USER.md guard, the
    poisoning scan); "" for a line with no words (a fence or table rule, a ``---``). Memory lines: their body."""
    if line.kind == "memory":
        return line.body.strip()
    if line.kind == "blank":
        return ""
    text = line.text
    if line.kind == "heading":
        if _SETEXT.fullmatch(text):
            return ""
        text = _HEADING_MARKS.sub("", text)
    elif line.kind == "table":
        if _TABLE_RULE.fullmatch(text):
            return ""
        text = "; ".join(c.strip() for c in text.strip().strip("|").split("|") if c.strip())
    elif line.kind == "fence":
        if _FENCE_MARK.fullmatch(text):
            return ""
    elif line.kind == "html":
        text = _TAG.sub(" ", text)
    elif line.kind == "frontmatter":
        if _FM_BOUNDARY.fullmatch(text):
            return ""
        m = _FM_KEY.match(text)
        if m and text[m.end():].strip():
            key = text[: m.end()].strip().strip("-").strip().rstrip(":")
            text = f"{key}: {text[m.end():].strip().strip(chr(34) + chr(39))}"
    text = " ".join(text.split())
    return text if any(ch.isalnum() for ch in text) else ""


#: one pass over the inline markup a reader does not see: a backslash escape (kept: its character), a character
#: reference (decoded), an HTML comment or tag, the marks of code spans, emphasis and strikethrough (dropped)
_INLINE = LazyRe(r"\\(?P<esc>[!-/:-@\[-`{-~])|(?P<ref>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
                 r"|<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|`+|\*+|~~", re.DOTALL)


def _inline(m: re.Match) -> str:
    if m.group("esc") is not None:
        return m.group("esc")
    if m.group("ref") is not None:
        import html

        return html.unescape(m.group("ref"))
    return ""


def rendered_text(text: str) -> str:
    """``text`` as a reader of the rendered Markdown sees it: character references decoded (``&#97;`` is ``a``,
    ``&nbsp;`` a space), backslash escapes resolved (``ghp\\_`` is ``ghp_``), inline HTML comments and tags
    removed, and the marks of code spans, emphasis and strikethrough (backticks, ``*``, ``~~``) taken out so the
    pieces they split join up again. Underscores stay (inside a word they are no emphasis, and names hold them).
    The checks every new memory text gets also run on this form when it differs, so spelling a word, a secret or
    an instruction with markup cannot hide it. A pure function of ``text``; ``text`` itself when it has no markup."""
    if not any(ch in text for ch in "&\\<`*~"):
        return text
    return " ".join(_INLINE.sub(_inline, text).split())


def memory_lines(data: bytes | str) -> list[Line]:
    """The tierable lines of a memory file."""
    return parse_document(data).memory_lines()


# -- internals ----------------------------------------------------------------------------------------------------
def _split(text: str) -> list[tuple[str, str]]:
    """``(text, eol)`` per line; LF-only text (nearly every file) is split by ``str.split`` at C speed."""
    if "\r" not in text:
        texts = text.split("\n")
        last = texts.pop()  # the text after the final newline: a line of its own only when not empty
        out = [(t, "\n") for t in texts]
        if last:
            out.append((last, ""))
        return out
    return _split_any(text)


def _split_any(text: str) -> list[tuple[str, str]]:
    """The general split: LF, CRLF and lone CR line ends."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _LINE.match(text, pos)
        out.append((m.group(1), m.group(2)))
        pos = m.end()
    return out


@functools.cache
def _md():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    # Only block structure matters for line kinds; inline parsing is most of markdown-it's time.
    md.disable(["inline", "text_join"], ignoreInvalid=True)
    return md


_FM_BOUNDARY = re.compile(r"-{3,}[ \t]*")


def _front_matter(raw_lines: list[tuple[str, str]]) -> tuple[int, int] | None:
    """1-based (first, last) line of a YAML front matter block, as python-frontmatter would see it."""
    if not raw_lines or not _FM_BOUNDARY.fullmatch(raw_lines[0][0]):
        return None
    for k in range(1, len(raw_lines)):
        if _FM_BOUNDARY.fullmatch(raw_lines[k][0]):
            return (1, k + 1)
    return None


_LEAF_KIND = {
    "paragraph_open": "memory",
    "heading_open": "heading",
    "fence": "fence",
    "code_block": "fence",
    "html_block": "html",
    "table_open": "table",
    "hr": "other",
}


# The fast path: a file made only of ATX headings, flat list items, plain paragraph lines (a bold label at the start
# included) and blank lines (the shape of most memory files) gets exactly the kinds markdown-it would give, without markdown-it. Anything that
# could start another block (indentation, fences, quotes, HTML, tables, thematic breaks, setext underlines, link
# definitions, empty items) sends the whole file to markdown-it. tests/tiers/test_markdown.py checks the two agree.
#
#: a line of a simple file: an ATX heading (the group ``heading``), or text that starts no other block, with or without
#: a list marker before it (taken whenever it is one, never backtracked into). At the text's start: a checkbox, strong
#: emphasis ("**Name:** Alex", "__init__ runs twice": paragraph text, never a list item or a thematic break, which
#: need a space or a third "*"/"_") or a character that starts no block; never a number marker, a fence or only
#: spaces. One match a line: the three checks it replaces were a third of a cold write's parse.
_SIMPLE_LINE = re.compile(
    r"(?P<heading>#{1,6}(?:[ \t]|$))"
    r"|(?>(?:(?:[-*+]|\d{1,9}[.)]) {1,4}(?=\S))?)"
    r"(?=\[[ xX]\] |(?:\*\*|__)[^\s*_]|[^#><|=_*\-+:\[\\ \t\u00a0])(?!\d{1,9}[.)])(?!```|~~~)(?!\s*$)")


def _fast_kinds(texts: list[str]) -> list[str] | None:
    kinds = []
    for t in texts:
        if not t or not t.strip(" \t"):
            kinds.append("blank")
            continue
        m = _SIMPLE_LINE.match(t)
        if m is None:
            return None
        kinds.append("memory" if m.lastgroup is None else "heading")
    return kinds


def _block_kinds(raw_lines: list[tuple[str, str]], skip: int, kinds: list[str | None]) -> None:
    """Fill ``kinds`` from line ``skip`` on with the kind of the markdown-it block each line is in (None where it
    is in none). markdown-it sees the rest of the file with the front matter blanked, so token maps are file line
    indexes."""
    if any(t.strip() for t, _ in raw_lines[skip:]):
        md_source = "\n" * skip + "\n".join(t for t, _ in raw_lines[skip:])
        for tok in _md().parse(md_source):
            kind = _LEAF_KIND.get(tok.type)
            if kind is None or tok.map is None:
                continue
            start, end = tok.map
            for k in range(max(start, skip), min(end, len(raw_lines))):
                if kinds[k] is None or kind != "memory":
                    kinds[k] = kind
    for k in range(skip, len(raw_lines)):  # a blank line inside a block is blank; a line in none is other
        kind, t = kinds[k], raw_lines[k][0]
        if kind is None or (kind in ("memory", "other") and not t.strip()):
            kinds[k] = "blank" if not t.strip() else "other"


def _parse_text(text: str, *, bom: bool, encoding: str) -> Document:
    # Documents are immutable, and lint, arbitration and the write path parse the same files again and again.
    return _parse_cached(text, bom, encoding)


@functools.lru_cache(maxsize=64)
def _parse_cached(text: str, bom: bool, encoding: str) -> Document:
    raw_lines = _split(text)
    kinds: list[str | None] = [None] * len(raw_lines)
    front = _front_matter(raw_lines)
    skip = 0
    if front:
        for k in range(front[0] - 1, front[1]):
            kinds[k] = "frontmatter"
        skip = front[1]
    fast = _fast_kinds([t for t, _ in raw_lines[skip:]])
    if fast is not None:
        kinds[skip:] = fast
    else:
        _block_kinds(raw_lines, skip, kinds)
    lines = tuple(map(Line, range(1, len(raw_lines) + 1), [t for t, _ in raw_lines], [e for _, e in raw_lines], kinds))
    return Document(lines, bom=bom, encoding=encoding, _front=front)
