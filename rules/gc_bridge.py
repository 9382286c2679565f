"""The one place lint fixes hand removed lines to the memory model's GC archive (`tiers.gc`)."""

from __future__ import annotations

from typing import Any


def archive_available() -> bool:
    """True when this build's `tiers.gc` can archive individual lines (needed by the CU103 fix)."""
    try:
        from tiers import gc
    except ImportError:
        return False
    return callable(getattr(gc, "archive_lines", None))


def archive_lines(ws: Any, rel_path: str, lines: list[tuple[int, str]]) -> None:
    """Archive ``(line number, text)`` pairs of ``rel_path`` so `cuticle gc --restore` can bring them back."""
    from tiers.gc import archive_lines as archive

    archive(ws, rel_path, lines)
