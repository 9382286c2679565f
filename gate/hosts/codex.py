"""Codex CLI: `.codex/hooks.json` in Claude Code's dialect; no argument rewrites (verified against 0.171.0).

Codex 0.171 runs project hooks only once the project is trusted (`[projects."<dir>"] trust_level = "trusted"` in
`~/.codex/config.toml`) and each hook has been reviewed (per-hook trust: `/hooks` in the TUI records
`[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"` there). ``cuticle init`` prints
both steps and ``cuticle doctor`` checks both (whether a trust record exists; its hash is Codex's to compare).
Codex gives SessionEnd hooks one second unless told otherwise and clamps them to three: cuticle asks for three
(GC runs again at the next session start if a session end is cut short).
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
        HookSpec("SessionEnd", None, 3),
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
        cfg = _user_config()
        level = trust_level(root, cfg)
        if level != "trusted":
            return [("codex:trust", "warn", f"{root} is not trusted in {_config_toml()} ({level or 'no entry'}): Codex "
                                            "ignores .codex/hooks.json until it is; then review the hooks with /hooks")]
        checks = [("codex:trust", "ok", f"{root} is trusted in {_config_toml()}")]
        keys = self.hook_keys(self.config_path(root), data)
        state = ((cfg.get("hooks") or {}).get("state") or {}) if isinstance(cfg.get("hooks"), dict) else {}
        unreviewed = [k for k in keys if not (isinstance(state.get(k), dict) and state[k].get("trusted_hash"))]
        if unreviewed:
            checks.append(("codex:hook-trust", "warn", f"{len(unreviewed)} of cuticle's {len(keys)} hooks are not "
                                                       "reviewed, and Codex runs none of them until they are: open "
                                                       "`codex`, run /hooks and trust them"))
        else:
            checks.append(("codex:hook-trust", "ok", f"all {len(keys)} of cuticle's hooks have a trust record (Codex "
                                                     "asks again if a hook changed since)"))
        return checks

    def hook_keys(self, path: Path, data: dict) -> list[str]:
        """Codex's key of each cuticle hook: ``<hooks.json>:<event in snake case>:<group>:<handler>``."""
        import re

        keys = []
        hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
        for event, groups in hooks.items():
            if not isinstance(groups, list):
                continue
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()
            for g, group in enumerate(groups):
                for h, command in enumerate(self.commands_of(group)):
                    if self.is_ours(command):
                        keys.append(f"{path}:{snake}:{g}:{h}")
        return keys


def _config_toml() -> Path:
    home = os.environ.get("CODEX_HOME")
    return (Path(home) if home else Path("~/.codex").expanduser()) / "config.toml"


def _user_config() -> dict:
    import tomllib

    try:
        return tomllib.loads(_config_toml().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def trust_level(root: Path, cfg: dict) -> str | None:
    """The ``trust_level`` Codex's own config gives ``root`` or one of its parents, else None."""
    projects = cfg.get("projects") if isinstance(cfg.get("projects"), dict) else {}
    for d in (root, *root.parents):
        entry = projects.get(str(d))
        if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
            return entry["trust_level"]
    return None


HOST = Codex()
