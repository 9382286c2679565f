"""`cuticle review`: the user at the keyboard goes through what the gate and GC decided on their behalf.

Four kinds of item, each with a short id (kind letter + 6 characters):

| kind | where it comes from | actions |
|---|---|---|
| ``blocked`` (``b…``) | a write the gate blocked (`.cuticle/events.jsonl`) | restore, keep, confirm, dismiss |
| ``archived`` (``a…``) | a line GC removed (`.cuticle/gc-archive.jsonl`) | restore, keep, confirm, dismiss |
| ``unverified`` (``u…``) | a DIRECTIVE nobody confirmed: no valid stamp, or stamped from markers | keep, confirm, dismiss |
| ``expiring`` (``h…``) | a stamped HYPOTHESIS in (or past) its last live session | keep, confirm, dismiss |
| ``expiring`` (``h…``) | a stamped DECISION whose scope's date or session bound has passed | keep, dismiss |

- **restore**: the line goes (back) into its file with the tier it had;
- **keep**: it stays or goes back as a HYPOTHESIS with a fresh time to live;
- **confirm**: the user says it is theirs: stamped DIRECTIVE (DECISION when it has a scope) through the stamp
  functions, so it is a verified constraint from now on; a blocked line confirmed this way supersedes the
  constraint it contradicted (as a user amendment does on the write path);
- **dismiss**: nothing changes in memory; the item is not shown again.

Every action is recorded in `.cuticle/review.jsonl`. A memory rewrite goes through ``tiers.gc.rewrite_memory``
(lock and temp files in the state directory, the file re-read and compared before and after the rename, so a host
writing meanwhile loses nothing: the action is refused and can be retried), and leaves every other line byte for
byte as it was. Text that comes back into memory passes the same security scan as the
gate's writes (an event log is only as trustworthy as whoever could write it), and only into a memory file of
the workspace.
"""

from __future__ import annotations

import base64
import hashlib

from tiers.errors import UsageError
from tiers.record import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOG = "review.jsonl"
ACTIONS = ("restore", "keep", "confirm", "dismiss")
KINDS = ("blocked", "archived", "unverified", "expiring")
_ALLOWED = {
    "blocked": ("restore", "keep", "confirm", "dismiss"),
    "archived": ("restore", "keep", "confirm", "dismiss"),
    "unverified": ("keep", "confirm", "dismiss"),
    "expiring": ("keep", "confirm", "dismiss"),
}


@dataclass(frozen=True, slots=True)
class Item:
    """One thing to review."""

    id: str
    kind: str
    file: str
    line: int | None
    text: str  # the line's content, without a stamp
    tier: str
    why: str
    actions: tuple[str, ...]
    source: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "file": self.file, "line": self.line, "text": self.text,
                "tier": self.tier, "why": self.why, "actions": list(self.actions)}


@dataclass(frozen=True, slots=True)
class Outcome:
    id: str
    action: str
    file: str
    text: str  # the line as it now stands in the file ("" for dismiss)
    note: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "action": self.action, "file": self.file, "text": self.text, "note": self.note}


class ReviewRefused(UsageError):
    """An action the item cannot take (text the security scan refuses, a line that moved). Exit code 1."""

    exit_code = 1


def _ident(kind: str, *parts: Any) -> str:
    digest = hashlib.sha256("\x1f".join([kind, *map(str, parts)]).encode("utf-8", "surrogatepass")).digest()
    return kind[0] + base64.b32encode(digest).decode("ascii").lower()[:6]


# -- collecting -------------------------------------------------------------------------------------------------
def _done(ws) -> set[str]:
    from tiers.fsutil import read_jsonl

    return {r["id"] for r in read_jsonl(ws.state_path(LOG)) if isinstance(r.get("id"), str)}


