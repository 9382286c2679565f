"""Query-aware retrieval: word-boundary context detection, BM25 relevance, Chitin's scoring, optional decay.

score = relevance × confidence × log2(reinforcements + 2) × type boost × decay, where relevance is
``1 + w·bm25/max_bm25`` (w = 2 by default; plus ``w·cosine`` when an embedding provider is configured). With an empty query
(or no word in common) relevance is 1 and the score is exactly Chitin's fallback score. Ties are broken by
confidence, reinforcements, creation time and id, so the order never depends on dict or file iteration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime

from tiers.record import dataclass

from .model import Insight, InsightType, Provenance, parse_timestamp
from .text import content_stems, stem, words

#: Chitin's signal groups (exact keyword lists, source order) and weights. Matched on word boundaries through
#: the stemmer, not as substrings: "task" no longer hits "ask", "function" no longer hits "fun".
CONTEXT_SIGNALS: tuple[tuple[str, float, tuple[str, ...]], ...] = (
    (
        "coding",
        1.0,
        tuple(
            """code function bug api build deploy test git commit push pull branch merge refactor debug typescript
            javascript python rust html css database sql server endpoint cli npm package compile error fix implement
            architect repo docker container netlify website tdd lint schema migration query install config""".split()
        ),
    ),
    (
        "communication",
        1.0,
        tuple(
            """boss team respond reply message email slack tell ask explain communicate feedback meeting person
            people coworker colleague client user conversation discuss chat tone polite direct""".split()
        ),
    ),
    (
        "ethical",
        1.2,
        tuple(
            """ethical moral right wrong honest honesty lie private privacy security trust principle value should
            fair integrity permission consent safe appropriate harmful responsible christian faith""".split()
        ),
    ),
    (
        "creative",
        0.9,
        tuple(
            """story write creative fun humor joke poem imagine design art style voice personality dream
            philosophical reflect muse inspire""".split()
        ),
    ),
)
_SIGNAL_STEMS: tuple[tuple[str, float, frozenset[str]], ...] = tuple(
    (name, weight, frozenset(stem(k) for k in keys)) for name, weight, keys in CONTEXT_SIGNALS
)

TYPE_BOOSTS: dict[str, dict[InsightType, float]] = {
    "coding": {
        InsightType.PERSONALITY: 0.7, InsightType.RELATIONAL: 0.8, InsightType.BEHAVIORAL: 1.3,
        InsightType.PRINCIPLE: 1.0, InsightType.SKILL: 1.8, InsightType.TRIGGER: 1.2,
    },
    "communication": {
        InsightType.PERSONALITY: 1.2, InsightType.RELATIONAL: 1.8, InsightType.BEHAVIORAL: 1.5,
        InsightType.PRINCIPLE: 1.0, InsightType.SKILL: 0.6, InsightType.TRIGGER: 1.4,
    },
    "ethical": {
        InsightType.PERSONALITY: 1.0, InsightType.RELATIONAL: 1.0, InsightType.BEHAVIORAL: 1.2,
        InsightType.PRINCIPLE: 2.0, InsightType.SKILL: 0.5, InsightType.TRIGGER: 1.0,
    },
    "creative": {
        InsightType.PERSONALITY: 1.8, InsightType.RELATIONAL: 1.0, InsightType.BEHAVIORAL: 1.2,
        InsightType.PRINCIPLE: 0.8, InsightType.SKILL: 0.6, InsightType.TRIGGER: 0.8,
    },
}

#: Chitin's half-lives in days (None = never decays; absent or unknown provenance never decays either).
HALF_LIVES: dict[Provenance, float | None] = {
    Provenance.DIRECTIVE: None,
    Provenance.CORRECTION: 365.0,
    Provenance.OBSERVATION: 180.0,
    Provenance.REFLECTION: 90.0,
    Provenance.SOCIAL: 30.0,
    Provenance.EXTERNAL: 180.0,
}

BM25_K1 = 1.2
BM25_B = 0.75


def detect_context(query: str) -> str:
    """Chitin's category for a query: matches × weight per group, ties to the earlier group, < 1 → general."""
    if not query or not query.strip():
        return "general"
    stems = {stem(w) for w in words(query)}
    best, best_score = "general", 0.0
    for name, weight, keys in _SIGNAL_STEMS:
        score = len(keys & stems) * weight
        if score > best_score:
            best, best_score = name, score
    return best if best_score >= 1 else "general"


def type_boost(category: str, insight_type: InsightType) -> float:
    return TYPE_BOOSTS.get(category, {}).get(insight_type, 1.0)


def decay_factor(ins: Insight, now: datetime, half_lives: dict[Provenance, float | None] | None = None) -> float:
    """``0.5 ** (age_days / half_life)``; timestamps are UTC (Chitin read them as local time)."""
    if ins.provenance is None or ins.created_at is None:
        return 1.0
    half = (half_lives or HALF_LIVES).get(ins.provenance)
    if not half:
        return 1.0
    age_days = (now - parse_timestamp(ins.created_at)).total_seconds() / 86400.0
    return 0.5 ** (age_days / half)


