"""`cuticle classify` (tiers of texts, of a file, of a whole workspace) and `cuticle stamp` (show/verify stamps).

Both only read: classifying a workspace never creates `.cuticle/`, and `stamp` verifies against the workspace key
only when one exists (a workspace without a key cannot hold a valid stamp).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gate.commands._common import add_json, add_workspace, open_workspace, print_json


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    add_workspace(parser)
    add_json(parser)
    if name == "classify":
        parser.add_argument("texts", nargs="*", metavar="TEXT",
                            help="memory lines to classify ('-' reads one line per line of stdin); "
                                 "without TEXT, every memory line of the workspace")
        parser.add_argument("--file", "-f", action="append", metavar="PATH", default=[],
                            help="classify the memory lines of this file (repeatable)")
        parser.add_argument("--session", metavar="ID", default=None,
                            help="also use the user's prompt recorded for this session, as the gate does (a line "
                                 "that is the user's own words of the turn is a verified DIRECTIVE or DECISION)")
    else:
        parser.add_argument("--check", action="store_true",
                            help="print only stamps that fail verification (exit 1 if any)")
        parser.add_argument("--file", "-f", action="append", metavar="PATH", default=[],
                            help="only this memory file (repeatable; default: every memory file)")


def run(args: argparse.Namespace) -> int:
    if args.command == "stamp":
        return _run_stamp(args)
    return _run_classify(args)


# -- classify -----------------------------------------------------------------------------------------------------
def _run_classify(args: argparse.Namespace) -> int:
    from tiers.errors import CuticleError, UsageError

    classify = _classifier(args)
    texts = list(args.texts)
    if texts and args.file:
        raise UsageError("give either TEXT arguments or --file, not both")
    if texts:
        if texts == ["-"]:
            texts = [t.rstrip("\r\n") for t in sys.stdin]
        results = [(None, None, t, classify(t)) for t in texts]
        _emit(args, results, show_location=False)
        return 0
    if args.file:
        results = []
        for path in args.file:
            results += _classify_file(Path(path), _display(Path(path)), classify)
        _emit(args, results, show_location=True)
        return 0
    ws = open_workspace(args)
    results = []
    skipped = 0
    for path in ws.memory_files():
        try:
            results += _classify_file(path, ws.relpath(path), classify)
        except CuticleError as exc:  # one unreadable file (too large, binary) must not hide the others
            print(f"{ws.relpath(path)}: not classified: {_reason(exc, path)}", file=sys.stderr)
            skipped += 1
    if not results and not skipped and not args.json:
        print(f"no memory lines in {ws.root.name}/ (memory files: {', '.join(ws.memory_globs)})", file=sys.stderr)
    _emit(args, results, show_location=True)
    return 2 if skipped else 0


def _reason(exc: Exception, path: Path) -> str:
    """The error's message without the path it starts with (the caller names the file once)."""
    text = str(exc)
    for prefix in (f"{path}: ", f"{path.resolve()}: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _read(path: Path) -> bytes:
    from tiers.errors import UsageError
    from tiers.fsutil import read_bytes_checked

    if not path.exists():
        raise UsageError(f"{path}: no such file")
    if path.is_dir():
        raise UsageError(f"{path}: is a directory; use --workspace for a directory")
    return read_bytes_checked(path)


def _classifier(args: argparse.Namespace):
    """``classify``, or with ``--session`` the gate's own ``classify_with_provenance`` for that session's prompt:
    the same line and prompt get the same tier here as in the gate."""
    from tiers.classify import classify

    session = getattr(args, "session", None)
    if not session:
        return classify
    from tiers.provenance import classify_with_provenance

    ws = open_workspace(args)
    return lambda text: classify_with_provenance(ws, session, text)


def _classify_file(path: Path, shown: str, classify) -> list:
    from tiers.markdown import parse_document

    doc = parse_document(_read(path))
    return [(shown, line.number, line.text, classify(line.text)) for line in doc.memory_lines()]


def _emit(args: argparse.Namespace, results: list, *, show_location: bool) -> None:
    if args.json:
        for file, number, text, c in results:
            obj = c.to_json()
            if show_location:
                obj = {"file": file, "line": number, **obj, "text": text}
            sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        return
    if not results:
        return
    width = max(len(f"{f}:{n}") for f, n, _, _ in results) if show_location else 0
    header = (f"{'LOCATION':<{width}}  " if show_location else "") + f"{'TIER':<11} {'CONF':>4}  SCOPE / TEXT"
    print(header)
    for file, number, text, c in results:
        loc = f"{f'{file}:{number}':<{width}}  " if show_location else ""
        shown = " ".join(text.split())
        if len(shown) > 90:
            shown = shown[:87] + "..."
        scope = f"[{c.scope}] " if c.scope else ""
        print(f"{loc}{c.tier.name:<11} {c.confidence:>4.2f}  {scope}{shown}")
    from gate.commands import _common

    if show_location and not _common.QUIET:
        counts: dict[str, int] = {}
        for *_, c in results:
            counts[c.tier.name] = counts.get(c.tier.name, 0) + 1
        summary = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
        print(f"{len(results)} memory lines: {summary}")


# -- stamp --------------------------------------------------------------------------------------------------------
def _run_stamp(args: argparse.Namespace) -> int:
    from tiers.errors import CuticleError
    from tiers.markdown import parse_document
    from tiers.model import Tier
    from tiers.stamps import verify_stamp

    ws = open_workspace(args)
    key = ws.key if ws.state_path("key").is_file() else None
    if args.file:
        paths = [Path(p) if Path(p).is_absolute() else Path.cwd() / p for p in args.file]
    else:
        paths = list(ws.memory_files())
    records = []
    skipped = 0
    for path in paths:
        rel = ws.relpath(path)
        try:
            doc = parse_document(_read(path))
        except CuticleError as exc:  # report it and check the other files
            print(f"{rel}: stamps not checked: {_reason(exc, path)}", file=sys.stderr)
            skipped += 1
            continue
        for line in doc.lines:
            content, stamp, error = _split(line.text)
            if stamp is None and error is None:
                continue
            rec = {"file": rel, "line": line.number, "kind": line.kind}
            if error:
                rec.update(status="malformed", message=f"{rel}:{line.number}: {error}")
            else:
                rec["stamp"] = {"tier": stamp.tier.name, "id": stamp.id, "session": stamp.session,
                                "scope": stamp.scope, "expires": stamp.expires, "state": stamp.state}
                if key is None:
                    rec.update(status="unverifiable",
                               message=f"{rel}:{line.number}: stamp {stamp.id} cannot be verified: this workspace "
                                       "has no stamp key, so cuticle never stamped it (forged or copied)")
                elif verify_stamp(stamp, content, key):
                    rec.update(status="ok", message=f"{rel}:{line.number}: stamp {stamp.id} ok")
                else:
                    edited = next((t for t in Tier if t is not stamp.tier and verify_stamp(
                        _with_tier(stamp, t), content, key)), None)
                    if edited is not None:
                        rec.update(status="tampered",
                                   message=f"{rel}:{line.number}: stamp {stamp.id} was issued as {edited.name} but "
                                           f"now says {stamp.tier.name}; restore the tier or ask the user")
                    else:
                        rec.update(status="invalid",
                                   message=f"{rel}:{line.number}: stamp {stamp.id} does not match the line: the "
                                           "line or its stamp was edited, or the stamp was forged; remove the stamp "
                                           "so the line is classified again")
                if line.kind != "memory":
                    rec["message"] += f" (note: on a {line.kind} line, which is not memory)"
            records.append(rec)
    bad = [r for r in records if r["status"] != "ok"]
    shown = bad if args.check else records
    if args.json:
        for r in shown:
            print_json(r)
    else:
        for r in shown:
            s = r.get("stamp")
            detail = ""
            if s:
                detail = f"  {s['tier']} session {s['session']}"
                if s["scope"]:
                    detail += f" scope {s['scope']!r}"
                if s["expires"] is not None:
                    detail += f" expires after session {s['expires']}"
                if s["state"]:
                    detail += f" [{s['state']}]"
            print(f"{r['status']:<12} {r['message']}{detail if r['status'] == 'ok' else ''}")
        from gate.commands._common import note

        note(f"{len(records)} stamps, {len(records) - len(bad)} ok, {len(bad)} failing")
    return 2 if skipped else (1 if bad else 0)


def _split(text: str):
    from tiers.stamps import split_stamp

    return split_stamp(text)


def _with_tier(stamp, tier):
    from tiers.record import replace

    return replace(stamp, tier=tier)
