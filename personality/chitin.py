"""Chitin's JSON export shape in and out: camelCase keys in Chitin's order, JavaScript number formatting.

Export emits exactly what ``chitin export`` emits for the same record (2-space indentation, undefined fields left
out, ``avoid`` always present); cuticle's own additions (``archivedAt``, ``mergedInto``) appear only when set, and
unknown keys of an imported record come back verbatim after them. Import validates every record before anything
is written and keeps every field (Chitin's own import dropped provenance, condition, avoid, ids, timestamps and
counts).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from decimal import Decimal

from tiers.errors import ParseError, UsageError

from .model import (  # to_chitin is re-exported: the export shape is this module's public face
    CHITIN_KEYS,
    CUTICLE_KEYS,
    Insight,
    check_id,
    check_tags,
    check_text,
    check_timestamp,
    parse_confidence,
    parse_count,
    parse_provenance,
    json_compact,
    parse_type,
    to_chitin,
)

__all__ = ["from_chitin", "is_sqlite", "js_dumps", "js_number", "load_records", "read_database", "to_chitin"]

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

_KNOWN = {k for k, _ in CHITIN_KEYS + CUTICLE_KEYS}


def from_chitin(
    obj: Any,
    where: str,
    *,
    now: str,
    new_id: Callable[[], str],
) -> Insight:
    """One export record -> Insight. Raises UsageError naming ``where`` (e.g. ``export.json: item 3: ``)."""
    if not isinstance(obj, dict):
        raise UsageError(f"{where}expected a JSON object, got {type(obj).__name__}")
    get = {k: v for k, v in obj.items() if v is not None}
    if "type" not in get:
        raise UsageError(f"{where}missing 'type'")
    if "claim" not in get:
        raise UsageError(f"{where}missing 'claim'")
    created = check_timestamp(get["createdAt"], where, "createdAt") if "createdAt" in get else now
    avoid = get.get("avoid", False)
    if not isinstance(avoid, bool):
        raise UsageError(f"{where}'avoid' must be true or false")
    extra = tuple((k, json_compact(v)) for k, v in obj.items() if k not in _KNOWN)
    return Insight(
        id=check_id(get["id"], where) if "id" in get else new_id(),
        type=parse_type(get["type"] if isinstance(get["type"], str) else repr(get["type"]), where),
        claim=check_text(get["claim"], where, "claim", required=True) or "",
        confidence=parse_confidence(_number(get.get("confidence", 0.5), where, "confidence"), where),
        tags=check_tags(get.get("tags", []), where),
        reasoning=check_text(get.get("reasoning"), where, "reasoning"),
        context=check_text(get.get("context"), where, "context"),
        limitations=check_text(get.get("limitations"), where, "limitations"),
        source=check_text(get.get("source"), where, "source"),
        provenance=parse_provenance(get.get("provenance"), where),
        condition=check_text(get.get("condition"), where, "condition"),
        avoid=avoid,
        created_at=created,
        updated_at=check_timestamp(get["updatedAt"], where, "updatedAt") if "updatedAt" in get else created,
        reinforcement_count=parse_count(_number(get.get("reinforcementCount", 0), where, "reinforcementCount"), where),
        last_retrieved_at=check_timestamp(get["lastRetrievedAt"], where, "lastRetrievedAt")
        if "lastRetrievedAt" in get
        else None,
        archived_at=check_timestamp(get["archivedAt"], where, "archivedAt") if "archivedAt" in get else None,
        merged_into=check_id(get["mergedInto"], where) if "mergedInto" in get else None,
        extra=extra,
    )


def _number(value: Any, where: str, name: str) -> Any:
    if isinstance(value, str):  # JSON strings are not numbers, even when they look like one
        raise UsageError(f"{where}{name} must be a JSON number, got the string {value!r}")
    return value


def load_records(text: str, name: str) -> list[Any]:
    """Parse an export file: an array of objects, or one object (wrapped, as Chitin does)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"{name}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    if isinstance(data, dict):
        return [data]
    if not isinstance(data, list):
        raise ParseError(f"{name}: expected a JSON array of insights (or one insight object)")
    return data


