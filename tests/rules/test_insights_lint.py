"""CU404: `cuticle lint` on a whole workspace also checks INSIGHTS.md, with the insights rule only."""

from __future__ import annotations

import json
from pathlib import Path

from gate.cli import main

ENTRY = """# Insights

## i-1
- type: behavioral
- claim: Lead with the command.
- confidence: {confidence}
- tags: ["style"]
- reinforcements: 0
- created: 2026-11-30 10:40:59
- updated: 2026-11-30 10:40:59
"""


def _lint(ws: Path, capsys) -> tuple[int, list[dict]]:
    code = main(["lint", "--workspace", str(ws), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["findings"]


def test_broken_insights_entry_fails_workspace_lint(empty_workspace: Path, capsys) -> None:
    (empty_workspace / "INSIGHTS.md").write_text(ENTRY.format(confidence="high"), encoding="utf-8")
    code, findings = _lint(empty_workspace, capsys)
    assert code == 1
    assert [(f["code"], f["path"], f["line"]) for f in findings] == [("CU404", "INSIGHTS.md", 6)]
    assert "confidence" in findings[0]["message"]


def test_valid_insights_file_is_not_linted_as_memory(empty_workspace: Path, capsys) -> None:
    # Two entries repeat "- type: behavioral": memory rules (duplicates) must not run on the insights file.
    text = ENTRY.format(confidence="0.8") + "\n" + ENTRY.format(confidence="0.7").split("\n", 2)[2].replace("i-1", "i-2")
    (empty_workspace / "INSIGHTS.md").write_text(text, encoding="utf-8")
    code, findings = _lint(empty_workspace, capsys)
    assert (code, findings) == (0, [])
