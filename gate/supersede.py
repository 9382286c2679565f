"""Mark the stamps of constraints a verified user directive amended as ``superseded`` (GC candidates).

The line keeps its text; only its stamp's state changes (re-made with the workspace key, so lint still verifies
it). Used for lines in the file being written (inside the planned content) and in other files (on disk,
atomically, under the file's lock).
"""

from __future__ import annotations

from typing import Any


def restamp_superseded(stamps, text: str, key: bytes) -> str | None:
    """``text`` with its stamp's state set to superseded, or None if it has no valid stamp."""
    content, stamp, _err = stamps.split_stamp(text)
    if stamp is None or getattr(stamp, "state", None) == "superseded":
        return None
    ttl = None
    if getattr(stamp, "expires", None) is not None:
        ttl = max(int(stamp.expires) - int(stamp.session) + 1, 1)
    new = stamps.make_stamp(content.rstrip(), stamp.tier, stamp.session, key, scope=stamp.scope, ttl=ttl,
                            state="superseded")
    return stamps.apply_stamp(content.rstrip(), new)


def matches(item: dict, line: Any) -> bool:
    """Does constraint ``item`` (from arbitration) name this parsed line (by stamp id or by its line number on disk)?"""
    sid = item.get("id")
    stamp = getattr(line, "stamp", None)
    if sid and stamp is not None and getattr(stamp, "id", None) == sid:
        return True
    return item.get("line") == getattr(line, "number", None)


def mark_superseded(ws, items: list[dict], planner=None) -> list[dict]:
    """Rewrite other files' lines on disk; returns what was marked (file, line)."""
    from tiers import markdown, stamps
    from tiers.fsutil import atomic_write, file_lock, read_bytes_checked

    done: list[dict] = []
    by_file: dict[str, list[dict]] = {}
    for it in items:
        f = it.get("file")
        if isinstance(f, str) and f:
            by_file.setdefault(f, []).append(it)
    for rel, its in by_file.items():
        try:
            rel = ws.relpath(rel)
        except Exception:  # noqa: BLE001 - a constraint outside the workspace is not ours to rewrite
            continue
        path = ws.root / rel
        if not path.is_file():
            continue
        with file_lock(path):
            doc = markdown.parse_document(read_bytes_checked(path))
            changes: dict[int, str] = {}
            for line in doc.lines:
                if any(matches(it, line) for it in its):
                    new = restamp_superseded(stamps, line.text, ws.key)
                    if new is not None:
                        changes[line.number] = new
                        done.append({"file": rel, "line": line.number})
            if changes:
                atomic_write(path, doc.with_texts(changes).render())
    return done
