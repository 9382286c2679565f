"""The hook's fast path: hand the payload to a running `cuticle serve` instead of loading the gate in-process.

A hook process pays for every import on every tool call; a warm server has the memory model, the rules and
their compiled patterns loaded already. So this module is the whole of a forwarded hook call: it reads the
payload with the gate's own intake (``gate.intake``, public ``json``), finds the protected workspace with the
shared rule (``tiers.discover``), and talks HTTP over a plain ``socket`` (public modules only: a private one
broke the hook on Python 3.11 before). When no server is recorded in `.cuticle/serve.json`, or it does not
answer, the caller falls back to the in-process gate (and, with `[gate] server = "auto"`, starts a server for the next call).
"""

from __future__ import annotations

import os

STATE = ".cuticle"

#: the host's project-directory variable, per host (the project root outranks the payload's cwd)
PROJECT_ENV = {"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR", "cursor": "CURSOR_PROJECT_DIR",
               "codex": "CODEX_PROJECT_DIR", "copilot": "COPILOT_PROJECT_DIR", "openclaw": "OPENCLAW_WORKSPACE"}


def loads(data: bytes | str) -> object:
    """``json.loads`` for UTF-8 input; ValueError on bad input."""
    import json

    return json.loads(data)


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


def _exchange(address: str, request: bytes, timeout: float) -> bytes | None:
    """Send ``request`` to the server at ``address`` and read the whole answer (the server closes)."""
    import socket

    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        target: object = address[5:]
    else:
        host, _, port = address.split("://", 1)[-1].partition(":")
        if host not in ("127.0.0.1", "localhost"):
            return None  # never send payloads off the machine
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        target = ("127.0.0.1", int(port))
    try:
        sock.settimeout(timeout)
        sock.connect(target)
        sock.sendall(request)
        chunks = []
        while True:
            b = sock.recv(65536)
            if not b:
                break
            chunks.append(b)
    finally:
        sock.close()
    return b"".join(chunks)


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


def _forward(host: str, event: str | None, data: bytes, timeout: float) -> tuple[str, str, int] | None:
    if not _safe_word(host) or (event is not None and not _safe_word(event)):
        return None  # not a URL path segment: the in-process gate answers (and reports) it
    from .intake import PayloadError, decode

    try:
        payload = decode(data)
    except PayloadError:
        return None  # let the in-process gate answer (and log) malformed input
    state = find_state(project_dirs(payload, os.environ, host, None), host_project(payload, os.environ, host))
    if state is None:
        return None
    var = PROJECT_ENV.get(host)
    project = os.environ.get(var, "") if var else ""
    try:
        with open(os.path.join(state, "serve.json"), "rb") as fh:
            info = loads(fh.read())
        address, token = info["address"], info["token"]
        if not isinstance(address, str) or not isinstance(token, str) or not token.isascii() or not token.isprintable():
            raise TypeError("address and token must be strings (the token printable ASCII)")
    except (OSError, ValueError, KeyError, TypeError):
        _maybe_autostart(state)
        return None
    path = f"/hook/{host}" + (f"/{event}" if event else "") + "?result=0"  # stdout is relayed, never parsed
    try:
        # a hand-written HTTP/1.1 request: http.client costs more to import than the whole round trip
        head = (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n"
                # the host's project variable, which the server's own environment does not have (hex UTF-8)
                + (f"X-Cuticle-Project: {project.encode('utf-8', 'surrogateescape').hex()}\r\n" if project else "")
                + "\r\n")
        raw = _exchange(address, head.encode("latin-1") + data, timeout)
        if raw is None:
            return None
        header, _, body = raw.partition(b"\r\n\r\n")
        status = header.split(b" ", 2)[1] if header.startswith(b"HTTP/") else b""
        if status != b"200":
            if status == b"503":  # the server's code changed under it: it has stopped; start a fresh one
                _maybe_autostart(state, stale=True)
            return None
        out = loads(body)
        return str(out.get("stdout") or ""), str(out.get("stderr") or ""), int(out.get("exit_code") or 0)
    except TimeoutError:
        return None  # a slow answer is not a stale server: answer in-process within the budget, keep the server
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        _maybe_autostart(state, stale=True)
        return None


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
