"""The structural values of a line (``tiers.arbitration.structure.shape``) are found in time linear in the line:
no pattern restarts inside a long word (an address, a word pair, a designator, a region, a delimiter)."""

from __future__ import annotations

import time

import pytest

from tiers.arbitration.structure import shape

WORD = 64 * 1024


@pytest.mark.parametrize("text", [
    "- " + "a" * WORD + " 1",
    "- region " + "a" * WORD + " 1",
    "- ...." + "1" * WORD,
    "- gate " + "A" * WORD,
    "- " + "x" * WORD + " semicolon-separated",
], ids=["word and a digit", "region word", "masked digits", "designator letters", "delimiter"])
def test_the_shape_of_a_line_with_a_long_word_takes_well_under_a_second(text):
    shape.cache_clear()
    t0 = time.process_time()
    shape(text)
    assert time.process_time() - t0 < 1.0  # a restart at every letter took minutes at this length
