"""On plain text the stdlib `re` reads tiers.concepts' patterns exactly as `regex` does (so a fresh process need
not import `regex`); any other text goes to `regex`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import concepts as c

PLAIN = [chr(i) for i in range(0x2100) if c._plain(chr(i))]
LETTERS = sorted(set("abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя"))


def _patterns() -> list[tuple[str, c._LazyRe]]:
    out = []
    for name, v in vars(c).items():
        if isinstance(v, c._LazyRe):
            out.append((name, v))
        elif isinstance(v, tuple) and v and all(isinstance(x, c._LazyRe) for x in v):
            out.extend((f"{name}[{i}]", x) for i, x in enumerate(v))
    return out


@pytest.mark.parametrize("cls", [r"\w", r"\W", r"\d", r"\D", r"\s", r"\S", r"\b", r"\B", r"\p{Lu}", r"\p{Ll}"])
def test_character_classes_agree_on_every_plain_character(cls: str) -> None:
    mine = re.compile(c._re_source(cls))
    theirs = regex.compile(cls)
    for ch in PLAIN:
        for probe in (ch, "a" + ch, ch + "a", " " + ch, ch + " "):
            for pos in range(len(probe) + 1):
                assert bool(mine.match(probe, pos)) == bool(theirs.match(probe, pos)), (cls, hex(ord(ch)), pos)


def test_case_insensitive_letters_agree_on_every_plain_character() -> None:
    for letter in LETTERS:
        mine, theirs = re.compile("(?i)" + letter), regex.compile("(?i)" + letter)
        for ch in PLAIN:
            assert bool(mine.match(ch)) == bool(theirs.match(ch)), (letter, hex(ord(ch)))


def test_plain_test_rejects_what_it_must() -> None:
    assert c._plain("User said: never deploy on Fridays — «не выкатывать» 10:00 €5")
    for ch in ("\u00b2", "\u00bd", "\u0131", "\u017f", "\u0301", "\u0483", "\u1c80", "\u200d", "\u203f", "\u001c",
               "\U0001f600", "\u4e2d"):
        assert not c._plain("ok " + ch), hex(ord(ch))


def _compare(pat: c._LazyRe, text: str) -> None:
    mine = re.compile(c._re_source(pat._source), pat._flags)
    theirs = regex.compile(pat._source, pat._flags)
    a = [(m.span(), m.groups(), m.lastgroup) for m in mine.finditer(text)]
    b = [(m.span(), m.groups(), m.lastgroup) for m in theirs.finditer(text)]
    assert a == b, (pat._source[:60], text)
    assert mine.split(text, maxsplit=1) == theirs.split(text, maxsplit=1)


def _corpus() -> list[str]:
    root = Path(__file__).resolve().parents[2]
    lines = []
    for p in sorted((root / "sample-workspace").rglob("*.md")):
        lines += p.read_text(encoding="utf-8").splitlines()
    shared = root / "benchmarks" / "data" / "eval"
    for p in sorted(shared.glob("*.jsonl")) if shared.is_dir() else []:
        for raw in p.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                case = json.loads(raw)
                lines += [case.get("line", ""), case.get("candidate", ""), *case.get("memory", [])]
    return [ln for ln in lines if ln and c._plain(ln)]


@pytest.mark.parametrize("name_pat", _patterns(), ids=lambda np: np[0])
def test_every_pattern_agrees_on_the_corpus(name_pat) -> None:
    _, pat = name_pat
    for line in _corpus():
        for text in (line, c.normalize(line)):
            _compare(pat, text)


PLAIN_TEXT = st.text(alphabet=st.sampled_from(PLAIN[:0x250] + [ch for ch in PLAIN if ch >= "\u0400"]), max_size=40)
WORDY = st.lists(st.sampled_from(["call me", "Sam", "not", "name:", "имя:", "зовут", "в", "Москве", "10:00",
                                  "utc+3", "jan", "5", "dd.mm.yyyy", "default", "=", "—", ":", "«Ригла»", "(LHR)",
                                  "2026-11-30t10:00+03:00", "http://x.io/a", "--force", "по", "умолчанию", "msk",
                                  "time", "15th", "3-го", "выкатил", "ed", "and", ",", ".", "ſ", "İ"]),
                 max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(PLAIN_TEXT, WORDY))
def test_every_pattern_agrees_on_generated_plain_text(text: str) -> None:
    if not c._plain(text):
        return
    for _, pat in _patterns():
        _compare(pat, text)


def test_engine_choice_follows_the_text() -> None:
    pat = c._LazyRe(r"\w+")
    assert pat.findall("plain words") == ["plain", "words"]
    assert pat._re is not None and pat._rx is None
    assert pat.findall("x\u0301y") == ["x\u0301y"]  # a combining mark is a word character for `regex` only
    assert pat._rx is not None