def _present(ws, rel: str, content: str, cache: dict) -> bool:
    """``content`` is already a line of ``rel`` (stamps ignored)."""
    from tiers.fsutil import read_bytes_checked
    from tiers.markdown import parse_document

    if rel not in cache:
        try:
            ws.relpath(ws.root / rel)  # never read outside the workspace for a record's sake
            doc = parse_document(read_bytes_checked(ws.root / rel))
            cache[rel] = {_norm(ln.content) for ln in doc.lines}
        except Exception:  # noqa: BLE001 - a missing or unreadable file holds nothing
            cache[rel] = set()
    return _norm(content) in cache[rel]


def _norm(content: str) -> str:
    return " ".join(content.split())


def _blocked(ws, cache: dict) -> list[Item]:
    from tiers.fsutil import read_jsonl
    from tiers.stamps import split_stamp

    out: dict[str, Item] = {}
    for rec in read_jsonl(ws.state_path("events.jsonl")):
        if rec.get("decision") != "block" or not isinstance(rec.get("files"), list):
            continue
        for f in rec["files"]:
            for err in (f.get("errors") or []) if isinstance(f, dict) else ():
                if not isinstance(err, dict):
                    continue
                att = err.get("attempted") if isinstance(err.get("attempted"), dict) else {}
                rel = att.get("file") or err.get("file") or f.get("path")
                text = att.get("content")
                if not isinstance(rel, str):
                    continue
                if isinstance(text, str) and text.strip():
                    text = split_stamp(text)[0].rstrip()
                    actions = _ALLOWED["blocked"]
                    if _present(ws, rel, text, cache):
                        continue  # it made it into the file since
                else:
                    text, actions = "", ("dismiss",)  # nothing to put back (e.g. a refused file delete)
                why = _why_blocked(err)
                ident = _ident("blocked", rel, text or why)
                tier = _tier_name(att.get("tier"))
                line = att.get("line") if isinstance(att.get("line"), int) else None
                out[ident] = Item(ident, "blocked", rel, line, text, tier, why, actions, {"error": err})
    return list(out.values())


def _tier_name(value: Any) -> str:
    """A record's tier if it names one, else HYPOTHESIS (the weakest: a record is not the user's word)."""
    from tiers.model import Tier

    return value if isinstance(value, str) and value in Tier.__members__ else "HYPOTHESIS"


def _why_blocked(err: dict) -> str:
    reason = err.get("reason") or err.get("message") or err.get("kind") or "blocked"
    other = err.get("conflicts_with")
    if isinstance(other, dict) and other.get("content"):
        reason = f"{reason} (constraint {other.get('file')}:{other.get('line')}: {other.get('content')})"
    return str(reason)


def _archived(ws) -> list[Item]:
    from tiers import gc
    from tiers.stamps import split_stamp

    out = []
    for r in gc.archive_records(ws):
        if not isinstance(r.get("text"), str) or not isinstance(r.get("file"), str):
            continue
        text = split_stamp(r["text"])[0].rstrip()
        ident = _ident("archived", r["file"], text, r.get("id"), r.get("removed_at"))
        out.append(Item(ident, "archived", r["file"], r.get("line") if isinstance(r.get("line"), int) else None,
                        text, _tier_name(r.get("tier")), f"removed by GC: {r.get('reason', '?')}",
                        _ALLOWED["archived"], {"archive_id": r.get("id")}))
    return out


def _agent_directives(ws) -> dict[str, set[int]]:
    """file -> line numbers the gate stamped DIRECTIVE from markers alone (no verified provenance), as the
    decision log records them (line numbers of the file as written then: a best-effort match, checked against
    the line's stamp below)."""
    from tiers.fsutil import read_jsonl

    out: dict[str, set[int]] = {}
    for rec in read_jsonl(ws.state_path("events.jsonl")):
        if rec.get("decision") != "allow" or not isinstance(rec.get("files"), list):
            continue
        for f in rec["files"]:
            if not isinstance(f, dict) or f.get("action") != "allow" or not isinstance(f.get("path"), str):
                continue
            for n in f.get("new_lines") or ():
                if isinstance(n, dict) and n.get("tier") == "DIRECTIVE" and n.get("verified") is False \
                        and isinstance(n.get("line"), int):
                    out.setdefault(f["path"], set()).add(n["line"])
    return out


