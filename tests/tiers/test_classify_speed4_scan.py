"""Session-4 fast path of the lexicon scan: a compiled loose pattern is searched only when the rest of its trigger
holds (a condition every match meets), tested as compiled literal alternations once hot.

- ``_may_match_hot`` answers what ``_may_match`` answers, before and after it compiles a trigger;
- ``scan`` gives the same hits as the former loop (every compiled pattern searched whatever its trigger) on the
  eval lines and on generated lines full of the triggers' literals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.conftest import SHARED
from tiers import lexicon as lx
from tiers.text import fold

ROOT = Path(__file__).resolve().parents[2]


def _triggers() -> list[tuple]:
    t = lx._tables()
    out = []
    for _need, members in t.groups:
        out += [rest for _ci, _idx, _pat, rest, _at in members if rest is not None]
    for groups in t.char_groups.values():
        for members in groups:
            out += [rest for _ci, _idx, _pat, rest, _at in members if rest is not None]
    return list(dict.fromkeys(out))


def _literals() -> list[str]:
    return sorted({lit for trig in _triggers() for need in trig if need != "digit" for lit in need})


def _eval_lines() -> list[str]:
    lines = []
    for path in (SHARED / "eval" / "tiers-dev.jsonl", ROOT / "benchmarks" / "heldout" / "tiers-heldout.jsonl"):
        if path.exists():
            lines += [json.loads(x)["line"] for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for path in (SHARED / "eval" / "conflicts-dev.jsonl", ROOT / "benchmarks" / "heldout" / "conflicts-heldout.jsonl"):
        if path.exists():
            for x in path.read_text(encoding="utf-8").splitlines():
                if x.strip():
                    case = json.loads(x)
                    lines += case["memory"] + [case["candidate"]]
    return lines


_TEXT = st.lists(st.one_of(st.sampled_from(_literals() + ["1", "42", "3.5", " ", "ok", "%", "мс"]),
                           st.text(max_size=6)), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_the_hot_trigger_test_answers_what_the_plain_one_answers(text):
    for trig in _triggers():
        for has_digit in (False, True):
            want = lx._may_match(trig, text, has_digit)
            assert lx._may_match_hot(trig, text, has_digit) == want, (trig, text)


def test_a_trigger_compiles_only_once_hot():
    trig = (("zzq-unused", "qqz"),)
    lx._TRIGGER_RX.pop(trig, None)
    for n in range(lx.COMPILE_AFTER):
        assert lx._may_match_hot(trig, "a qqz b", False)
        assert lx._TRIGGER_RX[trig][1] is None
    assert not lx._may_match_hot(trig, "nothing here", False)
    assert lx._TRIGGER_RX[trig][1] is not None
    assert lx._may_match_hot(trig, "x zzq-unused", False)
    lx._TRIGGER_RX.pop(trig, None)


def _scan_without_trigger_test(monkeypatch, f):
    monkeypatch.setattr(lx, "_may_match_hot", lambda trigger, text, has_digit: True)
    try:
        return lx.scan(f)
    finally:
        monkeypatch.undo()


@pytest.fixture(scope="module")
def warm():
    """Every loose pattern compiled and every trigger hot (the state a long lint reaches)."""
    t = lx._tables()
    for _need, members in t.groups:
        for _ci, _idx, pat, _rest, _at in members:
            pat.compiled(False)
    for trig in _triggers():
        for _ in range(lx.COMPILE_AFTER + 1):
            lx._may_match_hot(trig, "", False)


def test_scan_equals_the_former_loop_on_the_eval_lines(warm, monkeypatch):
    lines = _eval_lines()
    assert len(lines) > 500
    for line in lines:
        f = fold(line)
        assert lx.scan(f) == _scan_without_trigger_test(monkeypatch, f), line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_literals() + ["12", "404", "3,5", "user", "said", " ", "- ", "мин", "%", "ms",
                                                "tests", "failed", "ошибки", "5 мс", "200 ok"]), max_size=14))
def test_scan_equals_the_former_loop_on_lines_of_trigger_literals(warm, monkeypatch, words):
    f = fold(" ".join(words))
    assert lx.scan(f) == _scan_without_trigger_test(monkeypatch, f)
