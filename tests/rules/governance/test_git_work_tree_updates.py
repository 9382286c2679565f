"""git commands that update the work tree from another commit write every file git would change: a branch that
changes a memory file or the policy cannot be merged, checked out, cherry-picked, reverted or rebased onto by the
agent's shell, while a branch that changes only source files can. When the files cannot be known (a pull, a
revision that does not resolve, a sequence in progress, a chain that moves HEAD first) the command counts as
writing every protected path the repository tracks: denied when memory is tracked, allowed when it is not.

Judged in real git repositories made in tmp dirs: ``feat`` (checked out), ``mem`` (one commit on top that changes
MEMORY.md), ``pol`` (changes the policy), ``src`` (changes src/app.py only)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from command_rows import assert_decision, git, git_repo, params, sample_workspace
from rules.governance import evaluate_command
from tiers.workspace import Workspace

@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Workspace:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return Workspace(git_repo(tmp_path_factory.mktemp("worktree") / "ws", track_memory=True))


@pytest.fixture(scope="module")
def untracked(tmp_path_factory) -> Workspace:
    """The same branches, but memory and the policy are ignored: git tracks no protected path on feat."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = git_repo(tmp_path_factory.mktemp("untracked") / "ws", track_memory=False)
    return Workspace(root)


#: (id, expected decision, command, finding or None), in the repository that tracks memory
ROWS = [
    ("merge-memory-branch", "deny", "git merge mem", None),
    ("merge-policy-branch", "deny", "git merge --no-edit pol", None),
    ("merge-squash-memory", "deny", "git merge --squash mem", None),
    ("merge-octopus", "deny", "git merge src mem", None),
    ("merge-source-branch-benign", "allow", "git merge src", None),
    ("merge-ff-only-benign", "allow", "git merge --ff-only src", None),
    ("merge-unknown-rev", "deny", "git merge no-such-branch", None),
    ("merge-continue-benign", "allow", "git merge --continue", None),
    ("pull", "deny", "git pull", None),
    ("pull-rebase", "deny", "git pull --rebase origin main", None),
    ("fetch-benign", "allow", "git fetch origin", None),
    ("fetch-then-merge", "deny", "git fetch origin && git merge src", None),
    ("cherry-pick-memory", "deny", "git cherry-pick mem", None),
    ("cherry-pick-no-commit", "deny", "git cherry-pick -n mem", None),
    ("cherry-pick-range", "deny", "git cherry-pick feat..mem", None),
    ("cherry-pick-source-benign", "allow", "git cherry-pick src", None),
    ("cherry-pick-continue", "deny", "git cherry-pick --continue", None),
    ("revert-memory", "deny", "git revert --no-edit mem", None),
    ("revert-source-benign", "allow", "git revert --no-edit src", None),
    ("rebase-onto-memory", "deny", "git rebase mem", None),
    ("rebase-onto-option", "deny", "git rebase --onto pol feat", None),
    ("rebase-branch-arg", "deny", "git rebase src mem", None),
    ("rebase-source-benign", "allow", "git rebase src", None),
    ("rebase-exec-writes-memory", "deny", "git rebase -x 'echo x >> MEMORY.md' src", None),
    ("rebase-exec-benign", "allow", "git rebase --exec 'make test' src", None),
    ("rebase-continue", "deny", "git rebase --continue", None),
    ("checkout-memory-branch", "deny", "git checkout mem", None),
    ("switch-policy-branch", "deny", "git switch pol", None),
    ("switch-detach-memory", "deny", "git switch --detach mem", None),
    ("checkout-new-branch-at-memory", "deny", "git checkout -b other mem", None),
    ("switch-create-at-memory", "deny", "git switch -c other mem", None),
    ("checkout-source-branch-benign", "allow", "git checkout src", None),
    ("checkout-new-branch-benign", "allow", "git checkout -b feat/new", None),
    ("switch-create-benign", "allow", "git switch -c feat/new", None),
    ("checkout-orphan-benign", "allow", "git checkout --orphan fresh", None),
    ("checkout-file-benign", "allow", "git checkout src/app.py", None),
    ("checkout-memory-file", "deny", "git checkout MEMORY.md", None),
    ("checkout-unknown-rev", "deny", "git checkout no-such-branch", None),
    ("reset-keep-memory", "deny", "git reset --keep mem", None),
    ("reset-merge-benign", "allow", "git reset --merge src", None),
    ("repo-named-by-option", "deny", "git --git-dir=.git merge src", None),
    ("commit-then-checkout", "deny", "git commit -qam wip && git checkout src", None),
    ("fetch-then-reset-hard", "deny", "git fetch origin && git reset --hard src", None),
    ("repo-named-by-env", "deny", "GIT_DIR=/tmp/other.git git merge src", None),
    ("repo-named-by-env-wrapper", "deny", "env GIT_DIR=/tmp/other.git git merge src", None),
    ("work-tree-elsewhere-benign", "allow", "git --work-tree=/tmp/elsewhere merge mem", None),
    ("rebase-exec-cluster", "deny", "git rebase -ix 'echo x >> MEMORY.md' src", None),
    ("rebase-exec-equals", "deny", "git rebase --exec='echo x >> MEMORY.md' src", None),
    ("read-tree-then-checkout-index", "deny", "git read-tree mem && git checkout-index -a -f", None),
    ("read-tree-update", "deny", "git read-tree -u -m mem", None),
    ("checkout-index-memory", "deny", "git checkout-index -f MEMORY.md", None),
    ("checkout-index-prefix-memory", "deny", "git checkout-index -a --prefix=memory/", None),
    ("checkout-index-prefix-build-benign", "allow", "git checkout-index -a --prefix=build/", None),
    ("merge-file-memory", "deny", "git merge-file MEMORY.md /tmp/base /tmp/other", None),
    ("merge-file-stdout-benign", "allow", "git merge-file -p MEMORY.md /tmp/base /tmp/other", None),
    ("bisect-start", "deny", "git bisect start mem feat", None),
    ("bisect-log-benign", "allow", "git bisect log", None),
    ("alias-to-merge", "deny", "git -c alias.m=merge m mem", None),
    ("loop-over-branches", "deny", "for b in src mem; do git merge $b; done", None),
    ("unknown-directory", "deny", 'cd "$D" && git pull', None),
    ("branch-force-then-merge", "deny", "git branch -f src mem && git merge src", None),
    ("tag-force-then-merge", "deny", "git tag -f v1 mem && git merge v1", None),
    ("update-ref-then-checkout", "deny", "git update-ref refs/heads/src mem && git checkout src", None),
    ("stash-checkout-pop-benign", "allow", "git stash && git checkout src && git stash pop", None),
    ("new-branch-then-merge-benign", "allow", "git checkout -b topic && git merge src", None),
]


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_a_work_tree_update_writes_what_git_would_change(repo: Workspace, expect: str, command: str) -> None:
    assert_decision(repo, expect, command)


