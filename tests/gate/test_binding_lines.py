"""Binding lines are protected: removing or rewriting an active DIRECTIVE or DECISION needs the user's verified
words of this turn, and stamps say whether a directive was verified against the user's prompt."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import claude_edit, claude_write, prompt

from tiers import stamps
from tiers.workspace import Workspace

FRIDAY = "- User said: never deploy on Fridays."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir(parents=True)
    install(root)
    (root / "MEMORY.md").write_text(f"# Memory\n\n{FRIDAY}\n- Staging runs on Redis.\n", encoding="utf-8")
    return root


def _memory(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8")


def test_deleting_a_user_directive_without_the_users_words_is_refused(ws: Path) -> None:
    before = _memory(ws)
    ans = claude_edit(ws, "MEMORY.md", FRIDAY + "\n", "")
    assert ans.blocked
    assert "binding-line-removed" in ans.reason and "Fridays" in ans.reason
    assert _memory(ws) == before


def test_the_delete_then_write_the_opposite_attack_fails_at_the_first_step(ws: Path) -> None:
    prompt(ws, "please tidy up the memory file")
    assert claude_edit(ws, "MEMORY.md", FRIDAY + "\n", "").blocked
    ans = claude_edit(ws, "MEMORY.md", "- Staging runs on Redis.", "- Staging runs on Redis.\n"
                      "- User said: deploys on Fridays are fine.")
    assert ans.blocked  # the directive is still there, and contradicts it
    assert FRIDAY in _memory(ws)


def test_rewriting_a_user_directive_is_refused(ws: Path) -> None:
    ans = claude_edit(ws, "MEMORY.md", FRIDAY, "- User said: never deploy on Fridays, unless it is a hotfix.")
    assert ans.blocked and "binding-line-removed" in ans.reason


def test_a_whole_file_write_that_drops_a_directive_is_refused(ws: Path) -> None:
    ans = claude_write(ws, "MEMORY.md", "# Memory\n\n- Staging runs on Redis.\n")
    assert ans.blocked and "binding-line-removed" in ans.reason


def test_the_user_asking_to_forget_the_rule_lets_it_go(ws: Path) -> None:
    prompt(ws, "forget the Friday rule")
    ans = claude_edit(ws, "MEMORY.md", FRIDAY + "\n", "")
    assert not ans.blocked, ans.reason
    assert FRIDAY not in _memory(ws)


def test_the_user_asking_to_forget_another_rule_does_not_let_this_one_go(ws: Path) -> None:
    prompt(ws, "forget the Redis note")
    assert claude_edit(ws, "MEMORY.md", FRIDAY + "\n", "").blocked


def test_a_prompt_from_another_session_does_not_count(ws: Path) -> None:
    prompt(ws, "forget the Friday rule", session="other")
    assert claude_edit(ws, "MEMORY.md", FRIDAY + "\n", "", session="s1").blocked


def test_moving_a_directive_or_ticking_its_box_is_not_a_removal(ws: Path) -> None:
    assert not claude_write(ws, "MEMORY.md", f"# Memory\n\n- Staging runs on Redis.\n{FRIDAY}\n").blocked
    assert not claude_edit(ws, "MEMORY.md", FRIDAY, "-  User said:  never deploy on Fridays.").blocked


def test_removing_a_hypothesis_needs_no_permission(ws: Path) -> None:
    assert not claude_edit(ws, "MEMORY.md", "- Staging runs on Redis.\n", "").blocked


def test_an_agents_unverified_directive_may_be_removed_by_the_agent(ws: Path) -> None:
    prompt(ws, "what is on the calendar")
    ans = claude_edit(ws, "MEMORY.md", "- Staging runs on Redis.", "- Staging runs on Redis.\n"
                      "- User said: always use tabs in Go files.")
    assert not ans.blocked, ans.reason
    line = next(x for x in _memory(ws).splitlines() if "tabs" in x)
    assert stamps.split_stamp(line)[1].verified is False
    assert not claude_edit(ws, "MEMORY.md", line + "\n", "").blocked


def test_a_stamp_records_that_a_directive_was_verified_against_the_prompt(ws: Path) -> None:
    prompt(ws, "from now on always run the linter before committing")
    ans = claude_edit(ws, "MEMORY.md", "- Staging runs on Redis.", "- Staging runs on Redis.\n"
                      "- User said: always run the linter before committing.")
    assert not ans.blocked, ans.reason
    line = next(x for x in _memory(ws).splitlines() if "linter" in x)
    content, st, _ = stamps.split_stamp(line)
    assert st.tier.name in ("DIRECTIVE", "DECISION") and st.verified is True and "+v" in line
    assert stamps.verify_stamp(st, content, Workspace(ws).key)


def test_the_proof_flag_is_covered_by_the_mac(ws: Path) -> None:
    key = Workspace(ws).key
    st = stamps.make_stamp("- User said: x y z.", "D", 1, key, verified=False)
    line = stamps.apply_stamp("- User said: x y z.", st)
    forged = line.replace("+u#", "+v#")
    content, parsed, _ = stamps.split_stamp(forged)
    assert parsed.verified is True and not stamps.verify_stamp(parsed, content, key)


def test_stamps_made_before_the_proof_flag_still_verify(ws: Path) -> None:
    key = Workspace(ws).key
    old = stamps.make_stamp("- User said: x y z.", "D", 1, key)
    assert old.verified is None and "+" not in stamps.render_stamp(old)
    assert stamps.verify_stamp(stamps.parse_stamp(stamps.render_stamp(old)), "- User said: x y z.", key)


def test_an_old_stamped_directive_is_binding(ws: Path) -> None:
    key = Workspace(ws).key
    line = stamps.apply_stamp(FRIDAY, stamps.make_stamp(FRIDAY, "D", 1, key))
    (ws / "MEMORY.md").write_text(f"# Memory\n\n{line}\n", encoding="utf-8")
    assert claude_edit(ws, "MEMORY.md", line + "\n", "").blocked


def test_a_superseded_directive_may_be_removed(ws: Path) -> None:
    key = Workspace(ws).key
    line = stamps.apply_stamp(FRIDAY, stamps.make_stamp(FRIDAY, "D", 1, key, state="superseded"))
    (ws / "MEMORY.md").write_text(f"# Memory\n\n{line}\n", encoding="utf-8")
    assert not claude_edit(ws, "MEMORY.md", line + "\n", "").blocked


def test_a_scoped_decision_is_binding(ws: Path) -> None:
    decision = "- Decided with the user: Redis for staging until Q1."
    (ws / "MEMORY.md").write_text(f"# Memory\n\n{decision}\n", encoding="utf-8")
    assert claude_edit(ws, "MEMORY.md", decision + "\n", "").blocked


@pytest.mark.parametrize("stamped", [True, False], ids=["stamped", "unstamped"])
def test_a_decision_whose_scope_ended_may_be_removed(ws: Path, stamped: bool) -> None:
    decision = "- Decided with the user: Redis for staging until 2020-01-15."
    line = stamps.apply_stamp(decision, stamps.make_stamp(decision, "C", 1, Workspace(ws).key,
                                                          scope="for staging until 2020-01-15")) \
        if stamped else decision
    (ws / "MEMORY.md").write_text(f"# Memory\n\n{line}\n", encoding="utf-8")
    assert not claude_edit(ws, "MEMORY.md", line + "\n", "").blocked


def test_a_session_bound_decision_binds_in_its_session_only(ws: Path) -> None:
    from tiers.session import end_session

    decision = "- Decided with the user: for this session, use the mock payment API."
    line = stamps.apply_stamp(decision, stamps.make_stamp(decision, "C", 1, Workspace(ws).key,
                                                          scope="for this session"))
    (ws / "MEMORY.md").write_text(f"# Memory\n\n{line}\n", encoding="utf-8")
    assert claude_edit(ws, "MEMORY.md", line + "\n", "").blocked  # session 1: its own
    end_session(Workspace(ws), "s0")
    assert not claude_edit(ws, "MEMORY.md", line + "\n", "").blocked


def test_lint_shows_unverified_directives(ws: Path) -> None:
    from rules.engine import lint_paths

    prompt(ws, "what is on the calendar")
    claude_edit(ws, "MEMORY.md", "- Staging runs on Redis.", "- Staging runs on Redis.\n"
                "- User said: always use tabs in Go files.")
    codes = [f.code for f in lint_paths(Workspace(ws), None).findings]
    assert "CU107" in codes


@pytest.mark.parametrize("wrap", [("```", "```"), ("<!--", "-->"), ("<details>", "</details>")],
                         ids=["fenced", "commented-out", "html-block"])
def test_hiding_a_directive_in_code_or_html_is_refused(ws: Path, wrap) -> None:
    ans = claude_edit(ws, "MEMORY.md", FRIDAY + "\n", f"{wrap[0]}\n{FRIDAY}\n{wrap[1]}\n")
    assert ans.blocked and "binding-line-removed" in ans.reason
