"""`cuticle lint --fix` on a memory file it must not rewrite (a second hard link: the rename would fork the memory)
leaves every name as it was and says why, in one line on stderr, and exits 1 (docs/cli.md): a fix that was asked
for and not made is a result to act on, never a silent pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gate_helpers import install

MEMORY = "# Memory\n\n- Setup: c\u200burl the health page.\n"


def _lint_fix(ws: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gate", "lint", "--fix", "--workspace", str(ws), *extra],
                          capture_output=True, text=True, timeout=120)


def _hard_linked(tmp_path: Path) -> tuple[Path, Path, Path]:
    """An installed workspace whose MEMORY.md (with a fixable finding) has a second name outside it."""
    (tmp_path / "ws").mkdir()
    ws = install(tmp_path / "ws")
    path = ws / "MEMORY.md"
    path.write_text(MEMORY, encoding="utf-8")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    other = tmp_path / "shared-memory.md"
    os.link(path, other)
    return ws, path, other


def test_a_hard_linked_memory_file_is_left_with_a_one_line_reason(tmp_path: Path) -> None:
    ws, path, other = _hard_linked(tmp_path)
    out = _lint_fix(ws)
    reasons = [line for line in out.stderr.splitlines() if "hard link" in line]
    assert out.returncode == 1, out.stderr
    assert len(reasons) == 1 and "MEMORY.md" in reasons[0] and "not fixed" in reasons[0], out.stderr
    assert path.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == MEMORY
    assert os.stat(path).st_ino == os.stat(other).st_ino


def test_the_json_report_lists_the_file_it_left(tmp_path: Path) -> None:
    import json

    ws, _, _ = _hard_linked(tmp_path)
    out = _lint_fix(ws, "--format", "json")
    report = json.loads(out.stdout)
    assert out.returncode == 1
    assert [r["path"] for r in report["not_fixed"]] == ["MEMORY.md"] and "hard link" in report["not_fixed"][0]["reason"]


def test_once_the_second_name_is_gone_the_fix_is_made(tmp_path: Path) -> None:
    ws, path, other = _hard_linked(tmp_path)
    assert _lint_fix(ws).returncode == 1
    other.unlink()
    out = _lint_fix(ws)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "\u200b" not in path.read_text(encoding="utf-8")
