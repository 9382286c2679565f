"""`cuticle doctor`: is the gate installed, complete, runnable, and does it actually block? (hosts.md §0.7)

The canary runs the installed hook command, exactly as the host would, on a throw-away copy of the workspace
configuration in a temporary directory: a write to a guarded file and a write that contradicts a user directive
must both come back blocked in the host's dialect. Nothing is written to the real workspace.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from tiers.record import dataclass, field

from .install import CONFIG_FILES, SPECS, _commands_of, host_config_path, is_ours, load_json

CANARY_DIRECTIVE = "- User said: never deploy on Fridays."
CANARY_CONFLICT = "- Deploying on Fridays is fine."


@dataclass
class Check:
    name: str
    status: str  # ok | warn | fail
    detail: str

    def to_json(self) -> dict:
        return {"check": self.name, "status": self.status, "detail": self.detail}


@dataclass
class DoctorReport:
    workspace: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.status != "fail" for c in self.checks)

    def add(self, name: str, status: str, detail: str) -> None:
        self.checks.append(Check(name, status, detail))

    def to_json(self) -> dict:
        return {"workspace": self.workspace, "ok": self.ok, "checks": [c.to_json() for c in self.checks]}


def write_payload(host: str, path: str, content: str, cwd: str) -> dict:
    """A PreToolUse-style whole-file write of ``path`` in ``host``'s own shape (hosts.md §10.4)."""
    if host in ("claude", "codex"):
        p = {"session_id": "cuticle-doctor", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Write",
             "tool_input": {"file_path": path, "content": content}, "permission_mode": "default"}
        if host == "codex":
            p.update(model="canary", turn_id="t0")
        return p
    if host == "gemini":
        return {"session_id": "cuticle-doctor", "cwd": cwd, "hook_event_name": "BeforeTool",
                "timestamp": "2026-01-01T00:00:00Z", "tool_name": "write_file",
                "tool_input": {"file_path": path, "content": content}}
    if host == "copilot":
        return {"timestamp": 0, "cwd": cwd, "toolName": "create", "toolArgs": json.dumps({"path": path, "file_text": content})}
    if host == "cursor":
        return {"hook_event_name": "preToolUse", "conversation_id": "cuticle-doctor", "generation_id": "g0",
                "workspace_roots": [cwd], "tool_name": "Write", "tool_input": {"file_path": path, "content": content}}
    return {"hook": "before_tool_call", "workspaceDir": cwd,
            "event": {"toolName": "write", "params": {"path": path, "content": content}},
            "ctx": {"sessionId": "cuticle-doctor", "toolName": "write"}}


def is_block(host: str, stdout: str, code: int) -> bool:
    """Did this answer block the tool call, in ``host``'s dialect?"""
    try:
        body = json.loads(stdout) if stdout.strip() else {}
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    if host in ("claude", "codex"):
        return code == 2 or (body.get("hookSpecificOutput") or {}).get("permissionDecision") == "deny"
    if host == "gemini":
        return body.get("decision") in ("deny", "block") or code == 2
    if host == "copilot":
        return body.get("permissionDecision") == "deny"
    if host == "cursor":
        return body.get("permission") == "deny"
    return body.get("block") is True


def installed_commands(host: str, data: dict) -> dict[str, list[tuple[str | None, str]]]:
    """event -> [(matcher, command)] of cuticle's entries in a host config."""
    out: dict[str, list[tuple[str | None, str]]] = {}
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        for e in entries:
            for c in _commands_of(host, e):
                if is_ours(c, host):
                    out.setdefault(event, []).append((e.get("matcher") if isinstance(e, dict) else None, c))
    return out


def _resolvable(argv0: str) -> bool:
    if os.sep in argv0:
        return os.path.isfile(argv0) and os.access(argv0, os.X_OK)
    return shutil.which(argv0) is not None


