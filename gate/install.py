"""Install cuticle's hook into each host's configuration, and check an installation (init / doctor).

Every host keeps hooks in a JSON file. Installing merges cuticle's entries into it: other hooks are kept, an
existing cuticle entry is updated in place (idempotent), and the original file is backed up before the first
change. The tables here are the single source of which events and tool matchers each host needs.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

from tiers.errors import ConfigError
from tiers.record import dataclass, field

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

PLUGIN_DIR = Path(__file__).resolve().parent / "openclaw"


@dataclass(frozen=True, slots=True)
class HookSpec:
    event: str
    matcher: str | None = None  # "A|B|C" (None: no matcher, the host runs the hook for everything)
    timeout: int | None = None


# Matchers cover every memory-writing tool and the shell tool of each host (hosts.md §2-§6, §11).
SPECS: dict[str, tuple[HookSpec, ...]] = {
    "claude": (
        HookSpec("PreToolUse", "Write|Edit|MultiEdit|Bash", 10),
        HookSpec("PostToolUse", "Write|Edit|MultiEdit"),
        HookSpec("UserPromptSubmit"),
        HookSpec("SessionStart", "startup|resume|clear|compact"),
        HookSpec("SessionEnd"),
    ),
    "codex": (
        HookSpec("PreToolUse", "apply_patch|Edit|Write|Bash", 10),
        HookSpec("PostToolUse", "apply_patch|Edit|Write"),
        HookSpec("UserPromptSubmit"),
        HookSpec("SessionStart", "startup|resume|clear"),
    ),
    "gemini": (
        HookSpec("BeforeTool", "write_file|replace|save_memory|run_shell_command", 10000),
        HookSpec("AfterTool", "write_file|replace"),
        HookSpec("BeforeAgent"),
        HookSpec("SessionStart", "startup|resume|clear"),
        HookSpec("SessionEnd"),
    ),
    "copilot": (
        HookSpec("preToolUse", None, 10),
        HookSpec("postToolUse"),
        HookSpec("userPromptSubmitted"),
        HookSpec("sessionStart"),
        HookSpec("sessionEnd"),
    ),
    "cursor": (
        HookSpec("preToolUse", "Write"),
        HookSpec("preToolUse", "StrReplace"),
        HookSpec("preToolUse", "Edit"),
        HookSpec("beforeShellExecution"),
        HookSpec("afterFileEdit"),
        HookSpec("beforeSubmitPrompt"),
        HookSpec("sessionStart"),
        HookSpec("sessionEnd"),
    ),
}

CONFIG_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/cuticle.json",
    "cursor": ".cursor/hooks.json",
}

OPENCLAW_HOOKS = ("before_tool_call", "after_tool_call", "llm_input", "session_start", "session_end",
                  "before_prompt_build")

DEFAULT_CONFIG = """\
# cuticle workspace configuration (written by `cuticle init`; every key shows its default).

[memory]
# Memory files (workspace-relative globs; `**` spans directories).
globs = ["MEMORY.md", "memory.md", "USER.md", "memory/**/*.md"]
# Files cuticle generates; agents may not write them.
guarded = ["PERSONALITY.md", "INSIGHTS.md"]

[tiers]
# Sessions a HYPOTHESIS stays live before GC collects it.
hypothesis_ttl = 3

