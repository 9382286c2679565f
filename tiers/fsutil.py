"""Safe file I/O for memory files and state: atomic rewrites under a lock, append-only logs.

Memory files are also written by hosts that take no lock. ``rewrite_file`` is how cuticle changes one without
ever losing a line a host wrote: read the file with its identity (``Seen``), compute the new bytes, and replace
the file only if it is still exactly what was read — re-checked immediately before the rename (bytes, inode, size,
mtime) and again after it on the old inode, which is put back when a writer reached it in between. A file that
changed, or that looks torn (a write in progress), is left alone and the caller tries again later. Temp files,
kept links and lock files live in the state directory (``scratch``, ``lock_path``), never beside the user's files.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

from .errors import WorkspaceError
from .record import dataclass

#: Files larger than this are never tiered or rewritten (a memory file this large is a mistake).
MAX_FILE_BYTES = 4 * 1024 * 1024


#: Where the OS cannot say whether a writer has a file open, a file modified this recently may be a write in
#: progress (seconds).
SETTLE_SECONDS = 2.0
#: ... and is checked again after this pause (seconds).
SETTLE_PAUSE = 0.05


STATE_DIR = ".cuticle"  # = tiers.workspace.STATE_DIR (fsutil sits below workspace)


def in_state(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` lies inside a `.cuticle/` directory: state, private to the user (dirs 700, files 600)."""
    return STATE_DIR in Path(path).parts[:-1]


