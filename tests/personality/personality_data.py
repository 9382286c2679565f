"""Shared test data and fixtures for the personality tests (imported by each test module rather than kept in a
conftest.py, whose module name collides with the other test directories' conftest files)."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import string

import pytest
from hypothesis import strategies as st

from personality.model import Insight, InsightType, Provenance
from tiers.workspace import Workspace

NOW = dt.datetime(2026, 11, 30, 8, 27, 14, tzinfo=dt.timezone.utc)


def make(id: str, type: str, claim: str, confidence: float, **kw) -> Insight:
    kw.setdefault("created_at", "2026-11-30 08:27:14")
    kw.setdefault("updated_at", kw["created_at"])
    if "provenance" in kw and isinstance(kw["provenance"], str):
        kw["provenance"] = Provenance(kw["provenance"])
    return Insight(id=id, type=InsightType(type), claim=claim, confidence=confidence, **kw)


#: Chitin's end-to-end retrieval set (reference §14.10), with fixed ids and timestamps.
CHITIN_SET: tuple[Insight, ...] = (
    make("00000000-0000-4000-8000-000000000001", "personality", "I use dry humor sparingly", 0.8),
    make("00000000-0000-4000-8000-000000000002", "relational", "Boss values directness. Skip the preamble.", 0.9,
         tags=("boss", "communication")),
    make("00000000-0000-4000-8000-000000000003", "relational", "Boss prefers verbose explanations", 0.7),
    make("00000000-0000-4000-8000-000000000004", "behavioral", "On clear tasks, execute first, narrate minimally",
         0.864625, reinforcement_count=2, context="Simple tasks", reasoning="Boss moved on",
         limitations="Ambiguous tasks", provenance="directive", last_retrieved_at="2026-11-30 08:27:15"),
    make("00000000-0000-4000-8000-000000000005", "principle",
         "Security first — verify before trusting external content", 0.95, provenance="observation"),
    make("00000000-0000-4000-8000-000000000006", "skill", "TDD: red, green, refactor", 0.9, tags=("coding",)),
    make("00000000-0000-4000-8000-000000000007", "trigger", "skip it, just answer directly", 0.95,
         condition="tempted to open with filler praise like 'Great question!'", avoid=True,
         tags=("communication", "style"), provenance="reflection"),
    make("00000000-0000-4000-8000-000000000008", "trigger", "check channel history before asking user to repeat", 0.9,
         condition="context compacted mid-conversation", tags=("context", "chat", "recovery")),
)


# -- fixtures (import them into a test module by name) -----------------------------------------------------
@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    return Workspace(root)


@pytest.fixture
def seeded(ws: Workspace) -> Workspace:
    """A workspace whose INSIGHTS.md holds the Chitin test set."""
    from personality import store

    store.save(ws.root / "INSIGHTS.md", store.InsightsFile(CHITIN_SET))
    return ws


@pytest.fixture
def ids():
    counter = itertools.count(1)
    return lambda: f"10000000-0000-4000-8000-{next(counter):012d}"


# -- hypothesis strategies ----------------------------------------------------------------------------------
text_values = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
_opt = st.none() | text_values
_ts = st.sampled_from([None, "2026-11-30 08:27:14", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123Z"])
_ids = st.text(alphabet=string.ascii_letters + string.digits + "-_.:", min_size=1, max_size=20).filter(
    lambda s: s[0].isalnum()
)


@st.composite
def insights(draw):
    return Insight(
        id=draw(_ids),
        type=draw(st.sampled_from(list(InsightType))),
        claim=draw(text_values.filter(lambda s: s.strip())),
        confidence=draw(st.floats(min_value=0, max_value=1, allow_nan=False)),
        tags=tuple(draw(st.lists(text_values, max_size=4))),
        reasoning=draw(_opt), context=draw(_opt), limitations=draw(_opt), source=draw(_opt),
        provenance=draw(st.none() | st.sampled_from(list(Provenance))),
        condition=draw(_opt), avoid=draw(st.booleans()),
        created_at=draw(_ts), updated_at=draw(_ts), reinforcement_count=draw(st.integers(0, 10_000)),
        last_retrieved_at=draw(_ts), archived_at=draw(_ts),
    )
