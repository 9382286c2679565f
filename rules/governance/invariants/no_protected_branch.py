"""no-protected-branch: pushes, commits and deletions on protected branches.

## What it denies
Denies pushes to the policy's `protectedBranches` (built in: `main`, `master`) including `HEAD:main` and
`:master` refspecs, commits while one is checked out (read from `.git/HEAD`, or switched to earlier in the same
command), and deleting or renaming one.

## Why
Protected branches change through review, not through an agent's shell.

## Example
```sh
git switch main && git commit -am "quick fix"   # denied
git commit -m "fix: typo"                       # allowed on a feature branch
```

## How it is checked
`branch_in` below decides whether a branch name is protected; the functions after it judge a commit, a branch
deletion and a push once the walker knows which branch they act on. That part is the walker's, because it needs
the walking state: `git switch`/`checkout` earlier in the command line, the repository's checked-out branch, push
refspecs and `-C` directories (`rules/governance/analyze/git.py`).
"""

from __future__ import annotations

from ..paths import _combined
from . import Invariant, Violation

INVARIANT = Invariant("no-protected-branch", "pushes, commits and deletions on protected branches", __doc__)


def branch_in(branch: str, protected) -> bool:
    """``tiers.workspace.glob_match(b, protected)`` (any glob matches) as one combined regex."""
    b = branch[len("refs/heads/"):] if branch.startswith("refs/heads/") else branch
    return _combined(tuple(protected)).match(b)


def commit_on(branch: str | None, protected, segment: int = -1) -> Violation | None:
    """``git commit`` with ``branch`` checked out (None: not known)."""
    if not branch or not branch_in(branch, protected):
        return None
    return Violation(INVARIANT.id, f"git commit on the protected branch {branch}; commit on a feature branch "
                     "(git switch -c feat/…) and open a pull request", segment)


def branch_change(args: str, branch: str, protected, segment: int = -1) -> Violation | None:
    """``git branch ARGS`` deletes or moves ``branch`` (``-d``, ``-D``, ``-m``, ``-M``, ``-f``)."""
    if not branch_in(branch, protected):
        return None
    return Violation(INVARIANT.id, f"git branch {args} deletes or moves the protected branch {branch}; ask the user",
                     segment)


def push_every_branch(option: str, protected, segment: int = -1) -> Violation | None:
    """``git push --all`` / ``--mirror`` (``option``) pushes every branch, the protected ones with them."""
    for b in protected:
        return Violation(INVARIANT.id, f"git push --{option} also pushes the protected branch {b}; push your feature "
                         "branch by name", segment)
    return None


def push_prune(segment: int = -1) -> Violation:
    """``git push --prune`` deletes the remote branches that have no local counterpart."""
    return Violation(INVARIANT.id, "git push --prune deletes remote branches; push your branch by name", segment)


def push_to(args: str, dst: str, deleting: bool, protected, segment: int = -1) -> Violation | None:
    """``git push ARGS`` updates (or, ``deleting``, deletes) the remote branch ``dst``."""
    if not dst or not branch_in(dst, protected):
        return None
    what = "deletes the remote protected branch" if deleting else "pushes to the protected branch"
    return Violation(INVARIANT.id, f"git push {args} {what} {dst}; push a feature branch and open a pull request",
                     segment)
