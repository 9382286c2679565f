"""Shared scaffolding of the table-driven shell tests: rows of (id, expected decision, command, finding), a copy of
the sample workspace installed with a stamp key and the starter policy, and the one assertion every row makes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules.governance import evaluate_command
from tiers.workspace import Workspace

ROOT = Path(__file__).resolve().parents[3]
KEY = "3f" * 32


def sample_workspace(root: Path) -> Path:
    """The sample workspace copied to ``root``, with a stamp key and the starter policy."""
    from rules.governance.policy import STARTER_POLICY

    shutil.copytree(ROOT / "sample-workspace", root)
    (root / ".cuticle").mkdir()
    (root / ".cuticle" / "key").write_text(KEY + "\n", encoding="ascii")
    shutil.copyfile(STARTER_POLICY, root / "chitin.yaml")
    return root


def params(rows) -> list:
    """``rows`` of (id, expect, command, finding) as parameters (expect, command); a finding not fixed yet is a
    strict xfail, so fixing it shows."""
    out = []
    for rid, expect, cmd, finding in rows:
        marks = [pytest.mark.xfail(strict=True, reason=f"finding {finding}")] if finding else []
        out.append(pytest.param(expect, cmd, id=f"{rid}-{expect}", marks=marks))
    return out


def assert_decision(ws: Workspace, expect: str, command: str) -> None:
    """``command`` gets ``expect``; a deny names a real rule with a reason (not the default deny or a crash)."""
    ev = evaluate_command(command, ws)
    assert ev.decision == expect, (ev.rule, ev.reason)
    if expect == "deny":
        assert ev.reason and ev.rule not in ("default-deny", "internal-error")
