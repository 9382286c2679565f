"""English inflections of exact lexicon words, the agent's record of its own act, denied lists."""

from __future__ import annotations

import pytest

from tiers.arbitration.phrasing import agent_act
from tiers.concepts import analyze
from tiers.concepts.tables import _en_inflections


@pytest.mark.parametrize(("word", "forms"), [
    ("book", ("books", "booked", "booking")),
    ("drop", ("drops", "dropped", "dropping")),
    ("erase", ("erases", "erased", "erasing")),
    ("reply", ("replies", "replied", "replying")),
    ("wash", ("washes", "washed", "washing")),
])
def test_an_exact_word_has_its_regular_inflections(word, forms):
    assert _en_inflections(word) == forms


@pytest.mark.parametrize("word", ["", "cc", "1:1", "пиши", "e-mail"])
def test_short_non_ascii_or_non_alphabetic_words_get_none(word):
    assert _en_inflections(word) == ()


def test_an_inflected_form_evokes_the_words_concept():
    assert "PHONE_CALL" in analyze("- Dialed the landlord twice.").concepts


def test_an_inflection_never_takes_a_form_the_lexicon_reads_otherwise():
    # "landing" is MERGE in the lexicon ("lands", "landing"); no inflection of another word changes that
    assert "MERGE" in analyze("- Landing the PR today.").concepts


@pytest.mark.parametrize("line", [
    "- Booked the flight for Dec 4.",
    "- Turned off the alarm on the shared account.",
    "- 10:20 Sent the invoice to Acme.",
    "- Забронирован рейс на 12 декабря.",
    "- Заказал пиццу на вечер.",
    "- В корзину добавлено два билета.",
])
def test_a_record_of_the_writers_own_act_is_an_agent_act(line):
    assert agent_act(line)


@pytest.mark.parametrize("line", [
    "- CI deployed the docs preview at 10:02.",
    "- The standup took 25 minutes.",
    "- Тесты прошли на ветке main.",
    "- План на неделю готов.",
    "- Need to book the flight.",
    "",
])
def test_a_report_with_its_own_subject_or_no_past_is_not(line):
    assert not agent_act(line)


def test_a_denied_list_keeps_its_negation_past_the_commas():
    a = analyze("- No shrimp, crab or lobster for the user.")
    assert [cl.signs.get("SEAFOOD") for cl in a.clauses if "SEAFOOD" in cl.signs] == [-1]


def test_a_comma_before_a_clause_of_its_own_still_splits():
    a = analyze("- Никакой острой еды, Аня её не переносит.")
    assert len(a.clauses) == 2
