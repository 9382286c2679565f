"""The shell parser: structure tables, and hypothesis properties (never raises, whatever the input)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance.shell import Compound, Simple, iter_simple, parse


def words(command: str) -> list[list[str]]:
    return [[w.text for w in cmd.words] for cmd in iter_simple(parse(command))]


CASES = [
    ("a && b || c; d", [["a"], ["b"], ["c"], ["d"]]),
    ("a | b |& c", [["a"], ["b"], ["c"]]),
    ("a & b", [["a"], ["b"]]),
    ("a\nb\n\nc", [["a"], ["b"], ["c"]]),
    ("echo 'a b' \"c d\" e\\ f", [["echo", "a b", "c d", "e f"]]),
    ("'r''m' -rf x", [["rm", "-rf", "x"]]),
    ("r\\m x", [["rm", "x"]]),
    ("echo \"a\\\"b\" 'c\\d'", [["echo", 'a"b', "c\\d"]]),
    ("echo $'a\\tb\\x41'", [["echo", "a\tbA"]]),
    ("(a; b) && { c; }", [["a"], ["b"], ["c"]]),
    ("echo $(a $(b)) `c`", [["echo", "$(…)", "$(…)"], ["a", "$(…)"], ["b"], ["c"]]),
    ("diff <(sort a) >(tee b)", [["diff", "<(…)", ">(…)"], ["sort", "a"], ["tee", "b"]]),
    ("if a; then b; elif c; then d; else e; fi", [["a"], ["b"], ["c"], ["d"], ["e"]]),
    ("for x in 1 2; do b $x; done", [["b", "$x"]]),
    ("for ((i=0;i<3;i++)); do b; done", [["b"]]),
    ("while read l; do b; done < f", [["read", "l"], ["b"]]),
    ("until a; do b; done", [["a"], ["b"]]),
    ("case $x in a|b) c;; *) d;; esac", [["c"], ["d"]]),
    ("f() { a; }; function g { b; }", [["a"], ["b"]]),
    ("# comment\na # trailing", [["a"]]),
    ("a \\\n b", [["a", "b"]]),
    ("X=1 Y=$(b) c", [["c"], ["b"]]),
    ("[[ -f x && -d y ]] && a", [["[[", "-f", "x", "-d", "y", "]]"], ["a"]]),
    ("! a", [["a"]]),
    ("time a", [["a"]]),
    ("echo ${HOME:-x} $((1+2))", [["echo", "${HOME:-x}", "$((1+2))"]]),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c for c, _ in CASES])
def test_parser_finds_every_simple_command(command, expected):
    assert words(command) == expected


REDIRECTS = [
    ("echo x>f", [(">", "f")]),
    ("echo x >> f 2>&1", [(">>", "f"), (">&", "1")]),
    ("a &> f", [("&>", "f")]),
    ("a &>> f", [("&>>", "f")]),
    ("a 2>/dev/null 1>out", [(">", "/dev/null"), (">", "out")]),
    ("a >| f < in", [(">|", "f"), ("<", "in")]),
    ("a <<< 'text'", [("<<<", "text")]),
    ("a {fd}>f", [(">", "f")]),
]


@pytest.mark.parametrize(("command", "expected"), REDIRECTS, ids=[c for c, _ in REDIRECTS])
def test_redirections_are_parsed_with_and_without_spaces(command, expected):
    cmd = next(iter_simple(parse(command)))
    assert [(r.op, r.target.text) for r in cmd.redirects] == expected


def test_heredoc_body_is_data_not_commands():
    script = parse("cat > notes.txt <<'EOF'\nrm -rf /\nEOF\necho done")
    cmds = list(iter_simple(script))
    assert [[w.text for w in c.words] for c in cmds] == [["cat"], ["echo", "done"]]
    heredoc = cmds[0].redirects[1]
    assert heredoc.op == "<<" and heredoc.body == "rm -rf /" and heredoc.body_quoted


def test_heredoc_with_tab_stripping_and_two_heredocs_on_one_line():
    script = parse("a <<-X; b <<Y\n\tone\n\tX\ntwo\nY\nc")
    cmds = list(iter_simple(script))
    assert [c.redirects[0].body for c in cmds[:2]] == ["one", "two"]
    assert [w.text for w in cmds[2].words] == ["c"]


def test_compound_commands_keep_their_kind():
    script = parse("(a) ; { b; } ; if c; then d; fi")
    kinds = [pipe.commands[0].kind for _, pipe in script.items]
    assert kinds == ["subshell", "group", "if"]
    assert all(isinstance(pipe.commands[0], Compound) for _, pipe in script.items)


def test_assignments_are_not_commands():
    cmd = parse("A=1 B='x y' env").items[0][1].commands[0]
    assert isinstance(cmd, Simple)
    assert [(n, w.text) for n, w in cmd.assigns] == [("A", "1"), ("B", "x y")]
    assert [w.text for w in cmd.words] == ["env"]


FIRST_WORDS = [
    ('"A=1" b', ["A=1", "b"], []),  # a quote before the "=": a word, not an assignment
    ("A='1 2' b", ["b"], [("A", "1 2")]),
    ("A+=x b", ["b"], [("A", "x")]),
    ("=x y", ["=x", "y"], []),
    ("1A=x y", ["1A=x", "y"], []),
    ("2>err a", ["a"], []),
    ("{a,b} c", ["{a,b}", "c"], []),
    ("a\xa0b c", ["a\xa0b", "c"], []),  # a blank bash does not split on is part of the word
    ("selected x", ["selected", "x"], []),  # starts like a keyword
    ("iffy; fix; done_", ["iffy", "fix", "done_"], []),
]


@pytest.mark.parametrize("command,expected_words,expected_assigns", FIRST_WORDS, ids=[c for c, _, _ in FIRST_WORDS])
def test_words_and_assignments_are_told_apart_whatever_character_starts_them(command, expected_words,
                                                                            expected_assigns):
    cmds = list(iter_simple(parse(command)))
    assert [w.text for c in cmds for w in c.words] == expected_words
    assert [(n, w.text) for c in cmds for n, w in c.assigns] == expected_assigns


@pytest.mark.parametrize("command,kind", [("select x in a b; do c; done", "for"), ("until a; do b; done", "while"),
                                          ("case x in y) z;; esac", "case"), ("function f { a; }", "function"),
                                          ("{ a; }", "group"), ("while a; do b; done", "while"), ("if a; then b; fi", "if"),
                                          ("for x in 1; do b; done", "for")])
def test_every_compound_keyword_opens_its_compound_command(command, kind):
    cmd = parse(command).items[0][1].commands[0]
    assert isinstance(cmd, Compound) and cmd.kind == kind


def test_operators_before_each_pipeline_are_recorded():
    script = parse("a && b || c; d & e")
    assert [op for op, _ in script.items] == ["", "&&", "||", ";", "&"]
    assert script.background == {3}


@pytest.mark.parametrize("command", ["'unterminated", "\"open $(", "a |", "((((", "$((", "<<EOF", "a >", "`",
                                     "case", "if then fi", "}}}", ")))", "for", "f() {", "${", "$'\\x", "\\"],
                         ids=lambda c: repr(c))
def test_malformed_input_parses_without_raising(command):
    parse(command)


TOKENS = list("ab $'\"`\\(){}[]<>|&;#=\n\t-*~!?") + ["<<", "$(", "<(", "EOF", "rm", "-rf", "if", "then", "fi",
                                                        "do", "done", "case", "esac", "in", ";;", "<<-", "$'"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_parsing_never_raises_on_shell_like_noise(text):
    parse(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parsing_never_raises_on_any_text(text):
    parse(text)


def _signature(script):
    return ([(op, [[(w.text, w.quoted) for w in c.words] for c in p.commands], p.pipes) for op, p in script.items],
            sorted(script.background))


ANALYZE_TOKENS = TOKENS + ["sudo ", "xargs ", "find . -exec ", "-delete", "bash -c ", "eval ", "python3 -c ",
                           "curl x", "| sh", "git push ", "+main", ":main", "HEAD:", "cd ", "MEMORY.md", "chitin.yaml",
                           "> ", ">> ", "tee ", "sed -i ", "chmod 777 ", "psql -c ", "DROP TABLE t", "base64 -d",
                           "<<<", "{}", "\\;", "env ", "timeout 5 ", "~/", "../", "$HOME", "$(", "`"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(ANALYZE_TOKENS), max_size=24).map("".join))
def test_analysis_never_raises_on_shell_like_noise(text):
    from rules.governance.analyze import analyze_command
    from rules.governance.paths import Env
    analyze_command(text, Env.build("/nonexistent/ws"))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_analysis_never_raises_on_any_text(text):
    from rules.governance.analyze import analyze_command
    from rules.governance.paths import Env
    analyze_command(text, Env.build("/nonexistent/ws"))
