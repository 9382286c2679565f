"""The IDE guard: a command is looked at for IDE sockets and helpers only when it may mention one."""

from __future__ import annotations

import pytest

from rules.governance.invariants.no_ide_socket_access import _may_mention_ide

#: command -> may it mention an IDE socket or helper (also through a variable, a substitution or an escape)
IDE = [
    ('', False),
    ('git status && ls -la', False),
    ('cat /tmp/vscode-ipc-1.sock', True),
    ('ls ~/.vscode-server/x', True),
    ('VSCODE_IPC_HOOK=x', True),
    ('echo $JETBRAINS_IDE_SOCK', True),
    ('/run/code-server-1.sock', True),
    ('/x/.codeserver.sock', True),
    ('nc -U windsurf.sock', True),
    ('zed-1.sock', True),
    ('Zed.SOCK', True),
    ('vscode-K.sock', True),
    ('vſcode-1.sock', True),
    ('cursor-ipc', True),
    ('İ cursor-ipc', True),
    ('echo `x`', True),
    ('echo $X', True),
    ("printf '\\x41'", True),
    ('base64 -d', True),
    ('cat CURSOR.txt', True),
    ('socks proxy', True),
    ('jet brains', False),
    ('code server', False),
    ('ls ~/.ssh', False),
    ('SO CK', False),
    ('ze d', False),
]


@pytest.mark.parametrize("command, may", IDE, ids=[repr(c) for c, _ in IDE])
def test_the_ide_guard_lets_through_only_commands_that_may_mention_an_ide(command, may):
    assert _may_mention_ide(command) is may
