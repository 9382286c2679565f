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

from tiers.lazy import LazyRe

from . import Invariant, Violation

INVARIANT = Invariant("no-ide-socket-access", "talking to an IDE or editor socket", __doc__)

_IDE_WORDS = ("sock", "vscode", "cursor", "jetbrains", "code-server", "codeserver", "ipc", "windsurf", "zed",
              "base64", "\\x")


def _may_mention_ide(command: str) -> bool:
    """Could the command reach an IDE socket? (False: no ``$``, backtick or any of ``_IDE_WORDS`` in it; substring
    tests in C beat one regex alternation for this one-per-command check.) Each word is searched only when the
    text has a letter it contains (a "c" for six of them, a rare letter for each other one): a one-character test
    is cheaper than a substring search, and the result is the same disjunction."""
    if "$" in command or "`" in command:
        return True
    low = command.lower()
    return (("c" in low and ("sock" in low or "vscode" in low or "cursor" in low or "code-server" in low
                             or "codeserver" in low or "ipc" in low))
            or ("j" in low and "jetbrains" in low) or ("w" in low and "windsurf" in low)
            or ("z" in low and "zed" in low) or ("6" in low and "base64" in low) or ("\\" in low and "\\x" in low))
_IDE = LazyRe(r"(?i)(vscode-ipc-[^\s]*\.sock|vscode-git-[^\s]*\.sock|vscode-[a-z0-9-]*\.sock|\.vscode-server/|"
              r"\.cursor-server/|cursor-ipc|VSCODE_IPC_HOOK|VSCODE_GIT_IPC|JETBRAINS_[A-Z_]*SOCK|"
              r"jetbrains[^\s]*\.sock|/\.?code-?server[^\s]*\.sock|windsurf[^\s]*\.sock|zed[^\s]*\.sock)")


def _ide_hit(text: str) -> bool:
    """``_IDE.search(text)`` is not None. The regex is case-insensitive with no literal prefix, so the engine tries
    every alternative at every position (~1k machine instructions per character). Each alternative contains one of
    the words below, and for ASCII text its (?i) matching is plain ASCII case folding, so a lowercased ASCII text
    without any of them cannot match (non-ASCII text goes to the regex: Unicode case folding is wider)."""
    if text.isascii():
        low = text.lower()
        if not ("vscode" in low or "cursor" in low or "jetbrains" in low or "code-server" in low
                or "codeserver" in low or "windsurf" in low or "zed" in low):
            return False
    return _IDE.search(text) is not None


def ide_assignment(name: str, value: str, how: str = "", segment: int = -1) -> Violation | None:
    """An assignment ``name=value`` (a shell assignment, or ``how``: the ``env`` that sets it) that points a
    variable at an IDE socket."""
    if not _ide_hit(name + "=" + value):
        return None
    return Violation(INVARIANT.id, f"{how + ' ' if how else ''}sets {name} to an IDE socket; editor sockets are off "
                     "limits", segment)


def ide_command(words: str, segment: int = -1) -> Violation | None:
    """A command whose words (joined) reach an IDE or editor socket."""
    if not _ide_hit(words):
        return None
    return Violation(INVARIANT.id, "reaches an IDE/editor socket; agents may not drive the editor", segment)


def file_tool_read(tool: str, path: str, display: str) -> Violation | None:
    """A file tool (``Read``, ``view``…) that reads an editor socket."""
    if not _ide_hit(path):
        return None
    return Violation(INVARIANT.id, f"{tool} reads an IDE socket ({display}); editor sockets are off limits")
