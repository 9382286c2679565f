"""The features a pair check reads from one line (its mood, whether it speaks of another person, its values by
slot) are computed once per text and handed to every pair the line is in: the verdicts must not depend on which
pairs were checked before, and the features must say what they said when computed for each pair."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.arbitration.phrasing import prescribes, speaks_of_another
from tiers.arbitration.values import values_by_slot
from tiers.classify import classify
from tiers.concepts import analyze

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("text", "rule", "expected"), [
    ("- My wife drinks three coffees a day.", "- I don't drink coffee.", True),
    ("- Жена пользователя ест мясо.", "- Я не ем мясо.", True),
    ("- Oleg, the new designer, loves steak.", "- I'm vegetarian.", True),
    ("- My wife drinks three coffees a day.", "- No coffee after 16:00 for the team.", False),  # not about the user
    ("- Steak's price went up.", "- I'm vegetarian.", False),  # a word the lexicon knows is no name
    ("- Jonas is on US Eastern time.", "- Never call me before 10.", False),  # a name alone may be the user's own
    ("", "- I don't drink coffee.", False),
], ids=["relative", "ru-relative", "name-and-role", "rule-not-first-person", "known-word", "bare-name", "empty"])
def test_a_line_speaks_of_another_person_only_beside_a_rule_about_the_user(text, rule, expected):
    assert speaks_of_another(text, rule) is expected
    assert speaks_of_another(text, rule) is expected  # asked again (remembered): the same answer


@pytest.mark.parametrize(("text", "expected"), [
    ("- Ask Julia to review the release notes.", True),
    ("- Route the reports to the finance channel.", True),
    ("- Asked Julia to review the release notes.", False),
    ("- Reviews take two days.", False),
    ("- Счета отдавать на подпись Сергею.", True),
    ("- Счета отдавали на подпись Сергею.", False),
    ("", False),
], ids=["imperative", "setting-verb", "past", "statement", "ru-infinitive", "ru-past", "empty"])
def test_a_line_prescribes_by_its_mood(text, expected):
    assert prescribes(text) is expected
    assert prescribes(text) is expected


def test_values_by_slot_leaves_out_exceptions_and_is_the_same_for_each_pair():
    a = analyze("- Deploy on Friday, except hotfixes on Sunday.")
    first = values_by_slot(a)
    assert values_by_slot(a) is first  # computed once for the analysis, not once per pair
    assert all(not cl.exception for vals in first.values() for _, _, cl in vals)
    assert {(s, v, sg) for cl in a.clauses if not cl.exception for s, v, sg in cl.values} == {
        (s, v, sg) for s, vals in first.items() for v, sg, _ in vals}
    assert values_by_slot(analyze("")) == {}


def _cases() -> list[dict]:
    path = ROOT / "benchmarks" / "data" / "eval" / "conflicts-dev.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:60]


def _verdicts(cases: list[dict]) -> dict[str, tuple]:
    out = {}
    for case in cases:
        index = ConstraintIndex.from_texts({case.get("file", "MEMORY.md"): "\n".join(case["memory"]) + "\n"})
        cls = classify(case["candidate"])
        res = arbitrate(index, case["candidate"], cls.tier, file=case.get("file", "MEMORY.md"), scope=cls.scope,
                        today=date(2026, 11, 30))
        out[case["id"]] = (res.decision, (res.error or {}).get("kind"), (res.error or {}).get("reason"))
    return out


def test_verdicts_do_not_depend_on_the_pairs_checked_before():
    cases = _cases()
    forward = _verdicts(cases)
    backward = _verdicts(list(reversed(cases)))
    assert forward == backward
    assert {d for d, _, _ in forward.values()} == {"allow", "block"}
