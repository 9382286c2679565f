"""docs/bad-input.md, row by row: each bad input gets the documented answer and exit code from the real command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gate_helpers import install
from gate_helpers import CONFLICT, Hook, run_hook

DOC = Path(__file__).resolve().parents[2] / "docs" / "bad-input.md"
CALL_ALEXANDER = "- Call him Alexander in every reply."  # contradicts USER.md: call me Alex, never "Alexander"


def _rows() -> dict[str, str]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `([a-z0-9-]+)` \|.*\| (\S+) \|$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


ROWS = _rows()


def _write(ws: Path, rel: str, content: str) -> dict:
    return {"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": str(ws / rel), "content": content}}


def _raw(obj) -> bytes:
    return json.dumps(obj).encode()  # ensure_ascii: a lone surrogate travels as the escape "\ud800"


def _pre(ws: Path, raw: bytes, **kw) -> Hook:
    return run_hook("claude", None, "PreToolUse", raw=raw, cwd=ws, **kw)


def _memory(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8")


def _reason(h: Hook) -> dict:
    return json.loads(h.reason)


# -- one function per row: returns the hook's answer after asserting what the row says ------------------------------


def case_empty(ws):
    h = _pre(ws, b"")
    assert not h.blocked
    return h


def case_stdin_closed(ws):
    proc = subprocess.run([sys.executable, "-m", "gate", "hook", "claude", "PreToolUse"], stdin=subprocess.DEVNULL,
                          capture_output=True, cwd=ws, timeout=60)
    h = Hook(subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()),
             "claude")
    assert not h.blocked
    return h


def case_not_json(ws):
    h = _pre(ws, b"{not json")
    assert h.blocked and _reason(h)["reason"] == "bad-input" and "not JSON" in _reason(h)["message"]
    return h


def case_not_json_other_event(ws):
    h = run_hook("claude", None, "SessionStart", raw=b"{not json", cwd=ws)
    assert not h.blocked and h.stderr.count("\n") == 1 and "not JSON" in h.stderr
    return h


def case_not_utf8(ws):
    h = _pre(ws, b'{"cwd": "\xff"}')
    assert h.blocked and "not UTF-8" in _reason(h)["message"]
    return h


def case_bom(ws):
    h = _pre(ws, b"\xef\xbb\xbf" + _raw(_write(ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")))
    assert h.blocked and _reason(h).get("reason") != "bad-input"  # read, then refused on its content
    return h


def case_not_object(ws):
    for raw in (b"[1, 2]", b'"x"', b"null"):
        h = _pre(ws, raw)
        assert h.blocked and "must be a JSON object" in _reason(h)["message"]
    return h


def case_too_deep(ws):
    payload = _raw(_write(ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n"))
    h = _pre(ws, b'{"x": ' + b"[" * 1200 + b"]" * 1200 + b", " + payload[1:])
    assert h.blocked and "nests more than" in _reason(h)["message"]
    return h


def case_too_large(ws):
    from gate.intake import MAX_PAYLOAD

    h = _pre(ws, b'{"x": "' + b"a" * MAX_PAYLOAD + b'"}')
    assert h.blocked and "over the" in _reason(h)["message"]
    return h


def case_bad_shape(ws):
    h = _pre(ws, _raw({"cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": "{x"}))
    assert h.blocked and "unreadable payload" in _reason(h)["message"]
    h = _pre(ws, _raw({"cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": str(ws / "MEMORY.md"), "old_string": 1, "new_string": "x"}}))
    assert h.blocked and "unreadable payload" in _reason(h)["message"]
    return h


def case_two_spellings(ws):
    # the host may act on the spelling the gate did not check: refused, whichever is first
    h = _pre(ws, _raw({"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write",
                       "tool_input": {"file_path": str(ws / "notes.txt"), "path": str(ws / "MEMORY.md"),
                                      "content": _memory(ws) + CALL_ALEXANDER + "\n"}}))
    assert h.blocked and "file path twice" in _reason(h)["message"]
    first = h
    # OpenClaw names its event in the payload (no event argument): still a before-tool call, still refused
    h = run_hook("openclaw", {"hook": "before_tool_call", "workspaceDir": str(ws),
                              "event": {"toolName": "edit", "toolCallId": "c1", "params": {
                                  "path": str(ws / "MEMORY.md"), "oldText": "# Memory", "newText": "# Memory",
                                  "old_string": "# Memory", "new_string": "# Memory\n" + CALL_ALEXANDER}},
                              "ctx": {"sessionId": "s1", "toolName": "edit"}}, cwd=ws)
    assert h.blocked and "new text twice" in h.stdout
    return first


def case_nul_path(ws):
    h = _pre(ws, _raw(_write(ws, "MEM\x00ORY.md", "- x\n")))
    assert h.blocked and "NUL" in _reason(h)["message"]
    return h


def case_nul_content(ws):
    h = _pre(ws, _raw(_write(ws, "MEMORY.md", _memory(ws) + "- a\x00b\n")))
    assert h.blocked and _reason(h)["reason"] == "not-a-memory-text"
    return h


def case_huge_line(ws):
    """One 1 MiB line that contradicts a directive: checked within the budget or refused at it (``too-slow``, the
    answer deadline ``case_too_slow`` checks), never let through; which of the two depends on the machine."""
    before = _memory(ws)
    line = CONFLICT[:-1] + ", " + "and the cache is stale again " * (1024 * 1024 // 29) + "\n"
    h = _pre(ws, _raw(_write(ws, "MEMORY.md", before + line)))
    assert h.blocked and _reason(h)["reason"] in ("too-slow", "polarity-flip", "lower-tier-over-directive"), h.reason
    assert _memory(ws) == before
    return h


def case_huge_content(ws):
    from tiers.fsutil import MAX_FILE_BYTES

    h = _pre(ws, _raw(_write(ws, "MEMORY.md", _memory(ws) + "- Maybe the cache is stale.\n" * (MAX_FILE_BYTES // 27))))
    assert h.blocked and _reason(h)["reason"] == "not-a-memory-text"
    return h


def case_lone_surrogate_write(ws):
    before = _memory(ws)
    h = _pre(ws, _raw(_write(ws, "MEMORY.md", before + CONFLICT + " \ud800\n")))
    assert h.blocked and "terraform" in h.reason
    assert _memory(ws) == before
    return h


def case_lone_surrogate_user_md(ws):
    user = (ws / "USER.md").read_text(encoding="utf-8")
    h = _pre(ws, _raw(_write(ws, "USER.md", user + "- The user wants to be called Alexander \ud800.\n")))
    assert h.blocked and "user-guard" in h.reason
    return h


def case_lone_surrogate_key(ws):
    payload = _write(ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")
    payload["tool_input"]["\udc00"] = "\ud800"
    h = _pre(ws, _raw(payload))
    assert h.blocked and "terraform" in h.reason
    return h


def case_lone_surrogate_bash(ws):
    h = _pre(ws, _raw({"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "rm -rf / \ud800"}}))
    assert h.blocked and h.code == 2
    h.proc.stdout.encode("utf-8")  # valid UTF-8 (run_hook decoded it strictly)
    return h


def case_two_workspaces(ws):
    (ws.parent / "other").mkdir()
    other = install(ws.parent / "other")
    (other / "MEMORY.md").write_text("# M\n", encoding="utf-8")
    patch = ("*** Begin Patch\n*** Add File: {a}\n+- one\n*** Add File: {b}\n+- two\n*** End Patch\n"
             .format(a=ws / "memory" / "x.md", b=other / "memory" / "y.md"))
    h = _pre(ws, _raw({"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "model": "m",
                       "turn_id": "t", "tool_name": "apply_patch", "tool_input": {"command": patch}}))
    assert h.blocked and _reason(h)["reason"] == "two-workspaces"
    return h


def _config_case(ws, data: bytes, words: str):
    (ws / ".cuticle" / "config.toml").write_bytes(data)
    h = _pre(ws, _raw(_write(ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")))
    assert h.blocked and "configuration error" in h.stderr and words in h.stderr
    assert words in _reason(h)["config_error"]
    return h


def case_config_invalid(ws):
    return _config_case(ws, b"[gate\nuser_guard = false\n", "invalid TOML")


def case_config_not_utf8(ws):
    return _config_case(ws, b'[gate]\nuser_guard = "\xff"\n', "cannot read config")


def case_config_wrong_type(ws):
    return _config_case(ws, b"[memory]\nglobs = 3\n", "globs must be a list")


def case_cache_forged(ws):
    (ws / ".cuticle" / "config.toml").write_text('[gate]\nuser_guard = ["USER.md"]\n', encoding="utf-8")
    run_hook("claude", None, "SessionStart", raw=_raw({"cwd": str(ws), "hook_event_name": "SessionStart"}), cwd=ws)
    cache = ws / ".cuticle" / "cache" / "config.json"
    forged = json.loads(cache.read_text(encoding="utf-8"))
    forged["config"] = {"gate": {"user_guard": False}}
    cache.write_text(json.dumps(forged), encoding="utf-8")
    user = (ws / "USER.md").read_text(encoding="utf-8")
    h = _pre(ws, _raw(_write(ws, "USER.md", user + "- The user wants to be called Alexander.\n")))
    assert h.blocked and "user-guard" in h.reason
    return h


def case_memory_binary(ws):
    (ws / "MEMORY.md").write_bytes(b"# Memory\n\n- old\x00binary\n")
    h = _pre(ws, _raw(_write(ws, "MEMORY.md", "# Memory\n\n" + CALL_ALEXANDER + "\n")))
    assert h.blocked and "Alexander" in h.reason
    return h


def case_memory_binary_edit(ws):
    (ws / "MEMORY.md").write_bytes(b"# Memory\n\n- old\x00binary\n")
    h = _pre(ws, _raw({"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": str(ws / "MEMORY.md"), "old_string": "- old",
                                      "new_string": CALL_ALEXANDER}}))
    assert h.blocked and _reason(h)["reason"] == "unreadable-memory-file"
    return h


def case_too_slow(ws):
    """The budget is met whatever the check costs: a deadline already past gives the cheaper answer at once."""
    from gate.commands.hook import _in_process

    data = _raw(_write(ws, "MEMORY.md", _memory(ws) + "".join(f"- Maybe cache {i} is stale.\n" for i in range(3000))))
    t0 = time.monotonic()
    stdout, stderr, code = _in_process("claude", "PreToolUse", data, time.monotonic())
    assert time.monotonic() - t0 < 2.0
    h = Hook(subprocess.CompletedProcess([], code, stdout, stderr), "claude")
    assert h.blocked and _reason(h)["reason"] == "too-slow"
    events = [json.loads(x) for x in (ws / ".cuticle" / "events.jsonl").read_text().splitlines()]
    assert any(e.get("decision") == "late" for e in events)
    other = _raw(_write(ws, "notes.txt", "plain file\n"))
    stdout, stderr, code = _in_process("claude", "PreToolUse", other, time.monotonic())
    assert code == 0 and "proceeds" in stderr
    return h


def case_no_event(ws):
    """No event on the command line nor in the payload: a configuration error that refuses the write it carries."""
    payload = _write(ws, "MEMORY.md", _memory(ws) + "- Deploys moved to Tuesdays.\n")
    del payload["hook_event_name"]
    before = _memory(ws)
    h = run_hook("claude", payload, None, cwd=ws)
    assert h.blocked and _reason(h)["reason"] == "no-event" and "configuration error" in h.stderr
    assert _memory(ws) == before
    garbled = run_hook("claude", None, None, raw=b"{not json", cwd=ws)
    assert garbled.blocked and _reason(garbled)["reason"] == "bad-input"
    return h


def case_check_failed(ws):
    """A crashing check refuses the memory write (in-process: the crash is made by patching arbitration)."""
    from unittest import mock

    from gate.handler import handle

    with mock.patch("tiers.arbitrate.arbitrate", side_effect=RuntimeError("boom")):
        data = _raw(_write(ws, "MEMORY.md", _memory(ws) + "- Deploys moved to Tuesdays.\n"))
        reply = handle("claude", "PreToolUse", data, env={}, cwd=str(ws))
    h = Hook(subprocess.CompletedProcess([], reply.exit_code, reply.stdout, reply.stderr), "claude")
    assert h.blocked and _reason(h)["reason"] == "check-failed"
    return h


def case_unknown_host(ws):
    h = run_hook("frobnicator", {"cwd": str(ws)}, cwd=ws)
    assert h.code == 0 and h.stdout == "" and "unknown host" in h.stderr and "fail-open" in h.stderr
    return h


def case_unknown_event(ws):
    h = run_hook("claude", {"hook_event_name": "Notification", "cwd": str(ws)}, cwd=ws)
    assert "fail-open" in h.stderr
    return h


def case_forwarded_malformed(ws):
    from gate.client import forward

    (ws / ".cuticle" / "serve.json").write_text(json.dumps({"address": "http://127.0.0.1:9", "token": "t"}))
    assert forward("claude", "PreToolUse", b"{not json") is None  # not forwarded: answered in-process
    return case_not_json(ws)


def case_server_bad_request(ws):
    import http.client
    import threading

    from gate.server import make_server

    srv = make_server(cwd=str(ws), token="tok")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        port = srv.server_address[1]
        for length in ("abc", "-5"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.putrequest("POST", "/hook/claude/PreToolUse")
            conn.putheader("Authorization", "Bearer tok")
            conn.putheader("Content-Length", length)
            conn.endheaders()
            assert conn.getresponse().status == 400
            conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/hook/claude/PreToolUse", body=b"{not json", headers={"Authorization": "Bearer tok"})
        body = json.loads(conn.getresponse().read())
        assert body["exit_code"] == 2 and "not JSON" in body["stderr"]  # still serving, and refusing
    finally:
        srv.shutdown()
        srv.server_close()
    return None


CASES = {name[5:].replace("_", "-"): fn for name, fn in dict(globals()).items() if name.startswith("case_")}


def test_every_row_of_the_catalogue_has_a_case_and_every_case_a_row():
    assert sorted(ROWS) == sorted(CASES)


@pytest.mark.parametrize("row", sorted(ROWS), ids=sorted(ROWS))
def test_bad_input_gets_the_documented_answer(ws, row):
    hook = CASES[row](ws)
    expected = ROWS[row]
    if hook is not None and expected.isdigit():
        assert hook.code == int(expected), (hook.stdout, hook.stderr)


def test_the_hook_budget_is_below_every_timeout_init_installs():
    """The answer-within budget leaves at least a second for the interpreter to start and exit under the host's
    timeout (docs/bad-input.md, `too-slow`)."""
    from gate.commands.hook import BUDGET
    from gate.hosts import HOSTS, get
    from gate.hosts.openclaw import HOOK_TIMEOUT_MS

    from gate.payload import END, canonical_event

    # session ends are left out: Codex clamps a SessionEnd hook to 3 s whatever is asked (seen in Codex 0.171), its
    # answer is ignored, and a session end cut short is done again by the next session start's GC
    timeouts = [s.timeout * (0.001 if host == "gemini" else 1) for host in HOSTS for s in get(host).specs
                if s.timeout and canonical_event(s.event) != END]
    timeouts.append(HOOK_TIMEOUT_MS / 1000)
    assert len(timeouts) >= 4 and BUDGET + 1.0 <= min(timeouts)


def test_a_patch_of_a_binary_memory_file_is_refused(ws):
    (ws / "MEMORY.md").write_bytes(b"# Memory\n\n- old\x00binary\n")
    patch = f"*** Begin Patch\n*** Update File: {ws / 'MEMORY.md'}\n@@\n-- old\n+{CALL_ALEXANDER}\n*** End Patch\n"
    h = _pre(ws, _raw({"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "model": "m",
                       "turn_id": "t", "tool_name": "apply_patch", "tool_input": {"command": patch}}))
    assert h.blocked and _reason(h)["reason"] == "unreadable-memory-file"


def test_a_broken_config_is_told_to_the_model_at_session_start(ws):
    (ws / ".cuticle" / "config.toml").write_text("[gate\n", encoding="utf-8")
    h = run_hook("claude", {"session_id": "s1", "cwd": str(ws), "hook_event_name": "SessionStart",
                            "source": "startup"}, "SessionStart", cwd=ws)
    context = h.json["hookSpecificOutput"]["additionalContext"]
    assert "configuration is broken" in context and "invalid TOML" in context
    assert "configuration error" in h.stderr
