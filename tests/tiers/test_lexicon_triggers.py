"""The trigger ids ``scan`` collects per line say exactly what ``_may_match`` says of every unindexed pattern.

``scan`` no longer tests each trigger literal against the line: one-character literals come from the line's
character set, word literals from its words (memoised per word), the rest from a substring test gated by their
longest word run. These tests hold that bookkeeping to the straightforward test of the trigger itself.
"""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import lexicon as lx
from tiers.text import fold

_ODD = [
    "", " ", "5", "500 internal server error", "404 not found", "http 502 bad gateway", "get /health", "post /x",
    "getaway /", "1.5s", "12 ms", "3 sec", "2 min", "10 kb", "5%", "99,5 %", "20°c", "4 req/min", "12 rps",
    "3 тест", "5 ошибок", "12 мс", "3 сек", "10 мб", "№12", "#1234", "# 12", "error[e0425]", "oomkilled",
    "stack trace", "stacktrace", "traceback:", "`make`", "a `b` c", "user (note): x", "human (x):",
    "пользователь (чат): нет", "запустить", "надо прочти", "\"x\" (user)", "\"x\" - human", "\"x\", user said",
    "\"x\" ( пользователь", "\"x\" - юзер", "( from the user", "(by human", "is it?", "done ?\")",
    "not modifiednot found", "too many requestss", "servicE unavailable", "gateway  timeout", "no\u00a0content",
    "e\u0301rror", "\u00b25 ms", "٣ ms", "𝟘%", "ﬁle 3 tests", "user\u200bsaid", "\x1c5 s", "оk", "ok",
]


def _members():
    tables = lx._tables()
    for rid, members in tables.triggers.groups:
        for ci, idx, pat, rest, at_start in members:
            yield rid, rest, pat


def _line_ids(line: str) -> set[int]:
    """The ids ``scan`` collects for ``line``, computed without the per-word memo."""
    tables = lx._tables()
    have: set[int] = set()
    for word in set(lx._WORD_RUN.findall(line)):
        rec = lx._word_record(tables, word)
        if rec is not None:
            have |= rec[1]
    raw = line.encode("ascii") if line.isascii() else None
    tables.triggers.add_line_ids(line, raw, lx._DIGIT.search(line) is not None, have)
    if raw is not None:  # the bytes path and the character path collect the same ids
        other: set[int] = set()
        for word in set(lx._WORD_RUN.findall(line)):
            rec = lx._word_record(tables, word)
            if rec is not None:
                other |= rec[1]
        tables.triggers.add_line_ids(line, None, lx._DIGIT.search(line) is not None, other)
        assert other == have, line
    return have


def _assert_ids_agree(line: str) -> None:
    have = _line_ids(line)
    has_digit = lx._DIGIT.search(line) is not None
    for rid, rest, pat in _members():
        tried = (rid is None or rid in have) and rest <= have
        assert tried == lx._may_match(pat.trigger, line, has_digit), (pat.phrase, line)


@pytest.mark.parametrize("line", _ODD, ids=range(len(_ODD)))
def test_trigger_ids_agree_with_the_trigger_on_odd_lines(line: str) -> None:
    _assert_ids_agree(line)
    _assert_ids_agree(fold(unicodedata.normalize("NFC", line)))


def test_trigger_ids_agree_with_the_trigger_on_recombined_lines() -> None:
    rng = random.Random(17)
    pieces = [w for line in _ODD for w in line.split()] + [" ", "", "-", ",", "(", ")", ":", "'s", "%"]
    for _ in range(3000):
        line = "".join(rng.choice(pieces) + rng.choice(["", " ", "  "]) for _ in range(rng.randint(1, 8)))
        _assert_ids_agree(line)


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_trigger_ids_agree_with_the_trigger_on_any_text(text: str) -> None:
    _assert_ids_agree(text)


def test_every_trigger_literal_has_a_way_to_be_found() -> None:
    triggers = lx._tables().triggers
    for _rid, rest, pat in _members():
        for need in pat.trigger or ():
            if need == "digit":
                continue
            for lit in need:
                assert (len(lit) == 1 and lit in triggers.char_ids) or any(
                    lit == w for ws in triggers.word_literals.values() for w, _ in ws) or any(
                    lit == s for s, _run, _rid in triggers.split) or any(lit == b for b, _ in triggers.bare), lit


