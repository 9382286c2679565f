"""The pending-reflection queue: session resets leave a marker; the agent reviews them with `cuticle reflect`.

Chitin's marker shape ``{sessionKey, timestamp (ISO-8601 with Z), reason}`` in a JSON array capped at the last
10, but kept per workspace (``.cuticle/personality/pending-reflection.json``) and written atomically under a lock.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

from tiers.fsutil import atomic_write, file_lock

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

MAX_PENDING = 10


def pending_path(ws: Any) -> Path:
    return ws.state_path("personality", "pending-reflection.json")


def _read(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return []
    if not isinstance(data, list):
        return []  # Chitin resets invalid or non-array content too
    return [d for d in data if isinstance(d, dict)]


def _write(path: Path, items: list[dict]) -> None:
    atomic_write(path, (json.dumps(items, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


def queue_reflection(
    ws: Any, session_id: str | None, reason: str, *, now: _dt.datetime | None = None, path: Path | None = None
) -> dict:
    """Append one marker (the gate calls this on a session reset / new-session event). Returns the marker."""
    when = (now or _dt.datetime.now(_dt.timezone.utc)).astimezone(_dt.timezone.utc)
    marker = {
        "sessionKey": session_id or "unknown",
        "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
        "reason": reason,
    }
    path = path or pending_path(ws)
    with file_lock(path):
        items = _read(path)
        items.append(marker)
        _write(path, items[-MAX_PENDING:])
    return marker


def pending(ws: Any, *, path: Path | None = None) -> list[dict]:
    return _read(path or pending_path(ws))


def clear(ws: Any, *, path: Path | None = None) -> int:
    """Empty the queue; returns how many markers it held."""
    path = path or pending_path(ws)
    with file_lock(path):
        n = len(_read(path))
        _write(path, [])
    return n
