"""normalize() and normalize_nfc(): whitespace collapsed as ``\\s+`` would, the NFC shortcut equal to the full form."""

from __future__ import annotations

import sys
import unicodedata

from tiers.text import normalize, normalize_nfc


def test_whitespace_collapses_at_every_separator_code_point_as_a_regex_would() -> None:
    import re

    ws = re.compile(r"\s+")
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        for text in (f"a{ch}b", f"{ch}a{ch}{ch}b{ch}"):
            assert " ".join(text.split()) == ws.sub(" ", text).strip(), hex(cp)


def test_normalize_nfc_of_nfc_text_is_normalize_of_the_text() -> None:
    samples = ["Never  deploy\ton Friday", "«Кэш» — Redis,\u00a0ёлка", "Straße İstanbul ﬁ", "e\u0301 x", "",
               "  \x1c lead and trail \u2003 ", "“quoted” – dash", "ǅ Ⅻ 日本"]
    for s in samples:
        assert normalize_nfc(unicodedata.normalize("NFC", s)) == normalize(s)
