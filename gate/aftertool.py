"""The after-tool step: the pre-tool snapshot of each file an allowed call writes, and stamping on disk the lines
that call added (for hosts that cannot take a rewritten call, and for the lines a host wrote itself).

The before-tool step (gate.writepath) saves the file as it was; the after-tool event compares the file on disk with
that snapshot and classifies, checks and stamps only the lines the call brought in. A call the gate blocked has no
snapshot, so its after-tool event changes nothing.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tiers.errors import CuticleError
from tiers.record import dataclass, field

from .payload import FileOp
from .writepath import FilePlan, Planner, resolve

#: seconds a pre-tool snapshot stays valid for the after-tool event (tools finish long before this)
SNAPSHOT_MAX_AGE = 600


def snapshot_path(ws, rel: str) -> Path:
    """``.cuticle/pending/<rel, escaped>.json``: one name per file, readable, no hashing on the hook path."""
    name = "".join(c if c.isalnum() or c in "-_." else f"%{ord(c):02X}" for c in rel)
    if len(name.encode("utf-8")) > 200:  # a file name has 255 bytes at most
        import hashlib

        name = "%" + hashlib.sha1(rel.encode("utf-8")).hexdigest()
    return ws.state_path("pending", name + ".json")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The file as it was before an allowed tool call ran (``old`` None: it did not exist)."""

    old: bytes | None
    call_id: str
    session_id: str
    supersede: list = field(default_factory=list)


def save_snapshot(ws, rel: str, old: bytes | None, session_id: str, *, supersede: list | None = None,
                  call_id: str = "") -> None:
    """Remember the file as it was before an *allowed* tool call ran, so that the after-tool event can tell the
    lines that call added apart (``after_tool``)."""
    import base64

    path = snapshot_path(ws, rel)
    from tiers.fsutil import make_private_dir

    make_private_dir(path.parent)  # state: dirs 700, files 600 (a snapshot holds a memory file's text)
    rec = {"rel": rel, "session_id": session_id, "call_id": call_id or "", "exists": old is not None,
           "time": time.time(), "old": base64.b64encode(old or b"").decode("ascii"), "supersede": supersede or []}
    import threading

    # pid and thread: `cuticle serve` answers concurrent calls for the same file from one process
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(rec))
    # Unlink, then rename onto a free name: renaming over an existing file makes ext4 flush the new file's data
    # first (auto_da_alloc), ~2 ms a call; a snapshot is scratch state (a missing one means "no snapshot").
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    os.rename(tmp, path)


def load_snapshot(ws, rel: str) -> Snapshot | None:
    """The saved pre-tool state of ``rel``, or None when there is none (or it is too old to trust)."""
    import base64

    path = snapshot_path(ws, rel)
    try:
        rec = json.loads(path.read_text(encoding="utf-8"))
        if rec.get("rel") != rel or time.time() - float(rec.get("time") or 0) > SNAPSHOT_MAX_AGE:
            return None  # a call the user refused leaves its snapshot behind; never trust an old one
        old = base64.b64decode(rec.get("old", "")) if rec.get("exists") else None
        return Snapshot(old, str(rec.get("call_id") or ""), str(rec.get("session_id") or ""),
                        list(rec.get("supersede") or []))
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def drop_snapshot(ws, rel: str) -> None:
    try:
        snapshot_path(ws, rel).unlink()
    except OSError:
        pass


def op_targets(op: FileOp) -> list[str]:
    """The paths a tool call's op writes (a patch move writes its target)."""
    return [op.patch.target] if op.kind == "patch" and op.patch is not None else [op.path]


def added_lines(op: FileOp) -> list[str]:
    """The lines a tool call brings in, as its arguments say: a write's whole content, an edit's new text minus
    what it replaced, a patch's ``+`` lines."""
    if op.kind == "write":
        return (op.content or "").splitlines()
    if op.kind == "edit":
        from collections import Counter

        out: list[str] = []
        for e in op.edits:
            gone = Counter(e.old.splitlines())
            for x in e.new.splitlines():
                if gone[x] > 0:
                    gone[x] -= 1
                else:
                    out.append(x)
        return out
    if op.kind == "patch" and op.patch is not None:
        if op.patch.kind == "add":
            return list(op.patch.add_lines)
        return [t for h in op.patch.hunks for tag, t in h.lines if tag == "+"]
    return []


