"""The two shortcuts scan() takes with the unindexed raw patterns give the matches the plain search gives.

1. The rest of a pattern's trigger is tested before its compiled search too (it used to be skipped once the
   pattern was compiled): a trigger only reads what every match must contain, so a line failing it has no match.
2. A pattern whose every match starts with a digit (``Pattern.digit_first``) is searched from the line's first
   digit, not from its start (lookbehinds still read the characters before that position).
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import tiers.lexicon as lx
from tiers.text import fold

_PIECES = [
    "1", "42", "007", "3.5", "2,5", "12:30", "200", "404", "503", " ", "  ", "\t", "%", " %", "ms", " ms", " s", "sec",
    " min", "kb", "°c", "мс", " с", "сек", " мин", "гб", "ok", " not found", " failed", " passed", " errors",
    " warning", " tests", " files", " commit", " тестов", " ошибки", " файлов", "svc", "run", "#", "№", "?", "`",
    "error[e0382]", "oomkilled", "traceback", "user", "пользователь", "(", ")", ":", "-", ",", '"', "'", "a", "я",
    "x1", "_", ".", "²",
]
_LINES = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14).map("".join).map(fold)


def _loose_patterns():
    tables = lx._tables()
    return [pat for _ci, _idx, pat in (*tables.loose, *tables.anchored_loose)]


def _raw_patterns():
    return [pat for pat in _loose_patterns() if pat.phrase.startswith("re:")]


def test_digit_first_marks_the_digit_group_and_nothing_that_can_start_otherwise() -> None:
    marked = {pat.phrase for pat in _raw_patterns() if pat.digit_first}
    assert r"re:\d+(?:[.,]\d+)?\s?%" in marked
    assert any(p.startswith(r"re:(?<!\w)[1-5]\d\d") for p in marked)
    assert not lx._digit_first(r"\d?%") and not lx._digit_first(r"\d+|x") and not lx._digit_first(r"[1-5a]\d")
    assert not lx._digit_first(r"(?:#|№)\s?\d{2,}") and not lx._digit_first(r"^\w+")
    assert lx._digit_first(r"(?<!\w)\d+\s") and lx._digit_first(r"[0-9]+")


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_search_from_the_first_digit_finds_what_a_search_from_the_start_finds(line: str) -> None:
    digit = lx._DIGIT.search(line)
    for pat in _raw_patterns():
        if not pat.digit_first:
            continue
        rx = pat.compiled(False)
        whole = [m.span() for m in rx.finditer(line)]
        assert [m.span() for m in rx.finditer(line, digit.start() if digit else 0)] == whole
        if whole:
            assert digit is not None


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_a_line_failing_a_trigger_has_no_match_of_its_pattern(line: str) -> None:
    has_digit = lx._DIGIT.search(line) is not None
    for pat in _loose_patterns():
        if pat.trigger is None:
            continue
        if any(True for _ in pat.compiled(False).finditer(line)):
            assert lx._may_match(pat.trigger, line, has_digit), (pat.phrase, line)


@settings(max_examples=300, deadline=None)
@given(_LINES)
def test_scan_equals_every_pattern_searched_from_the_start(line: str) -> None:
    # the reference: the same scan with no pattern marked digit-first (every search from the line's start)
    fast = lx.scan(line)
    patterns = _raw_patterns()
    saved = [(pat, pat.digit_first) for pat in patterns]
    try:
        for pat in patterns:
            pat.digit_first = False
        assert lx.scan(line) == fast
    finally:
        for pat, flag in saved:
            pat.digit_first = flag
