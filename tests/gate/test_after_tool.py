"""After-tool events act only on calls the gate allowed, and only on the lines that call added (compared with
the pre-tool snapshot), for every host: ``gate.aftertool.after_tool``."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import send

from tiers.workspace import Workspace

USER_LINES = [f"- Note {i}: the ingest job number {i} runs nightly." for i in range(15)]
DIRECTIVE = "- User said: never deploy on Fridays."
NEW = "- The flaky login test is probably a race in the session cache."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir(parents=True)
    install(root)
    (root / "MEMORY.md").write_text("# Memory\n\n" + "\n".join([DIRECTIVE, *USER_LINES]) + "\n", encoding="utf-8")
    return root


def _memory(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8")


def _openclaw(ws: Path, hook: str, params: dict, *, call: str = "call_1", error: str | None = None) -> dict:
    event = {"toolName": "write", "toolCallId": call, "runId": "r1", "params": params}
    if error is not None:
        event["error"] = error
    return {"hook": hook, "workspaceDir": str(ws), "event": event,
            "ctx": {"agentId": "main", "sessionKey": "agent:main:main", "sessionId": "s1", "toolName": "write"}}


def _codex(ws: Path, content: str, *, event: str = "PreToolUse", call: str = "call_9", response=None) -> dict:
    p = {"session_id": "s1", "transcript_path": None, "cwd": str(ws), "hook_event_name": event, "model": "gpt-5.4",
         "turn_id": "u1", "tool_name": "Write", "tool_use_id": call,
         "tool_input": {"file_path": str(ws / "MEMORY.md"), "content": content}}
    if response is not None:
        p["tool_response"] = response
    return p


@pytest.mark.parametrize("with_error", [True, False], ids=["error-set", "no-error-field"])
def test_openclaw_after_tool_of_a_blocked_whole_file_write_changes_nothing(ws: Path, with_error: bool) -> None:
    before = _memory(ws)
    content = before + "- Deploying on Fridays is fine.\n"
    pre = send("openclaw", _openclaw(ws, "before_tool_call", {"path": "MEMORY.md", "content": content}))
    assert pre.blocked
    # OpenClaw fires after_tool_call for the blocked call; the file is as it was
    send("openclaw", _openclaw(ws, "after_tool_call", {"path": "MEMORY.md", "content": content},
                               error="blocked by plugin" if with_error else None))
    assert _memory(ws) == before
    assert "<!--cu:" not in _memory(ws)


def test_a_blocked_call_cannot_borrow_an_earlier_allowed_calls_snapshot(ws: Path) -> None:
    before = _memory(ws)
    ok = before + NEW + "\n"
    assert not send("codex", _codex(ws, ok, call="a")).blocked  # allowed; its post event never comes
    bad = before + "- Deploying on Fridays is fine.\n"
    assert send("codex", _codex(ws, bad, call="b")).blocked
    send("codex", _codex(ws, bad, event="PostToolUse", call="b", response={"success": True}))
    assert _memory(ws) == before


def test_an_after_tool_event_for_another_call_id_changes_nothing(ws: Path) -> None:
    before = _memory(ws)
    content = before + NEW + "\n"
    assert not send("codex", _codex(ws, content, call="a")).blocked
    (ws / "MEMORY.md").write_text(content, encoding="utf-8")
    send("codex", _codex(ws, content, event="PostToolUse", call="zzz", response={"success": True}))
    assert _memory(ws) == content


def test_a_failed_tool_call_is_not_stamped(ws: Path) -> None:
    before = _memory(ws)
    content = before + NEW + "\n"
    assert not send("codex", _codex(ws, content)).blocked
    (ws / "MEMORY.md").write_text(content, encoding="utf-8")  # (whatever the failing tool left)
    send("codex", _codex(ws, content, event="PostToolUse", response={"success": False, "error": "disk full"}))
    assert _memory(ws) == content


def test_only_the_lines_the_call_added_are_stamped_not_a_concurrent_writers(ws: Path) -> None:
    before = _memory(ws)
    content = before + NEW + "\n"
    assert not send("codex", _codex(ws, content)).blocked
    other = "- Another writer's line, written while the tool ran."
    (ws / "MEMORY.md").write_text(content + other + "\n", encoding="utf-8")
    send("codex", _codex(ws, content, event="PostToolUse", response={"success": True}))
    lines = _memory(ws).splitlines()
    assert lines[:-2] == before.splitlines()  # every old line byte-identical
    assert lines[-2].startswith(NEW + " <!--cu:H")
    assert lines[-1] == other


def test_an_allowed_call_is_stamped_once_and_its_snapshot_is_used_up(ws: Path) -> None:
    before = _memory(ws)
    content = before + NEW + "\n"
    assert not send("codex", _codex(ws, content)).blocked
    (ws / "MEMORY.md").write_text(content, encoding="utf-8")
    post = _codex(ws, content, event="PostToolUse", response={"success": True})
    send("codex", post)
    once = _memory(ws)
    assert once.count("<!--cu:") == 1
    (ws / "MEMORY.md").write_text(once + "- A line the user typed by hand.\n", encoding="utf-8")
    send("codex", post)  # a repeated after-tool event has no snapshot left
    assert _memory(ws) == once + "- A line the user typed by hand.\n"


def test_after_tool_is_the_shared_entry_point() -> None:
    from gate import aftertool

    assert callable(aftertool.after_tool) and "after_tool" in aftertool.__all__
