"""INSIGHTS.md: the Markdown insights file — parser, renderer (exact round trip) and locked, atomic saving.

Syntax (one entry per insight; field order and blank lines are free, keys are case-insensitive)::

    ## 3f0c2a51-9d7e-4c1b-8a55-0e6f1d2b7c90
    - type: trigger
    - claim: skip it, just answer directly
    - condition: tempted to open with filler praise
    - avoid: true
    - confidence: 0.95
    - tags: communication, style
    - provenance: reflection
    - reinforcements: 0
    - created: 2026-11-30 08:27:20
    - updated: 2026-11-30 08:27:20

A value is written as is when it is one line without surrounding spaces; otherwise (empty, several lines, leading
or trailing spaces, starting with a double quote) as a JSON string. ``tags`` is a comma-separated list, or a JSON
array when a tag holds a comma. ``archived: <timestamp>`` marks a soft-deleted insight. Keys cuticle does not know
from an imported record are kept in ``extra: {json object}``. Text before the first entry is kept verbatim.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from tiers.errors import ParseError, UsageError
from tiers.fsutil import atomic_write, file_lock, read_bytes_checked
from tiers.record import dataclass, field

from .model import (

    Insight,
    InsightType,
    Provenance,
    check_id,
    check_tags,
    check_text,
    check_timestamp,
    parse_confidence,
    parse_count,
    parse_provenance,
    parse_type,
)

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

DEFAULT_FILE = "INSIGHTS.md"
DEFAULT_PREAMBLE = (
    "# Insights\n"
    "\n"
    "<!-- cuticle insights: one \"## <id>\" entry per insight, one \"- field: value\" line per field.\n"
    "     Edit by hand or with `cuticle contribute`, `update`, `reinforce`, `archive`; `cuticle render`\n"
    "     builds PERSONALITY.md from this file. -->"
)

#: canonical key -> Insight attribute, in the order entries are rendered
_KEYS: tuple[tuple[str, str], ...] = (
    ("type", "type"),
    ("claim", "claim"),
    ("condition", "condition"),
    ("avoid", "avoid"),
    ("confidence", "confidence"),
    ("tags", "tags"),
    ("provenance", "provenance"),
    ("source", "source"),
    ("reasoning", "reasoning"),
    ("context", "context"),
    ("limitations", "limitations"),
    ("reinforcements", "reinforcement_count"),
    ("created", "created_at"),
    ("updated", "updated_at"),
    ("last-retrieved", "last_retrieved_at"),
    ("archived", "archived_at"),
    ("merged-into", "merged_into"),
    ("extra", "extra"),
)
_ATTR = dict(_KEYS)
_ALIASES = {
    "reinforcementcount": "reinforcements",
    "reinforced": "reinforcements",
    "createdat": "created",
    "updatedat": "updated",
    "lastretrievedat": "last-retrieved",
    "lastretrieved": "last-retrieved",
    "archivedat": "archived",
    "mergedinto": "merged-into",
}
for _k, _ in _KEYS:
    _ALIASES[_k.replace("-", "")] = _k

_HEADING_RE = re.compile(r"##[ \t]+(\S+)[ \t]*\Z")
_FIELD_RE = re.compile(r"[ ]{0,3}[-*+][ \t]+([A-Za-z][A-Za-z0-9_.-]*)[ \t]*:(.*)\Z")
#: characters never written raw: line breaks of any kind and control characters (NUL would make the file "binary")
_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x7f") | frozenset(
    chr(c) for c in range(0x20) if c != 0x09
)
_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}


@dataclass(frozen=True, slots=True)
class InsightsFile:
    """The parsed insights file: the text before the first entry (kept verbatim) and the entries in file order."""

    insights: tuple[Insight, ...] = ()
    preamble: str = DEFAULT_PREAMBLE
    #: insight id -> 1-based line of its heading (for messages; not part of equality)
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def active(self) -> list[Insight]:
        return [i for i in self.insights if not i.archived]

    def by_id(self) -> dict[str, Insight]:
        return {i.id: i for i in self.insights}


# -- values ---------------------------------------------------------------------------------------------------
def _quote(value: str) -> str:
    ascii_only = any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    return json.dumps(value, ensure_ascii=ascii_only)


def render_value(value: str) -> str:
    """One field value: raw when it survives a round trip as is, else a JSON string."""
    if value and value == value.strip() and not value.startswith('"') and not (_BREAKS & set(value)):
        return value
    return _quote(value)


def _tag_is_plain(tag: str) -> bool:
    return bool(tag) and tag == tag.strip() and "," not in tag and tag[0] not in '["' and not (_BREAKS & set(tag))


def render_tags(tags: tuple[str, ...]) -> str:
    if not tags:
        return "[]"
    if all(_tag_is_plain(t) for t in tags):
        return ", ".join(tags)
    return json.dumps(list(tags), ensure_ascii=False)


def _parse_string(raw: str, where: str, key: str) -> str:
    if raw.startswith('"'):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ParseError(f"{where}{key}: value starts with '\"' but is not a valid JSON string ({exc.msg})") from None
        if not isinstance(value, str):
            raise ParseError(f"{where}{key}: expected a JSON string")
        return value
    return raw


def _parse_tags(raw: str, where: str) -> tuple[str, ...]:
    if raw.startswith("["):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            inner = raw[1:-1] if raw.endswith("]") else None
            if inner is not None and '"' not in inner:  # a hand-written `[style, tone]`: plain tags in brackets
                return tuple(p.strip() for p in inner.split(",") if p.strip())
            raise ParseError(f"{where}tags: starts with '[' but is not a valid JSON array ({exc.msg})") from None
        return check_tags(value, where)
    return tuple(p.strip() for p in raw.split(",") if p.strip())


def _parse_bool(raw: str, where: str, key: str) -> bool:
    low = raw.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ParseError(f"{where}{key}: expected true or false, got {raw!r}")


def _parse_extra(raw: str, where: str) -> tuple[tuple[str, str], ...]:
    from .model import json_compact

    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ParseError(f"{where}extra: expected a JSON object ({exc.msg})") from None
    if not isinstance(value, dict):
        raise ParseError(f"{where}extra: expected a JSON object")
    return tuple((k, json_compact(v)) for k, v in value.items())


def _render_extra(extra: tuple[tuple[str, str], ...]) -> str:
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + v for k, v in extra) + "}"


# -- entries --------------------------------------------------------------------------------------------------
def render_entry(ins: Insight) -> str:
    out = [f"## {ins.id}"]
    for key, attr in _KEYS:
        value = getattr(ins, attr)
        if attr == "avoid":
            if value:
                out.append("- avoid: true")
        elif attr == "tags":
            out.append(f"- tags: {render_tags(value)}")
        elif attr == "confidence":
            out.append(f"- confidence: {value!r}")
        elif attr == "reinforcement_count":
            out.append(f"- reinforcements: {value}")
        elif attr == "extra":
            if value:
                out.append(f"- extra: {_render_extra(value)}")
        elif value is None:
            continue
        elif isinstance(value, InsightType) or hasattr(value, "value"):
            out.append(f"- {key}: {value.value}")
        else:
            out.append(f"- {key}: {render_value(value)}")
    return "\n".join(out) + "\n"


def render(doc: InsightsFile) -> str:
    """The file's text. ``parse(render(doc)) == doc`` for every valid document."""
    parts: list[str] = []
    if doc.preamble:
        parts.append(doc.preamble + "\n")
    parts.extend(render_entry(i) for i in doc.insights)
    return "\n".join(parts) if parts else ""