[gate]
# Files that accept only lines in the user's own words (verified provenance); false turns the guard off.
user_guard = ["USER.md"]
# Let agents delete or move whole memory files (default: refused with a message).
allow_memory_delete = false
# When the policy layer cannot evaluate a tool call: false = let it run (fail open), true = deny it.
fail_closed_policy = false
# Claude Code rewrites: "auto" approves the stamped write only in acceptEdits/bypassPermissions/dontAsk mode
# and otherwise asks the user as Claude would; "allow" or "ask" force one.
claude_auto_allow = "auto"
# "auto": each hook call hands its payload to a `cuticle serve` for this workspace (started on first use,
# detached, loopback or Unix socket only, token-protected; it exits after 30 idle minutes, when this directory
# goes away, or when cuticle's code changes), which answers in milliseconds instead of loading the gate on every
# call; "off": always answer in-process. The environment variable CUTICLE_SERVER=off|auto overrides this.
server = "auto"
"""


def default_command() -> str:
    """The command hosts should run: `cuticle` when it is on PATH, else this interpreter with `-m gate`."""
    exe = shutil.which("cuticle")
    if exe:
        return "cuticle"
    return shlex.join([sys.executable, "-m", "gate"])


def hook_command(base: str, host: str, event: str) -> str:
    return f"{base} hook {host} {event}"


def is_ours(command: Any, host: str) -> bool:
    if not isinstance(command, str):
        return False
    return f" hook {host}" in command and ("cuticle" in command or "-m gate" in command)


# -- reading/writing JSON config files -----------------------------------------------------------------


def load_json(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}); fix it or move it aside, then re-run") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object at the top level")
    return data


def write_json(path: Path, data: dict) -> str | None:
    """Write ``data`` if it differs from the file; back the old file up first. Returns the backup path."""
    from tiers.fsutil import atomic_write

    new = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    backup = None
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if old == new:
            return None
        if load_json(path) == data:
            return None
        backup = path.with_name(f"{path.name}.cuticle-backup-{time.strftime('%Y%m%d%H%M%S')}")
        n = 1
        while backup.exists():
            backup = path.with_name(f"{path.name}.cuticle-backup-{time.strftime('%Y%m%d%H%M%S')}-{n}")
            n += 1
        shutil.copy2(path, backup)
    atomic_write(path, new.encode("utf-8"))
    return str(backup) if backup else None


# -- merging -------------------------------------------------------------------------------------------


def _entry(host: str, spec: HookSpec, base: str) -> dict:
    cmd = hook_command(base, host, spec.event)
    if host in ("claude", "codex"):
        hook: dict = {"type": "command", "command": cmd}
        if spec.timeout:
            hook["timeout"] = spec.timeout
        e: dict = {"hooks": [hook]}
        if spec.matcher:
            e = {"matcher": spec.matcher, **e}
        return e
    if host == "gemini":
        hook = {"name": f"cuticle-{spec.event}", "type": "command", "command": cmd}
        if spec.timeout:
            hook["timeout"] = spec.timeout
        e = {"hooks": [hook]}
        if spec.matcher:
            e = {"matcher": spec.matcher, **e}
        return e
    if host == "copilot":
        e = {"type": "command", "bash": cmd, "powershell": cmd}
        if spec.timeout:
            e["timeoutSec"] = spec.timeout
        return e
    if host == "cursor":
        e = {"command": cmd}
        if spec.matcher:
            e["matcher"] = spec.matcher
        return e
    raise ValueError(host)


def _commands_of(host: str, entry: Any) -> list[str]:
    if not isinstance(entry, dict):
        return []
    if host in ("claude", "codex", "gemini"):
        return [h.get("command") for h in entry.get("hooks", []) if isinstance(h, dict) and isinstance(h.get("command"), str)]
    if host == "copilot":
        return [c for c in (entry.get("bash"), entry.get("command")) if isinstance(c, str)]
    return [entry["command"]] if isinstance(entry.get("command"), str) else []


def merge_hooks(host: str, data: dict, base: str) -> tuple[dict, list[str]]:
    """``data`` with cuticle's entries installed; the list says what changed."""
    out = json.loads(json.dumps(data))  # deep copy
    changes: list[str] = []
    if host in ("copilot", "cursor"):
        out.setdefault("version", 1)
    if host == "gemini":
        tools = out.setdefault("tools", {})
        if isinstance(tools, dict) and tools.get("enableHooks") is not True:
            tools["enableHooks"] = True
            changes.append("tools.enableHooks = true")
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"'hooks' in the {host} config is not an object; fix it by hand")
    specs = SPECS[host]
    by_event: dict[str, list[HookSpec]] = {}
    for s in specs:
        by_event.setdefault(s.event, []).append(s)
    for event, wanted in by_event.items():
        entries = hooks.setdefault(event, [])
        if not isinstance(entries, list):
            raise ConfigError(f"hooks.{event} in the {host} config is not a list; fix it by hand")
        ours = [i for i, e in enumerate(entries) if any(is_ours(c, host) for c in _commands_of(host, e))]
        new_entries = [_entry(host, s, base) for s in wanted]
        current = [entries[i] for i in ours]
        if current == new_entries:
            continue
        keep = [e for i, e in enumerate(entries) if i not in ours]
        hooks[event] = keep + new_entries
        changes.append(f"hooks.{event}: {'updated' if ours else 'added'} cuticle entr{'y' if len(new_entries) == 1 else 'ies'}")
    return out, changes


