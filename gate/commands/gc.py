"""`cuticle gc` (collect expired hypotheses and decisions and superseded lines, restore archived ones) and
`cuticle session`.

Exit codes: 0 success, 1 a memory file left uncollected (a second hard link, a host writing it: one line per file
on stderr, ``errors`` in the JSON report; its lines stay as they were), 2 usage or configuration error (e.g. an
unknown archive id).
"""

from __future__ import annotations

import argparse
import sys

from gate.commands._common import add_json, add_workspace, open_workspace, print_json


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    add_workspace(parser)
    add_json(parser)
    if name == "gc":
        parser.add_argument("root", nargs="?", metavar="WORKSPACE", default=None,
                            help="workspace directory (same as --workspace)")
        parser.add_argument("--dry-run", "-n", action="store_true", help="show what would be removed, change nothing")
        parser.add_argument("--restore", metavar="ID", default=None, help="put an archived line back")
        parser.add_argument("--archive", action="store_true", help="list the archived (restorable) lines")
    else:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--start", metavar="ID", default=None, help="record that host session ID started")
        group.add_argument("--end", metavar="ID", default=None, help="record that host session ID ended")


def run(args: argparse.Namespace) -> int:
    if args.command == "session":
        return _session(args)
    return _gc(args)


def _gc(args: argparse.Namespace) -> int:
    from tiers import gc

    ws = open_workspace(args, getattr(args, "root", None))
    if args.restore:
        rec = gc.restore(ws, args.restore)
        if args.json:
            print_json({"restored": rec["id"], "file": rec["file"], "text": rec["restored_text"],
                        "already_present": rec["already_present"]})
        elif rec["already_present"]:
            print(f"{rec['file']}: line {rec['id']} is already present; archive entry marked restored")
        else:
            print(f"{rec['file']}: restored {rec['id']}: {rec['restored_text']}")
        return 0
    if args.archive:
        recs = gc.archive_records(ws)
        if args.json:
            print_json({"archive": recs})
        else:
            for r in recs:
                print(f"{r['id']}  {r['file']}:{r['line']}  [{r['reason']}]  {r['text']}")
        return 0
    from ._common import progress

    import logging

    # the files GC left are reported below, once each; its log warning would say the same on stderr again
    logging.getLogger(gc.__name__).addHandler(logging.NullHandler())
    with progress("collecting expired and superseded lines"):
        report = gc.collect(ws, dry_run=args.dry_run)
    if args.json:
        print_json(report.to_json())
    else:
        verb = "would remove" if args.dry_run else "removed"
        for r in report.removed:
            print(f"{r.file}:{r.line}: {verb} {r.tier} {r.id} ({r.reason}): {r.text}")
        from . import _common

        if not _common.QUIET:
            print(f"session {report.session}: {verb} {len(report.removed)} line(s) from {len(report.files)} file(s)"
                  + ("" if args.dry_run or not report.removed else "; `cuticle gc --restore ID` puts one back"))
    for e in report.errors:  # one line each, as `lint --fix` says why it left a file; results stay on stdout
        sys.stderr.write(f"cuticle gc: {e}; not collected\n")
    return 1 if report.errors else 0


def _session(args: argparse.Namespace) -> int:
    from tiers import session

    ws = open_workspace(args)
    if args.start:
        number = session.start_session(ws, args.start)
        out = {"session": number, "counter": session.current_session(ws), "event": "start", "id": args.start}
    elif args.end:
        counter = session.end_session(ws, args.end)
        out = {"counter": counter, "event": "end", "id": args.end}
    else:
        out = {"counter": session.current_session(ws)}
    if args.json:
        print_json(out)
    else:
        print(" ".join(f"{k}={v}" for k, v in out.items()))
    return 0
