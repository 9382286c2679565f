"""The hook's fast path: hand the payload to a running `cuticle serve` instead of loading the gate in-process.

A hook process pays for every import on every tool call; a warm server has the memory model, the rules and
their compiled patterns loaded already. So this module is the whole of a forwarded hook call, and it imports
only ``os`` and ``select`` (``json`` brings ``re`` and ``enum``, ``socket`` brings ``enum`` and ``selectors``:
each costs more than the interpreter's own start-up). It talks to the server through the server's *door*, a FIFO
in `.cuticle/` (``DOOR``), with files in the private `.cuticle/calls/` (``gate.door`` is the server's half):

1. the call is written to ``calls/<id>.in``: one header line ``cuticle-call 1 HOST EVENT CWD VAR…`` (``-`` for
   no event; the hook process's directory and its value of each host's project variable, ``PROJECT_ENV`` order,
   as hex UTF-8 or ``-`` when unset) and the payload bytes;
2. a FIFO ``calls/<id>.out`` is made for the answer, and ``<id>`` (32 hex digits and a newline, one atomic pipe
   write) goes through the door;
3. the server answers ``EXIT LEN_STDOUT LEN_STDERR`` and the two texts, or ``stale`` when cuticle's code changed.

Which server: the one of the workspace the host names (its project variable) or the hook process's directory,
where the agent has no say; only when neither is installed is the payload read (``gate.intake``) for its project
fields and ``cwd``. The server judges the call exactly as the in-process gate would (the same handler, given this
process's directory and project variable), so the route picks a process, never the rules. When no server reads
the door, or it does not answer in time, the caller answers in-process (and, with `[gate] server = "auto"`,
starts a server for the next call): a failed forward is slower, never an unchecked call.
"""

from __future__ import annotations

import os

STATE = ".cuticle"
#: the server's door (a FIFO it keeps open for reading) and the private directory of the calls it answers
DOOR = "hook.door"
CALLS = "calls"
#: the first word of a call's header line (the version of this protocol)
CALL_MAGIC = b"cuticle-call 1"
#: the whole answer of a server whose code changed on disk (it is stopping; start a fresh one)
STALE = b"stale\n"
#: the longest header line a call may have (the server reads no more than the intake's limit after it)
MAX_HEADER = 64 * 1024

#: the host's project-directory variable, per host (the project root outranks the payload's cwd)
PROJECT_ENV = {"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR", "cursor": "CURSOR_PROJECT_DIR",
               "codex": "CODEX_PROJECT_DIR", "copilot": "COPILOT_PROJECT_DIR", "openclaw": "OPENCLAW_WORKSPACE"}

def host_project(payload: object, env, host: str) -> str | None:
    """The project root the host names, if any: the payload's project fields (OpenClaw ``workspaceDir``, Cursor
    ``workspace_roots``), else the host's project variable (CLAUDE_PROJECT_DIR…). The agent cannot move it."""
    if isinstance(payload, dict):
        roots = payload.get("workspace_roots")
        ctx, context = payload.get("ctx"), payload.get("context")
        for v in (payload.get("workspaceDir"), roots[0] if isinstance(roots, list) and roots else None,
                  ctx.get("workspaceDir") if isinstance(ctx, dict) else None,
                  context.get("workspaceDir") if isinstance(context, dict) else None):
            if isinstance(v, str) and v:
                return v
    var = PROJECT_ENV.get(host)
    value = env.get(var) if var else None
    return value if isinstance(value, str) and value else None


def project_dirs(payload: object, env, host: str, cwd: str | None) -> list[str]:
    """Where to look for the protected workspace, strongest first: the host's project root, the payload's
    ``cwd``, then ``cwd`` (the server's workspace) or the process's directory."""
    out: list[str] = []
    project = host_project(payload, env, host)
    if project:
        out.append(project)
    if isinstance(payload, dict) and isinstance(payload.get("cwd"), str) and payload["cwd"]:
        out.append(payload["cwd"])
    out.append(cwd or os.getcwd())
    return out


def find_state(dirs: list[str], project: str | None = None) -> str | None:
    """The `.cuticle/` of the protected workspace of the first of ``dirs`` that has one (tiers.discover)."""
    from tiers.discover import installed_root

    for d in dirs:
        root = installed_root(d, project)
        if root is not None:
            return os.path.join(root, STATE)
    return None


def forward(host: str, event: str | None, data: bytes, *, timeout: float = 5.0) -> tuple[str, str, int] | None:
    """(stdout, stderr, exit code) from a running server, or None to fall back to the in-process gate.
    Never raises: whatever goes wrong here, the in-process gate still answers."""
    if _env_setting() == "off":
        return None
    try:
        return _forward(host, event, data, timeout)
    except Exception:  # noqa: BLE001 - forwarding is an optimisation; the caller answers in-process
        return None


def _safe_word(s: str) -> bool:
    return bool(s) and len(s) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-:.") for c in s)


def _route(host: str, data: bytes, cwd: str, project: str) -> str | None:
    """The `.cuticle/` whose server gets the call (see the module docstring), or None."""
    state = find_state([d for d in (project, cwd) if d], project or None)
    if state is not None:
        return state
    from .intake import PayloadError, decode

    try:
        payload = decode(data)
    except PayloadError:
        return None  # let the in-process gate answer (and log) malformed input
    return find_state(project_dirs(payload, os.environ, host, cwd), host_project(payload, os.environ, host))