def merge_openclaw(data: dict, plugin_dir: Path, base: str, workspace: Path) -> tuple[dict, list[str]]:
    out = json.loads(json.dumps(data))
    changes: list[str] = []
    plugins = out.setdefault("plugins", {})
    load = plugins.setdefault("load", {})
    paths = load.setdefault("paths", [])
    if str(plugin_dir) not in paths:
        paths.append(str(plugin_dir))
        changes.append(f"plugins.load.paths += {plugin_dir}")
    entries = plugins.setdefault("entries", {})
    want = {
        "enabled": True,
        "config": {"command": shlex.split(base), "workspace": str(workspace), "mode": "enforce"},
        "hooks": {"allowConversationAccess": True, "allowPromptInjection": True, "timeoutMs": 5000},
    }
    cur = entries.get("cuticle")
    if cur != want:
        merged = dict(cur) if isinstance(cur, dict) else {}
        merged.update(want)
        entries["cuticle"] = merged
        changes.append("plugins.entries.cuticle " + ("updated" if cur else "added"))
    return out, changes


# -- init ----------------------------------------------------------------------------------------------


@dataclass
class InitReport:
    workspace: str
    host: str
    actions: list[str] = field(default_factory=list)
    config_file: str | None = None
    backup: str | None = None
    command: str = ""

    def to_json(self) -> dict:
        return {"workspace": self.workspace, "host": self.host, "config_file": self.config_file,
                "backup": self.backup, "command": self.command, "actions": self.actions}


def host_config_path(host: str, root: Path, override: str | None) -> Path:
    if override:
        return Path(override).expanduser()
    if host == "openclaw":
        return Path(os.environ.get("OPENCLAW_CONFIG_PATH") or "~/.openclaw/openclaw.json").expanduser()
    return root / CONFIG_FILES[host]


#: `.cuticle/.gitignore`: teams keep memory in git, but the stamp key must never leave the machine (whoever
#: holds it can forge a verified stamp), and caches, session counters and event logs are this machine's own.
STATE_GITIGNORE = """# Written by `cuticle init`. Commit the shared settings only: the stamp key must stay on this machine
# (it lets anyone forge stamps), and caches, session state and event logs are local.
*
!.gitignore
!config.toml
"""


def init(host: str, root: Path, *, command: str | None = None, host_config: str | None = None) -> InitReport:
    from tiers.fsutil import atomic_write
    from tiers.workspace import Workspace

    root = Path(root).resolve()
    root.mkdir(parents=True, exist_ok=True)
    ws = Workspace(root)
    base = command or default_command()
    rep = InitReport(str(root), host, command=base)
    if not ws.state_dir.is_dir():
        ws.ensure_state()
        rep.actions.append("created .cuticle/")
    if not ws.config_path.exists():
        atomic_write(ws.config_path, DEFAULT_CONFIG.encode("utf-8"))
        rep.actions.append("wrote .cuticle/config.toml (documented defaults)")
    ignore = ws.state_path(".gitignore")
    if not ignore.exists():
        atomic_write(ignore, STATE_GITIGNORE.encode("utf-8"))
        rep.actions.append("wrote .cuticle/.gitignore (only config.toml is committed: the key, caches and logs "
                           "stay on this machine)")
    key_existed = ws.state_path("key").exists()
    _ = ws.key
    if not key_existed:
        rep.actions.append("created the stamp key .cuticle/key (mode 600)")
    _ = ws.config  # refuse to go on with a broken config
    rep.actions.extend(_starter_policy(ws))
    from tiers.session import current_session

    try:
        current_session(ws)
    except Exception as exc:  # noqa: BLE001 - reported, init goes on
        rep.actions.append(f"session state not initialised ({type(exc).__name__}: {exc})")
    path = host_config_path(host, root, host_config)
    rep.config_file = str(path)
    data = load_json(path)
    if host == "openclaw":
        merged, changes = merge_openclaw(data, PLUGIN_DIR, base, root)
    else:
        merged, changes = merge_hooks(host, data, base)
    if changes:
        rep.backup = write_json(path, merged)
        if rep.backup:
            rep.actions.append(f"backed up {path.name} to {Path(rep.backup).name}")
        rep.actions.extend(f"{path}: {c}" for c in changes)
    else:
        rep.actions.append(f"{path}: cuticle hooks already installed (unchanged)")
    return rep


def _starter_policy(ws) -> list[str]:
    from rules.governance.policy import STARTER_POLICY, policy_location
    from tiers.errors import ConfigError

    # the same lookup the governance layer uses ([policy] path, else chitin.yaml), so init never reports a
    # policy as present that evaluation would not read
    try:
        found = policy_location(ws)
    except ConfigError as exc:
        return [f"policy not written: {exc}"]
    if found is not None:
        shown = found.relative_to(ws.root) if found.is_relative_to(ws.root) else found.name
        return [f"policy present: {shown} (kept)"]
    dest = ws.root / "chitin.yaml"
    from tiers.fsutil import atomic_write

    atomic_write(dest, STARTER_POLICY.read_bytes())
    return ["wrote starter policy chitin.yaml"]
