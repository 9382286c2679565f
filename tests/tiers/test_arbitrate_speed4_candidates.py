"""Candidate selection's session-4 fast paths give what the eager computation gives.

- a file's cut score level deferred to the walk (a marker stream, cut by ``_admit_level`` when the walk reaches it)
  holds exactly the constraints ``_admit`` keeps;
- the per-file memo of streams (keyed by the line's keys the file holds) returns what a fresh computation returns,
  whatever other lines were scored before on the same files.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from tiers import arbitrate as arb
from tiers.model import Tier

_KEYS = ["w:a", "w:b", "w:c", "w:d", "w:e", "DEPLOY", "DAY"]


def _files(rows_per_file):
    built = []
    for fnum, rows in enumerate(rows_per_file):
        cons = [arb.Constraint(Tier.DECISION if dec else Tier.DIRECTIVE, f"f{fnum}#{i}", f"f{fnum}.md", i,
                               f"line {i}", None, None, False) for i, (_, dec, _) in enumerate(rows)]
        postings: dict[str, list[int]] = {}
        for i, (k, _, _) in enumerate(rows):
            for key in k:
                postings.setdefault(key, []).append(i)
        built.append(arb._FileIndex(cons, [k for k, _, _ in rows], postings, [w for _, _, w in rows]))
    return built


def _expand(streams, deferred):
    """Every (neg score, file, index) the streams stand for, markers replaced by their admitted level."""
    out = []
    for neg, fnum, i, rest in streams:
        if rest < 0:
            level = arb.ConstraintIndex._admit_level(*deferred[fnum])
            assert level and all(-sc == neg for sc, _, _ in level)
            for _, _, g in level:
                assert (g & -g).bit_length() - 1 >= i  # no admitted constraint sorts before the marker
                while g:
                    low = g & -g
                    out.append((neg, fnum, low.bit_length() - 1))
                    g ^= low
            continue
        out.append((neg, fnum, i))
        while rest:
            low = rest & -rest
            out.append((neg, fnum, low.bit_length() - 1))
            rest ^= low
    return sorted(out)


_ROWS = st.lists(st.lists(st.tuples(st.frozensets(st.sampled_from(_KEYS), min_size=1, max_size=4), st.booleans(),
                                    st.sampled_from([0.5, 1.0, 3.0])), max_size=90), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_ROWS, st.frozensets(st.sampled_from(_KEYS), min_size=1), st.integers(1, 6), st.integers(1, 30))
def test_a_deferred_cut_level_holds_what_admit_keeps(monkeypatch, rows, keys, limit, cap):
    monkeypatch.setattr(arb, "POSTING_CAP", cap)
    index = arb.ConstraintIndex(_files(rows))
    kw = {k: arb.lexicon().weight(k) for k in keys}
    for fnum, f in enumerate(index._files):
        eager = index._file_streams(fnum, f, keys, kw, 3 * limit)
        deferred: dict = {}
        lazy = index._file_streams(fnum, f, keys, kw, 3 * limit, deferred)
        assert _expand(lazy, deferred) == _expand(eager, {}) == sorted(index._file_top(fnum, f, keys, kw, 3 * limit))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_ROWS, st.lists(st.tuples(st.frozensets(st.sampled_from(_KEYS + ["w:zz"]), min_size=1),
                                 st.frozensets(st.sampled_from(_KEYS)), st.booleans(), st.integers(1, 6)),
                       min_size=1, max_size=8), st.integers(1, 30))
def test_memoized_streams_equal_a_fresh_scoring(monkeypatch, rows, queries, cap):
    """One index answers a sequence of lines (memo shared, keys absent from a file included) like the reference."""
    monkeypatch.setattr(arb, "POSTING_CAP", cap)
    index = arb.ConstraintIndex(_files(rows))
    for keys, slots, indiff, limit in queries:
        got = index._candidates(keys, slots, indiff, limit)
        assert got == index._candidates_reference(keys, slots, indiff, limit)
        fresh = arb.ConstraintIndex(_files(rows))
        assert got == fresh._candidates(keys, slots, indiff, limit)


def test_the_walk_cuts_a_level_only_when_it_reaches_it():
    """The cut falls in a file's second score level; the walk keeps ``limit`` constraints of the first and stops
    without cutting it. With a smaller first level the walk reaches the marker and cuts it."""
    real = arb.ConstraintIndex._admit_level
    for top, expect_cut in ((5, False), (2, True)):
        rows = [(frozenset({"w:a", "w:b", "w:c"}) if i < top else frozenset({"w:a", "w:b"}), False, 1.0)
                for i in range(200)]
        random.Random(3).shuffle(rows)
        index = arb.ConstraintIndex(_files([rows]))
        keys = frozenset({"w:a", "w:b", "w:c"})
        calls = []

        def counting(*args):
            calls.append(args)
            return real(*args)

        arb.ConstraintIndex._admit_level = staticmethod(counting)
        try:
            got = index._candidates(keys, frozenset(), False, 4)
        finally:
            arb.ConstraintIndex._admit_level = staticmethod(real)
        assert got == index._candidates_reference(keys, frozenset(), False, 4)
        assert len(got) == 4
        assert bool(calls) is expect_cut


def _plain_arbitrate(index, text, tier, file, check=arb.check_conflict):
    """``arbitrate`` (no judge, unverified) as a plain loop of ``check`` over the candidates."""
    from tiers.concepts import analyze
    from tiers.stamps import split_stamp
    from tiers.text import strip_markup

    content = split_stamp(text)[0].strip()
    a = analyze(content)
    if not strip_markup(content):
        return "allow", ()
    conflicts = []
    for cons in index.candidates(a):
        if cons.file == file and cons.content == content:
            continue
        cf = check(a, tier, cons)
        if cf is not None:
            conflicts.append(cf)
    if not conflicts:
        return "allow", ()
    conflicts.sort(key=lambda cf: (-cf.constraint.tier.rank, -cf.strength))
    return "block", tuple(conflicts)


def test_arbitrate_with_kept_features_equals_the_plain_loop():
    """arbitrate() hands the fast check its line's features and each constraint's (analysis, features) kept with
    the index; the decisions and conflicts are those of check_conflict called candidate by candidate."""
    import json
    from pathlib import Path

    from tests.conftest import DATA
    from tiers.classify import classify

    root = Path(__file__).resolve().parents[2]
    cases = []
    for path in (DATA / "eval" / "conflicts-dev.jsonl", root / "benchmarks" / "heldout" / "conflicts-heldout.jsonl"):
        if path.exists():
            cases += [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert cases
    files: dict[str, list[str]] = {}
    lines = []
    for n, case in enumerate(cases):
        files.setdefault(f"memory/2026-03-{n % 5 + 1:02d}.md", []).extend(case["memory"])
        lines += [case["candidate"]] + case["memory"]
    index = arb.ConstraintIndex.from_texts({rel: "\n".join(m) + "\n" for rel, m in files.items()})
    blocks = 0
    for line in dict.fromkeys(lines):
        for tier in {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}:
            got = arb.arbitrate(index, line, tier, file="memory/2026-03-01.md")
            assert (got.decision, got.conflicts) == _plain_arbitrate(index, line, tier, "memory/2026-03-01.md"), line
            blocks += got.decision == "block"
    assert blocks > 100
