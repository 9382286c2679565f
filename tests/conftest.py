"""Shared fixtures: every test that touches files works on a copy under tmp_path.

The suite runs in parallel by default: with pytest-xdist installed (the ``test`` extra), ``python -m pytest`` starts
one worker per CPU (``-n auto``) and hands out whole test files (``--dist loadfile``, in collection order), so a
module-scoped fixture (one real OpenClaw or ``claude -p`` session in tests/hosts, say) is built once. ``-n 0`` or
``-p no:xdist`` runs the suite serially; an explicit ``-n N`` or ``--dist MODE`` wins. (Not ``loadgroup``: with
pytest 9.2 its ``xdist_group`` marks are silently ignored, as pytest-xdist 3.8 renames a node id pytest no longer
reads.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample-workspace"
DATA = ROOT / "benchmarks" / "data"  # development data kept in the repository


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Parallel by default, unless the command line says otherwise; runs before pytest-xdist's own hook, which turns
    "auto" into the CPU count."""
    if not config.pluginmanager.hasplugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return  # serial by request (-p no:xdist), xdist not installed, or this is a worker itself
    opt = config.option
    if opt.numprocesses is None and not opt.distload and not config.getoption("usepdb", False):
        opt.numprocesses = "auto"
        if opt.dist == "no":
            opt.dist = "loadfile"
            # collection order puts the slow files (docs, gate, hosts) first and the many quick ones last, where
            # they even out the workers' finish; reordering by test count would start with the quick ones
            opt.loadscopereorder = False


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
