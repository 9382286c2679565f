"""Session events through the real hook: provenance at the prompt, context at start, GC across three sessions."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gate_helpers import run_hook, write_payload

pytest.importorskip("tiers.gc", reason="sessions and GC (issue 3) not in this build")

HYP = "- The staging deploy probably fails because of a stale cache."


def _claude(event: str, ws, sid: str, **extra) -> dict:
    return {"hook_event_name": event, "session_id": sid, "cwd": str(ws), "transcript_path": "/tmp/t.jsonl", **extra}


def _write_through_gate(ws, host: str, sid: str, line: str) -> str:
    before = (ws / "MEMORY.md").read_text(encoding="utf-8")
    payload, event = write_payload(host, ws, "MEMORY.md", before + line + "\n", session=sid)
    out = run_hook(host, payload, event)
    assert not out.blocked, out.reason
    if out.rewritten is not None:
        (ws / "MEMORY.md").write_text(out.rewritten["content"], encoding="utf-8")
    else:
        (ws / "MEMORY.md").write_text(before + line + "\n", encoding="utf-8")
        post = {**payload, "hook_event_name": "PostToolUse"}
        run_hook(host, post)
    return before


def _session_number(ws) -> int:
    return json.loads((ws / ".cuticle" / "session.json").read_text())["counter"]


def test_claude_hypothesis_expires_after_its_ttl_across_three_sessions(ws):
    (ws / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 2\n", encoding="utf-8")
    assert run_hook("claude", _claude("SessionStart", ws, "s1", source="startup")).code == 0
    before = _write_through_gate(ws, "claude", "s1", HYP)
    stamped = (ws / "MEMORY.md").read_text(encoding="utf-8").splitlines()[-1]
    assert stamped.startswith(HYP + " <!--cu:H") and "@1~2#" in stamped
    run_hook("claude", _claude("SessionEnd", ws, "s1", reason="prompt_input_exit"))
    assert _session_number(ws) == 2
    run_hook("claude", _claude("SessionStart", ws, "s2", source="startup"))
    assert HYP in (ws / "MEMORY.md").read_text(encoding="utf-8")  # still live in session 2
    run_hook("claude", _claude("SessionEnd", ws, "s2", reason="other"))
    run_hook("claude", _claude("SessionEnd", ws, "s2", reason="other"))  # a duplicate end never advances twice
    assert _session_number(ws) == 3
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before  # collected; every other byte unchanged
    archive = (ws / ".cuticle").rglob("*")
    assert any(HYP in p.read_text(encoding="utf-8", errors="replace") for p in archive if p.is_file()
               and p.suffix in (".jsonl", ".json", ".md"))
    run_hook("claude", _claude("SessionStart", ws, "s3", source="startup"))
    assert _session_number(ws) == 3


SESSION_DECISION = "- Decided with the user: for this session, use the mock payment API."
DATED_DECISION = "- Decided with the user: use the old invoice template until 2020-01-15."


def _gc(ws, *args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "gate", "gc", "--workspace", str(ws), "--json", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_decision_whose_scope_ended_is_collected_by_cuticle_gc_and_restored(ws):
    """Written through the hook from the user's words, a DECISION bound to a date binds until that date and one
    bound to the session until the session is over; then `cuticle gc` archives it and `--restore` puts it back."""
    run_hook("claude", _claude("SessionStart", ws, "s1", source="startup"))
    run_hook("claude", _claude("UserPromptSubmit", ws, "s1", prompt="Decided: for this session, use the mock "
                               "payment API, and use the old invoice template until 2020-01-15."))
    before = _write_through_gate(ws, "claude", "s1", SESSION_DECISION)
    _write_through_gate(ws, "claude", "s1", DATED_DECISION)
    lines = (ws / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert lines[-2].startswith(SESSION_DECISION + " <!--cu:C") and lines[-1].startswith(DATED_DECISION + " <!--cu:C")
    first = _gc(ws)  # session 1: the date bound has passed, the session bound has not
    assert [r["text"].split(" <!--")[0] for r in first["removed"]] == [DATED_DECISION]
    assert "date bound 2020-01-15 passed" in first["removed"][0]["reason"]
    subprocess.run([sys.executable, "-m", "gate", "session", "--workspace", str(ws), "--end", "s1"], check=True,
                   capture_output=True, timeout=120)  # the counter only: GC is this test's to run
    second = _gc(ws)
    assert [r["text"].split(" <!--")[0] for r in second["removed"]] == [SESSION_DECISION]
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before  # every other byte unchanged
    archived = {r["id"]: r for r in _gc(ws, "--archive")["archive"]}
    assert set(archived) == {first["removed"][0]["id"], second["removed"][0]["id"]}
    back = _gc(ws, "--restore", second["removed"][0]["id"])
    assert back["text"].startswith(SESSION_DECISION + " <!--cu:C") and "@2" in back["text"]  # live in session 2
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before + back["text"] + "\n"
    assert _gc(ws, "--dry-run")["removed"] == []
    run_hook("claude", _claude("SessionEnd", ws, "s2", reason="other"))  # the hook's own GC at session end
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before


def test_codex_without_an_end_event_collects_at_the_next_session_starts(ws):
    (ws / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 1\n", encoding="utf-8")
    start = {"cwd": str(ws), "hook_event_name": "SessionStart", "model": "gpt-5.4", "source": "startup"}
    run_hook("codex", {**start, "session_id": "t1"})
    before = _write_through_gate(ws, "codex", "t1", HYP)
    assert "<!--cu:H" in (ws / "MEMORY.md").read_text(encoding="utf-8")
    run_hook("codex", {**start, "session_id": "t2"})
    assert _session_number(ws) == 2
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before
    run_hook("codex", {**start, "session_id": "t3"})
    assert _session_number(ws) == 3


@pytest.mark.parametrize(
    "host, payload, event",
    [
        ("gemini", {"hook_event_name": "SessionStart", "source": "startup", "session_id": "g1", "timestamp": "t"}, None),
        ("copilot", {"timestamp": 1704614400000, "source": "new", "initialPrompt": "Create a new feature"}, "sessionStart"),
        ("cursor", {"hook_event_name": "sessionStart", "conversation_id": "c1"}, None),
        ("openclaw", {"event": {"sessionId": "abc", "sessionKey": "agent:main:main", "resumedFrom": "old"},
                      "ctx": {"agentId": "main", "sessionId": "abc"}}, "session_start"),
    ],
    ids=["gemini", "copilot", "cursor", "openclaw"],
)
def test_session_start_registers_the_session_in_every_host(ws, host, payload, event):
    payload = {**payload, "cwd": str(ws)} if host != "cursor" else {**payload, "workspace_roots": [str(ws)]}
    if host == "openclaw":
        payload["workspaceDir"] = str(ws)
    out = run_hook(host, payload, event)
    assert out.code == 0 and out.stderr == ""
    assert _session_number(ws) == 1


@pytest.mark.parametrize(
    "host, payload, event",
    [
        ("gemini", {"hook_event_name": "SessionEnd", "reason": "exit", "session_id": "g1", "timestamp": "t"}, None),
        ("copilot", {"timestamp": 1, "sessionId": "cp1", "reason": "complete"}, "sessionEnd"),
        ("cursor", {"hook_event_name": "sessionEnd", "conversation_id": "c1"}, None),
        ("openclaw", {"event": {"sessionId": "abc", "messageCount": 42, "reason": "new", "nextSessionId": "def"},
                      "ctx": {"agentId": "main", "sessionId": "abc"}}, "session_end"),
    ],
    ids=["gemini", "copilot", "cursor", "openclaw"],
)
def test_session_end_advances_the_counter_in_every_host(ws, host, payload, event):
    payload = {**payload, "cwd": str(ws)} if host != "cursor" else {**payload, "workspace_roots": [str(ws)]}
    if host == "openclaw":
        payload["workspaceDir"] = str(ws)
    assert run_hook(host, payload, event).code == 0
    assert _session_number(ws) == 2


@pytest.mark.parametrize(
    "host, event_name, key",
    [("claude", "SessionStart", "additionalContext"), ("codex", "SessionStart", "additionalContext"),
     ("gemini", "SessionStart", "additionalContext"), ("cursor", "sessionStart", "additional_context"),
     ("openclaw", "before_prompt_build", "prependSystemContext")],
    ids=["claude", "codex", "gemini", "cursor", "openclaw-prompt-build"],
)
def test_session_start_injects_the_rendered_personality(ws, host, event_name, key):
    pytest.importorskip("personality.api", reason="personality (issue 7) not in this build")
    add = subprocess.run([sys.executable, "-m", "gate", "contribute", "--workspace", str(ws), "--type", "behavioral",
                          "--claim", "Show the command first, then explain it briefly.", "--confidence", "0.9"],
                         capture_output=True, text=True)
    assert add.returncode == 0, add.stderr
    if host == "openclaw":
        payload = {"hook": event_name, "workspaceDir": str(ws), "event": {"prompt": "hi"}, "ctx": {"sessionId": "a"}}
    elif host == "cursor":
        payload = {"hook_event_name": event_name, "conversation_id": "c1", "workspace_roots": [str(ws)]}
    else:
        payload = {"hook_event_name": event_name, "source": "startup", "session_id": "s1", "cwd": str(ws),
                   "timestamp": "t", "model": "m"}
    out = run_hook(host, payload)
    j = out.json
    text = (j.get("hookSpecificOutput") or {}).get(key) if host in ("claude", "codex", "gemini") else j.get(key)
    assert text and "Show the command first" in text
    assert (ws / "PERSONALITY.md").is_file()


def test_user_prompt_is_recorded_for_provenance_but_not_logged(ws):
    secretish = "remember that my staging password is hunter2-hunter2"
    out = run_hook("claude", _claude("UserPromptSubmit", ws, "s1", prompt=secretish))
    assert (out.code, out.stdout) == (0, "")
    log = ws / ".cuticle" / "events.jsonl"
    assert not log.exists() or "hunter2" not in log.read_text()


@pytest.mark.parametrize(
    "host, payload, event",
    [
        ("gemini", {"hook_event_name": "BeforeAgent", "prompt": "use fish", "session_id": "g1", "timestamp": "t"}, None),
        ("copilot", {"timestamp": 1, "prompt": "use fish"}, "userPromptSubmitted"),
        ("cursor", {"hook_event_name": "beforeSubmitPrompt", "conversation_id": "c1", "prompt": "use fish"}, None),
        ("openclaw", {"event": {"prompt": "use fish", "sessionId": "abc"}, "ctx": {"sessionId": "abc"}}, "llm_input"),
        ("codex", {"hook_event_name": "UserPromptSubmit", "prompt": "use fish", "session_id": "t1", "model": "m"}, None),
    ],
    ids=["gemini-before-agent", "copilot", "cursor", "openclaw-llm-input", "codex"],
)
def test_prompt_events_never_block(ws, host, payload, event):
    payload = {**payload, "cwd": str(ws)} if host != "cursor" else {**payload, "workspace_roots": [str(ws)]}
    if host == "openclaw":
        payload["workspaceDir"] = str(ws)
    out = run_hook(host, payload, event)
    assert out.code == 0 and not out.blocked
    if host == "cursor":
        assert out.json == {"continue": True}


@pytest.mark.parametrize(("payload_extra", "reason"), [
    ({"reason": "clear"}, "clear"),
    ({}, "session_end"),
], ids=["claude-end-reason-is-kept", "no-reason-falls-back-to-session-end"])
def test_session_end_queues_a_reflection(ws: Path, payload_extra: dict, reason: str) -> None:
    from personality import pending
    from tiers.workspace import Workspace

    body = {"session_id": "s-reflect", "cwd": str(ws), "hook_event_name": "SessionEnd", **payload_extra}
    hook = run_hook("claude", body)
    assert hook.code == 0, hook.stderr
    queued = pending(Workspace(ws))
    assert [(m["sessionKey"], m["reason"]) for m in queued] == [("s-reflect", reason)]
