"""Garbage collection of memory: expired hypotheses and decisions and retired lines leave, recoverably.

GC removes only lines carrying a stamp that verifies under the workspace key (lines cuticle stamped itself):
HYPOTHESIS lines whose ``expires`` session is behind the current session, DECISION lines whose scope ended (a date
bound before today, a session bound before the current session: ``tiers.expiry``, the rule arbitration applies
too), and lines whose stamp state is ``superseded`` or ``contradicted``. Unstamped lines, lines with forged or malformed stamps, headings, code and
everything else are never touched; each file is rewritten atomically under its lock, byte for byte identical apart
from the removed lines. Every removed line is first appended to ``.cuticle/gc-archive.jsonl`` (file, line, text,
stamp, reason, id), and ``restore(ws, id)`` puts it back.
"""

from __future__ import annotations

import re

from .errors import ConfigError, UsageError, WorkspaceError
from .fsutil import (
    FileChanged,
    append_jsonl,
    append_jsonl_locked,
    clean_scratch,
    file_lock,
    memory_state_paths,
    read_bytes_checked,
    read_jsonl,
    rewrite_file,
    utc_now,
)
from .lazy import LazyRe
from .model import Tier
from .record import dataclass, field

TYPE_CHECKING = False  # typing and datetime cost start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    import datetime as _dt
    from typing import Any

__all__ = ["GcReport", "Removed", "archive_once", "collect", "hypothesis_ttl", "mark_state", "removal_reason",
           "removal_records", "restore", "rewrite_memory"]


def _log():
    """This module's logger, imported on the rare warning path (logging costs milliseconds at hook start)."""
    import logging

    return logging.getLogger(__name__)


ARCHIVE_NAME = "gc-archive.jsonl"
DEFAULT_TTL = 3
#: A stamp that can make its line a GC candidate: a HYPOTHESIS with an expiry, a DECISION (its scope may have
#: ended), or any stamp with a state (see the stamp grammar in tiers.stamps). A file without one is not parsed:
#: session start runs GC over every memory file.
_CANDIDATE = LazyRe(rb"cu:(?:H[a-z2-7]{4,12}@[0-9]{1,12}~|C[a-z2-7]{4,12}@|"
                    rb"[A-Z][a-z2-7]{4,12}@[0-9]{1,12}(?:~[0-9]{1,12})?!)")


@dataclass(frozen=True, slots=True)
class Removed:
    """One line GC removed (or would remove, in a dry run)."""

    id: str
    file: str
    line: int
    text: str
    stamp: str
    reason: str
    tier: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "file": self.file, "line": self.line, "text": self.text, "stamp": self.stamp,
                "reason": self.reason, "tier": self.tier}


@dataclass(slots=True)
class GcReport:
    session: int
    dry_run: bool
    removed: list[Removed] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"session": self.session, "dry_run": self.dry_run, "removed": [r.to_json() for r in self.removed],
                "files_changed": self.files, "errors": self.errors}


def hypothesis_ttl(ws) -> int:
    """``[tiers] hypothesis_ttl`` (sessions a HYPOTHESIS lives), default 3."""
    value = ws.section("tiers").get("hypothesis_ttl", DEFAULT_TTL)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{ws.config_path}: [tiers] hypothesis_ttl must be an integer >= 1, not {value!r}")
    return value


def _key(ws) -> bytes | None:
    # GC never creates a key: without one, cuticle cannot have stamped anything here.
    if not ws.state_path("key").exists():
        return None
    return ws.key


def removal_reason(stamp, current: int, content: str = "", today: _dt.date | None = None) -> str | None:
    """Why GC removes a line with ``stamp`` and ``content`` in session ``current`` on ``today`` (default: the local
    date): superseded, contradicted, an expired HYPOTHESIS, a DECISION whose scope ended; or None."""
    if stamp.state in ("superseded", "contradicted"):
        return stamp.state
    if stamp.tier is Tier.HYPOTHESIS and stamp.expires is not None and stamp.expires < current:
        return f"expired (HYPOTHESIS live through session {stamp.expires}, now session {current})"
    if stamp.tier is Tier.DECISION:
        from .expiry import decision_ended

        why = decision_ended(f"{stamp.scope or ''} {content}", stamp.session, today, current)
        if why is not None:
            return f"expired (DECISION scope ended: {why})"
    return None


def rewrite_memory(ws, rel: str, change) -> bytes | None:
    """Rewrite memory file ``rel`` with ``change(seen) -> bytes | None`` the safe way (``fsutil.rewrite_file``,
    with its lock and temp files in the state directory). FileChanged when a host kept writing to it. A symbolic
    link (the file's, or a folder's on its way) stays one: the file it points to is rewritten (under that file's
    lock) when it lies inside the workspace; a link out of the workspace is a WorkspaceError and is left as it is."""
    rel = ws.relpath(rel)  # a link is followed to its target; one out of the workspace is a WorkspaceError
    path = ws.root / rel
    lock, scratch = memory_state_paths(ws.state_dir, rel)
    return rewrite_file(path, change, lock_path=lock, scratch=scratch)


