"""The hook's fast path: hand the payload to a running `cuticle serve` instead of loading the gate in-process.

A hook process pays for every import on every tool call; a warm server has the memory model, the rules and
their compiled patterns loaded already. This module imports only the standard library pieces it needs. When no
server is recorded in `.cuticle/serve.json`, or it does not answer, the caller falls back to the in-process gate
(and, with `[gate] server = "auto"`, starts a server for the next call).
"""

from __future__ import annotations

import json
import os

STATE = ".cuticle"


def payload_dir(payload: object) -> str | None:
    """The directory a hook payload names (OpenClaw `workspaceDir`, `cwd`, Cursor `workspace_roots`), if any."""
    if isinstance(payload, dict):
        for key in ("workspaceDir", "cwd"):
            v = payload.get(key)
            if isinstance(v, str) and v:
                return v
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots and isinstance(roots[0], str):
            return roots[0]
        ctx = payload.get("ctx") or payload.get("context")
        if isinstance(ctx, dict) and isinstance(ctx.get("workspaceDir"), str):
            return ctx["workspaceDir"]
    return None


def find_state(start: str | None) -> str | None:
    here = os.path.abspath(start or os.getcwd())
    while True:
        cand = os.path.join(here, STATE)
        if os.path.isdir(cand):
            return cand
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def forward(host: str, event: str | None, data: bytes, *, timeout: float = 5.0) -> tuple[str, str, int] | None:
    """(stdout, stderr, exit code) from a running server, or None to fall back to the in-process gate."""
    try:
        payload = json.loads(data) if data.strip() else {}
    except ValueError:
        return None  # let the in-process gate report (and log) malformed input
    state = find_state(payload_dir(payload) or os.environ.get("CLAUDE_PROJECT_DIR") or os.environ.get("GEMINI_PROJECT_DIR"))
    if state is None:
        return None
    try:
        with open(os.path.join(state, "serve.json"), encoding="utf-8") as fh:
            info = json.load(fh)
        address, token = info["address"], info["token"]
    except (OSError, ValueError, KeyError, TypeError):
        _maybe_autostart(state)
        return None
    path = f"/hook/{host}" + (f"/{event}" if event else "")
    try:
        import socket

        if address.startswith("unix:"):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(timeout)
            sock.connect(address[5:])
        else:
            h, _, p = address.split("://", 1)[-1].partition(":")
            if h not in ("127.0.0.1", "localhost"):
                return None  # never send payloads off the machine
            sock = socket.create_connection(("127.0.0.1", int(p)), timeout=timeout)
        # a hand-written HTTP/1.1 request: http.client costs more to import than the whole round trip
        head = (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n")
        with sock:
            sock.sendall(head.encode("latin-1") + data)
            chunks = []
            while True:
                b = sock.recv(65536)
                if not b:
                    break
                chunks.append(b)
        raw = b"".join(chunks)
        header, _, body = raw.partition(b"\r\n\r\n")
        status = header.split(b" ", 2)[1] if header.startswith(b"HTTP/") else b""
        if status != b"200":
            return None
        out = json.loads(body)
        return str(out.get("stdout") or ""), str(out.get("stderr") or ""), int(out.get("exit_code") or 0)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        _maybe_autostart(state, stale=True)
        return None


def _maybe_autostart(state: str, *, stale: bool = False) -> None:
    """With `[gate] server = "auto"`, start a detached `cuticle serve` for the next hook call."""
    try:
        import tomllib

        with open(os.path.join(state, "config.toml"), "rb") as fh:
            cfg = tomllib.load(fh)
        if (cfg.get("gate") or {}).get("server") != "auto":
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
