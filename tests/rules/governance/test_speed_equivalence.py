"""The speed-ups keep behaviour: the compiled policy matcher agrees with rule-by-rule matching, the fast parser
with the full parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance.analyze import TYPES, Effect
from rules.governance.policy import Policy, Rule, starter_policy


def reference_match(policy: Policy, eff: Effect):
    for rule in policy.rules:
        if rule.effect == "deny" and rule.matches(eff):
            return rule, "deny"
    for rule in policy.rules:
        if rule.effect == "allow" and rule.matches(eff):
            return rule, "allow"
    return None, "deny"


_TARGETS = st.sampled_from(["", ".env", ".env.example", "src/a.py", "~/.ssh/id_rsa", "/etc/passwd", "build/x",
                            "github.com", "evil.example.com", "main", "release/1.0", "feature/x", "secrets.pem"])
_EFFECTS = st.builds(Effect, st.sampled_from([*TYPES, "other"]), _TARGETS, st.sampled_from(["", "path", "host",
                                                                                             "branch"]))
_RULES = st.builds(
    Rule, st.text("abc", min_size=1, max_size=3),
    st.lists(st.sampled_from([*TYPES, "*"]), min_size=1, max_size=3).map(tuple),
    st.sampled_from(["allow", "deny"]), st.just(""),
    st.lists(st.sampled_from([".env", "!.env.example", "*.pem", "~/.ssh/**", "src/**", "*.example.com",
                              "github.com", "!build/**"]), max_size=3).map(tuple),
    st.lists(st.sampled_from(["main", "release/*"]), max_size=2).map(tuple))


@settings(max_examples=300, deadline=None)
@given(st.lists(_RULES, max_size=6), _EFFECTS)
def test_compiled_match_agrees_with_rule_by_rule(rules, eff):
    policy = Policy("<test>", rules=tuple(rules))
    assert policy.match(eff) == reference_match(policy, eff)


@pytest.mark.parametrize("eff", [Effect("exec"), Effect("write", ".env", "path"), Effect("read", "~/.ssh/id_rsa",
                                 "path"), Effect("net", "example.com", "host"), Effect("git", "main", "branch"),
                                 Effect("write", ".env.example", "path")], ids=str)
def test_starter_policy_match_agrees(eff):
    policy = starter_policy()
    assert policy.match(eff) == reference_match(policy, eff)
