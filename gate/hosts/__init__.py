"""One module per agent host: its events, payload spellings, answer shapes, install spec and doctor checks.

``get(name)`` returns the host's adapter (a ``Host``); the modules load on first use, so a hook call imports only
its own host. To add a host, see docs/hosts.md ("Adding a host").
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Host

HOSTS = ("openclaw", "claude", "codex", "gemini", "copilot", "cursor")
#: the order ``cuticle hook auto`` tries them in: the most specific payload shape first
_DETECT_ORDER = ("openclaw", "copilot", "cursor", "gemini", "codex", "claude")

_LOADED: dict[str, Host] = {}


def get(name: str) -> Host:
    """The adapter of host ``name``; KeyError for an unknown host."""
    host = _LOADED.get(name)
    if host is None:
        if name not in HOSTS:
            raise KeyError(name)
        host = _LOADED[name] = importlib.import_module(f"{__name__}.{name}").HOST
    return host


def detect(payload: Any) -> str | None:
    """The host whose payload shape this is (``cuticle hook auto``), else None."""
    if not isinstance(payload, dict):
        return None
    return next((name for name in _DETECT_ORDER if get(name).detects(payload)), None)


__all__ = ["HOSTS", "detect", "get"]
