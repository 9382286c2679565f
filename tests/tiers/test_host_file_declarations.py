"""What a host's agent, command or skill file declares to the host (tiers.hostfiles.controls): any text is read
without crashing, a file compared with itself changes nothing, and a declaration added anywhere in the
frontmatter, in any key spelling, is a change."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tiers.hostfiles import changed_controls, controls, is_pack_path

BASE = "---\nname: review\ndescription: Review a diff.\n---\nRead the diff.\n"


@given(st.text(), st.sampled_from([".claude/skills/x/SKILL.md", ".gemini/commands/x.toml", ".claude/agents/a.md"]))
def test_any_text_is_read_and_equals_itself(text: str, rel: str) -> None:
    assert isinstance(controls(text, rel), tuple)
    assert changed_controls(text, text, rel) == []


@pytest.mark.parametrize("line", ["hooks: {}", "Hooks:", "allowed-tools: Bash", "allowed_tools: [Bash]",
                                  "allowedTools: Bash", "permissionMode: acceptEdits", "mcpServers: {}",
                                  "mcp-servers:", '"hooks": {}', "'permission-mode': plan", "  hooks: {}"])
def test_a_declaration_added_to_the_frontmatter_is_a_change(line: str) -> None:
    new = BASE.replace("description:", line + "\ndescription:")
    assert changed_controls(BASE, new, ".claude/agents/a.md")


@pytest.mark.parametrize("body", ["Explain what hooks: do.", "Run `git status` first.", "tools: are listed below"])
def test_the_body_may_talk_about_declarations(body: str) -> None:
    assert not changed_controls(BASE, BASE + body + "\n", ".claude/skills/x/SKILL.md")


def test_an_inline_command_in_the_body_is_a_change() -> None:
    assert changed_controls(BASE, BASE + "Status: !`git status`\n", ".claude/commands/c.md")


@pytest.mark.parametrize(("rel", "expect"), [(".claude/skills/x/SKILL.md", True), (".CLAUDE/Agents/a.md", True),
                                             (".github/prompts/p.prompt.md", True), (".agents/skills/s/SKILL.md", True),
                                             ("skills/x/SKILL.md", False), (".claude/settings.json", False),
                                             ("docs/.claude/skills.md", False)])
def test_which_files_are_agent_command_or_skill_files(rel: str, expect: bool) -> None:
    assert is_pack_path(rel) is expect
