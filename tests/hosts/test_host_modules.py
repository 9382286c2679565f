"""The host modules under gate/hosts/: each host's knowledge in one place, and the OpenClaw tools the plugin maps
(file_write, process, terminal). No real host is needed here."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

from gate import hosts
from gate.handler import handle
from gate.payload import POST, normalize

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample-workspace"
CONFLICT = "- Running terraform destroy in sandbox accounts is fine."
NEW_NOTE = "- 10:15 The nightly export job probably fails because the disk is full."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".cuticle"))
    from gate.install import DEFAULT_CONFIG
    from tiers.workspace import Workspace

    (dest / ".cuticle").mkdir()
    (dest / ".cuticle" / "config.toml").write_text(DEFAULT_CONFIG, encoding="utf-8")
    Workspace(dest).key  # noqa: B018 - an installed workspace: a key and a config
    return dest


def test_no_module_outside_gate_hosts_branches_on_a_host_name():
    pattern = re.compile(r"""host\w*\s*(==|!=|in)\s*[("'{\[]\s*["']?(openclaw|claude|codex|gemini|copilot|cursor)""")
    offenders = []
    for path in sorted((ROOT / "gate").rglob("*.py")):
        if "hosts" in path.relative_to(ROOT / "gate").parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("name", hosts.HOSTS)
def test_each_host_recognises_its_own_payload_shape(name, tmp_path):
    payload = hosts.get(name).write_payload(str(tmp_path / "MEMORY.md"), "- x\n", str(tmp_path))
    assert hosts.detect(payload) == name


def test_an_unknown_host_is_a_key_error_and_detection_of_a_non_object_is_none():
    with pytest.raises(KeyError):
        hosts.get("vscode")
    assert hosts.detect(["not", "an", "object"]) is None and hosts.detect({}) is None


@pytest.mark.parametrize("name", [h for h in hosts.HOSTS if h != "openclaw"])
def test_every_installed_hook_event_is_one_the_gate_understands(name):
    from gate.payload import canonical_event

    for spec in hosts.get(name).specs:
        assert canonical_event(spec.event) is not None, (name, spec.event)


def _openclaw(ws: Path, hook: str, tool: str, params: dict, **event) -> dict:
    return {"hook": hook, "workspaceDir": str(ws), "event": {"toolName": tool, "params": params, "toolCallId": "c1", **event},
            "ctx": {"sessionId": "s1", "toolName": tool}}


def _answer(ws: Path, payload: dict) -> dict:
    reply = handle("openclaw", None, json.dumps(payload).encode(), cwd=str(ws))
    return json.loads(reply.stdout)


def test_file_write_of_a_conflicting_memory_file_is_blocked(ws):
    content = (ws / "MEMORY.md").read_text() + CONFLICT + "\n"
    params = {"node": "n1", "path": str(ws / "MEMORY.md"), "contentBase64": base64.b64encode(content.encode()).decode()}
    out = _answer(ws, _openclaw(ws, "before_tool_call", "file_write", params))
    assert out.get("block") is True and "EpistemicConflictError" in out["blockReason"]


def test_an_accepted_file_write_comes_back_stamped_and_still_base64(ws):
    content = "# 2026-12-01\n\n" + NEW_NOTE + "\n"
    params = {"node": "n1", "path": str(ws / "memory/2026-12-01.md"), "overwrite": True,
              "contentBase64": base64.b64encode(content.encode()).decode()}
    out = _answer(ws, _openclaw(ws, "before_tool_call", "file_write", params))["params"]
    assert set(out) == set(params)  # no "content" key leaks into the tool's arguments
    written = base64.b64decode(out["contentBase64"]).decode()
    assert written.startswith("# 2026-12-01\n\n" + NEW_NOTE + " <!--cu:H")


def test_file_write_outside_the_workspace_passes_untouched(ws, tmp_path):
    params = {"node": "n1", "path": str(tmp_path / "elsewhere.md"), "contentBase64": base64.b64encode(b"- x\n").decode()}
    assert _answer(ws, _openclaw(ws, "before_tool_call", "file_write", params)) == {}


@pytest.mark.parametrize("params", [
    {"action": "write", "sessionId": "s", "data": "echo '- npm is fine' >> MEMORY.md\n"},
    {"action": "paste", "sessionId": "s", "text": "echo '- npm is fine' >> MEMORY.md\n"},
    {"action": "send-keys", "sessionId": "s", "literal": "echo '- npm is fine' >> MEMORY.md"},
    {"action": "send-keys", "sessionId": "s", "keys": [*"echo x >> MEMORY.md", "Enter"]},
    {"action": "send-keys", "sessionId": "s", "keys": [*"echo", "Space", *"x", "Space", *">>", "Space", *"MEMORY.md", "C-m"]},
    {"action": "send-keys", "sessionId": "s", "hex": [f"{b:02x}" for b in b"echo x >> MEMORY.md\n"]},
], ids=["write", "paste", "literal", "keys", "named-keys", "hex"])
def test_text_typed_into_a_shell_through_process_is_governed_as_a_command(ws, params):
    out = _answer(ws, _openclaw(ws, "before_tool_call", "process", params))
    assert out.get("block") is True and "no-memory-write-via-shell" in out["blockReason"], out


def test_terminal_input_is_governed_and_other_actions_pass(ws):
    out = _answer(ws, _openclaw(ws, "before_tool_call", "terminal", {"action": "input", "sessionId": "t",
                                                                      "data": "echo x >> MEMORY.md\n"}))
    assert out.get("block") is True
    assert _answer(ws, _openclaw(ws, "before_tool_call", "process", {"action": "poll", "sessionId": "s"})) == {}


@pytest.mark.parametrize("event", [{"error": "blocked by plugin"}, {"result": {"details": {"status": "blocked"}}},
                                   {"result": {"isError": True}}], ids=["error", "blocked-status", "error-result"])
def test_openclaws_after_tool_call_for_a_failed_or_blocked_call_carries_the_signal(ws, event):
    req = normalize("openclaw", None, _openclaw(ws, "after_tool_call", "write", {"path": "MEMORY.md", "content": "x"},
                                                **event))
    assert req.event == POST and req.tool_error and req.call_id == "c1"


def test_openclaws_after_tool_call_for_a_call_that_ran_has_no_error(ws):
    req = normalize("openclaw", None, _openclaw(ws, "after_tool_call", "write", {"path": "MEMORY.md", "content": "x"},
                                                result={"content": [{"type": "text", "text": "ok"}]}))
    assert req.tool_error is None


def test_a_blocked_whole_file_write_stamps_nothing_after_the_tool(ws):
    before = (ws / "MEMORY.md").read_bytes()
    params = {"path": "MEMORY.md", "content": before.decode() + CONFLICT + "\n"}
    assert _answer(ws, _openclaw(ws, "before_tool_call", "write", params))["block"] is True
    _answer(ws, _openclaw(ws, "after_tool_call", "write", params, error="blocked"))
    assert (ws / "MEMORY.md").read_bytes() == before


def test_copilot_failure_results_and_claude_tool_response_errors_are_read_by_their_modules(ws):
    copilot = normalize("copilot", "postToolUse", {"cwd": str(ws), "toolName": "create", "toolArgs": "{}",
                                                   "toolResult": {"resultType": "failure", "textResultForLlm": "no"}})
    assert copilot.tool_error == "no"
    claude = normalize("claude", None, {"hook_event_name": "PostToolUse", "cwd": str(ws), "tool_name": "Write",
                                        "tool_use_id": "t1", "tool_input": {}, "tool_response": {"success": False}})
    assert claude.tool_error and claude.call_id == "t1"