_TYPE_NAMES = {t.value: t for t in InsightType}
_PROV_NAMES = {p.value: p for p in Provenance}
_PLAIN_TS = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\Z")


def _fast_confidence(raw: str) -> float | None:
    try:
        x = float(raw)
    except ValueError:
        return None
    return x if 0.0 <= x <= 1.0 and raw[:1].isdigit() else None


def _fast_ts(raw: str) -> str | None:
    if not _PLAIN_TS.match(raw):
        return None
    try:
        _dt.datetime.fromisoformat(raw)
    except ValueError:
        return None  # the slow path reports it
    return raw


def _fast_text(raw: str) -> str | None:
    return raw if raw and raw[0] != '"' and raw.isascii() and raw.strip() else None


_FAST: dict[str, Any] = {
    "type": _TYPE_NAMES.get,
    "provenance": _PROV_NAMES.get,
    "confidence": _fast_confidence,
    "reinforcements": lambda raw: int(raw) if raw.isdigit() and raw.isascii() else None,
    "created": _fast_ts,
    "updated": _fast_ts,
    "last-retrieved": _fast_ts,
    "claim": _fast_text,
    "context": _fast_text,
    "reasoning": _fast_text,
    "limitations": _fast_text,
    "condition": _fast_text,
    "source": _fast_text,
}


