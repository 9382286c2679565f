"""`cuticle uninstall <host>`: take out of a host's configuration exactly what `cuticle init` put in.

What init added is recomputed, not guessed: init's merge is deterministic, so merging cuticle's entries into the
configuration as it was before init (the newest ``<file>.cuticle-backup-*`` without cuticle's entries, or nothing
when init created the file) gives the file init wrote. Then:

- the file is unchanged since init: the backup's bytes come back exactly (or the file init created is removed);
- someone changed it since: every change init made is undone where it is still as init left it, and everything
  else — other tools' hooks, settings added later — is kept; the file as it was is backed up first.

Memory files, `.cuticle/` (the stamp key, the GC archive, the session state) and the policy are never touched:
they belong to the workspace, which other hosts may still use.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from tiers.errors import UsageError
from tiers.record import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MISSING = object()


@dataclass
class UninstallReport:
    workspace: str
    host: str
    config_file: str
    outcome: str  # restored | removed | edited | not-installed
    actions: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"workspace": self.workspace, "host": self.host, "config_file": self.config_file,
                "outcome": self.outcome, "actions": self.actions}


# -- what is cuticle's -----------------------------------------------------------------------------------------
def _strings(node: Any):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _is_hook_command(s: str, host: str) -> bool:
    return f" hook {host}" in s and ("cuticle" in s or "-m gate" in s)


def _has_ours(data: Any, host: str) -> bool:
    if host == "openclaw":
        entries = ((data.get("plugins") or {}).get("entries") or {}) if isinstance(data, dict) else {}
        return isinstance(entries, dict) and "cuticle" in entries
    return any(_is_hook_command(s, host) for s in _strings(data))


def _command(data: dict, host: str, recorded: str | None) -> str | None:
    """The base command init installed (``cuticle``, a path, ``python -m gate``), read back from the config."""
    if host == "openclaw":
        try:
            argv = data["plugins"]["entries"]["cuticle"]["config"]["command"]
        except (KeyError, TypeError):
            return recorded
        return shlex.join(argv) if isinstance(argv, list) and all(isinstance(a, str) for a in argv) else recorded
    for s in _strings(data):
        if _is_hook_command(s, host):
            return s[: s.index(f" hook {host}")]
    return recorded


def _merged(host: str, data: dict, command: str, root: Path) -> dict:
    """What init's merge makes of ``data`` (the same function init calls)."""
    from .hosts import get

    return get(host).merge(data, command, root)[0]


# -- undoing a merge ------------------------------------------------------------------------------------------
def _revert(cur: Any, merged: Any, base: Any, host: str) -> Any:
    """``cur`` with the changes from ``base`` to ``merged`` undone wherever ``cur`` still has them."""
    if cur == merged:
        return base
    if isinstance(cur, dict) and isinstance(merged, dict):
        base_d = base if isinstance(base, dict) else {}
        out: dict = {}
        for key, value in cur.items():
            if key not in merged:
                out[key] = value  # added after init
                continue
            if key in base_d:
                out[key] = _revert(value, merged[key], base_d[key], host)
                continue
            # init added this key: drop it, or what is left of it once init's part is taken out
            if value == merged[key]:
                continue
            if isinstance(value, (dict, list)):
                rest = _revert(value, merged[key], type(value)(), host)
                if rest:
                    out[key] = rest
                continue
            out[key] = value  # a value init wrote and someone changed since: theirs now
        return out
    if isinstance(cur, list) and isinstance(merged, list):
        base_l = base if isinstance(base, list) else []
        added = [x for x in merged if x not in base_l]
        return [x for x in cur if x not in added and not _only_ours(x, host)]
    return cur


def _only_ours(node: Any, host: str) -> bool:
    """A hook entry all of whose commands are cuticle's (an older cuticle's entry, or one whose options changed)."""
    if not isinstance(node, dict):
        return False
    commands = [s for s in _strings(node) if " hook " in s]
    return bool(commands) and all(_is_hook_command(s, host) for s in commands)


# -- the command ------------------------------------------------------------------------------------------------
def _backups(path: Path) -> list[Path]:
    """init's backups of ``path``, newest first."""
    return sorted(path.parent.glob(f"{path.name}.cuticle-backup-*"), key=lambda p: p.name, reverse=True)


