"""The stems of lexical ids (words the lexicon does not know): one stem for a word's forms, EN and RU."""

from __future__ import annotations

import pytest

from arbitrate_table import decide
from tiers.concepts import analyze
from tiers.concepts.words import _stem


@pytest.mark.parametrize("forms", [
    ("give", "giving", "gives"),
    ("cycle", "cycling", "cycled", "cycles"),
    ("story", "stories"),
    ("run", "running"),
    ("wash", "washer", "washing"),
    ("smoke", "smoker", "smoking", "smoked"),
    ("кормить", "кормят", "кормит", "кормила"),
    ("удалять", "удаление", "удалили", "удалял"),
    ("мыться", "мыть"),
])
def test_the_forms_of_one_word_share_a_stem(forms):
    assert len({_stem(w) for w in forms}) == 1, {w: _stem(w) for w in forms}


@pytest.mark.parametrize(("a", "b"), [
    ("water", "wait"), ("paper", "pay"), ("order", "ore"), ("user", "use"),
    ("курить", "покурить"),  # an aspect prefix stays: the lexicon lists both aspects
    ("кот", "кит"),
])
def test_different_words_keep_different_stems(a, b):
    assert _stem(a) != _stem(b)


@pytest.mark.parametrize("word", ["run", "bus", "кот", "да", "x"])
def test_short_words_are_left_whole(word):
    assert _stem(word) == word


def test_a_stem_is_cut_to_its_length_whatever_the_word():
    assert len(_stem("internationalization")) <= 8 and len(_stem("переосмысливающихся")) <= 6


def test_a_verb_and_its_noun_are_one_lexical_id():
    a = analyze("- Recycling the jars is fine.").concepts
    b = analyze("- User said: never recycle the jars.").concepts
    assert {c for c in a if c.startswith("w:")} & {c for c in b if c.startswith("w:")} >= {"w:recycl"}


def test_another_form_of_an_unknown_verb_finds_the_directive():
    # neither word is in the lexicon: only the shared stem links the line to the rule
    assert decide(["- User said: never recycle the jars."], "- Recycling is fine now.").decision == "block"


def test_a_shared_stem_alone_does_not_block_a_compatible_line():
    assert decide(["- User said: never recycle the jars."], "- The recycling bin is next to the garage door."
                  ).decision == "allow"
