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


def _tree(obj):
    """Every field of a parse tree, recursively (tuples and lists alike), to compare node by node."""
    import dataclasses
    if dataclasses.is_dataclass(obj):
        return [type(obj).__name__] + [_tree(getattr(obj, f.name)) for f in dataclasses.fields(obj)]
    if isinstance(obj, (list, tuple)):
        return [_tree(x) for x in obj]
    if isinstance(obj, set):
        return sorted(obj)
    return obj


_LINE_TOKENS = ["a", "b", "git", "status", "-rf", "--x=1", "x=1", "/bin/rm", "~/x", "a.b", "[x]", "!", "!x", "%",
                "if", "time", "{", "}", " ", "  ", "\t", "&&", "||", ";", "|", "|&", "&", "'q s'", '"d q"', "a'b'",
                '"a"b', "$x", ">", "#", "\\", "\n", "é"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_LINE_TOKENS), max_size=16).map("".join))
def test_fast_parse_builds_the_same_nodes_as_the_full_parser(text):
    from rules.governance.shell import _fast_parse, _Parser
    fast = _fast_parse(text)
    if fast is not None:
        assert _tree(fast) == _tree(_Parser(text).parse_list())


@pytest.mark.parametrize("line", ["git status", "  ls -la  ", "a\tb", "rm -rf build/ dist/", ""], ids=repr)
def test_plain_lines_take_the_split_path(line):
    from rules.governance.shell import _PLAIN_LINE, _fast_parse, _Parser
    assert _PLAIN_LINE.fullmatch(line)
    assert _tree(_fast_parse(line)) == _tree(_Parser(line).parse_list())


def test_ide_prefilter_covers_every_ide_word():
    from rules.governance.analyze import _IDE_WORDS, _may_mention_ide
    assert not _may_mention_ide("git status && ls -la")
    for word in _IDE_WORDS:
        assert _may_mention_ide(f"cat /tmp/{word.upper()}.x"), word


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list("aAkKeEyY=: -_TOKENtokensecretSECRETpassPWDauthbearerBEARERxX0123456789/+@:")
                                + ["://", "mysql", "-p", "eyJ", "BEGIN RSA PRIVATE", "hooks.slack", "key", "token",
                                   "credential", "private"]), max_size=60).map("".join))
def test_needs_mask_prefilter_agrees_with_the_regex_it_replaced(text):
    import re

    from rules.governance.masking import _KEY_CONTEXT, _KEYWORDS, _TOKEN, needs_mask
    low = text.lower()
    keyword = re.compile("|".join(re.escape(k) for k in _KEYWORDS)).search(low) is not None
    expect = bool(text) and ((keyword and _KEY_CONTEXT.search(text) is not None) or ("://" in text and "@" in text)
                             or ("-p" in text and ("mysql" in low or "mariadb" in low))
                             or _TOKEN.search(text) is not None)
    assert needs_mask(text) == expect
