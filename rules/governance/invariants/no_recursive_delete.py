"""no-recursive-delete: recursive delete outside the allowed build and temp dirs.

## What it denies
Denies `rm -r`, `find … -delete`, `rsync --delete`-style sweeps and disk wipers (`mkfs`, `dd of=/dev/sda`)
anywhere but the policy's `allowedDeletePaths` under the workspace root (built in: `build/`, `dist/`, `out/`,
`tmp/`). The home directory, system paths and anything reached through `..` are outside the workspace.

## Why
One wrong path or an unset variable (`rm -rf "$DIR/"`) loses work that no undo brings back.

## Example
```sh
rm -rf ~/projects            # denied: the home directory
rm -rf build/ dist/ tmp/     # allowed: the workspace's build and temp dirs
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-recursive-delete", "recursive delete outside the allowed build and temp dirs", __doc__)
