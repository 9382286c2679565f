"""A memory file reached under another name is still that memory file: a symbolic link or a hard link to it,
written with Claude Code's Write or Edit, gets every check the memory file gets. Through the real gate, answers
applied as Claude Code applies them (in place, so a hard link shares the write)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gate_helpers import TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory
from hostsim import claude_edit, claude_write

DIRECTIVE = TERRAFORM_RULE
CONFLICT = TERRAFORM_FLIP


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, f"# Memory\n\n{DIRECTIVE}\n\n## Notes\n")


def _alias(ws: Path, kind: str) -> str:
    if kind == "symlink":
        os.symlink("MEMORY.md", ws / "notes.md")
    else:
        os.link(ws / "MEMORY.md", ws / "notes.md")
    return "notes.md"


@pytest.mark.parametrize("kind", [
    "symlink", "hardlink"])
def test_an_edit_through_an_alias_is_checked_as_the_memory_file(ws: Path, kind: str) -> None:
    before = (ws / "MEMORY.md").read_bytes()
    ans = claude_edit(ws, _alias(ws, kind), "## Notes\n", f"## Notes\n{CONFLICT}\n")
    assert ans.blocked
    assert (ws / "MEMORY.md").read_bytes() == before


@pytest.mark.parametrize("kind", [
    "symlink", "hardlink"])
def test_a_whole_file_write_through_an_alias_is_checked_as_the_memory_file(ws: Path, kind: str) -> None:
    rel = _alias(ws, kind)
    before = (ws / "MEMORY.md").read_text(encoding="utf-8")
    ans = claude_write(ws, rel, before + CONFLICT + "\n")
    assert ans.blocked
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before


def test_a_plain_markdown_file_that_is_no_alias_is_not_memory(ws: Path) -> None:
    # its own inode, not a memory glob: nothing to refuse
    (ws / "notes.md").write_text("# notes\n", encoding="utf-8")
    ans = claude_edit(ws, "notes.md", "# notes\n", f"# notes\n{CONFLICT}\n")
    assert not ans.blocked and ans.applied
