"""`cuticle hook <host> [event]`: answer one host hook call read from stdin (thin; logic in gate.handler)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs start-up time on the hook path
if TYPE_CHECKING:
    import argparse


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    parser.description = (
        "Read one hook payload (JSON) on stdin and answer in the host's dialect. Fails open on its own errors."
    )
    parser.add_argument("host", help="openclaw, claude, codex, gemini, copilot, cursor (or auto)")
    parser.add_argument("event", nargs="?", default=None,
                        help="the host's event name, used when the payload does not name it (e.g. Copilot)")
    parser.add_argument("--no-server", action="store_true",
                        help="answer in-process even if a `cuticle serve` is running for the workspace")


def run(args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read()
    got = None
    if not args.no_server:
        from gate.client import forward

        got = forward(args.host, args.event, data)
    if got is None:
        import gc

        # One short-lived call: the cyclic garbage collector would only re-scan the hundreds of thousands of objects
        # the imports and lexicons create (a fifth of a cold hook's time); reference counting still frees memory.
        enabled = gc.isenabled()
        gc.disable()
        try:
            from gate.handler import handle

            reply = handle(args.host, args.event, data)
        finally:
            if enabled:
                gc.enable()
        got = (reply.stdout, reply.stderr, reply.exit_code)
    stdout, stderr, code = got
    if stdout:
        sys.stdout.write(stdout)
        sys.stdout.flush()
    if stderr:
        sys.stderr.write(stderr)
    return code
