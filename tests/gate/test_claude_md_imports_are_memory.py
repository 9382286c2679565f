"""Claude Code loads the files a memory file imports (``@path`` lines in ``CLAUDE.md``, up to five hops) into the
model's memory exactly like the memory file itself. So a file that a memory file imports is memory: a write to it
gets the memory checks (here, arbitration against the user's directive), and an import line cannot turn an
ungated file into memory. Through the real gate, answers applied as Claude Code applies them."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import claude_write

DIRECTIVE = "- User said: never run `terraform destroy`, not even in sandbox accounts."
CONFLICT = "- Running terraform destroy in sandbox accounts is fine."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    install(root)
    (root / ".cuticle" / "config.toml").write_text(
        '[memory]\nglobs = ["MEMORY.md", "USER.md", "memory/**/*.md", "CLAUDE.md"]\n', encoding="utf-8")
    (root / "notes").mkdir()
    (root / "CLAUDE.md").write_text(f"# Project memory\n\n{DIRECTIVE}\n\n@notes/extra.md\n", encoding="utf-8")
    return root


def test_a_contradiction_written_to_an_imported_file_is_refused(ws: Path) -> None:
    ans = claude_write(ws, "notes/extra.md", f"{CONFLICT}\n")
    assert ans.blocked


def test_a_file_nothing_imports_is_not_memory(ws: Path) -> None:
    ans = claude_write(ws, "notes/other.md", f"{CONFLICT}\n")
    assert not ans.blocked


def test_the_contradiction_in_claude_md_itself_is_refused(ws: Path) -> None:
    text = (ws / "CLAUDE.md").read_text(encoding="utf-8")
    assert claude_write(ws, "CLAUDE.md", text + CONFLICT + "\n").blocked


def test_the_shell_cannot_write_an_imported_file_either(ws: Path) -> None:
    from rules.governance import evaluate_command
    from tiers.workspace import Workspace

    assert evaluate_command("echo '- x' >> notes/extra.md", Workspace(ws)).decision == "deny"
    assert evaluate_command("echo '- x' >> notes/other.md", Workspace(ws)).decision == "allow"
