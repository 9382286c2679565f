"""Answers in each host's dialect: deny, rewrite arguments, add context, or stay silent.

A ``Reply`` is what a hook process prints and how it exits; ``cuticle serve`` sends the same triple back. The
shapes live with each host (``gate/hosts/<host>.py``); these functions are the one door the handler uses.
Every "allow" answer is also what the gate says when it fails open, so a crash never blocks by accident.
"""

from __future__ import annotations

import json

from tiers.record import dataclass

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class Reply:
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0

    def to_json(self) -> dict:
        return {"stdout": self.stdout, "stderr": self.stderr, "exit_code": self.exit_code}


def dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _host(name: str):
    from .hosts import get

    try:
        return get(name)
    except KeyError:
        return None


def noop(host: str, host_event: str = "", *, diagnostic: str = "") -> Reply:
    """Let the call proceed / nothing to add (an unknown host gets the diagnostic alone)."""
    h = _host(host)
    if h is None:
        return Reply("", (diagnostic.rstrip("\n") + "\n") if diagnostic else "")
    return h.noop(host_event or "", diagnostic)


def deny(host: str, event: str, reason: str, *, short: str = "") -> Reply:
    """Block the tool call; ``reason`` (JSON text) goes where the host shows it to the model."""
    h = _host(host)
    if h is None:
        return Reply("", reason + "\n", 2)
    return h.deny(event, reason, short or "cuticle blocked this tool call")


def can_rewrite(host: str) -> bool:
    """The host's before-tool answer can replace the tool's arguments."""
    h = _host(host)
    return bool(h and h.can_rewrite)


def rewrite(host: str, args: dict, *, note: str, permission_mode: str | None = None, auto_allow: Any = "auto") -> Reply:
    """Replace the tool's arguments (only where ``can_rewrite``; the caller checks)."""
    h = _host(host)
    if h is None or not h.can_rewrite:
        raise ValueError(f"host {host} cannot rewrite tool arguments")
    return h.rewrite(args, note, permission_mode, auto_allow)


def context(host: str, event: str, text: str, *, path: str | None = None) -> Reply:
    """Inject ``text`` at session start (or OpenClaw prompt build / bootstrap)."""
    h = _host(host)
    if not text or h is None:
        return noop(host, event)
    return h.context(event, text, path)


def post_note(host: str, host_event: str, text: str) -> Reply:
    """Tell the model something after a tool ran (e.g. the lines cuticle stamped or could not accept)."""
    h = _host(host)
    if not text or h is None:
        return noop(host, host_event)
    return h.post_note(host_event, text)
