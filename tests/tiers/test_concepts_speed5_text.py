"""normalize() collapses whitespace with ``str.split`` (speed, session 5): the same result as the regex
substitution it replaced, for every code point as a separator, inside a word and at either edge."""

from __future__ import annotations

import re
import sys
import unicodedata

from tiers.text import normalize, normalize_nfc

_WS = re.compile(r"\s+")


def _collapse_regex(text: str) -> str:
    return _WS.sub(" ", text).strip()


def test_split_collapses_what_the_regex_collapsed() -> None:
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        for text in (f"a{ch}b", f"{ch}a{ch}{ch}b{ch}", f"{ch}", f"a {ch} b"):
            assert " ".join(text.split()) == _collapse_regex(text), hex(cp)


def test_normalize_nfc_is_normalize_of_nfc_text() -> None:
    samples = ["Never  deploy\ton Friday", "«Кэш» — Redis,\u00a0ёлка", "Straße İstanbul ﬁ", "e\u0301 x", "",
               "  \x1c lead and trail \u2003 ", "“quoted” – dash", "ǅ Ⅻ 日本"]
    for s in samples:
        nfc = unicodedata.normalize("NFC", s)
        assert normalize_nfc(nfc) == normalize(s)
