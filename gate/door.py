"""The server's half of the hook's fast path: the door FIFO in `.cuticle/` that `gate.client` rings.

The protocol is ``gate.client``'s docstring. The door is made mode 600 in the private `.cuticle/` and kept open
for reading and writing (a client's open never waits, and no end-of-file comes when clients close it); one thread
reads call names from it and hands each to a worker, at most ``server.MAX_WORKERS`` at once. A worker answers only
a call whose answer FIFO its client still holds open (a client that gave up has gone in-process), reads the call
file (never through a symlink, never more than the intake's limit) and removes it, and answers what
``handler.handle`` answers for the client's own directory and project variable: the same judgement as the
in-process gate. Only this user can reach the door (the directory is 700), so it needs no token.
"""

from __future__ import annotations

import os
import threading
import time

from .client import CALL_MAGIC, CALLS, DOOR, MAX_HEADER, PROJECT_ENV, STALE
from .intake import MAX_PAYLOAD

#: seconds a call's files may stay in `calls/` before the server removes them (a client killed mid-call)
LEFTOVER_AGE = 60.0
#: a call name: 32 lowercase hex digits
_HEX = frozenset("0123456789abcdef")


class Door:
    """An open door for ``srv`` (the HTTP server of gate.server: its ``code_changed``, ``shutdown``,
    ``last_request``) in ``state_dir``; ``close()`` removes it."""

    def __init__(self, state_dir: str | os.PathLike, srv) -> None:
        from tiers.fsutil import make_private_dir

        self.state_dir = os.fspath(state_dir)
        self.srv = srv
        self.calls = os.path.join(self.state_dir, CALLS)
        make_private_dir(self.calls)
        _remove_leftovers(self.calls, LEFTOVER_AGE)
        self.path = os.path.join(self.state_dir, DOOR)
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        os.mkfifo(self.path, 0o600)
        self.fd = os.open(self.path, os.O_RDWR)
        self.ino = os.fstat(self.fd).st_ino
        from .server import MAX_WORKERS

        self.slots = threading.BoundedSemaphore(MAX_WORKERS)
        self.thread = threading.Thread(target=self._listen, name="cuticle-door", daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Remove the door if it is still this server's (a fresh server may have made its own)."""
        try:
            if os.stat(self.path).st_ino == self.ino:
                os.unlink(self.path)
        except OSError:
            pass

    def _listen(self) -> None:
        pending = b""
        swept = time.monotonic()
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                return
            *names, pending = (pending + chunk).split(b"\n")
            pending = pending[-64:]  # a line without its newline is never a name: keep no more than one
            for raw in names:
                name = raw.decode("ascii", "replace")
                if len(name) != 32 or not _HEX.issuperset(name):
                    continue
                from .server import QUEUE_WAIT

                if not self.slots.acquire(timeout=QUEUE_WAIT):
                    continue  # busy: that client answers in-process when its time is up
                threading.Thread(target=self._answer, args=(name,), name="cuticle-call", daemon=True).start()
            if time.monotonic() - swept > LEFTOVER_AGE:
                swept = time.monotonic()
                _remove_leftovers(self.calls, LEFTOVER_AGE)

    def _answer(self, name: str) -> None:
        try:
            self.srv.last_request = time.monotonic()
            into, out = os.path.join(self.calls, name + ".in"), os.path.join(self.calls, name + ".out")
            try:
                fd = os.open(out, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            except OSError:  # ENXIO: its client gave up; ENOENT: never there
                _unlink(into)
                return
            try:
                if os.fstat(fd).st_mode & 0o170000 != 0o010000:
                    return
                os.set_blocking(fd, True)
                request = _read_call(into)
                if request is None:
                    return
                if self.srv.code_changed():
                    threading.Thread(target=self.srv.shutdown, daemon=True).start()
                    os.write(fd, STALE)
                    return
                _write_all(fd, _reply(request))
            except OSError:  # BrokenPipeError: the client went away meanwhile
                return
            finally:
                os.close(fd)
        finally:
            self.slots.release()


def _read_call(path: str) -> tuple[str, str | None, str, dict[str, str], bytes] | None:
    """(host, event, cwd, project variables, payload) from a call file, which is removed; None when it is not one
    (not a regular file, a symlink, longer than a header and the intake's limit, a malformed header)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    limit = MAX_HEADER + MAX_PAYLOAD
    try:
        if os.fstat(fd).st_mode & 0o170000 != 0o100000:
            return None
        with open(fd, "rb", closefd=False) as fh:
            raw = fh.read(limit + 1)
    finally:
        os.close(fd)
        _unlink(path)
    head, sep, data = raw.partition(b"\n")
    fields = head.split(b" ")
    if not sep or len(raw) > limit or len(head) > MAX_HEADER or len(fields) != 5 + len(PROJECT_ENV) \
            or b" ".join(fields[:2]) != CALL_MAGIC:
        return None
    try:
        host, event = fields[2].decode("ascii"), fields[3].decode("ascii")
        cwd, *values = (b"" if f == b"-" else bytes.fromhex(f.decode("ascii")) for f in fields[4:])
    except ValueError:
        return None
    env = {var: v.decode("utf-8", "surrogateescape") for var, v in zip(PROJECT_ENV.values(), values)}
    return host, None if event == "-" else event, cwd.decode("utf-8", "surrogateescape"), env, data


def _reply(request: tuple[str, str | None, str, dict[str, str], bytes]) -> bytes:
    """The answer frame: what the in-process gate answers in the client's directory, with its project variables
    (not whatever this server's environment inherited from the hook call that started it)."""
    from .handler import handle
    from .intake import wire

    host, event, cwd, project, data = request
    env = dict(os.environ)
    for var, value in project.items():
        env.pop(var, None)
        if value:
            env[var] = value
    reply = handle(host, event, data, env=env, cwd=cwd or None)
    out, err = wire(reply.stdout), wire(reply.stderr)
    return b"%d %d %d\n" % (reply.exit_code, len(out), len(err)) + out + err


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_leftovers(calls: str, age: float) -> None:
    """Remove call files older than ``age`` seconds (a client killed between its writes and its clean-up)."""
    now = time.time()
    try:
        entries = list(os.scandir(calls))
    except OSError:
        return
    for e in entries:
        try:
            if now - e.stat(follow_symlinks=False).st_mtime >= age:
                os.unlink(e.path)
        except OSError:
            continue
