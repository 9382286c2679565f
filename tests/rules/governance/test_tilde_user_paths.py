"""``~user/…`` is expanded as the shell expands it, from the password database: ``~me/.claude/settings.json`` is this
user's own hook settings (denied like ``~/.claude/settings.json``), ``~root`` is ``/root``; another account's home
or an unknown account protects nothing of this user's."""

from __future__ import annotations

import getpass
import os
import posixpath
import pwd

import pytest

from command_rows import assert_decision, params, sample_workspace
from rules.governance.paths import _user_home
from tiers.workspace import Workspace

ME = getpass.getuser()
ROWS = [  # (id, expect, command, finding)
    ("own-hook-settings", "deny", f"echo '{{}}' > ~{ME}/.claude/settings.json", None),
    ("own-skill-file", "deny", f"echo x > ~{ME}/.claude/skills/a/SKILL.md", None),
    ("own-codex-dir", "deny", f"cp evil.toml ~{ME}/.codex/config.toml", None),
    ("own-home-read", "allow", f"ls ~{ME}/.claude", None),
    ("unknown-account", "allow", "echo x > ~no-such-account-zz/.claude/settings.json", None),
]


def _home_is_the_accounts() -> bool:
    try:
        return posixpath.normpath(pwd.getpwnam(ME).pw_dir) == posixpath.normpath(os.path.expanduser("~"))
    except KeyError:
        return False


@pytest.fixture
def ws(tmp_path) -> Workspace:
    return Workspace(sample_workspace(tmp_path / "ws"))


@pytest.mark.skipif(not _home_is_the_accounts(), reason="HOME is not this account's home directory")
@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_tilde_user_is_the_accounts_home(ws: Workspace, expect: str, command: str):
    assert_decision(ws, expect, command)


def test_user_home_comes_from_the_password_database():
    assert _user_home("root") == posixpath.normpath(pwd.getpwnam("root").pw_dir)
    assert _user_home("no-such-account-zz") == "/home/no-such-account-zz"
