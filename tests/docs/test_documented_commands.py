"""Documentation names only commands and options that exist: every `cuticle …` in the README and docs/ (code
blocks and inline code) is checked against the real argparse parser."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from gate.cli import COMMANDS, _build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: a `cuticle` at the start of a command: line start, after a prompt, a shell operator or an opening bracket
_START = re.compile(r"(?:^|(?<=[\s`($|&;]))cuticle[ \t]+(.*)$")


def code_texts(text: str) -> list[str]:
    """The lines of fenced code blocks and the inline code spans of a Markdown text."""
    out, prose, fenced = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        (out if fenced else prose).append(line)
    out += re.findall(r"`([^`\n]+)`", "\n".join(prose))
    return out


def invocations(text: str) -> list[list[str]]:
    """Each `cuticle …` command of the code in ``text``, as words, up to a shell operator or a comment."""
    found = []
    for code in code_texts(text):
        for segment in re.split(r"(?<![<>&|])(?:&&|\|\||\||;)(?=(?:[^\"']*[\"'][^\"']*[\"'])*[^\"']*$)", code):
            m = _START.search(segment.strip())
            if not m:
                continue
            rest = m.group(1).split("`", 1)[0]  # a code span inside a code line ends the command
            lexer = shlex.shlex(rest, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            try:
                words = list(lexer)
            except ValueError:  # an unbalanced quote: an excerpt, checked word by word
                words = rest.split()
            cut = next((i for i, w in enumerate(words) if w[0] in "<>|&;#" or w == "…"), len(words))
            if words[:cut]:
                found.append(words[:cut])
    return found


def _options(name: str) -> set[str]:
    text = _build_parser(name).subcommands[name].format_help()
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text.split("options:", 1)[-1]))


_KNOWN = {name: _options(name) for name in COMMANDS}
_TOP = {"--version", "--help", "-h"}
_OPTION = re.compile(r"--?[A-Za-z][\w-]*(?:=.*)?")


def _check(words: list[str]) -> list[str]:
    first = words[0]
    if first in _TOP:
        return []
    if first not in COMMANDS:
        if first.isupper() or first.startswith("<"):  # a placeholder: `cuticle COMMAND --help`
            return []
        return [f"no subcommand {first!r}"]
    problems = []
    for word in words[1:]:
        if _OPTION.fullmatch(word):  # not a quoted argument such as "- Never deploy on Fridays."
            option = word.split("=", 1)[0]
            if option not in _KNOWN[first] and option != "--":
                problems.append(f"`cuticle {first}` has no option {option}")
    return problems


CASES = [(path.relative_to(ROOT).as_posix(), words)
         for path in DOCS for words in invocations(path.read_text(encoding="utf-8"))]


def test_the_docs_name_cuticle_commands_at_all():
    readme = [w for p, w in CASES if p == "README.md"]
    assert len(readme) > 30
    assert {w[0] for w in readme} >= {"demo", "lint", "classify", "init", "hook", "evaluate", "gc", "render"}


@pytest.mark.parametrize(("doc", "words"), CASES, ids=[f"{p}:{' '.join(w)[:60]}" for p, w in CASES])
def test_every_documented_command_and_option_exists(doc: str, words: list[str]):
    assert _check(words) == [], f"{doc}: cuticle {' '.join(words)}"


@pytest.mark.parametrize(("text", "expected"), [
    ("`cuticle lint --format sarif`", [["lint", "--format", "sarif"]]),
    ("```sh\ngit diff --cached | cuticle lint --diff -\n```", [["lint", "--diff", "-"]]),
    ("```sh\ncuticle rules && cuticle rule CU302   # the table\n```", [["rules"], ["rule", "CU302"]]),
    ("`cuticle evaluate -c \"a && b\" --json`", [["evaluate", "-c", "a && b", "--json"]]),
    ("see `.cuticle/` and the `cuticle-lint` hook", []),
    ("```console\n$ cuticle hook claude <<'EOF'\n```", [["hook", "claude"]]),
], ids=["inline", "after-a-pipe", "chain-and-comment", "quoted-operator", "not-commands", "heredoc"])
def test_commands_are_found_where_a_reader_sees_them(text, expected):
    assert invocations(text) == expected


@pytest.mark.parametrize(("words", "problem"), [
    (["lint", "--formt", "json"], "has no option --formt"),
    (["frobnicate"], "no subcommand"),
    (["classify", "--file=x", "-f", "y", "--bogus"], "has no option --bogus"),
    (["lint", "-x"], "has no option -x"),
], ids=["misspelt-option", "unknown-command", "one-bad-among-good", "short-flag"])
def test_a_wrong_command_or_option_is_caught(words, problem):
    assert any(problem in p for p in _check(words))


def test_docs_cli_lists_every_subcommand():
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split("## Subcommands", 1)[1]
    assert sorted(set(re.findall(r"`([a-z-]+)`", text)) & set(COMMANDS)) == sorted(COMMANDS)
