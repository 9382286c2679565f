"""`cuticle demo` is the README's main job: it must pass on the sample workspace and leave it untouched."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path



def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def test_demo_tours_every_surface_and_checks_itself(workspace: Path, tmp_path: Path) -> None:
    before = _digest(workspace)
    proc = subprocess.run([sys.executable, "-m", "gate", "demo", "--workspace", str(workspace)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "all steps behaved as described" in proc.stdout
    assert "FAIL" not in proc.stdout
    assert _digest(workspace) == before, "the demo must work on a copy"


def test_demo_refuses_a_missing_workspace(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "gate", "demo", "--workspace", str(tmp_path / "nope")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "not a directory" in proc.stderr
