"""`cuticle doctor [WORKSPACE]`: check the installation and run a canary write through the installed hook."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_json
    from gate.hosts import HOSTS

    parser.add_argument("workspace", nargs="?", default=None, help="workspace directory (default: nearest .cuticle/)")
    parser.add_argument("--host", default=None, choices=HOSTS,
                        help="check only this host (default: every host configured in the workspace)")
    parser.add_argument("--host-config", default=None, help="host configuration file (as given to init)")
    parser.add_argument("--no-canary", action="store_true", help="skip the canary writes")
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gate.commands._common import print_json
    from gate.doctor import doctor
    from tiers.workspace import find_workspace

    root = Path(args.workspace) if args.workspace else find_workspace()
    rep = doctor(root, args.host, host_config=args.host_config, canary=not args.no_canary)
    if args.json:
        print_json(rep.to_json())
    else:
        print(f"cuticle doctor: {rep.workspace}")
        for c in rep.checks:
            mark = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}[c.status]
            print(f"  [{mark}] {c.name}: {c.detail}")
        print("  all checks passed" if rep.ok else "  some checks failed (see FAIL lines)")
    return 0 if rep.ok else 1
