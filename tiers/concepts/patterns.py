"""Patterns of the concept analysis, compiled by the stdlib `re` on first use."""

from __future__ import annotations

import functools
import re
import unicodedata



# Patterns are compiled by the stdlib `re` on first use (a line compiles only the patterns it needs); `\p{Lu}` and
# `\p{Ll}`, which `re` lacks, are spelt out as classes of the letters below U+2040 (Latin, Greek, Cyrillic).
_NOT_PLAIN = re.compile(
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


class _LazyRe:
    """A pattern compiled by `re` on first use."""

    __slots__ = ("_source", "_flags", "_re")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._re = None

    def on(self, plain: bool = True):
        """The compiled pattern."""
        rx = self._re
        if rx is None:
            rx = self._re = re.compile(_re_source(self._source), self._flags)
        return rx

    def match(self, text: str, *args):
        return self.on().match(text, *args)

    def fullmatch(self, text: str, *args):
        return self.on().fullmatch(text, *args)

    def search(self, text: str, *args):
        return self.on().search(text, *args)

    def finditer(self, text: str, *args):
        return self.on().finditer(text, *args)

    def findall(self, text: str, *args):
        return self.on().findall(text, *args)

    def split(self, text: str, maxsplit: int = 0):
        return self.on().split(text, maxsplit=maxsplit)

    def sub(self, repl, text: str, count: int = 0):
        return self.on().sub(repl, text, count=count)


def _lazy(source: str, flags: int = 0) -> _LazyRe:
    return _LazyRe(source, flags)


class _LazyStd:
    """A stdlib `re` pattern compiled on first use, for the literal tests below (same on every text)."""

    __slots__ = ("_source", "_rx")

    def __init__(self, source: str) -> None:
        self._source = source
        self._rx = None

    def search(self, text: str):
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self._source)
        return rx.search(text)
