"""Retrieval: context detection on word boundaries, Chitin's fallback scores, lexical relevance, decay, embeddings."""

from __future__ import annotations

import datetime as dt

import pytest
from personality_data import CHITIN_SET, make

from personality.model import InsightType
from personality.retrieve import decay_factor, detect_context, retrieve
from personality.similarity import cosine_to_all, hashed_embed

# Chitin §14.1 vectors cuticle keeps.
KEPT = [
    ("I need to write a function that handles API errors", "coding"),
    ("Let me fix the TypeScript build and push to git", "coding"),
    ("How should I respond to this message from the team?", "communication"),
    ("Is it right to share this private information?", "ethical"),
    ("Write me a fun story about a lobster", "creative"),
    ("hello", "general"),
    ("", "general"),
    ("   ", "general"),
    ("Build three website designs and deploy them to Netlify", "coding"),
    ("Send Boss the PR link for the refactored API code", "coding"),
    ("general assistant session", "general"),
    ("agent: main, telegram chat", "communication"),
    ("I trust you", "ethical"),
    ("a poem", "general"),
    ("write a poem", "creative"),
    ("tell me a joke", "communication"),
    ("boss code", "coding"),
    ("safe deploy", "ethical"),
    ("ethics and being honest with people", "ethical"),
]


@pytest.mark.parametrize("query, category", KEPT, ids=[q or "empty" for q, _ in KEPT])
def test_context_detection_kept_from_chitin(query, category):
    assert detect_context(query) == category


# Substring false hits Chitin had, now matched on word boundaries (through the stemmer).
CHANGED = [
    ("sub-agent task execution", "communication", "general"),  # "ask" in "task"
    ("the latest success", "coding", "general"),  # "test" in "latest"
    ("Write a function", "creative", "coding"),  # "fun" in "function"
    ("I am writing", "general", "general"),  # still one creative match (0.9 < 1) but now it is a match
    ("writing stories and poems", "general", "creative"),  # plural and -ing forms count
    ("check the client access", "coding", "communication"),  # "cli"+"lie" in client, "css" in access
]


@pytest.mark.parametrize("query, chitin, ours", CHANGED, ids=[q for q, _, _ in CHANGED])
def test_context_detection_word_boundary_differences(query, chitin, ours):
    assert detect_context(query) == ours


def test_fallback_scores_equal_chitins_when_the_query_shares_no_word():
    result = retrieve(CHITIN_SET, "Help me fix this TypeScript build error")
    assert result.category == "coding"
    scores = {s.insight.id[-1]: s.score for s in result.items}
    assert scores == {
        "4": 2.248025, "6": 1.62, "7": 1.14, "8": 1.08, "5": 0.95, "2": 0.7200000000000001,
        "3": 0.5599999999999999, "1": 0.5599999999999999,
    }
    # ties broken by confidence, not by file order
    assert [s.insight.id[-1] for s in result.items] == ["4", "6", "7", "8", "5", "2", "1", "3"]


def test_query_words_raise_matching_insights():
    base = retrieve(CHITIN_SET, "")
    assert [s.insight.id[-1] for s in base.items][:3] == ["4", "5", "7"]  # 5 and 7 tie: id decides
    result = retrieve(CHITIN_SET, "what does the boss think about verbose explanations?")
    top = result.items[0]
    assert top.insight.claim == "Boss prefers verbose explanations" and top.relevance > 2.9
    assert all(s.relevance >= 1.0 for s in result.items)


def test_query_relevance_uses_the_stemmer_and_russian():
    items = (
        make("ru", "skill", "Всегда запускай тесты перед коммитом", 0.5),
        make("en", "skill", "Always write small commits", 0.5),
    )
    assert retrieve(items, "тестов").items[0].insight.id == "ru"
    assert retrieve(items, "committing").items[0].insight.id == "en"


