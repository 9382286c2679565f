"""Shell commands whose effect on a protected path comes from a program's own file API rather than from a shell
redirection: the sqlite3 command line's dot-commands and file functions, interpreter calls that link, copy,
rename or truncate, and ``env -S`` scripts. Each is judged by what it does (docs/governance.md, "The effect
model"); benign neighbours stay allowed. Rows marked with a finding are attacks that were allowed when found."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace


#: (id, expected decision, command, finding or None)
ROWS = [
    # env -S / --split-string: the string is a command line of its own
    ("env-S-tee", "deny", "env -S 'tee -a MEMORY.md'", None),
    ("env-S-sh-c", "deny", "env -S 'sh -c \"echo x >> MEMORY.md\"'", None),
    ("env-split-string-sh-c", "deny", "env --split-string='sh -c \"echo x >> MEMORY.md\"'", None),
    ("env-S-attached", "deny", "env -S\"sh -c 'echo x >> MEMORY.md'\"", None),
    ("env-iS-cluster", "deny", "env -iS 'tee -a USER.md'", None),
    ("env-S-benign", "allow", "env -S 'sh -c \"echo x >> notes.txt\"'", None),
    # sqlite3 command line: dot-commands and SQL functions that write or read files
    ("sqlite-output", "deny", "sqlite3 x.db '.output USER.md' 'select 1'", None),
    ("sqlite-once", "deny", "sqlite3 :memory: \".once MEMORY.md\" \"select 'x'\"", None),
    ("sqlite-cmd-output", "deny", "sqlite3 -cmd '.output MEMORY.md' x.db 'select 1'", None),
    ("sqlite-stdin-output", "deny", "echo '.output MEMORY.md' | sqlite3 x.db", None),
    ("sqlite-backup", "deny", "sqlite3 x.db '.backup MEMORY.md'", None),
    ("sqlite-save", "deny", "sqlite3 x.db '.save USER.md'", None),
    ("sqlite-log", "deny", "sqlite3 x.db '.log MEMORY.md' 'select 1'", None),
    ("sqlite-vacuum-into", "deny", "sqlite3 x.db \"VACUUM INTO 'memory/2026-12-01.md'\"", None),
    ("sqlite-writefile", "deny", "sqlite3 x.db \"select writefile('MEMORY.md','x')\"", None),
    ("sqlite-readfile-key", "deny", "sqlite3 x.db \"select readfile('.cuticle/key')\"", None),
    ("sqlite-read-key", "deny", "sqlite3 x.db '.read .cuticle/key'", None),
    ("sqlite-shell", "deny", "sqlite3 x.db '.shell cat .cuticle/key'", None),
    ("sqlite-system", "deny", "sqlite3 x.db '.system echo x >> MEMORY.md'", None),
    ("sqlite-output-benign", "allow", "sqlite3 x.db '.output build/rows.csv' 'select 1'", None),
    ("sqlite-select-benign", "allow", "sqlite3 x.db 'select count(*) from t'", None),
    # interpreter file APIs beyond open(): link, symlink, copy, rename, truncate
    ("python-link", "deny", "python3 -c \"import os; os.link('MEMORY.md','n.md')\"", None),
    ("perl-link", "deny", "perl -e 'link \"MEMORY.md\", \"n.md\"'", None),
    ("perl-rename", "deny", "perl -e 'rename \"x\", \"MEMORY.md\"'", None),
    ("perl-file-copy", "deny", "perl -MFile::Copy -e 'copy(\"x\",\"MEMORY.md\")'", None),
    ("perl-truncate", "deny", "perl -e 'truncate \"MEMORY.md\", 0'", None),
    ("node-link", "deny", "node -e \"require('fs').linkSync('MEMORY.md','n.md')\"", None),
    ("node-symlink", "deny", "node -e \"require('fs').symlinkSync('MEMORY.md','n')\"", None),
    ("node-truncate", "deny", "node -e \"require('fs').truncateSync('MEMORY.md')\"", None),
    ("ruby-link", "deny", "ruby -e 'File.link(\"MEMORY.md\",\"n.md\")'", None),
    ("ruby-symlink", "deny", "ruby -e 'File.symlink(\"MEMORY.md\",\"n\")'", None),
    ("php-copy", "deny", "php -r 'copy(\"x\",\"MEMORY.md\");'", None),
    ("php-link", "deny", "php -r 'link(\"MEMORY.md\",\"n\");'", None),
    ("perl-link-benign", "allow", "perl -e 'link \"README.md\", \"r.md\"'", None),
    ("node-copy-benign", "allow", "node -e \"require('fs').copyFileSync('a.txt','b.txt')\"", None),
    ("python-dict-copy-read-benign", "allow", "python3 -c \"d = {}.copy(); print(open('MEMORY.md').read())\"", None),
    ("perl-rename-state", "deny", "perl -e 'rename \"x\", \".cuticle/config.toml\"'", None),
    # a bind mount makes a second name for a memory file
    ("mount-bind", "deny", "mount --bind MEMORY.md n.md", None),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Workspace:
    root = sample_workspace(tmp_path_factory.mktemp("fileapis") / "ws")
    return Workspace(root)


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_a_file_api_is_judged_by_what_it_does(installed: Workspace, expect: str, command: str) -> None:
    assert_decision(installed, expect, command)
