"""Install cuticle's hook into each host's configuration, and check an installation (init / doctor).

Every host keeps hooks in a JSON file. Installing merges cuticle's entries into it: other hooks are kept, an
existing cuticle entry is updated in place (idempotent), and the original file is backed up before the first
change. Which events, matchers and entry shapes each host needs is its module's (gate/hosts/).
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
# Claude Code rewrites: "auto" hands the stamped write to Claude's own permission flow (its mode and permission
# rules decide, as for any edit); "allow" approves it outright; "ask" always asks the user.
claude_auto_allow = "auto"
# "auto": each hook call hands its payload to a `cuticle serve` for this workspace (started on first use,
# detached, loopback or Unix socket only, token-protected; it exits after 30 idle minutes, when this directory
# goes away, or when cuticle's code changes), which answers in milliseconds instead of loading the gate on every
# call; "off": always answer in-process. The environment variable CUTICLE_SERVER=off|auto overrides this.
server = "auto"
"""


def default_command() -> str:
    """The command hosts should run, spelled so that it works from the host's own environment (a host starts hooks
    with its own PATH, where a virtual environment's bare ``cuticle`` is not found: exit 127, the gate off): this
    interpreter by its absolute path, isolated and without ``site``, running ``gate/cuticle_hook.py`` by path.
    That starts faster than a bare ``python -c pass`` and as fast as the forwarded call needs; the in-process
    gate loads the environment's packages when it needs them (``gate.cli.load_site``)."""
    hook = Path(__file__).resolve().with_name("cuticle_hook.py")
    return shlex.join([sys.executable, "-I", "-S", str(hook)])


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


# -- init ----------------------------------------------------------------------------------------------


@dataclass
class InitReport:
    workspace: str
    host: str
    actions: list[str] = field(default_factory=list)
    config_file: str | None = None
    backup: str | None = None
    command: str = ""
    next_steps: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"workspace": self.workspace, "host": self.host, "config_file": self.config_file,
                "backup": self.backup, "command": self.command, "actions": self.actions,
                "next_steps": self.next_steps}


def host_config_path(host: str, root: Path, override: str | None) -> Path:
    if override:
        return Path(override).expanduser().resolve()
    from .hosts import get

    return get(host).config_path(root)


#: `.cuticle/installed.json`: which host configuration files `init` wrote, so `doctor` finds them again (OpenClaw's
#: lives in the home directory, or wherever --host-config put it). Local state: `.cuticle/.gitignore` keeps it out.
INSTALLED = "installed.json"


def installed_configs(ws) -> dict[str, str]:
    """host -> configuration file recorded by `init` for this workspace (an unreadable record counts as none)."""
    try:
        data = json.loads(ws.state_path(INSTALLED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {h: v["config"] for h, v in data.items() if isinstance(v, dict) and isinstance(v.get("config"), str)}


def _record_install(ws, host: str, path: Path, command: str) -> None:
    from tiers.fsutil import atomic_write

    data = {h: {"config": c} for h, c in installed_configs(ws).items()}
    data[host] = {"config": str(path), "command": command}
    atomic_write(ws.state_path(INSTALLED), (json.dumps(data, indent=2) + "\n").encode("utf-8"))


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
    from .hosts import get

    adapter = get(host)
    rep.actions.extend(_add_memory_globs(ws, adapter))
    rep.actions.extend(_starter_policy(ws))
    from tiers.session import current_session

    try:
        current_session(ws)
    except Exception as exc:  # noqa: BLE001 - reported, init goes on
        rep.actions.append(f"session state not initialised ({type(exc).__name__}: {exc})")
    path = host_config_path(host, root, host_config)
    rep.config_file = str(path)
    data = load_json(path)
    merged, changes = adapter.merge(data, base, root)
    if changes:
        rep.backup = write_json(path, merged)
        if rep.backup:
            rep.actions.append(f"backed up {path.name} to {Path(rep.backup).name}")
        rep.actions.extend(f"{path}: {c}" for c in changes)
    else:
        rep.actions.append(f"{path}: cuticle hooks already installed (unchanged)")
    rep.actions.extend(adapter.install_extras(root))
    _record_install(ws, host, path, base)
    rep.next_steps = adapter.next_steps(root)
    return rep


def _add_memory_globs(ws, adapter) -> list[str]:
    """The host's own memory files join `[memory] globs`: written into a config whose globs are the defaults, named
    in a note where the user chose their own list."""
    import tomllib

    from tiers.fsutil import atomic_write
    from tiers.workspace import DEFAULT_MEMORY_GLOBS

    if not adapter.memory_globs:
        return []
    text = ws.config_path.read_text(encoding="utf-8")
    memory = tomllib.loads(text).get("memory") or {}
    current = memory.get("globs")
    if current is not None and list(current) != list(DEFAULT_MEMORY_GLOBS):
        missing = [g for g in adapter.memory_globs if g not in current]
        if not missing:
            return []
        return [f"kept your [memory] globs; add {', '.join(missing)} to gate {adapter.name}'s own memory files"]
    line = "globs = " + json.dumps([*DEFAULT_MEMORY_GLOBS, *adapter.memory_globs], ensure_ascii=False)
    lines = text.splitlines()
    heads = [i for i, x in enumerate(lines) if x.strip().startswith("[")]
    start = next((i for i in heads if lines[i].strip() == "[memory]"), None)
    if start is None:
        if current is not None:  # spelled some other way (a dotted key): leave the file to its author
            return [f"kept your [memory] globs; add {', '.join(adapter.memory_globs)} to gate {adapter.name}'s own "
                    "memory files"]
        lines += ["", "[memory]", line]
    else:
        end = next((i for i in heads if i > start), len(lines))
        at = next((i for i in range(start + 1, end) if lines[i].split("=")[0].strip() == "globs"), None)
        if at is not None:  # the default list, as init wrote it
            lines[at] = line
        elif current is None:
            lines.insert(start + 1, line)
        else:
            return [f"kept your [memory] globs; add {', '.join(adapter.memory_globs)} to gate {adapter.name}'s own "
                    "memory files"]
    atomic_write(ws.config_path, ("\n".join(lines) + "\n").encode("utf-8"))
    return [f"[memory] globs += {', '.join(adapter.memory_globs)} ({adapter.name}'s own memory files)"]


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
