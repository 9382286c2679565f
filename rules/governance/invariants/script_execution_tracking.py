"""script-execution-tracking: downloaded, decoded or computed code executed.

## What it denies
Denies downloaded or decoded content run as code: `curl … | sh`, `bash <(curl …)`, `eval "$(… | base64 -d)"`,
a file downloaded earlier in the same command and then run, `python3 -c "exec(base64.b64decode(…))"`, hex- or
`pack`-decoded code (`bytes.fromhex`, `perl -e 'eval pack "H*", …'`), and a command name that comes from such
content. An unknown program named by a variable (`"$EDITOR" notes.txt`, `$PYTHON -m pytest`) is not one of
these: it is an ordinary exec.

## Why
Code that nobody read, fetched or unpacked at run time, is the usual way a prompt injection becomes an action.

## Example
```sh
echo ZWNobyB4 | base64 -d | sh   # denied
$PYTHON -m pytest                # allowed
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("script-execution-tracking", "downloaded, decoded or computed code executed", __doc__)
