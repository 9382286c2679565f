"""Canonical forms of a command: tool, action, flags (long names, sorted, values attached) and arguments."""

from __future__ import annotations

import pytest

from rules.governance.canon import canonicalize

#: argv -> (tool, action, flags, args, sudo); an argv ending in "#sudo" is canonicalized with sudo=True
CANONICAL = [
    (['ls'], ('ls', '', (), (), False)),
    (['git', 'status'], ('git', 'status', (), (), False)),
    (['ls', '-la'], ('ls', '', (('all', ''), ('long', '')), (), False)),
    (['git', 'push', 'origin', 'main'], ('git', 'push', (), ('origin', 'main'), False)),
    (['rm', '-rf', 'build'], ('rm', '', (('force', ''), ('recursive', '')), ('build',), False)),
    (['head', '-n', '5', 'f'], ('read', '', (('head-lines', '5'),), ('f',), False)),
    (['head', '-20', 'f'], ('read', '', (('head-lines', '20'),), ('f',), False)),
    (['cat', '-n', 'f'], ('read', '', (('number', ''),), ('f',), False)),
    (['git', 'log', '-5', '--oneline'], ('git', 'log', (('format', 'oneline'), ('max-count', '5')), (), False)),
    (['find', '.', '-name', '*.py', '-exec', 'rm', '{}', ';'], ('find', '', (('exec', 'rm {}'), ('name', '*.py')), ('.',), False)),
    (['curl', '-H', 'Authorization: Bearer sk-ant-api03-longtoken12345678901234567890', 'http://x'], ('curl', '', (('header', '[MASKED]'),), ('http://x',), False)),
    (['go', 'test', '-v', '-run', 'TestTokenizerVsAST_BypassCoverage'], ('go', 'test', (('run', ''), ('v', '')), ('TestTokenizerVsAST_BypassCoverage',), False)),
    (['echo', 'OPENAI_API_KEY=sk-test'], ('echo', '', (), ('[MASKED]',), False)),
    (['git', '-C', 'sub', 'push', '-f'], ('git', 'push', (('C', 'sub'), ('force', '')), (), False)),
    (['grep', '-rn', 'TODO', 'src/', '--include=*.py'], ('grep', '', (('include', '*.py'), ('line-number', '')), ('TODO', 'src/'), False)),
    (['head', '-123456789012345678901234', 'f'], ('read', '', (('head-lines', '123456789012345678901234'),), ('f',), False)),
    (['git', 'log', '-123456789012345678901234567'], ('git', 'log', (('max-count', '123456789012345678901234567'),), (), False)),
    (['sed', '-i', 's/^DB_PASSWORD=.*/DB_PASSWORD=changeme/', '.env.production'], ('sed', '', (('in-place', ''),), ('[MASKED]', '.env.production'), False)),
    ([], ('unknown', '', (), (), False)),
    (['/bin/rm', '-fr', 'x'], ('rm', '', (('force', ''), ('recursive', '')), ('x',), False)),
    (['RM', '--recursive', 'x'], ('rm', '', (('recursive', ''),), ('x',), False)),
    (['git', 'push', '--force-with-lease', 'origin', '+main'], ('git', 'push', (('force-with-lease', ''),), ('origin', '+main'), False)),
    (['tail', '-n5', 'f'], ('read', '', (('tail-lines', '5'),), ('f',), False)),
    (['echo', '-n', '--', 'x'], ('echo', '', (), ('-n', '--', 'x'), False)),
    (['printf', '-v', 'x'], ('printf', '', (), ('-v', 'x'), False)),
    (['ls', '--', '-rf'], ('ls', '', (), ('-rf',), False)),
    (['ls', '--=x', '-=x'], ('ls', '', (), ('--=x', '-=x'), False)),
    (['git.exe', 'push'], ('git', 'push', (), (), False)),
    (['gh', 'pr', 'create', '-b', 'body'], ('gh', 'pr', (('body', 'body'),), ('create',), False)),
    (['kubectl', '-n', 'ns', 'delete', 'pod'], ('kubectl', 'delete', (('n', 'ns'),), ('pod',), False)),
    (['docker', 'run', '--rm', '-it', 'img'], ('docker', 'run', (('i', ''), ('rm', ''), ('t', '')), ('img',), False)),
    (['rm', '-rf', '/', '#sudo'], ('rm', '', (('force', ''), ('recursive', '')), ('/',), True)),
]


@pytest.mark.parametrize("argv, expected", CANONICAL, ids=[" ".join(a) or "<empty>" for a, _ in CANONICAL])
def test_a_command_has_one_canonical_form(argv, expected):
    sudo = argv[-1:] == ["#sudo"]
    c = canonicalize(argv[:-1] if sudo else argv, sudo=sudo)
    assert (c.tool, c.action, c.flags, c.args, c.sudo) == expected


@pytest.mark.parametrize("a, b", [
    (["rm", "-rf", "build"], ["rm", "-fr", "build"]),
    (["rm", "-rf", "build"], ["/bin/rm", "-r", "-f", "build"]),
    (["head", "-n", "5", "f"], ["head", "-5", "f"]),
    (["git", "push", "-f"], ["git", "push", "--force"]),
], ids=["clustered-order", "path-and-split-flags", "head-count-forms", "short-and-long-force"])
def test_spellings_of_one_command_share_a_canonical_form_and_digest(a, b):
    ca, cb = canonicalize(a), canonicalize(b)
    assert ca == cb and ca.digest == cb.digest and ca.text == cb.text
