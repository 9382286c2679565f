"""Fixtures for governance tests: a workspace with no git repository and no policy file (starter policy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.governance.evaluate import evaluate_command
from tiers.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Memory\n- User said: tabs\n", encoding="utf-8")
    return Workspace(root)


@pytest.fixture
def decide(ws):
    def run(command: str, **kw):
        return evaluate_command(command, ws, **kw)
    return run
