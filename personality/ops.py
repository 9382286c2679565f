"""Operations on a workspace's insights, with Chitin's names and semantics (minus its bugs).

Every write takes the insights lock, reads the file, validates, and replaces the file atomically; a failing
operation writes nothing. The CLI (``gate/commands/personality.py``) is a thin layer over these functions.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime

from tiers.errors import UsageError
from tiers.fsutil import atomic_write
from tiers.record import dataclass, field

from . import store
from .config import settings
from .model import (
    CONFIDENCE_ADJUSTMENT_RATE,
    Insight,
    InsightType,
    Provenance,
    check_tags,
    check_text,
    format_timestamp,
    now_utc,
    parse_confidence,
    parse_provenance,
    parse_type,
    validate,
)
from .store import InsightsFile
from .tension import Conflict, detect_conflicts

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

SESSION_ENV = "CUTICLE_SESSION_ID"


def new_id() -> str:
    return str(uuid.uuid4())


def _stamp(now: datetime | None) -> str:
    return format_timestamp(now or now_utc())


def resolve(doc: InsightsFile, ref: str) -> Insight:
    """An insight by full id or by a unique id prefix of at least 4 characters."""
    ref = ref.strip()
    for ins in doc.insights:
        if ins.id == ref:
            return ins
    if len(ref) >= 4:
        hits = [i for i in doc.insights if i.id.startswith(ref)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise UsageError(f"id prefix {ref!r} matches {len(hits)} insights; give more characters")
    raise UsageError(f"no insight with id {ref!r}; `cuticle list` shows the ids")


def _replace(doc: InsightsFile, new: Insight) -> InsightsFile:
    return InsightsFile(tuple(new if i.id == new.id else i for i in doc.insights), doc.preamble, doc.lines)


# -- contribute ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ContributeResult:
    """``action`` is added, reinforced (collision shield), duplicate (shield hit already reinforced this
    session) or blocked (contradicts an existing insight; nothing written)."""

    action: str
    insight: Insight
    conflicts: tuple[Conflict, ...] = ()
    similarity: float | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"action": self.action, "insight": self.insight.to_json()}
        if self.similarity is not None:
            out["similarity"] = self.similarity
        out["conflicts"] = [c.to_json() for c in self.conflicts]
        return out


def draft(
    *,
    type: Any,
    claim: Any,
    confidence: Any,
    tags: Iterable[str] | None = None,
    reasoning: str | None = None,
    context: str | None = None,
    limitations: str | None = None,
    source: str | None = None,
    provenance: Any = None,
    condition: str | None = None,
    avoid: bool = False,
) -> Insight:
    """A validated new insight (id and timestamps are filled in by :func:`contribute`)."""
    ins = Insight(
        id="new",
        type=parse_type(type),
        claim=check_text(claim, "", "claim", required=True) or "",
        confidence=parse_confidence(confidence),
        tags=check_tags(list(tags or ())),
        reasoning=check_text(reasoning, "", "reasoning"),
        context=check_text(context, "", "context"),
        limitations=check_text(limitations, "", "limitations"),
        source=check_text(source, "", "source"),
        provenance=parse_provenance(provenance),
        condition=check_text(condition, "", "condition"),
        avoid=bool(avoid),
    )
    if ins.avoid and ins.type is not InsightType.TRIGGER:
        raise UsageError("--avoid applies to triggers only; use --type trigger")
    if ins.condition is not None and ins.type is not InsightType.TRIGGER:
        raise UsageError("--condition applies to triggers only; use --type trigger")
    return ins


def contribute(
    ws: Any,
    new: Insight,
    *,
    force: bool = False,
    threshold: float | None = None,
    shield: bool = True,
    session: str | None = None,
    now: datetime | None = None,
    id_factory: Callable[[], str] = new_id,
) -> ContributeResult:
    """Add an insight: collision shield first, then the tension check (a contradiction blocks unless ``force``)."""
    from .similarity import embedder_for, find_collision

    cfg = settings(ws)
    limit = cfg.collision_threshold if threshold is None else threshold
    if not 0.0 <= limit <= 1.0:
        raise UsageError(f"similarity threshold {limit} must be between 0 and 1")
    with store.editing(ws) as box:
        doc = box[0]
        active = doc.active()
        if shield:
            embed = embedder_for("plugin") if cfg.embedder == "plugin" else None
            hit = find_collision(
                active, new.claim, condition=new.condition, avoid=new.avoid, threshold=limit, embed=embed
            )
            if hit is not None:
                existing, sim = hit
                updated, done, _ = _reinforce_one(ws, existing, session=session, now=now)
                if done:
                    box[0] = _replace(doc, updated)
                return ContributeResult("reinforced" if done else "duplicate", updated, (), sim)
        conflicts = tuple(detect_conflicts(active, new.claim))
        contradictions = tuple(c for c in conflicts if c.tension > 0)
        if contradictions and not force:
            return ContributeResult("blocked", new, conflicts)
        stamp = _stamp(now)
        ids = {i.id for i in doc.insights}
        ins_id = id_factory()
        while ins_id in ids:
            ins_id = id_factory()
        added = validate(new.with_changes(id=ins_id, created_at=stamp, updated_at=stamp))
        box[0] = InsightsFile((added, *doc.insights), doc.preamble, doc.lines)
        return ContributeResult("added", added, conflicts)


# -- update, archive, restore ------------------------------------------------------------------------------
UPDATABLE = (
    "type", "claim", "confidence", "tags", "reasoning", "context", "limitations", "source", "provenance",
    "condition", "avoid",
)
_CLEARABLE = ("reasoning", "context", "limitations", "source", "provenance", "condition")


def update(ws: Any, ref: str, changes: dict[str, Any], *, now: datetime | None = None) -> Insight:
    """Change fields (every field, including condition and avoid). An empty string clears an optional field."""
    unknown = sorted(set(changes) - set(UPDATABLE))
    if unknown:
        raise UsageError(f"cannot update {unknown[0]!r}; updatable fields: {', '.join(UPDATABLE)}")
    if not changes:
        raise UsageError("nothing to update; give at least one field option (e.g. --claim, --confidence)")
    with store.editing(ws) as box:
        ins = resolve(box[0], ref)
        kw: dict[str, Any] = {}
        for key, value in changes.items():
            if key in _CLEARABLE and value == "":
                kw[key] = None
            elif key == "type":
                kw[key] = parse_type(value)
            elif key == "confidence":
                kw[key] = parse_confidence(value)
            elif key == "tags":
                kw[key] = check_tags(list(value))
            elif key == "provenance":
                kw[key] = parse_provenance(value)
            elif key == "avoid":
                kw[key] = bool(value)
            else:
                kw[key] = check_text(value, "", key, required=key == "claim")
        new = ins.with_changes(**kw)
        if new.type is not InsightType.TRIGGER and (new.avoid or new.condition is not None):
            raise UsageError("condition and avoid apply to triggers only; set --type trigger or clear them")
        if new == ins:
            return ins
        new = validate(new.with_changes(updated_at=_stamp(now)))
        box[0] = _replace(box[0], new)
        return new


def archive(ws: Any, ref: str, *, now: datetime | None = None) -> Insight:
    """Soft delete: the insight stays in the file, marked ``archived``, and can be restored."""
    with store.editing(ws) as box:
        ins = resolve(box[0], ref)
        if ins.archived:
            raise UsageError(f"insight {ins.id} is already archived (since {ins.archived_at})")
        stamp = _stamp(now)
        new = ins.with_changes(archived_at=stamp, updated_at=stamp)
        box[0] = _replace(box[0], new)
        return new


def restore(ws: Any, ref: str, *, now: datetime | None = None) -> Insight:
    with store.editing(ws) as box:
        ins = resolve(box[0], ref)
        if not ins.archived:
            raise UsageError(f"insight {ins.id} is not archived")
        new = ins.with_changes(archived_at=None, merged_into=None, updated_at=_stamp(now))
        box[0] = _replace(box[0], new)
        return new


# -- reinforce ----------------------------------------------------------------------------------------------
def reinforced_confidence(c: float) -> float:
    """Chitin's formula, bit for bit: ``min(1, c + (1 - c) * 0.05)``."""
    return min(1.0, c + (1.0 - c) * CONFIDENCE_ADJUSTMENT_RATE)


