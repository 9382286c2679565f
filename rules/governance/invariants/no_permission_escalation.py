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

## How it is checked
`mode_danger` and `owner_danger` below decide a chmod mode and a chown/chgrp owner, `account_file_write` a write
effect on an account file; `elevated` and `privilege_tool` give the denial for an escalation wrapper or tool the
walker (`rules/governance/analyze`) finds as it looks through wrappers, and it reads the mode or owner out of the
unwrapped command's words (`rules/governance/analyze/files.py`).
"""

from __future__ import annotations

from tiers.lazy import LazyRe

from . import Invariant, Violation

INVARIANT = Invariant("no-permission-escalation", "sudo and friends, chmod 777 / setuid, chown root", __doc__)

_ACCOUNT_FILES = ("/etc/passwd", "/etc/shadow", "/etc/group")


def elevated(head: str, segment: int = -1) -> Violation:
    """``head`` (``sudo``, ``doas``, ``pkexec``…) runs the command it wraps with elevated privileges."""
    return Violation(INVARIANT.id, f"'{head}' runs a command with elevated privileges; agents never escalate. "
                     "Ask the user to run it", segment)


def privilege_tool(tool: str, segment: int = -1) -> Violation:
    """``tool`` (``su``, ``passwd``, ``usermod``, ``visudo``…) changes privileges or accounts by itself."""
    return Violation(INVARIANT.id, f"'{tool}' changes privileges or accounts; ask the user", segment)


def mode_change(tool: str, mode: str, danger: str, segment: int = -1) -> Violation:
    """``chmod MODE`` or ``chown``/``chgrp`` whose ``danger`` (``mode_danger``, ``owner_danger``) escalates."""
    return Violation(INVARIANT.id, f"{tool} {mode if tool == 'chmod' else ''} {danger}; use chmod +x or 755/644 "
                     "instead".replace("  ", " "), segment)


def account_file_write(ref, how: str, segment: int = -1) -> Violation | None:
    """``how`` writes an account or sudo file (``/etc/sudoers*``, ``/etc/passwd``, ``/etc/shadow``,
    ``/etc/group``)."""
    if ref.abs and (ref.abs.startswith("/etc/sudoers") or ref.abs in _ACCOUNT_FILES):
        return Violation(INVARIANT.id, f"{how} writes {ref.display}; editing account or sudo files escalates "
                         "privileges", segment)
    return None


_OCTAL_MODE = LazyRe(r"[0-7]{3,4}")
_MODE_CLAUSE = LazyRe(r"([ugoa]*)([+=-])([rwxXst]*)")


def mode_danger(mode: str) -> str | None:
    """What a chmod ``mode`` (octal or symbolic) escalates (setuid/setgid, world-writable), or None."""
    if not mode:
        return None
    if _OCTAL_MODE.fullmatch(mode):
        digits = mode.zfill(4)
        special, other = int(digits[0]), int(digits[3])
        if special & 6:
            return "sets setuid/setgid"
        if other & 2:
            return "makes files world-writable"
        return None
    for clause in mode.split(","):
        m = _MODE_CLAUSE.fullmatch(clause)
        if not m:
            continue
        who, op, perms = m.groups()
        if op == "-":
            continue
        if "s" in perms and (not who or "u" in who or "g" in who or "a" in who):
            return "sets setuid/setgid"
        if "w" in perms and ("o" in who or "a" in who):
            return "makes files world-writable"
    return None


def owner_danger(tool: str, owner: str) -> str | None:
    """What a ``chown``/``chgrp`` to ``owner`` escalates (root or an admin group gets ownership), or None."""
    user, _, group = owner.replace(".", ":").partition(":")
    if tool == "chgrp":
        user, group = "", owner
    if user in ("root", "0") or group in ("root", "0", "wheel", "sudo", "admin"):
        return f"gives {owner or 'root'} ownership"
    return None
