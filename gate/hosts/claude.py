"""Claude Code: `.claude/settings.json` hooks; answers in `hookSpecificOutput` (verified against 2.1.332)."""

from __future__ import annotations

from ..answer import Reply, dump
from .base import Host, HookSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

class Claude(Host):
    name = "claude"
    config_file = ".claude/settings.json"
    project_env = "CLAUDE_PROJECT_DIR"
    can_rewrite = True
    specs = (
        HookSpec("PreToolUse", "Write|Edit|MultiEdit|Bash", 10),
        HookSpec("PostToolUse", "Write|Edit|MultiEdit"),
        HookSpec("UserPromptSubmit"),
        HookSpec("SessionStart", "startup|resume|clear|compact"),
        HookSpec("SessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        return bool(payload.get("hook_event_name"))

    def rewrite(self, args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> Reply:
        return Reply(dump({"hookSpecificOutput": decision(args, note, permission_mode, auto_allow)}))


def decision(args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> dict:
    """The PreToolUse answer for an accepted, stamped memory write.

    ``"auto"`` (the default) sends the stamped ``updatedInput`` without a permission decision, so Claude's own
    permission flow decides as for any edit: run in ``acceptEdits``, allowed by the user's permission rules, asked
    interactively, refused in ``plan`` and ``dontAsk`` and in ``claude -p`` without a grant, each with Claude's own
    message. (Verified in Claude Code 2.1.332: the rewrite is applied in each mode that runs the edit. Answering
    ``allow`` would override ``dontAsk`` and ``plan``; answering ``ask`` would override the user's allow rules and,
    in ``-p``, show the reason to the model as the error.) ``claude_auto_allow = "allow"`` or ``"ask"`` forces one.
    """
    if auto_allow in (True, "allow", "true"):
        return {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": note,
                "updatedInput": args}
    if auto_allow in ("ask", False, "false"):
        return {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                "permissionDecisionReason": "cuticle checked this memory write and added provenance stamps; "
                                            "it needs your permission to run",
                "updatedInput": args}
    return {"hookEventName": "PreToolUse", "updatedInput": args}


HOST = Claude()
