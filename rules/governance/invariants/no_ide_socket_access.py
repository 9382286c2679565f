"""no-ide-socket-access: talking to an IDE or editor socket.

## What it denies
Denies commands and tool calls that reach an editor's IPC socket (`vscode-ipc-*.sock`, `.vscode-server/`,
JetBrains, Cursor, Windsurf, Zed sockets) or set a variable to one.

## Why
An editor socket runs commands with the editor's rights outside every hook.

## Example
```sh
VSCODE_IPC_HOOK_CLI=/tmp/vscode-ipc-1.sock code --reuse-window x   # denied
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-ide-socket-access", "talking to an IDE or editor socket", __doc__)
