"""A memory file with another name — a symbolic link (a MEMORY.md shared from a dotfiles repository, a worktree's
link) or a hard link — keeps every name when cuticle rewrites it (GC, ``lint --fix``, stamping, restore).

A symbolic link stays a link: the change goes to the file it points to when that lies inside the workspace, and a
link out of the workspace is left as it is (cuticle never writes outside the workspace; replacing the link by a
regular file would fork the user's memory in two). A hard link (``ln MEMORY.md ~/notes/MEMORY.md``) is refused:
a rewrite renames a new file over one name and leaves the other names the old content, so cuticle refuses with a
one-line reason naming the file and what to do and leaves every name as it was (docs/gate.md, "No line is lost");
cuticle's own second link to the file during a rewrite, or one a killed run left, is not a user's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tiers import gc
from tiers.errors import WorkspaceError
from tiers.fsutil import memory_state_paths
from tiers.gc import rewrite_memory
from tiers.model import Tier
from tiers.session import current_session, end_session
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

OLD = b"# Memory\n\n- Old: staging runs on Redis.\n- Keep: the deploy runs on Fridays.\n"
NEW = b"# Memory\n\n- Keep: the deploy runs on Fridays.\n"


def _drop_old(seen) -> bytes:
    return seen.data.replace(b"- Old: staging runs on Redis.\n", b"")


def _settled(path: Path) -> None:
    os.utime(path, (1_700_000_000, 1_700_000_000))


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    (tmp_path / "ws").mkdir()
    w = Workspace(tmp_path / "ws")
    w.ensure_state()
    return w


def _memory(ws: Workspace, data: bytes = OLD) -> Path:
    path = ws.root / "MEMORY.md"
    path.write_bytes(data)
    _settled(path)
    return path


@pytest.mark.parametrize("where", ["inside", "outside"], ids=["other-name-inside", "other-name-outside"])
def test_a_hard_linked_memory_file_is_refused_and_both_names_keep_their_content(
        ws: Workspace, tmp_path: Path, where: str) -> None:
    path = _memory(ws)
    other = (ws.root / "notes" / "copy.md") if where == "inside" else (tmp_path / "shared-memory.md")
    other.parent.mkdir(exist_ok=True)
    os.link(path, other)
    with pytest.raises(WorkspaceError) as err:
        rewrite_memory(ws, "MEMORY.md", _drop_old)
    message = str(err.value)
    assert "\n" not in message and "MEMORY.md" in message and "2 names (hard links)" in message
    assert "left as it is" in message
    assert path.read_bytes() == other.read_bytes() == OLD
    assert os.stat(path).st_ino == os.stat(other).st_ino  # still one file
    assert not list(memory_state_paths(ws.state_dir, "MEMORY.md")[1].iterdir())  # no temp file or link left


def test_once_the_other_name_is_gone_the_file_is_rewritten(ws: Workspace, tmp_path: Path) -> None:
    path = _memory(ws)
    other = tmp_path / "shared-memory.md"
    os.link(path, other)
    with pytest.raises(WorkspaceError):
        rewrite_memory(ws, "MEMORY.md", _drop_old)
    other.unlink()
    assert rewrite_memory(ws, "MEMORY.md", _drop_old) == NEW
    assert path.read_bytes() == NEW


def test_a_second_link_a_killed_rewrite_left_is_not_a_users_name(ws: Workspace) -> None:
    path = _memory(ws)
    scratch = memory_state_paths(ws.state_dir, "MEMORY.md")[1]
    scratch.mkdir(parents=True, exist_ok=True)
    os.link(path, scratch / f"MEMORY.md.{2 ** 22 + 7}.deadbeef.old")  # what a SIGKILL between link and rename leaves
    assert rewrite_memory(ws, "MEMORY.md", _drop_old) == NEW
    assert path.read_bytes() == NEW


def test_gc_leaves_a_hard_linked_file_whole_and_reports_why(ws: Workspace, tmp_path: Path) -> None:
    hyp = "- Probably the cache is cold on Mondays."
    stamp = make_stamp(hyp, Tier.HYPOTHESIS, current_session(ws), ws.key, ttl=1)
    text = f"# Notes\n- User said: never deploy on Fridays.\n{apply_stamp(hyp, stamp)}\n".encode()
    path = _memory(ws, text)
    other = tmp_path / "shared-memory.md"
    os.link(path, other)
    for sid in ("a", "b", "c"):
        end_session(ws, sid)
    report = gc.collect(ws)
    assert report.removed == []
    assert any("MEMORY.md" in e and "hard links" in e for e in report.errors), report.errors
    assert path.read_bytes() == other.read_bytes() == text
    other.unlink()
    assert [r.text for r in gc.collect(ws).removed] == [apply_stamp(hyp, stamp)]  # archived once, then removed
    assert len(gc.archive_records(ws)) == 1


@pytest.mark.parametrize("absolute", [True, False], ids=["absolute-link", "relative-link"])
def test_a_link_inside_the_workspace_is_rewritten_through(ws: Workspace, absolute: bool) -> None:
    real = ws.root / "shared" / "memory.md"
    real.parent.mkdir()
    real.write_bytes(OLD)
    _settled(real)
    link = ws.root / "MEMORY.md"
    link.symlink_to(real if absolute else Path("shared") / "memory.md")
    assert rewrite_memory(ws, "MEMORY.md", _drop_old) == NEW
    assert link.is_symlink()
    assert real.read_bytes() == NEW


@pytest.mark.parametrize("absolute", [True, False], ids=["absolute-link", "relative-link"])
def test_a_link_out_of_the_workspace_is_left_as_it_is(ws: Workspace, tmp_path: Path, absolute: bool) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes(OLD)
    _settled(outside)
    link = ws.root / "MEMORY.md"
    link.symlink_to(outside if absolute else Path("..") / "elsewhere.md")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        rewrite_memory(ws, "MEMORY.md", _drop_old)
    assert link.is_symlink()
    assert outside.read_bytes() == OLD


def test_a_regular_file_is_rewritten_as_before(ws: Workspace) -> None:
    path = ws.root / "MEMORY.md"
    path.write_bytes(OLD)
    _settled(path)
    assert rewrite_memory(ws, "MEMORY.md", _drop_old) == NEW
    assert path.read_bytes() == NEW and not path.is_symlink()


def test_a_folder_linked_out_of_the_workspace_is_left_as_it_is(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "2026-05-01.md").write_bytes(OLD)
    _settled(outside / "2026-05-01.md")
    (ws.root / "memory").symlink_to(outside)
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        rewrite_memory(ws, "memory/2026-05-01.md", _drop_old)
    assert (outside / "2026-05-01.md").read_bytes() == OLD
