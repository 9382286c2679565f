"""Contradiction check between claims: Chitin's tension pairs and formulas, with a real stemmer and negation.

Kept from Chitin: the 44 pairs in order, the pair test (a pair counts when one claim holds one term and the other
claim the opposite term, skipped when both claims hold both terms), ``tension = 1 - 1/(1 + 0.6 n)``,
``conflict = 0.3 jaccard + 0.7 tension``, skip when tension is 0 and jaccard < 0.3, minimum 0.15, top 5, and the
reason string. Changed: terms match through the stemmer (``quickly`` hits ``quick``), a negated term ("avoid
conciseness", "don't be verbose") takes the opposite side, the same term asserted in one claim and negated in
the other is a hit, and a few Russian pairs are added after Chitin's.
"""

from __future__ import annotations

from collections.abc import Iterable

from tiers.record import dataclass

from .model import Insight
from .text import STOPWORDS, analyse, stem

#: Chitin's 44 tension pairs, in source order.
CHITIN_PAIRS: tuple[tuple[str, str], ...] = (
    ("verbose", "concise"), ("verbose", "brief"), ("verbose", "direct"), ("verbose", "efficient"),
    ("detailed", "concise"), ("detailed", "brief"), ("detailed", "direct"), ("detailed", "efficient"),
    ("thorough", "concise"), ("thorough", "brief"), ("elaborate", "concise"), ("elaborate", "brief"),
    ("lengthy", "short"), ("wordy", "terse"), ("wordy", "direct"),
    ("ask", "act"), ("cautious", "bold"), ("careful", "fast"), ("slow", "fast"), ("deliberate", "quick"),
    ("wait", "proceed"), ("hesitate", "decisive"), ("passive", "proactive"),
    ("formal", "casual"), ("formal", "informal"), ("professional", "casual"), ("polite", "blunt"),
    ("diplomatic", "direct"),
    ("strict", "flexible"), ("rigid", "adaptive"), ("conservative", "aggressive"), ("minimal", "comprehensive"),
    ("simple", "complex"), ("silent", "vocal"), ("quiet", "loud"),
    ("explain", "execute"), ("narrate", "silent"), ("transparent", "opaque"),
    ("safe", "risky"), ("cautious", "adventurous"), ("careful", "reckless"),
    ("independent", "dependent"), ("autonomous", "supervised"), ("initiative", "permission"),
)

#: cuticle's Russian pairs (same semantics), matched through the Russian stemmer.
RU_PAIRS: tuple[tuple[str, str], ...] = (
    ("подробный", "краткий"), ("подробно", "кратко"), ("многословный", "лаконичный"), ("развернуто", "кратко"),
    ("спрашивать", "действовать"), ("осторожный", "смелый"), ("осторожно", "быстро"), ("медленно", "быстро"),
    ("формальный", "неформальный"), ("формально", "неформально"), ("вежливый", "резкий"),
    ("строгий", "гибкий"), ("простой", "сложный"), ("тихий", "громкий"), ("безопасный", "рискованный"),
    ("самостоятельно", "разрешение"),
)

TENSION_PAIRS: tuple[tuple[str, str], ...] = CHITIN_PAIRS + RU_PAIRS
_STEMMED_PAIRS: tuple[tuple[str, str, str, str], ...] = tuple((a, b, stem(a), stem(b)) for a, b in TENSION_PAIRS)
_PAIR_STEMS = frozenset(s for _, _, sa, sb in _STEMMED_PAIRS for s in (sa, sb))

_STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)

MIN_CONFLICT_SCORE = 0.15
MAX_CONFLICTS = 5
#: Word overlap above which a term asserted in one claim and negated in the other counts as a hit for any term.
FLIP_OVERLAP = 0.2


@dataclass(frozen=True, slots=True)
class Tension:
    score: float
    pairs: tuple[str, ...]  # each rendered as '"a" ↔ "b"'