@pytest.mark.parametrize("command", ["git pull", "git pull --rebase", "git merge no-such-branch", "git merge mem",
                                     "git rebase --continue", "git checkout pol"])
def test_a_repository_that_tracks_no_protected_path_is_unaffected(untracked: Workspace, command: str) -> None:
    """mem and pol add MEMORY.md/chitin.yaml with ``git add -f``, so only feat tracks nothing protected: a merge of
    mem is still a known write of MEMORY.md, a pull or an unknown revision is not."""
    ev = evaluate_command(command, untracked)
    expect = "deny" if command in ("git merge mem", "git checkout pol") else "allow"
    assert ev.decision == expect, (ev.rule, ev.reason)


def test_a_work_tree_update_outside_any_repository_writes_nothing(tmp_path: Path) -> None:
    root = sample_workspace(tmp_path / "ws")
    for command in ("git pull", "git merge mem", "git checkout main", "git rebase origin/main"):
        ev = evaluate_command(command, Workspace(root))
        assert ev.decision == "allow", (command, ev.reason)


def test_the_reason_for_an_unknown_update_says_what_would_be_allowed(repo: Workspace) -> None:
    ev = evaluate_command("git pull", repo)
    assert ev.decision == "deny"
    assert "git fetch" in ev.reason and "git diff --name-only" in ev.reason and "ask the user" in ev.reason
    assert "MEMORY.md" in ev.reason or "chitin.yaml" in ev.reason or ".cuticle" in ev.reason