def _in_memory(ws) -> list[Item]:
    """Unverified directives and expiring hypotheses in the memory files."""
    from tiers.classify import classify
    from tiers.fsutil import read_bytes_checked
    from tiers.markdown import parse_document
    from tiers.model import Tier
    from tiers.session import current_session
    from tiers.stamps import verify_stamp
    from tiers.expiry import decision_ended

    key = ws.key if ws.state_path("key").exists() else None
    current = current_session(ws)
    by_agent = _agent_directives(ws)
    out = []
    for path in ws.memory_files():
        rel = ws.relpath(path)
        agent_lines = by_agent.get(rel, set())
        try:
            doc = parse_document(read_bytes_checked(path))
        except Exception:  # noqa: BLE001 - lint reports unreadable files; review skips them
            continue
        for ln in doc.memory_lines():
            stamp = ln.stamp
            valid = stamp is not None and key is not None and verify_stamp(stamp, ln.content, key)
            content = ln.content.rstrip()
            if valid and stamp.tier is Tier.HYPOTHESIS and stamp.expires is not None and stamp.state is None \
                    and stamp.expires <= current:
                when = "this is its last session" if stamp.expires == current else "expired, not yet collected"
                ident = _ident("expiring", rel, content, stamp.id)
                out.append(Item(ident, "expiring", rel, ln.number, content, "HYPOTHESIS",
                                f"live through session {stamp.expires}, now session {current}: {when}",
                                _ALLOWED["expiring"], {"stamp_id": stamp.id}))
            elif valid and stamp.tier is Tier.DECISION and stamp.state is None and \
                    (ended := decision_ended(f"{stamp.scope or ''} {content}", stamp.session, session=current)):
                ident = _ident("expiring", rel, content, stamp.id)
                out.append(Item(ident, "expiring", rel, ln.number, content, "DECISION",
                                f"its scope has ended ({ended}): it no longer binds, and the next GC archives it "
                                f"(restorable); keep it as a HYPOTHESIS to remember it a while longer",
                                ("keep", "dismiss"), {"stamp_id": stamp.id}))
            elif valid and stamp.tier is Tier.DIRECTIVE and ln.number in agent_lines:
                ident = _ident("unverified", rel, content)
                out.append(Item(ident, "unverified", rel, ln.number, content, "DIRECTIVE",
                                "the agent wrote it as the user's words (a marker such as 'User said:'); the "
                                "user's own prompt did not say it", _ALLOWED["unverified"]))
            elif not valid:
                cls = classify(ln.content)
                if cls.tier is not Tier.DIRECTIVE:
                    continue
                how = "no stamp" if stamp is None and not ln.stamp_error else "a stamp that does not verify"
                ident = _ident("unverified", rel, content)
                out.append(Item(ident, "unverified", rel, ln.number, content, "DIRECTIVE",
                                f"reads as the user's instruction but has {how}: nobody confirmed the user said it",
                                _ALLOWED["unverified"]))
    return out


def items(ws, *, kinds: tuple[str, ...] = KINDS, include_done: bool = False) -> list[Item]:
    """Everything there is to review, in the order blocked, archived, unverified, expiring."""
    cache: dict = {}
    found: list[Item] = []
    if "blocked" in kinds:
        found += _blocked(ws, cache)
    if "archived" in kinds:
        found += _archived(ws)
    if "unverified" in kinds or "expiring" in kinds:
        found += [i for i in _in_memory(ws) if i.kind in kinds]
    if include_done:
        return found
    done = _done(ws)
    return [i for i in found if i.id not in done]


