"""The cheap tests that guard concept patterns never skip a line the pattern would match."""

from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import concepts as c

# Letters the patterns care about, the characters where `str` and `regex` Unicode tables differ, marks and digits.
ALPHABET = st.sampled_from(list("abcdeilmnorstyhзовиеляьаыупкнмтдгю ёЁAZМ:=-—–\"«»()'.,;/0123456789²٣\u0301")
                           + ["\u1c80", "\u1c89", "\ua7cb", "\U00010d40", "\u017f", "\u212a"])
WORDS = st.lists(ALPHABET, max_size=14).map("".join)
SAMPLES = ["cached", "used", "ed", "red", "deployed", "Scanned", "выкатил", "удалила", "забронировано", "сделан",
           "переносился", "stored", "ёлка", "\u1c80ил", "dd.mm.yyyy", "mm/dd/yy", "january", "июня", "15th", "3-го",
           "2-е", "Moscow time", "по москве", "msk", "10:00 utc+3", "jan 5", "5 дек", "call me Sam", "CALL ME SAM",
           "меня зовут Дима", "Name: Ann", "default editor is Vim", "браузер по умолчанию — Firefox", "X = Y",
           "in Munich", "«Ригла»", "\u017ftart", "ИМЯ: Олег"]


@settings(max_examples=400, deadline=None)
@given(WORDS)
def test_word_shape_tests_equal_their_patterns(w: str) -> None:
    for text in (w, *SAMPLES):
        assert c._en_past(text) == bool(c._EN_PAST_FIRST.match(text))
        assert c._ru_past(text) == bool(c._RU_PAST.match(text))
        assert c._ru_participle(text) == bool(c._RU_PARTICIPLE.match(text))
        assert c._cyrillic_first(text) == bool(regex.match(r"\p{Cyrillic}", text))
        assert ("a" <= text[:1] <= "z") == bool(regex.match(r"^[a-z]", text))


@settings(max_examples=400, deadline=None)
@given(WORDS)
def test_guards_never_skip_a_match(w: str) -> None:
    for text in (w, *SAMPLES):
        low = c.normalize(text)
        if regex.search(r"\d", text):
            assert c._may_have_digit(text)
        if regex.search(r"\p{Lu}", text):
            assert c._may_have_upper(text)
        if c._CITY_TIME.search(low):
            assert any(x in low for x in c._CITY_TIME_NEEDS)
        if c._MONTH_WORD.match(low):
            assert low[:3] in c._MONTH_HEADS
        if c._DATE_FORMAT.match(low):
            assert low[:1] in ("d", "m", "y")
        if regex.match(r"^(\d{1,2})(?:st|nd|rd|th|-?го|-?е)$", low):
            assert low[-1:] in "tdhое"
        if c._NAME_TRIGGER.search(text):
            assert any(x in text.casefold() for x in c._NAME_NEEDS) or max(text) >= c._NEWER_UNICODE
        if any(rx.match(low) for rx in c._KEYED):
            assert any(x in low for x in c._KEYED_NEEDS)


def test_guarded_helpers_still_find_their_values() -> None:
    assert c._names("User said: call me Sam, not Samuel.") == [("NAME", "sam", 1), ("NAME", "samuel", -1)]
    assert c._keyed(c.normalize("Default editor: VS Code")) is not None
    assert c._keyed(c.normalize("never deploy on fridays")) is None
    assert c._proper_words("We meet in Munich on Friday") == frozenset({"munich"})
    assert c._proper_words("we meet in munich") == frozenset()
    vals = c.analyze("- Send the report by Jan 5 at 10:00 Moscow time, dd.mm.yyyy dates, on the 15th.").values
    slots = {s for s, _, _ in vals}
    assert {"DATE", "TIME", "TZ", "DATE_FORMAT", "DOM"} <= slots