def test_built_and_loaded_tables_hand_out_the_same_ids() -> None:
    def shape(t):
        tr = t.triggers
        return (tr.char_ids, tr.digit_ids, tr.word_literals, tr.split, tr.bare,
                [(rid, [(ci, idx, pat.phrase, rest, at) for ci, idx, pat, rest, at in members])
                 for rid, members in tr.groups])

    loaded = lx._load_built()
    assert loaded is not None
    assert shape(loaded) == shape(lx._Tables())


def test_trigger_ids_do_not_collide_with_gate_tokens() -> None:
    tables = lx._tables()
    gate = set(tables.token_ids.values())
    triggers = tables.triggers
    ids = {rid for rid, _members in triggers.groups if rid is not None}
    ids |= {i for _rid, members in triggers.groups for *_x, rest, _at in members for i in rest}
    ids |= {rid for _lit, _run, rid in triggers.split} | {run for _lit, run, _rid in triggers.split}
    assert not ids & gate


def test_groups_by_id_hold_every_member_once() -> None:
    triggers = lx._tables().triggers
    listed = sorted((ci, idx) for _rid, members in triggers.groups for ci, idx, *_ in members)
    indexed = sorted((ci, idx) for members in (triggers.always, *triggers.by_id.values()) for ci, idx, *_ in members)
    assert listed == indexed
    assert triggers.group_ids == frozenset(triggers.by_id)
    for rid, members in triggers.groups:
        if rid is not None:
            assert all(m in triggers.by_id[rid] for m in members)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x600), min_size=0, max_size=30))
def test_needs_regex_agrees_with_the_character_loop_below_arabic(text: str) -> None:
    assert lx.needs_regex(text) == lx._needs_regex_by_char(text)


@pytest.mark.parametrize("cp", range(128), ids=lambda cp: f"U+{cp:04X}")
def test_line_words_of_ascii_text_are_the_word_runs(cp: int) -> None:
    ch = chr(cp)
    for text in (ch, f"a{ch}b", f"{ch}{ch}x y", f" {ch}", f"12{ch}_x{ch}"):
        assert lx.line_words(text) == lx._WORD_RUN.findall(text)


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_line_words_are_the_word_runs_of_any_text(text: str) -> None:
    assert lx.line_words(text) == lx._WORD_RUN.findall(text)


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_first_digit_is_where_the_digit_pattern_matches(text: str) -> None:
    m = lx._DIGIT.search(text)
    want = m.start() if m else -1
    assert lx._first_digit(text, None) == want
    if text.isascii():
        assert lx._first_digit(text, text.encode("ascii")) == want


@pytest.mark.parametrize("cp", range(128), ids=lambda cp: f"U+{cp:04X}")
def test_first_digit_of_ascii_text(cp: int) -> None:
    for text in (chr(cp), f"ab{chr(cp)}7", f"{chr(cp)}x"):
        m = lx._DIGIT.search(text)
        assert lx._first_digit(text, text.encode("ascii")) == (m.start() if m else -1)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from([chr(c) for c in range(0x80)] + [chr(c) for c in range(0x3F0, 0x540)]
                                        + ["«", "»", "№", "\u00a0", "\u2014", "\U0001F600"]), max_size=40))
def test_line_words_of_russian_text_are_the_word_runs(text: str) -> None:
    assert lx.line_words(text) == lx._WORD_RUN.findall(text)


def test_byte_tables_are_the_word_and_digit_classes() -> None:
    assert lx._WORD_BYTES == bytes(i if chr(i).isalnum() or chr(i) == "_" else 0x20 for i in range(128)) + bytes(
        range(128, 256))
    assert lx._DIGIT_BYTES == bytes(0x30 if chr(i).isdecimal() else 0x20 for i in range(128)) + b" " * 128
    triggers = lx._tables().triggers
    assert triggers.other_bytes == bytes(i for i in range(256) if i not in triggers.byte_ids)
