"""Cursor: `.cursor/hooks.json`; several before-events (``preToolUse``, ``beforeShellExecution``), shell and
file-edit payloads with the arguments at the top level (not verified against a real Cursor)."""

from __future__ import annotations

from ..answer import Reply, dump
from .base import Host, HookSpec, _body

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..payload import Request


class Cursor(Host):
    name = "cursor"
    config_file = ".cursor/hooks.json"
    project_env = "CURSOR_PROJECT_DIR"
    can_rewrite = True
    pre_event = "preToolUse"
    post_event = "postToolUse"
    specs = (
        HookSpec("preToolUse", "Write"),
        HookSpec("preToolUse", "StrReplace"),
        HookSpec("preToolUse", "Edit"),
        HookSpec("preToolUse", "Delete"),  # a tool that deletes a memory file is refused (name unverified)
        HookSpec("beforeShellExecution"),
        HookSpec("afterFileEdit"),
        HookSpec("beforeSubmitPrompt"),
        HookSpec("sessionStart"),
        HookSpec("sessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        hev = payload.get("hook_event_name")
        return isinstance(hev, str) and hev[:1].islower() and ("conversation_id" in payload or "workspace_roots" in payload)

    def tool_args(self, req: Request, payload: dict) -> Any:
        if "tool_input" in payload or "tool_name" in payload:
            return super().tool_args(req, payload)
        # beforeShellExecution / afterFileEdit carry the arguments at the top level
        hev = req.host_event.lower()
        if "shell" in hev:
            req.tool = "Shell"
        elif "fileedit" in hev:
            req.tool = "Edit"
        elif "mcp" in hev:
            req.tool = str(payload.get("tool_name") or "mcp")
        return payload

    def unguarded(self, host_event: str) -> bool:
        # afterFileEdit reports an edit no preToolUse saw (older Cursor has no preToolUse)
        return host_event.lower() == "afterfileedit"

    def noop(self, host_event: str = "", diagnostic: str = "") -> Reply:
        err = super().noop(host_event, diagnostic).stderr
        ev = (host_event or "").lower()
        if ev == "beforesubmitprompt":
            return Reply(dump({"continue": True}), err)
        if ev.startswith("before") or ev == "pretooluse":
            return Reply(dump({"permission": "allow"}), err)
        return Reply(dump({}), err)

    def deny(self, event: str, reason: str, short: str) -> Reply:
        return Reply(dump({"permission": "deny", "agent_message": reason, "user_message": short}), "", 0)

    def rewrite(self, args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> Reply:
        return Reply(dump({"permission": "allow", "updated_input": args}))

    def context(self, event: str, text: str, path: str | None) -> Reply:
        return Reply(dump({"additional_context": text}))

    def post_note(self, host_event: str, text: str) -> Reply:
        if host_event.lower() == "posttooluse":
            return Reply(dump({"additional_context": text}))
        return self.noop(host_event)

    def entry(self, spec: HookSpec, command: str) -> dict:
        e = {"command": command}
        if spec.matcher:
            e["matcher"] = spec.matcher
        return e

    def commands_of(self, entry: Any) -> list[str]:
        return [entry["command"]] if isinstance(entry, dict) and isinstance(entry.get("command"), str) else []

    def prepare(self, data: dict) -> list[str]:
        data.setdefault("version", 1)
        return []

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        return {"hook_event_name": "preToolUse", "conversation_id": "cuticle-doctor", "generation_id": "g0",
                "workspace_roots": [cwd], "tool_name": "Write", "tool_input": {"file_path": path, "content": content}}

    def is_block(self, stdout: str, code: int) -> bool:
        return _body(stdout).get("permission") == "deny"


HOST = Cursor()
