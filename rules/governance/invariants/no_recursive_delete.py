"""no-recursive-delete: recursive delete outside the allowed build and temp dirs.

## What it denies
Denies `rm -r`, `find … -delete`, `rsync --delete`-style sweeps and disk wipers (`mkfs`, `dd of=/dev/sda`)
anywhere but the policy's `allowedDeletePaths` under the workspace root (built in: `build/`, `dist/`, `out/`,
`tmp/`). The home directory, system paths and anything reached through `..` are outside the workspace.

## How it is checked
The walker (`rules/governance/analyze`) turns `rm -r`, `find -delete` and the like into delete effects on resolved
paths; `recursive_delete` below judges each, `disk_wiper` the wiping tools.

## Why
One wrong path or an unset variable (`rm -rf "$DIR/"`) loses work that no undo brings back.

## Example
```sh
rm -rf ~/projects            # denied: the home directory
rm -rf build/ dist/ tmp/     # allowed: the workspace's build and temp dirs
```
"""

from __future__ import annotations

import functools

from ..paths import glob_in
from . import Invariant, Violation

INVARIANT = Invariant("no-recursive-delete", "recursive delete outside the allowed build and temp dirs", __doc__)

_WHERE = {"ws": "inside the workspace but outside the allowed dirs", "home": "in the home directory",
          "abs": "outside the workspace", "unknown": "at a path that is only known at run time"}


@functools.lru_cache(maxsize=64)
def _allowed_dirs_text(delete_allowed: tuple[str, ...]) -> str:
    """The policy's allowed delete dirs as the reason lists them (one text per policy, not one join per denial)."""
    return ", ".join(d.rstrip("/") + "/" for d in delete_allowed) or "none"


def recursive_delete(ref, how: str, delete_allowed: tuple[str, ...], segment: int = -1) -> Violation | None:
    """``how`` deletes ``ref`` recursively: allowed only strictly inside one of the policy's ``delete_allowed``
    dirs of the workspace (a find filter narrows what is deleted but not where)."""
    if ref.scope == "ws" and ref.rel not in (None, "", ".") and glob_in(ref.rel, delete_allowed):
        return None
    return Violation(INVARIANT.id, f"{how} recursively deletes {ref.display} ({_WHERE[ref.scope]}); recursive "
                     f"deletes are allowed only under {_allowed_dirs_text(tuple(delete_allowed))}. Delete specific "
                     "files, or ask the user", segment)


def device_write(target: str, segment: int = -1) -> Violation:
    """``dd of=/dev/…``: writing a block device wipes the disk."""
    return Violation(INVARIANT.id, f"dd writes the device {target}; that wipes a disk", segment)


def disk_wiper(tool: str, segment: int = -1) -> Violation:
    """``tool`` (``mkfs*``, ``wipefs``, ``shred`` of a device…) wipes a disk or filesystem whatever its arguments."""
    return Violation(INVARIANT.id, f"'{tool}' wipes a disk or filesystem; never run it from an agent", segment)
