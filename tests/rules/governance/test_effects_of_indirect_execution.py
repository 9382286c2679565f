"""Code the shell does not run itself is still judged by what it does: a script read from ``/dev/stdin`` or a
process substitution, a command handed to another runner (``at``, ``crontab``, ``tmux send-keys``, ``ssh``,
a container with the workspace mounted), in-place editors spelled with a backup suffix, programs whose output
file is an argument (``script``, ``socat FILE:``), git settings that git later runs as commands, and bash
namerefs. Rows marked with a finding were allowed when found (each verified to change the file when run, where
the tool exists here); neighbours stay allowed."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace


#: (id, expected decision, command, finding or None)
ROWS = [
    # a script read from stdin or a process substitution
    ("sh-c", "deny", "sh -c 'echo x >> MEMORY.md'", None),
    ("sh-dev-stdin", "deny", "sh /dev/stdin <<< 'echo x >> MEMORY.md'", None),
    ("dot-dev-stdin", "deny", ". /dev/stdin <<< 'echo x >> MEMORY.md'", None),
    ("bash-procsub", "deny", "bash <(echo 'echo x >> MEMORY.md')", None),
    ("source-procsub", "deny", "source <(echo 'echo x >> MEMORY.md')", None),
    ("python-dev-stdin", "deny", "python3 /dev/stdin <<< \"open('MEMORY.md','a').write('x')\"", None),
    ("python-procsub", "deny", "python3 <(echo \"open('MEMORY.md','a').write('x')\")", None),
    ("awk-f-dev-stdin", "deny", "awk -f /dev/stdin <<< 'BEGIN{print \"x\" >> \"MEMORY.md\"}'", None),
    ("make-f-dev-stdin", "deny", "make -f /dev/stdin <<< $'all:\\n\\techo x >> MEMORY.md'", None),
    ("cmake-P-dev-stdin", "deny", "cmake -P /dev/stdin <<< 'file(APPEND MEMORY.md x)'", None),
    ("sh-dev-stdin-benign", "allow", "sh /dev/stdin <<< 'echo x >> notes.txt'", None),
    ("bash-procsub-benign", "allow", "bash <(echo 'echo hello')", None),
    # a command handed to another runner
    ("at-now", "deny", "at now <<< 'echo x >> MEMORY.md'", None),
    ("crontab", "deny", "crontab <<< '* * * * * echo x >> \"$PWD/MEMORY.md\"'", None),
    ("tmux-send-keys", "deny", "tmux send-keys 'echo x >> MEMORY.md' Enter", None),
    ("screen-stuff", "deny", "screen -X stuff 'echo x >> MEMORY.md\\n'", None),
    ("systemd-run", "deny", "systemd-run --user sh -c 'echo x >> MEMORY.md'", None),
    ("ssh-localhost", "deny", "ssh localhost \"echo x >> $PWD/MEMORY.md\"", None),
    ("docker-mount", "deny", "docker run -v $PWD:/w alpine sh -c 'echo x >> /w/MEMORY.md'", None),
    ("ssh-benign", "allow", "ssh -i k.pem host 'cd app && git pull'", None),
    ("docker-pytest-benign", "allow", "docker run --rm -v $PWD:/w -w /w python:3 python -m pytest", None),
    ("docker-build-mount-benign", "allow", "docker run --rm -v $PWD/build:/out img sh -c 'cp x /out/'", None),
    ("tmux-benign", "allow", "tmux send-keys -t 0 'make test' Enter", None),
    ("at-benign", "allow", "at now + 1 hour <<< 'make backup'", None),
    ("systemd-run-benign", "allow", "systemd-run --user make test", None),
    ("tmux-benign", "allow", "tmux send-keys 'make test' Enter", None),
    # in-place editors and output-file arguments
    ("perl-pi", "deny", "perl -pi -e 's/a/b/' MEMORY.md", None),
    ("perl-i-suffix", "deny", "perl -i.bak -pe1 USER.md", None),
    ("script-typescript", "deny", "script -q -c 'echo x' MEMORY.md", None),
    ("socat-file-append", "deny", "echo x | socat - FILE:MEMORY.md,append", None),
    ("xmlstarlet-inplace", "deny", "xmlstarlet ed -L MEMORY.md", None),
    ("script-benign", "allow", "script -q -c 'make test' build/session.log", None),
    # git settings whose value git runs later as a shell command (each ordinary git command then runs it)
    ("git-hookspath", "deny", "git config core.hooksPath /tmp/h", None),
    ("git-fsmonitor", "deny", "git config core.fsmonitor 'echo x >> MEMORY.md'", None),
    ("git-pager", "deny", "git config core.pager 'sh -c \"echo x >> MEMORY.md\"'", None),
    ("git-alias-bang", "deny", "git config alias.st '!echo x >> MEMORY.md'", None),
    ("git-filter-clean", "deny", "git config filter.x.clean 'tee -a MEMORY.md'", None),
    ("git-include-path", "deny", "git config --local include.path /tmp/evil.gitconfig", None),
    ("git-config-file-append", "deny", "printf '[core]\\n\\tfsmonitor = sh /tmp/x\\n' >> .git/config", None),
    ("git-config-benign", "allow", "git config user.name 'Alex'", None),
    # bash namerefs
    ("nameref", "deny", "declare -n r=f; f=MEMORY.md; echo x >> $r", None),
    ("nameref-benign", "allow", "declare -n r=f; f=notes.txt; echo x >> $r", None),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Workspace:
    root = sample_workspace(tmp_path_factory.mktemp("indirect") / "ws")
    return Workspace(root)


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_indirectly_run_code_is_judged_by_what_it_does(installed: Workspace, expect: str, command: str) -> None:
    assert_decision(installed, expect, command)
