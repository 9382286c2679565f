"""A tool call that names its target or its content twice, under two spellings a host accepts, is checked under
every spelling (or refused as ambiguous): the gate must not judge ``file_path`` while the host's tool writes
``path``. OpenClaw's file tools read ``path ?? file_path ?? filePath ?? file``; Cursor's argument names are
unverified (docs/hosts.md: every spelling is accepted). Through the real gate (``gate.handler.handle``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory
from hostsim import send

DIRECTIVE = TERRAFORM_RULE
CONFLICT = TERRAFORM_FLIP


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, f"# Memory\n\n{DIRECTIVE}\n")


def _openclaw(ws: Path, params: dict) -> dict:
    return {"hook": "before_tool_call", "workspaceDir": str(ws),
            "event": {"toolName": "write", "toolCallId": "c1", "runId": "r1", "params": params},
            "ctx": {"agentId": "main", "sessionKey": "agent:main:main", "sessionId": "s1", "toolName": "write"}}


def _cursor(ws: Path, tool: str, tool_input: dict) -> dict:
    return {"hook_event_name": "preToolUse", "conversation_id": "s1", "generation_id": "g1",
            "workspace_roots": [str(ws)], "tool_name": tool, "tool_input": tool_input}


def _bad(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8") + CONFLICT + "\n"


CASES = {
    # (host, payload builder, finding or None)
    "openclaw-path-names-memory": ("openclaw", lambda ws: _openclaw(ws, {
        "file_path": "notes.txt", "path": "MEMORY.md", "content": _bad(ws)}), None),
    "openclaw-file_path-names-memory": ("openclaw", lambda ws: _openclaw(ws, {
        "path": "notes.txt", "file_path": "MEMORY.md", "content": _bad(ws)}), None),
    "cursor-path-names-memory": ("cursor", lambda ws: _cursor(ws, "Write", {
        "file_path": str(ws / "notes.txt"), "path": str(ws / "MEMORY.md"), "contents": _bad(ws)}), None),
    "cursor-contents-beside-content": ("cursor", lambda ws: _cursor(ws, "Write", {
        "file_path": str(ws / "MEMORY.md"), "content": (ws / "MEMORY.md").read_text(encoding="utf-8"),
        "contents": _bad(ws)}), None),
    "cursor-old_str-beside-old_string": ("cursor", lambda ws: _cursor(ws, "StrReplace", {
        "file_path": str(ws / "MEMORY.md"), "old_string": "# Memory\n", "new_string": "# Memory\n",
        "old_str": "# Memory\n", "new_str": f"# Memory\n{CONFLICT}\n"}), None),
}


def _params():
    for cid, (host, build, finding) in CASES.items():
        marks = [pytest.mark.xfail(strict=True, reason=f"finding {finding}")] if finding else []
        yield pytest.param(host, build, id=cid, marks=marks)


@pytest.mark.parametrize(("host", "build"), list(_params()))
def test_every_spelling_of_a_target_or_content_is_checked(ws: Path, host: str, build) -> None:
    """Refused, or rewritten to arguments that carry only what was checked (the unchecked spelling dropped)."""
    ans = send(host, build(ws))
    if ans.blocked:
        return
    rewritten = ans.json.get("updated_input") if host == "cursor" else ans.json.get("params")
    assert rewritten is not None, ans.reply.stdout
    assert not any(isinstance(v, str) and CONFLICT in v for v in rewritten.values()), rewritten
