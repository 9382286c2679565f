"""Retire the constraints a verified user directive amended: their lines are re-stamped ``superseded`` (a GC
candidate) through the GC module's ``mark_state``, so the next collection archives them recoverably.

Lines in other files are marked before the tool runs; lines of the file being written are marked after it ran
(the after-tool event), once the host has written the file — the line numbers are found again by content.
"""

from __future__ import annotations


def _find(ws, rel: str, content: str) -> list[int]:
    from tiers.fsutil import read_bytes_checked
    from tiers.markdown import parse_document

    try:
        doc = parse_document(read_bytes_checked(ws.root / rel))
    except Exception:  # noqa: BLE001 - an unreadable file has nothing to mark
        return []
    want = content.strip()
    return [ln.number for ln in doc.lines if ln.content.strip() == want]


def mark_superseded(ws, items: list[dict]) -> list[dict]:
    """Mark each constraint (``{file, line, content}`` from arbitration) superseded — or with the item's
    ``state``, "superseded" or "contradicted" (a lower-tier line the new one retires); returns what was marked."""
    from tiers import gc

    done: list[dict] = []
    for it in items:
        rel, line, content = it.get("file"), it.get("line"), it.get("content")
        state = it.get("state", "superseded")
        if not isinstance(rel, str) or not isinstance(content, str) or state not in ("superseded", "contradicted"):
            continue
        try:
            rel = ws.relpath(rel)
            ok = isinstance(line, int) and gc.mark_state(ws, rel, line, content, state)
            if not ok:
                for n in _find(ws, rel, content):
                    if gc.mark_state(ws, rel, n, content, state):
                        line, ok = n, True
                        break
        except Exception:  # noqa: BLE001 - a constraint that cannot be marked stays active (logged by the caller)
            ok = False
        if ok:
            done.append({"file": rel, "line": line})
    return done