def document_text(ins: Insight) -> str:
    """What lexical relevance looks at: claim, trigger condition, context and tags."""
    parts = [ins.claim]
    if ins.condition:
        parts.append(ins.condition)
    if ins.context:
        parts.append(ins.context)
    parts.extend(ins.tags)
    return " ".join(parts)


class _Collection:
    """Per-collection data computed once (rebuilt when the insights sequence object changes): score bases,
    a total tie-break rank, and (lazily, on the first query) BM25 postings."""

    __slots__ = (
        "insights", "active", "active_set", "ranked", "base", "type_idx", "min_units", "lowered", "lengths", "avg",
        "postings", "vectors",
    )

    def __init__(self, insights: Sequence[Insight]) -> None:
        self.insights = insights
        log2 = math.log2
        types = list(InsightType)
        self.active = [i for i, ins in enumerate(insights) if ins.archived_at is None]
        # Chitin's fallback score is conf × log2(rc + 2) × boost, multiplied in that order
        self.base = [ins.confidence * log2(ins.reinforcement_count + 2) for ins in insights]
        self.type_idx = [types.index(ins.type) for ins in insights]
        self.active_set = frozenset(self.active)
        #: active indices in tie-break order; a stable sort by score then breaks ties this way
        self.ranked = sorted(
            self.active,
            key=lambda i: (
                -insights[i].confidence, -insights[i].reinforcement_count, _created_key(insights[i]), insights[i].id
            ),
        )
        self.min_units = min((len(" ".join(ins.claim.split())) for ins in insights), default=1) + 3
        self.lowered: list[str] | None = None
        self.lengths: list[int] = []
        self.avg = 0.0
        self.postings: dict[str, tuple[list[int], list[float]]] = {}
        self.vectors: dict[str, object] = {}

    def _prepare(self) -> list[str]:
        """Lower-cased document texts and their word counts (for the substring prefilter and BM25 lengths)."""
        lowered = [document_text(ins).lower().replace("ё", "е") for ins in self.insights]
        self.lengths = [len(t.split()) for t in lowered]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        self.lowered = lowered
        return lowered

    def posting(self, term: str) -> tuple[list[int], list[float]]:
        """(doc indices, BM25 term weights without idf) for one stem, built on first use.

        Only documents containing the stem's first four letters (or a source word of an irregular stem) as a
        substring are tokenised, so a query costs a few substring scans instead of tokenising every insight.
        """
        entry = self.postings.get(term)
        if entry is not None:
            return entry
        lowered = self.lowered if self.lowered is not None else self._prepare()
        probes = {term[:4]} | {w[:4] for w in _IRREGULAR.get(term, ())}
        k1, b, avg = BM25_K1, BM25_B, self.avg or 1.0
        idxs: list[int] = []
        weights: list[float] = []
        for idx, text in enumerate(lowered):
            if not any(p in text for p in probes):
                continue
            c = content_stems(document_text(self.insights[idx])).count(term)
            if c:
                idxs.append(idx)
                weights.append(c * (k1 + 1) / (c + k1 * (1 - b + b * self.lengths[idx] / avg)))
        entry = self.postings[term] = (idxs, weights)
        return entry

    def bm25(self, query: str) -> dict[int, float]:
        n = len(self.insights)
        acc: list[float] | None = None
        for term in sorted(set(content_stems(query))):
            idxs, weights = self.posting(term)
            if not idxs:
                continue
            idf = math.log(1.0 + (n - len(idxs) + 0.5) / (len(idxs) + 0.5))
            if acc is None:
                acc = [0.0] * n
            for idx, w in zip(idxs, weights):
                acc[idx] += idf * w
        if acc is None:
            return {}
        return {i: v for i, v in enumerate(acc) if v}


def _irregular_sources() -> dict[str, tuple[str, ...]]:
    """stem -> words whose stem comes from the irregular map (their spelling may not contain the stem)."""
    from .text import STEM_MAP

    out: dict[str, list[str]] = {}
    for word in STEM_MAP:
        out.setdefault(stem(word), []).append(word)
    return {k: tuple(v) for k, v in out.items()}


_IRREGULAR = _irregular_sources()


_LAST: list[_Collection | None] = [None]


def _collection_for(insights: Sequence[Insight]) -> _Collection:
    last = _LAST[0]
    if last is not None and last.insights is insights:
        return last
    coll = _Collection(insights)
    _LAST[0] = coll
    return coll


@dataclass(frozen=True, slots=True)
class Scored:
    insight: Insight
    score: float
    relevance: float
    boost: float
    decay: float
    semantic: float | None = None

    def to_json(self) -> dict:
        out = {
            "id": self.insight.id,
            "type": self.insight.type.value,
            "claim": self.insight.claim,
            "score": self.score,
            "relevance": self.relevance,
        }
        if self.semantic is not None:
            out["similarity"] = self.semantic
        return out


