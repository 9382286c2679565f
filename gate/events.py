"""The gate's decision log: one JSON object per hook decision in `.cuticle/events.jsonl`, secrets masked
(tiers.secrets), size-bounded.

The log rotates: when `events.jsonl` passes ``MAX_LOG_BYTES`` it becomes `events.jsonl.1` (the older
`events.jsonl.1` is dropped), so the log never holds more than about twice that (docs/gate.md, "Decision log").
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

#: events.jsonl is rotated to events.jsonl.1 once it is this large
MAX_LOG_BYTES = 4 * 1024 * 1024


def log_event(ws, record: dict[str, Any], *, create: bool = True) -> None:
    """Append ``record`` (masked, timestamped) to the workspace's events.jsonl; never raises."""
    try:
        if ws is None or (not create and not ws.state_dir.is_dir()):
            return
        from tiers.fsutil import append_jsonl
        from tiers.secrets import mask_json

        path = ws.state_path("events.jsonl")
        _rotate(path)
        rec = {"ts": round(time.time(), 3), **record}
        append_jsonl(path, mask_json(rec), durable=False)
    except Exception:  # noqa: BLE001 - logging must never turn into a failure of the hook
        pass


def _rotate(path) -> None:
    try:
        if os.stat(path).st_size < MAX_LOG_BYTES:
            return
    except OSError:
        return
    from tiers.fsutil import file_lock

    with file_lock(path):
        try:
            if os.stat(path).st_size >= MAX_LOG_BYTES:  # another process may have rotated it meanwhile
                os.replace(path, str(path) + ".1")
        except OSError:
            pass
