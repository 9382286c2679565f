"""``mv DIR NEW`` and ``cp -r DIR NEW`` to a new name put DIR's files under NEW: each is judged at the path it lands
on (``mv build/notes memory/x`` writes memory/x/*.md), a directory not on disk now (made earlier in the same
command, or only known when it runs) counts as any file under NEW, and a plain file is the write of NEW alone."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace

#: (id, expected decision, command, finding or None)
ROWS = [
    ("move-notes-dir-into-memory", "deny", "mv build/notes memory/x", None),
    ("copy-notes-dir-into-memory", "deny", "cp -r build/notes memory/x", None),
    ("archive-copy-into-memory", "deny", "cp -a build/notes memory/x", None),
    ("made-then-moved", "deny", "mkdir -p build/y && mv build/y memory/y", None),
    ("unknown-dir-moved", "deny", 'mv "$D" memory/x', None),
    ("source-dir-into-memory-benign", "allow", "mv build/src memory/src", None),
    ("file-into-memory-name-benign", "allow", "mv build/src/app.py memory/app", None),
    ("notes-dir-elsewhere-benign", "allow", "cp -r build/notes backup/notes", None),
    ("memory-backed-up-benign", "allow", "cp -a memory backup/memory", None),
    ("plain-copy-of-dir-fails-benign", "allow", "cp build/notes memory/x", None),
]


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    root = sample_workspace(tmp_path_factory.mktemp("trees") / "ws")
    (root / "build" / "notes" / "deep").mkdir(parents=True)
    (root / "build" / "notes" / "deep" / "a.md").write_text("- a note\n", encoding="utf-8")
    (root / "build" / "src").mkdir()
    (root / "build" / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    return Workspace(root)


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_a_moved_or_copied_directory_writes_the_files_it_lands(ws: Workspace, expect: str, command: str) -> None:
    assert_decision(ws, expect, command)
