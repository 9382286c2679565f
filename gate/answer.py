"""Answers in each host's dialect (hosts.md §10.6): deny, rewrite arguments, add context, or stay silent.

A ``Reply`` is what a hook process prints and how it exits; ``cuticle serve`` sends the same triple back.
Every "allow" answer is also what the gate says when it fails open, so a crash never blocks by accident.
"""

from __future__ import annotations

import json

from tiers.record import dataclass

#: hosts whose before-tool answer can replace the tool's arguments
REWRITE_HOSTS = frozenset({"openclaw", "claude", "gemini", "cursor"})

_PRE_NAMES = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
_POST_NAMES = {"claude": "PostToolUse", "codex": "PostToolUse", "gemini": "AfterTool"}


@dataclass(frozen=True, slots=True)
class Reply:
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0

    def to_json(self) -> dict:
        return {"stdout": self.stdout, "stderr": self.stderr, "exit_code": self.exit_code}


def _dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def noop(host: str, host_event: str = "", *, diagnostic: str = "") -> Reply:
    """Let the call proceed / nothing to add."""
    err = (diagnostic.rstrip("\n") + "\n") if diagnostic else ""
    ev = (host_event or "").lower()
    if host == "cursor":
        if ev == "beforesubmitprompt":
            return Reply(_dump({"continue": True}), err)
        if ev.startswith("before") or ev == "pretooluse":
            return Reply(_dump({"permission": "allow"}), err)
        return Reply(_dump({}), err)
    if host in ("gemini", "openclaw"):
        return Reply(_dump({}), err)
    return Reply("", err)


def deny(host: str, event: str, reason: str, *, short: str = "") -> Reply:
    """Block the tool call; ``reason`` (JSON text) goes where the host shows it to the model."""
    user = short or "cuticle blocked this tool call"
    if host in ("claude", "codex"):
        if event == "post_tool":
            body = {"decision": "block", "reason": reason}
            return Reply(_dump(body), reason + "\n", 0)
        body = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                       "permissionDecisionReason": reason}}
        # both channels: exit 2 makes the host block and feed stderr to the model even if it ignores the JSON
        return Reply(_dump(body), reason + "\n", 2)
    if host == "gemini":
        return Reply(_dump({"decision": "deny", "reason": reason, "systemMessage": user}), "", 0)
    if host == "copilot":
        return Reply(_dump({"permissionDecision": "deny", "permissionDecisionReason": reason}), "", 0)
    if host == "cursor":
        return Reply(_dump({"permission": "deny", "agent_message": reason, "user_message": user}), "", 0)
    if host == "openclaw":
        return Reply(_dump({"block": True, "blockReason": reason}), "", 0)
    return Reply("", reason + "\n", 2)


def rewrite(host: str, args: dict, *, note: str, permission_mode: str | None = None, auto_allow: str = "auto") -> Reply:
    """Replace the tool's arguments (only for REWRITE_HOSTS; the caller checks)."""
    if host == "claude":
        if auto_allow == "auto":
            decision = "allow" if permission_mode in ("acceptEdits", "bypassPermissions", "dontAsk") else "ask"
        else:
            decision = "allow" if auto_allow in (True, "allow", "true") else "ask"
        body = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                       "permissionDecisionReason": note, "updatedInput": args}}
        return Reply(_dump(body))
    if host == "gemini":
        return Reply(_dump({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": args}}))
    if host == "cursor":
        return Reply(_dump({"permission": "allow", "updated_input": args}))
    if host == "openclaw":
        return Reply(_dump({"params": args}))
    raise ValueError(f"host {host} cannot rewrite tool arguments")


def context(host: str, event: str, text: str, *, path: str | None = None) -> Reply:
    """Inject ``text`` at session start (or OpenClaw prompt build / bootstrap)."""
    if not text:
        return noop(host, event)
    if host in ("claude", "codex", "gemini"):
        return Reply(_dump({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}))
    if host == "cursor":
        return Reply(_dump({"additional_context": text}))
    if host == "openclaw":
        body: dict = {"prependSystemContext": text}
        if path:
            body["bootstrapFile"] = {"name": "PERSONALITY.md", "path": path, "content": text, "missing": False}
        return Reply(_dump(body))
    return noop(host, event)  # Copilot ignores session-start output; PERSONALITY.md is on disk


def post_note(host: str, host_event: str, text: str) -> Reply:
    """Tell the model something after a tool ran (e.g. the lines cuticle stamped or could not accept)."""
    if not text:
        return noop(host, host_event)
    if host in ("claude", "codex", "gemini"):
        name = _POST_NAMES[host]
        return Reply(_dump({"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}))
    if host == "cursor" and host_event.lower() == "posttooluse":
        return Reply(_dump({"additional_context": text}))
    return noop(host, host_event)