def _forward(host: str, event: str | None, data: bytes, timeout: float) -> tuple[str, str, int] | None:
    if not _safe_word(host) or (event is not None and not _safe_word(event)) or not hasattr(os, "mkfifo"):
        return None  # not a header word (the in-process gate answers and reports it), or no FIFOs here
    from .intake import MAX_PAYLOAD

    if len(data) > MAX_PAYLOAD:
        return None  # the in-process gate refuses it without a copy on disk
    var = PROJECT_ENV.get(host.lower())
    project = os.environ.get(var, "") if var else ""
    cwd = os.getcwd()
    state = _route(host, data, cwd, project)
    if state is None:
        return None
    try:
        door = os.open(os.path.join(state, DOOR), os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        _maybe_autostart(state)
        return None
    except OSError:  # ENXIO: a door nobody reads (its server is gone)
        _maybe_autostart(state, stale=True)
        return None
    try:
        if not _is_fifo(door):
            return None
        # every host's project variable, as this process has it: the handler reads the one of the host it
        # detects (``hook auto``), and the server's own environment is whatever its first caller had
        values = [_hex(os.environ.get(v, "")) for v in PROJECT_ENV.values()]
        header = b" ".join([CALL_MAGIC, host.encode(), (event or "-").encode(), _hex(cwd), *values]) + b"\n"
        if len(header) > MAX_HEADER:
            return None
        raw = _call(os.path.join(state, CALLS), door, header + data, timeout)
    finally:
        os.close(door)
    if raw is None:
        return None  # a slow answer is not a stale server: answer in-process within the budget, keep the server
    if raw == STALE:
        _maybe_autostart(state, stale=True)
        return None
    head, _, rest = raw.partition(b"\n")
    code, n_out, _n_err = (int(x) for x in head.split(b" "))
    return rest[:n_out].decode("utf-8"), rest[n_out:].decode("utf-8"), code


def _hex(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape").hex().encode() or b"-"


def _is_fifo(fd: int) -> bool:
    return os.fstat(fd).st_mode & 0o170000 == 0o010000


def _call(calls: str, door: int, request: bytes, timeout: float) -> bytes | None:
    """Leave ``request`` in ``calls``, ring the door, and wait for the whole answer (None: none in time)."""
    import select
    import time

    deadline = time.monotonic() + timeout
    name = os.urandom(16).hex()
    into, out = os.path.join(calls, name + ".in"), os.path.join(calls, name + ".out")
    os.mkfifo(out, 0o600)
    try:
        # read and write: the server's open for writing never waits, and its closing is no end-of-file (the
        # answer's header says how long it is, so a cut answer is never taken for a whole one)
        fd = os.open(out, os.O_RDWR | os.O_NONBLOCK)
        try:
            with open(os.open(into, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "wb") as fh:
                fh.write(request)
            if os.write(door, name.encode() + b"\n") != 33:
                return None
            chunks: list[bytes] = []
            got, want = 0, -1
            while want < 0 or got < want:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    return None
                try:
                    chunk = os.read(fd, 1 << 20)
                except BlockingIOError:
                    continue
                chunks.append(chunk)
                got += len(chunk)
                if want < 0 and b"\n" in chunk:
                    head = b"".join(chunks).partition(b"\n")[0]
                    if head == STALE[:-1]:
                        return STALE
                    fields = head.split(b" ")
                    code = fields[0][1:] if fields[0][:1] == b"-" else fields[0]
                    if len(fields) != 3 or not (code.isdigit() and fields[1].isdigit() and fields[2].isdigit()):
                        return None
                    want = len(head) + 1 + int(fields[1]) + int(fields[2])
            raw = b"".join(chunks)
            return raw if len(raw) == want else None
        finally:
            os.close(fd)
    finally:
        for path in (into, out):
            try:
                os.unlink(path)
            except OSError:
                pass


def _env_setting() -> str:
    """CUTICLE_SERVER as ``off`` or ``auto`` (it overrides the workspace's setting), else ``""``."""
    env = os.environ.get("CUTICLE_SERVER", "").strip().lower()
    return env if env in ("off", "auto") else ""


def autostart_enabled(state: str) -> bool:
    """``server = "auto"`` in the workspace's `[gate]` config, unless CUTICLE_SERVER (off|auto) overrides it."""
    env = _env_setting()
    if env:
        return env == "auto"
    try:
        with open(os.path.join(state, "config.toml"), "rb") as fh:
            raw = fh.read()
    except OSError:
        return False
    if b"server" not in raw:
        return False  # the setting is absent: off (no TOML parser for the common case)
    import tomllib

    try:
        cfg = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False  # the in-process gate reports a broken config
    gate = cfg.get("gate")
    return isinstance(gate, dict) and gate.get("server") == "auto"


def _maybe_autostart(state: str, *, stale: bool = False) -> None:
    """With `[gate] server = "auto"`, start a detached `cuticle serve` for the next hook call."""
    try:
        if not autostart_enabled(state):
            return
        if stale:
            try:
                os.unlink(os.path.join(state, "serve.json"))
            except OSError:
                pass
        lock = os.path.join(state, "serve.starting")
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.close(fd)
        except FileExistsError:
            import time

            if time.time() - os.path.getmtime(lock) < 30:
                return  # another hook call is starting it
            os.unlink(lock)
            return
        import subprocess
        import sys

        subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [sys.executable, "-m", "gate", "serve", "--workspace", os.path.dirname(state), "--idle-timeout", "1800"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True,
        )
    except Exception:  # noqa: BLE001 - autostart is an optimisation; never fail the hook over it
        return
