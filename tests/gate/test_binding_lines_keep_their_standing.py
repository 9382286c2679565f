"""A binding line's standing is part of what it says. Nesting a user directive under another list item
("- Wrong:" over it), quoting it (``> ``), or striking it through changes what the rule line means even though
its words are the same: it is a rewrite of a binding line, refused as ``binding-line-removed`` unless the user
asked for it this turn. Whitespace and reflow that keep the rule's words and its standing stay allowed. Through the
real gate, answers applied as Claude Code applies them."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory
from hostsim import claude_edit, prompt

DIRECTIVE = TERRAFORM_RULE
BODY = DIRECTIVE[2:]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, f"# Memory\n\n## Rules\n\n{DIRECTIVE}\n\n## Notes\n")


RESTANDINGS = {
    "nested-under-wrong": f"- Wrong:\n  {DIRECTIVE}",
    "nested-under-outdated-4-spaces": f"- Outdated, ignore:\n    {DIRECTIVE}",
    "quoted": f"> {DIRECTIVE}",
    "quoted-under-label": f"Someone once wrote:\n\n> {DIRECTIVE}",
    "struck-through": f"- ~~{BODY}~~",
    "struck-through-single-tilde": f"- ~{BODY}~",
    "a-heading": f"### {BODY}",
}


@pytest.mark.parametrize("new", list(RESTANDINGS.values()), ids=list(RESTANDINGS))
def test_a_change_of_standing_is_a_rewrite_of_the_binding_line(ws: Path, new: str) -> None:
    ans = claude_edit(ws, "MEMORY.md", DIRECTIVE, new)
    assert ans.blocked, new
    assert "binding-line-removed" in ans.reason
    assert "standing" in ans.reason or "removing, rewriting" in ans.reason
    # refused: the file is as it was, and the directive still blocks a contradiction
    assert DIRECTIVE in (ws / "MEMORY.md").read_text()
    assert claude_edit(ws, "MEMORY.md", "## Notes\n", f"## Notes\n{TERRAFORM_FLIP}\n").blocked


REFORMATS = {
    "trailing-spaces": DIRECTIVE + "   ",
    "double-spaces-inside": DIRECTIVE.replace("never run", "never  run"),
    "star-marker": "* " + BODY,
}


@pytest.mark.parametrize("new", list(REFORMATS.values()), ids=list(REFORMATS))
def test_whitespace_and_emphasis_that_keep_its_standing_stay_allowed(ws: Path, new: str) -> None:
    ans = claude_edit(ws, "MEMORY.md", DIRECTIVE, new)
    assert not ans.blocked, ans.reason
    assert claude_edit(ws, "MEMORY.md", "## Notes\n", f"## Notes\n{TERRAFORM_FLIP}\n").blocked


def test_a_rule_kept_as_a_top_level_item_beside_a_new_one_is_not_restanded(ws: Path) -> None:
    ans = claude_edit(ws, "MEMORY.md", DIRECTIVE, f"- Note: terraform plans live in ops/.\n{DIRECTIVE}")
    assert not ans.blocked, ans.reason


@pytest.fixture
def nested_ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, f"# Memory\n\n- Rules:\n  {DIRECTIVE}\n  - Deploys go through CI.\n\n## Notes\n")


@pytest.mark.parametrize("old,new", [
    ("- Rules:\n", "- Wrong, ignore these:\n"),
    ("- Rules:\n", "- Rules:\n- Wrong:\n"),
    ("- Rules:\n", ""),
], ids=["parent-reworded", "new-parent-put-over-it", "parent-removed"])
def test_a_kept_rule_whose_parent_item_changes_is_restanded(nested_ws: Path, old: str, new: str) -> None:
    ans = claude_edit(nested_ws, "MEMORY.md", old, new)
    assert ans.blocked
    assert "binding-line-removed" in ans.reason and "standing" in ans.reason


def test_a_change_elsewhere_in_a_nested_list_leaves_its_rule_alone(nested_ws: Path) -> None:
    ans = claude_edit(nested_ws, "MEMORY.md", "  - Deploys go through CI.\n",
                      "  - Deploys go through CI.\n  - Staging runs on Redis.\n")
    assert not ans.blocked, ans.reason
    ans = claude_edit(nested_ws, "MEMORY.md", "## Notes\n", "## Notes\n\n- Builds take ten minutes.\n")
    assert not ans.blocked, ans.reason


def test_the_users_words_this_turn_let_a_rule_be_restanded(tmp_path: Path) -> None:
    ws = installed_with_memory(tmp_path, f"# Memory\n\n## Rules\n\n{DIRECTIVE}\n\n## Notes\n")
    prompt(ws, "the terraform destroy rule is outdated, move it under a 'Wrong' item")
    ans = claude_edit(ws, "MEMORY.md", DIRECTIVE, f"- Wrong:\n  {DIRECTIVE}")
    assert not ans.blocked, ans.reason


def test_a_grandparent_item_reworded_restands_the_rule_below_it(tmp_path: Path) -> None:
    ws = installed_with_memory(tmp_path, f"# Memory\n\n- Rules:\n  - Infra:\n    {DIRECTIVE}\n\n## Notes\n")
    ans = claude_edit(ws, "MEMORY.md", "- Rules:\n", "- Wrong, all of these:\n")
    assert ans.blocked and "binding-line-removed" in ans.reason
