"""A rewrite (GC, `lint --fix`, stamping) never acts on a file a host is still writing in chunks, wherever a chunk
ends: at a line break the torn file looks complete, so what is checked is whether a writer is still on it. A real
second process writes part of the file, sleeps, writes the rest; no line may be lost or torn."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiers.fsutil import FileChanged, rewrite_file

FIRST = "# Memory\n\n- Old: staging runs on Redis.\n- The deploy runs on Fridays.\n"
REST = "- The cache is warmed at 06:00.\n- Backups are kept for 30 days.\n"

WRITER = r"""
import sys, time
path, first, rest = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
with open(path, "wb", buffering=0) as fh:  # one open file, two writes: how a host streams a large write
    fh.write(first)
    time.sleep(1.5)
    fh.write(rest)
"""


def _drop_old(seen) -> bytes:
    """What GC does: remove one whole line, keep every other byte."""
    return b"".join(ln for ln in seen.data.splitlines(keepends=True) if not ln.startswith(b"- Old:"))


@pytest.fixture
def state(tmp_path: Path):
    scratch = tmp_path / "state" / "tmp"
    scratch.mkdir(parents=True)
    return tmp_path / "MEMORY.md", tmp_path / "state" / "MEMORY.md.lock", scratch


@pytest.mark.parametrize("cut", [len(FIRST), len(FIRST) - 9], ids=["at-a-line-break", "inside-a-line"])
def test_a_file_a_writer_is_still_writing_is_left_alone(state, cut: int) -> None:
    path, lock, scratch = state
    whole = FIRST + REST
    first, rest = whole[:cut], whole[cut:]
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), first, rest])
    try:
        deadline = time.monotonic() + 10
        while not (path.exists() and path.read_text(encoding="utf-8") == first):
            assert time.monotonic() < deadline, "the writer never wrote its first chunk"
            time.sleep(0.01)
        with pytest.raises(FileChanged):
            rewrite_file(path, _drop_old, lock_path=lock, scratch=scratch, attempts=1)
    finally:
        assert writer.wait(timeout=30) == 0
    assert path.read_text(encoding="utf-8") == whole  # nothing lost, nothing torn
    assert list(scratch.iterdir()) == []


def test_the_file_is_rewritten_once_the_writer_is_done(state) -> None:
    path, lock, scratch = state
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), FIRST, REST])
    assert writer.wait(timeout=30) == 0
    new = rewrite_file(path, _drop_old, lock_path=lock, scratch=scratch, attempts=1)  # just written, no writer left
    assert new is not None
    assert path.read_text(encoding="utf-8") == FIRST.replace("- Old: staging runs on Redis.\n", "") + REST


OPENER = r"""
import sys, time
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    open(sys.argv[1], "ab").close()
"""

PROBER = r"""
import sys, time
from pathlib import Path
from tiers.fsutil import open_for_writing
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    open_for_writing(Path(sys.argv[1]))
print("alive")
"""


def test_asking_whether_a_writer_is_on_the_file_never_ends_the_process(tmp_path: Path) -> None:
    """A writer opening the file while the probe holds its lease makes the kernel signal the prober: that signal
    must not be one that ends the process (a host's write would kill the hook or GC mid-way)."""
    path = tmp_path / "MEMORY.md"
    path.write_text("- a\n", encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    openers = [subprocess.Popen([sys.executable, "-c", OPENER, str(path), "3"]) for _ in range(2)]
    try:
        probe = subprocess.run([sys.executable, "-c", PROBER, str(path), "2"], capture_output=True, text=True,
                               cwd=root, timeout=60)
    finally:
        for p in openers:
            p.wait(timeout=30)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "alive"
