"""no-force-push: force pushes of any kind.

## What it denies
Denies `git push -f`, `--force`, `--force-with-lease`, `--force-if-includes`, `--mirror` and `+` refspecs on
any branch, through any wrapper (`git -C`, `bash -lc`, `timeout`).

## How it is checked
The walker (`rules/governance/analyze/git.py`) reads a push's flags and refspecs through every wrapper; `force_push`
below gives the denial.

## Why
A force push rewrites history other people (and other agents) have already fetched.

## Example
```sh
git push origin +feat/cleanup   # denied
git push -u origin feat/search  # allowed
```
"""

from __future__ import annotations

from . import Invariant, Violation

INVARIANT = Invariant("no-force-push", "force pushes of any kind", __doc__)

#: the push flags that force (``--mirror`` included: it overwrites every remote ref)
FORCE_FLAGS = frozenset({"f", "force", "force-with-lease", "force-if-includes", "mirror"})


def force_push(args: str, flags: list[str], refspecs: list[str], force_flags=FORCE_FLAGS,
               segment: int = -1) -> Violation | None:
    """``git push ARGS`` with these flags (short ones as letters, long ones without dashes) and refspecs forces
    when a flag is one of ``force_flags`` or a refspec starts with ``+``."""
    if any(r.startswith("+") for r in refspecs):
        how = "a '+' refspec"
    else:
        first = next((f for f in flags if f in force_flags), None)
        if first is None:
            return None
        how = "--force" if first == "f" else "--" + first
    return Violation(INVARIANT.id, f"git push {args} is a force push ({how}); push without force, or ask the user",
                     segment)
