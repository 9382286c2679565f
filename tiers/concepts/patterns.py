"""Patterns of the concept analysis, compiled by the stdlib `re` on first use."""

from __future__ import annotations

import functools
import re
import unicodedata

from tiers.lazy import LazyRe

# Patterns are compiled by the stdlib `re` on first use (a line compiles only the patterns it needs); `\p{Lu}` and
# `\p{Ll}`, which `re` lacks, are spelt out as classes of the letters below U+2040 (Latin, Greek, Cyrillic).
_NOT_PLAIN = LazyRe(
    "[^\x00-\x1b\x20-\xb1\xb4-\xb8\xba\xbb\xbf-\u012f\u0132-\u017e\u0180-\u024f\u0400-\u0482"
    "\u048a-\u04ff\u2010-\u2027\u2030-\u203e\u20a0-\u20bf]")


def _plain(text: str) -> bool:
    """No character of ``text`` is outside the plain set (Latin, basic Cyrillic, common punctuation): the tokenizer
    then splits the line into chunks it prepares once per distinct chunk."""
    return text.isascii() and text.isprintable() or _NOT_PLAIN.search(text) is None


_VERBOSE = re.VERBOSE


def _re_source(pattern: str) -> str:
    """The pattern for `re`: Unicode property classes spelt out."""
    if "\\p{" not in pattern:
        return pattern
    return pattern.replace("\\p{Lu}", _category_class("Lu")).replace("\\p{Ll}", _category_class("Ll"))


@functools.lru_cache(maxsize=None)
def _category_class(cat: str) -> str:
    chars = [chr(c) for c in range(0x2040) if unicodedata.category(chr(c)) == cat]
    return "[" + "".join(re.escape(c) for c in chars) + "]"


def _lazy(source: str, flags: int = 0) -> LazyRe:
    """A pattern of the concept analysis, compiled on first use with its Unicode property classes spelt out."""
    return LazyRe(source, flags, expand=_re_source)
