"""no-force-push: force pushes of any kind.

## What it denies
Denies `git push -f`, `--force`, `--force-with-lease`, `--force-if-includes`, `--mirror` and `+` refspecs on
any branch, through any wrapper (`git -C`, `bash -lc`, `timeout`).

## Why
A force push rewrites history other people (and other agents) have already fetched.

## Example
```sh
git push origin +feat/cleanup   # denied
git push -u origin feat/search  # allowed
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-force-push", "force pushes of any kind", __doc__)
