"""`cuticle init <host> [WORKSPACE]`: set up `.cuticle/` and install the hook into the host's configuration."""

from __future__ import annotations

import argparse
import sys

HOSTS = ("openclaw", "claude", "codex", "gemini", "copilot", "cursor")


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_json

    parser.add_argument("host", choices=HOSTS, help="the agent host to install the hook into")
    parser.add_argument("workspace", nargs="?", default=None, help="workspace directory (default: current directory)")
    parser.add_argument("--command", dest="base_command", default=None,
                        help="command hosts run for cuticle (default: `cuticle` if on PATH, else this Python -m gate)")
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
    if args.host == "openclaw":
        print("  next: `openclaw gateway restart`, then `openclaw plugins inspect cuticle --runtime --json`")
    print(f"  check it: cuticle doctor {rep.workspace}", file=sys.stdout)
    return 0
