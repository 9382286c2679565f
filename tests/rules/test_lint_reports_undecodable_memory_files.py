"""`cuticle lint` on a memory file that is not UTF-8 (a Latin-1 ``USER.md`` from an old editor) reports that file
and still lints the others, in every output format; it never crashes with an internal error, and ``--fix``
leaves the file's bytes alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

LATIN1_USER = "# User\n\n- User said: call me Alex.\n- caf\xe9 latin-1 line\n".encode("latin-1")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".cuticle").mkdir()
    (root / ".cuticle" / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    (root / ".cuticle" / "config.toml").write_text("", encoding="utf-8")
    (root / "MEMORY.md").write_text("# Memory\n\n- User said: never deploy on Fridays.\n", encoding="utf-8")
    (root / "USER.md").write_bytes(LATIN1_USER)
    return root


def _lint(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gate", "lint", *args, str(ws)], capture_output=True, text=True,
                          cwd=ws, timeout=120)


@pytest.mark.xfail(strict=True, reason="finding R12-15")
@pytest.mark.parametrize("args", [(), ("--format", "json"), ("--format", "sarif"), ("--fix",)],
                         ids=["text", "json", "sarif", "fix"])
def test_a_latin1_memory_file_is_reported_not_a_crash(ws: Path, args: tuple[str, ...]) -> None:
    proc = _lint(ws, *args)
    assert "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert "USER.md" in proc.stdout + proc.stderr
    assert (ws / "USER.md").read_bytes() == LATIN1_USER


def test_a_utf8_workspace_lints_cleanly(ws: Path) -> None:
    (ws / "USER.md").write_text("# User\n\n- User said: call me Alex.\n", encoding="utf-8")
    proc = _lint(ws)
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr, proc.stderr
