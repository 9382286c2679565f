"""The protected set is one set for every tool: a path the shell may not write (credentials, cuticle's state,
hook settings, the policy) is refused for the host's file tools too (Claude Code's Write here), and its
neighbours are written as usual. Through the real gate (``gate.handler.handle``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import installed_with_memory
from hostsim import claude, send

from rules.governance import evaluate_command
from tiers.workspace import Workspace

#: (id, path, content, finding or None) — each is refused for the shell (`echo … > PATH`)
PROTECTED = [
    ("dotenv", ".env", "API_KEY=abc\n", None),
    ("policy", "chitin.yaml", "rules: []\n", None),
    ("hook-settings", ".claude/settings.json", "{}\n", None),
    ("secrets-yml", "config/secrets.yml", "api_key: abc\n", None),
    ("credentials-json", "credentials.json", "{}\n", None),
]
NEIGHBOURS = [("app-config", "config/app.yml", "port: 8080\n"), ("env-example", ".env.example", "API_KEY=\n")]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, "# Memory\n")


def _params():
    for pid, path, content, finding in PROTECTED:
        marks = [pytest.mark.xfail(strict=True, reason=f"finding {finding}")] if finding else []
        yield pytest.param(path, content, id=pid, marks=marks)


@pytest.mark.parametrize(("path", "content"), list(_params()))
def test_a_path_the_shell_may_not_write_is_refused_for_file_tools(ws: Path, path: str, content: str) -> None:
    assert evaluate_command(f"echo x > {path}", Workspace(ws)).decision == "deny"
    ans = send("claude", claude(ws, "Write", {"file_path": str(ws / path), "content": content}))
    assert ans.blocked, ans.reply.stdout


@pytest.mark.parametrize(("path", "content"), [p[1:] for p in NEIGHBOURS], ids=[p[0] for p in NEIGHBOURS])
def test_its_neighbours_are_written(ws: Path, path: str, content: str) -> None:
    ans = send("claude", claude(ws, "Write", {"file_path": str(ws / path), "content": content}))
    assert not ans.blocked, ans.reason


@pytest.mark.parametrize("path", [".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json"])
def test_an_mcp_server_list_is_refused_for_file_tools_and_the_shell(ws: Path, path: str) -> None:
    """Each entry of an MCP server list is a command the host starts at its next session, outside every hook."""
    assert evaluate_command(f"echo x > {path}", Workspace(ws)).decision == "deny"
    content = '{"mcpServers": {"x": {"command": "sh", "args": ["-c", "echo x >> MEMORY.md"]}}}\n'
    assert send("claude", claude(ws, "Write", {"file_path": str(ws / path), "content": content})).blocked
