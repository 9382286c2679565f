"""no-permission-escalation: sudo and friends, chmod 777 / setuid, chown root.

## What it denies
Denies `sudo`, `doas`, `su`, `pkexec` and the like however they are wrapped, `chmod 777` (also `-R`),
setuid/setgid modes (`u+s`, `4755`), and writes to account or sudo files (`/etc/sudoers`, `/etc/passwd`).

## Why
An agent never needs more privileges than the user gave it; a world-writable or setuid file outlives the
session.

## Example
```sh
env DEBUG=1 sudo systemctl restart nginx   # denied
chmod +x scripts/release.sh                # allowed
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-permission-escalation", "sudo and friends, chmod 777 / setuid, chown root", __doc__)
