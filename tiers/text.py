"""Text helpers for matching memory lines: Unicode normalization, markup stripping and word tokens.

Everything here is for *matching* only; nothing is ever written back to a file. The pipeline is the one the
reference notes prescribe: NFC first (NFD Cyrillic breaks ``\\w``), then case folding, then ё -> е, with curly,
«ёлочки» and „German“ quotes folded to straight ones.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["fold", "normalize", "normalize_nfc", "split_markup", "strip_markup", "words"]

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


def _fold_table() -> dict[int, str]:
    table: dict[int, str] = {}
    ranges = [(0, 0x250), (0x370, 0x400), (0x400, 0x530), (0x1E00, 0x1F00), (0x2000, 0x2070), (0x3000, 0x3020),
              (0xFF00, 0xFF10)]
    for lo, hi in ranges:
        chars = "".join(map(chr, range(lo, hi)))
        # only characters that casefold to something else, or that _fold_char maps itself, can change
        for ch, low in zip(chars, map(str.casefold, chars)):
            if low == ch and ch not in _SPECIAL:
                continue
            f = _fold_char(ch)
            if f != ch:
                table[ord(ch)] = f
    return table


#: Characters _fold_char maps although they fold to themselves.
_SPECIAL = frozenset(_QUOTES) | frozenset(_DASHES) | frozenset("ё\u00a0\u2007\u202f\t")


#: Precomputed 1:1 fold for Latin, Greek, Cyrillic, punctuation and quote blocks (``str.translate`` is fast),
#: built on the first line that is not plain ASCII.
_FOLD_TABLE: dict[int, str] | None = None


def fold(text: str) -> str:
    """Length-preserving fold of *already NFC* text: lower case, ё -> е, quotes and dashes straightened.

    Offsets into the result are offsets into ``text``, so a match can be cut out of the original line. Scripts
    outside Latin, Greek and Cyrillic are left as they are (the lexicon has no words in them).
    """
    if text.isascii():
        # the table's ASCII part: A-Z lower case, a tab a space
        return text.lower().replace("\t", " ")
    global _FOLD_TABLE
    if _FOLD_TABLE is None:
        _FOLD_TABLE = _fold_table()
    return text.translate(_FOLD_TABLE)


#: The characters ``fold`` maps that ``str.casefold`` does not (the quotes and dashes it straightens).
@functools.cache
def _straightened():
    return re.compile("[" + "".join(sorted(set(_QUOTES) | set(_DASHES))) + "]")


def normalize(text: str) -> str:
    """The matching form of ``text``: NFC, casefold, ё -> е, straight quotes, whitespace collapsed and trimmed."""
    return normalize_nfc(unicodedata.normalize("NFC", text))


def normalize_nfc(nfc: str) -> str:
    """``normalize`` of text already in NFC (a caller that needs the NFC form too normalizes once).

    Whitespace is collapsed with ``str.split``: it splits on exactly the characters ``re``'s ``\\s`` matches in a
    str pattern (both test ``Py_UNICODE_ISSPACE``), at a fifth of the cost of a regex substitution, and drops
    leading and trailing runs as ``strip()`` did (tests/tiers/test_text_normalize.py checks every code point).
    """
    if nfc.isascii():
        # ASCII holds no quote or dash that fold() straightens, and its casefold is lower()
        return " ".join(nfc.lower().split())
    if _straightened().search(nfc) is None:
        # Without quotes or dashes, fold() then casefold() is casefold() alone, up to the few spaces fold() maps
        # to " " (tab, no-break spaces) that the whitespace collapse below maps anyway (a test checks every
        # code point: tests/tiers/test_text_normalize.py). It skips str.translate, slow on non-ASCII text.
        return " ".join(nfc.casefold().replace("ё", "е").split())
    return " ".join(fold(nfc).casefold().replace("ё", "е").split())


_WORD = re.compile(r"\w+(?:['’]\w+)*")


def words(text: str) -> list[str]:
    """Normalized Unicode word tokens (letters, digits, ``_``; an inner apostrophe keeps ``don't`` whole)."""
    return _WORD.findall(normalize(text))


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


_BULLETS = frozenset({"- ", "* ", "+ "})


def split_markup(line: str) -> tuple[str, str]:
    """Split a memory line into ``(prefix, body)`` where the prefix is its leading Markdown structure.

    The bold label is not part of the prefix: its text stays in the body (``**Rule (from user):** x`` gives
    ``Rule (from user): x``) because the label often carries the provenance.
    """
    if line[:2] in _BULLETS:
        # The common "- text": after a bullet and its blanks, a character that cannot open a checkbox, a bold
        # timestamp or a time ends the prefix there (what the full pattern below finds too).
        rest = line[2:].lstrip(" \t")
        if rest and rest[0] not in "[*_" and not rest[0].isdecimal():
            return line[:len(line) - len(rest)], rest
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
