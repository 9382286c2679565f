"""Fixtures for the personality tests: a workspace, a seeded workspace, deterministic ids."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from personality_data import CHITIN_SET

from tiers.workspace import Workspace


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
