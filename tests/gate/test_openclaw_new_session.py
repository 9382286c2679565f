"""OpenClaw's `/new` (internal hook `command:new`) queues a reflection as `/reset` does (Chitin's hook did both)."""

from __future__ import annotations

import json

import pytest

from gate.handler import handle
from personality import pending


def _payload(ws, reason: str | None) -> bytes:
    # what gate/openclaw/index.js sends for command:new (and for before_reset, whose event may carry a reason)
    event = {"reason": reason} if reason else {}
    return json.dumps({"hook": "before_reset", "event": event,
                       "ctx": {"sessionKey": "agent:main:main", "sessionId": "old-1", "workspaceDir": str(ws)},
                       "workspaceDir": str(ws)}).encode()


@pytest.mark.parametrize("reason, queued", [("new", "new"), (None, "reset")], ids=["new", "reset"])
def test_a_new_or_reset_session_queues_one_reflection_with_its_reason(ws, reason, queued):
    from tiers import Workspace

    reply = handle("openclaw", "before_reset", _payload(ws, reason), cwd=str(ws))
    assert reply.exit_code == 0
    markers = pending(Workspace(ws))
    assert [m["reason"] for m in markers] == [queued]
    assert markers[0]["timestamp"].endswith("Z")
