"""An active user directive cannot be hidden by a change of Markdown shape: an edit that turns its line into an
indented code block (four spaces or a tab after a blank line) takes it out of the constraints just as deleting
it would, so it is refused as ``binding-line-removed``; and after any edit the gate allows, the directive still
blocks a contradiction. Through the real gate, answers applied as Claude Code applies them."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory
from hostsim import claude_edit

DIRECTIVE = TERRAFORM_RULE
CONFLICT = TERRAFORM_FLIP


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return installed_with_memory(tmp_path, f"# Memory\n\n## Rules\n\n{DIRECTIVE}\n\n## Notes\n")


HIDINGS = {
    "indented-code-no-marker": ("    " + DIRECTIVE[2:], None),
    "indented-code-with-marker": ("    " + DIRECTIVE, None),
    "tab-indented-code": ("\t" + DIRECTIVE[2:], None),
    "fenced": ("```\n" + DIRECTIVE + "\n```", None),
    "html-comment": ("<!--\n" + DIRECTIVE + "\n-->", None),
}


def _params():
    for hid, (new, finding) in HIDINGS.items():
        marks = [pytest.mark.xfail(strict=True, reason=f"finding {finding}")] if finding else []
        yield pytest.param(new, id=hid, marks=marks)


@pytest.mark.parametrize("new", list(_params()))
def test_a_directive_cannot_be_hidden_by_a_change_of_shape(ws: Path, new: str) -> None:
    hide = claude_edit(ws, "MEMORY.md", DIRECTIVE, new)
    if not hide.blocked:
        # allowed: then the directive must still be in force
        assert claude_edit(ws, "MEMORY.md", "## Notes\n", f"## Notes\n{CONFLICT}\n").blocked
    else:
        assert "binding-line-removed" in hide.reason


def test_the_directive_blocks_a_contradiction_before_any_edit(ws: Path) -> None:
    assert claude_edit(ws, "MEMORY.md", "## Notes\n", f"## Notes\n{CONFLICT}\n").blocked
