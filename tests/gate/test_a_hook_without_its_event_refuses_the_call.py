"""A hook command without its event argument (``cuticle hook claude``, hand-made: ``cuticle init`` always passes
the event) whose payload names no event either is a configuration error for every host: the call is refused in
the host's before-tool dialect, so a write it carries never goes through unchecked, and the reason says to
re-run ``cuticle init`` (docs/bad-input.md, ``no-event``). A payload that names its event is judged as usual."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gate_helpers import HOSTS, TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory, run_hook, write_payload  # noqa: E402

MEMORY = f"# Memory\n\n{TERRAFORM_RULE}\n"


def _nameless(host: str, ws: Path, content: str) -> dict:
    payload, _event = write_payload(host, ws, "MEMORY.md", content)
    payload.pop("hook_event_name", None)
    payload.pop("hook", None)  # OpenClaw's name of the event
    return payload


def _reason(hook) -> dict:
    return json.loads(hook.reason) if (hook.reason or "").startswith("{") else {}


@pytest.mark.parametrize("host", HOSTS)
def test_a_contradiction_without_any_event_name_is_refused(tmp_path: Path, host: str) -> None:
    ws = installed_with_memory(tmp_path, MEMORY)
    hook = run_hook(host, _nameless(host, ws, MEMORY + TERRAFORM_FLIP + "\n"), None, cwd=ws)
    assert hook.blocked, (hook.stdout, hook.stderr)
    assert _reason(hook).get("reason") == "no-event"
    assert "cuticle init" in _reason(hook).get("message", "")
    events = [json.loads(x) for x in (ws / ".cuticle" / "events.jsonl").read_text().splitlines()]
    assert events[-1].get("config_error") and events[-1].get("decision") == "block"
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == MEMORY


@pytest.mark.parametrize("host", HOSTS)
def test_an_unreadable_payload_without_any_event_name_is_refused(tmp_path: Path, host: str) -> None:
    ws = installed_with_memory(tmp_path, MEMORY)
    hook = run_hook(host, None, None, raw=b'{"tool_name": "Write", ', cwd=ws)
    assert hook.blocked, (hook.stdout, hook.stderr)
    assert _reason(hook).get("reason") == "bad-input"


def test_a_late_answer_without_any_event_name_refuses_a_memory_write(tmp_path: Path) -> None:
    from gate.handler import late_answer

    ws = installed_with_memory(tmp_path, MEMORY)
    payload = _nameless("claude", ws, MEMORY + TERRAFORM_FLIP + "\n")
    reply = late_answer("claude", None, json.dumps(payload).encode(), 2.0, env={}, cwd=str(ws))
    assert reply.exit_code == 2 and "too-slow" in reply.stdout


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "cursor", "openclaw"])
def test_a_payload_that_names_its_event_needs_no_argument(tmp_path: Path, host: str) -> None:
    ws = installed_with_memory(tmp_path, MEMORY)
    payload, event = write_payload(host, ws, "MEMORY.md", MEMORY + "- The deploy moved to Tuesdays.\n")
    assert event is None  # these hosts name the event in the payload
    hook = run_hook(host, payload, None, cwd=ws)
    assert not hook.blocked, (hook.stdout, hook.stderr)