def test_filters_and_max_results():
    result = retrieve(CHITIN_SET, "", types=[InsightType.TRIGGER], max_results=1)
    assert [s.insight.id[-1] for s in result.items] == ["7"]
    assert [s.insight.id[-1] for s in retrieve(CHITIN_SET, "", tags=["CHAT"]).items] == ["8"]
    assert len(retrieve(CHITIN_SET, "", min_confidence=0.9).items) == 5


def test_archived_insights_are_never_retrieved():
    items = (make("a", "skill", "x", 0.9, archived_at="2026-11-30 08:27:14"), make("b", "skill", "y", 0.1))
    assert [s.insight.id for s in retrieve(items, "x").items] == ["b"]


NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(
    "provenance, days, factor",
    [
        ("social", 30, 0.5), ("social", 60, 0.25), ("social", 90, 0.125), ("social", 300, 0.0009765625),
        ("reflection", 90, 0.5), ("observation", 180, 0.5), ("correction", 365, 0.5), ("external", 180, 0.5),
        ("directive", 1000, 1.0), (None, 1000, 1.0),
    ],
    ids=lambda v: str(v),
)
def test_decay_matches_chitin_half_lives_in_utc(provenance, days, factor):
    created = (NOW - dt.timedelta(days=days)).strftime("%Y-%m-%d %H:%M:%S")
    ins = make("a", "skill", "x", 0.5, created_at=created, provenance=provenance) if provenance else make(
        "a", "skill", "x", 0.5, created_at=created)
    assert decay_factor(ins, NOW) == pytest.approx(factor, rel=1e-12)


def test_future_timestamp_decays_above_one_and_decay_is_optional():
    ins = make("a", "skill", "x", 0.5, created_at="2026-12-01 12:00:00", provenance="social")
    assert decay_factor(ins, NOW) > 1
    old = make("b", "skill", "x", 0.5, created_at="2025-01-01 00:00:00", provenance="social")
    assert retrieve((old,), "", decay=False).items[0].score == 0.5
    assert retrieve((old,), "", decay=True, now=NOW).items[0].score < 0.01


def test_hashed_embedder_is_deterministic_and_normalised():
    a = hashed_embed(["Boss values directness", "Boss values directness", "совсем другое"])
    sims = cosine_to_all(a[0], a)
    assert sims[0] == pytest.approx(1.0) and sims[1] == pytest.approx(1.0) and sims[2] < 0.2


def test_an_embedding_provider_adds_semantic_relevance():
    calls = []

    def fake(texts):
        calls.append(len(texts))
        return [[1.0, 0.0] if "humor" in t or "joke" in t else [0.0, 1.0] for t in texts]

    result = retrieve(CHITIN_SET, "tell me a joke", embed=fake)
    assert calls == [len(CHITIN_SET), 1]  # the insights once per collection, then the query
    retrieve(CHITIN_SET, "another joke", embed=fake)
    assert calls == [len(CHITIN_SET), 1, 1]
    assert result.items[0].insight.claim == "I use dry humor sparingly"
    assert result.items[0].semantic == pytest.approx(1.0)


def test_a_broken_provider_falls_back_to_lexical():
    def broken(texts):
        raise RuntimeError("no model")

    def wrong_shape(texts):
        return [[1.0]]

    for provider in (broken, wrong_shape):
        result = retrieve(CHITIN_SET, "boss", embed=provider)
        assert all(s.semantic is None for s in result.items)


def test_embedding_provider_through_the_pluggy_hook():
    import pluggy

    from tiers import hookspecs
    from personality.similarity import plugin_embedder

    class Provider:
        @hookspecs.hookimpl
        def cuticle_embed(self, texts):
            return [[1.0, 0.0] if "humor" in t or "joke" in t else [0.0, 1.0] for t in texts]

    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    assert plugin_embedder(pm) is None  # no implementation: lexical only
    pm.register(Provider())
    embed = plugin_embedder(pm)
    result = retrieve(CHITIN_SET, "tell me a joke", embed=embed)
    assert result.items[0].insight.claim == "I use dry humor sparingly"
