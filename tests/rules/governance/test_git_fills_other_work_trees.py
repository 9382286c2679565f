"""git commands that fill, move, empty or narrow a work tree without switching commits write (or delete) every
file they put in (or take out): ``git worktree add/move/remove``, ``git sparse-checkout``, ``git submodule
add/update/deinit/foreach``, ``--recurse-submodules``, and ``git clone`` into a directory named after the URL.
A new work tree's files are listed from the local repository; a submodule's or clone's content comes from a remote,
so every protected path under its directory counts; sparse-checkout rules are git's to apply, so every protected
path the repository tracks counts.

Judged in real git repositories made in tmp dirs: ``feat`` checked out, ``mem`` changes MEMORY.md, ``src`` changes
src/app.py; submodules at ``memory/vendor`` (in reach of the memory globs) and ``vendor/lib``; a linked work tree
``wt`` on branch src."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from command_rows import GIT, assert_decision, git, git_repo, params
from rules.governance import evaluate_command
from tiers.workspace import Workspace


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Workspace:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    base = tmp_path_factory.mktemp("trees")
    lib = base / "lib"
    lib.mkdir()
    (lib / "README.md").write_text("a library\n", encoding="utf-8")
    git(lib, "init", "-q")
    git(lib, "add", "-A")
    git(lib, "commit", "-qm", "lib")
    root = git_repo(base / "ws", track_memory=True)
    git(root, "submodule", "add", "-q", str(lib), "vendor/lib")
    git(root, "submodule", "add", "-q", str(lib), "memory/vendor")
    git(root, "commit", "-qm", "submodules")
    git(root, "worktree", "add", "-q", "wt", "src")
    empty = subprocess.run(["git", "mktree"], cwd=root, input=b"", capture_output=True, check=True).stdout.strip()
    commit = subprocess.run([*GIT, "commit-tree", empty.decode(), "-m", "empty"], cwd=root, capture_output=True,
                            check=True).stdout.strip()
    git(root, "branch", "empty", commit.decode())  # a revision with no files at all
    return Workspace(root)


#: (id, expected decision, command, finding or None)
ROWS = [
    ("worktree-add-under-memory", "deny", "git worktree add memory/old mem", None),
    ("worktree-add-state-dir", "deny", "git worktree add .cuticle/wt mem", None),
    ("worktree-add-nested-benign", "allow", "git worktree add build/wt src", None),
    ("worktree-add-outside-benign", "allow", "git worktree add ../elsewhere mem", None),
    ("worktree-add-new-branch-under-memory", "deny", "git worktree add -b tmp1 memory/x", None),
    ("worktree-add-no-checkout-benign", "allow", "git worktree add --no-checkout build/empty mem", None),
    ("worktree-add-unknown-rev-under-memory", "deny", "git worktree add memory/x no-such-rev", None),
    ("worktree-add-empty-rev-under-memory-benign", "allow", "git worktree add memory/x empty", None),
    ("worktree-add-after-fetch", "deny", "git fetch origin && git worktree add memory/x empty", None),
    ("worktree-add-through-alias", "deny", "git -c alias.w='!git worktree add memory/old mem' w", None),
    ("worktree-add-through-xargs", "deny", "echo memory/old | xargs git worktree add", None),
    ("worktree-add-into-home-skills", "deny", "git worktree add ~/.claude/skills/x mem", None),
    ("worktree-move-into-memory", "deny", "git worktree move wt memory/wt", None),
    ("worktree-move-benign", "allow", "git worktree move wt build/wt2", None),
    ("worktree-remove-benign", "allow", "git worktree remove wt", None),
    ("worktree-list-benign", "allow", "git worktree list", None),
    ("worktree-prune-benign", "allow", "git worktree prune", None),
    ("sparse-set", "deny", "git sparse-checkout set src", None),
    ("sparse-set-no-cone", "deny", "git sparse-checkout set --no-cone /src/", None),
    ("sparse-add", "deny", "git sparse-checkout add memory", None),
    ("sparse-disable", "deny", "git sparse-checkout disable", None),
    ("sparse-reapply", "deny", "git sparse-checkout reapply", None),
    ("sparse-list-benign", "allow", "git sparse-checkout list", None),
    ("submodule-update-all", "deny", "git submodule update --init", None),
    ("submodule-update-memory", "deny", "git submodule update --init memory/vendor", None),
    ("submodule-update-other-benign", "allow", "git submodule update --init vendor/lib", None),
    ("submodule-update-remote-other-benign", "allow", "git submodule update --remote -- vendor", None),
    ("submodule-add-into-memory", "deny", "git submodule add https://example.com/x.git memory/x", None),
    ("submodule-add-named-after-url", "deny", "cd memory && git submodule add https://example.com/notes.git", None),
    ("submodule-add-benign", "allow", "git submodule add https://example.com/x.git vendor/x", None),
    ("submodule-deinit-memory", "deny", "git submodule deinit -f memory/vendor", None),
    ("submodule-deinit-all", "deny", "git submodule deinit --all", None),
    ("submodule-deinit-other-benign", "allow", "git submodule deinit vendor/lib", None),
    ("submodule-foreach-toplevel", "deny", "git submodule foreach 'echo x >> $toplevel/MEMORY.md'", None),
    ("submodule-foreach-cd-up", "deny", "git submodule foreach 'cd \"$toplevel\" && echo x >> USER.md'", None),
    ("submodule-foreach-in-memory", "deny", "git submodule foreach 'echo x > notes.md'", None),
    ("submodule-foreach-benign", "allow", "git submodule foreach 'git status --short'", None),
    ("submodule-status-benign", "allow", "git submodule status", None),
    ("submodule-sync-benign", "allow", "git submodule sync", None),
    ("checkout-recurse", "deny", "git checkout --recurse-submodules src", None),
    ("switch-recurse-by-setting", "deny", "git -c submodule.recurse=true switch src", None),
    ("checkout-recurse-by-bare-setting", "deny", "git -c submodule.recurse checkout src", None),
    ("checkout-recurse-turned-off-benign", "allow", "git -c submodule.recurse checkout --no-recurse-submodules src",
     None),
    ("checkout-no-recurse-benign", "allow", "git checkout src", None),
    ("clone-named-after-url", "deny", "git clone https://example.com/memory.git", None),
    ("clone-bundle-named-after-url", "deny", "cd memory && git clone /tmp/notes.bundle", None),
    ("clone-in-dash-c-directory", "deny", "git -C memory clone https://example.com/x.git", None),
    ("clone-outside-benign", "allow", "git clone https://example.com/x.git ../x", None),
    ("clone-named-benign", "allow", "git clone https://example.com/tool.git", None),
]


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_a_command_that_fills_or_empties_a_work_tree_writes_its_files(repo: Workspace, expect: str,
                                                                        command: str) -> None:
    assert_decision(repo, expect, command)


def test_a_sparse_checkout_in_a_repository_that_tracks_nothing_protected_is_allowed(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ws = Workspace(git_repo(tmp_path / "ws", track_memory=False))
    for command in ("git sparse-checkout set src", "git sparse-checkout disable"):
        ev = evaluate_command(command, ws)
        assert ev.decision == "allow", (command, ev.reason)


def test_a_new_work_tree_is_judged_by_the_files_of_its_revision(repo: Workspace) -> None:
    """``build/wt`` from mem holds MEMORY.md, which is no memory file of this workspace there; under memory/ it
    is, and the reason names the file."""
    ev = evaluate_command("git worktree add memory/old mem", repo)
    assert ev.decision == "deny" and "memory/old/" in ev.reason, ev.reason
    assert evaluate_command("git worktree add build/wt mem", repo).decision == "allow"
