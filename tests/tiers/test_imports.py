"""Files the hosts' instruction files import (``@path`` lines) are memory files of the workspace."""

from __future__ import annotations

import pytest

from tiers.imports import imports_in
from tiers.workspace import Workspace

IMPORT_LINES = [
    ("@notes/extra.md", ["notes/extra.md"]),
    ("- see @docs/rules.md for the rules", ["docs/rules.md"]),
    ("@./local.md and @../up.md", ["./local.md", "../up.md"]),
    ("@~/.claude/prefs.md", ["~/.claude/prefs.md"]),
    ("write to ops@example.com", []),  # an e-mail address
    ("ask @alice", []),  # a handle, not a path
    ("`@notes/in-code.md` is how you import", []),  # a code span
    ("the file @notes/end.md.", ["notes/end.md"]),  # sentence punctuation is not part of the path
]


@pytest.mark.parametrize(("line", "expected"), IMPORT_LINES, ids=[x[0] for x in IMPORT_LINES])
def test_import_operands(line, expected):
    assert imports_in(line) == expected


def test_imports_in_a_fenced_block_are_no_imports():
    assert imports_in("```\n@notes/a.md\n```\n@notes/b.md\n") == ["notes/b.md"]


@pytest.fixture
def ws(tmp_path):
    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "config.toml").write_text('[memory]\nglobs = ["MEMORY.md", "CLAUDE.md"]\n',
                                                       encoding="utf-8")
    (tmp_path / "notes").mkdir()
    return Workspace(tmp_path)


def test_an_imported_file_and_what_it_imports_are_memory(ws):
    (ws.root / "CLAUDE.md").write_text("# Project\n\n@notes/a.md\n", encoding="utf-8")
    (ws.root / "notes" / "a.md").write_text("@b.md\n", encoding="utf-8")
    assert ws.is_memory_file("notes/a.md") and ws.is_memory_file("notes/b.md")
    assert not ws.is_memory_file("notes/c.md")
    assert "notes/a.md" in {p.relative_to(ws.root).as_posix() for p in ws.memory_files()}


def test_a_new_import_is_seen_on_the_next_call(ws):
    (ws.root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    assert not ws.is_memory_file("notes/a.md")
    (ws.root / "CLAUDE.md").write_text("# Project\n\n@notes/a.md\n", encoding="utf-8")
    assert ws.is_memory_file("notes/a.md")


def test_an_importer_that_is_not_a_memory_file_imports_nothing(ws):
    (ws.root / "GEMINI.md").write_text("@notes/a.md\n", encoding="utf-8")  # not in [memory] globs here
    assert not ws.is_memory_file("notes/a.md")


def test_imports_outside_the_workspace_or_into_state_are_ignored(ws):
    (ws.root / "CLAUDE.md").write_text("@../outside.md\n@.cuticle/key\n", encoding="utf-8")
    assert ws.memory_imports() == frozenset()