def find(ws, ident: str) -> Item:
    ident = ident.strip()
    hits = [i for i in items(ws, include_done=True) if i.id == ident]
    if not hits:
        if ident in _done(ws):
            raise UsageError(f"review item {ident} was already reviewed; see {LOG} in .cuticle/")
        raise UsageError(f"no review item {ident!r}; `cuticle review --list` shows the open ones")
    return hits[0]


# -- acting -----------------------------------------------------------------------------------------------------
def apply(ws, ident: str, action: str) -> Outcome:
    """Take ``action`` on item ``ident``; returns what changed."""
    from tiers.fsutil import append_jsonl, utc_now

    if action not in ACTIONS:
        raise UsageError(f"unknown review action {action!r}; expected one of {', '.join(ACTIONS)}")
    item = find(ws, ident)
    if item.id in _done(ws):
        raise UsageError(f"review item {item.id} was already reviewed; see {LOG} in .cuticle/")
    if action not in item.actions:
        raise UsageError(f"{item.kind} item {item.id} cannot be {_past(action)}; its actions: {', '.join(item.actions)}")
    if action == "dismiss":
        out = Outcome(item.id, action, item.file, "", "nothing changed in memory")
    elif item.kind == "blocked":
        out = _add_line(ws, item, action)
    elif item.kind == "archived":
        out = _unarchive(ws, item, action)
    else:
        out = _restamp(ws, item, action, item.line)
    append_jsonl(ws.state_path(LOG), {"id": item.id, "kind": item.kind, "action": action, "file": item.file,
                                      "text": item.text, "at": utc_now()})
    return out


def _past(action: str) -> str:
    return {"restore": "restored", "keep": "kept", "confirm": "confirmed", "dismiss": "dismissed"}[action]


def _target(ws, item: Item, action: str):
    """(tier, scope, ttl) of the line once ``action`` is done."""
    from tiers.classify import classify
    from tiers.gc import hypothesis_ttl
    from tiers.model import Tier

    scope = classify(item.text).scope
    if action == "confirm":
        tier = Tier.DECISION if scope else Tier.DIRECTIVE
    elif action == "keep":
        tier = Tier.HYPOTHESIS
    else:
        tier = Tier.from_code(item.tier)
    if tier is not Tier.DECISION:
        scope = None
    ttl = hypothesis_ttl(ws) if tier is Tier.HYPOTHESIS else None
    return tier, scope, ttl


def _memory_path(ws, rel: str):
    from tiers.errors import WorkspaceError

    path = ws.root / rel
    try:
        real = ws.relpath(path)
    except WorkspaceError as exc:
        raise ReviewRefused(f"{rel}: {exc}") from None
    if not ws.is_memory_file(real) or ws.is_guarded_file(real):
        raise ReviewRefused(f"{rel} is not one of the workspace's memory files; review writes only those")
    return ws.root / real, real


def _screen(ws, rel: str, text: str) -> None:
    try:
        from rules.engine import scan_new_lines
    except ImportError:  # pragma: no cover - a build without the rule engine
        return
    findings = scan_new_lines(ws, rel, [text])
    if findings:
        f = findings[0]
        msg = f.message.split(": ", 1)[1] if f.message.startswith(f"{rel}:") else f.message
        raise ReviewRefused(f"{rel}: not restored: {f.code} {msg}")


def _stamped(ws, content: str, tier, scope, ttl) -> str:
    from tiers.session import current_session
    from tiers.stamps import apply_stamp, make_stamp

    stamp = make_stamp(content.strip(), tier, current_session(ws), ws.key, scope=scope, ttl=ttl)
    return apply_stamp(content.rstrip(), stamp)


