"""``fsutil.rewrite_file``: cuticle replaces a memory file only if it is still what it read, and never loses a
byte a host wrote meanwhile (hosts take no lock). Deterministic versions of the races the concurrency test
provokes at random."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tiers import fsutil
from tiers.fsutil import FileChanged, read_seen, replace_if_unchanged, rewrite_file


@pytest.fixture
def state(tmp_path: Path) -> tuple[Path, Path, Path]:
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"- a\n- b\n")
    return path, tmp_path / ".cuticle" / "locks" / "MEMORY.md.lock", tmp_path / ".cuticle" / "tmp"


def test_an_unchanged_file_is_replaced_and_nothing_is_left_beside_it(state) -> None:
    path, lock, scratch = state
    assert rewrite_file(path, lambda seen: seen.data.replace(b"- b\n", b""), lock_path=lock, scratch=scratch)
    assert path.read_bytes() == b"- a\n"
    assert sorted(p.name for p in path.parent.iterdir()) == [".cuticle", "MEMORY.md"]
    assert list(scratch.iterdir()) == []


def test_a_host_write_between_the_read_and_the_rename_is_kept(state) -> None:
    path, lock, scratch = state

    def change(seen):
        with open(path, "ab") as fh:  # the host appends while cuticle computes
            fh.write(b"- host\n")
        return b"- a\n"

    with pytest.raises(FileChanged):
        rewrite_file(path, change, lock_path=lock, scratch=scratch, attempts=1)
    assert path.read_bytes() == b"- a\n- b\n- host\n"


def test_a_changed_file_is_retried_on_its_new_content(state) -> None:
    path, lock, scratch = state
    calls = []

    def change(seen):
        calls.append(seen.data)
        if len(calls) == 1:
            with open(path, "ab") as fh:
                fh.write(b"- host\n")
        return seen.data.replace(b"- a\n", b"")

    rewrite_file(path, change, lock_path=lock, scratch=scratch)
    assert path.read_bytes() == b"- b\n- host\n"


def test_bytes_a_writer_puts_in_the_old_inode_after_the_check_are_recovered(state, monkeypatch) -> None:
    """The host opened the file before the rename and writes its second chunk just as cuticle renames: the
    bytes land in the old inode, which is put back in place."""
    path, _lock, scratch = state
    seen = read_seen(path)
    fh = open(path, "ab")  # noqa: SIM115 - the host's open file
    real_replace = os.replace

    raced = []

    def racing_replace(src, dst):
        if not raced:  # the rename of the new file; the put-back rename races nobody
            raced.append(True)
            fh.write(b"- second chunk\n")
            fh.flush()
        real_replace(src, dst)

    monkeypatch.setattr(fsutil.os, "replace", racing_replace)
    with pytest.raises(FileChanged):
        replace_if_unchanged(path, seen, b"- a\n", scratch=scratch)
    fh.close()
    assert path.read_bytes() == b"- a\n- b\n- second chunk\n"
    assert list(scratch.iterdir()) == []


def test_a_replaced_file_is_not_overwritten(state) -> None:
    path, _lock, scratch = state
    seen = read_seen(path)
    tmp = path.with_name("other")
    tmp.write_bytes(b"- a\n- b\n")  # same bytes, another inode: a host's atomic write
    os.replace(tmp, path)
    with pytest.raises(FileChanged):
        replace_if_unchanged(path, seen, b"- a\n", scratch=scratch)
    assert path.read_bytes() == b"- a\n- b\n"


def test_a_file_caught_half_written_is_left_alone(state) -> None:
    path, lock, scratch = state
    path.write_bytes(b"- a\n- b is being wri")  # just modified, no final line break
    fsutil.SETTLE_PAUSE, old = 0.2, fsutil.SETTLE_PAUSE
    import threading

    def finish():
        import time

        time.sleep(0.05)
        with open(path, "ab") as fh:
            fh.write(b"tten\n")

    t = threading.Thread(target=finish)
    t.start()
    try:
        with pytest.raises(FileChanged):
            rewrite_file(path, lambda seen: b"", lock_path=lock, scratch=scratch, attempts=1)
    finally:
        fsutil.SETTLE_PAUSE = old
        t.join()
    assert path.read_bytes() == b"- a\n- b is being written\n"


def test_a_settled_file_without_a_final_line_break_is_rewritten(state) -> None:
    path, lock, scratch = state
    path.write_bytes(b"- a\n- b")
    assert rewrite_file(path, lambda seen: b"- b", lock_path=lock, scratch=scratch) == b"- b"


def test_invalid_utf8_at_the_end_looks_torn(state) -> None:
    path, lock, scratch = state
    path.write_bytes("- a\n- é".encode()[:-1])
    with pytest.raises(FileChanged):
        rewrite_file(path, lambda seen: b"", lock_path=lock, scratch=scratch, attempts=1)


def test_temp_files_of_a_dead_process_are_cleaned_and_a_live_ones_kept(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    dead = scratch / "MEMORY.md.999999999.abcd1234.tmp"
    mine = scratch / f"MEMORY.md.{os.getppid()}.abcd1234.old"
    dead.write_bytes(b"x")
    mine.write_bytes(b"x")
    assert fsutil.clean_scratch(scratch) == 1
    assert not dead.exists() and mine.exists()


def test_a_torn_last_archive_line_does_not_swallow_the_next_record(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"id": "x"}\n{"id": "to')  # killed mid-append
    fsutil.append_jsonl(path, {"id": "y"})
    assert [r["id"] for r in fsutil.read_jsonl(path)] == ["x", "y"]


def test_gc_locks_and_temp_files_live_in_the_state_directory(tmp_path: Path) -> None:
    from tiers import stamps
    from tiers.gc import collect
    from tiers.session import start_session
    from tiers.workspace import Workspace

    root = tmp_path / "ws"
    (root / ".cuticle").mkdir(parents=True)
    ws = Workspace(root)
    line = stamps.apply_stamp("- Maybe x.", stamps.make_stamp("- Maybe x.", "H", 1, ws.key, ttl=1))
    (root / "MEMORY.md").write_text(f"# M\n{line}\n", encoding="utf-8")
    start_session(ws, "a")
    start_session(ws, "b")
    assert len(collect(ws).removed) == 1
    assert sorted(p.name for p in root.iterdir()) == [".cuticle", "MEMORY.md"]
    assert (root / ".cuticle" / "locks").is_dir()


def test_archiving_the_same_line_twice_keeps_one_record(tmp_path: Path) -> None:
    from tiers.gc import archive_once, archive_records
    from tiers.workspace import Workspace

    (tmp_path / ".cuticle").mkdir()
    ws = Workspace(tmp_path)
    rec = {"id": "abcde", "file": "MEMORY.md", "text": "- x", "stamp": "s", "reason": "r", "tier": "HYPOTHESIS"}
    assert archive_once(ws, [rec]) == 1
    assert archive_once(ws, [rec]) == 0
    assert len(archive_records(ws)) == 1