def removal_records(ws, rel: str, doc, reasons: dict[int, str], current: int, *, by: str | None = None,
                    ) -> tuple[list[Removed], list[dict]]:
    """The GC archive's view of removing lines ``reasons`` (line number -> why) of ``doc`` (file ``rel``): the
    :class:`Removed` items and the archive records (text, stamp, end of line and the neighbour above, which
    `cuticle gc --restore` puts the line back under). The one writer of the archive format: GC and
    `cuticle lint --fix` both archive through it. Only stamped lines can be archived (ValueError otherwise)."""
    from .stamps import render_stamp

    found: list[Removed] = []
    records: list[dict] = []
    now = utc_now()
    for n, why in reasons.items():
        ln = doc.lines[n - 1]
        stamp = ln.stamp
        if stamp is None:
            raise ValueError(f"{rel}:{n}: only stamped lines can be archived")
        prev = next((doc.lines[i].text for i in range(n - 2, -1, -1) if doc.lines[i].text.strip()), None)
        item = Removed(stamp.id, rel, n, ln.text, render_stamp(stamp), why, stamp.tier.name)
        found.append(item)
        record = {**item.to_json(), "eol": ln.eol, "prev": prev, "session": current, "removed_at": now}
        if by:
            record["by"] = by
        records.append(record)
    return found, records


def archive_once(ws, records: list[dict]) -> int:
    """Append the records whose (id, file) the archive does not already hold as restorable; returns how many.
    A run killed between archiving and rewriting archives the same lines again next time: this keeps one each."""
    path = ws.state_path(ARCHIVE_NAME)
    ws.ensure_state()
    with file_lock(path):
        held = {(r.get("id"), r.get("file")) for r in archive_records(ws)}
        new = []
        for r in records:
            k = (r.get("id"), r.get("file"))
            if k not in held:
                held.add(k)
                new.append(r)
        if new:
            append_jsonl_locked(path, new)
    return len(new)


def collect(ws, *, dry_run: bool = False, today: _dt.date | None = None) -> GcReport:
    """Remove expired hypotheses and decisions and superseded/contradicted lines from every memory file of ``ws``
    (``today``: the day date bounds are read on, default the local date)."""
    from .markdown import parse_document
    from .session import current_session
    from .stamps import verify_stamp

    current = current_session(ws)
    report = GcReport(current, dry_run)
    key = _key(ws)
    if key is None:
        return report
    if not dry_run:
        clean_scratch(memory_state_paths(ws.state_dir, "x")[1])  # what a killed run left
    for path in ws.memory_files():
        rel = ws.relpath(path)
        found: list[Removed] = []

        def change(seen, rel=rel, found=found):
            found.clear()
            doc = parse_document(seen.data)
            reasons: dict[int, str] = {}
            for ln in doc.memory_lines():
                stamp = ln.stamp
                if stamp is None or not verify_stamp(stamp, ln.content, key):
                    continue
                why = removal_reason(stamp, current, ln.content, today)
                if why is not None:
                    reasons[ln.number] = why
            items, records = removal_records(ws, rel, doc, reasons, current)
            found.extend(items)
            if found and dry_run:
                _left_as_it_is(ws, rel)  # what a real run would refuse, a dry run reports the same way
            if not found or dry_run:
                return None
            # The archive is written first: a crash before the rewrite leaves the line in place and a record
            # that restore() recognises as already present (and the next run does not archive twice).
            archive_once(ws, records)
            return doc.with_texts(dict.fromkeys(reasons)).render()

        try:
            if not _CANDIDATE.search(read_bytes_checked(path)):
                continue  # no expiring or marked stamp: nothing to collect, no parse (re-read for the rewrite)
            written = rewrite_memory(ws, rel, change)
        except (WorkspaceError, OSError) as exc:  # FileChanged included: a host is writing; the lines stay
            why = str(exc)
            why = why[len(str(path)) + 2:] if why.startswith(f"{path}: ") else why  # the file is named once
            report.errors.append(f"{rel}: {why}")
            _log().warning("gc skipped %s: %s", rel, exc)
            continue
        if found and (dry_run or written is not None):
            report.removed.extend(found)
            report.files.append(rel)
    return report


def _left_as_it_is(ws, rel: str) -> None:
    """A WorkspaceError when GC could not rewrite memory file ``rel`` (a second hard link: the rename would fork
    the memory), so that ``collect(dry_run=True)`` says what a real run would say."""
    import os

    from .fsutil import one_name

    path = ws.root / rel
    one_name(path, os.stat(path), memory_state_paths(ws.state_dir, rel)[1])


