"""The OpenClaw plugin's own tests (Node's built-in runner, fake `api`), run from pytest so one command covers all."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "gate" / "openclaw"


def test_openclaw_plugin_node_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the OpenClaw plugin tests need Node's built-in test runner")
    env = {**os.environ, "CUTICLE_PYTHON": sys.executable}
    proc = subprocess.run([node, "--test", "test/"], cwd=PLUGIN, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
    assert "# skipped 0" in proc.stdout, "the real-gate tests were skipped"


def test_plugin_files_ship_as_package_data():
    for name in ("package.json", "openclaw.plugin.json", "index.js", "__init__.py"):
        assert (PLUGIN / name).is_file(), name
    from gate.hosts.openclaw import PLUGIN_DIR

    assert PLUGIN_DIR == PLUGIN
