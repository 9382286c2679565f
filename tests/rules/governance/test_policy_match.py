"""Policy matching: a deny rule wins over an allow rule that also matches; nothing matching means deny."""

from __future__ import annotations

import pytest

from rules.governance.analyze import Effect
from rules.governance.policy import Policy, Rule, starter_policy

#: (type, target, kind) -> (rule id, verdict) under the starter policy
STARTER = [
    (('exec', '', ''), 'default-allow', 'allow'),
    (('write', '.env', 'path'), 'no-secret-writes', 'deny'),
    (('read', '~/.ssh/id_rsa', 'path'), 'no-private-key-reads', 'deny'),
    (('net', 'example.com', 'host'), 'default-allow', 'allow'),
    (('git', 'main', 'branch'), 'default-allow', 'allow'),
    (('write', '.env.example', 'path'), 'default-allow', 'allow'),
    (('read', '.env', 'path'), 'default-allow', 'allow'),
    (('read', 'src/a.py', 'path'), 'default-allow', 'allow'),
    (('write', 'src/a.py', 'path'), 'default-allow', 'allow'),
    (('git', 'feature/x', 'branch'), 'default-allow', 'allow'),
    (('dangerous', '', ''), 'default-allow', 'allow'),
    (('read', '/etc/passwd', 'path'), 'default-allow', 'allow'),
    (('write', '/usr/bin/x', 'path'), 'no-system-path-writes', 'deny'),
    (('net', 'github.com', 'host'), 'default-allow', 'allow'),
    (('read', 'key.pem', 'path'), 'no-private-key-reads', 'deny'),
]


@pytest.mark.parametrize("effect, rule_id, verdict", STARTER, ids=[" ".join(e).strip() for e, _, _ in STARTER])
def test_the_starter_policy_decides_each_effect(effect, rule_id, verdict):
    policy = starter_policy()
    rule, got = policy.match(Effect(*effect))
    assert (rule.id, got) == (rule_id, verdict)
    assert policy.match(Effect(*effect)) == (rule, got)  # asked again: the same answer


_ALLOW_SRC = Rule("allow-src", ("write",), "allow", targets=("src/**",))
_DENY_PEM = Rule("deny-pem", ("write", "read"), "deny", targets=("*.pem",))
_DENY_MAIN = Rule("deny-main", ("git",), "deny", branches=("main", "release/*"))
_ALLOW_ALL = Rule("allow-all", ("*",), "allow")


@pytest.mark.parametrize("rules, effect, expected", [
    ((_ALLOW_SRC, _DENY_PEM), ("write", "src/k.pem", "path"), ("deny-pem", "deny")),
    ((_DENY_PEM, _ALLOW_SRC), ("write", "src/k.pem", "path"), ("deny-pem", "deny")),
    ((_ALLOW_SRC, _DENY_PEM), ("write", "src/a.py", "path"), ("allow-src", "allow")),
    ((_ALLOW_SRC,), ("write", "docs/a.md", "path"), (None, "deny")),
    ((), ("exec", "", ""), (None, "deny")),
    ((_DENY_MAIN, _ALLOW_ALL), ("git", "release/1.0", "branch"), ("deny-main", "deny")),
    ((_DENY_MAIN, _ALLOW_ALL), ("git", "feature/x", "branch"), ("allow-all", "allow")),
    ((_DENY_PEM, _ALLOW_ALL), ("net", "x.pem", "host"), ("allow-all", "allow")),
], ids=["deny-listed-after", "deny-listed-first", "allow-only", "nothing-matches", "no-rules", "protected-branch",
        "other-branch", "deny-of-another-type"])
def test_deny_wins_and_no_match_denies(rules, effect, expected):
    rule, verdict = Policy("<test>", rules=rules).match(Effect(*effect))
    assert (rule.id if rule else None, verdict) == expected
