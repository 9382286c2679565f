"""After-tool events act only on calls the gate allowed, and only on the lines that call added (compared with
the pre-tool snapshot), for every host: ``gate.aftertool.after_tool``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_helpers import HOSTS, install
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


# -- every host: the same after-tool step behind each host's own post event -------------------------------------
def _host_calls(ws: Path, host: str, content: str, call: str) -> tuple[dict, str | None, dict, str | None]:
    """(pre payload, event arg, post payload, event arg) of one whole-file write of MEMORY.md in ``host``'s shape."""
    from gate_helpers import write_payload

    pre, event = write_payload(host, ws, "MEMORY.md", content)
    post = json.loads(json.dumps(pre))
    if host == "openclaw":
        post["hook"] = "after_tool_call"
        post["event"]["toolCallId"] = pre["event"]["toolCallId"] = call
        post["event"]["result"] = {"ok": True}
        return pre, event, post, event
    if host == "copilot":
        post["toolResult"] = {"resultType": "success", "textResultForLlm": "written"}
        return pre, "preToolUse", post, "postToolUse"
    for p in (pre, post):
        if "tool_use_id" in p:
            p["tool_use_id"] = call
    post["hook_event_name"] = {"claude": "PostToolUse", "codex": "PostToolUse", "gemini": "AfterTool",
                               "cursor": "postToolUse"}[host]
    post["tool_response"] = {"success": True}
    return pre, event, post, event


def _written_content(host: str, reply, content: str) -> str:
    """What the host's tool writes: the rewritten arguments when the gate replaced them, else the call's own."""
    body = json.loads(reply.stdout) if reply.stdout.strip() else {}
    args = {"claude": (body.get("hookSpecificOutput") or {}).get("updatedInput"),
            "gemini": (body.get("hookSpecificOutput") or {}).get("tool_input"),
            "cursor": body.get("updated_input"), "openclaw": body.get("params")}.get(host)
    if not args:
        return content
    return args.get("content", args.get("contents", content))


@pytest.mark.parametrize("host", HOSTS)
def test_after_tool_of_a_blocked_write_changes_nothing_in_every_host(ws: Path, host: str) -> None:
    before = _memory(ws)
    pre, pre_event, post, post_event = _host_calls(ws, host, before + "- Deploying on Fridays is fine.\n", "c-bad")
    assert send(host, pre, pre_event).blocked
    send(host, post, post_event)  # the host's after-tool event arrives anyway (its tool did not run)
    assert _memory(ws) == before and "<!--cu:" not in before


@pytest.mark.parametrize("host", HOSTS)
def test_after_tool_stamps_only_the_line_the_call_added_in_every_host(ws: Path, host: str) -> None:
    before = _memory(ws)
    content = before + NEW + "\n"
    pre, pre_event, post, post_event = _host_calls(ws, host, content, "c-ok")
    first = send(host, pre, pre_event)
    assert not first.blocked, first.reason
    other = "- Another writer's line, written while the tool ran."
    (ws / "MEMORY.md").write_text(_written_content(host, first.reply, content) + other + "\n", encoding="utf-8")
    send(host, post, post_event)
    lines = _memory(ws).splitlines()
    assert lines[:-2] == before.splitlines()  # every old line byte-identical, none re-labelled as the agent's
    assert lines[-2].startswith(NEW + " <!--cu:H") and lines[-2].count("<!--cu:") == 1
    assert lines[-1] == other
