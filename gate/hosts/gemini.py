"""Gemini CLI: `.gemini/settings.json` hooks, timeouts in milliseconds (checked statically against 0.61.0).

Gemini 0.61 switches hooks with ``hooksConfig.enabled`` (default on) and skips the hooks named in
``hooksConfig.disabled``; the older ``tools.enableHooks`` is gone from its settings schema, so init no longer writes
it and doctor checks the new keys.
"""

from __future__ import annotations

from pathlib import Path

from ..answer import Reply, dump
from .base import Host, HookSpec, _body

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Gemini(Host):
    name = "gemini"
    config_file = ".gemini/settings.json"
    project_env = "GEMINI_PROJECT_DIR"
    can_rewrite = True
    pre_event = "BeforeTool"
    post_event = "AfterTool"
    specs = (
        HookSpec("BeforeTool", "write_file|replace|save_memory|run_shell_command", 10000),
        HookSpec("AfterTool", "write_file|replace"),
        HookSpec("BeforeAgent"),
        HookSpec("SessionStart", "startup|resume|clear"),
        HookSpec("SessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        hev = payload.get("hook_event_name")
        return hev in ("BeforeTool", "AfterTool", "BeforeAgent") or bool(isinstance(payload.get("timestamp"), str) and hev)

    def noop(self, host_event: str = "", diagnostic: str = "") -> Reply:
        return Reply(dump({}), super().noop(host_event, diagnostic).stderr)

    def deny(self, event: str, reason: str, short: str) -> Reply:
        return Reply(dump({"decision": "deny", "reason": reason, "systemMessage": short}), "", 0)

    def rewrite(self, args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> Reply:
        return Reply(dump({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": args}}))

    def entry(self, spec: HookSpec, command: str) -> dict:
        e = super().entry(spec, command)
        e["hooks"][0] = {"name": f"cuticle-{spec.event}", **e["hooks"][0]}
        return e

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        return {"session_id": "cuticle-doctor", "cwd": cwd, "hook_event_name": "BeforeTool",
                "timestamp": "2026-01-01T00:00:00Z", "tool_name": "write_file",
                "tool_input": {"file_path": path, "content": content}}

    def is_block(self, stdout: str, code: int) -> bool:
        return _body(stdout).get("decision") in ("deny", "block") or code == 2

    def check(self, root: Path, data: dict) -> list[tuple[str, str, str]]:
        cfg = data.get("hooksConfig") if isinstance(data.get("hooksConfig"), dict) else {}
        if cfg.get("enabled") is False:
            return [("gemini:hooks-enabled", "fail", "hooksConfig.enabled is false in .gemini/settings.json: Gemini "
                                                     "runs no hook; remove it or set it to true")]
        disabled = cfg.get("disabled") if isinstance(cfg.get("disabled"), list) else []
        ours = sorted(d for d in disabled if isinstance(d, str) and d.startswith("cuticle"))
        if ours:
            return [("gemini:hooks-enabled", "fail", f"hooksConfig.disabled lists {', '.join(ours)}: Gemini skips them")]
        return [("gemini:hooks-enabled", "ok", "hooks are on (hooksConfig.enabled is not false)")]


HOST = Gemini()
