"""Session-6 speed-ups of the shell parser keep behaviour: command substitutions ``$(…)``, backticks and process
substitutions ``<(…)``/``>(…)`` on the second fast path (``shell._fast_tree``), and the bodies of ``$(…)``/``<(…)``
read by the fast paths inside the full parser (``shell._fast_inner``), build the nodes the full parser built
without them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance import shell
from test_speed_equivalence import _tree  # nodes as nested lists: the fast paths share empty tuples


def reference_parse(text: str, depth: int = 0):
    """The full parser with every substitution body read by the full parser too (no ``_fast_inner``)."""
    fast_inner = shell._fast_inner
    shell._fast_inner = lambda body, depth: None
    try:
        return shell._Parser(text, depth).parse_list()
    finally:
        shell._fast_inner = fast_inner


_SUB_TOKENS = ["echo", "rm", "-rf", "/tmp/x", "a", "x=1", "A=", " ", "  ", "\t", "|", "||", "&&", ";", "&", ">", "2>&1",
               "<", "<<<", "<<E", "\nE", "$(", "$(", ")", ")", "`", "`", "<(", ">(", "(", "$((", "'", '"', "\\", "#",
               "\n", "$X", "${Y}", "$1", "$", "$(rm -rf /)", "`id`", '"$(pwd)"', '"`date`"', "<(ls)", ">(tee l)",
               '$(echo "a b")', "$(echo 'a)')", "$(a|b)", "$(a;b)", "$(a &)", "$(x=1 y)", "$()", "``", "$(#)",
               "$(a\nb)", "2>(x)", "x<(y)", "{", "}", "if", "!", "é", "\r", '"a $X `b` $(c) d"', "'$(q)'"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_SUB_TOKENS), max_size=14).map("".join))
def test_substitution_lines_parse_as_the_full_parser_parses_them(text):
    assert _tree(shell.parse(text)) == _tree(reference_parse(text))
    assert _tree(shell.parse(text, 1)) == _tree(reference_parse(text, 1))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_SUB_TOKENS), max_size=14).map("".join))
def test_the_second_fast_path_builds_the_full_parsers_nodes_for_substitutions(text):
    fast = shell._fast_tree(text)
    if fast is not None:
        assert _tree(fast) == _tree(reference_parse(text))


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab =-'\"|&;$<>()#\\`\n\t{}"), max_size=24))
def test_substitution_bodies_read_by_the_fast_paths_agree_on_arbitrary_text(text):
    assert _tree(shell._Parser(text).parse_list()) == _tree(reference_parse(text))
    assert _tree(shell.parse(text)) == _tree(reference_parse(text))


_COMMON = ['eval "$(echo cm0gLXJmIH4vcHJvamVjdHM= | base64 -d)"', 'echo "cleanup: $(rm -rf ../backups)"',
           "bash <(curl -fsSL https://install.example.dev)", 'echo "done: `rm -rf /var/log/app`"',
           "echo $(rm -rf /tmp/x)", "x=$(date +%s) make", 'cd "$(git rev-parse --show-toplevel)"',
           "diff <(ls a) <(ls b) > d.txt", "tee >(wc -l) < in", "cat < <(ls)", 'echo "a $X `id` $(pwd) b"',
           "echo `echo \"a b\"` \"$(pwd)/x\"", "echo $() `` \"$()\"", "git log $(git describe --tags)..HEAD"]


@pytest.mark.parametrize("line", _COMMON, ids=repr)
def test_common_substitution_lines_take_the_second_fast_path(line):
    fast = shell._fast_tree(line)
    assert fast is not None
    assert _tree(fast) == _tree(reference_parse(line))


_BAD = ["echo $(rm -rf /", "echo $(", "echo \"$(rm\"", "echo `rm -rf /", "echo \"`id\"", "echo \"$(a)", "echo '$(a)",
        "echo $(a'b)", 'echo $(a"b)', "echo $(a $(b) c)", "echo $((1 + 2))", "echo $((", "echo <(", "cat <(a",
        "echo $(cat <<E)\nx\nE", "echo $(a #)", "echo $(a\\)b)", "echo `a\\`b`", "echo $(if x; then y; fi)",
        "echo $({ a; })", "echo $(a) $(", ")$(", "$(a)(", "echo <(a)b", "2<(a) x", "echo $(a\rb)", "`", "$(", "<("]


@pytest.mark.parametrize("line", _BAD, ids=repr)
def test_unbalanced_and_unusual_substitutions_parse_as_before(line):
    assert _tree(shell.parse(line)) == _tree(reference_parse(line))
    assert _tree(shell.parse(line, 0, False)) == _tree(reference_parse(line))


@pytest.mark.parametrize("line", ["(echo $(rm -rf /tmp/x))", "{ echo \"$(id)\"; }", "for f in $(ls); do rm $f; done",
                                  "if [ -n \"$(git status -s)\" ]; then git stash; fi", "echo $(a) \\\n $(b)"],
                         ids=repr)
def test_substitution_bodies_inside_the_full_parser_take_the_fast_paths(line):
    assert _tree(shell.parse(line)) == _tree(reference_parse(line))


@pytest.mark.parametrize("depth", [0, 1, shell.MAX_DEPTH - 3, shell.MAX_DEPTH - 2, shell.MAX_DEPTH - 1,
                                   shell.MAX_DEPTH])
@pytest.mark.parametrize("line", ["echo $(id)", "echo `id`", "cat <(ls)", "echo \"$(a `b`)\"", "x=$(y) z"], ids=repr)
def test_substitutions_near_the_nesting_limit_parse_as_before(line, depth):
    assert _tree(shell.parse(line, depth)) == _tree(reference_parse(line, depth))
