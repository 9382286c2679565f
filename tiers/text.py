"""Text helpers for matching memory lines: Unicode normalization, markup stripping and word tokens.

Everything here is for *matching* only; nothing is ever written back to a file. The pipeline is the one the
reference notes prescribe: NFC first (NFD Cyrillic breaks ``\\w``), then case folding, then ё -> е, with curly,
«ёлочки» and „German“ quotes folded to straight ones.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .lazy import LazyRe


__all__ = ["WORD", "fold", "normalize", "normalize_nfc", "split_markup", "strip_markup", "words"]

#: Quote characters folded to a straight quote (double or single) for matching.
_QUOTES = {
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2033": '"', "\u301d": '"', "\u301e": '"', "\uff02": '"',
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2039": "'", "\u203a": "'",
    "\u2032": "'", "\uff07": "'",
}
_DASHES = {"\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"}


def _fold_char(ch: str) -> str:
    mapped = _QUOTES.get(ch) or _DASHES.get(ch)
    if mapped:
        return mapped
    low = ch.casefold()
    if len(low) != 1:
        low = ch.lower()
        if len(low) != 1:
            return ch
    if low == "ё":
        return "е"
    if low in "\u00a0\u2007\u202f\t":
        return " "
    return low


@functools.cache
def _fold_table() -> dict[int, str]:
    """The 1:1 fold of the Latin, Greek, Cyrillic, punctuation and quote blocks (``str.translate`` is fast)."""
    table: dict[int, str] = {}
    ranges = [(0, 0x250), (0x370, 0x400), (0x400, 0x530), (0x1E00, 0x1F00), (0x2000, 0x2070), (0x3000, 0x3020),
              (0xFF00, 0xFF10)]
    for lo, hi in ranges:
        for ch in map(chr, range(lo, hi)):
            f = _fold_char(ch)
            if f != ch:
                table[ord(ch)] = f
    return table


def fold(text: str) -> str:
    """Length-preserving fold of *already NFC* text: lower case, ё -> е, quotes and dashes straightened.

    Offsets into the result are offsets into ``text``, so a match can be cut out of the original line. Scripts
    outside Latin, Greek and Cyrillic are left as they are (the lexicon has no words in them).
    """
    if text.isascii():  # the table's ASCII part is lower case and tab -> space; translate() is 10x slower
        return text.lower().replace("\t", " ")
    return text.translate(_fold_table())


def normalize(text: str) -> str:
    """The matching form of ``text``: NFC, casefold, ё -> е, straight quotes, whitespace collapsed and trimmed."""
    return normalize_nfc(unicodedata.normalize("NFC", text))


def normalize_nfc(nfc: str) -> str:
    """``normalize`` of text already in NFC (a caller that needs the NFC form too normalizes once)."""
    return " ".join(fold(nfc).casefold().replace("ё", "е").split())


WORD = LazyRe(r"\w+(?:['’]\w+)*")


def words(text: str) -> list[str]:
    """Normalized Unicode word tokens (letters, digits, ``_``; an inner apostrophe keeps ``don't`` whole)."""
    return WORD.findall(normalize(text))


# A memory line's leading structure, in the order it can appear: indentation, blockquote markers, a list marker,
# a task checkbox, a daily-note timestamp, then an optional bold label ``**Label:**`` whose asterisks go.
_PREFIX_SOURCE = (
    r"""
    ^(?P<prefix>
        [ \t]*
        (?:>[ \t]?[ \t]*)*                                 # blockquote markers
        (?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))?             # list marker
        (?:\[[ xX]\](?:[ \t]+|$))?                         # task checkbox
        (?:                                                # timestamp of a daily note
            (?:\*\*|__)?\[?
            (?:\d{4}-\d{2}-\d{2}[ T]?)?
            (?:[01]?\d|2[0-3])[:h][0-5]\d(?::[0-5]\d)?(?:\s?[ap]\.?m\.?)?(?:\s?(?:UTC|Z|[+-]\d{2}:?\d{2}))?
            \]?(?:\*\*|__)?
            [ \t]*(?:[-–—:|][ \t]+)?(?=\S)
            [ \t]*
        )?
    )
    """,
    re.VERBOSE | re.IGNORECASE,
)
_BOLD_SOURCE = r"^(\*\*|__)([^*_\n]{1,80}?:)\1[ \t]*|^(\*\*|__)([^*_\n]{1,80}?)\3[ \t]*(?=:)"


@functools.cache
def _prefix():
    return re.compile(*_PREFIX_SOURCE)


@functools.cache
def _bold_label():
    return re.compile(_BOLD_SOURCE)


def split_markup(line: str) -> tuple[str, str]:
    """Split a memory line into ``(prefix, body)`` where the prefix is its leading Markdown structure.

    The bold label is not part of the prefix: its text stays in the body (``**Rule (from user):** x`` gives
    ``Rule (from user): x``) because the label often carries the provenance.
    """
    m = _prefix().match(line)
    prefix = m.group("prefix") if m else ""
    return prefix, line[len(prefix):]


def strip_markup(line: str) -> str:
    """The line without list markers, blockquote ``>``, checkboxes, a leading timestamp and bold-label asterisks.

    Inline code and the rest of the text are kept: backticks are evidence (a command was run).
    """
    _, body = split_markup(line)
    m = _bold_label().match(body) if body[:2] in ("**", "__") else None
    if m:
        if m.group(1):
            body = m.group(2) + " " + body[m.end():]
        else:
            body = m.group(4) + body[m.end():]
    return body.strip()
