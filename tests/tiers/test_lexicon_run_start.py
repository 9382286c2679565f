"""A raw pattern compiled as its run-start twin finds what the pattern itself finds, searched the way scan searches.

``run_start_source`` rewrites ``\\d+…`` as ``\\d(?<!\\d\\d)\\d*…`` (and ``(?<!\\w)\\d+…`` as ``\\d(?<!\\w\\d)\\d*…``) so that
the ``re`` engine skips to digits in C. These tests compare every twin with the pattern as written: all matches from
the line's start, from its first digit, and from a first search's match on.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import lexicon as lx

_ALPHABET = "12 .,:%s-msecв°сkb\u00a0٣²_a\n"


def _pairs():
    tables = lx._tables()
    for _ci, _idx, pat in tables.loose + tables.anchored_loose:
        if pat.phrase.startswith("re:"):
            twin = lx.run_start_source(pat.phrase[3:])
            if twin is not None:
                yield re.compile(pat.phrase[3:]), re.compile(twin)


def _assert_same(line: str) -> None:
    digit = lx._DIGIT.search(line)
    starts = {0, digit.start() if digit else 0}
    for plain, twin in _pairs():
        for start in starts:
            want = [m.span() for m in plain.finditer(line, start)]
            assert [m.span() for m in twin.finditer(line, start)] == want, (plain.pattern, line, start)
            first = twin.search(line, start)
            assert (first.span() if first else None) == (want[0] if want else None)
            if first:
                assert [m.span() for m in twin.finditer(line, first.start())] == want


def test_the_lexicon_has_twins() -> None:
    assert len(list(_pairs())) >= 3


@pytest.mark.parametrize("line", [
    "", "5", "55 ms", "rebuilt in 3.2s", "1.5.3%", "5%5%", "12345 s", "2026-11-20 10:30 5 ms", "svc8 reported 468",
    "1,5 с", "99,5 %", "x1 ms", "a12 tests failed", "12 tests failed", "٣ ms", "²5 ms", "20°c", "4 req/min",
    "3 тестов упали", "1 2 3 4 5 ms", "12ms13ms", "12 ms13 ms", "_1 ms", "1_ ms",
], ids=repr)
def test_twins_find_the_same_matches_on_edge_lines(line: str) -> None:
    _assert_same(line)


def test_twins_find_the_same_matches_on_random_lines() -> None:
    rng = random.Random(9)
    for _ in range(20000):
        _assert_same("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40))))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_twins_find_the_same_matches_on_any_line(line: str) -> None:
    _assert_same(line)


@pytest.mark.parametrize(("source", "twin"), [
    (r"\d+\s?%", r"\d(?<!\d\d)\d*\s?%"),
    (r"\d+(?:ms|s)(?!\w)", r"\d(?<!\d\d)\d*(?:ms|s)(?!\w)"),
    (r"(?<!\w)\d+\s+x", r"\d(?<!\w\d)\d*\s+x"),
    (r"\d+\s?x", r"\d(?<!\d\d)\d*\s?x"),  # a match ends after "x": never between two digits
    (r"\d+?%", None),
    (r"\d++%", None),
    (r"\d+%|x", None),
    (r"\d+\d", None),
    (r"\d+[%]", None),
    (r"\d+\%", None),
    (r"x\d+%", None),
], ids=repr)
def test_run_start_source_rewrites_only_what_it_can_prove(source: str, twin: str | None) -> None:
    assert lx.run_start_source(source) == twin
