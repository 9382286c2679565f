"""Fixtures of the gate tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # gate_helpers, importable without a tests package


@pytest.fixture
def ws(workspace: Path) -> Path:
    """The sample workspace copy with an installed `.cuticle/` (a key and a config, as `cuticle init` leaves it)."""
    install(workspace)
    return workspace


def install(root: Path) -> Path:
    """Make ``root`` an installed workspace the way `cuticle init` does for the hook: `.cuticle/` with a key and a
    config.toml (without touching a host's settings)."""
    state = root / ".cuticle"
    state.mkdir(exist_ok=True)
    if not (state / "key").exists():
        (state / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    if not (state / "config.toml").exists():
        (state / "config.toml").write_text("", encoding="utf-8")
    return root
