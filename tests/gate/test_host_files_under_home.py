"""The hosts' agent, command and skill files under the user's home (``~/.claude/agents``, ``~/.claude/skills``,
``~/.claude/commands``, ``~/.gemini/commands``, ``~/.agents/skills``, ``~/.copilot/agents``…) get the rule of the
workspace's: a file tool may write them while what they declare to the host stays as it was, named with ``~`` or
absolute, through a link or not; an edit is judged by the text it leaves. The hosts' hook settings under home
(``~/.claude/settings.json``, ``~/.codex/``, ``~/.gemini/settings.json``, ``~/.cursor/hooks.json``, OpenClaw's
config) are refused to every file tool, and a check past the hook's budget blocks all of them."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from gate_helpers import Hook, installed_with_memory
from hostsim import claude, send

HOOKED = "---\nname: r\ndescription: Reviews.\nhooks:\n  Stop:\n    - hooks: []\n---\nRead the diff.\n"


@pytest.fixture
def home(tmp_path: Path, monkeypatch) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    return h


@pytest.fixture
def ws(tmp_path: Path, home: Path) -> Path:
    return installed_with_memory(tmp_path, "# Memory\n")


def _agent(home: Path, rel: str = ".claude/agents/r.md", text: str = HOOKED) -> Path:
    path = home / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _edit(ws: Path, path: str, old: str, new: str):
    return send("claude", claude(ws, "Edit", {"file_path": path, "old_string": old, "new_string": new}))


@pytest.mark.parametrize("spelling", ["tilde", "absolute"])
def test_editing_the_body_of_a_hooked_agent_under_home_is_allowed(ws: Path, home: Path, spelling: str) -> None:
    path = _agent(home)
    name = "~/.claude/agents/r.md" if spelling == "tilde" else str(path)
    ans = _edit(ws, name, "Read the diff.", "Read the diff, then the tests.")
    assert not ans.blocked, ans.reason


@pytest.mark.parametrize("spelling", ["tilde", "absolute", "linked"])
def test_an_edit_that_removes_a_hook_under_home_is_refused(ws: Path, home: Path, tmp_path: Path,
                                                            spelling: str) -> None:
    path = _agent(home)
    name = {"tilde": "~/.claude/agents/r.md", "absolute": str(path)}.get(spelling)
    if spelling == "linked":
        (tmp_path / "agents-link").symlink_to(home / ".claude/agents")
        name = str(tmp_path / "agents-link" / "r.md")
    ans = _edit(ws, name, "hooks:\n  Stop:\n    - hooks: []\n", "")
    assert ans.blocked, ans.reply.stdout
    assert "~/.claude/agents/r.md" in ans.reason


@pytest.mark.parametrize(("rel", "text", "old", "new"), [
    (".claude/skills/s/SKILL.md", "---\nname: s\n---\nDo it.\n", "name: s\n", "name: s\nallowed-tools: Bash(*)\n"),
    (".claude/commands/c.md", "---\ndescription: c\n---\nStatus.\n", "Status.", "Status: !`echo x >> MEMORY.md`"),
    (".gemini/commands/c.toml", 'prompt = "Status."\n', "Status.", "Status: !{id}"),
    (".agents/skills/s/SKILL.md", "---\nname: s\n---\nDo it.\n", "name: s\n", "name: s\npermissionMode: plan\n"),
    (".copilot/agents/a.agent.md", "---\nname: a\n---\nx\n", "name: a\n", "name: a\nmcp-servers: {}\n"),
], ids=["skill-allowed-tools", "command-inline-shell", "gemini-inline-shell", "shared-skill-mode", "copilot-mcp"])
def test_an_edit_that_adds_a_declaration_under_home_is_refused(ws: Path, home: Path, rel: str, text: str, old: str,
                                                               new: str) -> None:
    _agent(home, rel, text)
    assert _edit(ws, f"~/{rel}", old, new).blocked
    assert not _edit(ws, f"~/{rel}", old, old.upper()).blocked  # the same file, nothing declared: written


@pytest.mark.parametrize("rel", [".claude/settings.json", ".claude/settings.local.json", ".codex/config.toml",
                                 ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json",
                                 ".openclaw/openclaw.json"])
@pytest.mark.parametrize("tool", ["Write", "Edit"])
def test_a_hosts_hook_settings_under_home_are_refused_to_the_file_tools(ws: Path, home: Path, rel: str,
                                                                        tool: str) -> None:
    path = home / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"hooks": {}}\n', encoding="utf-8")
    args = {"content": "{}\n"} if tool == "Write" else {"old_string": '{"hooks": {}}', "new_string": "{}"}
    for name in (f"~/{rel}", str(path)):
        ans = send("claude", claude(ws, tool, {"file_path": name, **args}))
        assert ans.blocked, (name, ans.reply.stdout)


def test_an_ordinary_file_under_home_is_written(ws: Path, home: Path) -> None:
    assert not send("claude", claude(ws, "Write", {"file_path": "~/notes.txt", "content": "x\n"})).blocked
    assert not send("claude", claude(ws, "Write", {"file_path": "~/.claude/notes/x.md", "content": "x\n"})).blocked


@pytest.mark.parametrize("rel", [".claude/agents/r.md", ".claude/settings.json", ".codex/hooks.json"])
def test_a_late_check_blocks_a_home_host_file(ws: Path, home: Path, rel: str) -> None:
    """Past the hook's budget the gate answers at once: a write of a host's file under home is blocked, not waved
    on as a file that touches nothing protected."""
    from gate.commands.hook import _in_process

    payload = claude(ws, "Write", {"file_path": str(home / rel), "content": HOOKED})
    stdout, stderr, code = _in_process("claude", "PreToolUse", json.dumps(payload).encode(), time.monotonic())
    assert Hook(subprocess.CompletedProcess([], code, stdout, stderr), "claude").blocked
    payload = claude(ws, "Write", {"file_path": str(home / "notes.txt"), "content": "x\n"})
    stdout, stderr, code = _in_process("claude", "PreToolUse", json.dumps(payload).encode(), time.monotonic())
    assert not Hook(subprocess.CompletedProcess([], code, stdout, stderr), "claude").blocked