@dataclass(frozen=True, slots=True)
class Conflict:
    """One existing insight the new claim may contradict (Chitin's detectConflicts row)."""

    insight: Insight
    similarity: float
    tension: float
    reason: str
    score: float

    def to_json(self) -> dict:
        return {
            "id": self.insight.id,
            "type": self.insight.type.value,
            "claim": self.insight.claim,
            "similarity": self.similarity,
            "tensionScore": self.tension,
            "tensionReason": self.reason,
            "conflictScore": self.score,
        }


def _polar_sets(text: str) -> tuple[set[str], set[str], set[str], dict[str, str]]:
    """(asserted stems, negated stems, all stems, stem -> first word) of one claim."""
    pos: set[str] = set()
    neg: set[str] = set()
    surface: dict[str, str] = {}
    for s, negated, tok in analyse(text):
        (neg if negated else pos).add(s)
        surface.setdefault(s, tok)
    return pos, neg, pos | neg, surface


def tension_of_n(n: int) -> float:
    return 1.0 - 1.0 / (1.0 + 0.6 * n) if n else 0.0


def tension(a: str, b: str, *, overlap: float | None = None) -> Tension:
    """Tension between two claims: Chitin's pair test through the stemmer, with negation."""
    pa, na, alla, surface = _polar_sets(a)
    pb, nb, allb, _ = _polar_sets(b)
    hits: list[str] = []
    seen: set[tuple[str, str]] = set()
    for ta, tb, sa, sb in _STEMMED_PAIRS:
        if (sa, sb) in seen:
            continue  # two pairs that stem alike (подробный/подробно) count once
        if sa in alla and sb in alla and sa in allb and sb in allb:
            continue  # both claims hold both terms: Chitin skips the pair
        # opposite terms with the same polarity, in either direction, contradict
        if (sa in pa and sb in pb) or (sb in pa and sa in pb) or (sa in na and sb in nb) or (sb in na and sa in nb):
            hits.append(f'"{ta}" ↔ "{tb}"')
            seen.add((sa, sb))
    if overlap is None:
        overlap = jaccard(stem_tokens(a), stem_tokens(b))
    for s in sorted((pa & nb) | (na & pb)):
        if s in pa & na or s in pb & nb:
            continue  # asserted and negated inside one claim: no clear polarity
        if s in _PAIR_STEMS or (overlap >= FLIP_OVERLAP and s not in _STOP_STEMS):
            word = surface.get(s, s)
            hits.append(f'"{word}" ↔ "not {word}"')
    return Tension(tension_of_n(len(hits)), tuple(hits))


def stem_tokens(text: str) -> set[str]:
    """Chitin's conflict token set made Unicode-aware: words longer than 2 characters plus their stems."""
    from .text import chitin_tokens

    out: set[str] = set()
    for w in chitin_tokens(text):
        out.add(w)
        out.add(stem(w))
    return out


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    inter = len(a & b)
    union = len(a) + len(b) - inter
    return inter / union if union else 0.0


def detect_conflicts(
    existing: Iterable[Insight],
    claim: str,
    *,
    min_score: float = MIN_CONFLICT_SCORE,
    max_results: int = MAX_CONFLICTS,
    exclude_id: str | None = None,
) -> list[Conflict]:
    """Existing (active) insights the new claim may contradict, highest conflict score first."""
    new_tokens = stem_tokens(claim)
    out: list[Conflict] = []
    for ins in existing:
        if ins.archived or ins.id == exclude_id:
            continue
        sim = jaccard(new_tokens, stem_tokens(ins.claim))
        ten = tension(ins.claim, claim, overlap=sim)
        if ten.score == 0 and sim < 0.3:
            continue
        score = 0.3 * sim + 0.7 * ten.score
        if score < min_score:
            continue
        reason = ", ".join(ten.pairs) if ten.pairs else "high word overlap with different emphasis"
        out.append(Conflict(ins, sim, ten.score, reason, score))
    out.sort(key=lambda c: (-c.score, c.insight.id))
    return out[:max_results]