def archive_records(ws) -> list[dict]:
    """Every archived line still restorable (newest last)."""
    recs = read_jsonl(ws.state_path(ARCHIVE_NAME))
    restored = {r["restored"] for r in recs if "restored" in r}
    out: dict[tuple, dict] = {}  # one per (id, file): duplicates an older version wrote are read as one
    for r in recs:
        if "id" in r and "restored" not in r and r.get("id") not in restored:
            k = (r.get("id"), r.get("file"))
            out.pop(k, None)
            out[k] = r
    return list(out.values())


def restore(ws, archive_id: str) -> dict[str, Any]:
    """Put an archived line back into its file (near its old neighbour), re-stamped live; returns the record."""
    from .markdown import parse_document
    from .session import current_session
    from .stamps import apply_stamp, make_stamp, parse_stamp, split_stamp

    cands = [r for r in archive_records(ws) if r.get("id") == archive_id]
    if not cands:
        raise UsageError(f"no archived line with id {archive_id!r}; `cuticle gc --json --dry-run` lists "
                         f"what GC would remove and {ws.state_path(ARCHIVE_NAME).name} what it removed")
    rec = cands[-1]
    rel = rec["file"]
    path = ws.root / rel
    try:
        ws.relpath(path)
    except WorkspaceError as exc:
        raise UsageError(f"archived file {rel} is outside the workspace") from exc
    content, _, _ = split_stamp(rec["text"])
    old = parse_stamp(rec["stamp"])
    key = ws.key
    session = current_session(ws)
    ttl = hypothesis_ttl(ws) if old.tier is Tier.HYPOTHESIS else None
    stamp = make_stamp(content.strip(), old.tier, session, key, scope=old.scope, ttl=ttl, verified=old.verified)
    text = apply_stamp(content.rstrip(), stamp)
    state: dict[str, bool] = {}

    def change(seen) -> bytes | None:
        doc = parse_document(seen.data)
        lines = [ln.text for ln in doc.lines]
        state["present"] = any(split_stamp(t)[0].strip() == content.strip() for t in lines)
        if state["present"]:
            return None
        eol = rec.get("eol") or (doc.lines[0].eol if doc.lines and doc.lines[0].eol else "\n")
        at = None
        prev = rec.get("prev")
        if prev is not None:
            at = next((i + 1 for i in range(len(lines) - 1, -1, -1) if lines[i] == prev), None)
        if at is None:
            at = min(max(int(rec.get("line", 1)) - 1, 0), len(lines))
        # Rebuild around the insertion point, keeping every other line's bytes and EOLs.
        pieces = [ln.text + ln.eol for ln in doc.lines]
        if at > 0 and at <= len(pieces) and not doc.lines[at - 1].eol:
            pieces[at - 1] += eol
            eol = ""
        pieces.insert(at, text + eol)
        out = "".join(pieces).encode("utf-8", "surrogateescape")
        return (b"\xef\xbb\xbf" + out) if doc.bom else out

    ws.ensure_state()
    if path.exists():
        rewrite_memory(ws, rel, change)
    else:
        from .fsutil import create_file

        state["present"] = False
        create_file(path, (text + (rec.get("eol") or "\n")).encode("utf-8", "surrogateescape"),
                    scratch=memory_state_paths(ws.state_dir, rel)[1])
    present = state.get("present", False)
    append_jsonl(ws.state_path(ARCHIVE_NAME), {"restored": archive_id, "at": utc_now(), "file": rel})
    return {**rec, "restored_text": text, "already_present": present}


def mark_state(ws, rel: str, line: int, content: str, state: str) -> bool:
    """Re-stamp one line as ``superseded``/``contradicted`` so the next GC archives it; False if it moved.

    Used when a verified user directive amends an older constraint. An unstamped constraint (written before
    cuticle) gets a stamp carrying the state: the user's own amendment is what retires it.
    """
    from .classify import classify
    from .markdown import parse_document
    from .session import current_session
    from .stamps import STATES, apply_stamp, make_stamp, verify_stamp

    if state not in STATES:
        raise UsageError(f"state must be one of {', '.join(STATES)}, not {state!r}")
    path = ws.root / rel
    ws.relpath(path)
    key = ws.key
    done: list[bool] = []

    def change(seen) -> bytes | None:
        done.clear()
        doc = parse_document(seen.data)
        if not 1 <= line <= len(doc.lines):
            return None
        ln = doc.lines[line - 1]
        if ln.content.strip() != content.strip():
            return None
        old = ln.stamp
        proof = None
        if old is not None and verify_stamp(old, ln.content, key):
            tier, scope, session, proof = old.tier, old.scope, old.session, old.verified
        else:
            cls = classify(ln.content)
            tier, scope, session = cls.tier, cls.scope, current_session(ws)
        stamp = make_stamp(ln.content.strip(), tier, session, key, scope=scope, state=state, verified=proof)
        done.append(True)
        return doc.with_texts({line: apply_stamp(ln.content.rstrip(), stamp)}).render()

    rewrite_memory(ws, rel, change)
    return bool(done)