# -- JavaScript-compatible JSON text ------------------------------------------------------------------------
def js_number(value: float | int) -> str:
    """A number as JavaScript's ``JSON.stringify`` writes it (``1.0`` -> ``1``, ``1e-05`` -> ``0.00001``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        if 1e-6 <= abs(value) < 1e21:
            return format(Decimal(text), "f")
        mantissa, exp = text.split("e")
        return f"{mantissa}e{'-' if exp.startswith('-') else '+'}{int(exp.lstrip('+-'))}"
    return text


def js_dumps(value: Any, indent: int = 2, _level: int = 0) -> str:
    """``JSON.stringify(value, null, indent)`` for JSON-compatible Python values."""
    pad = " " * (indent * (_level + 1))
    end = " " * (indent * _level)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        items = ",\n".join(pad + js_dumps(v, indent, _level + 1) for v in value)
        return "[\n" + items + "\n" + end + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = ",\n".join(
            pad + json.dumps(str(k), ensure_ascii=False) + ": " + js_dumps(v, indent, _level + 1)
            for k, v in value.items()
        )
        return "{\n" + items + "\n" + end + "}"
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


# -- Chitin's SQLite database ---------------------------------------------------------------------------------
SQLITE_MAGIC = b"SQLite format 3\x00"
#: insights column -> export key (the database's snake_case, the export's camelCase)
_DB_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "id"), ("type", "type"), ("claim", "claim"), ("reasoning", "reasoning"), ("context", "context"),
    ("limitations", "limitations"), ("confidence", "confidence"), ("tags", "tags"), ("source", "source"),
    ("provenance", "provenance"), ("condition", "condition"), ("avoid", "avoid"), ("created_at", "createdAt"),
    ("updated_at", "updatedAt"), ("reinforcement_count", "reinforcementCount"),
    ("last_retrieved_at", "lastRetrievedAt"),
)


def is_sqlite(head: bytes) -> bool:
    return head.startswith(SQLITE_MAGIC)


def read_database(path: Any) -> list[dict[str, Any]]:
    """The insights of a Chitin database (``~/.config/chitin/insights.db``) as export records, newest first,
    exactly as ``chitin export`` would print them. Opened read-only; columns added by Chitin's later migrations
    (``condition``, ``avoid``, ``provenance``) may be missing from an old database."""
    import sqlite3
    from pathlib import Path

    p = Path(path).resolve()
    name = p.name
    try:
        # read-only; immutable where the directory is not writable (a WAL database would need its -shm file)
        con = sqlite3.connect(f"{p.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ParseError(f"{name}: cannot open the SQLite database ({exc})") from None
    try:
        try:
            cols = {row[1] for row in con.execute("PRAGMA table_info(insights)")}
        except sqlite3.DatabaseError as exc:
            raise ParseError(f"{name}: not a readable SQLite database ({exc})") from None
        if not cols:
            raise ParseError(f"{name}: no 'insights' table; is this Chitin's insights.db?")
        missing = {"id", "type", "claim"} - cols
        if missing:
            raise ParseError(f"{name}: the insights table lacks {', '.join(sorted(missing))}; not a Chitin database")
        present = [(c, k) for c, k in _DB_COLUMNS if c in cols]
        order = "created_at DESC, rowid ASC" if "created_at" in cols else "rowid ASC"
        sql = f"SELECT {', '.join(c for c, _ in present)} FROM insights ORDER BY {order}"  # noqa: S608 - fixed names
        try:
            rows = con.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:
            raise ParseError(f"{name}: cannot read the insights ({exc})") from None
    finally:
        con.close()
    out = []
    for n, row in enumerate(rows, start=1):
        rec: dict[str, Any] = {}
        for (col, key), value in zip(present, row):
            if key == "tags":
                try:
                    value = json.loads(value) if isinstance(value, str) else (value if value is not None else [])
                except ValueError:
                    raise ParseError(f"{name}: row {n}: tags {value!r} are not a JSON list") from None
            elif key == "avoid":
                value = bool(value)
            elif value is None:
                continue  # undefined fields are left out, as Chitin's export does
            rec[key] = value
        rec.setdefault("tags", [])
        rec.setdefault("avoid", False)
        rec.setdefault("reinforcementCount", 0)
        out.append({k: rec[k] for _, k in _DB_COLUMNS if k in rec})
    return out
