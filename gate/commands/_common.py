"""Helpers every subcommand shares: the --workspace option, JSON output, reading text arguments."""

from __future__ import annotations

import argparse
import json
import sys

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


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
    """Print ``obj`` as JSON, every string secret-masked (``rules.secrets``): no `--json` output of cuticle repeats
    a secret it was shown (an AWS key id in a command, a token in a memory line)."""
    from gate.events import mask_with
    from gate.intake import wire
    from rules.secrets import mask_secrets

    text = json.dumps(mask_with(obj, mask_secrets), ensure_ascii=False, indent=2 if pretty else None) + "\n"
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(wire(text))
        buffer.flush()
    else:
        sys.stdout.write(wire(text).decode("utf-8"))
