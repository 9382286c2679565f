"""The session-end GC on the hook path records the files it left (a second hard link, a host still writing) in the
session-end event, secret-masked like every event, and `cuticle doctor` shows them; before, only the number of
removed lines was recorded and the reason went to a log warning nobody reads (issue #16)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from gate.doctor import doctor
from gate_helpers import run_hook
from tiers.model import Tier
from tiers.session import current_session
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

GUESS = "- Maybe the cache is cold on Mondays."
SECRET_NAME = "AKIAIOSFODNN7EXAMPLE"  # an AWS key id in a file name: the event must not repeat it


def _expiring_and_linked(root: Path, tmp_path: Path) -> Path:
    ws = Workspace(root)
    hyp = apply_stamp(GUESS, make_stamp(GUESS, Tier.HYPOTHESIS, current_session(ws), ws.key, ttl=1))
    path = root / "memory" / f"{SECRET_NAME}.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"# Notes\n\n{hyp}\n", encoding="utf-8")
    os.link(path, tmp_path / "elsewhere.md")  # a second name: GC must not rename over it
    return path


def _end(root: Path, sid: str = "s1"):
    return run_hook("claude", {"hook_event_name": "SessionEnd", "session_id": sid, "cwd": str(root),
                               "transcript_path": "/tmp/t.jsonl", "reason": "other"})


def _events(root: Path) -> list[dict]:
    return [json.loads(x) for x in (root / ".cuticle" / "events.jsonl").read_text(encoding="utf-8").splitlines()]


def test_the_session_end_event_records_the_file_gc_left_and_why(ws: Path, tmp_path: Path) -> None:
    path = _expiring_and_linked(ws, tmp_path)
    before = path.read_text(encoding="utf-8")
    assert _end(ws).code == 0  # the host's session end is never failed for it
    assert path.read_text(encoding="utf-8") == before  # nothing collected from the linked file
    end = [e for e in _events(ws) if e.get("decision") == "session-end"][-1]
    assert end["gc_removed"] == 0
    assert len(end["gc_errors"]) == 1, end
    assert end["gc_errors"][0].startswith("memory/AKIA") and "hard link" in end["gc_errors"][0]
    raw = (ws / ".cuticle" / "events.jsonl").read_text(encoding="utf-8")
    assert SECRET_NAME not in raw  # masked like every event


def test_a_clean_session_end_records_no_gc_errors(ws: Path) -> None:
    assert _end(ws).code == 0
    end = [e for e in _events(ws) if e.get("decision") == "session-end"][-1]
    assert "gc_errors" not in end and end["gc_removed"] == 0


def test_doctor_shows_what_the_last_session_gc_left(ws: Path, tmp_path: Path) -> None:
    _expiring_and_linked(ws, tmp_path)
    _end(ws)
    checks = {c.name: c for c in doctor(ws, canary=False).checks}
    gc = checks["gc"]
    assert gc.status == "warn"
    assert "hard link" in gc.detail and "memory/AKIA" in gc.detail and SECRET_NAME not in gc.detail


def test_doctor_says_gc_is_clean_after_a_clean_session_end_and_after_a_later_clean_one(ws: Path, tmp_path: Path) -> None:
    assert doctor(ws, canary=False).checks  # no session ended yet: no gc check needed to pass
    _end(ws, "s0")
    checks = {c.name: c for c in doctor(ws, canary=False).checks}
    assert checks["gc"].status == "ok", checks["gc"]
    link = tmp_path / "elsewhere.md"
    path = _expiring_and_linked(ws, tmp_path)
    _end(ws, "s1")
    assert {c.name: c for c in doctor(ws, canary=False).checks}["gc"].status == "warn"
    link.unlink()  # the second name is gone: the next session's GC collects, and doctor is clean again
    _end(ws, "s2")
    assert GUESS not in path.read_text(encoding="utf-8")
    assert {c.name: c for c in doctor(ws, canary=False).checks}["gc"].status == "ok"
