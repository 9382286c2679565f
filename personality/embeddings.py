"""Stored insight vectors for a local embedding plugin: `cuticle embed` computes them once, retrieval reads them.

A ``cuticle_embed`` plugin may run a model that takes seconds per batch; without a store, every retrieval (each
session start) would embed every insight again. `cuticle embed` (Chitin's verb) embeds what is not stored yet and
writes `.cuticle/personality/embeddings.npz` atomically: vectors keyed by a hash of the insight's text, so an
edited insight is simply missing (and embedded live until the next `cuticle embed`). The built-in ``hashed``
embedder is computed on the fly and needs no store. Loaded with ``allow_pickle=False``: the file holds arrays only.
"""

from __future__ import annotations

import hashlib
import io

from tiers.errors import ConfigError
from tiers.record import dataclass

from . import store
from .config import settings

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

    from .model import Insight
    from .similarity import Embedder

STORE = ("personality", "embeddings.npz")


def insight_text(ins: Insight) -> str:
    """The text an insight is embedded by (Chitin's: the non-empty parts of claim, context, reasoning)."""
    return " — ".join(p for p in (ins.claim, ins.context, ins.reasoning) if p)


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class EmbedStatus:
    embedder: str  # none | hashed | plugin
    available: bool
    note: str
    insights: int
    stored: int  # active insights with a stored vector
    dimensions: int | None

    def to_json(self) -> dict:
        return {"embedder": self.embedder, "available": self.available, "note": self.note,
                "insights": self.insights, "stored": self.stored, "missing": self.insights - self.stored,
                "dimensions": self.dimensions}


def _provider(ws: Any) -> tuple[str, Embedder | None, str]:
    from .similarity import hashed_embed, plugin_embedder

    name = settings(ws).embedder
    if name == "none":
        return name, None, ('no embedder configured: set [personality] embedder = "plugin" (a local model through '
                            'a cuticle_embed plugin) or "hashed" (built in) in .cuticle/config.toml')
    if name == "hashed":
        return name, hashed_embed, "built-in hashed n-gram vectors, computed on the fly (nothing to store)"
    embed = plugin_embedder()
    if embed is None:
        return name, None, ('[personality] embedder = "plugin", but no installed plugin implements cuticle_embed '
                            "(entry-point group 'cuticle')")
    return name, embed, "a cuticle_embed plugin"


def _load(ws: Any) -> dict[str, Any]:
    """text hash -> vector (float32 row) of the store; empty when there is none or it is unreadable."""
    import numpy as np

    path = ws.state_path(*STORE)
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, vectors = data["keys"], data["vectors"]
    except (OSError, KeyError, ValueError):
        return {}
    if vectors.ndim != 2 or len(keys) != len(vectors):
        return {}
    return {str(k): vectors[i] for i, k in enumerate(keys)}


def _save(ws: Any, table: dict[str, Any]) -> None:
    import numpy as np

    from tiers.fsutil import atomic_write

    keys = sorted(table)
    buf = io.BytesIO()
    dims = len(next(iter(table.values()))) if table else 0
    matrix = np.asarray([table[k] for k in keys], dtype=np.float32).reshape(len(keys), dims)
    np.savez(buf, keys=np.asarray(keys, dtype="<U64"), vectors=matrix)
    ws.state_path(*STORE[:-1]).mkdir(parents=True, exist_ok=True)
    atomic_write(ws.state_path(*STORE), buf.getvalue())


def status(ws: Any) -> EmbedStatus:
    name, embed, note = _provider(ws)
    active = store.load(ws).active()
    table = _load(ws) if name == "plugin" else {}
    stored = sum(1 for ins in active if _key(insight_text(ins)) in table)
    dims = len(next(iter(table.values()))) if table else None
    return EmbedStatus(name, embed is not None, note, len(active), stored, dims)


@dataclass(frozen=True, slots=True)
class EmbedReport:
    embedder: str
    insights: int
    embedded: int  # computed now
    stored: int  # already stored
    dimensions: int | None

    def to_json(self) -> dict:
        return {"embedder": self.embedder, "insights": self.insights, "embedded": self.embedded,
                "stored": self.stored, "dimensions": self.dimensions}


def embed_all(ws: Any, *, batch: int = 64) -> EmbedReport:
    """Embed every active insight not stored yet (ConfigError when no embedder can run)."""
    from .similarity import embed_texts

    name, embed, note = _provider(ws)
    if embed is None:
        raise ConfigError(note)
    active = store.load(ws).active()
    if name == "hashed":
        return EmbedReport(name, len(active), 0, 0, None)
    table = _load(ws)
    texts = {_key(t): t for t in (insight_text(i) for i in active)}
    todo = [k for k in texts if k not in table]
    dims = len(next(iter(table.values()))) if table else None
    start = 0
    while start < len(todo):
        chunk = todo[start:start + batch]
        vectors = embed_texts(embed, [texts[k] for k in chunk])
        if vectors is None:
            raise ConfigError("the cuticle_embed plugin failed or returned unusable vectors (see the log); "
                              "nothing new was stored")
        if dims is not None and vectors.shape[1] != dims:
            # another model's vectors are stored: of no use with this one, so everything is embedded again
            table, dims, todo, start = {}, None, list(texts), 0
            continue
        dims = vectors.shape[1]
        table.update(zip(chunk, vectors))
        start += batch
    keep = {k: v for k, v in table.items() if k in texts}  # vectors of deleted or edited insights go
    if todo or len(keep) != len(table) or not ws.state_path(*STORE).exists():
        _save(ws, keep)
    return EmbedReport(name, len(active), len(todo), len(texts) - len(todo), dims)


def stored_embedder(ws: Any, embed: Embedder) -> Embedder:
    """``embed`` that answers from the store for texts `cuticle embed` saw, and asks the plugin for the rest."""
    table: dict[str, Any] | None = None

    def lookup(texts: list[str]) -> Any:
        nonlocal table
        import numpy as np

        if table is None:
            table = _load(ws)
        keys = [_key(t) for t in texts]
        missing = [i for i, k in enumerate(keys) if k not in table]
        fresh = embed([texts[i] for i in missing]) if missing else None
        if missing and fresh is None:
            return None
        rows: list[Any] = [table.get(k) for k in keys]
        if missing:
            fresh = np.asarray(fresh, dtype=np.float32)
            if table and fresh.ndim == 2 and fresh.shape[1] != len(next(iter(table.values()))):
                return embed(texts)  # the store is another model's: do not mix the two
            for j, i in enumerate(missing):
                rows[i] = fresh[j]
        return np.vstack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    return lookup
