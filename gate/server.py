"""`cuticle serve`: the hook as a long-lived local process, for hosts that call it on every tool call.

HTTP on loopback TCP (127.0.0.1 only) or on a Unix socket. Every request carries the token
(``Authorization: Bearer <token>``); the token and address are written to `.cuticle/serve.json` (mode 600) for
local clients such as the OpenClaw plugin. ``POST /hook/<host>[/<event>]`` with the payload as the body answers
exactly what `cuticle hook <host> [event]` would: ``{"stdout", "stderr", "exit_code", "result"}`` where
``result`` is the parsed stdout JSON (or null; left out when the query says ``result=0``). ``GET /health``
answers ``{"ok": true}``.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

MAX_BODY = 8 * 1024 * 1024
#: cuticle's own packages: a server whose code changed on disk (an upgrade, a checkout) must not keep answering
PACKAGES = ("gate", "tiers", "rules", "personality")
#: seconds between two looks at the code's modification times
CODE_CHECK_EVERY = 2.0


def code_stamp() -> tuple[tuple[str, int, int], ...]:
    """(path, size, mtime) of every file of cuticle's packages (sources and data, not bytecode caches)."""
    base = Path(__file__).resolve().parent.parent
    out = []
    stack = [str(base / p) for p in PACKAGES]
    while stack:
        top = stack.pop()
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__" and not e.name.startswith("."):
                    stack.append(e.path)
            else:
                try:
                    st = e.stat()
                except OSError:
                    continue
                out.append((e.path, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


class _Handler(BaseHTTPRequestHandler):
    server_version = "cuticle"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - silence per-request stderr lines
        return

    def address_string(self) -> str:
        return "local"

    def _send(self, code: int, obj: dict) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self) -> bool:
        got = self.headers.get("Authorization", "")
        want = "Bearer " + self.server.token  # type: ignore[attr-defined]
        return hmac.compare_digest(got.encode(), want.encode())

    def do_GET(self) -> None:  # noqa: N802
        if not self._authorized():
            return self._send(401, {"error": "missing or wrong token"})
        if self.path.rstrip("/") == "/health":
            return self._send(200, {"ok": True})
        return self._send(404, {"error": "unknown path"})

    def do_POST(self) -> None:  # noqa: N802
        self.server.last_request = time.monotonic()  # type: ignore[attr-defined]
        if not self._authorized():
            return self._send(401, {"error": "missing or wrong token"})
        if self.server.code_changed():  # type: ignore[attr-defined]
            # answering with the old code would keep an upgrade (or a fix) from taking effect; the client falls
            # back in-process and, with server = "auto", starts a fresh server
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return self._send(503, {"error": "cuticle's code changed on disk; this server has stopped"})
        parts = [unquote(p) for p in self.path.split("?", 1)[0].strip("/").split("/")]
        if len(parts) not in (2, 3) or parts[0] != "hook":
            return self._send(404, {"error": "use POST /hook/<host>[/<event>]"})
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._send(413, {"error": "payload too large"})
        data = self.rfile.read(length) if length else b""
        from .handler import handle

        reply = handle(parts[1], parts[2] if len(parts) == 3 else None, data, cwd=self.server.cwd)  # type: ignore[attr-defined]
        if "result=0" in self.path.partition("?")[2].split("&"):
            return self._send(200, reply.to_json())  # `cuticle hook` relays stdout as it is: no parsed copy
        try:
            result = json.loads(reply.stdout) if reply.stdout.strip() else None
        except ValueError:
            result = None
        self._send(200, {**reply.to_json(), "result": result})


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def make_server(*, port: int | None = None, socket_path: str | None = None, token: str | None = None,
                cwd: str | None = None):
    """A ready server (not yet serving). TCP binds 127.0.0.1 only."""
    token = token or secrets.token_urlsafe(24)
    from rules.secrets import mask_secrets
    from tiers.judge import enable

    enable(mask_secrets)  # the optional judge runs only here, never on the cold path (docs/judge.md)
    if socket_path:
        try:
            os.unlink(socket_path)
        except FileNotFoundError:
            pass
        old = os.umask(0o177)
        try:
            srv = _UnixServer(socket_path, _Handler)
        finally:
            os.umask(old)
        srv.address = f"unix:{socket_path}"
    else:
        srv = ThreadingHTTPServer(("127.0.0.1", port or 0), _Handler)
        srv.daemon_threads = True
        srv.address = f"http://127.0.0.1:{srv.server_address[1]}"
    srv.token = token
    srv.cwd = cwd
    srv.last_request = time.monotonic()
    _watch_code(srv)
    return srv


def _watch_code(srv) -> None:
    """Give ``srv`` a ``code_changed()`` that compares cuticle's files with their state at start (rate-limited)."""
    started = code_stamp()
    lock = threading.Lock()
    state = {"checked": time.monotonic(), "changed": False}

    def code_changed() -> bool:
        with lock:
            now = time.monotonic()
            if not state["changed"] and now - state["checked"] >= CODE_CHECK_EVERY:
                state["checked"] = now
                state["changed"] = code_stamp() != started
            return state["changed"]

    srv.code_changed = code_changed


def stop_when_idle(srv, seconds: float, state_dir: str | os.PathLike | None = None) -> threading.Thread:
    """Shut ``srv`` down once no request arrived for ``seconds``, or once ``state_dir`` (the workspace's
    `.cuticle/`) is gone (autostarted servers must not linger)."""
    def watch() -> None:
        while True:
            time.sleep(min(seconds / 4, 30))
            if time.monotonic() - srv.last_request >= seconds or (state_dir is not None
                                                                    and not os.path.isdir(state_dir)):
                srv.shutdown()
                return

    t = threading.Thread(target=watch, name="cuticle-idle", daemon=True)
    t.start()
    return t


def write_info(state_dir: Path, address: str, token: str) -> Path:
    """Record address, token and pid in `.cuticle/serve.json` (mode 600) for local clients."""
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / "serve.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"address": address, "token": token, "pid": os.getpid()}, fh)
    os.chmod(path, 0o600)
    try:
        (state_dir / "serve.starting").unlink()  # the autostart marker of gate.client
    except FileNotFoundError:
        pass
    return path
