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

from ..analyze import _ide_hit
from . import Invariant, Violation

INVARIANT = Invariant("no-ide-socket-access", "talking to an IDE or editor socket", __doc__)


def file_tool_read(tool: str, path: str, display: str) -> Violation | None:
    """A file tool (``Read``, ``view``…) that reads an editor socket."""
    if not _ide_hit(path):
        return None
    return Violation(INVARIANT.id, f"{tool} reads an IDE socket ({display}); editor sockets are off limits")
