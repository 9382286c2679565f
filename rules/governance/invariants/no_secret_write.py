"""no-secret-write: writes to credential files (.env, keys, secrets and credentials files).

## What it denies
Denies shell writes, in-place edits and links to credential files: `.env` and `.env.*` (templates such as
`.env.example` excepted), `~/.ssh/`, `*secrets*.{yml,yaml,json}`, `credentials` and `credentials.*`, key files
(`*.pem`, `*.key`, `id_rsa*`, `id_ed25519*`, `id_ecdsa*`) and the usual credential stores in the home directory.
It holds whatever the policy file says, so a broken policy does not open them.

## Why
Credentials are the user's to change; an agent that rewrites one can lock the user out or plant a key.

## Example
```sh
tee -a config/secrets.yml <<< "api_key: x"   # denied
echo x >> docs/secrets-handling.md            # allowed: a document, not a secrets file
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-secret-write", "writes to credential files (.env, keys, secrets and credentials files)", __doc__)
