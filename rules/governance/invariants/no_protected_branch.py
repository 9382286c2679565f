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
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-protected-branch", "pushes, commits and deletions on protected branches", __doc__)