def _baseline(path: Path, host: str) -> tuple[dict, Path | None]:
    from .install import load_json

    for b in _backups(path):
        try:
            data = load_json(b)
        except Exception:  # noqa: BLE001 - an unreadable backup is not a baseline
            continue
        if not _has_ours(data, host):
            return data, b
    return {}, None


def _recorded(ws, host: str) -> tuple[str | None, str | None]:
    """(config file, command) that init recorded in `.cuticle/installed.json`, where it keeps one."""
    try:
        data = json.loads(ws.state_path("installed.json").read_text(encoding="utf-8"))
        rec = data.get(host)
    except (OSError, ValueError, AttributeError):
        return None, None
    if not isinstance(rec, dict):
        return None, None
    return (rec.get("config") if isinstance(rec.get("config"), str) else None,
            rec.get("command") if isinstance(rec.get("command"), str) else None)


def _forget_record(ws, host: str) -> bool:
    from tiers.fsutil import atomic_write

    p = ws.state_path("installed.json")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict) or host not in data:
        return False
    del data[host]
    atomic_write(p, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
    return True


def uninstall(host: str, root: Path, *, host_config: str | None = None, dry_run: bool = False) -> UninstallReport:
    from tiers.fsutil import atomic_write
    from tiers.workspace import Workspace

    from .install import host_config_path, load_json, write_json

    root = Path(root).resolve()
    ws = Workspace(root)
    rec_config, rec_command = _recorded(ws, host)
    path = host_config_path(host, root, host_config or rec_config)
    rep = UninstallReport(str(root), host, str(path), "not-installed")
    if not path.exists():
        rep.actions.append(f"{path}: not found; nothing to uninstall")
        return rep
    cur = load_json(path)
    if not _has_ours(cur, host):
        rep.actions.append(f"{path}: no cuticle entries; nothing to uninstall")
        if not dry_run and _forget_record(ws, host):
            rep.actions.append("removed the record of it from .cuticle/installed.json")
        return rep
    if host == "openclaw":
        named = (cur["plugins"]["entries"]["cuticle"].get("config") or {}).get("workspace")
        if isinstance(named, str) and Path(named).resolve() != root:
            raise UsageError(f"{path}: cuticle is installed there for the workspace {named}, not {root}; "
                             f"run `cuticle uninstall openclaw {named}`")
    command = _command(cur, host, rec_command)
    if command is None:
        raise UsageError(f"{path}: cannot tell which command init installed; remove cuticle's entries by hand")
    base, backup = _baseline(path, host)
    merged = _merged(host, base, command, root)
    result = _revert(cur, merged, base, host)
    verb = "would " if dry_run else ""
    if backup is not None and result == base:
        rep.outcome = "restored"
        rep.actions.append(f"{path}: {verb}put back {backup.name} (cuticle's entries were all init changed)")
        if not dry_run:
            atomic_write(path, backup.read_bytes())
            backup.unlink()
    elif backup is None and result == {}:
        rep.outcome = "removed"
        rep.actions.append(f"{path}: {verb}remove it (init created it and it holds nothing else)")
        if not dry_run:
            path.unlink()
            _remove_empty_dirs(path.parent, root)
    else:
        rep.outcome = "edited"
        rep.actions.append(f"{path}: {verb}remove cuticle's entries, keeping everything else")
        if not dry_run:
            saved = write_json(path, result)
            if saved:
                rep.actions.append(f"backed up {path.name} as it was to {Path(saved).name}")
    if not dry_run and _forget_record(ws, host):
        rep.actions.append("removed the record of it from .cuticle/installed.json")
    rep.actions.append("kept the memory files, .cuticle/ (stamp key, GC archive, sessions) and the policy")
    return rep


def _remove_empty_dirs(d: Path, root: Path) -> None:
    """Remove ``d`` and its parents while they are empty and inside ``root`` (e.g. the `.claude/` init made)."""
    while d != root and d.is_relative_to(root):
        try:
            os.rmdir(d)
        except OSError:
            return
        d = d.parent
