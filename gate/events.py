"""The gate's decision log: one JSON object per hook decision in `.cuticle/events.jsonl`, secrets masked, size-bounded.

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


def mask_text(s: str) -> str:
    """``s`` with every secret masked: the provider formats of ``rules.secrets`` (AWS key ids, tokens, private
    keys…) and the shell shapes of the governance layer (``PASSWORD=…``, ``--token …``)."""
    if not s:
        return s
    from rules.secrets import mask_secrets

    out = mask_secrets(s)
    try:
        from rules.governance.masking import mask as mask_shell
    except ImportError:  # pragma: no cover - the governance layer is part of the package
        return out
    return mask_shell(out)


def mask(obj: Any) -> Any:
    """A copy of ``obj`` (strings, dicts, lists, tuples, to any depth) with every string masked (``mask_text``)."""
    return mask_with(obj, mask_text)


def mask_with(obj: Any, mask_text) -> Any:
    """A copy of ``obj`` with ``mask_text`` applied to every string in it (keys stay as they are)."""
    if isinstance(obj, str):
        return mask_text(obj)
    if not isinstance(obj, (dict, list, tuple)):
        return obj
    # iterative: a payload the intake accepted is at most 100 levels deep, but this must never be the crash
    root: list = [obj]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, obj)]
    while stack:
        parent, key, node = stack.pop()
        if isinstance(node, dict):
            copy: Any = dict.fromkeys(node)  # keys in their order; values filled in as they are popped
            parent[key] = copy
            for k, v in node.items():
                stack.append((copy, k, v))
        elif isinstance(node, (list, tuple)):
            copy = [None] * len(node)
            parent[key] = copy
            for i, v in enumerate(node):
                stack.append((copy, i, v))
        elif isinstance(node, str):
            parent[key] = mask_text(node)
        else:
            parent[key] = node
    return root[0]


def log_event(ws, record: dict[str, Any], *, create: bool = True) -> None:
    """Append ``record`` (masked, timestamped) to the workspace's events.jsonl; never raises."""
    try:
        if ws is None or (not create and not ws.state_dir.is_dir()):
            return
        from tiers.fsutil import append_jsonl

        path = ws.state_path("events.jsonl")
        _rotate(path)
        rec = {"ts": round(time.time(), 3), **record}
        append_jsonl(path, mask(rec), durable=False)
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
