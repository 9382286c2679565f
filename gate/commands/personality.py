"""The personality subcommands (Chitin's names and flags): contribute, get, update, reinforce, archive, restore,
list, stats, similar, merge, retrieve, render, export, import, reflect, embed, embed-status. Thin wrappers over
``personality``.

`embed` exits 2 when no embedder can run (none configured, or no plugin implements `cuticle_embed`);
`embed-status` exits 1 then (0 when one can run), so scripts can test for it."""

from __future__ import annotations

import argparse
import sys

from gate.commands._common import add_workspace, open_workspace, print_json

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

_FIELD_OPTS = (
    ("--claim", "the insight (for a trigger: the response to do or avoid)"),
    ("--reasoning", "how you arrived at this"),
    ("--context", "when this applies"),
    ("--limitations", "when this breaks down"),
    ("--source", "free-text source"),
    ("--condition", "trigger only: the situation that fires it"),
)
_TYPES = ("behavioral", "personality", "relational", "principle", "skill", "trigger")
_PROVENANCES = ("directive", "observation", "social", "correction", "reflection", "external")


def _add_format(parser: argparse.ArgumentParser, choices: tuple[str, ...] = ("human", "json"), default="human"):
    parser.add_argument("--format", choices=choices, default=default, help=f"output format (default {default})")
    parser.add_argument("--json", action="store_const", dest="format", const="json", help="same as --format json")


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    add_workspace(parser)
    if name == "contribute":
        parser.add_argument("--type", help=f"one of {', '.join(_TYPES)}")
        for opt, help_text in _FIELD_OPTS:
            parser.add_argument(opt, help=help_text)
        parser.add_argument("--confidence", help="0..1 (0.5 = seems right, 0.9 = tested extensively)")
        parser.add_argument("--tags", help="comma-separated tags")
        parser.add_argument("--provenance", help=f"one of {', '.join(_PROVENANCES)}")
        parser.add_argument("--avoid", action="store_true", help="trigger only: the claim is what to avoid")
        parser.add_argument("--force", action="store_true", help="add even if it contradicts an existing insight")
        parser.add_argument("--stdin", action="store_true", help="read one Chitin ContributeInput JSON object from stdin")
        parser.add_argument(
            "--threshold", "--similarity-threshold", dest="threshold", type=float, default=None,
            help="collision shield: similarity at or above which the existing insight is reinforced instead "
            "(default [personality] collision_threshold, 0.92)",
        )
        parser.add_argument("--no-shield", action="store_true", help="skip the collision shield")
        _add_session(parser)
    elif name in ("get", "archive", "restore"):
        parser.add_argument("id", help="insight id (or a unique prefix of at least 4 characters)")
    elif name == "update":
        parser.add_argument("id", help="insight id (or a unique prefix)")
        parser.add_argument("--type", help=f"one of {', '.join(_TYPES)}")
        for opt, help_text in _FIELD_OPTS:
            parser.add_argument(opt, help=help_text + ("" if opt == "--claim" else " ('' clears it)"))
        parser.add_argument("--confidence", help="0..1")
        parser.add_argument("--tags", help="comma-separated tags (replaces the list; '' empties it)")
        parser.add_argument("--provenance", help=f"one of {', '.join(_PROVENANCES)} ('' clears it)")
        parser.add_argument("--avoid", action=argparse.BooleanOptionalAction, default=None,
                            help="trigger only: mark the claim as what to avoid (--no-avoid: what to do)")
    elif name == "reinforce":
        parser.add_argument("id", help="insight id (or a unique prefix)")
        parser.add_argument("--source", help="what confirmed it (kept in the output; git history is the log)")
        parser.add_argument("--evidence", help="external, internal or social")
        _add_session(parser)
    elif name == "list":
        parser.add_argument("--type", action="append", help="only this type (repeatable)")
        parser.add_argument("--tag", action="append", help="only insights with this tag (repeatable)")
        parser.add_argument("--min-confidence", type=float, default=None)
        parser.add_argument("--provenance", help="only this provenance")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--archived", action="store_true", help="only archived insights")
        group.add_argument("--all", action="store_true", help="active and archived insights")
        parser.add_argument("--limit", type=int, default=None)
    elif name == "similar":
        parser.add_argument("claim")
        parser.add_argument("--threshold", type=float, default=0.2, help="minimum Jaccard similarity (default 0.2)")
    elif name == "merge":
        parser.add_argument("source", help="the insight merged away (archived, restorable)")
        parser.add_argument("target", help="the insight that stays")
        parser.add_argument("--claim", help="new claim for the merged insight")
        parser.add_argument("--force", action="store_true", help="allow merging insights of different types")
    elif name == "retrieve":
        parser.add_argument("query_pos", nargs="?", metavar="QUERY", help="the query (or --query)")
        parser.add_argument("--query", default=None)
        parser.add_argument("--budget", type=int, default=2000, help="token budget (default 2000)")
        parser.add_argument("--max-results", type=int, default=15, help="at most this many insights (default 15)")
        parser.add_argument("--include-context", action="store_true", help="append each insight's context")
        parser.add_argument("--decay", action=argparse.BooleanOptionalAction, default=None,
                            help="decay scores by provenance age (default [personality] decay)")
        _add_format(parser, ("compact", "full", "json", "human"), "compact")
        return
    elif name == "render":
        parser.add_argument("workspace_pos", nargs="?", metavar="WORKSPACE", help="workspace directory")
        parser.add_argument("--budget", type=int, default=None, help="token budget (default [personality] budget, 2000)")
        parser.add_argument("--query", default="", help="render for this query (default: none, general context)")
        parser.add_argument("--output", "-o", help="write here instead of PERSONALITY.md")
        parser.add_argument("--stdout", action="store_true", help="print the rendered text instead of writing it")
        parser.add_argument("--check", action="store_true", help="exit 1 if the file on disk is out of date")
        parser.add_argument("--decay", action=argparse.BooleanOptionalAction, default=None)
    elif name == "export":
        parser.add_argument("--archived", action="store_true", help="include archived insights (with archivedAt)")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")
        return
    elif name == "import":
        parser.add_argument("file", help="Chitin export JSON ('-' for stdin), or Chitin's SQLite database "
                            "(~/.config/chitin/insights.db)")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--merge", action="store_true", help="skip insights already present (same id or claim)")
        mode.add_argument("--replace", action="store_true", help="overwrite insights with the same id")
        parser.add_argument("--dry-run", action="store_true", help="validate and report; write nothing")
    elif name == "embed":
        parser.add_argument("--batch", type=int, default=64, help="texts per call of the embedder (default 64)")
    elif name == "reflect":
        parser.add_argument("--clear", action="store_true", help="clear pending reflections after review")
        parser.add_argument("--pending-path", help="queue file (default .cuticle/personality/pending-reflection.json)")
        parser.add_argument("--queue", metavar="REASON", help="add a marker (e.g. new, reset) instead of reading")
        parser.add_argument("--session-key", help="session key for --queue")
    _add_format(parser)


