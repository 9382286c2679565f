"""The cheap tests of whether a line can hold a typed value, shared by ``structure`` and the index's retrieval.

Two lines that hold a value of one slot (a cloud region, a designator such as "gate B", a time of day) may give it
different values however few words they share, so the constraint index keys them by those slots
(``index.typed_slots``). The typed values come from ``structure.shape``; a line with no digit and no
noun-and-capital pair can hold none, so retrieval imports ``structure`` and its patterns only for a line that can
hold one (the hook judges one new line in a fresh process: most lines never need them).
"""

from __future__ import annotations

import re

#: a digit: a line without one holds no region, number or masked designator
DIGIT = re.compile(r"\d")
#: a noun and a capital letter (and at most two digits) naming which one: "gate B", "Terminal C2", «выход Б»,
#: «подъезд В»; not the article "A" or the pronoun "I" after a capitalised word
LETTER_ID = re.compile(r"(?<![\w-])([^\W\d_]{3,})\s+([A-ZА-ЯЁ]\d{0,2})(?![\w'’-])")
#: Slots that place a thing on the clock: a part of the day and a clock time answer one question ("when in the
#: day"), so for retrieval they are one slot (the comparison reads the part of the day as its hours).
CLOCK_SLOTS = frozenset({"TIME", "DAYPART"})


__all__ = ["CLOCK_SLOTS", "DIGIT", "LETTER_ID"]
