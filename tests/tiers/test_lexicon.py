"""The marker lexicon: its data files, the pattern language and how a line's matches are found."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import lexicon as lx
from tiers.text import fold


@pytest.mark.parametrize(("phrase", "text", "matched"), [
    ("user said", "the user said: x", "user said"),
    ("user said", "superuser said x", None),                       # a word boundary before the first word
    ("user said", "user saidx", None),                             # and after the last
    ("пользовател* сказал*", "пользователю сказала", "пользователю сказала"),
    ("the? user said", "user said", "user said"),
    ("the? user said", "the user said", "the user said"),
    ("user _? said", "user himself said", "user himself said"),
    ("user|human said", "human said", "human said"),
    ("code #", "code 404", "code 404"),
    ("code #", "code 3.0.1", "code 3.0.1"),
    ("user :", "user: x", "user:"),
    ("user :", "user : x", "user :"),
    ("^always", "always lint", "always"),
    ("^always", "we always lint", None),
    ("re:\\d+ ms", "took 30 ms", "30 ms"),
], ids=lambda v: v if isinstance(v, str) else "none")
def test_the_pattern_language_matches_what_its_table_says(phrase: str, text: str, matched: str | None) -> None:
    m = re.search(lx.compile_phrase(phrase), text)
    assert (m.group() if m else None) == matched


@pytest.mark.parametrize("category", lx.CATEGORIES)
def test_every_phrase_of_the_shipped_files_compiles(category: str) -> None:
    for ci, c in enumerate(lx.CATEGORIES):
        if c == category:
            for idx in range(len(lx.entries(category))):
                assert lx._pattern(ci, idx) is not None


def test_both_languages_have_phrases_in_every_category() -> None:
    for category in lx.CATEGORIES:
        assert {e.lang for e in lx.entries(category)} == set(lx.LANGS), category


def test_shipped_phrases_are_written_folded() -> None:
    """Lines are folded before matching: a phrase with a capital, a ё or a curly quote would never match."""
    for category in lx.CATEGORIES:
        for e in lx.entries(category):
            if not e.phrase.startswith("re:"):  # raw patterns hold classes like \\S
                assert fold(e.phrase) == e.phrase, (category, e.phrase)
            assert "ё" not in e.phrase, (category, e.phrase)


def test_scope_vocabulary_merges_both_languages() -> None:
    sw = lx.scope_words()
    assert ("until",) in sw.temporal and ("до", "тех", "пор", "пока") in sw.temporal
    assert {"only", "только"} <= sw.only
    assert lx.is_schedule_head("tuesdays") and lx.is_schedule_head("понедельникам")
    assert lx.is_time_head("декабре") and not lx.is_time_head("deploy")


def test_the_earliest_entry_wins_at_one_position_and_matches_never_overlap() -> None:
    hits = lx.scan(fold("the user said: the user asked"))["user"]
    assert [(h.start, h.end) for h in hits] == [(0, 13), (15, 29)]
    assert all(a.end <= b.start for a, b in zip(hits, hits[1:]))


def test_scan_returns_only_the_categories_asked_for() -> None:
    assert set(lx.scan("user said", ("user", "hedge"))) == {"user", "hedge"}


def test_env_cues_carry_their_weights() -> None:
    hits = lx.scan(fold("pytest reported 3 failed"))["env"]
    assert hits and all(0 < h.weight <= 1 for h in hits)


@pytest.mark.parametrize(("text", "message"), [
    ("phrase before a header\n", "entry before any [section]"),
    ("[users]\nx\n", "unknown section [users]"),
    ("[env]\nshows|showed\n", "starts with its weight"),
    ("[env]\n1.5 shows\n", "0 < WEIGHT <= 1"),
    ("[env]\n0.5\n", "expected 'WEIGHT PHRASE'"),
], ids=["no-header", "unknown-section", "env-without-weight", "env-weight-too-big", "env-weight-only"])
def test_a_malformed_marker_file_is_refused_with_file_and_line(text: str, message: str) -> None:
    with pytest.raises(lx.LexiconError, match=re.escape(message)) as err:
        lx.parse_markers(text, "markers/en.txt")
    assert str(err.value).startswith("markers/en.txt:")


def test_a_marker_file_reads_comments_blank_lines_weights_and_scope_words() -> None:
    parsed = lx.parse_markers("# c\n\n[user]\nuser said\n[env]\n0.4 came back\n[scope.only]\nsolely\n", "x/ru.txt")
    assert parsed["user"] == [lx.Entry("ru", "user said")]
    assert parsed["env"] == [lx.Entry("ru", "came back", 0.4)]
    assert parsed["scope.only"] == [lx.Entry("ru", "solely")]


def test_a_phrase_with_a_broken_raw_pattern_names_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = (lx.Entry("en", "re:(unclosed"),)
    lx._pattern.cache_clear()
    monkeypatch.setattr(lx, "entries", lambda category: broken)
    try:
        with pytest.raises(lx.LexiconError, match=r"markers/en.txt: \[user\] 're:\(unclosed'"):
            lx._pattern(0, 0)
    finally:
        lx._pattern.cache_clear()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_scan_never_raises_and_hits_lie_inside_the_line(text: str) -> None:
    f = fold(text)
    for category, hits in lx.scan(f).items():
        for h in hits:
            assert 0 <= h.start <= h.end <= len(f), category