def test_the_listing_sees_a_branch_as_it_is_when_the_hook_runs(repo: Workspace, tmp_path: Path) -> None:
    """The answer depends on the repository, so it is never memoized: src moved to a memory change is denied."""
    root = Path(repo.root)
    assert evaluate_command("git merge src", repo).decision == "allow"
    git(root, "branch", "-f", "src2", "src")
    assert evaluate_command("git merge src2", repo).decision == "allow"
    git(root, "branch", "-f", "src2", "mem")
    assert evaluate_command("git merge src2", repo).decision == "deny"


def test_git_missing_counts_as_every_protected_path_in_reach(repo: Workspace, monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    ev = evaluate_command("git merge src", repo)
    assert ev.decision == "deny", ev.reason


def test_a_slow_git_counts_as_unknown(repo: Workspace, monkeypatch) -> None:
    from rules.governance.analyze import worktree

    def slow(*args, **kwargs):
        raise subprocess.TimeoutExpired("git", worktree.GIT_TIMEOUT)

    monkeypatch.setattr(subprocess, "run", slow)  # worktree imports subprocess when it runs git
    ev = evaluate_command("git cherry-pick src", repo)
    assert ev.decision == "deny", ev.reason


@pytest.mark.parametrize("protected", ["MEMORY.md", "memory/2026/x.md", "Memory.MD", "chitin.yaml", "deep/.cuticle/x",
                                       ".claude/skills/s/SKILL.md", ".github/hooks/h.json", None])
@pytest.mark.parametrize("nested", [False, True], ids=["repo-is-workspace", "workspace-inside-repo"])
def test_the_tracked_protected_paths_are_found_without_listing_the_tree(tmp_path: Path, protected, nested) -> None:
    """``git ls-files`` narrowed by the protected globs finds the same first protected path as the whole listing
    checked file by file, also when the workspace is a directory inside the repository."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from rules.governance.analyze.worktree import tracked_protected
    from rules.governance.paths import Env

    top = tmp_path / "repo"
    root = top / "ws" if nested else top
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    if protected:
        (root / protected).parent.mkdir(parents=True, exist_ok=True)
        (root / protected).write_text("x\n", encoding="utf-8")
    git(top, "init", "-q")
    git(top, "add", "-A")
    env = Env.build(str(root))
    found = tracked_protected(env, str(top))
    if protected is None:
        assert found == ""
    else:
        assert found and found.lower() == protected.lower()


@pytest.mark.parametrize("name", ["memory/заметки.md", 'memory/a "quoted"\tname.md', "memory/plain.md"])
def test_a_memory_file_with_any_name_is_seen_in_git_output(tmp_path: Path, name: str) -> None:
    """git C-quotes names with non-ASCII, quote or control characters; the listing reads them as the files they
    are, so a branch changing ``memory/заметки.md`` cannot be merged."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = sample_workspace(tmp_path / "ws")
    (root / ".cuticle" / ".gitignore").write_text("*\n", encoding="utf-8")
    (root / name).write_text("- a note\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    git(root, "checkout", "-q", "-b", "notes")
    with open(root / name, "a", encoding="utf-8") as fh:
        fh.write("- planted\n")
    git(root, "commit", "-qam", "notes")
    git(root, "checkout", "-q", "feat")
    for command in ("git merge notes", "git cherry-pick notes", "git reset --hard notes"):
        ev = evaluate_command(command, Workspace(root))
        assert ev.decision == "deny", (command, ev.reason)