def _add_session(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--session", help="session id: reinforce at most once per session (default $CUTICLE_SESSION_ID, "
        "else the workspace session counter)"
    )


# -- output helpers -------------------------------------------------------------------------------------------
def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def _pct(x: float) -> str:
    return f"{round(x * 100):d}%"


def _conf(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".") if x not in (0.0, 1.0) else f"{x:.1f}"


def _show(ins: Any) -> None:
    flag = " (archived)" if ins.archived else ""
    _out(f"[{ins.type.value}] {ins.claim}{flag}")
    _out(f"  id: {ins.id}")
    if ins.condition:
        _out(f"  condition: {ins.condition}")
        _out(f"  response: {'avoid' if ins.avoid else 'do'}")
    _out(f"  confidence: {_conf(ins.confidence)}  reinforced: {ins.reinforcement_count}×")
    if ins.tags:
        _out(f"  tags: {', '.join(ins.tags)}")
    for label in ("provenance", "source", "reasoning", "context", "limitations"):
        value = getattr(ins, label)
        if value:
            _out(f"  {label}: {getattr(value, 'value', value)}")
    if ins.created_at:
        _out(f"  created: {ins.created_at}  updated: {ins.updated_at}")
    if ins.archived:
        _out(f"  archived: {ins.archived_at}" + (f" (merged into {ins.merged_into})" if ins.merged_into else ""))


def _print_conflicts(conflicts) -> None:
    _out(f"⚠ {len(conflicts)} potential conflict(s) detected:")
    _out()
    for c in conflicts:
        _out(f"  [{c.insight.type.value}] \"{c.insight.claim}\"")
        kind = f"tension: {c.reason}" if c.tension > 0 else c.reason
        _out(f"    conflict: {_pct(c.score)} | {kind}")
        _out(f"    id: {c.insight.id}")
        _out()


# -- injection shield ------------------------------------------------------------------------------------------
_TEXT_FIELDS = ("claim", "condition", "context", "reasoning", "limitations", "source")


def _screen(ws, records: list[tuple[str, dict]]) -> list[str]:
    """Security findings (secrets, memory poisoning, invisible/bidi controls) in text about to enter the
    insights file, and so every future PERSONALITY.md. ``records`` are (label, fields) pairs. The rule engine
    lives in ``rules`` (which personality may not import), so the CLI runs it; missing engine = no screen."""
    try:
        from rules.engine import scan_new_lines
    except ImportError:
        return []
    lines: list[str] = []
    where: list[str] = []
    for label, fields in records:
        for key in _TEXT_FIELDS:
            value = fields.get(key)
            if isinstance(value, str) and value:
                for part in value.splitlines() or [value]:
                    lines.append(part)
                    where.append(f"{label}{key}")
        for tag in fields.get("tags") or ():
            if isinstance(tag, str):
                lines.append(tag)
                where.append(f"{label}tags")
    if not lines:
        return []
    out = []
    for f in scan_new_lines(ws, "INSIGHTS.md", lines):
        msg = f.message.split(": ", 1)[1] if f.message.startswith("INSIGHTS.md:") else f.message
        origin = where[f.line - 1] if f.line and 0 < f.line <= len(where) else "text"
        out.append(f"{origin}: {f.code} {msg}")
    return out


def _refuse(args, findings: list[str]) -> int:
    if args.format == "json":
        print_json({"action": "refused", "findings": findings})
    else:
        _out("✗ Refused: this text would be injected into every session's context:")
        for f in findings:
            _out(f"  {f}")
        _out("  Remove the secret or instruction-like text and try again.")
    return 1


# -- commands -------------------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    handler = _HANDLERS[args.command]
    if args.command == "render":
        ws = open_workspace(args, args.workspace_pos)
    else:
        ws = open_workspace(args)
    return handler(ws, args)


def _contribute(ws, args) -> int:
    import json

    from personality import ops
    from personality.model import parse_tags_arg
    from tiers.errors import UsageError

    if args.stdin:
        try:
            data = json.loads(sys.stdin.read())
        except json.JSONDecodeError as exc:
            raise UsageError(f"<stdin>:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise UsageError("<stdin>: expected one JSON object (Chitin's ContributeInput)")
        fields = {k: data.get(k) for k in ("type", "claim", "confidence", "reasoning", "context", "limitations",
                                           "source", "provenance", "condition")}
        fields["tags"] = data.get("tags") or []
        fields["avoid"] = bool(data.get("avoid", False))
    else:
        missing = [o for o, v in (("--type", args.type), ("--claim", args.claim), ("--confidence", args.confidence))
                   if v is None]
        if missing:
            raise UsageError(f"contribute needs {', '.join(missing)} (or --stdin with a JSON object)")
        fields = {
            "type": args.type, "claim": args.claim, "confidence": args.confidence,
            "tags": parse_tags_arg(args.tags) if args.tags else (),
            "reasoning": args.reasoning, "context": args.context, "limitations": args.limitations,
            "source": args.source, "provenance": args.provenance, "condition": args.condition, "avoid": args.avoid,
        }
    new = ops.draft(**fields)
    findings = _screen(ws, [("", fields)])
    if findings:
        return _refuse(args, findings)
    result = ops.contribute(
        ws, new, force=args.force, threshold=args.threshold, shield=not args.no_shield, session=args.session
    )
    if args.format == "json":
        print_json(result.to_json())
        return 1 if result.action == "blocked" else 0
    ins = result.insight
    if result.action == "blocked":
        _print_conflicts(result.conflicts)
        _out("✗ Not added: it contradicts the insight(s) above.")
        _out("  Resolve with `cuticle merge`, `cuticle update` or `cuticle archive`, or add anyway with --force.")
        return 1
    if result.action in ("reinforced", "duplicate"):
        sim = _pct(result.similarity or 0)
        if result.action == "reinforced":
            _out(f"✓ Near-duplicate of {ins.id} (similarity {sim}): reinforced it instead "
                 f"(confidence {_conf(ins.confidence)}, {ins.reinforcement_count}×)")
        else:
            _out(f"= Near-duplicate of {ins.id} (similarity {sim}), already reinforced this session: nothing changed")
        return 0
    if result.conflicts:
        _print_conflicts(result.conflicts)
    _out(f"✓ Contributed {ins.type.value} insight: {ins.id}")
    return 0


def _get(ws, args) -> int:
    from personality import ops, store

    ins = ops.resolve(store.load(ws), args.id)
    if args.format == "json":
        print_json(ins.to_json(), pretty=True)
    else:
        _show(ins)
    return 0


def _update(ws, args) -> int:
    from personality import ops
    from personality.model import parse_tags_arg

    changes: dict[str, Any] = {}
    for key in ("type", "claim", "confidence", "reasoning", "context", "limitations", "source", "provenance",
                "condition", "avoid"):
        value = getattr(args, key)
        if value is not None:
            changes[key] = value
    if args.tags is not None:
        changes["tags"] = parse_tags_arg(args.tags)
    findings = _screen(ws, [("", changes)])
    if findings:
        return _refuse(args, findings)
    ins = ops.update(ws, args.id, changes)
    if args.format == "json":
        print_json(ins.to_json(), pretty=True)
    else:
        _out(f"✓ Updated insight: {ins.id}")
    return 0


def _reinforce(ws, args) -> int:
    from personality import ops

    result = ops.reinforce(ws, args.id, session=args.session)
    if args.format == "json":
        out = result.to_json()
        if args.source or args.evidence:
            out["source"] = args.source
            out["evidence"] = args.evidence
        print_json(out, pretty=True)
        return 0
    ins = result.insight
    if result.reinforced:
        _out(f"✓ Reinforced: {ins.id} (confidence {_conf(result.before)} → {_conf(ins.confidence)}, "
             f"{ins.reinforcement_count}×)")
    else:
        _out(f"= Already reinforced in this session ({result.session}): {ins.id} unchanged")
    return 0


def _archive(ws, args) -> int:
    from personality import ops

    ins = (ops.archive if args.command == "archive" else ops.restore)(ws, args.id)
    if args.format == "json":
        print_json(ins.to_json(), pretty=True)
    elif args.command == "archive":
        _out(f"✓ Archived insight: {ins.id} (restore with `cuticle restore {ins.id}`)")
    else:
        _out(f"✓ Restored insight: {ins.id}")
    return 0


def _list(ws, args) -> int:
    from personality import ops, store

    archived = "only" if args.archived else "all" if args.all else "active"
    items = ops.select(store.load(ws), types=args.type, tags=args.tag, min_confidence=args.min_confidence,
                       provenance=args.provenance, archived=archived)
    if args.limit is not None:
        items = items[: max(args.limit, 0)]
    if args.format == "json":
        print_json([i.to_json() for i in items], pretty=True)
        return 0
    if not items:
        _out("No insights found.")
        return 0
    from personality.render import insight_line

    for ins in items:
        flag = " (archived)" if ins.archived else ""
        _out(f"[{ins.type.value}] {insight_line(ins)[2:]}{flag}")
        _out(f"  id: {ins.id} | confidence: {_conf(ins.confidence)} | reinforced: {ins.reinforcement_count}×"
             + (f" | tags: {', '.join(ins.tags)}" if ins.tags else ""))
    return 0


def _stats(ws, args) -> int:
    from personality import ops, store

    s = ops.stats(store.load(ws))
    if args.format == "json":
        print_json(s, pretty=True)
        return 0
    _out(f"Total insights: {s['total']}" + (f" ({s['archived']} archived)" if s["archived"] else ""))
    for name, n in s["byType"].items():
        if n:
            _out(f"  {name}: {n}")
    _out(f"Average confidence: {s['averageConfidence']:.2f}")
    return 0


def _similar(ws, args) -> int:
    from personality import store
    from personality.similarity import find_similar

    hits = find_similar(store.load(ws).insights, args.claim, args.threshold)
    if args.format == "json":
        print_json([h.to_json() for h in hits], pretty=True)
        return 0
    if not hits:
        _out("No similar insights found.")
        return 0
    _out(f"Found {len(hits)} similar insight(s):")
    for h in hits:
        _out(f"  [{_pct(h.similarity)}] [{h.insight.type.value}] {h.insight.claim}")
        _out(f"    id: {h.insight.id}")
    return 0


def _merge(ws, args) -> int:
    from personality import ops

    target, source = ops.merge(ws, args.source, args.target, claim=args.claim, force=args.force)
    if args.format == "json":
        print_json({"target": target.to_json(), "source": source.to_json()}, pretty=True)
    else:
        _out(f"✓ Merged {source.id} into {target.id} (source archived; `cuticle restore {source.id}` undoes it)")
    return 0


def _retrieve(ws, args) -> int:
    from personality import store
    from personality.api import retrieve_workspace
    from personality.render import estimate_tokens, marshal
    from tiers.errors import UsageError

    if args.budget < 1 or args.max_results < 0:
        raise UsageError("--budget must be at least 1 and --max-results not negative")
    query = args.query if args.query is not None else (args.query_pos or "")
    doc = store.load(ws)
    if not doc.active():
        if args.format == "json":
            print_json({"category": "general", "insights": [], "context": "", "tokenEstimate": 0})
        else:
            _out("No insights stored yet. Use `cuticle contribute` to add some.")
        return 0
    result = retrieve_workspace(ws, query, max_results=args.max_results or None, decay=args.decay, doc=doc)
    fmt = "full" if args.format == "full" else "compact"
    rendered = marshal(result.items, args.budget, header=None, fmt=fmt,
                       include_context=args.include_context or fmt == "full")
    if args.format == "json":
        included = set(rendered.included)
        items = [dict(s.to_json(), included=s.insight.id in included) for s in result.items]
        print_json({"category": result.category, "insights": items, "context": rendered.text,
                    "tokenEstimate": estimate_tokens(rendered.text)}, pretty=True)
        return 0
    if args.format == "human":
        _out(f"Context: {result.category} ({len(rendered.included)} of {len(result.items)} insight(s) fit "
             f"{args.budget} tokens)")
        _out()
    _out(rendered.text)
    return 0


def _render(ws, args) -> int:
    from personality.api import render_workspace
    from tiers.errors import UsageError

    if args.budget is not None and args.budget < 1:
        raise UsageError("--budget must be at least 1 token")
    from personality import store

    if not store.insights_path(ws).exists():
        name = store.insights_path(ws).name
        if args.format == "json":
            print_json({"path": None, "changed": False, "note": f"no {name}"})
        else:
            _out(f"No {name} in {ws.root.name}/: nothing to render. Add insights with `cuticle contribute`.")
        return 0
    result = render_workspace(ws, budget=args.budget, query=args.query, output=args.output,
                              write=not (args.stdout or args.check), decay=args.decay)
    r = result.rendered
    if args.stdout:
        sys.stdout.write(r.text)
        return 0
    if args.format == "json":
        print_json(dict(r.to_json(), path=str(result.path), changed=result.changed, category=result.retrieval.category))
    elif args.check:
        _out(f"{result.path.name} is {'out of date' if result.changed else 'up to date'}")
    else:
        verb = "Wrote" if result.changed else "Unchanged"
        _out(f"✓ {verb} {result.path.name}: {len(r.included)} insight(s), {r.tokens} tokens"
             + (f", {r.omitted} did not fit" if r.omitted else ""))
    return 1 if args.check and result.changed else 0


def _export(ws, args) -> int:
    from pathlib import Path

    from personality import ops, store
    from tiers.fsutil import atomic_write

    text = ops.export_json(store.load(ws), include_archived=args.archived)
    if args.output:
        atomic_write(Path(args.output), text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return 0


def _import(ws, args) -> int:
    import json
    from pathlib import Path

    from personality import ops
    from tiers.errors import UsageError

    from personality.chitin import is_sqlite, load_records, read_database

    if args.file == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        path = Path(args.file)
        try:
            raw = path.read_bytes()
            # Chitin's own store: its SQLite database, read directly (the same records `chitin export` prints)
            text = json.dumps(read_database(path)) if is_sqlite(raw) else raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{args.file}: cannot read ({exc})") from None
        name = path.name

    from ._common import progress

    with progress(f"importing {name}") as bar:
        records = load_records(text, name)
        bar.update(f"screening {len(records)} record(s) of {name}")
        findings = _screen(ws, [(f"{name}: item {n}: ", r) for n, r in enumerate(records, 1)
                                if isinstance(r, dict)])
        result = None
        if not findings:
            bar.update(f"importing {len(records)} record(s) of {name}")
            result = ops.import_json(ws, text, name, merge=args.merge, replace=args.replace, dry_run=args.dry_run)
    if findings:
        return _refuse(args, findings)
    if args.format == "json":
        print_json(result.to_json())
        return 0
    msg = f"✓ {'Would import' if args.dry_run else 'Imported'} {len(result.imported)} insight(s)"
    if result.skipped:
        msg += f", skipped {len(result.skipped)} duplicate(s)"
    if result.replaced:
        msg += f", replaced {len(result.replaced)}"
    _out(msg)
    return 0


def _reflect(ws, args) -> int:
    from pathlib import Path

    from personality import ops, reflect, store

    path = Path(args.pending_path) if args.pending_path else None
    if args.queue:
        marker = reflect.queue_reflection(ws, args.session_key, args.queue, path=path)
        if args.format == "json":
            print_json(marker)
        else:
            _out(f"✓ Queued reflection for {marker['sessionKey']} ({marker['reason']})")
        return 0
    items = reflect.pending(ws, path=path)
    s = ops.stats(store.load(ws))
    if args.clear:
        reflect.clear(ws, path=path)
    if args.format == "json":
        print_json({"pending": items, "stats": s, "cleared": bool(args.clear)}, pretty=True)
        return 0
    if items:
        _out(f"{len(items)} pending reflection(s):")
        for m in items:
            _out(f"  • {m.get('sessionKey', 'unknown')} ({m.get('reason', '?')}) — {m.get('timestamp', '?')}")
    else:
        _out("No pending reflections.")
    _out(f"Current state: {s['total']} insight(s), avg confidence {s['averageConfidence']:.2f}")
    if args.clear and items:
        _out("✓ Cleared pending reflections.")
    return 0


def _embed(ws, args) -> int:
    from personality import embeddings
    from tiers.errors import UsageError

    if args.command == "embed-status":
        st = embeddings.status(ws)
        if args.format == "json":
            print_json(st.to_json(), pretty=True)
        else:
            _out(f"Embedder: {st.embedder} ({st.note})")
            if st.embedder == "plugin":
                _out(f"Stored vectors: {st.stored} of {st.insights} insight(s)"
                     + (f", {st.dimensions} dimensions" if st.dimensions else "")
                     + ("" if st.stored == st.insights else "; run `cuticle embed` for the rest"))
        return 0 if st.available else 1
    if args.batch < 1:
        raise UsageError("--batch must be at least 1")
    rep = embeddings.embed_all(ws, batch=args.batch)
    if args.format == "json":
        print_json(rep.to_json(), pretty=True)
    elif rep.embedder == "hashed":
        _out("✓ The built-in hashed embedder needs no stored vectors (computed on the fly)")
    else:
        _out(f"✓ Embedded {rep.embedded} insight(s); {rep.stored} already stored"
             + (f" ({rep.dimensions} dimensions)" if rep.dimensions else ""))
    return 0


_HANDLERS = {
    "contribute": _contribute,
    "get": _get,
    "update": _update,
    "reinforce": _reinforce,
    "archive": _archive,
    "restore": _archive,
    "list": _list,
    "stats": _stats,
    "similar": _similar,
    "merge": _merge,
    "retrieve": _retrieve,
    "render": _render,
    "export": _export,
    "import": _import,
    "reflect": _reflect,
    "embed": _embed,
    "embed-status": _embed,
}
