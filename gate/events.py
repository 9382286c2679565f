"""The gate's decision log: one JSON object per hook decision in `.cuticle/events.jsonl`, secrets masked."""

from __future__ import annotations

import re
import time

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

# A last line of defence only: the governance layer masks what it returns; memory text that reaches this log
# passed (or was blocked by) the security scan. Keys and tokens of common shapes are replaced by their kind.
_SECRET_PATTERN = (
    r"(?i)(?:"
    r"(?P<kv>\b(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|auth|bearer)\b\s*[:=]\s*)(?P<val>[^\s'\"`]{6,})"
    r"|\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}"
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}"
    r"|\bxox[abpr]-[A-Za-z0-9-]{10,}"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r")"
)
_SECRET: re.Pattern[str] | None = None  # compiled on first use: most hook calls never need the fallback


def _mask_str(s: str) -> str:
    global _SECRET
    if _SECRET is None:
        _SECRET = re.compile(_SECRET_PATTERN)

    def sub(m: re.Match[str]) -> str:
        if m.group("kv"):
            return m.group("kv") + "****"
        return "****"

    return _SECRET.sub(sub, s)


def mask(obj: Any) -> Any:
    """A copy of ``obj`` with secret-looking substrings of every string replaced (the governance layer's
    masking when it is installed, else a small fallback)."""
    try:
        from rules.governance.masking import mask_obj
    except ImportError:
        return _fallback(obj)
    return mask_obj(obj)


def _fallback(obj: Any) -> Any:
    if isinstance(obj, str):
        return _mask_str(obj)
    if isinstance(obj, dict):
        return {k: _fallback(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_fallback(v) for v in obj]
    return obj


def log_event(ws, record: dict[str, Any], *, create: bool = True) -> None:
    """Append ``record`` (masked, timestamped) to the workspace's events.jsonl; never raises."""
    try:
        if ws is None or (not create and not ws.state_dir.is_dir()):
            return
        from tiers.fsutil import append_jsonl

        rec = {"ts": round(time.time(), 3), **record}
        append_jsonl(ws.state_path("events.jsonl"), mask(rec), durable=False)
    except Exception:  # noqa: BLE001 - logging must never turn into a failure of the hook
        pass
