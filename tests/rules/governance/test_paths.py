"""Paths as governance resolves them: workspace, home or absolute scope; secret paths; protected globs."""

from __future__ import annotations

import pytest

from rules.governance.invariants.no_protected_branch import branch_in as _branch_in
from rules.governance.paths import Env, glob_in

#: (text, cwd) -> (scope, display, rel, abs) in a workspace /ws with home /home/me
NORM = [
    ('README.md', '/ws', ('ws', 'README.md', 'README.md', '/ws/README.md')),
    ('', '/ws', ('unknown', "''", None, None)),
    ('~', '/ws', ('home', '~', None, '/home/me')),
    ('~/x', '/ws', ('home', '~/x', None, '/home/me/x')),
    ('~bob/x', '/ws', ('abs', '/home/bob/x', None, '/home/bob/x')),
    ('~bob', '/ws', ('abs', '/home/bob', None, '/home/bob')),
    ('$HOME/.ssh/id_rsa', '/ws', ('home', '~/.ssh/id_rsa', None, '/home/me/.ssh/id_rsa')),
    ('${HOME}', '/ws', ('home', '~', None, '/home/me')),
    ('$PWD/a', '/ws', ('ws', 'a', 'a', '/ws/a')),
    ('${PWD}/b', '/ws', ('ws', 'b', 'b', '/ws/b')),
    ('$OTHER/x', '/ws', ('unknown', '$OTHER/x', None, None)),
    ('a/../b', '/ws', ('ws', 'b', 'b', '/ws/b')),
    ('../../..', '/ws', ('abs', '/', None, '/')),
    ('//x//y/', '/ws', ('abs', '/x/y', None, '/x/y')),
    ('/', '/ws', ('abs', '/', None, '/')),
    ('/etc/shadow', '/ws', ('abs', '/etc/shadow', None, '/etc/shadow')),
    ('build/', '/ws', ('ws', 'build', 'build', '/ws/build')),
    ('./.env', '/ws', ('ws', '.env', '.env', '/ws/.env')),
    ('x/./y', '/ws', ('ws', 'x/y', 'x/y', '/ws/x/y')),
    ('.SSH/ID_RSA', '/ws', ('ws', '.SSH/ID_RSA', '.SSH/ID_RSA', '/ws/.SSH/ID_RSA')),
    ('é/ü', '/ws', ('ws', 'é/ü', 'é/ü', '/ws/é/ü')),
    ('/ws', '/ws', ('ws', '.', '', '/ws')),
    ('/ws/sub/../a', '/ws', ('ws', 'a', 'a', '/ws/a')),
    ('/home/me/.ssh', '/ws', ('home', '~/.ssh', None, '/home/me/.ssh')),
    ('.', '/ws', ('ws', '.', '', '/ws')),
    ('a', '/ws/sub', ('ws', 'sub/a', 'sub/a', '/ws/sub/a')),
    ('../b', '/ws/sub', ('ws', 'b', 'b', '/ws/b')),
    ('~/x', '/ws/sub', ('home', '~/x', None, '/home/me/x')),
    ('$PWD/a', '/ws/sub', ('ws', 'sub/a', 'sub/a', '/ws/sub/a')),
    ('/etc/x', '/ws/sub', ('abs', '/etc/x', None, '/etc/x')),
    ('a', None, ('unknown', 'a', None, None)),
    ('../b', None, ('unknown', '../b', None, None)),
    ('~/x', None, ('home', '~/x', None, '/home/me/x')),
    ('$PWD/a', None, ('unknown', '$PWD/a', None, None)),
    ('/etc/x', None, ('abs', '/etc/x', None, '/etc/x')),
]

IS_SECRET = [
    ('.env', True),
    ('.env.example', True),
    ('a/.env', True),
    ('~/.ssh/id_rsa', True),
    ('~/.ssh/id_rsa.pub', True),
    ('/etc/passwd', False),
    ('src/app.py', False),
    ('key.pem', True),
    ('~/.aws/credentials', True),
    ('.bashrc', False),
    ('config/secrets.yml', True),
    ('.ENV', True),
    ('$X/.env', False),
    ('credentials.json', True),
]

GLOB_IN = [
    ('build', ('build',), True),
    ('build/x', ('build',), True),
    ('x/build', ('build',), False),
    ('tmp/a.log', ('*.log',), False),
    ('b1/x/y', ('b*/**',), True),
    ('x/y', ('x/*',), True),
    ('x', ('x/*',), False),
    ('main', (), False),
    ('src/a', ('build', 'dist'), False),
]

BRANCH_IN = [
    ('main', ('main',), True),
    ('release/1.0', ('release/*',), True),
    ('release', ('release/*',), False),
    ('feature/x', ('main', 'release/*'), False),
    ('main', (), False),
]


@pytest.mark.parametrize("text, cwd, expected", NORM, ids=[f"{t!r}@{c}" for t, c, _ in NORM])
def test_a_path_resolves_to_one_scope_and_display(text, cwd, expected):
    env = Env(root="/ws", home="/home/me")
    ref = env.norm(text, cwd)
    assert (ref.scope, ref.display, ref.rel, ref.abs) == expected
    assert env.norm(text, cwd) == ref  # asked again: the same answer


@pytest.mark.parametrize("text, secret", IS_SECRET, ids=[t for t, _ in IS_SECRET])
def test_credential_paths_are_secret_in_any_case(text, secret):
    env = Env(root="/ws", home="/home/me")
    assert env.is_secret(env.norm(text, "/ws")) is secret


@pytest.mark.parametrize("path, globs, inside", GLOB_IN, ids=[f"{p} in {g}" for p, g, _ in GLOB_IN])
def test_a_path_is_in_a_glob_when_it_or_a_parent_matches(path, globs, inside):
    assert glob_in(path, globs) is inside


@pytest.mark.parametrize("branch, globs, inside", BRANCH_IN, ids=[f"{b} in {g}" for b, g, _ in BRANCH_IN])
def test_a_branch_is_protected_when_it_matches_a_glob(branch, globs, inside):
    assert _branch_in(branch, globs) is inside


def test_the_resolution_cache_of_a_long_lived_process_is_bounded():
    """The server keeps one Env: its path cache must not grow with every path it has seen."""
    env = Env.build("/ws")
    for k in range(5000):
        env.norm(f"f{k}", "/ws")
    assert len(env._norms) == 4096
    assert env.norm("f4999", "/ws").display == "f4999"
