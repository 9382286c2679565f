"""Query-aware retrieval: word-boundary context detection, BM25 relevance, Chitin's scoring, optional decay.

score = relevance × confidence × log2(reinforcements + 2) × type boost × decay, where relevance is
``1 + w·bm25/max_bm25`` (w = 2 by default; plus ``w·cosine`` when an embedding provider is configured). With an empty query
(or no word in common) relevance is 1 and the score is exactly Chitin's fallback score. Ties are broken by
confidence, reinforcements, creation time and id, so the order never depends on dict or file iteration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

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


class _Index:
    """BM25 postings over a fixed sequence of insights (rebuilt when the sequence object changes)."""

    __slots__ = ("postings", "lengths", "avg", "n")

    def __init__(self, insights: Sequence[Insight]) -> None:
        self.postings: dict[str, list[tuple[int, int]]] = {}
        self.lengths: list[int] = []
        for idx, ins in enumerate(insights):
            terms = content_stems(document_text(ins))
            self.lengths.append(len(terms))
            counts: dict[str, int] = {}
            for t in terms:
                counts[t] = counts.get(t, 0) + 1
            for t, c in counts.items():
                self.postings.setdefault(t, []).append((idx, c))
        self.n = len(self.lengths)
        self.avg = (sum(self.lengths) / self.n) if self.n else 0.0

    def scores(self, query: str) -> dict[int, float]:
        out: dict[int, float] = {}
        for term in set(content_stems(query)):
            posting = self.postings.get(term)
            if not posting:
                continue
            idf = math.log(1.0 + (self.n - len(posting) + 0.5) / (len(posting) + 0.5))
            for idx, tf in posting:
                norm = tf + BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[idx] / (self.avg or 1.0))
                out[idx] = out.get(idx, 0.0) + idf * tf * (BM25_K1 + 1) / norm
        return out


_LAST_INDEX: list[object] = [None, None]


def _index_for(insights: Sequence[Insight]) -> _Index:
    if _LAST_INDEX[0] is insights and isinstance(_LAST_INDEX[1], _Index):
        return _LAST_INDEX[1]
    index = _Index(insights)
    _LAST_INDEX[0], _LAST_INDEX[1] = insights, index
    return index


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


@dataclass(frozen=True, slots=True)
class Retrieval:
    category: str
    items: tuple[Scored, ...]


def _created_key(ins: Insight) -> str:
    return (ins.created_at or "").replace("T", " ")[:19]


def sort_key(s: Scored) -> tuple:
    ins = s.insight
    return (-s.score, -ins.confidence, -ins.reinforcement_count, _created_key(ins), ins.id)


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
    """Score the active insights for ``query``, best first (see the module docstring for the formula)."""
    category = detect_context(query)
    boosts = TYPE_BOOSTS.get(category, {})
    lexical = _index_for(insights).scores(query) if query.strip() and relevance_weight > 0 else {}
    top = max(lexical.values(), default=0.0)
    semantic: dict[int, float] = {}
    if embed is not None and query.strip():
        semantic = _semantic(insights, query, embed)
    if decay and now is None:
        from .model import now_utc

        now = now_utc()
    type_set = set(types) if types is not None else None
    tag_set = {t.casefold() for t in tags} if tags is not None else None
    out: list[Scored] = []
    log2 = math.log2
    for idx, ins in enumerate(insights):
        if ins.archived:
            continue
        if type_set is not None and ins.type not in type_set:
            continue
        if tag_set is not None and not tag_set & {t.casefold() for t in ins.tags}:
            continue
        if min_confidence is not None and ins.confidence < min_confidence:
            continue
        rel = 1.0 + (relevance_weight * lexical.get(idx, 0.0) / top if top else 0.0)
        sem = semantic.get(idx) if semantic else None
        if sem is not None:
            rel += relevance_weight * max(sem, 0.0)
        boost = boosts.get(ins.type, 1.0)
        factor = decay_factor(ins, now) if decay and now is not None else 1.0
        score = rel * ins.confidence * log2(ins.reinforcement_count + 2) * boost * factor
        out.append(Scored(ins, score, rel, boost, factor, sem))
    out.sort(key=sort_key)
    if max_results:
        out = out[:max_results]
    return Retrieval(category, tuple(out))


def _semantic(insights: Sequence[Insight], query: str, embed) -> dict[int, float]:
    from .similarity import cosine_to_all, embed_texts

    active = [(i, ins) for i, ins in enumerate(insights) if not ins.archived]
    texts = [query] + [" — ".join(p for p in (ins.claim, ins.context, ins.reasoning) if p) for _, ins in active]
    vectors = embed_texts(embed, texts)
    if vectors is None:
        return {}
    sims = cosine_to_all(vectors[0], vectors[1:])
    return {i: s for (i, _), s in zip(active, sims)}
