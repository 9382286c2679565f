"""GitHub Copilot CLI / cloud agent: `.github/hooks/cuticle.json`; arguments in ``toolArgs`` (a JSON string or an
object); no rewrites and no session-start context (only the config file's location was verified, 1.0.102)."""

from __future__ import annotations

from ..answer import Reply, dump
from ..payload import load_json_arg
from .base import Host, HookSpec, _body, failure_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..payload import Request


class Copilot(Host):
    name = "copilot"
    config_file = ".github/hooks/cuticle.json"
    project_env = "COPILOT_PROJECT_DIR"
    pre_event = "preToolUse"
    post_event = "postToolUse"
    edit_keys = ("old_str", "new_str")
    specs = (
        HookSpec("preToolUse", None, 10),
        HookSpec("postToolUse"),
        HookSpec("userPromptSubmitted"),
        HookSpec("sessionStart"),
        HookSpec("sessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        return "toolName" in payload or "toolArgs" in payload

    def tool_args(self, req: Request, payload: dict) -> Any:
        if "toolName" not in payload and "toolArgs" not in payload:
            return super().tool_args(req, payload)
        req.tool = str(payload.get("toolName") or "")
        req.args_key = "toolArgs"
        raw = payload.get("toolArgs")
        req.args_was_string = isinstance(raw, str)
        return load_json_arg(raw, "toolArgs") if raw is not None else {}

    def tool_error(self, payload: dict) -> str | None:
        result = payload.get("toolResult")
        if isinstance(result, dict) and result.get("resultType") in ("failure", "denied", "rejected"):
            return str(result.get("textResultForLlm") or result.get("resultType"))
        return failure_of(payload, ("toolResult", "tool_response", "tool_result"))

    def deny(self, event: str, reason: str, short: str) -> Reply:
        return Reply(dump({"permissionDecision": "deny", "permissionDecisionReason": reason}), "", 0)

    def context(self, event: str, text: str, path: str | None) -> Reply:
        return self.noop(event)  # Copilot ignores session-start output; PERSONALITY.md is on disk

    def post_note(self, host_event: str, text: str) -> Reply:
        return self.noop(host_event)

    def entry(self, spec: HookSpec, command: str) -> dict:
        e = {"type": "command", "bash": command, "powershell": command}
        if spec.timeout:
            e["timeoutSec"] = spec.timeout
        return e

    def commands_of(self, entry: Any) -> list[str]:
        if not isinstance(entry, dict):
            return []
        return [c for c in (entry.get("bash"), entry.get("command")) if isinstance(c, str)]

    def prepare(self, data: dict) -> list[str]:
        data.setdefault("version", 1)
        return []

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        import json

        return {"timestamp": 0, "cwd": cwd, "toolName": "create", "toolArgs": json.dumps({"path": path, "file_text": content})}

    def is_block(self, stdout: str, code: int) -> bool:
        return _body(stdout).get("permissionDecision") == "deny"


HOST = Copilot()
