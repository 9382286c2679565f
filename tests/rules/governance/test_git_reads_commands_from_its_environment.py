"""git runs commands and loads settings named by its environment, outside every hook: a pager, an editor, an
external diff, an SSH command, settings passed as GIT_CONFIG_KEY_n/VALUE_n or GIT_CONFIG_PARAMETERS, another
settings file or program directory. Set in the command line (a prefix assignment, ``export``, ``env``), each is
judged as what git will do with it; ordinary values stay allowed."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace

#: (id, expected decision, command, finding or None)
ROWS = [
    ("pager-writes-memory", "deny", "GIT_PAGER='tee -a MEMORY.md' git log", None),
    ("exported-pager", "deny", "export GIT_PAGER='tee -a MEMORY.md'; git log -1", None),
    ("env-wrapper-pager", "deny", "env GIT_PAGER='tee -a MEMORY.md' git log", None),
    ("plain-pager-variable", "deny", "PAGER='tee -a MEMORY.md' git log", None),
    ("editor-writes-memory", "deny", "GIT_EDITOR='tee -a MEMORY.md' git commit", None),
    ("sequence-editor", "deny", "GIT_SEQUENCE_EDITOR='cp /tmp/todo MEMORY.md' git rebase -i HEAD~2", None),
    ("external-diff", "deny", "GIT_EXTERNAL_DIFF='sh -c \"echo x >> USER.md\"' git diff", None),
    ("config-count", "deny",
     "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='echo x >> MEMORY.md' git status", None),
    ("config-parameters", "deny", "GIT_CONFIG_PARAMETERS=\"'core.pager'='tee -a MEMORY.md'\" git log", None),
    ("config-hooks-path", "deny", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/h git commit",
     None),
    ("dash-c-hooks-path", "deny", "git -c core.hooksPath=/tmp/h commit -m x", None),
    ("global-config-file", "deny", "GIT_CONFIG_GLOBAL=/tmp/evil.gitconfig git status", None),
    ("exec-path", "deny", "GIT_EXEC_PATH=/tmp/bin git merge src", None),
    ("pager-cat-benign", "allow", "GIT_PAGER=cat git log", None),
    ("editor-vim-benign", "allow", "GIT_EDITOR=vim git commit", None),
    ("ssh-command-benign", "allow", "GIT_SSH_COMMAND='ssh -o BatchMode=yes' git fetch", None),
    ("no-global-config-benign", "allow", "GIT_CONFIG_GLOBAL=/dev/null git status", None),
    ("trace-benign", "allow", "GIT_TRACE=1 git status", None),
    ("config-count-benign", "allow", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git commit",
     None),
]


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    return Workspace(sample_workspace(tmp_path_factory.mktemp("gitenv") / "ws"))


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_what_git_reads_from_its_environment_is_judged(ws: Workspace, expect: str, command: str) -> None:
    assert_decision(ws, expect, command)