def make_private_dir(path: Path) -> None:
    """``mkdir -p`` for state: every directory from the `.cuticle/` down is created (or fixed to) mode 700."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    parts = path.parts
    if STATE_DIR not in parts:
        return
    top = parts.index(STATE_DIR)
    for i in range(top + 1, len(parts) + 1):
        d = Path(*parts[:i])
        with contextlib.suppress(OSError):
            if os.stat(d).st_mode & 0o077:
                os.chmod(d, 0o700)


def _mkdir_for(path: Path) -> None:
    if in_state(path):
        make_private_dir(path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)


@contextlib.contextmanager
def file_lock(path: Path, *, lock_path: Path | None = None) -> Iterator[None]:
    """Hold an exclusive advisory lock for the duration of the block: on ``lock_path`` when given (memory files
    are locked from the state directory), else on ``path.lock`` (state files, which live there already)."""
    if lock_path is None:
        lock_path = Path(str(path) + ".lock") if not str(path).endswith(".lock") else Path(path)
    lock_path = Path(lock_path)
    _mkdir_for(lock_path)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see either the old or the new file, never a partial one.

    Writes a temp file in the same directory, fsyncs it, copies the old file's mode, renames it over the
    target and fsyncs the directory. The caller holds the lock when read-modify-write matters.
    """
    import tempfile  # only writers pay for it (it pulls in random and hashlib)

    path = Path(path)
    private = in_state(path)
    _mkdir_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if private:
            mode = 0o600  # state: the user's prompts, the key, caches
        else:
            try:
                mode = os.stat(path).st_mode & 0o7777
            except FileNotFoundError:
                mode = 0o666 & ~_umask()  # a new file gets the usual mode, not mkstemp's 0600
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def read_bytes_checked(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """Read a file that cuticle may tier: refuse huge or binary files with a clear error instead of crashing."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise WorkspaceError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if size > limit:
        raise WorkspaceError(f"{path}: {size} bytes is over the {limit}-byte limit for memory files")
    data = path.read_bytes()
    if b"\x00" in data:
        raise WorkspaceError(f"{path}: binary file (contains NUL bytes); not a memory file")
    return data


def append_jsonl(path: Path, record: dict, *, durable: bool = True) -> None:
    """Append one JSON object as a line, under a lock, creating the file and its directory as needed.

    ``durable`` syncs the line to disk before returning: for records that are the only copy of something (the GC
    archive holds removed memory lines). A log of decisions passes ``durable=False``: a power cut may lose its
    last lines, never a memory line, and the hook does not wait for the disk on every agent write."""
    path = Path(path)
    _mkdir_for(path)
    with file_lock(path):
        append_jsonl_locked(path, [record], durable=durable)


def append_jsonl_locked(path: Path, records: list[dict], *, durable: bool = True) -> None:
    """Append ``records`` (the caller holds ``path``'s lock). A torn last line that a killed writer left is ended
    first, so that it cannot swallow the next record."""
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600 if in_state(path) else 0o666)
    with open(fd, "ab+") as fh:
        if fh.seek(0, os.SEEK_END) > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                text = "\n" + text
        fh.write(text.encode("utf-8", "backslashreplace"))  # a lone surrogate becomes its JSON escape
        fh.flush()
        if durable:
            os.fsync(fh.fileno())


def read_jsonl(path: Path) -> list[dict]:
    """Read a JSON-lines file, skipping lines that do not parse (a torn last line after a crash)."""
    out: list[dict] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return out
    for raw in text.splitlines():
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def utc_now() -> str:
    """Now, UTC, to the second, as state files record it (``2026-11-30T10:40:59Z``)."""
    import datetime as _dt

    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def read_json_object(path: Path) -> dict | None:
    """A JSON state file's top-level object; None when it is missing, unreadable, not JSON or not an object.

    State files are rewritten atomically, so a bad one means tampering or a foreign file: callers start afresh
    (and say so in their log) rather than crash the hook.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# -- rewriting files that writers cuticle cannot lock also change --------------------------------------------------


class FileChanged(WorkspaceError):
    """The file changed while cuticle was rewriting it (a host writing); nothing of the change was kept."""


@dataclass(frozen=True, slots=True)
class Seen:
    """A file as read: its bytes and the identity that tells a later write apart."""

    data: bytes
    dev: int
    ino: int
    size: int
    mtime_ns: int

    def same_identity(self, st: os.stat_result) -> bool:
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) == (self.dev, self.ino, self.size, self.mtime_ns)


def _read_fd(fd: int, size: int) -> bytes:
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while True:
        b = os.read(fd, max(size + 1, 65536))
        if not b:
            return b"".join(chunks)
        chunks.append(b)


def read_seen(path: Path, limit: int = MAX_FILE_BYTES) -> Seen:
    """Read ``path`` with its identity; FileChanged when it changed during the read, WorkspaceError when it is
    missing, too large or binary."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise WorkspaceError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        st = os.fstat(fd)
        if st.st_size > limit:
            raise WorkspaceError(f"{path}: {st.st_size} bytes is over the {limit}-byte limit for memory files")
        data = _read_fd(fd, st.st_size)
        if not _same(st, os.fstat(fd)) or len(data) != st.st_size:
            raise FileChanged(f"{path}: changed while it was read")
    finally:
        os.close(fd)
    if b"\x00" in data:
        raise WorkspaceError(f"{path}: binary file (contains NUL bytes); not a memory file")
    return Seen(data, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino, a.st_size, a.st_mtime_ns) == (b.st_dev, b.st_ino, b.st_size, b.st_mtime_ns)


def open_for_writing(path: Path) -> bool | None:
    """Whether some process has ``path`` open for writing (a host between the chunks of one write), asked of the
    kernel with a read lease that is taken and given back at once (Linux: refused while a writer has the file
    open); None where that cannot be asked (another OS, a file system without leases, a file of another user)."""
    if not hasattr(fcntl, "F_SETLEASE"):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        import signal

        # a writer opening the file while the lease is held makes the kernel signal its holder, SIGIO by default
        # (which ends the process): SIGURG is ignored unless handled
        fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGURG)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
        return False
    except OSError as exc:
        import errno

        return True if exc.errno in (errno.EAGAIN, errno.EBUSY) else None
    finally:
        os.close(fd)


def looks_torn(path: Path, seen: Seen) -> bool:
    """True when ``seen`` may be a write caught half-way, wherever its chunk ended: its bytes are not valid UTF-8
    (a character cut in two), a process still has the file open for writing, or it was modified in the last
    ``SETTLE_SECONDS`` and is still changing ``SETTLE_PAUSE`` seconds later when it does not end with a line break
    (a writer that reopens to append the rest) or when no one can say whether a writer has it open (a first chunk
    that ends at a line break looks complete: the line ending alone proves nothing)."""
    import time

    try:
        seen.data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    writing = open_for_writing(path)
    if writing:
        return True
    complete = writing is False and seen.data.endswith((b"\n", b"\r"))  # no writer on it, its last line ended
    if not seen.data or complete or time.time() - seen.mtime_ns / 1e9 >= SETTLE_SECONDS:
        return False
    time.sleep(SETTLE_PAUSE)
    try:
        return not seen.same_identity(os.stat(path))
    except OSError:
        return True


def _scratch_name(scratch: Path, path: Path, suffix: str) -> Path:
    import secrets as _secrets

    return scratch / f"{path.name[:80]}.{os.getpid()}.{_secrets.token_hex(4)}.{suffix}"


def replace_if_unchanged(path: Path, seen: Seen, data: bytes, *, scratch: Path) -> None:
    """Replace ``path`` by ``data`` atomically if it still is exactly ``seen``; else raise FileChanged and leave it.

    The temp file and a second link to the old inode live in ``scratch`` (same file system as ``path``; a state
    directory). After the rename the old inode is checked once more: a writer that had it open and wrote to it
    in the meantime (a host's second chunk) would have lost those bytes, so the old inode is put back in place.
    """
    path = Path(path)
    make_private_dir(scratch)
    tmp = _scratch_name(scratch, path, "tmp")
    keep = _scratch_name(scratch, path, "old")
    try:
        _write_new(tmp, data)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        try:
            os.link(path, keep)  # the old inode stays reachable by name until the rename proved harmless
        except FileNotFoundError:
            raise
        except OSError as exc:  # another file system than the state directory, or one without hard links
            raise WorkspaceError(f"{path}: cannot be rewritten safely here ({exc.strerror or exc}: the state "
                                 f"directory must be on the same file system and support hard links); "
                                 f"left as it is") from exc
        old_fd = os.open(keep, os.O_RDONLY)
        try:
            st = os.fstat(old_fd)
            if not seen.same_identity(st) or _read_fd(old_fd, st.st_size) != seen.data:
                raise FileChanged(f"{path}: changed since it was read; not rewritten")
            one_name(path, st, scratch)
            os.replace(tmp, path)
            st2 = os.fstat(old_fd)
            if not seen.same_identity(st2) or _read_fd(old_fd, st2.st_size) != seen.data:
                # A writer reached the old inode between the check and the rename: its bytes are there, not in
                # the new file. Put the old inode back (unless the path moved on again) and report a change.
                with contextlib.suppress(OSError):
                    now = os.stat(path)
                    mine = os.stat(keep)
                    if now.st_ino != mine.st_ino:
                        os.replace(keep, path)
                raise FileChanged(f"{path}: written to during the rewrite; the writer's version was kept")
        finally:
            os.close(old_fd)
    except FileNotFoundError as exc:
        raise FileChanged(f"{path}: moved or deleted while cuticle rewrote it ({exc.strerror})") from exc
    finally:
        for p in (tmp, keep):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def one_name(path: Path, st: os.stat_result, scratch: Path) -> None:
    """A WorkspaceError when the file ``st`` at ``path`` has more names than one the user gave it (hard links; the
    second links cuticle keeps in ``scratch`` while it rewrites are not counted): a rewrite would give this name a
    new file and fork the memory. Every rewrite asks this, and so does a dry run that says what a rewrite would do."""
    names = st.st_nlink - _links_in(scratch, st)
    if names > 1:
        raise WorkspaceError(
            f"{path}: a file with {names} names (hard links); a rewrite would give this name a new file "
            f"and leave the other names the old one, so it is left as it is (keep one name, or make the "
            f"others symbolic links)")


def _links_in(scratch: Path, st: os.stat_result) -> int:
    """How many names of the file ``st`` are cuticle's own second links in ``scratch`` (this rewrite's, and one a
    killed run left before the next run cleans it)."""
    count = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(scratch):
            with contextlib.suppress(OSError):
                mine = entry.stat(follow_symlinks=False)
                count += (mine.st_dev, mine.st_ino) == (st.st_dev, st.st_ino)
    return count


def rewrite_file(path: Path, change, *, lock_path: Path, scratch: Path, attempts: int = 3) -> bytes | None:
    """Rewrite ``path`` with ``change(seen) -> bytes | None`` (None: nothing to do) so that no concurrent write is
    lost: under ``lock_path`` (cuticle's own writers), refusing a torn file, replacing only an unchanged one.
    Returns the bytes written, or None. Raises FileChanged when the file kept changing or looks torn."""
    if Path(path).is_symlink():  # a rename would replace the link by a regular file (callers resolve it first)
        raise WorkspaceError(f"{path}: a symbolic link; rewrite the file it points to")
    problem: FileChanged | None = None
    for _ in range(max(1, attempts)):
        with file_lock(path, lock_path=lock_path):
            seen = read_seen(path)
            if looks_torn(path, seen):
                problem = FileChanged(f"{path}: looks half-written (no final line break, just modified); "
                                      f"left for the next run")
                continue
            new = change(seen)
            if new is None or new == seen.data:
                return None
            try:
                replace_if_unchanged(path, seen, new, scratch=scratch)
                return new
            except FileChanged as exc:
                problem = exc
    assert problem is not None
    raise problem


def clean_scratch(scratch: Path, *, max_age: float = 3600.0) -> int:
    """Remove temp files and kept links a killed process left in ``scratch`` (its pid is gone, or they are old);
    returns how many. The user's files never had temp copies beside them."""
    import time

    n = 0
    try:
        names = os.listdir(scratch)
    except OSError:
        return 0
    now = time.time()
    for name in names:
        parts = name.rsplit(".", 3)
        if len(parts) != 4 or parts[3] not in ("tmp", "old") or not parts[1].isdigit():
            continue
        pid = int(parts[1])
        p = scratch / name
        alive = True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            alive = False
        except PermissionError:
            pass
        try:
            old = now - p.stat().st_mtime > max_age
        except OSError:
            continue
        if (not alive or old) and pid != os.getpid():
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
    return n


def memory_state_paths(state_dir: Path, rel: str) -> tuple[Path, Path]:
    """(lock file, scratch directory) cuticle uses to rewrite memory file ``rel`` of the workspace whose state
    directory is ``state_dir``: both inside it, so nothing of cuticle's ever sits beside a user's file."""
    name = "".join(c if c.isalnum() or c in "-_." else f"%{ord(c):02X}" for c in rel)
    if len(name.encode("utf-8")) > 200:
        import hashlib

        name = "%" + hashlib.sha1(rel.encode("utf-8")).hexdigest()
    state_dir = Path(state_dir)
    return state_dir / "locks" / f"{name}.lock", state_dir / "tmp"


def _write_new(tmp: Path, data: bytes) -> None:
    """Write ``data`` to the new file ``tmp`` (never an existing one), on disk before it is renamed or linked."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def create_file(path: Path, data: bytes, *, scratch: Path) -> None:
    """Create ``path`` with ``data`` atomically, never replacing a file that appeared meanwhile (FileChanged).
    The temp file lives in ``scratch``."""
    path = Path(path)
    make_private_dir(scratch)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _scratch_name(scratch, path, "tmp")
    try:
        _write_new(tmp, data)
        os.chmod(tmp, 0o666 & ~_umask())
        try:
            os.link(tmp, path)
        except FileExistsError as exc:
            raise FileChanged(f"{path}: created by another writer meanwhile; not overwritten") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
