"""Claude Code: `.claude/settings.json` hooks; answers in `hookSpecificOutput` (verified against 2.1.332)."""

from __future__ import annotations

from ..answer import Reply, dump
from .base import Host, HookSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: permission modes in which Claude itself would run an edit without asking, so cuticle's stamped rewrite may be
#: approved outright. Everywhere else (default, plan, dontAsk, unknown) Claude's own permission flow decides.
EDITS_RUN_UNASKED = frozenset({"acceptEdits", "bypassPermissions"})


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
    """The PreToolUse answer for an accepted, stamped memory write, right for each permission mode.

    - ``acceptEdits`` / ``bypassPermissions`` (or ``claude_auto_allow = "allow"``): ``allow`` with the stamped
      ``updatedInput``; the note is the reason Claude logs.
    - every other mode (or ``"ask"``): ``ask`` with the stamped input, so the user approves exactly what will be
      written; the reason says that the write awaits permission. Claude shows an ``ask`` reason as the error text
      when nobody can answer (``claude -p``), so it must not read like a success.
    """
    if auto_allow == "auto":
        allow = permission_mode in EDITS_RUN_UNASKED
    else:
        allow = auto_allow in (True, "allow", "true")
    if allow:
        return {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": note,
                "updatedInput": args}
    return {"hookEventName": "PreToolUse", "permissionDecision": "ask",
            "permissionDecisionReason": "cuticle checked this memory write and added provenance stamps; "
                                        "it still needs your permission to run",
            "updatedInput": args}


HOST = Claude()
