"""Claude Code: `.claude/settings.json` hooks; answers in `hookSpecificOutput` (verified against 2.1.332).

Claude Code's own memory is memory to cuticle: the project's CLAUDE.md files are added to `[memory] globs`, and its
auto memory (by default `~/.claude/projects/<project>/memory/`, outside the workspace) is moved into the workspace
with `autoMemoryDirectory` in `.claude/settings.local.json` (Claude reads that key only from local, user or policy
settings, never from the checked-in settings.json), where `.claude/memory/**/*.md` gates and lints it.
"""

from __future__ import annotations

from pathlib import Path

from ..answer import Reply, dump
from .base import Host, HookSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOCAL_SETTINGS = ".claude/settings.local.json"
AUTO_MEMORY = ".claude/memory"


class Claude(Host):
    name = "claude"
    config_file = ".claude/settings.json"
    project_env = "CLAUDE_PROJECT_DIR"
    can_rewrite = True
    memory_globs = ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/memory/**/*.md")
    specs = (
        HookSpec("PreToolUse", "Write|Edit|MultiEdit|Bash", 10),
        HookSpec("PostToolUse", "Write|Edit|MultiEdit"),
        HookSpec("UserPromptSubmit"),
        HookSpec("SessionStart", "startup|resume|clear|compact"),
        HookSpec("SessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        return bool(payload.get("hook_event_name"))

    def install_extras(self, root: Path) -> list[str]:
        from ..install import load_json, write_json

        path = root / LOCAL_SETTINGS
        data = load_json(path)
        want = str(root / AUTO_MEMORY)
        if data.get("autoMemoryDirectory") == want:
            return []
        if data.get("autoMemoryDirectory"):
            return [f"{path}: autoMemoryDirectory is {data['autoMemoryDirectory']!r} (kept; Claude's auto memory is "
                    f"gated only inside the workspace, under {AUTO_MEMORY}/)"]
        write_json(path, {**data, "autoMemoryDirectory": want})
        return [f"{path}: autoMemoryDirectory = {want} (Claude's auto memory now lives in the workspace, gated; "
                "notes already in ~/.claude/projects/ stay there)"]

    def check(self, root: Path, data: dict) -> list[tuple[str, str, str]]:
        from ..install import load_json

        try:
            local = load_json(root / LOCAL_SETTINGS)
        except Exception as exc:  # noqa: BLE001 - reported
            return [("claude:auto-memory", "warn", str(exc))]
        where = local.get("autoMemoryDirectory")
        if where and Path(str(where)).expanduser().resolve() == (root / AUTO_MEMORY).resolve():
            return [("claude:auto-memory", "ok", f"Claude's auto memory is {AUTO_MEMORY}/ in the workspace (gated)")]
        return [("claude:auto-memory", "warn", f"Claude's auto memory is {where or '~/.claude/projects/…/memory/'}, "
                                               "outside the workspace: cuticle does not gate it; re-run "
                                               "`cuticle init claude` to move it")]

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