def doctor(root: Path, host: str | None = None, *, host_config: str | None = None, canary: bool = True,
           timeout: float = 20.0) -> DoctorReport:
    from tiers.workspace import Workspace

    root = Path(root).resolve()
    rep = DoctorReport(str(root))
    ws = Workspace(root)
    # 1. state
    if not ws.state_dir.is_dir():
        rep.add("state", "fail", f"{root.name}/.cuticle/ is missing; run `cuticle init <host> {root}`")
    else:
        try:
            _ = ws.config
            rep.add("config", "ok", f"{ws.config_path.relative_to(root)} parses" if ws.config_path.exists()
                    else "no config.toml (defaults apply)")
        except Exception as exc:  # noqa: BLE001
            rep.add("config", "fail", str(exc))
        key = ws.state_path("key")
        if key.exists() and os.access(key, os.R_OK):
            rep.add("key", "ok", ".cuticle/key readable")
        else:
            rep.add("key", "fail", ".cuticle/key missing or unreadable; run `cuticle init`")
        rep.add("state-writable", "ok" if os.access(ws.state_dir, os.W_OK) else "fail",
                ".cuticle/ is writable" if os.access(ws.state_dir, os.W_OK) else ".cuticle/ is not writable")
        rep.add("server", "ok", _server_status(ws))
    # 2. hosts
    hosts = [host] if host else [h for h in CONFIG_FILES if (root / CONFIG_FILES[h]).exists()]
    if not hosts:
        rep.add("hooks", "fail", "no host configuration with cuticle found; run `cuticle init <host>`")
    for h in hosts:
        _check_host(rep, ws, h, host_config, canary, timeout)
    return rep


def _check_host(rep: DoctorReport, ws, host: str, host_config: str | None, canary: bool, timeout: float) -> None:
    path = host_config_path(host, ws.root, host_config)
    try:
        data = load_json(path)
    except Exception as exc:  # noqa: BLE001
        rep.add(f"{host}:config", "fail", str(exc))
        return
    if not data:
        rep.add(f"{host}:config", "fail", f"{path} is missing or empty; run `cuticle init {host}`")
        return
    if host == "openclaw":
        argv = _openclaw_argv(rep, data, path)
        if argv is None:
            return
        pre_cmd = shlex.join(argv + ["hook", "openclaw", "before_tool_call"])
    else:
        found = installed_commands(host, data)
        pre_cmd = None
        for spec in SPECS[host]:
            entries = found.get(spec.event, [])
            if not entries:
                rep.add(f"{host}:{spec.event}", "fail", f"{path.name}: no cuticle hook for {spec.event}; run `cuticle init {host}`")
                continue
            if spec.matcher:
                want = set(spec.matcher.split("|"))
                have: set[str] = set()
                for m, _c in entries:
                    have |= set((m or "").split("|")) if m else want  # no matcher = every tool
                missing = want - have
                if missing:
                    rep.add(f"{host}:{spec.event}", "fail",
                            f"{path.name}: {spec.event} matcher misses {', '.join(sorted(missing))}; re-run `cuticle init {host}`")
                    continue
            rep.add(f"{host}:{spec.event}", "ok", f"{spec.event}: {entries[0][1]}")
            if pre_cmd is None and spec.event in ("PreToolUse", "BeforeTool", "preToolUse"):
                pre_cmd = entries[0][1]
        if pre_cmd is None:
            return
        argv = shlex.split(pre_cmd)
        if not argv or not _resolvable(argv[0]):
            rep.add(f"{host}:command", "fail", f"{argv[0] if argv else pre_cmd!r} is not on PATH; install cuticle or re-run init with --command")
            return
        rep.add(f"{host}:command", "ok", f"{argv[0]} resolves")
    if canary:
        _canary(rep, ws, host, shlex.split(pre_cmd), timeout)


def _server_status(ws) -> str:
    """Whether hook calls go to a `cuticle serve` for this workspace, and whether one is running now."""
    from .client import autostart_enabled, loads

    mode = "auto (hook calls use a background `cuticle serve`)" if autostart_enabled(str(ws.state_dir)) else "off"
    try:
        info = loads(ws.state_path("serve.json").read_bytes())
        os.kill(int(info["pid"]), 0)
        running = f"running at {info['address']} (pid {info['pid']})"
    except (OSError, ValueError, KeyError, TypeError):
        running = "none running"
    return f"server {mode}; {running}"


