"""``_may_mention_ide`` with guard letters answers exactly as the former chain of substring tests (kept here as
the reference), on generated texts built from the words, their letters, case variants and non-ASCII letters whose
lowercase is ASCII (the Kelvin sign, the dotted capital I)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance.analyze import _IDE_WORDS, _may_mention_ide


def _reference(command: str) -> bool:
    if "$" in command or "`" in command:
        return True
    low = command.lower()
    return any(w in low for w in _IDE_WORDS)


_PARTS = [*_IDE_WORDS, *(w.upper() for w in _IDE_WORDS), "c", "C", "j", "J", "w", "W", "z", "Z", "6", "\\", "x", "X",
          "so", "ck", "vs", "code", "-", "server", "ip", "jet", "brains", "wind", "surf", "ze", "d", "base", "64",
          " ", "/", ".", "$", "`", "\u212a", "\u0130", "é", "ß", "a", "e"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PARTS), max_size=12).map("".join))
def test_guarded_words_agree_with_the_plain_chain(text):
    assert _may_mention_ide(text) == _reference(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_guarded_words_agree_on_any_text(text):
    assert _may_mention_ide(text) == _reference(text)


def test_the_reference_is_the_documented_word_list():
    assert _IDE_WORDS == ("sock", "vscode", "cursor", "jetbrains", "code-server", "codeserver", "ipc", "windsurf",
                          "zed", "base64", "\\x")


def test_eval_commands_agree():
    root = Path(__file__).resolve().parents[3]
    lines = []
    for rel in ("benchmarks/heldout/shell-heldout.jsonl",):
        p = root / rel
        if p.exists():
            lines += [json.loads(x)["cmd"] for x in p.read_text().splitlines() if x.strip()]
    for c in lines:
        assert _may_mention_ide(c) == _reference(c)
