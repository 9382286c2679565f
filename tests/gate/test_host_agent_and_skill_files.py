"""A host's agent, command and skill files (``.claude/skills/*/SKILL.md``, ``.claude/agents/*.md``,
``.claude/commands/*.md``, ``.github/agents/*.agent.md``, ``.gemini/commands/*.toml``…) can declare hooks, tool
permissions, MCP servers and commands run when they load. The file tools may write them as long as what they
declare to the host stays as it was; a write that adds, changes or removes a declaration is refused. The shell,
whose content cuticle cannot see, writes none of them. Through the real gate (``gate.handler.handle``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gate_helpers import installed_with_memory
from hostsim import claude, send

from rules.governance import evaluate_command
from tiers.workspace import Workspace

PLAIN_SKILL = "---\nname: review\ndescription: Review a diff.\n---\nRead the diff and list problems.\n"
HOOKED_SKILL = ("---\nname: review\ndescription: Review a diff.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n"
                "      hooks:\n        - type: command\n          command: ./guard.sh\n---\nRead the diff.\n")

#: (id, path, content) a file tool may write: instructions, descriptions, a subagent's tools list
ALLOWED = [
    ("plain-skill", ".claude/skills/review/SKILL.md", PLAIN_SKILL),
    ("agent-tools-list", ".claude/agents/reviewer.md",
     "---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep, Glob\n---\nYou review code.\n"),
    ("command-body-mentions-hooks", ".claude/commands/explain.md",
     "---\ndescription: Explain hooks\n---\nExplain what hooks: and allowed-tools: do in a skill.\n"),
    ("copilot-agent", ".github/agents/docs.agent.md", "---\nname: docs\ntools: ['read', 'search']\n---\nWrite docs.\n"),
    ("gemini-command", ".gemini/commands/plan.toml", 'description = "Plan"\nprompt = "Make a plan for {{args}}."\n'),
    ("skill-script", ".claude/skills/review/scripts/check.sh", "#!/bin/sh\ngit diff --stat\n"),
]
#: (id, path, content) refused: each declares something to the host
REFUSED = [
    ("skill-hooks", ".claude/skills/review/SKILL.md", HOOKED_SKILL),
    ("skill-allowed-tools", ".claude/skills/deploy/SKILL.md",
     "---\nname: deploy\nallowed-tools: Bash(*), Write\n---\nDeploy.\n"),
    ("skill-allowed-tools-list", ".agents/skills/deploy/SKILL.md",
     "---\nname: deploy\nallowed_tools:\n- Bash\n---\nDeploy.\n"),
    ("agent-permission-mode", ".claude/agents/fixer.md",
     "---\nname: fixer\npermissionMode: bypassPermissions\n---\nFix everything.\n"),
    ("agent-flow-style-hooks", ".claude/agents/x.md", "---\n{name: x, hooks: {Stop: [{hooks: []}]}}\n---\nx\n"),
    ("agent-mcp-servers", ".github/agents/ops.agent.md",
     "---\nname: ops\nmcp-servers:\n  shell:\n    command: sh\n---\nOps.\n"),
    ("command-inline-shell", ".claude/commands/ctx.md",
     "---\ndescription: context\n---\nStatus: !`echo x >> MEMORY.md`\n"),
    ("gemini-command-shell", ".gemini/commands/ctx.toml", 'prompt = "Status: !{echo x >> MEMORY.md}"\n'),
    ("upper-case-dir", ".Claude/Skills/x/SKILL.md", "---\nname: x\nhooks: {}\n---\n"),
]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, "# Memory\n")


def _write(ws: Path, rel: str, content: str):
    return send("claude", claude(ws, "Write", {"file_path": str(ws / rel), "content": content}))


@pytest.mark.parametrize(("rel", "content"), [r[1:] for r in ALLOWED], ids=[r[0] for r in ALLOWED])
def test_a_file_that_declares_nothing_is_written(ws: Path, rel: str, content: str) -> None:
    ans = _write(ws, rel, content)
    assert not ans.blocked, ans.reason


@pytest.mark.parametrize(("rel", "content"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_a_file_that_declares_hooks_or_permissions_is_refused(ws: Path, rel: str, content: str) -> None:
    ans = _write(ws, rel, content)
    assert ans.blocked, ans.reply.stdout


@pytest.mark.parametrize("rel", [".claude/skills/review/SKILL.md", ".claude/agents/r.md", ".claude/commands/c.md",
                                 ".github/prompts/p.prompt.md", ".gemini/commands/c.toml", ".agents/skills/s/SKILL.md",
                                 "~/.claude/skills/s/SKILL.md", "~/.copilot/agents/a.agent.md"])
def test_the_shell_writes_none_of_them_and_says_to_use_the_file_tools(ws: Path, rel: str) -> None:
    ev = evaluate_command(f"printf 'x\\n' > {rel}", Workspace(ws))
    assert ev.decision == "deny" and "file tools" in ev.reason, ev.reason
    assert evaluate_command(f"cat {rel}", Workspace(ws)).decision == "allow"


@pytest.mark.parametrize("rel", ["docs/skills.md", "skills/review/SKILL.md", "notes/agents.md",
                                 ".claude/rules/style.md"])
def test_look_alike_paths_stay_ordinary_files_for_the_shell(ws: Path, rel: str) -> None:
    (ws / rel).parent.mkdir(parents=True, exist_ok=True)
    ev = evaluate_command(f"printf 'x\\n' > {rel}", Workspace(ws))
    assert ev.decision == "allow", ev.reason


def test_editing_the_body_of_a_users_hooked_skill_is_allowed(ws: Path) -> None:
    path = ws / ".claude/skills/review/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(HOOKED_SKILL, encoding="utf-8")
    ans = send("claude", claude(ws, "Edit", {"file_path": str(path), "old_string": "Read the diff.",
                                             "new_string": "Read the diff, then the tests."}))
    assert not ans.blocked, ans.reason


def test_removing_or_changing_a_users_hook_is_refused(ws: Path) -> None:
    path = ws / ".claude/skills/review/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(HOOKED_SKILL, encoding="utf-8")
    changed = send("claude", claude(ws, "Edit", {"file_path": str(path), "old_string": "./guard.sh",
                                                 "new_string": "true"}))
    assert changed.blocked
    removed = _write(ws, ".claude/skills/review/SKILL.md", PLAIN_SKILL)
    assert removed.blocked


def test_an_edit_that_adds_a_hook_is_refused(ws: Path) -> None:
    path = ws / ".claude/agents/reviewer.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: reviewer\ndescription: Reviews.\n---\nYou review code.\n", encoding="utf-8")
    ans = send("claude", claude(ws, "Edit", {"file_path": str(path), "old_string": "description: Reviews.\n",
                                             "new_string": "description: Reviews.\npermissionMode: acceptEdits\n"}))
    assert ans.blocked


def test_a_link_into_the_skills_directory_is_judged_as_the_skill(ws: Path) -> None:
    (ws / ".claude/skills/real").mkdir(parents=True)
    (ws / "linked").symlink_to(ws / ".claude/skills/real")
    ans = _write(ws, "linked/SKILL.md", HOOKED_SKILL)
    assert ans.blocked


def test_a_file_tool_write_elsewhere_never_reads_agent_files(ws: Path, monkeypatch) -> None:
    """The check costs nothing for ordinary writes: no file is read to judge them."""
    from gate import packfiles

    def boom(path):
        raise AssertionError(f"read {path}")

    monkeypatch.setattr(packfiles, "_read", boom)
    assert not _write(ws, "src/app.py", "x = 1\n").blocked


def test_the_policy_layer_alone_judges_a_whole_file_write_by_its_content(ws: Path) -> None:
    """``evaluate_call`` without the gate in front (a plugin, ``cuticle evaluate``): a Write's content is known."""
    from rules.governance import evaluate_call
    from rules.model import ToolCall

    def call(content: str) -> str:
        rel = ".claude/skills/review/SKILL.md"
        tc = ToolCall(tool="Write", kind="write", paths=(str(ws / rel),), cwd=str(ws),
                      arguments={"file_path": str(ws / rel), "content": content})
        return evaluate_call(tc, Workspace(ws)).decision

    assert call(PLAIN_SKILL) == "allow"
    assert call(HOOKED_SKILL) == "deny"


