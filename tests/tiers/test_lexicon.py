"""The marker lexicon: its data files, the pattern language and how a line's matches are found."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
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


# -- the required-word check that spares compiling phrases a line cannot match -----------------------------------
_PHRASES = [(ci, idx) for ci, category in enumerate(lx.CATEGORIES) for idx, e in enumerate(lx.entries(category))
            if not e.phrase.startswith("re:")]


@st.composite
def _phrase_and_matching_line(draw):
    """A phrase of the shipped lexicon and a line written from it (each token one of its forms, optional tokens
    in or out, punctuation with or without spaces, words around it), kept only if the phrase matches it."""
    ci, idx = draw(st.sampled_from(_PHRASES))
    phrase = lx.entries(lx.CATEGORIES[ci])[idx].phrase.removeprefix("^")
    parts = [draw(st.sampled_from(["", "so ", "x ", "(", '"', "- "]))]
    for tok in phrase.split(" "):
        if not tok:
            continue
        if tok.endswith("?") and len(tok) > 1:
            if not draw(st.booleans()):
                continue
            tok = tok[:-1]
        if tok == "_":
            form = draw(st.sampled_from(["word", "x2", "it's"]))
        elif tok == "#":
            form = draw(st.sampled_from(["3", "42", "3.0.1", "11:02"]))
        else:
            form = draw(st.sampled_from(tok.split("|")))
            if form.endswith("*") and len(form) > 1:
                form = form[:-1] + draw(st.sampled_from(["", "s", "ом", "-x"]))
        parts.append(form)
        parts.append(draw(st.sampled_from([" ", " ", "  ", ""])))
    parts.append(draw(st.sampled_from(["", ".", " now", "!"])))
    line = "".join(parts)
    assume(lx._pattern(ci, idx).search(line) is not None)
    return ci, idx, line


@settings(max_examples=1500, deadline=None)
@given(_phrase_and_matching_line())
def test_a_line_a_phrase_matches_always_passes_its_required_word_check(case) -> None:
    ci, idx, line = case
    assert lx._may_match(ci, idx, lx._heads(line)), (lx.entries(lx.CATEGORIES[ci])[idx].phrase, line,
                                                     lx._required(ci, idx))


def test_the_heads_of_a_line_are_the_prefixes_of_its_word_runs_and_nothing_else() -> None:
    assert lx._heads("ab, c-ab!") == {"a", "ab", "c"}
    assert lx._heads("") == frozenset() and lx._heads(" ,. ") == frozenset()


def test_a_long_word_gives_a_bounded_number_of_heads_and_a_long_required_word_is_compared_by_its_start() -> None:
    word = "x" * 5000
    assert lx._heads(word) == {word[:i] for i in range(1, lx._HEAD_CAP + 1)}  # linear in the line, not quadratic
    required = [p for ci, idx in _PHRASES for prefixes in lx._required(ci, idx) for p in prefixes]
    assert required and max(map(len, required)) <= lx._HEAD_CAP  # a longer one is cut: still a necessary condition
    assert "internationaliza" in lx._heads("internationalization")


def test_the_required_word_check_skips_a_phrase_whose_words_are_absent() -> None:
    (ci, idx), = [(ci, idx) for ci, idx in _PHRASES if lx.entries(lx.CATEGORIES[ci])[idx].phrase
                  == "the? user|human signed off"]
    assert lx._required(ci, idx) == (("user", "human"), ("signed",), ("off",))
    assert not lx._may_match(ci, idx, lx._heads("the user signed"))
    assert lx._may_match(ci, idx, lx._heads("users signed off"))  # a prefix: the pattern decides the rest
    assert lx._may_match(ci, idx, lx._heads("human, signed off"))


@pytest.mark.parametrize("phrase, required", [
    ('" ( user|human', (("user", "human"),)),            # after punctuation that ends in a non-word
    ("( from|by|per the? user|human", (("from", "by", "per"), ("user", "human"))),
    ("re:user said", ()),                                  # a raw pattern: nothing known
    (".net core", ()),                                     # punctuation ending in a word: not a run start
    ("_ said", (("said",),)),
    ("user? said", (("said",),)),
    ("пользовател* сказал*", (("пользовател",), ("сказал",))),
    ("error.log|ci/cd shows", (("error", "ci"), ("shows",))),
])
def test_required_words_of_the_pattern_language(phrase: str, required: tuple) -> None:
    assert lx._required_of(phrase) == required


def test_the_built_tables_hold_each_phrases_required_words_and_first_characters() -> None:
    for ci, category in enumerate(lx.CATEGORIES):
        for idx, e in enumerate(lx.entries(category)):
            assert lx._required(ci, idx) == lx._required_of(e.phrase), e
            assert lx._starts(ci, idx) == (lx.first_chars(e.phrase[3:]) if e.phrase.startswith("re:") else None), e


# -- the shipped build ---------------------------------------------------------------------------------------------
_CACHED = ("_sources", "_tables", "_index", "entries", "scope_words", "_candidates", "_pattern", "_required", "_starts")


@pytest.fixture()
def fresh_tables():
    """Forget the tables this process built or loaded, before and after the test."""
    def clear() -> None:
        for name in _CACHED:
            getattr(lx, name).cache_clear()

    clear()
    yield
    clear()


def _scanned(lines: list[str]) -> list:
    return [{c: [(h.start, h.end, h.phrase) for h in hits] for c, hits in lx.scan(fold(line)).items()}
            for line in lines]


_LINES = ["- User said: never deploy on Fridays.", "- Decided with the user: Postgres until the migration.",
          "- `pytest` reported 3 failures.", "- Maybe the cache is stale?", "- Пользователь сказал: без деплоя по пятницам.",
          "- Мы договорились: только SQLite до миграции."]


def test_the_shipped_marker_build_is_the_build_of_the_marker_files() -> None:
    import json

    with open(lx.BUILT, encoding="utf-8") as fh:
        shipped = json.load(fh)
    assert shipped == lx.build_tables(lx._sources()), "run `python -m tiers.lexicon --build` after editing markers"


@pytest.mark.parametrize("built", ["", "not json", "[]", '{"digest": "stale"}', None],
                         ids=["empty", "not-json", "not-a-table", "stale", "absent"])
def test_a_marker_build_that_is_not_of_these_files_is_ignored(tmp_path, monkeypatch: pytest.MonkeyPatch, fresh_tables,
                                                              built: str | None) -> None:
    expected = _scanned(_LINES)
    path = tmp_path / "markers.built.json"
    if built is not None:
        path.write_text(built, encoding="utf-8")
    monkeypatch.setattr(lx, "BUILT", str(path))
    assert lx._tables() == lx.build_tables(lx._sources())
    assert _scanned(_LINES) == expected


def test_a_build_of_other_marker_text_is_never_used(tmp_path, monkeypatch: pytest.MonkeyPatch, fresh_tables) -> None:
    import json

    other = {lang: text.replace("[user]", "[user]\nfrobnicated", 1) for lang, text in lx._sources().items()}
    path = tmp_path / "markers.built.json"
    path.write_text(json.dumps(lx.build_tables(other)), encoding="utf-8")
    monkeypatch.setattr(lx, "BUILT", str(path))
    assert not any(e.phrase == "frobnicated" for e in lx.entries("user"))
    assert lx.scan(fold("the agent frobnicated"))["user"] == []


def test_a_malformed_marker_file_fails_the_build_naming_the_file() -> None:
    with pytest.raises(lx.LexiconError, match=r"markers/en.txt:2: unknown section \[nope\]"):
        lx.build_tables({"en": "[user]\n[nope]\n", "ru": "[user]\n"})


def test_posting_lists_decode_to_category_and_entry_pairs() -> None:
    assert lx._postings("0.3 2.14") == ((0, 3), (2, 14))
    assert lx._postings("") == ()
    built = lx.build_tables({"en": "[user]\nuser said\nthe? user|human wrote\n[hedge]\nmaybe\n", "ru": ""})
    assert lx._postings(built["by_word"]["user"]) == ((0, 0), (0, 1))
    assert lx._postings(built["by_word"]["maybe"]) == ((2, 0),)
    assert built["sections"]["en"]["user"] == "1.0 user said\n1.0 the? user|human wrote"


# -- the first-character check that spares compiling raw patterns a line cannot match -----------------------------
@pytest.mark.parametrize(("pattern", "expected"), [
    (r"\?\s*+$", ({"?"}, False)),
    (r"(?:#|№)\s?\d{2,}", ({"#", "№"}, False)),
    (r"[$€]\s?\d|(?<!\d)\d+ ms", ({"$", "€"}, True)),
    (r"^(?:the )?(?:user|human)\b", ({"t", "u", "h"}, False)),
    (r"(?<=\S\s)`[^`]+`", ({"`"}, False)),
    (r"(?<!\w)[1-3]\d", ({"1", "2", "3"}, False)),
    (r"a*b", ({"a", "b"}, False)),
    (r"a{0,2}b|c{1,}", ({"a", "b", "c"}, False)),
    (r"(?P<x>ab)+", ({"a"}, False)),
    (r"[\]a-c-]x", ({"]", "a", "b", "c", "-"}, False)),
    (r"\.env\b", ({"."}, False)),
    (r"(?:)x", ({"x"}, False)),
    (r"\w+ing", None), (r".x", None), (r"(?i)x", None), (r"[^a]x", None), (r"a?", None), (r"x|", None),
    (r"(a)\1", ({"a"}, False)), (r"\1a", None), (r"\sx", None), (r"[\w.]x", None), (r"", None),
], ids=lambda v: v if isinstance(v, str) else None)
def test_first_characters_of_a_raw_pattern(pattern: str, expected) -> None:
    got = lx.first_chars(pattern)
    assert got == (None if expected is None else (frozenset(expected[0]), expected[1]))


_RAW = [(ci, idx) for ci, category in enumerate(lx.CATEGORIES) for idx, e in enumerate(lx.entries(category))
        if e.phrase.startswith("re:") and lx._starts(ci, idx) is not None]


def test_most_raw_phrases_have_their_first_characters_bounded() -> None:
    raw = [e for c in lx.CATEGORIES for e in lx.entries(c) if e.phrase.startswith("re:")]
    assert len(_RAW) >= len(raw) * 2 // 3


@st.composite
def _raw_phrase_and_text(draw):
    """A raw phrase of the shipped lexicon and a text made of pieces of its own source, words, digits, signs."""
    ci, idx = draw(st.sampled_from(_RAW))
    source = lx.entries(lx.CATEGORIES[ci])[idx].phrase[3:]
    pieces = [w for w in re.split(r"[\\()\[\]?*+|{}^$]+", source) if w] + [
        " ", "  ", "3", "404", "12,5", "?", "`x`", "#42", "$5", "€", "user", "the ", "/", ":", "ok", "мс", "x"]
    return ci, idx, "".join(draw(st.lists(st.sampled_from(pieces), max_size=12)))


@settings(max_examples=1500, deadline=None)
@given(_raw_phrase_and_text())
def test_every_match_of_a_raw_phrase_starts_with_one_of_its_first_characters(case) -> None:
    ci, idx, text = case
    chars, digit = lx._starts(ci, idx)
    for m in lx._pattern(ci, idx).finditer(text):
        first = m.group()[:1]
        assert first in chars or (digit and lx._DIGIT.fullmatch(first)), (lx.entries(lx.CATEGORIES[ci])[idx], text)
        assert lx._may_start(ci, idx, frozenset(text), lx._DIGIT.search(text) is not None)


def test_a_raw_phrase_is_not_compiled_for_a_line_without_its_first_characters(monkeypatch) -> None:
    asked: list[str] = []
    compile_ = lx._pattern

    def recording(ci: int, idx: int):
        asked.append(lx.entries(lx.CATEGORIES[ci])[idx].phrase)
        return compile_(ci, idx)

    monkeypatch.setattr(lx, "_pattern", recording)
    lx.scan(fold("- The flaky test is probably a race."))
    assert not any(p.startswith(("re:(?:#|№)", "re:\\?", "re:^`", "re:[$€")) for p in asked), asked
    asked.clear()
    assert lx.scan(fold("Is the cache stale?"))["hedge"]  # with its character the phrase is tried, and matches
    assert any(p.startswith("re:\\?") for p in asked)
