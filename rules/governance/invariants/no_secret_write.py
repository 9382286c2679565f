"""no-secret-write: writes to credential files (.env, keys, secrets and credentials files).

## What it denies
Denies shell writes, in-place edits and links to credential files, and writes to them by the hosts' file tools
(`Write`, `Edit`, `apply_patch`…: one protected set for every tool): `.env` and `.env.*` (templates such as
`.env.example` excepted), `~/.ssh/`, `*secrets*.{yml,yaml,json}`, `credentials` and `credentials.*`, key files
(`*.pem`, `*.key`, `id_rsa*`, `id_ed25519*`, `id_ecdsa*`) and the usual credential stores in the home directory.
It holds whatever the policy file says, so a broken policy does not open them.

## How it is checked
`credential_write` below judges each write effect the walker (`rules/governance/analyze`) resolves; a target
only known at run time that may be a credential file is judged by `unknown_target` (`_targets.py`); a file
tool's target paths are judged by the same function in `evaluate.analyze_call`.

## Why
Credentials are the user's to change; an agent that rewrites one can lock the user out or plant a key.

## Example
```sh
tee -a config/secrets.yml <<< "api_key: x"   # denied
echo x >> docs/secrets-handling.md            # allowed: a document, not a secrets file
```
"""

from __future__ import annotations

from . import Invariant, Violation

INVARIANT = Invariant("no-secret-write", "writes to credential files (.env, keys, secrets and credentials files)", __doc__)

#: what every denial of this invariant tells the agent
FIX = "credentials are changed by the user; ask them (templates such as .env.example are fine)"


def credential_write(env, ref, how: str, segment: int = -1) -> Violation | None:
    """``how`` (a redirection, ``tee``, ``sed -i``…) writes ``ref``, a credential file (``Env.is_credential``:
    the credential globs less the templates)."""
    if not env.is_credential(ref):
        return None
    return Violation(INVARIANT.id, f"{how} writes {ref.display}, a credential file; " + FIX, segment)