def after_tool(ws, planner: Planner, ops, *, call_id: str = "", failed: bool = False,
               unguarded: bool = False) -> list[FilePlan]:
    """The after-tool step, the same for every host: stamp on disk the lines an allowed call added.

    It acts only when the pre-tool step allowed this call (it left a snapshot of the file, for this call id when
    the host names calls) and the host does not report the call as failed or blocked; and only on lines that
    are new against that snapshot *and* among the lines the call's arguments bring in (``added_lines``), so a
    blocked whole-file write, or another writer's lines, are never re-labelled as this agent's.

    ``unguarded`` is for an event no pre-tool step precedes (Cursor's ``afterFileEdit``): without a snapshot the
    file minus the call's added lines stands in for it. Returns the plans of the files it looked at."""
    plans: list[FilePlan] = []
    for op in ops:
        for target in op_targets(op):
            rel, _problem = resolve(ws, target, planner.cwd)
            if rel is None or not ws.is_memory_file(rel):
                continue
            snap = load_snapshot(ws, rel)
            if snap is not None and call_id and snap.call_id and snap.call_id != call_id:
                snap = None  # another call's
            if snap is None and unguarded and not failed:
                snap = _snapshot_without_pre_step(ws, rel, added_lines(op))
            if snap is None:
                continue  # no allowed pre-tool step for this call: nothing of this file is the call's
            drop_snapshot(ws, rel)
            if failed:
                continue
            plan = stamp_on_disk(ws, rel, planner, snap, added_lines(op))
            if plan is not None:
                plans.append(plan)
    return plans


def _snapshot_without_pre_step(ws, rel: str, added: list[str]) -> Snapshot | None:
    """The file minus one occurrence of each unstamped line the call brought in (events with no pre-tool step)."""
    from tiers.fsutil import read_bytes_checked

    try:
        current = read_bytes_checked(ws.root / rel)
    except (OSError, CuticleError):
        return None
    want: dict[str, int] = {}
    for c in added:
        c = c.rstrip("\r\n").rstrip()
        if c.strip() and "<!--" not in c:
            want[c] = want.get(c, 0) + 1
    out: list[bytes] = []
    for raw in current.splitlines(keepends=True):
        text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n").rstrip()
        if want.get(text):
            want[text] -= 1
            continue
        out.append(raw)
    return Snapshot(b"".join(out), "", "")


def stamp_on_disk(ws, rel: str, planner: Planner, snap: Snapshot, added: list[str]) -> FilePlan | None:
    """Stamp the new lines of ``rel`` on disk (hosts that cannot rewrite a call), atomically and never over a
    concurrent write (``tiers.gc.rewrite_memory``), leaving every other line byte-identical."""
    from tiers.gc import rewrite_memory
    from tiers.stamps import strip_stamp

    path = ws.root / rel
    if not path.exists():
        return None
    budget: dict[str, int] = {}
    for x in added:
        k = strip_stamp(x.rstrip("\r\n")).rstrip()
        budget[k] = budget.get(k, 0) + 1
    out: list[FilePlan] = []

    def change(seen) -> bytes | None:
        out.clear()
        planner.restrict = dict(budget)
        try:
            plan = planner.plan(FileOp(rel, "write"), base_text=snap.old or b"", current=seen.data)[0]
        finally:
            planner.restrict = None
        out.append(plan)
        if plan.action == "allow" and plan.stamped is not None:
            return plan.stamped
        return None

    try:
        rewrite_memory(ws, rel, change)
    except (OSError, CuticleError) as exc:
        planner.diagnostics.append(f"{rel}: not stamped after the tool ran ({exc})")
    plan = out[0] if out else None
    if plan is not None and snap.supersede:
        from .supersede import mark_superseded

        plan.supersede = mark_superseded(ws, [s for s in snap.supersede if s.get("file") == rel])
    return plan


__all__ = ["SNAPSHOT_MAX_AGE", "Snapshot", "added_lines", "after_tool", "drop_snapshot", "load_snapshot", "op_targets",
           "save_snapshot", "snapshot_path", "stamp_on_disk"]
