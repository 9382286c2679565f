"""The per-workspace session counter that hypothesis lifetimes (TTL) are counted in.

The counter advances exactly once per distinct host session id: when that session ends, or — for hosts that have
no end event — when a *different* session starts while the current number is still held by an earlier one. An
end event that arrives twice, or a start and an end for the same id, never advances it twice. State lives in
``.cuticle/session.json`` and is rewritten atomically under a lock.
"""

from __future__ import annotations

import json

from .errors import UsageError
from .fsutil import atomic_write, file_lock, read_json_object, utc_now

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

__all__ = ["current_session", "end_session", "session_state", "start_session"]


def _log():
    """This module's logger, imported on the rare warning path (logging costs milliseconds at hook start)."""
    import logging

    return logging.getLogger(__name__)


STATE_NAME = "session.json"
#: Session ids remembered (so a late duplicate end event is recognised); older ones are forgotten.
MAX_IDS = 512


def _load(path) -> dict[str, Any]:
    data = read_json_object(path)
    if data is None:
        if path.exists():
            _log().warning("%s unreadable; starting the session counter again from its last safe value", path)
        return {"counter": 1, "sessions": {}}
    if not isinstance(data.get("counter"), int) or data["counter"] < 1:
        return {"counter": 1, "sessions": {}}
    if not isinstance(data.get("sessions"), dict):
        data["sessions"] = {}
    return data


def _save(path, data: dict[str, Any]) -> None:
    sessions = data["sessions"]
    if len(sessions) > MAX_IDS:
        for sid in sorted(sessions, key=lambda s: sessions[s].get("number", 0))[: len(sessions) - MAX_IDS]:
            del sessions[sid]
    atomic_write(path, (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8"))


def _check_id(session_id: str) -> str:
    if not isinstance(session_id, str) or not session_id.strip() or len(session_id) > 256:
        raise UsageError("a session id must be a non-empty string of at most 256 characters")
    return session_id.strip()


def session_state(ws) -> dict[str, Any]:
    """The raw state: ``counter`` and the remembered ``sessions`` (id -> number, started, ended)."""
    return _load(ws.state_path(STATE_NAME))


def current_session(ws) -> int:
    """The current session number (1 in a workspace that has never seen a session)."""
    return int(session_state(ws)["counter"])


def _register(data: dict[str, Any], sid: str) -> dict[str, Any]:
    sessions = data["sessions"]
    rec = sessions.get(sid)
    if rec is not None:
        return rec
    counter = data["counter"]
    holder = [s for s, r in sessions.items() if r.get("number") == counter and not r.get("ended")]
    if holder:
        # A start-only host: the session holding the current number is over now that another one starts.
        for s in holder:
            sessions[s]["ended"] = sessions[s].get("ended") or "implicit"
        counter += 1
        data["counter"] = counter
    rec = {"number": counter, "started": utc_now(), "ended": None}
    sessions[sid] = rec
    return rec


def start_session(ws, session_id: str) -> int:
    """Record that ``session_id`` started; returns its session number. Idempotent per id."""
    sid = _check_id(session_id)
    path = ws.state_path(STATE_NAME)
    ws.ensure_state()
    with file_lock(path):
        data = _load(path)
        known = sid in data["sessions"]
        rec = _register(data, sid)
        if not known:
            _save(path, data)
        return int(rec["number"])


def end_session(ws, session_id: str) -> int:
    """Record that ``session_id`` ended; returns the counter afterwards. A second end of the same id is a no-op."""
    sid = _check_id(session_id)
    path = ws.state_path(STATE_NAME)
    ws.ensure_state()
    with file_lock(path):
        data = _load(path)
        rec = _register(data, sid)
        if rec.get("ended"):
            return int(data["counter"])
        rec["ended"] = utc_now()
        if rec["number"] == data["counter"]:
            data["counter"] += 1
        _save(path, data)
        return int(data["counter"])
