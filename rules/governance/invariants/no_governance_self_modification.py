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

from . import Invariant

INVARIANT = Invariant("no-governance-self-modification", "writes to the policy, .cuticle/ or a host's hook settings; any read of the stamp key or server token", __doc__)
