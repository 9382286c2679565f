"""no-governance-self-modification: writes to the policy, .cuticle/ or a host's hook settings; any read of the stamp key or server token.

## What it denies
Denies every write, delete, move, link or in-place edit of cuticle's own files: the policy (`chitin.yaml` or
the configured path), everything under `.cuticle/`, and the hosts' hook settings (`.claude/settings*.json`,
`.codex/`, `.gemini/settings.json`, `.cursor/hooks.json`, `.github/hooks/`, `.git/hooks/`, OpenClaw's config
and extensions), by any command, through any spelling the effect model resolves (globs, braces, variables,
substitutions, `cd` chains, functions, aliases, interpreter code, archives and patches). Also denies any read of
the stamp key (`.cuticle/key`) or the local server's token (`.cuticle/serve.json`) by any command, whole-tree
readers that would include them (`tar -c .`, `cp -r .`, `grep -r . .`) unless they exclude `.cuticle`, and links
to them.

## Why
An agent that can change the policy or the hooks can turn the gate off; one that can read the key can forge
stamps that make its own lines look like the user's.

## Example
```sh
cd .cuticle && sort key                   # denied: a read of the key
tar -czf /tmp/ws.tgz --exclude=.cuticle .   # allowed
```
"""

from __future__ import annotations

from ..paths import STATE_SECRETS
from . import Invariant, Violation

INVARIANT = Invariant("no-governance-self-modification", "writes to the policy, .cuticle/ or a host's hook settings; any read of the stamp key or server token", __doc__)


def file_tool_write(tool: str, op: str, what: str) -> Violation:
    """A file tool (``Write``, ``Edit``, ``apply_patch``…) that writes, deletes or moves onto ``what``, one of
    cuticle's own files. (Shell commands are checked by the effect model as it walks them.)"""
    verb = {"delete": "deletes", "move": "moves a file onto"}.get(op, "writes")
    return Violation(INVARIANT.id, f"{tool} {verb} {what}; the policy, cuticle's state and hook settings are "
                     "changed only by the user")


def state_secret_touch(effects, tool: str) -> Violation | None:
    """The first effect of a call, by any tool, on the stamp key or the server token (a path ending in
    ``.cuticle/key`` or ``.cuticle/serve.json``, wherever the workspace is)."""
    for eff in effects:
        if eff.kind != "path" or not eff.target:
            continue
        target = eff.target.rstrip("/").lower()
        if ".cuticle/" in target and any(target == s or target.endswith("/" + s) for s in STATE_SECRETS):
            verb = "reads" if eff.type == "read" else "touches"
            return Violation(INVARIANT.id, f"{tool} {verb} {eff.target}, cuticle's stamp key or server token; with "
                             "it an agent could forge stamps or answers, so only cuticle itself reads it")
    return None
