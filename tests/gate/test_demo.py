"""`cuticle demo` is the README's main job: it passes from any directory, on the sample or on the user's own
workspace (with or without a MEMORY.md), and never touches the workspace it tours."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def _demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gate", "demo", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def _passed(proc: subprocess.CompletedProcess[str]) -> bool:
    return (proc.returncode == 0 and "all steps behaved as described" in proc.stdout and "FAIL" not in proc.stdout
            and proc.stderr == "")


def test_demo_tours_every_surface_checks_itself_and_keeps_its_copy_where_asked(workspace: Path, tmp_path: Path) -> None:
    before = _digest(workspace)
    proc = _demo("--workspace", str(workspace), "--keep", str(tmp_path / "kept"), cwd=tmp_path)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert _digest(workspace) == before, "the demo must work on a copy"
    assert (tmp_path / "kept" / "MEMORY.md").is_file() and (tmp_path / "kept" / ".cuticle").is_dir()


def test_demo_without_arguments_finds_the_sample_from_any_directory(tmp_path: Path) -> None:
    before = _digest(ROOT / "sample-workspace")
    proc = _demo(cwd=tmp_path)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "sample-workspace" in proc.stdout.splitlines()[0]
    assert _digest(ROOT / "sample-workspace") == before
    assert list(tmp_path.iterdir()) == []


def test_demo_of_the_current_directory_works_inside_the_workspace(workspace: Path) -> None:
    before = _digest(workspace)
    proc = _demo("--workspace", ".", cwd=workspace)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert _digest(workspace) == before


def test_demo_of_a_real_workspace_copies_only_its_memory(tmp_path: Path) -> None:
    """A real project: state, hooks, git data and code are neither copied nor changed; MEMORY.md may be missing."""
    project = tmp_path / "project"
    (project / ".cuticle").mkdir(parents=True)
    (project / ".cuticle" / "config.toml").write_text("[gate]\nserver = \"off\"\n", encoding="utf-8")
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("print('hi')\n", encoding="utf-8")
    (project / "USER.md").write_text("# USER.md\n\n- User said: call me Sam.\n", encoding="utf-8")
    before = _digest(project)
    proc = _demo("--workspace", ".", cwd=project)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "(1 file(s);" in proc.stdout.splitlines()[0]
    assert "no MEMORY.md" in proc.stdout
    assert _digest(project) == before


def test_demo_of_an_empty_directory_starts_a_memory_in_the_copy(empty_workspace: Path) -> None:
    proc = _demo("--workspace", str(empty_workspace), cwd=empty_workspace.parent)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert list(empty_workspace.iterdir()) == []


@pytest.mark.parametrize(("args", "message"), [
    (["--workspace", "nope"], "not a directory"),
    (["--workspace", "ws", "--keep", "ws"], "already exists"),
    (["--workspace", "ws", "--keep", "ws/inside"], "inside the workspace"),
], ids=["missing-workspace", "keep-exists", "keep-inside-the-workspace"])
def test_demo_refuses_bad_directories_with_a_usage_error(workspace: Path, args: list[str], message: str) -> None:
    before = _digest(workspace)
    proc = _demo(*args, cwd=workspace.parent)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert _digest(workspace) == before


def test_demo_without_a_sample_anywhere_says_how_to_name_one(tmp_path: Path) -> None:
    """An installed cuticle without its source tree: no sample beside it, none in the current directory."""
    pkg = tmp_path / "site"
    for name in ("gate", "tiers", "rules", "personality"):
        shutil.copytree(ROOT / name, pkg / name, ignore=shutil.ignore_patterns("__pycache__"))
    proc = subprocess.run([sys.executable, "-m", "gate", "demo"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(pkg)})
    assert proc.returncode == 2
    assert "--workspace DIR" in proc.stderr


def test_demo_quiet_prints_only_the_verdict(tmp_path: Path) -> None:
    proc = _demo("--quiet", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "all steps behaved as described\n", proc.stdout


def test_demo_does_not_follow_a_memory_symlink_out_of_the_workspace(tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("- token ghp_" + "a1B2c3D4e5" * 4 + "\n", encoding="utf-8")
    project = tmp_path / "project"
    (project / "memory").mkdir(parents=True)
    (project / "memory" / "2026-01-01.md").symlink_to(outside)
    (project / "MEMORY.md").write_text("# MEMORY.md\n", encoding="utf-8")
    proc = _demo("--workspace", str(project), cwd=tmp_path)
    assert _passed(proc), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "(1 file(s);" in proc.stdout.splitlines()[0] and "ghp_" not in proc.stdout


def test_demo_of_an_unreadable_memory_file_is_a_usage_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    project = tmp_path / "project"
    project.mkdir()
    (project / "MEMORY.md").write_text("# MEMORY.md\n", encoding="utf-8")
    (project / "MEMORY.md").chmod(0)
    proc = _demo("--workspace", str(project), cwd=tmp_path)
    assert proc.returncode == 2 and "cannot copy it" in proc.stderr
