"""Similarity between claims: Chitin's Jaccard ``similar``, the offline hashed n-gram embedder, and cosine in numpy.

numpy is imported lazily (inside the functions that need it) so the hook path does not pay for it, and numpy
arrays never leave this module: callers get floats and lists.
"""

from __future__ import annotations

import functools
import logging
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tiers.record import dataclass

from .model import Insight
from .tension import jaccard
from .text import chitin_tokens, normalize, words

log = logging.getLogger(__name__)

#: an embedding function: texts -> one vector (sequence of floats) per text, or None when unavailable
Embedder = Callable[[list[str]], Any]

HASH_DIM = 1024


@dataclass(frozen=True, slots=True)
class Similar:
    insight: Insight
    similarity: float

    def to_json(self) -> dict:
        return {
            "id": self.insight.id,
            "type": self.insight.type.value,
            "claim": self.insight.claim,
            "similarity": self.similarity,
        }


def find_similar(insights: Iterable[Insight], claim: str, threshold: float = 0.2) -> list[Similar]:
    """Chitin's ``similar``: Jaccard of word sets (words longer than 2 characters), inclusive threshold, sorted.

    Unicode-aware (Cyrillic and accented letters are letters, not separators); archived insights are skipped.
    """
    query = chitin_tokens(claim)
    if not query:
        return []
    out = [
        Similar(ins, jaccard(query, chitin_tokens(ins.claim)))
        for ins in insights
        if not ins.archived
    ]
    out = [s for s in out if s.similarity >= threshold]
    out.sort(key=lambda s: -s.similarity)  # stable: ties keep file order
    return out


# -- the built-in offline embedder ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=65536)
def _word_features(word: str) -> tuple[int, ...]:
    """Hashed features of one word: the word itself and its character 3-grams padded with spaces."""
    feats = [zlib.crc32(b"w:" + word.encode()) % HASH_DIM]
    padded = f" {word} "
    for i in range(len(padded) - 2):
        feats.append(zlib.crc32(padded[i : i + 3].encode()) % HASH_DIM)
    return tuple(feats)


def hashed_embed(texts: Sequence[str]) -> Any:
    """L2-normalised hashed character-n-gram vectors (numpy, ``HASH_DIM`` wide). Deterministic, no model needed."""
    import numpy as np

    from .text import plain_words

    flat: list[int] = []
    lengths: list[int] = []
    for text in texts:
        before = len(flat)
        for w in plain_words(text):
            flat.extend(_word_features(w))
        lengths.append(len(flat) - before)
    cols = np.asarray(flat, dtype=np.int64)
    rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    counts = np.bincount(rows * HASH_DIM + cols, minlength=len(texts) * HASH_DIM)
    out = counts.reshape(len(texts), HASH_DIM).astype(np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return out / norms


def normalized_rows(matrix: Any) -> Any:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    import numpy as np

    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


def cosine_to_all(query_vec: Any, matrix: Any) -> list[float]:
    """Cosine of one vector against each row of a matrix (rows need not be normalised)."""
    import numpy as np

    q = np.asarray(query_vec, dtype=np.float64).ravel()
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim != 2 or m.shape[1] != q.shape[0]:
        raise ValueError(f"embedding sizes differ: query {q.shape[0]}, rows {m.shape[-1] if m.ndim else 0}")
    qn = np.linalg.norm(q)
    mn = np.linalg.norm(m, axis=1)
    denom = mn * qn
    denom[denom == 0] = 1.0
    return [float(x) for x in (m @ q) / denom]


def embed_texts(embed: Embedder, texts: list[str]) -> Any | None:
    """Call a provider defensively: a provider that fails or returns the wrong shape gives None (logged)."""
    try:
        vectors = embed(texts)
    except Exception as exc:  # noqa: BLE001 - a broken plugin must not break retrieval
        log.warning("embedding provider failed: %s", exc)
        return None
    if vectors is None:
        return None
    import numpy as np

    try:
        arr = np.asarray(vectors, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        log.warning("embedding provider returned unusable vectors: %s", exc)
        return None
    if arr.ndim != 2 or arr.shape[0] != len(texts) or not np.isfinite(arr).all():
        log.warning("embedding provider returned %s for %d texts; ignoring it", arr.shape, len(texts))
        return None
    return arr


def plugin_embedder(pm: Any = None) -> Embedder | None:
    """The ``cuticle_embed`` hook of a plugin manager (default: a new one loading the entry-point group
    ``cuticle``), or None when no plugin implements it. The gate may pass its own manager."""
    if pm is None:
        from tiers.plugins import new_plugin_manager

        pm, failures = new_plugin_manager()
        for f in failures:
            log.warning("%s", f.to_error())
    if not pm.hook.cuticle_embed.get_hookimpls():
        return None
    return lambda texts: pm.hook.cuticle_embed(texts=texts)


def embedder_for(name: str) -> Embedder | None:
    if name == "hashed":
        return hashed_embed
    if name == "plugin":
        return plugin_embedder()
    return None


# -- the collision shield ------------------------------------------------------------------------------------
def shield_text(ins_claim: str, condition: str | None) -> str:
    return f"{condition} → {ins_claim}" if condition else ins_claim


def find_collision(
    insights: Iterable[Insight],
    claim: str,
    *,
    condition: str | None,
    avoid: bool,
    threshold: float,
    embed: Embedder | None = None,
) -> tuple[Insight, float] | None:
    """The existing active insight a new claim duplicates (cosine ≥ threshold), or None.

    Candidates must have the same ``avoid`` flag and no tension with the new claim (so "always X" never
    reinforces "never X"); a cheap word-overlap prefilter keeps this fast on large files. Uses ``embed`` when
    given (a plugin), else the built-in hashed n-gram vectors.
    """
    from .tension import tension

    text = shield_text(claim, condition)
    new_words = set(words(text))
    if not new_words:
        return None
    candidates: list[Insight] = []
    for ins in insights:
        if ins.archived or ins.avoid != avoid:
            continue
        other = set(words(shield_text(ins.claim, ins.condition)))
        if len(new_words & other) * 2 < min(len(new_words), len(other)):
            continue  # fewer than half of the words shared: cannot reach a high cosine
        candidates.append(ins)
    if not candidates:
        return None
    texts = [text] + [shield_text(i.claim, i.condition) for i in candidates]
    vectors = embed_texts(embed, texts) if embed is not None else None
    if vectors is None:
        vectors = hashed_embed(texts)
    sims = cosine_to_all(vectors[0], vectors[1:])
    best: tuple[Insight, float] | None = None
    for ins, sim in zip(candidates, sims):
        if sim < threshold or tension(ins.claim, claim).score > 0:
            continue
        if best is None or sim > best[1]:
            best = (ins, sim)
    return best


def normalized_claim(text: str) -> str:
    return " ".join(words(normalize(text)))