def _add_line(ws, item: Item, action: str) -> Outcome:
    """A blocked line goes into its file, at the end (never inside a block some other line opened)."""
    from tiers.markdown import parse_document

    path, rel = _memory_path(ws, item.file)
    _screen(ws, rel, item.text)
    tier, scope, ttl = _target(ws, item, action)
    line = _stamped(ws, item.text, tier, scope, ttl)

    def change(seen) -> bytes:
        doc = parse_document(seen.data)
        if any(_norm(ln.content) == _norm(item.text) for ln in doc.lines):
            raise ReviewRefused(f"{rel}: the line is already there")
        eol = next((ln.eol for ln in doc.lines if ln.eol), "\n")
        raw = doc.render()
        if raw and doc.lines and not doc.lines[-1].eol and doc.lines[-1].text:
            raw += eol.encode()
        return raw + (line + eol).encode("utf-8", "surrogateescape")

    _write_memory(ws, path, rel, change)
    note = f"added to {rel} as {tier.name}"
    err = item.source.get("error") or {}
    other = err.get("conflicts_with") if isinstance(err, dict) else None
    if action == "confirm" and isinstance(other, dict):
        note += _supersede(ws, other)
    return Outcome(item.id, action, rel, line, note)


def _supersede(ws, other: dict) -> str:
    """The user confirmed a line against a constraint: the constraint is marked superseded (GC archives it)."""
    from tiers.gc import mark_state

    rel, line, content = other.get("file"), other.get("line"), other.get("content")
    if not (isinstance(rel, str) and isinstance(line, int) and isinstance(content, str)):
        return ""
    try:
        _memory_path(ws, rel)
        done = mark_state(ws, rel, line, content, "superseded")
    except (UsageError, OSError):
        done = False
    if done:
        return f"; it supersedes {rel}:{line} (archived at the next GC, restorable)"
    return f"; {rel}:{line} has changed since, so it was left as it is"


def _unarchive(ws, item: Item, action: str) -> Outcome:
    from tiers import gc

    path, rel = _memory_path(ws, item.file)
    _screen(ws, rel, item.text)
    rec = gc.restore(ws, item.source["archive_id"])
    if action == "restore":
        return Outcome(item.id, action, rel, rec["restored_text"], f"restored into {rel}")
    return _restamp(ws, item, action, None)


def _restamp(ws, item: Item, action: str, line: int | None) -> Outcome:
    """Re-stamp the item's line in place (found at ``line``, else as the file's one line with that content)."""
    from tiers.markdown import parse_document

    path, rel = _memory_path(ws, item.file)
    tier, scope, ttl = _target(ws, item, action)
    done: list = []

    def change(seen) -> bytes:
        doc = parse_document(seen.data)
        want = _norm(item.text)
        number = None
        if line is not None and 1 <= line <= len(doc.lines) and _norm(doc.lines[line - 1].content) == want:
            number = line
        else:
            same = [ln.number for ln in doc.lines if ln.is_memory and _norm(ln.content) == want]
            if len(same) == 1:
                number = same[0]
        if number is None:
            raise ReviewRefused(f"{rel}: the line has changed or moved since; run `cuticle review` again")
        new = _stamped(ws, doc.lines[number - 1].content, tier, scope, ttl)
        done[:] = [number, new]
        return doc.with_texts({number: new}).render()

    _write_memory(ws, path, rel, change)
    number, new = done
    return Outcome(item.id, action, rel, new, f"{rel}:{number} stamped {tier.name}")


def _write_memory(ws, path, rel: str, change) -> None:
    """Apply ``change(seen) -> bytes`` to memory file ``rel`` without losing a host's concurrent write: an existing
    file through ``tiers.gc.rewrite_memory``, a missing one (a blocked write that would have made a new daily
    note) created without replacing a file that appeared meanwhile. A host still writing: ReviewRefused."""
    from tiers.fsutil import FileChanged, Seen, create_file, memory_state_paths
    from tiers.gc import rewrite_memory

    try:
        if path.exists():
            rewrite_memory(ws, rel, change)
        else:
            ws.ensure_state()
            create_file(path, change(Seen(b"", 0, 0, 0, 0)), scratch=memory_state_paths(ws.state_dir, rel)[1])
    except FileChanged as exc:
        raise ReviewRefused(f"{rel}: another program is writing to it ({exc}); try again in a moment") from None