def session_key(ws: Any, session: str | None = None) -> str | None:
    """Who is reinforcing: an explicit session id (flag or $CUTICLE_SESSION_ID), else the workspace session
    counter (``tiers.session.current_session``) when the memory model provides it, else None (no dedup)."""
    sid = session or os.environ.get(SESSION_ENV)
    if sid:
        return f"id:{sid}"
    try:
        from tiers.session import current_session  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return f"n:{int(current_session(ws))}"
    except Exception:  # noqa: BLE001 - session state is advisory here
        return None


def _ledger_path(ws: Any):
    return ws.state_path("personality", "reinforced.json")


def _reinforce_one(
    ws: Any, ins: Insight, *, session: str | None, now: datetime | None
) -> tuple[Insight, bool, str | None]:
    """(insight after, whether it was reinforced, session key). Caller holds the insights lock."""
    key = session_key(ws, session)
    path = _ledger_path(ws)
    ledger: dict[str, str] = {}
    if key is not None:
        try:
            ledger = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(ledger, dict):
                ledger = {}
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            ledger = {}
        if ledger.get(ins.id) == key:
            return ins, False, key
    stamp = _stamp(now)
    new = ins.with_changes(
        confidence=reinforced_confidence(ins.confidence),
        reinforcement_count=ins.reinforcement_count + 1,
        last_retrieved_at=stamp,
        updated_at=stamp,
    )
    if key is not None:
        ledger[ins.id] = key
        atomic_write(path, (json.dumps(ledger, sort_keys=True, indent=1) + "\n").encode())
    return new, True, key


