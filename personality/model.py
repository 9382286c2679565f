"""The insight record: Chitin's data model as a frozen value, with the validation every entry point shares."""

from __future__ import annotations

import datetime as _dt
import enum
import json
import math
import re

from tiers.errors import ParseError, UsageError
from tiers.record import dataclass, field, fields, replace

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


class InsightType(str, enum.Enum):
    """The six Chitin insight types, in Chitin's declaration order."""

    BEHAVIORAL = "behavioral"
    PERSONALITY = "personality"
    RELATIONAL = "relational"
    PRINCIPLE = "principle"
    SKILL = "skill"
    TRIGGER = "trigger"


class Provenance(str, enum.Enum):
    """Where an insight came from; drives optional decay (absent = legacy, never decays)."""

    DIRECTIVE = "directive"
    OBSERVATION = "observation"
    SOCIAL = "social"
    CORRECTION = "correction"
    REFLECTION = "reflection"
    EXTERNAL = "external"


#: Rendering order of sections (Chitin's marshal order) and their labels.
DISPLAY_ORDER: tuple[InsightType, ...] = (
    InsightType.PERSONALITY,
    InsightType.RELATIONAL,
    InsightType.BEHAVIORAL,
    InsightType.PRINCIPLE,
    InsightType.SKILL,
    InsightType.TRIGGER,
)

#: Chitin's reinforcement rate: ``new = min(1, c + (1 - c) * 0.05)``.
CONFIDENCE_ADJUSTMENT_RATE = 0.05

_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")
_TS_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S.%fZ", "%Y-%m-%dT%H:%M:%S")
_TS_RE = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\Z")


@dataclass(frozen=True, slots=True)
class Insight:
    """One insight. Field names follow Chitin's record (snake_case); ``extra`` keeps unknown JSON keys verbatim.

    Timestamps are kept as the exact strings they were given (Chitin's ``YYYY-MM-DD HH:MM:SS`` UTC, or ISO-8601)
    so an import/export round trip is lossless; ``archived_at`` marks a soft-deleted insight.
    """

    id: str
    type: InsightType
    claim: str
    confidence: float
    tags: tuple[str, ...] = ()
    reasoning: str | None = None
    context: str | None = None
    limitations: str | None = None
    source: str | None = None
    provenance: Provenance | None = None
    condition: str | None = None
    avoid: bool = False
    created_at: str | None = None
    updated_at: str | None = None
    reinforcement_count: int = 0
    last_retrieved_at: str | None = None
    archived_at: str | None = None
    merged_into: str | None = None
    #: unknown keys of an imported record, as ``(key, compact JSON text)`` pairs in their original order
    extra: tuple[tuple[str, str], ...] = field(default=())

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    def with_changes(self, **changes: Any) -> Insight:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Chitin's export shape (camelCase, undefined fields left out), plus cuticle's own keys when set."""
        return to_chitin(self)


INSIGHT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Insight))


# -- validation --------------------------------------------------------------------------------------------
def parse_type(value: Any, where: str = "") -> InsightType:
    try:
        return InsightType(str(value).strip().lower()) if isinstance(value, str) else InsightType(value)
    except ValueError:
        choices = ", ".join(t.value for t in InsightType)
        raise UsageError(f"{where}unknown insight type {value!r}; expected one of {choices}") from None


def parse_provenance(value: Any, where: str = "") -> Provenance | None:
    if value is None:
        return None
    try:
        return Provenance(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        choices = ", ".join(p.value for p in Provenance)
        raise UsageError(f"{where}unknown provenance {value!r}; expected one of {choices}") from None


def parse_confidence(value: Any, where: str = "") -> float:
    """A finite number in [0, 1]; strings are parsed. NaN, infinities, booleans and out-of-range are errors."""
    if isinstance(value, bool):
        raise UsageError(f"{where}invalid confidence {value!r}; expected a number between 0 and 1")
    shown = value.strip() if isinstance(value, str) else repr(value)
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise UsageError(f"{where}invalid confidence {value!r}; expected a number between 0 and 1") from None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise UsageError(f"{where}invalid confidence {value!r}; expected a number between 0 and 1")
    if not 0.0 <= value <= 1.0:
        raise UsageError(f"{where}confidence {shown} is out of range; expected a number between 0 and 1")
    return float(value)


def parse_count(value: Any, where: str = "") -> int:
    if isinstance(value, bool):
        raise UsageError(f"{where}invalid reinforcement count {value!r}; expected a whole number ≥ 0")
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise UsageError(f"{where}invalid reinforcement count {value!r}; expected a whole number ≥ 0") from None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or value < 0:
        raise UsageError(f"{where}invalid reinforcement count {value!r}; expected a whole number ≥ 0")
    return value


def check_id(value: Any, where: str = "") -> str:
    if not isinstance(value, str) or not _ID_RE.match(value):
        raise UsageError(
            f"{where}invalid insight id {value!r}; expected letters, digits, '.', '_', ':' or '-' (e.g. a UUID)"
        )
    return value


def check_timestamp(value: Any, where: str = "", name: str = "timestamp") -> str:
    ok = isinstance(value, str) and _TS_RE.match(value.strip()) is not None
    if ok:
        try:
            parse_timestamp(value)
        except ParseError:
            ok = False
    if not ok:
        raise UsageError(
            f"{where}invalid {name} {value!r}; expected 'YYYY-MM-DD HH:MM:SS' (UTC) or ISO-8601 like 2026-01-31T12:00:00Z"
        )
    return value


def check_text(value: Any, where: str, name: str, *, required: bool = False) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise UsageError(f"{where}{name} must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise UsageError(f"{where}{name} must not be empty")
    if not value.isascii() and _SURROGATE_RE.search(value):
        raise UsageError(f"{where}{name} contains an unpaired surrogate; text must be valid Unicode")
    return value


def check_tags(value: Any, where: str = "") -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, str) for t in value):
        raise UsageError(f"{where}tags must be a list of strings")
    for t in value:
        check_text(t, where, "tag")
    return tuple(value)


def parse_tags_arg(text: str) -> tuple[str, ...]:
    """Chitin's ``--tags``: split on ',' and trim each part (empty parts dropped)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


