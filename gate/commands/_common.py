"""Helpers every subcommand shares: the --workspace option, JSON output, reading text arguments, and the terminal
niceties (colour, a progress line) that appear only when a person is watching."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TextIO

#: set from ``--quiet`` by gate.cli before a command runs: results only, no summaries, hints or progress
QUIET = False
#: seconds of work before the progress line appears (short commands never show one)
PROGRESS_DELAY = 1.0


def add_workspace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workspace",
        "-w",
        metavar="DIR",
        default=None,
        help="workspace directory (default: nearest directory holding .cuticle/ above the current one)",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable JSON output")


def open_workspace(args: argparse.Namespace, positional: str | None = None):
    """The Workspace named by ``--workspace`` (or a positional WORKSPACE), else discovered from the cwd."""
    from tiers.workspace import Workspace, find_workspace

    root = getattr(args, "workspace", None) or positional
    return Workspace(root) if root else Workspace(find_workspace())


def print_json(obj: Any, *, pretty: bool = False) -> None:
    """Print ``obj`` as JSON, every string secret-masked (``tiers.secrets``): no `--json` output of cuticle repeats
    a secret it was shown (an AWS key id in a command, a token in a memory line)."""
    from gate.intake import wire
    from tiers.secrets import mask_json

    text = json.dumps(mask_json(obj), ensure_ascii=False, indent=2 if pretty else None) + "\n"
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(wire(text))
        buffer.flush()
    else:
        sys.stdout.write(wire(text).decode("utf-8"))


def note(message: str) -> None:
    """A diagnostic for the person at the terminal (stderr); ``--quiet`` drops it."""
    if not QUIET:
        print(message, file=sys.stderr)


def use_color(stream: TextIO) -> bool:
    """Colour only for a terminal: NO_COLOR (any non-empty value) turns it off, FORCE_COLOR on (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


_SGR = {"red": "31", "yellow": "33", "blue": "34", "green": "32", "cyan": "36", "bold": "1", "dim": "2"}


def paint(text: str, style: str, on: bool) -> str:
    return f"\x1b[{_SGR[style]}m{text}\x1b[0m" if on else text


class progress:  # noqa: N801 - used as a context manager: ``with progress("linting 12 files"):``
    """A one-line status on stderr while a long step runs: it appears after PROGRESS_DELAY seconds, only on a
    terminal and without ``--quiet``, shows the elapsed time, and is erased when the step ends, so output that
    is piped or captured never holds it."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False

    def __enter__(self) -> progress:
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty and not QUIET:
            self._thread = threading.Thread(target=self._draw, name="cuticle-progress", daemon=True)
            self._thread.start()
        return self

    def update(self, label: str) -> None:
        self.label = label

    def _draw(self) -> None:
        start = time.monotonic()
        if self._done.wait(PROGRESS_DELAY):
            return
        frames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
        n = 0
        while not self._done.is_set():
            self.stream.write(f"\r\x1b[K{frames[n % len(frames)]} {self.label} ({time.monotonic() - start:.0f} s)")
            self.stream.flush()
            self._shown = True
            n += 1
            self._done.wait(0.1)

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
            if self._shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()


def iter_progress(items: list, label: str) -> Iterator:
    """``items`` one by one inside a :class:`progress` line that counts them."""
    with progress(f"{label} 0/{len(items)}") as bar:
        for i, item in enumerate(items, 1):
            yield item
            bar.update(f"{label} {i}/{len(items)}")
