"""The tier lifecycle in arbitration: a DECISION stops binding when its scope ends; a newer observation
supersedes an older one of the same fact; a higher tier contradicting a hypothesis marks it contradicted."""

from __future__ import annotations

from datetime import date

import pytest

from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.arbitration import Constraint, binding, scope_end
from tiers.model import Tier
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

TODAY = date(2026, 11, 30)


@pytest.mark.parametrize(("text", "end"), [
    ("until Dec 6", date(2026, 12, 6)),
    ("only until the 6th of December", date(2026, 12, 6)),
    ("until 2027-01-15", date(2027, 1, 15)),
    ("до 15 декабря", date(2026, 12, 15)),
    ("на время хакатона (до 6 декабря)", date(2026, 12, 6)),
    ("до 06.12.2026", date(2026, 12, 6)),
    ("until Nov 20", date(2026, 11, 20)),
    ("for the Q4 board deck only", None),
    ("until the migration finishes", None),
    ("до 31 февраля", None),
], ids=["en month day", "en ordinal", "iso", "ru", "ru in parentheses", "ru dotted", "past", "no date", "an event",
        "no such day"])
def test_a_scope_end_is_the_last_day_its_date_bound_covers(text, end):
    assert scope_end(text, TODAY) == end


def test_a_bound_without_a_year_written_last_december_is_read_as_last_december():
    assert scope_end("until Dec 20", date(2027, 1, 10)) == date(2026, 12, 20)


@pytest.mark.parametrize("text", ["until Mar 1", "до 15 февраля", "through Jan 4"], ids=["en", "ru", "through"])
def test_a_bound_without_a_year_early_next_year_is_read_as_next_years(text):
    end = scope_end(text, TODAY)
    assert end is not None and end.year == 2027
    assert binding(_decision(f"- Decided with the user: no alcohol on weekdays {text}.", text), TODAY)


def _decision(content: str, scope: str, session: int | None = None) -> Constraint:
    return Constraint(Tier.DECISION, "x", "MEMORY.md", 1, content, scope, None, session is not None, session)


def test_a_decision_binds_until_its_date_bound_passes():
    cons = _decision("- Decided with the user: SQLite for the demo only until Dec 6.", "for the demo only until Dec 6")
    assert binding(cons, date(2026, 12, 6))
    assert not binding(cons, date(2026, 12, 7))


def test_a_directive_with_a_date_in_it_always_binds():
    cons = Constraint(Tier.DIRECTIVE, "x", "MEMORY.md", 1, "- User said: no deploys until Dec 6.", None, None, False)
    assert binding(cons, date(2027, 3, 1))


def test_a_decision_bound_to_its_session_stops_binding_in_a_later_session():
    cons = _decision("- Decided with the user: for this session, skip the slow tests.", "for this session", 3)
    assert binding(cons, TODAY, 3)
    assert not binding(cons, TODAY, 4)


def test_an_ended_decision_no_longer_blocks_a_line():
    index = ConstraintIndex.from_lines(["- Decided with the user: until Dec 6, SQLite only for the demo."])
    line = "- The demo uses Postgres."
    assert arbitrate(index, line, Tier.HYPOTHESIS, today=date(2026, 12, 1)).decision == "block"
    assert arbitrate(index, line, Tier.HYPOTHESIS, today=date(2026, 12, 8)).decision == "allow"


def _stamped(ws: Workspace, lines: list[tuple[str, Tier]]) -> str:
    out = []
    for text, tier in lines:
        out.append(apply_stamp(text, make_stamp(text, tier, 1, ws.key)) if tier is not None else text)
    return "\n".join(out) + "\n"


@pytest.fixture()
def ws(tmp_path) -> Workspace:
    w = Workspace(tmp_path)
    w.ensure_state()
    return w


def test_a_newer_observation_of_the_same_fact_supersedes_the_older(ws):
    (ws.root / "MEMORY.md").write_text(_stamped(ws, [("- CI: the `api` suite has 3 failing tests.", Tier.OBSERVATION),
                                                      ("- Disk on db-1: 40% used.", Tier.OBSERVATION)]),
                                       encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- CI: the `api` suite has 0 failing tests.",
                    Tier.OBSERVATION)
    assert res.decision == "allow"
    assert [(r.line.line, r.state) for r in res.retires] == [(1, "superseded")]
    assert res.to_json()["retires"][0]["state"] == "superseded"


def test_an_observation_in_russian_supersedes_the_older_one(ws):
    (ws.root / "MEMORY.md").write_text(_stamped(ws, [("- Сборка: лимит памяти 512 МБ.", Tier.OBSERVATION)]),
                                       encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- Сборка: лимит памяти 1024 МБ.", Tier.OBSERVATION)
    assert [r.state for r in res.retires] == ["superseded"]


def test_a_directive_contradicting_a_hypothesis_marks_it_contradicted(ws):
    (ws.root / "MEMORY.md").write_text(_stamped(ws, [("- The user's timezone is probably Europe/Paris.",
                                                       Tier.HYPOTHESIS)]), encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- User said: my timezone is Europe/Berlin.",
                    Tier.DIRECTIVE, verified=True)
    assert res.decision == "allow"
    assert [r.state for r in res.retires] == ["contradicted"]


def test_a_hypothesis_retires_nothing_and_a_directive_does_not_supersede_observations(ws):
    (ws.root / "MEMORY.md").write_text(_stamped(ws, [("- CI: the `api` suite has 3 failing tests.", Tier.OBSERVATION),
                                                      ("- The user probably prefers tabs.", Tier.HYPOTHESIS)]),
                                       encoding="utf-8")
    index = ConstraintIndex.from_workspace(ws)
    assert arbitrate(index, "- Maybe the user prefers spaces.", Tier.HYPOTHESIS).retires == ()
    assert arbitrate(index, "- User said: the `api` suite has 0 failing tests now.", Tier.DIRECTIVE,
                     verified=True).retires == ()


def test_an_unrelated_observation_retires_nothing(ws):
    (ws.root / "MEMORY.md").write_text(_stamped(ws, [("- CI: the `api` suite has 3 failing tests.", Tier.OBSERVATION)]),
                                       encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- Disk on db-1: 40% used.", Tier.OBSERVATION)
    assert res.retires == ()


def test_unstamped_lines_are_never_retired(ws):
    (ws.root / "MEMORY.md").write_text("- CI: the `api` suite has 3 failing tests.\n", encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- CI: the `api` suite has 0 failing tests.",
                    Tier.OBSERVATION)
    assert res.retires == ()