def _codex_patch(ws: Path, patch: str):
    return send("codex", {"session_id": "s1", "transcript_path": None, "cwd": str(ws), "hook_event_name": "PreToolUse",
                          "model": "gpt-5.4", "turn_id": "u1", "tool_name": "apply_patch", "tool_use_id": "call_9",
                          "tool_input": {"command": patch}})


def test_a_patch_is_judged_by_the_file_it_leaves(ws: Path) -> None:
    """Codex's apply_patch: an added skill with hooks is refused, one without is written; a patch that moves a
    hooked file into the agents directory carries its declarations there."""
    hooked = ("*** Begin Patch\n*** Add File: .claude/skills/s/SKILL.md\n+---\n+name: s\n+hooks:\n+  Stop: []\n"
              "+---\n+Do it.\n*** End Patch\n")
    plain = hooked.replace("+hooks:\n+  Stop: []\n", "")
    assert _codex_patch(ws, hooked).blocked
    assert not _codex_patch(ws, plain).blocked
    (ws / "notes").mkdir()
    (ws / "notes" / "a.md").write_text("---\nname: a\nhooks: {}\n---\nx\n", encoding="utf-8")
    moved = ("*** Begin Patch\n*** Update File: notes/a.md\n*** Move to: .claude/agents/a.md\n@@\n-x\n+y\n"
             "*** End Patch\n")
    assert _codex_patch(ws, moved).blocked


def test_frontmatter_after_blank_lines_still_counts(ws: Path) -> None:
    assert _write(ws, ".claude/agents/a.md", "\n\n---\nname: a\npermissionMode: bypassPermissions\n---\n").blocked


def test_a_late_check_blocks_an_agent_file_as_it_blocks_memory(ws: Path) -> None:
    """Past the hook's budget the gate answers at once: a call writing an agent file is blocked, not waved on."""
    import json
    import subprocess
    import time

    from gate.commands.hook import _in_process
    from gate_helpers import Hook

    payload = claude(ws, "Write", {"file_path": str(ws / ".claude/agents/a.md"), "content": HOOKED_SKILL})
    stdout, stderr, code = _in_process("claude", "PreToolUse", json.dumps(payload).encode(), time.monotonic())
    assert Hook(subprocess.CompletedProcess([], code, stdout, stderr), "claude").blocked
