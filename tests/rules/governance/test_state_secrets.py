"""Self-protection covers reads of cuticle's own secrets: the stamp key and the local server's token."""

from __future__ import annotations

import pytest

from rules.governance import evaluate_call
from rules.model import ToolCall


@pytest.mark.parametrize("command", [
    "cat .cuticle/key",
    "cp .cuticle/key /tmp/k",
    "base64 < .cuticle/serve.json",
    "cd .cuticle && cat key",
    "python3 -c \"print(open('.cuticle/key').read())\"",
], ids=["cat-the-key", "copy-the-key-out", "stdin-redirect-of-the-server-token", "cd-then-cat",
        "interpreter-reads-the-key"])
def test_reading_the_stamp_key_or_server_token_is_denied(ws, command: str) -> None:
    ev = evaluate_call(ToolCall(tool="Bash", kind="shell", command=command), ws)
    assert ev.decision == "deny", ev.to_json()
    assert ev.rule == "no-governance-self-modification"


def test_the_read_tool_on_the_key_is_denied(ws) -> None:
    ev = evaluate_call(ToolCall(tool="Read", kind="read", paths=(".cuticle/key",)), ws)
    assert (ev.decision, ev.rule) == ("deny", "no-governance-self-modification")


@pytest.mark.parametrize("command", [
    "cat .cuticle/config.toml",
    "ls .cuticle",
    "wc -l < MEMORY.md",
    "grep -n key notes.txt",
], ids=["config-is-readable", "listing-state-is-fine", "stdin-redirect-of-memory-is-a-read", "the-word-key-is-not-the-key"])
def test_other_state_and_memory_reads_stay_allowed(ws, command: str) -> None:
    ev = evaluate_call(ToolCall(tool="Bash", kind="shell", command=command), ws)
    assert ev.decision == "allow", ev.to_json()
