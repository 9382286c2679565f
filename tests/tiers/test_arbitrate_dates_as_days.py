"""A line naming a calendar date is offered the rules of weekdays: the date's weekday decides, not its words."""

from __future__ import annotations

import pytest

from arbitrate_table import decide
from tiers.arbitrate import ConstraintIndex
from tiers.concepts import analyze

SUNDAYS = "- User said: keep Sundays free, nothing on Sundays."


def test_a_dated_line_is_offered_a_rule_that_names_only_weekdays():
    index = ConstraintIndex.from_texts({"MEMORY.md": SUNDAYS + "\n"})
    assert [c.line for c in index.candidates(analyze("- Scheduled the plumber for Dec 6 at 9:00."))] == [1]


@pytest.mark.parametrize(("memory", "candidate"), [
    (SUNDAYS, "- Scheduled the plumber for Dec 6 at 9:00."),  # Dec 6, 2026 is a Sunday
    ("- Пользователь сказал: по воскресеньям ничего не планировать.", "- Назначил встречу с сантехником на 6 декабря."),
])
def test_an_act_on_a_date_that_falls_on_a_ruled_out_day_is_blocked(memory, candidate):
    assert decide([memory], candidate).decision == "block"


@pytest.mark.parametrize("candidate", [
    "- Scheduled the plumber for Dec 7 at 9:00.",  # a Monday
    "- The plumber came on Dec 6 last year.",  # a report of the past, no act of the agent
    "- Dec 6 is the user's sister's birthday.",  # a date with no act
])
def test_a_date_on_another_day_or_without_an_act_passes(candidate):
    assert decide([SUNDAYS], candidate).decision == "allow"


def test_a_rule_without_weekdays_is_not_touched_by_a_date():
    assert decide(["- User said: never water the cactus in winter."], "- Scheduled the plumber for Dec 6 at 9:00."
                  ).decision == "allow"