class ScoredList(Sequence):
    """The ranked insights, best first; ``Scored`` records are built only for the entries actually read."""

    __slots__ = ("_order", "_insights", "_scores", "_rel", "_boost", "_decay", "_sem", "min_units")

    def __init__(self, order, insights, scores, rel, boost, decay, sem, min_units=4):
        self._order, self._insights, self._scores = order, insights, scores
        self._rel, self._boost, self._decay, self._sem = rel, boost, decay, sem
        self.min_units = min_units

    def __len__(self) -> int:
        return len(self._order)

    def _make(self, i: int) -> Scored:
        return Scored(
            self._insights[i], self._scores[i], self._rel.get(i, 1.0), self._boost(i), self._decay.get(i, 1.0),
            self._sem.get(i),
        )

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self._make(i) for i in self._order[k]]
        return self._make(self._order[k])

    def __iter__(self):
        return (self._make(i) for i in self._order)

    def iter_insights(self):
        insights = self._insights
        return (insights[i] for i in self._order)


@dataclass(frozen=True, slots=True)
class Retrieval:
    category: str
    items: Sequence[Scored]


def _created_key(ins: Insight) -> str:
    return (ins.created_at or "").replace("T", " ")[:19]


def retrieve(
    insights: Sequence[Insight],
    query: str = "",
    *,
    max_results: int | None = None,
    decay: bool = False,
    now: datetime | None = None,
    embed=None,
    relevance_weight: float = 2.0,
    types: Iterable[InsightType] | None = None,
    tags: Iterable[str] | None = None,
    min_confidence: float | None = None,
) -> Retrieval:
    """Score the active insights for ``query``, best first (see the module docstring for the formula).

    Ties are broken by confidence, reinforcements, creation time and id (all descending/ascending as a human
    expects), never by file order.
    """
    category = detect_context(query)
    coll = _collection_for(insights)
    type_list = list(InsightType)
    boosts = TYPE_BOOSTS.get(category, {})
    boost_by_idx = [boosts.get(t, 1.0) for t in type_list]
    type_idx = coll.type_idx
    base = coll.base
    candidates = coll.active
    ranked = coll.ranked
    cand_set = coll.active_set
    if types is not None or tags is not None or min_confidence is not None:
        type_set = set(types) if types is not None else None
        tag_set = {t.casefold() for t in tags} if tags is not None else None
        kept = []
        for i in candidates:
            ins = insights[i]
            if type_set is not None and ins.type not in type_set:
                continue
            if tag_set is not None and not tag_set & {t.casefold() for t in ins.tags}:
                continue
            if min_confidence is not None and ins.confidence < min_confidence:
                continue
            kept.append(i)
        candidates = kept
        cand_set = frozenset(kept)
        ranked = [i for i in ranked if i in cand_set]
    scores = [b * boost_by_idx[t] for b, t in zip(base, type_idx)]
    rel: dict[int, float] = {}
    if query.strip() and relevance_weight > 0:
        lexical = coll.bm25(query)
        top = max(lexical.values(), default=0.0)
        if top:
            rel = {i: 1.0 + relevance_weight * v / top for i, v in lexical.items()}
    sem: dict[int, float] = {}
    if embed is not None and query.strip():
        sem = _semantic(coll, candidates, query, embed)
        for i, v in sem.items():
            if v > 0:
                rel[i] = rel.get(i, 1.0) + relevance_weight * v
    if rel:
        log2 = math.log2
        rel = {i: r for i, r in rel.items() if i in cand_set}
        for i, r in rel.items():
            ins = insights[i]
            scores[i] = r * ins.confidence * log2(ins.reinforcement_count + 2) * boost_by_idx[type_idx[i]]
    factors: dict[int, float] = {}
    if decay:
        if now is None:
            from .model import now_utc

            now = now_utc()
        for i in candidates:
            f = decay_factor(insights[i], now)
            if f != 1.0:
                factors[i] = f
                scores[i] *= f
    order = sorted(ranked, key=scores.__getitem__, reverse=True)  # stable: ties keep the tie-break order
    if max_results:
        order = order[:max_results]
    items = ScoredList(
        order, insights, scores, rel, lambda i: boost_by_idx[type_idx[i]], factors, sem, coll.min_units
    )
    return Retrieval(category, items)


def _semantic(coll: _Collection, candidates: list[int], query: str, embed) -> dict[int, float]:
    """Cosine of the query with each candidate; the insights' vectors are computed once per collection and
    provider (Chitin embedded the non-empty parts of claim, context and reasoning joined with " — ")."""
    from .similarity import embed_texts, normalized_rows

    if not candidates:
        return {}
    cache = coll.vectors
    key = id(embed)
    if cache.get("key") != key:
        insights = coll.insights
        from .embeddings import insight_text

        texts = [insight_text(ins) for ins in insights]
        cache.clear()
        cache["key"] = key
        vectors = embed_texts(embed, texts) if texts else None
        cache["matrix"] = normalized_rows(vectors) if vectors is not None else None
        cache["embed"] = embed  # keep the provider alive so its id is not reused
    matrix = cache.get("matrix")
    if matrix is None:
        return {}
    qvec = embed_texts(embed, [query])
    if qvec is None or qvec.shape[1] != matrix.shape[1]:
        return {}
    sims = (matrix @ normalized_rows(qvec)[0]).tolist()  # one matrix-vector product over every insight
    return {i: sims[i] for i in candidates}
