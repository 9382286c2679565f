"""`cuticle serve --status` / `--stop`: find, check and stop the background servers of a workspace or of the user.

A workspace's server is the one recorded in its `.cuticle/serve.json` (address, token, pid). Status asks it
``GET /health`` with the token; stop asks it ``POST /shutdown`` with the token, so only whoever can read the
workspace's state can stop its server, and a recycled pid is never signalled on the strength of a stale record.
``--all`` finds the user's other servers by their command line (``cuticle serve`` / ``python -m gate serve``,
this user's processes only); a server that no longer answers its recorded address is sent SIGTERM only when its
command line is still a cuticle server's.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tiers.record import dataclass

INFO = "serve.json"


@dataclass(frozen=True, slots=True)
class ServerState:
    """One server as `--status` reports it, or as `--stop` left it."""

    workspace: str | None
    address: str | None
    pid: int | None
    state: str  # running | not-running | stale | unknown | stopped | killed | failed
    note: str = ""

    def to_json(self) -> dict:
        return {"workspace": self.workspace, "address": self.address, "pid": self.pid, "state": self.state,
                "note": self.note}


# -- talking to one server -------------------------------------------------------------------------------------
def _read_info(state_dir: Path) -> dict | None:
    try:
        info = json.loads((state_dir / INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or not isinstance(info.get("address"), str) or not isinstance(info.get("token"), str):
        return None
    return info


def _exchange(address: str, request: bytes, timeout: float) -> bytes | None:
    """Send ``request`` to the server at ``address`` and read the whole answer (the server closes)."""
    import socket

    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        target: object = address[5:]
    else:
        host, _, port = address.split("://", 1)[-1].partition(":")
        if host not in ("127.0.0.1", "localhost"):
            return None  # never send a token off the machine
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


def _request(info: dict, method: str, path: str, timeout: float = 2.0) -> tuple[int, dict] | None:
    """(status, JSON body) from the server of ``info``, or None when it does not answer."""
    head = (f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {info['token']}\r\n"
            f"Content-Length: 0\r\nConnection: close\r\n\r\n")
    try:
        raw = _exchange(info["address"], head.encode("latin-1"), timeout)
    except (OSError, ValueError):
        return None
    if not raw:
        return None
    header, _, body = raw.partition(b"\r\n\r\n")
    try:
        status = int(header.split(b" ", 2)[1])
        data = json.loads(body) if body.strip() else {}
    except (IndexError, ValueError):
        return None
    return status, data if isinstance(data, dict) else {}


def _alive(pid: int | None) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, but never ours to signal
    try:  # an exited process its parent has not reaped yet is a zombie, not a server
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def status(state_dir: Path) -> ServerState:
    """The state of the server recorded in ``state_dir`` (a workspace's `.cuticle/`)."""
    ws = str(state_dir.parent)
    info = _read_info(state_dir)
    if info is None:
        note = "unreadable serve.json" if (state_dir / INFO).exists() else "no server recorded"
        return ServerState(ws, None, None, "not-running", note)
    pid = info.get("pid") if isinstance(info.get("pid"), int) else None
    answer = _request(info, "GET", "/health")
    if answer is not None and answer[0] == 200:
        return ServerState(ws, info["address"], answer[1].get("pid", pid), "running")
    if answer is not None:
        return ServerState(ws, info["address"], pid, "unknown", f"answered HTTP {answer[0]} to the recorded token")
    return ServerState(ws, info["address"], pid, "stale",
                       "recorded but not answering" + (" (its process is still alive)" if _alive(pid) else ""))


def stop(state_dir: Path, *, timeout: float = 5.0) -> ServerState:
    """Stop the server recorded in ``state_dir``; a stale record is removed."""
    ws = str(state_dir.parent)
    info = _read_info(state_dir)
    if info is None:
        return ServerState(ws, None, None, "not-running", "no server recorded")
    pid = info.get("pid") if isinstance(info.get("pid"), int) else None
    answer = _request(info, "POST", "/shutdown")
    if answer is not None and answer[0] in (200, 503):  # 503: its code changed and it is stopping already
        pid = answer[1].get("pid", pid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (_alive(pid) or _recorded_by(state_dir, pid)):
            time.sleep(0.05)
        if _alive(pid):
            return ServerState(ws, info["address"], pid, "failed", f"still running after {timeout:g} s")
        _forget(state_dir, pid)
        return ServerState(ws, info["address"], pid, "stopped")
    if pid is not None and _alive(pid) and _is_server(pid):
        return _terminate(ServerState(ws, info["address"], pid, "stale"), state_dir, timeout)
    _forget(state_dir, pid)
    return ServerState(ws, info["address"], pid, "not-running", "removed a stale serve.json")


def _recorded_by(state_dir: Path, pid: int | None) -> bool:
    info = _read_info(state_dir)
    return info is not None and info.get("pid") == pid


def _forget(state_dir: Path, pid: int | None) -> None:
    """Remove serve.json when it still names ``pid`` (a fresh server may have written its own meanwhile)."""
    if _recorded_by(state_dir, pid) or _read_info(state_dir) is None:
        try:
            (state_dir / INFO).unlink()
        except FileNotFoundError:
            pass


def _terminate(s: ServerState, state_dir: Path | None, timeout: float) -> ServerState:
    try:
        os.kill(s.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError) as exc:
        return ServerState(s.workspace, s.address, s.pid, "failed", f"cannot signal it ({exc})")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _alive(s.pid):
        time.sleep(0.05)
    if state_dir is not None:
        _forget(state_dir, s.pid)
    if _alive(s.pid):
        return ServerState(s.workspace, s.address, s.pid, "failed", f"still running after {timeout:g} s")
    return ServerState(s.workspace, s.address, s.pid, "killed", "did not answer its token; sent SIGTERM")


# -- every server of this user ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Proc:
    pid: int
    argv: tuple[str, ...]
    cwd: str | None


def _serve_index(argv: tuple[str, ...]) -> int | None:
    """Where ``serve`` sits in a cuticle server's command line, else None."""
    for i, word in enumerate(argv[:-1] if argv else ()):
        nxt = argv[i + 1]
        if nxt != "serve":
            continue
        if os.path.basename(word) in ("cuticle", "cuticle.exe"):
            return i + 1
        if word == "gate" and i > 0 and argv[i - 1] == "-m":
            return i + 1
    return None


def _processes() -> list[_Proc]:
    """This user's processes (pid, argv, cwd where the system tells it)."""
    me = os.getpid()
    procs: list[_Proc] = []
    proc = Path("/proc")
    if proc.is_dir():
        uid = os.getuid()
        for d in proc.iterdir():
            if not d.name.isdigit() or int(d.name) == me:
                continue
            try:
                if d.stat().st_uid != uid:
                    continue
                raw = (d / "cmdline").read_bytes()
                cwd = os.readlink(d / "cwd")
            except OSError:
                continue
            argv = tuple(a.decode("utf-8", "replace") for a in raw.split(b"\0") if a)
            procs.append(_Proc(int(d.name), argv, cwd))
        return procs
    try:  # other Unix systems: ps (no working directory; --workspace on the command line names it)
        out = subprocess.run(["ps", "-u", str(os.getuid()), "-o", "pid=,command="], capture_output=True,
                             text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return procs
    for line in out.splitlines():
        pid, _, cmd = line.strip().partition(" ")
        if pid.isdigit() and int(pid) != me:
            procs.append(_Proc(int(pid), tuple(cmd.split()), None))
    return procs


def _is_server(pid: int) -> bool:
    return any(p.pid == pid and _serve_index(p.argv) is not None for p in _processes())


def _workspace_of(p: _Proc, at: int) -> str | None:
    from tiers.workspace import find_workspace

    rest = p.argv[at + 1:]
    named = None
    for i, word in enumerate(rest):
        if word in ("--workspace", "-w") and i + 1 < len(rest):
            named = rest[i + 1]
        elif word.startswith("--workspace="):
            named = word.split("=", 1)[1]
    if named is not None:
        if os.path.isabs(named):
            return os.path.normpath(named)
        return os.path.normpath(os.path.join(p.cwd, named)) if p.cwd else None
    if p.cwd is None:
        return None
    try:
        return str(find_workspace(p.cwd))
    except Exception:  # noqa: BLE001 - a directory that went away
        return p.cwd


def all_servers() -> list[tuple[int, str | None]]:
    """(pid, workspace) of every cuticle server this user runs, by pid."""
    found = []
    for p in _processes():
        at = _serve_index(p.argv)
        if at is not None and "--stop" not in p.argv and "--status" not in p.argv:
            found.append((p.pid, _workspace_of(p, at)))
    return sorted(found)


def status_all() -> list[ServerState]:
    out = []
    for pid, ws in all_servers():
        if ws is not None:
            s = status(Path(ws) / ".cuticle")
            if s.pid == pid and s.state == "running":
                out.append(s)
                continue
        out.append(ServerState(ws, None, pid, "unknown", "running, but not the server its workspace records"))
    return out


def stop_all(*, timeout: float = 5.0) -> list[ServerState]:
    out = []
    for pid, ws in all_servers():
        if ws is not None:
            state_dir = Path(ws) / ".cuticle"
            info = _read_info(state_dir)
            if info is not None and info.get("pid") == pid:
                out.append(stop(state_dir, timeout=timeout))
                continue
        out.append(_terminate(ServerState(ws, None, pid, "unknown"), None, timeout))
    return out


def describe(s: ServerState) -> str:
    where = s.workspace or "(workspace unknown)"
    bits = [f"{where}: {s.state}"]
    if s.pid is not None:
        bits.append(f"pid {s.pid}")
    if s.address:
        bits.append(s.address)
    line = ", ".join(bits)
    return f"{line} ({s.note})" if s.note else line

