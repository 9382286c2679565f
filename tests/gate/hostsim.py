"""A host in a test: send a payload to the real gate (``gate.handler.handle``, what `cuticle hook` runs) and apply
its answer to the file the way the host's tool would (Claude Code's Write and Edit; OpenClaw's write)."""

from __future__ import annotations

import json
from pathlib import Path

from gate.doctor import is_block
from gate.handler import handle


class Answer:
    def __init__(self, host: str, reply) -> None:
        self.host = host
        self.reply = reply
        self.applied = False  # the host's tool wrote the file
        self.blocked = is_block(host, reply.stdout, reply.exit_code)
        try:
            self.json = json.loads(reply.stdout) if reply.stdout.strip() else {}
        except ValueError:
            self.json = {}

    @property
    def args(self) -> dict | None:
        """The rewritten tool arguments, if the gate rewrote the call."""
        if self.host == "claude":
            return (self.json.get("hookSpecificOutput") or {}).get("updatedInput")
        if self.host == "openclaw":
            return self.json.get("params")
        return None

    @property
    def reason(self) -> str:
        if self.host == "claude":
            return (self.json.get("hookSpecificOutput") or {}).get("permissionDecisionReason") or self.reply.stderr
        return self.json.get("blockReason") or self.reply.stderr


def send(host: str, payload: dict, event: str | None = None) -> Answer:
    return Answer(host, handle(host, event, json.dumps(payload).encode()))


def claude(ws: Path, tool: str, tool_input: dict, *, session: str = "s1", event: str = "PreToolUse",
           call: str = "toolu_1") -> dict:
    return {"session_id": session, "transcript_path": "/nonexistent/t.jsonl", "cwd": str(ws),
            "permission_mode": "acceptEdits", "hook_event_name": event, "tool_name": tool, "tool_use_id": call,
            "tool_input": tool_input}


def prompt(ws: Path, text: str, *, session: str = "s1") -> None:
    """The user's turn, as Claude Code reports it (recorded for verified provenance)."""
    send("claude", {"session_id": session, "transcript_path": "/nonexistent/t.jsonl", "cwd": str(ws),
                    "hook_event_name": "UserPromptSubmit", "prompt": text})


def apply_write(path: Path, content: str, *, chunks: int = 1, pause: float = 0.0) -> None:
    """The host's Write tool: truncate and write, in ``chunks`` pieces ``pause`` seconds apart (a host writing in
    two chunks)."""
    import time

    data = content.encode("utf-8")
    with open(path, "wb") as fh:
        step = max(1, -(-len(data) // max(1, chunks)))
        for i in range(0, len(data), step):
            if i and pause:
                time.sleep(pause)
            fh.write(data[i:i + step])
            fh.flush()


def apply_edit(path: Path, old: str, new: str, *, chunks: int = 1, pause: float = 0.0) -> bool:
    """The host's Edit tool: read, replace exactly one occurrence, write back (no lock, like every host); False
    when the old text is not there exactly once (the tool fails and writes nothing)."""
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        return False
    apply_write(path, text.replace(old, new, 1), chunks=chunks, pause=pause)
    return True


def claude_edit(ws: Path, rel: str, old: str, new: str, *, session: str = "s1", chunks: int = 1,
                pause: float = 0.0, call: str = "toolu_1", post: bool = False) -> Answer:
    """A Claude Edit through the gate, applied as Claude applies it (the rewritten input when there is one), and
    with ``post`` its PostToolUse event."""
    path = ws / rel
    tool_input = {"file_path": str(path), "old_string": old, "new_string": new}
    ans = send("claude", claude(ws, "Edit", tool_input, session=session, call=call))
    if not ans.blocked:
        args = ans.args or tool_input
        ans.applied = apply_edit(path, args["old_string"], args["new_string"], chunks=chunks, pause=pause)
        if post:
            send("claude", {**claude(ws, "Edit", args, session=session, event="PostToolUse", call=call),
                            "tool_response": {"success": ans.applied}})
    return ans


def claude_write(ws: Path, rel: str, content: str, *, session: str = "s1", chunks: int = 1, pause: float = 0.0,
                 call: str = "toolu_1", post: bool = False) -> Answer:
    path = ws / rel
    tool_input = {"file_path": str(path), "content": content}
    ans = send("claude", claude(ws, "Write", tool_input, session=session, call=call))
    if not ans.blocked:
        args = ans.args or tool_input
        apply_write(path, args["content"], chunks=chunks, pause=pause)
        ans.applied = True
        if post:
            send("claude", {**claude(ws, "Write", args, session=session, event="PostToolUse", call=call),
                            "tool_response": {"success": True}})
    return ans
