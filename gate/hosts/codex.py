"""Codex CLI: `.codex/hooks.json` in Claude Code's dialect; no argument rewrites (verified against 0.171.0).

Codex 0.171 runs project hooks only once the project is trusted (`[projects."<dir>"] trust_level = "trusted"` in
`~/.codex/config.toml`) and each hook has been reviewed (per-hook trust, `/hooks` in the TUI): ``cuticle init``
prints both steps and ``cuticle doctor`` checks the first.
"""

from __future__ import annotations

import os
from pathlib import Path

from .base import Host, HookSpec


class Codex(Host):
    name = "codex"
    config_file = ".codex/hooks.json"
    project_env = "CODEX_PROJECT_DIR"
    specs = (
        HookSpec("PreToolUse", "apply_patch|Edit|Write|Bash", 10),
        HookSpec("PostToolUse", "apply_patch|Edit|Write"),
        HookSpec("UserPromptSubmit"),
        HookSpec("SessionStart", "startup|resume|clear"),
        HookSpec("SessionEnd"),
    )

    def detects(self, payload: dict) -> bool:
        return bool(payload.get("hook_event_name")) and ("turn_id" in payload or "model" in payload)

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        return {**super().write_payload(path, content, cwd), "model": "canary", "turn_id": "t0"}

    def next_steps(self, root: Path) -> list[str]:
        return [f"trust the project in Codex (or add [projects.\"{root}\"] trust_level = \"trusted\" to "
                f"{_config_toml()}), then review and trust cuticle's hooks with /hooks in the Codex TUI: Codex "
                "runs no project hook before both"]

    def check(self, root: Path, data: dict) -> list[tuple[str, str, str]]:
        level = trust_level(root)
        if level == "trusted":
            return [("codex:trust", "ok", f"{root} is trusted in {_config_toml()}; each hook still needs review "
                                          "(/hooks) before it runs")]
        return [("codex:trust", "warn", f"{root} is not trusted in {_config_toml()} ({level or 'no entry'}): Codex "
                                        "ignores .codex/hooks.json until it is; then review the hooks with /hooks")]


def _config_toml() -> Path:
    home = os.environ.get("CODEX_HOME")
    return (Path(home) if home else Path("~/.codex").expanduser()) / "config.toml"


def trust_level(root: Path) -> str | None:
    """The ``trust_level`` Codex's own config gives ``root`` or one of its parents, else None."""
    import tomllib

    try:
        cfg = tomllib.loads(_config_toml().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    projects = cfg.get("projects") if isinstance(cfg.get("projects"), dict) else {}
    for d in (root, *root.parents):
        entry = projects.get(str(d))
        if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
            return entry["trust_level"]
    return None


HOST = Codex()
