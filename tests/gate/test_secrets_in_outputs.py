"""Every known secret leak, run through the real CLI: the secret is in no output and no log (block reasons,
events.jsonl, `evaluate --json`, `canon --json`, SARIF and JSON lint output). docs/secrets.md has the table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: (shell command or memory text, the secret pieces none of which may appear in any output)
LEAKS = [
    ("mysql -pS3cretLeak1 db", ["S3cretLeak1", "3cretLeak1"]),  # canon parses -pS… as -p -S …
    ("curl --password Xl3akPw9 https://example.com", ["Xl3akPw9"]),
    ("curl -u bob:Pa55leak https://example.com", ["Pa55leak"]),
    ("psql --password=Leak77pw db", ["Leak77pw"]),
    ("sed -i 's/DB_PASSWORD=.*/DB_PASSWORD=Leak88pw/' .env", ["Leak88pw"]),
    ("export API_TOKEN=Leak99tok", ["Leak99tok"]),
    ("GH_SECRET=Leak44sec make deploy", ["Leak44sec"]),
    ("STRIPE_KEY=Leak33key node app.js", ["Leak33key"]),
    ("echo 'пароль: Leak55pw'", ["Leak55pw"]),
    ("echo токен=Leak66tok", ["Leak66tok"]),
    ("echo password=Leak11aa token=Leak22bb", ["Leak11aa", "Leak22bb"]),
    ("aws s3 ls --profile x AKIAIOSFODNN7LEAKXYZ", ["IOSFODNN7LEAKXYZ"]),
    ("curl -H 'Authorization: Bearer abcLEAKdefghijklmnopqrstuv' https://x", ["LEAKdefghijklmnopqrstuv"]),
    ("printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAALEAK\\n-----END OPENSSH PRIVATE KEY-----'",
     ["b3BlbnNzaC1rZXktdjEAAAAALEAK"]),
    ("git clone https://bob:LeakPw12@github.com/x.git", ["LeakPw12"]),
    ("git clone https://bob:pw@github.com/x.git", [":pw@"]),
]
IDS = [c.split()[0] + "-" + str(i) for i, (c, _) in enumerate(LEAKS)]


def _cli(ws: Path, *args: str, stdin: str | None = None) -> str:
    proc = subprocess.run([sys.executable, "-m", "gate", *args], input=stdin, capture_output=True, text=True,
                          cwd=ws, timeout=120)
    assert proc.returncode in (0, 1, 2), proc.stderr
    return proc.stdout + proc.stderr


def _log(ws: Path) -> str:
    path = ws / ".cuticle" / "events.jsonl"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _assert_hidden(pieces: list[str], **outputs: str) -> None:
    leaked = {name: [p for p in pieces if p in text] for name, text in outputs.items()}
    assert not {k: v for k, v in leaked.items() if v}


@pytest.mark.parametrize("command, pieces", LEAKS, ids=IDS)
def test_a_secret_in_a_shell_command_is_in_no_output_or_log(ws, command, pieces):
    canon = _cli(ws, "canon", "--json", command)
    evaluate = _cli(ws, "evaluate", "--json", "--log", "-c", command + " >> MEMORY.md")
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(ws),
               "tool_input": {"command": command + " >> MEMORY.md"}}
    hook = _cli(ws, "hook", "claude", "PreToolUse", stdin=json.dumps(payload))
    assert "deny" in hook  # the block reason reaches the model, masked
    json.loads(canon)
    _assert_hidden(pieces, canon=canon, evaluate=evaluate, hook=hook, log=_log(ws))


def test_a_secret_in_memory_is_in_no_lint_output_and_no_block_reason(ws):
    lines = "".join(f"- deploy with `{c}`\n" for c, _ in LEAKS)
    pieces = [p for _, ps in LEAKS for p in ps]
    outputs = {}
    (ws / "memory" / "notes.md").write_text(lines, encoding="utf-8")
    for fmt in ("text", "json", "sarif", "github"):
        outputs[fmt] = _cli(ws, "lint", "--no-cache", "--format", fmt, "memory/notes.md")
    assert json.loads(outputs["sarif"])["runs"][0]["results"]
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": str(ws),
               "tool_input": {"file_path": str(ws / "MEMORY.md"), "content": memory + lines}}
    outputs["hook"] = _cli(ws, "hook", "claude", "PreToolUse", stdin=json.dumps(payload))
    assert "deny" in outputs["hook"]
    outputs["log"] = _log(ws)
    _assert_hidden(pieces, **outputs)


@pytest.mark.parametrize("line", ["- Keep the password policy: at least 12 characters.",
                                  "- The token budget is 4000 words a day.",
                                  "- Sort the listing with SORT_KEY=name."], ids=["password-policy", "token-budget",
                                                                                 "plain-word-after-a-key-name"])
def test_ordinary_words_near_secret_words_are_neither_blocked_nor_masked(ws, line):
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": str(ws),
               "tool_input": {"file_path": str(ws / "MEMORY.md"), "content": memory + line + "\n"}}
    out = _cli(ws, "hook", "claude", "PreToolUse", stdin=json.dumps(payload))
    assert "deny" not in out
    if "SORT_KEY" not in line:
        assert line[2:] in out  # the rewritten content carries the line as it was
