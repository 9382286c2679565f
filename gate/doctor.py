"""`cuticle doctor`: is the gate installed, complete, runnable, and does it actually block? (hosts.md §0.7)

The canary runs the installed hook command as the host would (from the host's environment: without the virtual
environment cuticle may be installed in), on a throw-away copy of the workspace
configuration in a temporary directory: a write to a guarded file and a write that contradicts a user directive
must both come back blocked in the host's dialect. Nothing is written to the real workspace.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tiers.errors import ConfigError
from tiers.record import dataclass, field

from .install import host_config_path, installed_configs, load_json

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
    """A before-tool whole-file write of ``path`` in ``host``'s own shape."""
    from .hosts import get

    return get(host).write_payload(path, content, cwd)


def is_block(host: str, stdout: str, code: int) -> bool:
    """Did this answer block the tool call, in ``host``'s dialect?"""
    from .hosts import get

    return get(host).is_block(stdout, code)


def host_env(environ: dict | None = None) -> dict:
    """The environment a host gives its hooks, as far as it can be told from here: this one without the virtual
    environment cuticle may run in (a host started from a desktop or a service never activated it)."""
    env = dict(os.environ if environ is None else environ)
    venv_bins = set()
    if env.get("VIRTUAL_ENV"):
        venv_bins.add(os.path.join(env["VIRTUAL_ENV"], "bin"))
    if sys.prefix != sys.base_prefix:
        venv_bins.add(os.path.join(sys.prefix, "bin"))
    env.pop("VIRTUAL_ENV", None)
    parts = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and os.path.normpath(p) not in
             {os.path.normpath(b) for b in venv_bins}]
    env["PATH"] = os.pathsep.join(parts)
    return env


def _resolvable(argv0: str, env: dict) -> bool:
    if os.sep in argv0:
        return os.path.isfile(argv0) and os.access(argv0, os.X_OK)
    return shutil.which(argv0, path=env.get("PATH", "")) is not None


def configured_hosts(root: Path) -> list[str]:
    """The hosts with cuticle installed for ``root``: the project files that carry cuticle's hooks, the ones `init`
    recorded in `.cuticle/installed.json`, and an OpenClaw configuration whose cuticle entry names ``root``."""
    from tiers.workspace import Workspace

    from .hosts import HOSTS, get

    recorded = installed_configs(Workspace(root))
    found = []
    for name in HOSTS:
        adapter = get(name)
        if name in recorded:
            found.append(name)
            continue
        path = adapter.config_path(root)
        try:
            data = load_json(path)
        except ConfigError:  # a broken project file is reported by the host's own check
            if adapter.config_file:
                found.append(name)
            continue
        if data and adapter.installed_for(data, root):
            found.append(name)
    return found


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
        _check_session_gc(rep, ws)
        try:
            from rules.governance import policy_status
            status, detail = policy_status(ws)
        except Exception as exc:  # noqa: BLE001 - an invalid config.toml is reported by the config check
            status, detail = "invalid", str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        rep.add("policy", {"ok": "ok", "missing": "warn", "invalid": "fail"}[status], detail)
    # 2. hosts
    hosts = [host] if host else configured_hosts(root)
    if not hosts:
        rep.add("hooks", "fail", "no host configuration with cuticle found; run `cuticle init <host>`")
    recorded = installed_configs(ws)
    for h in hosts:
        _check_host(rep, ws, h, host_config or recorded.get(h), canary, timeout)
    return rep


def _check_host(rep: DoctorReport, ws, host: str, host_config: str | None, canary: bool, timeout: float) -> None:
    from .hosts import get

    adapter = get(host)
    path = host_config_path(host, ws.root, host_config)
    try:
        data = load_json(path)
    except Exception as exc:  # noqa: BLE001
        rep.add(f"{host}:config", "fail", str(exc))
        return
    if not data:
        rep.add(f"{host}:config", "fail", f"{path} is missing or empty; run `cuticle init {host}`")
        return
    argv, checks = adapter.hook_argv(data, path)
    for name, status, detail in checks + adapter.check(ws.root, data):
        rep.add(name, status, detail)
    if argv is None:
        return
    env = host_env()
    if not argv or not _resolvable(argv[0], env):
        rep.add(f"{host}:command", "fail", f"{argv[0] if argv else '(empty)'!r} is not found from the host's "
                                           "environment (its PATH, without this virtual environment); re-run "
                                           f"`cuticle init {host}` (it writes an absolute path) or pass --command")
        return
    rep.add(f"{host}:command", "ok", f"{argv[0]} resolves from the host's environment")
    if canary:
        _canary(rep, ws, host, argv, timeout, env)


def _check_session_gc(rep: DoctorReport, ws) -> None:
    """The last session GC the hook ran (session start or end, `.cuticle/events.jsonl`): ``warn`` naming every
    file it left and why (a second hard link, a host still writing), whose expired lines are still in memory."""
    from tiers.fsutil import read_jsonl
    from tiers.secrets import mask_secrets

    last = None
    for rec in read_jsonl(ws.state_path("events.jsonl")):
        if rec.get("decision") in ("session-start", "session-end") and "gc_removed" in rec:
            last = rec
    if last is None:
        return  # no session GC recorded yet
    when = f"at {last['decision']}"
    errors = [e for e in last.get("gc_errors") or () if isinstance(e, str)]
    if not errors:
        rep.add("gc", "ok", f"the last session GC ({when}) removed {last.get('gc_removed')} line(s) and left no file")
        return
    rep.add("gc", "warn", f"the last session GC ({when}) left {len(errors)} file(s), their lines not collected: "
            + "; ".join(mask_secrets(e) for e in errors) + " (fix the cause, then run `cuticle gc`)")


def _server_status(ws) -> str:
    """Whether hook calls go to a `cuticle serve` for this workspace, and whether one is running now."""
    from .client import autostart_enabled

    mode = "auto (hook calls use a background `cuticle serve`)" if autostart_enabled(str(ws.state_dir)) else "off"
    try:
        info = json.loads(ws.state_path("serve.json").read_bytes())
        os.kill(int(info["pid"]), 0)
        running = f"running at {info['address']} (pid {info['pid']})"
    except (OSError, ValueError, KeyError, TypeError):
        running = "none running"
    return f"server {mode}; {running}"


def _canary(rep: DoctorReport, ws, host: str, argv: list[str], timeout: float, env: dict) -> None:
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
                                      env={**env, "CUTICLE_SERVER": "off"})
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
