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
`branch_in` below decides whether a branch name is protected, on its own. Which branch a command acts on is the
walker's part, because it needs the walking state: `git switch`/`checkout` earlier in the command line, the
repository's checked-out branch, push refspecs and `-C` directories (`rules/governance/analyze/git.py`).
"""

from __future__ import annotations

from ..paths import _combined
from . import Invariant

INVARIANT = Invariant("no-protected-branch", "pushes, commits and deletions on protected branches", __doc__)


def branch_in(branch: str, protected) -> bool:
    """``tiers.workspace.glob_match(b, protected)`` (any glob matches) as one combined regex."""
    b = branch[len("refs/heads/"):] if branch.startswith("refs/heads/") else branch
    return _combined(tuple(protected)).match(b) is not None