@dataclass(frozen=True, slots=True)
class ReinforceResult:
    insight: Insight
    reinforced: bool
    session: str | None
    before: float

    def to_json(self) -> dict:
        return {
            "reinforced": self.reinforced,
            "session": self.session,
            "confidenceBefore": self.before,
            "insight": self.insight.to_json(),
        }


def reinforce(ws: Any, ref: str, *, session: str | None = None, now: datetime | None = None) -> ReinforceResult:
    """Chitin's reinforce, at most once per session per insight."""
    with store.editing(ws) as box:
        ins = resolve(box[0], ref)
        if ins.archived:
            raise UsageError(f"insight {ins.id} is archived; `cuticle restore {ins.id}` first")
        new, done, key = _reinforce_one(ws, ins, session=session, now=now)
        if done:
            box[0] = _replace(box[0], new)
        return ReinforceResult(new, done, key, ins.confidence)


# -- merge --------------------------------------------------------------------------------------------------
def merge(
    ws: Any, source_ref: str, target_ref: str, *, claim: str | None = None, force: bool = False,
    now: datetime | None = None,
) -> tuple[Insight, Insight]:
    """Chitin's merge (max confidence, ordered tag union, summed counts, reasoning joined with '; ', optional
    claim). The source is archived with ``merged-into`` instead of deleted. Returns (target, source) after."""
    with store.editing(ws) as box:
        src = resolve(box[0], source_ref)
        tgt = resolve(box[0], target_ref)
        if src.id == tgt.id:
            raise UsageError("Cannot merge an insight with itself")
        for ins in (src, tgt):
            if ins.archived:
                raise UsageError(f"insight {ins.id} is archived; restore it before merging")
        if src.type is not tgt.type and not force:
            raise UsageError(
                f"cannot merge a {src.type.value} into a {tgt.type.value} (fields such as a trigger's condition "
                "would be lost); change a type with `cuticle update --type`, or pass --force"
            )
        tags = list(tgt.tags) + [t for t in src.tags if t not in tgt.tags]
        if tgt.reasoning and src.reasoning:
            reasoning: str | None = f"{tgt.reasoning}; {src.reasoning}"
        else:
            reasoning = tgt.reasoning or src.reasoning
        stamp = _stamp(now)
        new_tgt = tgt.with_changes(
            claim=check_text(claim, "", "claim", required=True) if claim is not None else tgt.claim,
            confidence=max(src.confidence, tgt.confidence),
            tags=tuple(tags),
            reinforcement_count=src.reinforcement_count + tgt.reinforcement_count,
            reasoning=reasoning,
            updated_at=stamp,
        )
        new_src = src.with_changes(archived_at=stamp, merged_into=tgt.id, updated_at=stamp)
        doc = _replace(_replace(box[0], new_tgt), new_src)
        box[0] = doc
        return new_tgt, new_src


# -- list, stats --------------------------------------------------------------------------------------------
def select(
    doc: InsightsFile,
    *,
    types: Iterable[Any] | None = None,
    tags: Iterable[str] | None = None,
    min_confidence: float | None = None,
    provenance: Any = None,
    archived: str = "active",
) -> list[Insight]:
    """Filtered insights in file order (newest first). ``archived``: active, only or all."""
    if archived not in ("active", "only", "all"):
        raise UsageError("archived must be active, only or all")
    type_set = {parse_type(t) for t in types} if types else None
    tag_set = {t.casefold() for t in tags} if tags else None
    prov = parse_provenance(provenance) if provenance else None
    out = []
    for ins in doc.insights:
        if archived == "active" and ins.archived or archived == "only" and not ins.archived:
            continue
        if type_set and ins.type not in type_set:
            continue
        if tag_set and not tag_set & {t.casefold() for t in ins.tags}:
            continue
        if min_confidence is not None and ins.confidence < min_confidence:
            continue
        if prov is not None and ins.provenance is not prov:
            continue
        out.append(ins)
    return out


