"""The lint speed paths answer exactly like the plain computations they replace (issue #5).

Each fast path is checked against the straightforward version on a corpus (rule fixtures, test sources, eval-like
lines) and on generated text: whole-file secret lines, the per-file line facts and CU203's digit-run grouping.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import secrets
from rules.document import normalized_bodies, normalized_content, parse

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> list[str]:
    lines: list[str] = []
    for path in sorted((ROOT / "tests" / "rules").glob("*.py")) + sorted((ROOT / "tests" / "rules" / "fixtures").glob("*.md")):
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    lines += ["- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "AKIAABCDEFGHIJKLMNOP", "пароль: Hunter2!x",
              "İstanbul PASSWORD: Abcdef1!", "- ΣΑΣ token: abcdefghijklmnop12", "x" * 7, ""]
    return list(dict.fromkeys(lines))


_TEXT = st.lists(st.sampled_from(list("aeiost_ -.:/@'2İΣпароль\u200b\u202eghp\t") + [
    "api", "token", "pass", "://", "sk-", "ключ", "repl", "5reply", "x.io", "1.2.3"]), max_size=25).map("".join)


def _check_secret_lines(texts: list[str]) -> None:
    got = secrets.secret_lines(texts)
    assert got == sorted(set(got))
    needed = [i for i, t in enumerate(texts) if len(t) >= 8 and secrets._needed(t) is not None]
    assert set(needed) <= set(got)
    assert [i for i, t in enumerate(texts) if secrets.find_secrets(t)] == [i for i in got if secrets.find_secrets(texts[i])]


def test_secret_lines_keeps_every_line_that_may_hold_a_secret() -> None:
    texts = _corpus()
    _check_secret_lines(texts)
    _check_secret_lines(texts[:1])
    _check_secret_lines([])


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXT, max_size=8))
def test_secret_lines_on_generated_files(texts: list[str]) -> None:
    _check_secret_lines(texts)


def test_file_context_line_facts_match_the_lines() -> None:
    from rules.engine import FileContext, LintConfig, RunContext

    text = "\n".join(_corpus()) + "\n- a <!-- cuticle: disable-line CU202 --> b\n\ufeff- x\u200b\n"
    doc = parse(text)
    ctx = FileContext(path="MEMORY.md", data=text.encode(), doc=doc, options={}, run=RunContext(None, LintConfig()))
    assert ctx.memory_lines == [line for line in doc.lines if line.is_memory]
    assert ctx.memory_bodies == [line.body for line in ctx.memory_lines]
    assert ctx.memory_keys == [normalized_content(line.text) for line in ctx.memory_lines]
    assert all(ctx.normalized(line.text) == normalized_content(line.text) for line in doc.lines)
    assert [line for line in doc.lines if line.stamp is not None or line.stamp_error] == [
        line for line in ctx.stamp_lines if line.stamp is not None or line.stamp_error]
    from rules.unicode import scan

    assert [line for line in doc.lines if scan(line.text)] == [line for line in ctx.unicode_lines if scan(line.text)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_normalized_bodies_is_normalized_content(texts: list[str]) -> None:
    texts = [t.replace("\n", " ").replace("\r", " ") for t in texts]
    doc = parse("\n".join("- " + t for t in texts))
    lines = [line for line in doc.lines if line.is_memory]
    assert normalized_bodies([x.text for x in lines], [x.body for x in lines]) == [
        normalized_content(x.text) for x in lines]


def _near_duplicates_reference(keys: list[str], min_words: int, threshold: float) -> list[tuple[int, int, float]]:
    """CU203 as first written: every distinct line tokenized, grouped by its words that hold a digit."""
    from rules.memory.cu203_near_duplicate import _DIGIT, _similar_pairs, _tokens

    items = []
    seen = set()
    for n, key in enumerate(keys, 1):
        if key in seen:
            continue
        seen.add(key)
        toks = _tokens(key)
        if len(toks) >= min_words:
            items.append((_Line(n), toks))
    groups = defaultdict(list)
    for item in items:
        groups[frozenset(filter(_DIGIT.search, item[1]))].append(item)
    found = []
    for group in groups.values():
        if len(group) > 1:
            found.extend(_similar_pairs(group, threshold))
    return [(a.number, b.number, s) for a, b, s in sorted(found, key=lambda x: x[0].number)]


class _Line:
    def __init__(self, number: int) -> None:
        self.number = number


class _Ctx:
    def __init__(self, keys: list[str]) -> None:
        self.memory_lines = [_Line(n) for n in range(1, len(keys) + 1)]
        self.memory_keys = keys
        self.options = {"threshold": 0.8, "min_words": 4}
        self.path = "MEMORY.md"


def _near_duplicates(keys: list[str]) -> list[tuple[int, int, float]]:
    from rules.memory.cu203_near_duplicate import check

    out = []
    for p in check(_Ctx(keys)):
        other, sim = re.search(r"line (\d+) \(similarity ([\d.]+)\)", p.message).groups()
        out.append((p.line, int(other), round(float(sim), 2)))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "7", "x7", "7x", "8", "v1'2", "a'b", "٣",
                                          "²", "3²"]), min_size=3, max_size=7).map(" ".join), max_size=12))
def test_cu203_groups_like_the_reference(keys: list[str]) -> None:
    want = [(a, b, round(s, 2)) for a, b, s in _near_duplicates_reference(keys, 4, 0.8)]
    assert _near_duplicates(keys) == want


def test_cu203_on_the_corpus_like_the_reference() -> None:
    keys = [normalized_content(t) for t in _corpus() if t.strip()]
    keys += [k + " 7" for k in keys[::3]] + [k.replace("a", "e") for k in keys[::5]]
    want = [(a, b, round(s, 2)) for a, b, s in _near_duplicates_reference(keys, 4, 0.8)]
    assert _near_duplicates(keys) == want
