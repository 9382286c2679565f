"""The hook's fast path: hand the payload to a running `cuticle serve` instead of loading the gate in-process.

A hook process pays for every import on every tool call; a warm server has the memory model, the rules and
their compiled patterns loaded already. So this module is the whole of a forwarded hook call, and it imports
nothing a bare interpreter has not loaded already but two C modules: ``_json`` (the stdlib's own decoder, used
without the ``json`` package, whose import pulls in ``re``) and ``_socket`` (without ``socket``, which pulls in
``enum`` and ``selectors``). When no server is recorded in `.cuticle/serve.json`, or it does not answer, the
caller falls back to the in-process gate (and, with `[gate] server = "auto"`, starts a server for the next call).
"""

from __future__ import annotations

import os

STATE = ".cuticle"


class _Context:
    """What ``_json.make_scanner`` reads from a decoder: the settings of ``json.loads`` with no hooks."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float  # the C scanner's own fast paths for the built-in types
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return float(name.replace("Infinity", "inf"))  # NaN, Infinity, -Infinity, as json.loads reads them


_SCAN = None
_SPACE = " \t\n\r"


def loads(data: bytes | str) -> object:
    """``json.loads`` for UTF-8 input, without importing the ``json`` package; ValueError on bad input."""
    global _SCAN
    if _SCAN is None:
        import _json

        _SCAN = _json.make_scanner(_Context())
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        raise ValueError("a JSON document must not start with a byte-order mark")
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _SCAN(text, start)
    except StopIteration as exc:
        raise ValueError(f"expecting a JSON value at character {exc.value}") from None
    if text[end:].strip(_SPACE):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


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


def _exchange(address: str, request: bytes, timeout: float) -> bytes | None:
    """Send ``request`` to the server at ``address`` and read the whole answer (the server closes)."""
    import _socket

    if address.startswith("unix:"):
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        target: object = address[5:]
    else:
        host, _, port = address.split("://", 1)[-1].partition(":")
        if host not in ("127.0.0.1", "localhost"):
            return None  # never send payloads off the machine
        sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
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
    """(stdout, stderr, exit code) from a running server, or None to fall back to the in-process gate."""
    if _env_setting() == "off":
        return None
    try:
        payload = loads(data) if data.strip() else {}
    except ValueError:
        return None  # let the in-process gate report (and log) malformed input
    state = find_state(payload_dir(payload) or os.environ.get("CLAUDE_PROJECT_DIR") or os.environ.get("GEMINI_PROJECT_DIR"))
    if state is None:
        return None
    try:
        with open(os.path.join(state, "serve.json"), "rb") as fh:
            info = loads(fh.read())
        address, token = info["address"], info["token"]
        if not isinstance(address, str) or not isinstance(token, str):
            raise TypeError("address and token must be strings")
    except (OSError, ValueError, KeyError, TypeError):
        _maybe_autostart(state)
        return None
    path = f"/hook/{host}" + (f"/{event}" if event else "") + "?result=0"  # stdout is relayed, never parsed
    try:
        # a hand-written HTTP/1.1 request: http.client costs more to import than the whole round trip
        head = (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n")
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
