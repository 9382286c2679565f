"""Session-4 speed-ups of the shell fast path keep behaviour: ``fast_items`` agrees with the version it replaced
(one full-line regex, then the tokenizer), kept here as the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance.shell import _FAST_LINE, _FAST_TOKEN, _PLAIN_LINE, _is_keyword_or_assignment, fast_items


def reference_fast_items(text: str):
    if _PLAIN_LINE.fullmatch(text) is not None:
        tokens = text.split()
        if not tokens:
            return [], []
        if _is_keyword_or_assignment(tokens[0]):
            return None
        return [("", [tokens], [])], []
    if _FAST_LINE.fullmatch(text) is None:
        return None
    items: list = []
    background: list[int] = []
    commands: list = []
    pipes: list[str] = []
    cmd: list[str] = []
    op = ""
    for tok_op, word in _FAST_TOKEN.findall(text):
        if word:
            if not cmd and _is_keyword_or_assignment(word):
                return None
            cmd.append(word)
            continue
        if not cmd:
            return None
        commands.append(cmd)
        cmd = []
        if tok_op == "|" or tok_op == "|&":
            pipes.append(tok_op)
            continue
        items.append((op if items else "", commands, pipes))
        if tok_op == "&":
            background.append(len(items) - 1)
        commands, pipes = [], []
        op = tok_op
    if cmd:
        commands.append(cmd)
    elif commands:
        return None
    if commands:
        items.append((op if items else "", commands, pipes))
    return items, background


_TOKENS = ["a", "git", "push", "-rf", "x=1", "A_B=2", "=x", "if", "then", "{", "}", "!", "time", "in", " ", "  ", "\t",
           "&&", "||", "|", "|&", "&", ";", ";;", "'q s'", "'", '"', '"d q"', '"a $b"', "'$x'", "'a>b'", '"a>b"', "$",
           "$X", "`", "\\", "<", ">", "(", ")", "#", "\n", "\r", "\u00a0", "é", "x'y'z", '"it\'s"', "2>&1", "<<<",
           "{}", "[[", "'(x)'", '"#"', "'#'", "\v", "\f", "a\\ b", "~", "*", "?"]


@settings(max_examples=5000, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=14).map("".join))
def test_fast_items_agrees_with_the_version_it_replaced(text):
    assert fast_items(text) == reference_fast_items(text)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab =-'\"|&;$<>()#\\`\n\t\u00a0"), max_size=20))
def test_fast_items_agrees_on_arbitrary_text(text):
    assert fast_items(text) == reference_fast_items(text)


def test_fast_items_agrees_on_a_table_of_lines():
    for line in ["git status", "git add . && git commit -m 'fix bug'", "cat a | grep b", "echo 'a > b'", "a&&b",
                 "echo \"x\" $HOME", "ls   ", "x=1 ls", "ls; x=1", "a |", "| a", "a & b &", "'unterminated",
                 "echo '$(rm -rf /)'", "echo \"$(rm)\"", "a\u00a0b", "echo 'a\nb'", "echo hi # c", ""]:
        assert fast_items(line) == reference_fast_items(line), line


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=10).map("".join), st.integers(0, 40))
def test_skip_blanks_moves_only_from_a_skippable_character(text, i):
    """The parser calls skip_blanks only at a character of _SKIPPABLE: anywhere else it would not move."""
    from rules.governance.shell import _SKIPPABLE, _Parser

    p = _Parser(text)
    p.i = min(i, len(text))
    p.skip_blanks()
    if p.i != min(i, len(text)):
        assert text[min(i, len(text))] in _SKIPPABLE
