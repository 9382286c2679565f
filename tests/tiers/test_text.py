"""Text helpers: normalization for matching, markup stripping, word tokens."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tiers.text import fold, normalize, split_markup, strip_markup, words


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ёлка", "елка"),
        ("«Ёлочки» и „лапки“", '"елочки" и "лапки"'),
        ("“curly” ‘single’", "\"curly\" 'single'"),
        ("don’t", "don't"),
        ("  many \t  spaces\u00a0here ", "many spaces here"),
        (unicodedata.normalize("NFD", "мой ёж"), "мой еж"),
        ("STRASSE Straße", "strasse strasse"),
    ],
    ids=["yo", "ru-quotes", "en-quotes", "apostrophe", "whitespace", "nfd", "casefold"],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- plain", "plain"),
        ("* star", "star"),
        ("+ plus", "plus"),
        ("12. numbered", "numbered"),
        ("3) paren", "paren"),
        ("> quoted", "quoted"),
        ("> > - nested quote item", "nested quote item"),
        ("- [ ] open", "open"),
        ("- [x] done", "done"),
        ("- [X] Done", "Done"),
        ("- 16:20 timestamped", "timestamped"),
        ("- [09:05] bracketed", "bracketed"),
        ("- **10:15** bold time", "bold time"),
        ("**Rule (from user):** never", "Rule (from user): never"),
        ("- **Timezone**: UTC", "Timezone: UTC"),
        ("   - indented", "indented"),
        ("- `code` stays", "`code` stays"),
        ("- 3.5 hours is not a time", "3.5 hours is not a time"),
        ("- 2026 plans", "2026 plans"),
    ],
    ids=["dash", "star", "plus", "numbered", "paren", "quote", "nested", "open-box", "done-box", "upper-box",
         "timestamp", "bracket-time", "bold-time", "bold-label", "bold-then-colon", "indent", "code", "decimal",
         "year"],
)
def test_strip_markup(line: str, expected: str) -> None:
    assert strip_markup(line) == expected


def test_split_markup_keeps_the_prefix() -> None:
    assert split_markup("- [ ] task") == ("- [ ] ", "task")


def test_words_are_normalized_unicode_tokens() -> None:
    assert words("Пользователь СКАЗАЛ: don’t «ЁЖ»!") == ["пользователь", "сказал", "don't", "еж"]
    assert words(unicodedata.normalize("NFD", "мой")) == ["мой"]


@given(st.text(max_size=200))
def test_fold_preserves_length(text: str) -> None:
    nfc = unicodedata.normalize("NFC", text)
    assert len(fold(nfc)) == len(nfc)


@given(st.text(max_size=200))
def test_strip_markup_and_normalize_never_raise(text: str) -> None:
    assert isinstance(strip_markup(text), str)
    assert normalize(normalize(text)) == normalize(text)


def test_fold_table_is_every_character_the_fold_changes():
    """The table is built from the characters casefold changes plus the specials; it must equal the plain
    definition (``_fold_char`` over every code point of the folded blocks)."""
    from tiers import text

    ranges = [(0, 0x250), (0x370, 0x400), (0x400, 0x530), (0x1E00, 0x1F00), (0x2000, 0x2070), (0x3000, 0x3020),
              (0xFF00, 0xFF10)]
    plain = {cp: text._fold_char(chr(cp)) for lo, hi in ranges for cp in range(lo, hi)
             if text._fold_char(chr(cp)) != chr(cp)}
    assert text._fold_table() == plain


def test_ascii_fold_is_the_tables_ascii_part():
    from tiers import text

    everything = "".join(map(chr, range(128)))
    assert text.fold(everything) == everything.translate(text._fold_table())


@given(st.sampled_from(["- ", "* ", "+ ", "-  ", "- \t", "1. ", "> - ", "  - "]),
       st.text(alphabet=st.sampled_from(list("ab [x]*_1234:-.UTCam \tП")), max_size=30))
def test_bullet_fast_path_splits_like_the_full_pattern(bullet, rest):
    from tiers import text

    line = bullet + rest
    m = text._prefix().match(line)
    prefix = m.group("prefix") if m else ""
    assert text.split_markup(line) == (prefix, line[len(prefix):])


def test_fold_of_ascii_is_lower_case_with_tabs_as_spaces() -> None:
    """fold() reads ASCII without its table: the table's ASCII part must say the same."""
    from tiers.text import _fold_table

    ascii_part = {cp: ch for cp, ch in _fold_table().items() if cp < 128}
    assert ascii_part == {**{ord(c): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, ord("\t"): " "}


@pytest.mark.parametrize(
    ("line", "body", "normalized", "line_words"),
    [
        ("- User said: never deploy on Fridays <!-- cu:D:1 -->", "User said: never deploy on Fridays",
         "user said: never deploy on fridays", ["user", "said", "never", "deploy", "on", "fridays"]),
        ("* [x] **Правило:** Ёлка «всегда» зелёная", "Правило: Ёлка «всегда» зелёная",
         'правило: елка "всегда" зеленая', ["правило", "елка", "всегда", "зеленая"]),
        ("   ", "", "", []),
    ],
    ids=["stamped-en", "ru-markup-quotes", "blank"],
)
def test_a_prepared_line_holds_every_form_readers_take(line: str, body: str, normalized: str,
                                                       line_words: list[str]) -> None:
    from tiers.line import prepare

    got = prepare(line)
    assert (got.body, got.normalized, got.words()) == (body, normalized, line_words)
    assert got.words() == words(strip_markup(got.content))


@pytest.mark.parametrize(
    "line",
    ["- User said: never deploy on Fridays <!-- cu:D:1 -->", "- Decided with the user: Postgres for staging only",
     "- maybe we could skip the review"],
    ids=["stamped-directive", "scoped-decision", "hedge"],
)
def test_analyze_reads_a_prepared_line_like_its_text(line: str) -> None:
    from tiers.concepts import analyze
    from tiers.line import prepare

    assert analyze(prepare(line)) is analyze(line)
