"""A memory line prepared once: the one value classify, analyze, arbitrate and the stamp code read.

It sits above :mod:`tiers.text` (markup and normalization) and :mod:`tiers.stamps` (the stamp syntax): a prepared
line is both applied once, so no reader re-strips a stamp or re-normalizes a body.
"""

from __future__ import annotations

import functools
import unicodedata
from .record import dataclass

from .stamps import strip_stamp
from .text import WORD, fold, normalize_nfc, strip_markup

__all__ = ["Line", "prepare"]


@dataclass(frozen=True, slots=True)
class Line:
    """One memory line prepared once for every reader (classify, analyze, arbitrate, stamp): each form is made
    here and only here.

    ``text`` is the line as written; ``content`` the line without its trailing ``<!-- cu:… -->`` stamp and
    ``stamp`` that stamp comment as written ("" when there is none: ``content + stamp`` plus the blanks between them
    is ``text``); ``body`` the content without its Markdown markup (``strip_markup``); ``nfc`` the body in NFC;
    ``folded`` its length-preserving fold (offsets into it are offsets into ``nfc``); ``normalized`` the matching
    form (``normalize``: casefold, ё -> е, straight quotes, whitespace collapsed)."""

    text: str
    content: str
    stamp: str
    body: str
    nfc: str
    folded: str
    normalized: str

    def words(self) -> list[str]:
        """The line's normalized word tokens (``words`` of its body)."""
        return WORD.findall(self.normalized)


@functools.lru_cache(maxsize=32768)
def prepare(text: str) -> Line:
    """The prepared form of one memory line (cached: lint, arbitration and the gate see the same lines again)."""
    content = strip_stamp(text)
    body = strip_markup(content)
    nfc = unicodedata.normalize("NFC", body)
    return Line(text, content, text[len(content):].strip(), body, nfc, fold(nfc), normalize_nfc(nfc))
