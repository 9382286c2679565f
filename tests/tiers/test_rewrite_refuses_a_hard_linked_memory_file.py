"""A memory file with more than one name (a hard link: ``ln MEMORY.md ../shared/MEMORY.md``) is never split by a
rewrite. GC, ``lint --fix``, stamping and restore replace a file by renaming a new one over it, which gives that
name a new inode and leaves every other name the old content: the memory would fork in two. So cuticle refuses,
with a one-line reason naming the file and what to do, and leaves every name as it was (docs/gate.md, "No line is
lost"). cuticle's own second link to the file during a rewrite, or one a killed run left, is not a user's name."""

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
