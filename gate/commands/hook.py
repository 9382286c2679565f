"""`cuticle hook <host> [event]`: answer one host hook call read from stdin (thin; logic in gate.handler)."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    parser.description = (
        "Read one hook payload (JSON) on stdin and answer in the host's dialect. Fails open on its own errors."
    )
    parser.add_argument("host", help="openclaw, claude, codex, gemini, copilot, cursor (or auto)")
    parser.add_argument("event", nargs="?", default=None,
                        help="the host's event name, used when the payload does not name it (e.g. Copilot)")


def run(args: argparse.Namespace) -> int:
    from gate.handler import handle

    data = sys.stdin.buffer.read()
    reply = handle(args.host, args.event, data)
    if reply.stdout:
        sys.stdout.write(reply.stdout)
        sys.stdout.flush()
    if reply.stderr:
        sys.stderr.write(reply.stderr)
    return reply.exit_code
