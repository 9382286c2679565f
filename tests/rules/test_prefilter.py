"""Literal prefilters never drop a match: derived sets are sound, and the poisoning gate table is current."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules import poisoning
from rules.prefilter import possible, render_gates, required_literals

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("pattern", "text", "can"), [
    (r"\bignore\s+previous", "please ignore   previous", True),
    (r"\bignore\s+previous", "please ignore it", False),
    (r"(?:user|owner)'?s?\s+rules?\b.{0,9}\boutdated", "user said: never deploy", False),
    (r"(?:user|owner)'?s?\s+rules?\b.{0,9}\boutdated", "the owner rules are outdated", True),
    (r"a|b", "xbx", True),
    (r"a|b", "xyz", False),
    (r"x?y", "y", True),
    (r"\w+", "anything", True),
    (r"(?i)abc", "ABC", True),
    (r"(?:abc){2,}", "xabcabcx", True),
], ids=["seq", "seq-missing", "two-sets", "two-sets-present", "branch", "branch-missing", "optional", "no-literal",
        "ignorecase", "repeat"])
def test_possible_answers_like_the_pattern_on_simple_cases(pattern: str, text: str, can: bool) -> None:
    lits = required_literals(pattern)
    assert possible(lits, text) is can
    if re.search(pattern, text):
        assert possible(lits, text)


def test_patterns_without_required_text_get_no_prefilter() -> None:
    assert required_literals(r"\w+") is None
    assert required_literals(r"(?i)abc") is None
    assert required_literals(r"(?:abc)?") is None


def test_poisoning_gate_table_is_generated_from_the_current_patterns() -> None:
    current = render_gates(poisoning.gate_sources())
    on_disk = (ROOT / "rules" / "poisoning_gates.json").read_text(encoding="utf-8")
    assert on_disk == current, "patterns changed: run `python -m rules.prefilter` to regenerate rules/poisoning_gates.json"
    assert set(json.loads(on_disk)) == set(poisoning.gate_sources())


def _corpus() -> list[str]:
    lines: list[str] = []
    for path in sorted((ROOT / "benchmarks" / "data" / "eval").glob("*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                row = json.loads(raw)
                lines.extend(v for v in row.values() if isinstance(v, str))
    for path in sorted((ROOT / "tests" / "rules").glob("*.py")) + sorted((ROOT / "tests" / "rules" / "fixtures").glob("*.md")):
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    return [poisoning.normalize(poisoning.reveal(line)) for line in dict.fromkeys(lines) if line.strip()]


def test_every_match_of_every_poisoning_pattern_passes_its_prefilter() -> None:
    texts = _corpus()
    gates = poisoning._gates()
    assert len(texts) > 500
    checked = 0
    for key, (source, flags) in poisoning.gate_sources().items():
        compiled = re.compile(source, flags)
        for text in texts:
            for m in compiled.finditer(text):
                checked += 1
                assert possible(gates[key], m.group(0)), (key, m.group(0))
    assert checked > 1000


def test_gated_pattern_answers_exactly_like_the_compiled_one() -> None:
    aux = poisoning._aux()
    texts = _corpus()[:3000]
    for key in ("neg", "report", "f_user_void", "dest_hint", "trust_strong", "url"):
        gated = aux[key]
        for text in texts:
            assert [m.span() for m in gated.finditer(text)] == [m.span() for m in gated.pattern.finditer(text)]
            assert gated.sub(" ", text) == gated.pattern.sub(" ", text)


def test_hand_written_prechecks_never_skip_a_match() -> None:
    aux = poisoning._aux()
    texts = _corpus() + ["see docs.example.org", "at 10.0.0.1.", "reply to all", "x" * 25, "a=QUJDREVGR0hJSktMTU5PUFFSU1RVVg=="]
    for text in texts:
        if aux["dest_hint"].pattern.search(text):
            assert aux["dest_dot"].pattern.search(text) or aux["dest_hint_other"].possible(text), text
        if aux["b64_token"].pattern.search(text):
            assert max(map(len, text.split()), default=0) >= 20, text


def test_every_secret_pattern_match_holds_one_of_its_anchors() -> None:
    import regex

    from rules import secrets

    assert len(secrets._PATTERN_ANCHORS) == len(secrets._PATTERNS)
    lines = [line for line in _raw_corpus() if line.isascii()] + [
        "- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "AKIAABCDEFGHIJKLMNOP", "password: Hunter2!x",
        "postgres://app:s3cr3tPW@db.internal/app", "Bearer abcdefghijklmnopqrstuvwxyz012345", "SG.abcdefghijklmnop.abcdefghijklmnopqrstu"]
    hits = 0
    for (kind, source, _group), anchors in zip(secrets._PATTERNS, secrets._PATTERN_ANCHORS):
        compiled = regex.compile(source)
        for line in lines:
            if compiled.search(line):
                hits += 1
                assert any(a in line.lower() for a in anchors), (kind, line)
    assert hits >= 6


def _raw_corpus() -> list[str]:
    lines: list[str] = []
    for path in sorted((ROOT / "tests" / "rules").glob("*.py")) + sorted((ROOT / "tests" / "rules" / "fixtures").glob("*.md")):
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    return list(dict.fromkeys(lines))