def validate(insight: Insight, where: str = "") -> Insight:
    """Check every field of an insight; returns it unchanged or raises UsageError naming the problem."""
    check_id(insight.id, where)
    if not isinstance(insight.type, InsightType):
        parse_type(insight.type, where)
    check_text(insight.claim, where, "claim", required=True)
    parse_confidence(insight.confidence, where)
    check_tags(insight.tags, where)
    for name in ("reasoning", "context", "limitations", "source", "condition"):
        check_text(getattr(insight, name), where, name)
    if insight.provenance is not None and not isinstance(insight.provenance, Provenance):
        parse_provenance(insight.provenance, where)
    parse_count(insight.reinforcement_count, where)
    for name in ("created_at", "updated_at", "last_retrieved_at", "archived_at"):
        value = getattr(insight, name)
        if value is not None:
            check_timestamp(value, where, name.replace("_at", "").replace("_", "-"))
    if insight.merged_into is not None:
        check_id(insight.merged_into, where)
    return insight


# -- time ----------------------------------------------------------------------------------------------------
def now_utc() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)


def format_timestamp(when: _dt.datetime) -> str:
    """Chitin's timestamp format (SQLite ``datetime('now')``): UTC, ``YYYY-MM-DD HH:MM:SS``."""
    return when.astimezone(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def parse_timestamp(value: str) -> _dt.datetime:
    """Parse a stored timestamp as **UTC** (Chitin parsed its own zone-less timestamps as local time: a bug)."""
    text = value.strip()
    try:
        if text.endswith("Z"):
            text = text[:-1] + "+00:00"
        parsed = _dt.datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError as exc:
        raise ParseError(f"invalid timestamp {value!r}") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_dt.timezone.utc)
    return parsed


def json_compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- Chitin's export shape ----------------------------------------------------------------------------------
#: Chitin's keys, in the order it emits them, with the Insight attribute each one maps to.
CHITIN_KEYS: tuple[tuple[str, str], ...] = (
    ("id", "id"),
    ("type", "type"),
    ("claim", "claim"),
    ("reasoning", "reasoning"),
    ("context", "context"),
    ("limitations", "limitations"),
    ("confidence", "confidence"),
    ("tags", "tags"),
    ("source", "source"),
    ("provenance", "provenance"),
    ("condition", "condition"),
    ("avoid", "avoid"),
    ("createdAt", "created_at"),
    ("updatedAt", "updated_at"),
    ("reinforcementCount", "reinforcement_count"),
    ("lastRetrievedAt", "last_retrieved_at"),
)
#: cuticle's additions to the shape (present only when set)
CUTICLE_KEYS: tuple[tuple[str, str], ...] = (("archivedAt", "archived_at"), ("mergedInto", "merged_into"))


def to_chitin(ins: Insight) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, attr in CHITIN_KEYS + CUTICLE_KEYS:
        value = getattr(ins, attr)
        if key == "avoid":
            out[key] = bool(value)
        elif key == "tags":
            out[key] = list(value)
        elif value is None:
            continue
        elif hasattr(value, "value"):
            out[key] = value.value
        else:
            out[key] = value
    for key, text in ins.extra:
        out[key] = json.loads(text)
    return out
