"""Session-6 fast paths of ``arbitrate`` give what the exhaustive check of every candidate gives.

- ``_polarity`` with features returns None without its loop when ``_flip_possible`` finds no pair of clauses that
  could flip, and computes the loop's tables (``_Fx.clauses``) only past that test;
- ``arbitrate`` asks ``_may_conflict`` before checking a constraint against a line that is not "indifferent", and
  does not visit the *lone* candidates of its plan (relatedness under RELATED_MIN, not a scoped DECISION) when
  the line holds none of their slots;
- the plan of a scoring is shared by every line of that scoring: the relatedness depends on a line only through
  its index keys.

The necessary conditions are tested as such on every pair of a dense corpus (the exhaustive check finds a
conflict only where they hold), and ``arbitrate`` as a whole against the exhaustive check of every candidate,
with and without a judge, on the conflict sets and on a generated lint workspace.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from test_arbitrate_speed4_candidates import _plain_arbitrate
from test_arbitrate_speed_equivalence import dense_corpus
from tiers import arbitrate as arb
from tiers.classify import classify
from tiers.concepts import KIND_WEIGHT, analyze, lexicon
from tiers.model import Tier
from tiers.stamps import split_stamp

ROOT = Path(__file__).resolve().parents[2]


def _analysis(line: str):
    return analyze(split_stamp(line)[0].strip())


@pytest.fixture(scope="module")
def dense() -> tuple[arb.ConstraintIndex, list[str]]:
    """Every case's memory and synthetic constraints in one index; the lines to check: candidates, memory lines,
    synthetic lines and word-level mutations of them (negations, permissions, Russian words mixed in)."""
    return dense_corpus("2026-05", 4, 300, 23, "2026-06", 17,
                        ["not", "never", "always", "fine", "OK", "without", "не", "можно", "без"])


def test_the_lexicon_weights_are_positive():
    """``_flip_possible`` relies on it: without a disagreeing concept, ``agree`` is never negative."""
    lx = lexicon()
    assert all(w > 0 for w in KIND_WEIGHT.values())
    assert all(w > 0 for w in lx.weights.values())


def test_polarity_with_features_equals_the_plain_polarity_on_every_pair(dense):
    index, lines = dense
    constraints = list({c.content: c for c in index.constraints}.values())
    flips = 0
    for line in lines:
        a = _analysis(line)
        for cons in constraints:
            k = analyze(cons.content)
            cx, kx = arb._fx(a).full(a), arb._fx(k).full(k)
            got = arb._polarity(a, k, cx, kx)
            assert got == arb._polarity(a, k), (line, cons.content)
            flips += got is not None
    assert flips > 300


def test_may_conflict_holds_wherever_the_exhaustive_check_finds_a_conflict(dense):
    """Wherever the exhaustive check finds a conflict with a line that is not "indifferent", ``_may_conflict``
    says it may; for a constraint holding none of the line's slots, below RELATED_MIN that is only ever a scoped
    DECISION (the plan's lone candidates conflict with nothing). And it rules out most pairs."""
    index, lines = dense
    constraints = index.constraints
    found = apart_found = ruled_out = 0
    for line in lines:
        a = _analysis(line)
        if a.indiff:
            continue
        cx = arb._fx(a)
        for cons in constraints:
            k = analyze(cons.content)
            kx = arb._fx(k)
            apart = cx.slots.isdisjoint(kx.slots)
            rel = arb._relatedness(k, a)
            may = arb._may_conflict(a, cx, cons, (k, kx), rel, apart)
            ruled_out += not may
            for tier in (classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION):
                if arb._check_conflict_exhaustive(a, tier, cons) is None:
                    continue
                found += 1
                assert may, (line, cons.content, tier)
                if apart:
                    apart_found += 1
                    assert rel >= arb.RELATED_MIN or (cons.tier is Tier.DECISION and cons.scope), (line, cons.content)
    assert found > 1000 and apart_found > 200 and ruled_out > 10 * found


def test_relatedness_depends_on_the_line_only_through_its_index_keys(dense):
    """So the plan of a scoring (keyed by the index keys) serves every line of it."""
    index, lines = dense
    by_keys: dict[frozenset, object] = {}
    constraints = index.constraints[::3]
    shared = 0
    for line in lines:
        a = _analysis(line)
        first = by_keys.setdefault(a.index_keys, a)
        if first is a:
            continue
        shared += 1
        for cons in constraints:
            k = analyze(cons.content)
            assert arb._relatedness(k, a) == arb._relatedness(k, first), (line, cons.content)
    assert shared > 20


def _reference(index, text, tier, file):
    decision, conflicts = _plain_arbitrate(index, text, tier, file, arb._check_conflict_exhaustive)
    return decision, [(cf.constraint.id, cf.kind, cf.reason, cf.strength) for cf in conflicts]


def _got(index, text, tier, file):
    res = arb.arbitrate(index, text, tier, file=file)
    return res.decision, [(cf.constraint.id, cf.kind, cf.reason, cf.strength) for cf in res.conflicts]


def test_arbitrate_equals_the_exhaustive_check_in_any_order(dense):
    """A fresh index (plans are built by whichever line of a scoring comes first) checked in a shuffled order."""
    index, lines = dense
    shuffled = list(lines)
    random.Random(29).shuffle(shuffled)
    fresh = arb.ConstraintIndex(index._files)
    blocks = 0
    for line in shuffled:
        for tier in {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}:
            got = _got(fresh, line, tier, "memory/2026-06-01.md")
            assert got == _reference(fresh, line, tier, "memory/2026-06-01.md"), (line, tier)
            blocks += got[0] == "block"
    assert blocks > 300


class _Judge:
    """Records what it is asked; finds a conflict in every third question."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, str]] = []

    def __call__(self, content: str, constraint: str, ctx: dict) -> dict:
        self.asked.append((content, constraint, repr(sorted(ctx.items()))))
        return {"conflict": len(self.asked) % 3 == 0, "confidence": 0.9, "reason": "judged"}


def _reference_with_judge(index, text, tier, file, judge):
    """``arbitrate``'s loop with a judge, every candidate checked by the exhaustive check."""
    content = split_stamp(text)[0].strip()
    a = analyze(content)
    decision, conflicts = _plain_arbitrate(index, text, tier, file, arb._check_conflict_exhaustive)
    if decision == "block":
        return decision, [(cf.constraint.id, cf.kind, cf.reason) for cf in conflicts]
    grey = []
    for cons in index.candidates(a):
        if cons.file == file and cons.content == content:
            continue
        rel = arb._relatedness(cons.analysis, a)
        if rel >= arb.RELATED_MIN:
            grey.append((rel, cons))
    found = arb._ask_judge(index, a, tier, content, grey) if grey else []
    if not found:
        return "allow", []
    found.sort(key=lambda cf: (-cf.constraint.tier.rank, -cf.strength))
    return "block", [(cf.constraint.id, cf.kind, cf.reason) for cf in found]


def test_arbitrate_with_a_judge_asks_what_the_exhaustive_loop_asks(dense):
    index, lines = dense
    for line in lines[::2]:
        tier = classify(line).tier
        if not arb.strip_markup(split_stamp(line)[0].strip()):
            continue
        mine, theirs = _Judge(), _Judge()
        fast = arb.ConstraintIndex(index._files, judge=mine)
        slow = arb.ConstraintIndex(index._files, judge=theirs)
        res = arb.arbitrate(fast, line, tier, file="MEMORY.md")
        got = res.decision, [(cf.constraint.id, cf.kind, cf.reason) for cf in res.conflicts]
        assert got == _reference_with_judge(slow, line, tier, "MEMORY.md", theirs), line
        assert mine.asked == theirs.asked, line


@pytest.fixture(scope="module")
def lint_workspace(tmp_path_factory) -> tuple[arb.ConstraintIndex, list[tuple[str, str]]]:
    """A smaller copy of the lint benchmark's generated workspace (its templates, its spread over files)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import lint_speed
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from tiers.markdown import parse_document
    from tiers.workspace import Workspace

    root = tmp_path_factory.mktemp("lint6")
    lint_speed.generate(root, total=1200, seed=11)
    ws = Workspace(root)
    index = arb.ConstraintIndex.from_workspace(ws, persist=False)
    lines = [(ws.relpath(p), ln.content) for p in ws.memory_files()
             for ln in parse_document(p.read_bytes()).memory_lines() if ln.content.strip()]
    return index, lines


def test_arbitrate_on_a_generated_lint_workspace_equals_the_exhaustive_check(lint_workspace):
    index, lines = lint_workspace
    fresh = arb.ConstraintIndex(index._files)
    for rel, line in lines:
        for tier in {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}:
            assert _got(fresh, line, tier, rel) == _reference(fresh, line, tier, rel), (rel, line, tier)


@pytest.mark.parametrize("line", ["- We use Zorblax.", "- Everything uses Zorblax.", "- Cache builds with Quuxcache.",
                                  "- All builds use Quuxcache."])
def test_a_scoped_decision_generalized_below_related_min_is_not_a_lone_candidate(line):
    """A long scope leaves the relatedness under RELATED_MIN and no slot is shared: the plan must still visit the
    DECISION, whose generalization the check finds."""
    index = arb.ConstraintIndex.from_lines([
        "- Decided with the user: use Zorblax for the svc9 billing reports and the invoices archive until the "
        "migration.",
        "- Decided with the user: cache builds with Quuxcache only for the nightly svc7 release pipelines and "
        "dashboards.",
        "- Prefers short standups."])
    a = _analysis(line)
    assert any(arb._relatedness(c.analysis, a) < arb.RELATED_MIN and arb._fx(a).slots.isdisjoint(
        arb._fx(c.analysis).slots) for c in index.constraints if c.tier is Tier.DECISION)
    got = _got(index, line, Tier.HYPOTHESIS, "memory/x.md")
    assert got == _reference(index, line, Tier.HYPOTHESIS, "memory/x.md")
    assert got[0] == "block" and got[1][0][1] == "scope-generalization"


@pytest.mark.parametrize("memory, line", [
    ("- User said: my name is not Samuel Jones.", "- Call the user Samuel."),
    ("- User said: don't call me Samuel.", "- Address the user as Sam."),
    ("- Пользователь сказал: не называй меня Сашей.", "- Call the user Samuel."),
], ids=["denied-name", "other-name", "ru-name"])
def test_a_name_substitution_is_checked(memory, line):
    """A name the constraint denies or gives is a slot the line's name may replace (``_Fx.subst_slots``)."""
    index = arb.ConstraintIndex.from_lines([memory, "- Prefers short standups."])
    got = _got(index, line, Tier.HYPOTHESIS, "memory/x.md")
    assert got == _reference(index, line, Tier.HYPOTHESIS, "memory/x.md")
    assert got[0] == "block" and got[1][0][1] == "value-substitution"
