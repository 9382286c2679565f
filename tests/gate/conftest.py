"""Fixtures of the gate tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # gate_helpers, importable without a tests package


@pytest.fixture
def ws(workspace: Path) -> Path:
    """The sample workspace copy with an initialised `.cuticle/` state directory."""
    (workspace / ".cuticle").mkdir(exist_ok=True)
    return workspace
