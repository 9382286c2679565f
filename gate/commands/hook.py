"""`cuticle hook <host> [event]`: answer one host hook call read from stdin (thin; logic in gate.handler).

The answer always comes within ``BUDGET`` seconds, a second below the smallest timeout `cuticle init` installs
(Codex's `SessionEnd`, 3 s): a call whose full check has not finished by then gets the cheaper, path-level answer of ``_late_answer``
(logged as ``"decision": "late"``) instead of being killed by the host half-way.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs start-up time on the hook path
if TYPE_CHECKING:
    import argparse

#: seconds within which every hook call answers (the smallest installed host timeout is 3 s; a test checks it)
BUDGET = 2.0
#: of the budget, how long a running `cuticle serve` may take before the call is answered in-process
FORWARD_SHARE = 0.5


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
    import time

    start = time.monotonic()
    data = read_stdin()
    got = None
    if not args.no_server:
        from gate.client import forward

        got = forward(args.host, args.event, data, timeout=BUDGET * FORWARD_SHARE)
    if got is None:
        got = _in_process(args.host, args.event, data, start + BUDGET)
    stdout, stderr, code = got
    emit(stdout, stderr)
    return code


def read_stdin() -> bytes:
    """Stdin as bytes, at most one byte over the intake's limit (that is enough to refuse it; an endless stdin
    must not fill memory); a closed or unreadable stdin is an empty payload (the handler says what it means)."""
    from gate.intake import MAX_PAYLOAD

    try:
        return sys.stdin.buffer.read(MAX_PAYLOAD + 1)
    except (OSError, ValueError, AttributeError):
        return b""


def emit(stdout: str, stderr: str) -> None:
    """Write the answer as UTF-8 whatever it holds (a lone surrogate from a file on disk must not crash it)."""
    from gate.intake import wire

    for stream, text in ((sys.stdout, stdout), (sys.stderr, stderr)):
        if not text:
            continue
        data = wire(text)
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            buffer.write(data)
        else:  # a text stream without bytes underneath (a caller capturing output in Python)
            stream.write(data.decode("utf-8"))
        stream.flush()


def _in_process(host: str, event: str | None, data: bytes, deadline: float) -> tuple[str, str, int]:
    import gc
    import threading
    import time

    from gate.cli import load_site

    load_site()  # the installed command starts without site-packages (gate/cuticle_hook.py)
    from gate import handler

    done = threading.Event()
    out: list[tuple[str, str, int]] = []

    def work() -> None:
        # One short-lived call: the cyclic garbage collector would only re-scan the hundreds of thousands of objects
        # the imports and lexicons create (a fifth of a cold hook's time); reference counting still frees memory.
        gc.disable()
        try:
            reply = handler.handle(host, event, data)
            out.append((reply.stdout, reply.stderr, reply.exit_code))
        finally:
            done.set()

    enabled = gc.isenabled()
    worker = threading.Thread(target=work, name="cuticle-hook", daemon=True)
    worker.start()
    finished = done.wait(max(0.0, deadline - time.monotonic()))
    if enabled:
        gc.enable()
    if finished and out:
        return out[0]
    if finished:  # the handler never raises; a crash of the thread itself is a genuine bug: fail open, loudly
        from gate import answer

        r = answer.noop(host, event or "", diagnostic="cuticle: internal error in the hook; letting the call proceed")
        return r.stdout, r.stderr, r.exit_code
    reply = handler.late_answer(host, event, data, BUDGET)
    return reply.stdout, reply.stderr, reply.exit_code
