"""A shell tool's own working-directory argument moves the command: OpenClaw's ``exec`` takes ``workdir``,
Codex's ``shell`` takes ``workdir``, Gemini's ``run_shell_command`` takes ``dir_path`` (``directory`` in older
releases). A relative write is judged from there, so ``echo … >> 2026-11-28.md`` run in ``memory/`` is a write
of a memory file, and the same command run at the root (a new file) is not. Through the real gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import send

CMD = "echo '- x' >> 2026-11-28.md"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    install(root)
    (root / "memory" / "2026-11-28.md").write_text("# 2026-11-28\n\n- Deployed v1.\n", encoding="utf-8")
    return root


def _openclaw(ws: Path, params: dict) -> tuple[str, dict, str]:
    return "openclaw", {"hook": "before_tool_call", "workspaceDir": str(ws),
                        "event": {"toolName": "exec", "toolCallId": "c1", "runId": "r1", "params": params},
                        "ctx": {"agentId": "main", "sessionKey": "agent:main:main", "sessionId": "s1",
                                "toolName": "exec"}}, "before_tool_call"


def _codex(ws: Path, tool_input: dict) -> tuple[str, dict, str]:
    return "codex", {"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "shell",
                     "tool_input": tool_input}, "PreToolUse"


def _gemini(ws: Path, tool_input: dict) -> tuple[str, dict, str]:
    return "gemini", {"session_id": "s1", "cwd": str(ws), "hook_event_name": "BeforeTool",
                      "tool_name": "run_shell_command", "tool_input": tool_input}, "BeforeTool"


CALLS = {
    "openclaw-exec-workdir": lambda ws: _openclaw(ws, {"command": CMD, "workdir": str(ws / "memory")}),
    "codex-shell-workdir": lambda ws: _codex(ws, {"command": ["bash", "-lc", CMD], "workdir": str(ws / "memory")}),
    "gemini-dir_path": lambda ws: _gemini(ws, {"command": CMD, "dir_path": "memory"}),
    "gemini-directory": lambda ws: _gemini(ws, {"command": CMD, "directory": "memory"}),
}


@pytest.mark.xfail(strict=True, reason="finding R12-24")
@pytest.mark.parametrize("build", CALLS.values(), ids=CALLS.keys())
def test_a_write_in_the_tools_working_directory_is_judged_there(ws: Path, build) -> None:
    host, payload, event = build(ws)
    assert send(host, payload, event).blocked


def test_the_same_command_from_the_memory_directory_as_cwd_is_denied(ws: Path) -> None:
    host, payload, event = _codex(ws, {"command": ["bash", "-lc", CMD]})
    payload["cwd"] = str(ws / "memory")
    assert send(host, payload, event).blocked


def test_the_same_command_at_the_root_is_allowed(ws: Path) -> None:
    host, payload, event = _codex(ws, {"command": ["bash", "-lc", CMD]})
    assert not send(host, payload, event).blocked
