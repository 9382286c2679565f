"""Conflict arbitration: the error object, supersede, the index, the judge (cases per kind: test_arbitrate_cases.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arbitrate_table import decide as _decide
from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.classify import classify
from tiers.model import Tier
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

def test_block_error_has_the_documented_shape_and_survives_a_reason_string():
    res = _decide(["# Rules", "- User said: never deploy on Fridays."], "- Friday deploys are fine.")
    err = res.error
    assert res.decision == "block" and res.tier is Tier.HYPOTHESIS
    assert err["error"] == "EpistemicConflictError"
    assert err["attempted"] == {"tier": "HYPOTHESIS", "content": "- Friday deploys are fine."}
    cw = err["conflicts_with"]
    assert set(cw) >= {"tier", "id", "file", "line", "content", "scope", "recorded_at"}
    assert (cw["tier"], cw["file"], cw["line"]) == ("DIRECTIVE", "MEMORY.md", 2)
    assert cw["content"] == "- User said: never deploy on Fridays."
    assert err["reason"] and err["resolution"]
    # Plain JSON: it round-trips as the text of a host's block reason.
    assert json.loads(json.dumps(err, ensure_ascii=False)) == err


def test_scoped_decision_blocks_unscoped_generalization_and_names_the_scope():
    res = _decide(["- Decided with the user: SQLite only for prototype A."], "- The user prefers SQLite everywhere.")
    assert res.decision == "block"
    assert res.error["kind"] == "scope-generalization"
    assert res.error["conflicts_with"]["scope"]
    assert res.error["conflicts_with"]["scope"] in res.error["reason"]


def test_allowed_line_has_no_error():
    res = _decide(["- User said: never deploy on Fridays."], "- Deploys go out Monday to Thursday.")
    assert res.decision == "allow" and res.error is None and res.supersedes == ()
    assert res.to_json()["error"] is None


def test_verified_user_directive_amends_and_supersedes():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays.", "- User said: use pnpm."])
    line = "- Deploys on Fridays are fine from now on."
    res = arbitrate(index, line, Tier.DIRECTIVE, verified=True)
    assert res.decision == "allow"
    assert [c.line for c in res.supersedes] == [1]
    assert res.to_json()["supersedes"][0]["content"] == "- User said: never deploy on Fridays."


def test_unverified_directive_cannot_amend_a_directive():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- User said: Friday deploys are fine.", Tier.DIRECTIVE, verified=False)
    assert res.decision == "block"
    assert res.error["kind"] == "unverified-amendment"


def test_verified_decision_does_not_supersede_a_directive():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- Friday deploys are fine for the pilot.", Tier.DECISION, verified=True)
    assert res.decision == "block"


def test_directive_in_user_md_binds_writes_to_daily_notes(tmp_path):
    (tmp_path / "USER.md").write_text("- User said: my timezone is Europe/Berlin.\n", encoding="utf-8")
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-11-28.md").write_text("- 10:00 standup\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path))
    res = arbitrate(index, "- User's timezone: America/Chicago.", Tier.HYPOTHESIS, file="memory/2026-11-28.md")
    assert res.decision == "block"
    assert res.error["conflicts_with"]["file"] == "USER.md"


def test_unstamped_lines_bind_but_stamped_superseded_ones_do_not(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    old = "- User said: never deploy on Fridays."
    stamp = make_stamp(old, Tier.DIRECTIVE, 1, ws.key, state="superseded")
    (tmp_path / "MEMORY.md").write_text(apply_stamp(old, stamp) + "\n- User said: use pnpm.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(ws)
    assert [c.line for c in index.constraints] == [2]
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).decision == "allow"
    assert arbitrate(index, "- Package manager: yarn.", Tier.HYPOTHESIS).decision == "block"


def test_a_forged_stamp_does_not_turn_a_guess_into_a_constraint(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    other_key = b"k" * 32
    forged = apply_stamp("- Friday deploys are fine.", make_stamp("- Friday deploys are fine.", Tier.DIRECTIVE, 1,
                                                                    other_key))
    (tmp_path / "MEMORY.md").write_text(forged + "\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(ws)
    assert index.constraints == []  # classified on the fly: an unmarked line is a HYPOTHESIS


def test_stamped_directive_binds_with_its_stamp_id(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    text = "- Never deploy on Fridays."
    stamp = make_stamp(text, Tier.DIRECTIVE, 3, ws.key)
    (tmp_path / "MEMORY.md").write_text(apply_stamp(text, stamp) + "\n", encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- Friday deploys are OK.", Tier.HYPOTHESIS)
    assert res.decision == "block"
    assert res.error["conflicts_with"]["id"] == stamp.id


def test_overrides_replace_a_file_for_the_check(tmp_path):
    (tmp_path / "MEMORY.md").write_text("- User said: never deploy on Fridays.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path), overrides={"MEMORY.md": "# empty\n"})
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).decision == "allow"


def test_the_same_line_restated_is_not_its_own_conflict():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- User said: never deploy on Fridays.", Tier.DIRECTIVE)
    assert res.decision == "allow"


@pytest.mark.parametrize("text", ["", "   ", "- ", "<!-- cu:H -->", "\x00", "🙂" * 50, "a" * 5000],
                         ids=["empty", "blank", "marker", "stamp-only", "nul", "emoji", "long"])
def test_odd_candidates_never_crash(text):
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, text, Tier.HYPOTHESIS)
    assert res.decision in {"allow", "block"}


def test_a_check_examines_few_constraints_in_a_large_memory():
    from tiers.arbitrate import MAX_CANDIDATES
    from tiers.concepts import analyze

    lines = [f"- User said: never restart the service{i} cluster on weekends or Fridays." for i in range(600)]
    lines.append("- User said: never deploy on Fridays.")
    index = ConstraintIndex.from_lines(lines)
    cands = index.candidates(analyze("- Friday deploys are fine."))
    assert len(cands) <= MAX_CANDIDATES
    assert any(c.line == 601 for c in cands)
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).error["conflicts_with"]["line"] == 601


def test_optional_judge_can_add_a_block_but_is_off_by_default(tmp_path):
    import pluggy

    from tiers.judge import load_judge

    hookimpl = pluggy.HookimplMarker("cuticle")
    calls = []

    class Judge:
        @hookimpl
        def cuticle_judge_conflict(self, candidate, constraint, context):
            calls.append((candidate, constraint, context))
            return {"conflict": True, "confidence": 0.9, "reason": "late Friday is Friday"}

    (tmp_path / "MEMORY.md").write_text("- User said: never deploy on Fridays.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path))
    line = "- The Friday changelog template lives in docs/."
    assert index.judge is None
    assert arbitrate(index, line, Tier.HYPOTHESIS).decision == "allow"
    index.judge = load_judge([Judge()], entry_points=False)
    res = arbitrate(index, line, Tier.HYPOTHESIS)
    assert calls and calls[0][2]["constraint_tier"] == "DIRECTIVE"
    assert res.decision == "block" and res.error["kind"] == "judge"


def test_a_failing_judge_fails_open(tmp_path):
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])

    def broken(*_a):
        raise RuntimeError("model crashed")

    index.judge = broken
    assert arbitrate(index, "- The Friday changelog template lives in docs/.", Tier.HYPOTHESIS).decision == "allow"


def test_judge_config_must_be_boolean(tmp_path):
    from tiers.errors import ConfigError
    from tiers.judge import judge_from_config

    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "config.toml").write_text("[tiers]\njudge = 'yes'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="judge"):
        judge_from_config(Workspace(tmp_path))


def test_dev_set_figures_reach_the_goal():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "eval" / "conflicts-dev.jsonl"
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from conflicts_eval import run

    rep = run(path)
    assert rep["recall"] >= 0.8
    assert rep["false_block_rate"] <= 0.05
