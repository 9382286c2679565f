"""Shared fixtures: every test that touches files works on a copy under tmp_path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample-workspace"
DATA = ROOT / "benchmarks" / "data"  # development data kept in the repository


@pytest.fixture(autouse=True)
def _no_background_server(monkeypatch):
    """`cuticle init` turns the hook's background server on; a test suite must not leave servers behind, so every
    hook a test runs answers in-process unless the test asks for a server (tests/gate/test_serve.py)."""
    monkeypatch.setenv("CUTICLE_SERVER", "off")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A fresh copy of sample-workspace/ (without any state it may have)."""
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".cuticle"))
    return dest


@pytest.fixture
def empty_workspace(tmp_path: Path) -> Path:
    dest = tmp_path / "empty"
    dest.mkdir()
    return dest
