"""Workspace-level entry points the gate and the CLI call: render PERSONALITY.md, session start, retrieval."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from tiers.record import dataclass

from . import store
from .config import settings
from .render import HEADER, Rendered, marshal
from .retrieve import Retrieval, retrieve

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class RenderResult:
    path: Path
    rendered: Rendered
    retrieval: Retrieval
    changed: bool


def retrieve_workspace(
    ws: Any,
    query: str = "",
    *,
    max_results: int | None = None,
    decay: bool | None = None,
    now: datetime | None = None,
    doc: store.InsightsFile | None = None,
) -> Retrieval:
    cfg = settings(ws)
    doc = doc if doc is not None else store.load(ws)
    embed = None
    if cfg.embedder != "none":
        from .similarity import embedder_for

        embed = embedder_for(cfg.embedder)
        if embed is not None and cfg.embedder == "plugin":
            from .embeddings import stored_embedder

            embed = stored_embedder(ws, embed)  # the vectors `cuticle embed` stored, the plugin for the rest
    return retrieve(
        doc.insights,
        query,
        max_results=max_results if max_results is not None else (cfg.max_results or None),
        decay=cfg.decay if decay is None else decay,
        now=now,
        embed=embed,
        relevance_weight=cfg.relevance_weight,
    )


def render_workspace(
    ws: Any,
    *,
    budget: int | None = None,
    query: str = "",
    output: str | Path | None = None,
    write: bool = True,
    decay: bool | None = None,
    now: datetime | None = None,
) -> RenderResult:
    """Render PERSONALITY.md from the insights file within the budget; write it atomically when it changed."""
    cfg = settings(ws)
    result = retrieve_workspace(ws, query, decay=decay, now=now)
    rendered = marshal(
        result.items, cfg.budget if budget is None else budget, header=HEADER, advisory_below=cfg.advisory_below
    )
    path = Path(output) if output is not None else ws.root / cfg.output
    if not path.is_absolute():
        path = ws.root / path
    data = rendered.text.encode("utf-8")
    try:
        changed = path.read_bytes() != data
    except FileNotFoundError:
        changed = True
    if write and changed:
        store.write_shared(path, data)
    return RenderResult(path, rendered, result, changed)


def session_start(ws: Any) -> str | None:
    """Render PERSONALITY.md when the workspace has an insights file and return its text (else None).

    Raises a CuticleError (ParseError, ConfigError) when the insights file or config is broken; the gate fails
    open on it.
    """
    if not store.insights_path(ws).exists():
        return None
    return render_workspace(ws).rendered.text