def _build(ins_id: str, values: dict[str, tuple[int, str]], name: str, heading_line: int) -> Insight:
    for required, example in (("type", "behavioral"), ("claim", "…"), ("confidence", "0.8")):
        if required not in values:
            raise ParseError(
                f"{name}:{heading_line}: insight {ins_id!r} has no {required}; add a line '- {required}: {example}'"
            )
    kwargs: dict[str, Any] = {"id": ins_id}
    for key, (line, raw) in values.items():
        attr = _ATTR[key]
        fast = _FAST.get(key)
        if fast is not None:  # the canonical spelling of common values: no validation detour
            value = fast(raw)
            if value is not None:
                kwargs[attr] = value
                continue
        w = f"{name}:{line}: "
        try:
            if key == "type":
                kwargs[attr] = parse_type(raw, w)
            elif key == "confidence":
                kwargs[attr] = parse_confidence(raw, w)
            elif key == "tags":
                kwargs[attr] = _parse_tags(raw, w)
            elif key == "avoid":
                kwargs[attr] = _parse_bool(raw, w, key)
            elif key == "provenance":
                kwargs[attr] = parse_provenance(_parse_string(raw, w, key), w)
            elif key == "reinforcements":
                kwargs[attr] = parse_count(raw, w)
            elif key in ("created", "updated", "last-retrieved", "archived"):
                kwargs[attr] = check_timestamp(_parse_string(raw, w, key), w, key)
            elif key == "merged-into":
                kwargs[attr] = check_id(_parse_string(raw, w, key), w)
            elif key == "extra":
                kwargs[attr] = _parse_extra(raw, w)
            else:
                kwargs[attr] = check_text(_parse_string(raw, w, key), w, key, required=key == "claim")
        except UsageError as exc:  # validation errors read as parse errors of this file
            raise ParseError(str(exc)) from None
    return Insight(**kwargs)


