"""The agent's shell cannot switch the gate off or throw memory away wholesale: uninstalling cuticle's hooks or
the package, deleting the stamp key with git's cleaner, or resetting the work tree over uncommitted memory lines
are denied; the same commands aimed away from protected paths stay allowed. Judged in a git work tree made as a
user would have it (everything committed, ``.cuticle/`` as ``cuticle init`` leaves it, its key ignored)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace

GIT = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t"]

#: (id, expected decision, command, finding or None)
ROWS = [
    ("cuticle-uninstall", "deny", "cuticle uninstall claude .", None),
    ("python-m-gate-uninstall", "deny", "python -m gate uninstall claude .", None),
    ("pip-uninstall-cuticle", "deny", "pip uninstall -y cuticle", None),
    ("cuticle-lint-benign", "allow", "cuticle lint", None),
    ("pip-uninstall-benign", "allow", "pip uninstall -y requests", None),
    ("git-clean-ignored", "deny", "git clean -fdx", None),
    ("git-clean-only-ignored", "deny", "git clean -fdX", None),
    ("git-clean-state-dir", "deny", "git clean -fx .cuticle", None),
    ("git-clean-build-benign", "allow", "git clean -fdx build", None),
    ("git-clean-untracked-benign", "allow", "git clean -fd", None),
    ("git-clean-dry-run-benign", "allow", "git clean -nx", None),
    ("git-clean-state-glob", "deny", "git clean -fx -- '.cu*'", None),
    ("chmod-recursive-root", "deny", "chmod -R 000 .", None),
    ("chmod-recursive-no-read", "deny", "chmod -R a-r .", None),
    ("chmod-memory-dir", "deny", "chmod -R 000 memory", None),
    ("chmod-recursive-benign", "allow", "chmod -R a-w build", None),
    ("git-checkout-dot", "deny", "git checkout .", None),
    ("git-restore-dot", "deny", "git restore .", None),
    ("git-reset-hard", "deny", "git reset --hard", None),
    ("git-checkout-memory", "deny", "git checkout -- MEMORY.md", None),
    ("git-restore-src-benign", "allow", "git restore src", None),
    ("git-restore-memory-dir", "deny", "git restore --source HEAD~1 -- .", None),
    ("git-reset-soft-benign", "allow", "git reset --soft HEAD", None),
    ("git-checkout-src-benign", "allow", "git checkout -- src", None),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Workspace:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = sample_workspace(tmp_path_factory.mktemp("switchoff") / "ws")
    (root / ".cuticle" / "config.toml").write_text("", encoding="utf-8")
    (root / ".cuticle" / ".gitignore").write_text("*\n!.gitignore\n!config.toml\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "init"], cwd=root, check=True)
    with open(root / "MEMORY.md", "a", encoding="utf-8") as fh:  # an uncommitted memory line
        fh.write("- Staging runs on Postgres 16.\n")
    return Workspace(root)


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_the_shell_cannot_switch_the_gate_off(repo: Workspace, expect: str, command: str) -> None:
    assert_decision(repo, expect, command)


def test_git_clean_really_removes_the_key_and_the_gate_then_checks_nothing(tmp_path: Path) -> None:
    """Why git clean matters: the stamp key is ignored, so ``git clean -x`` deletes it, and a workspace without a
    key is not installed (docs/gate.md, rule 1)."""
    from tiers import discover
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".cuticle").mkdir()
    (root / ".cuticle" / "key").write_text("3f" * 32 + "\n", encoding="ascii")
    (root / ".cuticle" / "config.toml").write_text("", encoding="utf-8")
    (root / ".cuticle" / ".gitignore").write_text("*\n!.gitignore\n!config.toml\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "init"], cwd=root, check=True)
    assert discover.is_installed(root)
    subprocess.run(["git", "clean", "-fdxq"], cwd=root, check=True)
    assert not discover.is_installed(root)