def stats(doc: InsightsFile) -> dict[str, Any]:
    """Chitin's ``{total, byType, averageConfidence}`` (every type listed, trigger included) plus archived count."""
    active = doc.active()
    by_type = {t.value: 0 for t in InsightType}
    for ins in active:
        by_type[ins.type.value] += 1
    by_prov = {p.value: 0 for p in Provenance}
    by_prov["none"] = 0
    for ins in active:
        by_prov[ins.provenance.value if ins.provenance else "none"] += 1
    avg = sum(i.confidence for i in active) / len(active) if active else 0.0
    return {
        "total": len(active),
        "byType": by_type,
        "averageConfidence": avg,
        "archived": len(doc.insights) - len(active),
        "byProvenance": by_prov,
        "reinforcements": sum(i.reinforcement_count for i in active),
    }


# -- import / export ----------------------------------------------------------------------------------------
def export_json(doc: InsightsFile, *, include_archived: bool = False) -> str:
    """Chitin's export: a JSON array, 2-space indentation, file order (newest first), with a final newline."""
    from .chitin import js_dumps, to_chitin

    items = [to_chitin(i) for i in doc.insights if include_archived or not i.archived]
    return js_dumps(items) + "\n"


@dataclass(frozen=True, slots=True)
class ImportResult:
    imported: tuple[Insight, ...]
    skipped: tuple[str, ...] = ()  # claims or ids skipped as duplicates (--merge)
    replaced: tuple[str, ...] = ()
    written: bool = False
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        return {
            "imported": len(self.imported),
            "skipped": len(self.skipped),
            "replaced": len(self.replaced),
            "written": self.written,
            "ids": [i.id for i in self.imported],
        }


def import_json(
    ws: Any,
    text: str,
    name: str = "<stdin>",
    *,
    merge: bool = False,
    replace: bool = False,
    dry_run: bool = False,
    now: datetime | None = None,
    id_factory: Callable[[], str] = new_id,
) -> ImportResult:
    """Import Chitin export JSON losslessly. Every record is validated before anything is written.

    Ids already in the file are an error unless ``merge`` (skip them, and skip records whose normalised claim
    an active insight already has, including duplicates inside the input) or ``replace`` (overwrite by id).
    Imported records go to the top of the file in input order, so a fresh import exports back identically.
    """
    from .chitin import from_chitin, load_records
    from .similarity import normalized_claim

    if merge and replace:
        raise UsageError("--merge and --replace exclude each other")
    records = load_records(text, name)
    stamp = _stamp(now)
    parsed: list[Insight] = []
    seen: dict[str, int] = {}
    for n, rec in enumerate(records, start=1):
        ins = from_chitin(rec, f"{name}: item {n}: ", now=stamp, new_id=id_factory)
        if ins.id in seen:
            raise UsageError(f"{name}: item {n}: id {ins.id} repeats item {seen[ins.id]}")
        seen[ins.id] = n
        parsed.append(validate(ins, f"{name}: item {n}: "))
    with store.editing(ws) as box:
        doc = box[0]
        existing = doc.by_id()
        claims = {normalized_claim(i.claim) for i in doc.active()}
        keep: list[Insight] = []
        skipped: list[str] = []
        replaced: list[str] = []
        for n, ins in enumerate(parsed, start=1):
            if ins.id in existing:
                if merge:
                    skipped.append(ins.id)
                    continue
                if not replace:
                    raise UsageError(
                        f"{name}: item {n}: id {ins.id} is already in {store.insights_path(ws).name}; "
                        "use --merge to skip existing insights or --replace to overwrite them"
                    )
                replaced.append(ins.id)
            norm = normalized_claim(ins.claim)
            if merge and not ins.archived and norm in claims:
                skipped.append(ins.claim)
                continue
            claims.add(norm)
            keep.append(ins)
        if dry_run:
            return ImportResult(tuple(keep), tuple(skipped), tuple(replaced), False)
        replaced_set = set(replaced)
        rest = tuple(i for i in doc.insights if i.id not in replaced_set)
        if keep:
            box[0] = InsightsFile((*keep, *rest), doc.preamble, doc.lines)
        return ImportResult(tuple(keep), tuple(skipped), tuple(replaced), bool(keep))
