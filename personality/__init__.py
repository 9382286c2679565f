"""Personality: the Markdown insights file, Chitin-compatible operations, retrieval and PERSONALITY.md rendering.

Public names resolve lazily (PEP 562) so ``import personality`` costs nothing on the hook path.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "Insight": "model",
    "InsightType": "model",
    "InsightsFile": "store",
    "Provenance": "model",
    "archive": "ops",
    "contribute": "ops",
    "detect_conflicts": "tension",
    "detect_context": "retrieve",
    "draft": "ops",
    "estimate_tokens": "render",
    "export_json": "ops",
    "find_similar": "similarity",
    "hashed_embed": "similarity",
    "import_json": "ops",
    "load": "store",
    "marshal": "render",
    "merge": "ops",
    "parse": "store",
    "pending": "reflect",
    "queue_reflection": "reflect",
    "reinforce": "ops",
    "render": "store",
    "render_workspace": "api",
    "restore": "ops",
    "retrieve": "retrieve",
    "retrieve_workspace": "api",
    "session_start": "api",
    "settings": "config",
    "stats": "ops",
    "stem": "text",
    "tension": "tension",
    "update": "ops",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'personality' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
