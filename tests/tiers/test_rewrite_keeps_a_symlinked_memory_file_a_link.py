"""A memory file that is a symbolic link (a MEMORY.md shared from a dotfiles repository, a worktree's link) stays
a link when cuticle rewrites it: the change goes to the file it points to when that lies inside the workspace, and
a link out of the workspace is left as it is (cuticle never writes outside the workspace, and replacing the link
by a regular file would fork the user's memory in two)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tiers.errors import WorkspaceError
from tiers.gc import rewrite_memory
from tiers.workspace import Workspace

OLD = b"# Memory\n\n- Old: staging runs on Redis.\n- Keep: the deploy runs on Fridays.\n"
NEW = b"# Memory\n\n- Keep: the deploy runs on Fridays.\n"


def _drop_old(seen) -> bytes:
    return seen.data.replace(b"- Old: staging runs on Redis.\n", b"")


def _settled(path: Path) -> None:
    os.utime(path, (1_700_000_000, 1_700_000_000))


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / ".cuticle").mkdir(parents=True)
    return Workspace(root)


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
