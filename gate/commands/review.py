"""`cuticle review`: go through blocked, archived, unverified and expiring lines, one at a time or by id.

Without an action option on a terminal, each item is shown with its choices; elsewhere (or with --list) the open
items are listed. `--restore/--keep/--confirm/--dismiss ID` act without asking (repeatable).

Exit codes: 0 done, 1 an action was refused (security scan, a line that moved), 2 usage error (unknown id, an
action the item does not take).
"""

from __future__ import annotations

import argparse
import sys

_KEYS = {"r": "restore", "k": "keep", "c": "confirm", "d": "dismiss"}
_LABELS = {"restore": "[r]estore", "keep": "[k]eep as hypothesis", "confirm": "[c]onfirm as mine",
           "dismiss": "[d]ismiss"}


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_json, add_workspace
    from gate.review import ACTIONS, KINDS

    add_workspace(parser)
    add_json(parser)
    for action in ACTIONS:
        parser.add_argument(f"--{action}", action="append", default=[], metavar="ID",
                            help=f"{action} review item ID without asking (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the open items instead of asking")
    parser.add_argument("--kind", action="append", choices=KINDS, default=None,
                        help="only items of this kind (repeatable)")
    parser.add_argument("--all", action="store_true", help="with --list/--json: include items already reviewed")


def run(args: argparse.Namespace) -> int:
    from gate.commands._common import open_workspace, print_json
    from gate.review import ACTIONS, KINDS, apply, items

    ws = open_workspace(args)
    todo = [(a, i) for a in ACTIONS for i in getattr(args, a)]
    if todo:
        outcomes, code = [], 0
        from gate.review import ReviewRefused

        for action, ident in todo:
            try:
                outcomes.append(apply(ws, ident, action))
            except ReviewRefused as exc:
                print(f"cuticle: {exc}", file=sys.stderr)
                code = 1
        if args.json:
            print_json({"done": [o.to_json() for o in outcomes]})
        else:
            for o in outcomes:
                print(f"{o.id}: {o.action}: {o.note}" + (f"\n  {o.text}" if o.text else ""))
        return code
    found = items(ws, kinds=tuple(args.kind or KINDS), include_done=args.all)
    if args.json:
        print_json({"items": [i.to_json() for i in found]})
        return 0
    if args.list or not (sys.stdin.isatty() and sys.stdout.isatty()):
        if not found:
            print("Nothing to review.")
        for i in found:
            where = f"{i.file}:{i.line}" if i.line else i.file
            print(f"{i.id}  {i.kind:<10}  {where}  {i.tier}  {i.text or '(no text)'}")
            print(f"    {i.why}")
        return 0
    return _interactive(ws, found)


def _interactive(ws, found) -> int:
    from gate.review import apply, items
    from tiers.errors import UsageError

    if not found:
        print("Nothing to review.")
        return 0
    done = 0
    open_ids = None  # re-read after a change: confirming one line can settle another (the constraint it amends)
    for n, item in enumerate(found, 1):
        if open_ids is not None and item.id not in open_ids:
            continue
        where = f"{item.file}:{item.line}" if item.line else item.file
        print(f"\n[{n}/{len(found)}] {item.kind}  {where}  {item.tier}  ({item.id})")
        print(f"  {item.text or '(no text recorded)'}")
        print(f"  why: {item.why}")
        keys = {k: a for k, a in _KEYS.items() if a in item.actions}
        menu = "  ".join(_LABELS[a] for a in item.actions) + "  [s]kip  [q]uit"
        while True:
            try:
                answer = input(f"  {menu}\n> ").strip().lower()
            except EOFError:
                print()
                answer = "q"
            if answer in ("q", "quit"):
                print(f"Reviewed {done} of {len(found)}.")
                return 0
            if answer in ("s", "skip", ""):
                break
            action = keys.get(answer[:1]) if answer else None
            if action is None:
                print(f"  '{answer}' is not one of the choices")
                continue
            try:
                out = apply(ws, item.id, action)
            except UsageError as exc:  # refused (exit 1 by flag) or gone since it was listed
                print(f"  refused: {exc}")
                break
            print(f"  ✓ {out.note}")
            done += 1
            open_ids = {i.id for i in items(ws)}
            break
    print(f"\nReviewed {done} of {len(found)}.")
    return 0
