"""`cuticle init <host> [WORKSPACE]`: set up `.cuticle/` and install the hook into the host's configuration."""

from __future__ import annotations

import argparse
import shlex

def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_json
    from gate.hosts import HOSTS

    parser.add_argument("host", choices=HOSTS, help="the agent host to install the hook into")
    parser.add_argument("workspace", nargs="?", default=None, help="workspace directory (default: current directory)")
    parser.add_argument("--command", dest="base_command", default=None,
                        help="command hosts run for cuticle (default: this environment's Python by absolute path, "
                             "-I -S, running gate/cuticle_hook.py: the host finds it without this environment's PATH, "
                             "and it starts faster than the console script)")
    parser.add_argument("--host-config", default=None,
                        help="host configuration file to edit (default: the host's project file; OpenClaw: "
                             "~/.openclaw/openclaw.json)")
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from gate.commands._common import print_json
    from gate.install import init

    root = Path(args.workspace or os.getcwd())
    rep = init(args.host, root, command=args.base_command, host_config=args.host_config)
    if args.json:
        print_json(rep.to_json())
        return 0
    print(f"cuticle init {args.host}: workspace {rep.workspace}")
    for a in rep.actions:
        print(f"  - {a}")
    print(f"  hook command: {rep.command} hook {args.host} <event>")
    for step in rep.next_steps:
        print(f"  next: {step}")
    print(f"  check it: {rep.command} doctor {shlex.quote(rep.workspace)}")
    return 0
