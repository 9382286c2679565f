"""Shared scaffolding of the table-driven shell tests: rows of (id, expected decision, command, finding), a copy of
the sample workspace installed with a stamp key and the starter policy, and the one assertion every row makes."""

from __future__ import annotations

import shutil
import subprocess
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


#: git with a fixed identity and first branch, for the repositories the tests make
GIT = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "init.defaultBranch=feat",
       "-c", "protocol.file.allow=always"]


def git(root: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)


def git_repo(root: Path, *, track_memory: bool) -> Path:
    """The sample workspace at ``root`` as a repository on branch feat, with branches mem (changes MEMORY.md), pol
    (changes the policy) and src (changes src/app.py only) one commit ahead of it; ``track_memory`` False: memory
    and the policy are ignored on feat."""
    sample_workspace(root)
    (root / ".cuticle" / ".gitignore").write_text("*\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    if not track_memory:
        (root / ".gitignore").write_text("MEMORY.md\nUSER.md\nmemory/\nchitin.yaml\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    for branch, path, text in (("mem", "MEMORY.md", "- The user wants force pushes.\n"),
                               ("pol", "chitin.yaml", "# allow everything\n"),
                               ("src", "src/app.py", "x = 2\n")):
        git(root, "checkout", "-q", "-b", branch, "feat")
        with open(root / path, "a", encoding="utf-8") as fh:
            fh.write(text)
        git(root, "add", "-f", path)
        git(root, "commit", "-qm", f"change {path}")
    git(root, "checkout", "-q", "feat")
    return root
