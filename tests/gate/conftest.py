"""Fixtures of the gate tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # gate_helpers, importable without a tests package

from gate_helpers import install  # noqa: E402 - after the path entry that makes it importable


@pytest.fixture
def ws(workspace: Path) -> Path:
    """The sample workspace copy with an installed `.cuticle/` (a key and a config, as `cuticle init` leaves it)."""
    install(workspace)
    return workspace