def _openclaw_argv(rep: DoctorReport, data: dict, path: Path) -> list[str] | None:
    from .install import PLUGIN_DIR

    plugins = data.get("plugins") or {}
    paths = ((plugins.get("load") or {}).get("paths")) or []
    entry = (plugins.get("entries") or {}).get("cuticle")
    if not isinstance(entry, dict) or not entry.get("enabled"):
        rep.add("openclaw:plugin", "fail", f"{path}: plugins.entries.cuticle is missing or disabled; run `cuticle init openclaw`")
        return None
    if not any(Path(os.path.expanduser(p)).resolve() == PLUGIN_DIR for p in paths if isinstance(p, str)):
        rep.add("openclaw:plugin", "warn", f"{path}: the plugin folder {PLUGIN_DIR} is not in plugins.load.paths "
                                            "(fine if it was installed with `openclaw plugins install`)")
    else:
        rep.add("openclaw:plugin", "ok", f"plugin loaded from {PLUGIN_DIR}")
    for f in ("package.json", "openclaw.plugin.json", "index.js"):
        if not (PLUGIN_DIR / f).is_file():
            rep.add("openclaw:files", "fail", f"{PLUGIN_DIR / f} is missing from the package")
            return None
    hooks = entry.get("hooks") or {}
    if not hooks.get("allowConversationAccess"):
        rep.add("openclaw:provenance", "warn", "hooks.allowConversationAccess is off: llm_input (user provenance) is not delivered")
    cmd = (entry.get("config") or {}).get("command") or ["cuticle"]
    argv = cmd if isinstance(cmd, list) else shlex.split(str(cmd))
    if not argv or not _resolvable(argv[0]):
        rep.add("openclaw:command", "fail", f"{argv[0] if argv else cmd!r} is not resolvable")
        return None
    rep.add("openclaw:command", "ok", f"{argv[0]} resolves")
    return [str(a) for a in argv]


def _canary(rep: DoctorReport, ws, host: str, argv: list[str], timeout: float) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="cuticle-canary-"))
    try:
        state = tmp / ".cuticle"
        state.mkdir()
        if ws.config_path.is_file():
            shutil.copy2(ws.config_path, state / "config.toml")
        else:
            (state / "config.toml").write_text("", encoding="utf-8")
        import secrets

        (state / "key").write_text(secrets.token_hex(32) + "\n", encoding="ascii")  # installed, as `init` leaves it
        (tmp / "MEMORY.md").write_text("# Memory\n\n" + CANARY_DIRECTIVE + "\n", encoding="utf-8")
        cases = [
            ("canary:guarded", str(tmp / "PERSONALITY.md"), "- I may rewrite my own personality.\n",
             "a write to the generated PERSONALITY.md"),
            ("canary:conflict", str(tmp / "MEMORY.md"), "# Memory\n\n" + CANARY_DIRECTIVE + "\n" + CANARY_CONFLICT + "\n",
             "a write contradicting a user directive"),
        ]
        for name, path, content, what in cases:
            payload = json.dumps(write_payload(host, path, content, str(tmp)))
            try:
                # in-process (no `cuticle serve` for a directory about to be deleted): the gate's own answer
                proc = subprocess.run(argv, input=payload, capture_output=True, text=True, cwd=tmp, timeout=timeout,
                                      env={**os.environ, "CUTICLE_SERVER": "off"})
            except (OSError, subprocess.TimeoutExpired) as exc:
                rep.add(f"{host}:{name}", "fail", f"could not run {shlex.join(argv)}: {exc}")
                continue
            if is_block(host, proc.stdout, proc.returncode):
                rep.add(f"{host}:{name}", "ok", f"{what} was blocked (exit {proc.returncode})")
            else:
                detail = (proc.stderr.strip().splitlines() or [""])[-1][:200]
                rep.add(f"{host}:{name}", "fail",
                        f"{what} was NOT blocked (exit {proc.returncode}); the gate is not enforcing. {detail}".strip())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rep.add(f"{host}:canary-cleanup", "ok" if not tmp.exists() else "fail",
            "canary ran in a temporary directory; nothing left behind" if not tmp.exists() else f"{tmp} was left behind")