def parse(text: str, name: str = DEFAULT_FILE, *, first_line: int = 1) -> InsightsFile:
    """Parse the insights file. Errors are ParseError naming ``name:line``, what is wrong and what to do.

    ``first_line`` is the number of the text's first line (when parsing a fragment of a larger file).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    preamble: list[str] = []
    entries: list[tuple[str, int, dict[str, tuple[int, str]]]] = []
    seen_ids: dict[str, int] = {}
    current: dict[str, tuple[int, str]] | None = None
    for number, raw_line in enumerate(lines, start=first_line):
        line = raw_line[:-1] if raw_line.endswith("\r") else raw_line
        heading = _HEADING_RE.match(line) if line.startswith("##") else None
        if heading:
            ins_id = heading.group(1)
            try:
                check_id(ins_id, f"{name}:{number}: ")
            except UsageError as exc:
                raise ParseError(str(exc)) from None
            if ins_id in seen_ids:
                raise ParseError(
                    f"{name}:{number}: duplicate insight id {ins_id!r} (first at line {seen_ids[ins_id]}); "
                    "give one of them a new id or merge them"
                )
            seen_ids[ins_id] = number
            current = {}
            entries.append((ins_id, number, current))
            continue
        if current is None:
            if line.startswith("## "):
                raise ParseError(f"{name}:{number}: malformed entry heading {line!r}; expected '## <id>'")
            preamble.append(line)
            continue
        if not line.strip():
            continue
        key = None
        if line.startswith("- "):  # fast path for the canonical form
            key_raw, sep, rest = line[2:].partition(":")
            if sep and key_raw in _ATTR:
                key, value = key_raw, rest.strip()
        if key is None:
            m = _FIELD_RE.match(line)
            if not m:
                raise ParseError(
                    f"{name}:{number}: unexpected text {line.strip()[:60]!r} inside insight {entries[-1][0]!r}; "
                    "expected a '- field: value' line"
                )
            key_raw, value = m.group(1), m.group(2).strip()
            key = _ALIASES.get(key_raw.lower().replace("-", "").replace("_", ""))
        if key is None:
            known = ", ".join(k for k, _ in _KEYS)
            raise ParseError(f"{name}:{number}: unknown field {key_raw!r}; known fields: {known}")
        if key in current:
            raise ParseError(
                f"{name}:{number}: field {key!r} given twice in insight {entries[-1][0]!r} "
                f"(first at line {current[key][0]}); keep one"
            )
        current[key] = (number, value)
    while preamble and not preamble[-1].strip():
        preamble.pop()
    insights = tuple(_build(i, v, name, n) for i, n, v in entries)
    return InsightsFile(insights, "\n".join(preamble), {i: n for i, n, _ in entries})


def check(text: str, name: str = DEFAULT_FILE) -> list[str]:
    """Every problem of an insights file (not just the first), as ``name:line: message`` strings; [] when valid.

    For linters and ``cuticle doctor``: each entry is parsed on its own, so one broken entry does not hide the
    next, and duplicate ids are reported at their second occurrence.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("##")] + [len(lines)]
    problems: list[str] = []
    chunks = [(0, starts[0])] + list(zip(starts, starts[1:]))
    seen: dict[str, int] = {}
    for begin, end in chunks:
        if begin >= end:
            continue
        try:
            doc = parse("\n".join(lines[begin:end]), name, first_line=begin + 1)
        except ParseError as exc:
            problems.append(str(exc))
            continue
        for ins_id, number in doc.lines.items():
            if ins_id in seen:
                problems.append(
                    f"{name}:{number}: duplicate insight id {ins_id!r} (first at line {seen[ins_id]}); "
                    "give one of them a new id or merge them"
                )
            else:
                seen[ins_id] = number
    return problems


# -- files ----------------------------------------------------------------------------------------------------
def insights_path(ws: Any) -> Path:
    from .config import settings

    return ws.root / settings(ws).file


def load(ws: Any, path: Path | None = None) -> InsightsFile:
    """The workspace's insights file (an empty document when the file does not exist)."""
    path = path or insights_path(ws)
    if not path.exists():
        return InsightsFile()
    data = read_bytes_checked(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"{path.name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse(text, path.name)


def write_shared(path: Path, data: bytes) -> None:
    """Atomic write of a file meant to be read by other tools and committed (INSIGHTS.md, PERSONALITY.md).

    ``atomic_write`` keeps an existing file's mode, but a new file would get its temp file's 0600; give a new
    file the mode the user's umask gives any new file instead.
    """
    existed = path.exists()
    atomic_write(path, data)
    if not existed:
        mask = os.umask(0)
        os.umask(mask)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o666 & ~mask)


def save(path: Path, doc: InsightsFile) -> None:
    write_shared(path, render(doc).encode("utf-8"))


@contextlib.contextmanager
def editing(ws: Any) -> Iterator[list[InsightsFile]]:
    """Read-modify-write the insights file under its lock: ``with editing(ws) as box: box[0] = new_doc``.

    The file is rewritten (atomically) only when the document changed.
    """
    path = insights_path(ws)
    with file_lock(ws.state_path("insights")):
        doc = load(ws, path)
        box = [doc]
        yield box
        if box[0] != doc or (box[0].insights and not path.exists()):
            save(path, box[0])
