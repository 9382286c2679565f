"""cuticle inside the real Claude Code (npm @anthropic-ai/claude-code, its native binary): `claude -p` against a
scripted Messages API stub on loopback, with the hooks `cuticle init claude` wrote, run by Claude's own hook runner.
What the model saw (block reasons, added context) is asserted from the stub's log."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hostkit import cuticle, host_env, npm_host, seed_insight, stamped, user_workspace
from messages_stub import MessagesStub

CONFLICT = "- Running terraform destroy in sandbox accounts is fine."
ANCHOR = "- Always run migrations before seeding the DB."
ACCEPTED = "- The staging DB was migrated to Postgres 16 on 2026-11-30."
HYPOTHESIS = "- 10:15 The nightly export job probably fails because the disk is full."
PROMPT = "remember: never schedule meetings before 10:00"
AUTO_NOTE = "- The deploy script lives in scripts/deploy.sh."


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    # the native binary ships in the platform package (bin/claude.exe is a stub until a postinstall links it)
    found = sorted((npm_host("claude") / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude"))
    assert found, "no native claude binary among @anthropic-ai/claude-code's platform packages"
    return found[0]


class Session:
    def __init__(self, claude_bin: Path, tmp: Path):
        self.claude = claude_bin
        self.home = tmp / "home"
        self.home.mkdir()
        self.ws = user_workspace(tmp)
        self.env = host_env(self.home)
        cuticle(self.env, "init", "claude", str(self.ws))
        seed_insight(self.env, self.ws)
        self.original = (self.ws / "MEMORY.md").read_bytes()

    def run(self, script: list[dict], *args: str) -> tuple[subprocess.CompletedProcess, MessagesStub]:
        with MessagesStub(script) as stub:
            env = {**self.env, "ANTHROPIC_BASE_URL": stub.url, "ANTHROPIC_API_KEY": "sk-ant-api03-not-a-key",
                   "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                   "DISABLE_AUTOUPDATER": "1"}
            proc = subprocess.run([str(self.claude), "-p", PROMPT, "--model", "claude-sonnet-4-5", "--output-format",
                                   "json", *args], env=env, cwd=self.ws, capture_output=True, text=True, timeout=300,
                                  stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        return proc, stub

    def events(self) -> list[dict]:
        path = self.ws / ".cuticle" / "events.jsonl"
        return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def edit(ws: Path, new: str, path: str = "MEMORY.md", old: str = ANCHOR) -> dict:
    return {"name": "Edit", "input": {"file_path": str(ws / path), "old_string": old, "new_string": new}}


@pytest.fixture(scope="module")
def accept_edits(claude_bin, tmp_path_factory):
    """One `claude -p --permission-mode acceptEdits` session scripted through every case."""
    s = Session(claude_bin, tmp_path_factory.mktemp("claude"))
    ws = s.ws
    memory = s.original.decode()
    script = [
        {"name": "Read", "input": {"file_path": str(ws / "MEMORY.md")}},
        {"name": "Read", "input": {"file_path": str(ws / "USER.md")}},
        {"name": "Write", "input": {"file_path": str(ws / "MEMORY.md"), "content": memory + CONFLICT + "\n"}},
        edit(ws, ANCHOR + "\n" + CONFLICT),
        edit(ws, ANCHOR + "\n" + ACCEPTED),
        {"name": "Write", "input": {"file_path": str(ws / "memory/2026-12-01.md"), "content": "# 2026-12-01\n\n" + HYPOTHESIS + "\n"}},
        edit(ws, "- User said: never schedule meetings before 10:00.\n\n## Work", "USER.md", "## Work"),
        {"name": "Write", "input": {"file_path": str(ws / "src/app.ts"), "content": "export const x = 1;\n"}},
        {"name": "Bash", "input": {"command": "echo '- npm is fine' >> MEMORY.md", "description": "append"}},
        {"name": "Bash", "input": {"command": "echo hello-from-bash", "description": "echo"}},
        {"name": "Write", "input": {"file_path": str(ws / "CLAUDE.md"), "content": "# Project\n\n" + CONFLICT + "\n"}},
        {"name": "Write", "input": {"file_path": str(ws / ".claude/memory/MEMORY.md"), "content": AUTO_NOTE + "\n"}},
    ]
    proc, stub = s.run(script, "--permission-mode", "acceptEdits", "--allowedTools", "Bash(echo *)")
    # the files as the session left them (later tests run more sessions, whose GC collects hypotheses)
    s.after = {rel: (ws / rel).read_text(encoding="utf-8") if (ws / rel).is_file() else None for rel in
               ("MEMORY.md", "memory/2026-12-01.md", "USER.md", "src/app.ts", "CLAUDE.md", ".claude/memory/MEMORY.md")}
    results = stub.tool_results()
    assert len(results) == len(script), results
    return s, dict(zip(["read", "read-user", "conflicting-write", "conflicting-edit", "accepted-edit", "daily-note",
                        "user-directive", "non-memory", "shell-to-memory", "shell", "claude-md", "auto-memory"], results)), stub


def test_a_conflicting_whole_file_write_is_blocked_and_the_model_sees_cuticles_reason(accept_edits):
    s, seen, _ = accept_edits
    r = seen["conflicting-write"]
    assert r["is_error"] and "EpistemicConflictError" in r["content"] and "polarity" in r["content"], r


def test_the_file_is_byte_identical_after_the_blocked_write(accept_edits):
    s, seen, _ = accept_edits
    text = s.after["MEMORY.md"]
    assert CONFLICT not in text
    # the only change of the whole session is the accepted edit's line
    assert text.replace(next(x for x in text.splitlines() if ACCEPTED in x) + "\n", "").encode() == s.original


def test_a_conflicting_edit_is_blocked(accept_edits):
    _, seen, _ = accept_edits
    assert seen["conflicting-edit"]["is_error"] and "EpistemicConflictError" in seen["conflicting-edit"]["content"]


def test_an_accepted_edit_is_applied_with_its_stamp(accept_edits):
    s, seen, _ = accept_edits
    assert not seen["accepted-edit"]["is_error"], seen["accepted-edit"]
    lines = stamped(s.after["MEMORY.md"])
    assert len(lines) == 1 and lines[0].startswith(ACCEPTED + " <!--cu:"), lines


def test_a_new_daily_note_is_written_stamped(accept_edits):
    s, seen, _ = accept_edits
    text = s.after["memory/2026-12-01.md"]
    assert any(x.startswith(HYPOTHESIS + " <!--cu:H") for x in text.splitlines()), text


def test_the_users_prompt_lets_their_directive_into_user_md(accept_edits):
    s, seen, _ = accept_edits
    assert not seen["user-directive"]["is_error"], seen["user-directive"]
    (line,) = [x for x in s.after["USER.md"].splitlines() if "10:00" in x]
    assert "<!--cu:" in line


def test_a_non_memory_write_is_untouched(accept_edits):
    s, _, _ = accept_edits
    assert s.after["src/app.ts"] == "export const x = 1;\n"


def test_a_shell_write_to_memory_is_denied_and_a_benign_command_runs(accept_edits):
    s, seen, _ = accept_edits
    assert seen["shell-to-memory"]["is_error"] and "no-memory-write-via-shell" in seen["shell-to-memory"]["content"]
    assert "npm is fine" not in s.after["MEMORY.md"]
    assert not seen["shell"]["is_error"] and "hello-from-bash" in seen["shell"]["content"]


def test_session_start_delivers_personality_md_to_the_model(accept_edits):
    _, _, stub = accept_edits
    first = next(e for e in stub.log if e["tools"])
    assert "Personality Context (cuticle)" in first["context"] and "Lead with the command" in first["context"]


def test_session_end_runs_and_gc_collects_the_hypothesis_sessions_later(accept_edits, claude_bin):
    s, _, _ = accept_edits
    ends = [e for e in s.events() if e.get("decision") == "session-end"]
    assert ends and "gc_removed" in ends[0], ends
    for _ in range(3):  # hypothesis_ttl = 3 sessions
        s.run([])
    text = (s.ws / "memory/2026-12-01.md").read_text(encoding="utf-8")
    assert HYPOTHESIS not in text, text
    numbers = [e["session_number"] for e in s.events() if e.get("decision") == "session-end"]
    assert numbers == list(range(numbers[0], numbers[0] + 4)), numbers  # one session per `claude -p`


def test_in_default_mode_an_accepted_memory_edit_meets_claudes_own_permission_answer(claude_bin, tmp_path):
    # `claude -p` in default mode cannot ask anyone: the model must see Claude's own refusal, not a success text
    s = Session(claude_bin, tmp_path)
    script = [{"name": "Read", "input": {"file_path": str(s.ws / "MEMORY.md")}}, edit(s.ws, ANCHOR + "\n" + ACCEPTED)]
    _, stub = s.run(script)
    r = stub.tool_results()[1]
    assert r["is_error"] and "haven't granted it yet" in r["content"], r
    assert "stamped" not in r["content"]
    assert (s.ws / "MEMORY.md").read_bytes() == s.original


def test_in_default_mode_a_permission_rule_runs_the_stamped_edit(claude_bin, tmp_path):
    s = Session(claude_bin, tmp_path)
    script = [{"name": "Read", "input": {"file_path": str(s.ws / "MEMORY.md")}}, edit(s.ws, ANCHOR + "\n" + ACCEPTED)]
    _, stub = s.run(script, "--allowedTools", "Edit")
    assert not stub.tool_results()[1]["is_error"], stub.tool_results()
    lines = stamped((s.ws / "MEMORY.md").read_text(encoding="utf-8"))
    assert len(lines) == 1 and lines[0].startswith(ACCEPTED + " <!--cu:")


def test_dont_ask_mode_is_not_overridden_by_cuticle(claude_bin, tmp_path):
    s = Session(claude_bin, tmp_path)
    script = [{"name": "Read", "input": {"file_path": str(s.ws / "MEMORY.md")}}, edit(s.ws, ANCHOR + "\n" + ACCEPTED)]
    _, stub = s.run(script, "--permission-mode", "dontAsk")
    r = stub.tool_results()[1]
    assert r["is_error"] and "don't ask mode" in r["content"], r
    assert (s.ws / "MEMORY.md").read_bytes() == s.original


def test_claude_md_is_a_memory_file_a_conflicting_line_is_blocked(accept_edits):
    s, seen, _ = accept_edits
    assert seen["claude-md"]["is_error"] and "EpistemicConflictError" in seen["claude-md"]["content"], seen["claude-md"]
    assert s.after["CLAUDE.md"] is None


def test_claudes_auto_memory_lives_in_the_workspace_and_its_writes_are_stamped(accept_edits):
    s, seen, stub = accept_edits
    assert str(s.ws / ".claude" / "memory") in next(e for e in stub.log if e["tools"])["context"]  # Claude uses it
    assert not seen["auto-memory"]["is_error"], seen["auto-memory"]
    text = s.after[".claude/memory/MEMORY.md"]
    assert text.startswith(AUTO_NOTE + " <!--cu:"), text
