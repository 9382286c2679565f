"""Safe file I/O for memory files and state: atomic rewrites under a lock, append-only logs."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

from .errors import WorkspaceError

#: Files larger than this are never tiered or rewritten (a memory file this large is a mistake).
MAX_FILE_BYTES = 4 * 1024 * 1024


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


def lock_path_for(path: str | os.PathLike[str]) -> Path:
    """Where the lock of ``path`` lives: ``<path>.lock`` for state files; for a file outside `.cuticle/` (a memory
    file), ``.cuticle/locks/<its path, escaped>.lock`` of the nearest workspace above it, so no lock file is ever
    left beside the user's files (beside the file only when no `.cuticle/` exists above it)."""
    path = Path(path)
    if str(path).endswith(".lock"):
        return path
    if in_state(path):
        return Path(str(path) + ".lock")
    full = Path(os.path.abspath(path))
    for parent in full.parents:
        state = parent / STATE_DIR
        if os.path.isdir(state) and not os.path.islink(state):
            rel = full.relative_to(parent).as_posix()
            name = "".join(c if c.isalnum() or c in "-_." else f"%{ord(c):02X}" for c in rel)
            if len(name.encode("utf-8", "surrogatepass")) > 200:
                import hashlib

                name = "%" + hashlib.sha1(rel.encode("utf-8", "surrogatepass")).hexdigest()
            return state / "locks" / (name + ".lock")
    return Path(str(path) + ".lock")


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock for ``path`` (the file ``lock_path_for(path)``) for the duration of the block."""
    lock_path = lock_path_for(path)
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
    line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
    with file_lock(path):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600 if in_state(path) else 0o666)
        with open(fd, "a", encoding="utf-8", errors="backslashreplace") as fh:  # a lone surrogate: a JSON escape
            fh.write(line)
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
