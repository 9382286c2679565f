"""`cuticle uninstall <host> [WORKSPACE]`: remove what `cuticle init` added to the host's configuration.

Exit codes: 0 done (or nothing was installed), 2 usage or configuration error.
"""

from __future__ import annotations

import argparse

def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_json
    from gate.hosts import HOSTS

    parser.add_argument("host", choices=HOSTS, help="the agent host to take the hook out of")
    parser.add_argument("workspace", nargs="?", default=None, help="workspace directory (default: current directory)")
    parser.add_argument("--host-config", default=None,
                        help="host configuration file init edited (default: the one init recorded, else the "
                             "host's project file; OpenClaw: ~/.openclaw/openclaw.json)")
    parser.add_argument("--dry-run", "-n", action="store_true", help="say what would change, change nothing")
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from gate.commands._common import print_json
    from gate.uninstall import uninstall

    root = Path(args.workspace or os.getcwd())
    rep = uninstall(args.host, root, host_config=args.host_config, dry_run=args.dry_run)
    if args.json:
        print_json(rep.to_json())
        return 0
    print(f"cuticle uninstall {args.host}: workspace {rep.workspace}")
    for a in rep.actions:
        print(f"  - {a}")
    return 0
