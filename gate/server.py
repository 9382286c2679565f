"""`cuticle serve`: the hook as a long-lived local process, for hosts that call it on every tool call.

HTTP on loopback TCP (127.0.0.1 only) or on a Unix socket. Every request carries the token
(``Authorization: Bearer <token>``); the token and address are written to `.cuticle/serve.json` (mode 600) for
local clients such as the OpenClaw plugin. ``POST /hook/<host>[/<event>]`` with the payload as the body answers
exactly what `cuticle hook <host> [event]` would: ``{"stdout", "stderr", "exit_code", "result"}`` where
``result`` is the parsed stdout JSON (or null; left out when the query says ``result=0``). ``GET /health``
answers ``{"ok": true}``; ``POST /shutdown`` stops the server (`cuticle serve --stop`).
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

from .intake import MAX_PAYLOAD as MAX_BODY

#: requests answered at once; a connection beyond them waits up to QUEUE_WAIT seconds, then is closed (the hook
#: falls back in-process), so no number of clients can make the server start unbounded threads
MAX_WORKERS = 16
QUEUE_WAIT = 2.0
#: seconds a connection may take to send its request (a client that stalls does not hold a worker for ever)
REQUEST_TIMEOUT = 10.0
#: seconds between two looks at the workspace (gone, or re-created at the same path: the server stops)
WORKSPACE_CHECK_EVERY = 2.0
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
    timeout = REQUEST_TIMEOUT

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - silence per-request stderr lines
        return

    def address_string(self) -> str:
        return "local"

    def _send(self, code: int, obj: dict) -> None:
        from .intake import wire

        body = wire(json.dumps(obj, ensure_ascii=False))
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
            return self._send(200, {"ok": True, "pid": os.getpid()})
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
        if parts == ["shutdown"]:  # `cuticle serve --stop`: the token holder asks; serve's finally cleans up
            self._send(200, {"stopping": True, "pid": os.getpid()})  # answered before the process can exit
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return None
        if len(parts) not in (2, 3) or parts[0] != "hook":
            return self._send(404, {"error": "use POST /hook/<host>[/<event>]"})
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            return self._send(400, {"error": "Content-Length must be a non-negative integer"})
        if length > MAX_BODY:
            return self._send(413, {"error": "payload too large"})
        data = self.rfile.read(length) if length else b""
        if len(data) != length:
            return self._send(400, {"error": "the body is shorter than its Content-Length"})
        from .handler import handle

        env = None
        project = self.headers.get("X-Cuticle-Project")
        if project:
            from .client import PROJECT_ENV

            try:
                value = bytes.fromhex(project).decode("utf-8", "surrogateescape")
            except ValueError:
                return self._send(400, {"error": "X-Cuticle-Project must be hex UTF-8"})
            var = PROJECT_ENV.get(parts[1].lower())
            env = {**os.environ, var: value} if var else None
        reply = handle(parts[1], parts[2] if len(parts) == 3 else None, data, env=env,
                       cwd=self.server.cwd)  # type: ignore[attr-defined]
        if "result=0" in self.path.partition("?")[2].split("&"):
            return self._send(200, reply.to_json())  # `cuticle hook` relays stdout as it is: no parsed copy
        try:
            result = json.loads(reply.stdout) if reply.stdout.strip() else None
        except ValueError:
            result = None
        self._send(200, {**reply.to_json(), "result": result})


class _Bounded:
    """At most MAX_WORKERS requests at once (``ThreadingMixIn`` alone starts a thread per connection)."""

    daemon_threads = True
    block_on_close = False
    #: the listen backlog: socketserver's 5 makes a ninth simultaneous client wait a SYN retry (1 s)
    request_queue_size = 64

    def _slots(self) -> threading.BoundedSemaphore:
        slots = self.__dict__.get("_worker_slots")
        if slots is None:
            slots = self.__dict__.setdefault("_worker_slots", threading.BoundedSemaphore(MAX_WORKERS))
        return slots

    def process_request(self, request, client_address) -> None:
        if not self._slots().acquire(timeout=QUEUE_WAIT):
            self.shutdown_request(request)  # busy: the hook answers in-process instead
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots().release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots().release()


class _TCPServer(_Bounded, ThreadingHTTPServer):
    pass


class _UnixServer(_Bounded, socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    pass


def make_server(*, port: int | None = None, socket_path: str | None = None, token: str | None = None,
                cwd: str | None = None):
    """A ready server (not yet serving). TCP binds 127.0.0.1 only."""
    token = token or secrets.token_urlsafe(24)
    from tiers.judge import enable
    from tiers.secrets import mask_secrets

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
        srv = _TCPServer(("127.0.0.1", port or 0), _Handler)
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


def workspace_identity(state_dir: str | os.PathLike) -> tuple | None:
    """What makes `.cuticle/` this workspace's and not a new one at the same path: the directory's device and
    inode, the stamp key's bytes, and the token of `serve.json` (a re-created directory may get the same inode
    number back, and a copied key the same bytes; the record this server wrote is gone with the old directory).
    None when it is gone."""
    try:
        st = os.stat(state_dir)
        with open(os.path.join(state_dir, "key"), "rb") as fh:
            key = fh.read()
    except OSError:
        return None
    try:
        with open(os.path.join(state_dir, "serve.json"), "rb") as fh:
            token = json.loads(fh.read()).get("token")
    except (OSError, ValueError, AttributeError):
        token = None
    return (st.st_dev, st.st_ino, key, token)


def stop_when_idle(srv, seconds: float = 0, state_dir: str | os.PathLike | None = None, *,
                   token: str | None = None) -> threading.Thread:
    """Shut ``srv`` down once no request arrived for ``seconds`` (0: never idle out), or once ``state_dir`` (the
    workspace's `.cuticle/`) is gone or is no longer the one it started with (removed and re-created at the same
    path, a different key): a server must never outlive its workspace. ``token``: the one its `serve.json` is about
    to carry (``write_info``), when the watch starts before that record is written."""
    identity = workspace_identity(state_dir) if state_dir is not None else None
    if identity is not None and token is not None:
        # expect the record about to be written, so a workspace re-created before it is never taken for ours
        identity = (*identity[:3], token)
    every = min(seconds / 4, 30) if seconds > 0 else WORKSPACE_CHECK_EVERY
    if state_dir is not None:
        every = min(every, WORKSPACE_CHECK_EVERY)

    def watch() -> None:
        while True:
            time.sleep(every)
            idle = seconds > 0 and time.monotonic() - srv.last_request >= seconds
            # gone already when the server started (identity None): never ours to keep answering for
            moved = state_dir is not None and (identity is None or workspace_identity(state_dir) != identity)
            if idle or moved:
                srv.shutdown()
                return

    t = threading.Thread(target=watch, name="cuticle-idle", daemon=True)
    t.start()
    return t


def write_info(state_dir: Path, address: str, token: str) -> Path:
    """Record address, token and pid in `.cuticle/serve.json` (mode 600) for local clients."""
    from tiers.fsutil import make_private_dir

    make_private_dir(state_dir)
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
