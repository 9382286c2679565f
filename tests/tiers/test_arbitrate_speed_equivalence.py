"""The fast paths of arbitration give what the plain computations give.

- ``check_conflict`` (per-analysis features, skips of steps that cannot fire) against
  ``_check_conflict_exhaustive`` (every step evaluated in full), for every constraint of an index, not only the
  retrieved candidates;
- ``ConstraintIndex._candidates`` (postings intersected as bit sets, groups walked lazily) against
  ``_candidates_reference`` (every constraint scored one by one), with the posting cap lowered so the frequent-key
  paths and the per-file cut at ``3 * limit`` run too;
- ``arbitrate`` on a mention line (which skips candidate retrieval) against the full loop.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from test_arbitrate_speed4_candidates import _files  # synthetic file indexes from (keys, is-decision, weight) rows
from tests.conftest import DATA
from tiers import arbitrate as arb
from tiers.classify import classify
from tiers.concepts import analyze
from tiers.model import Tier

ROOT = Path(__file__).resolve().parents[2]
DATA = [DATA / "eval" / "conflicts-dev.jsonl", ROOT / "benchmarks" / "heldout" / "conflicts-heldout.jsonl"]

TEMPLATES = [
    "- User said: never deploy {svc} on {day}.",
    "- Decided with the user: use {db} for {svc} until the migration.",
    "- `pytest` on {svc} reported {n} failures in run {n}.",
    "- Probably the {svc} cache is stale after release {n}.",
    "- Пользователь сказал: отчёты по {svc} присылай до {h}:00.",
    "- Кажется, сервис {svc} падает из-за таймаута {n} мс.",
    "- The {svc} team meets on {day} at {h}:30.",
    "- It is fine to deploy {svc} on {day}.",
    "- Use {db} for {svc} everywhere.",
    "- Можно присылать отчёты по {svc} после {h}:00.",
    "- User said: no calls with {svc} before {h}:00.",
    "- A call with {svc} at {h}:30 is fine.",
    "- Пользователь сказал: не звонить по {svc} после {h}:00.",
    "- User said: never spend more than {n} dollars on {svc}.",
    "- Spending {n} dollars on {svc} is OK.",
    "- Decided with the user: {db} only for {svc} in production.",
    "- {db} runs {svc} everywhere now.",
    "- User said: my timezone is Europe/{city}.",
    "- The timezone is Europe/{city}.",
]


def _cases() -> list[dict]:
    out = []
    for path in DATA:
        if path.exists():
            out += [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return out


def _synthetic(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(TEMPLATES).format(svc=f"svc{rng.randint(1, 12)}", day=rng.choice(["Friday", "Monday"]),
                                         db=rng.choice(["SQLite", "Postgres"]), n=rng.randint(1, 99),
                                         h=rng.randint(6, 22), city=rng.choice(["Berlin", "Lisbon"]))
            for _ in range(n)]


@pytest.fixture(scope="module")
def corpus() -> tuple[arb.ConstraintIndex, list[str]]:
    """One index over every case's memory (spread over files) and synthetic lines; every line of it to check."""
    cases = _cases()
    files: dict[str, list[str]] = {}
    lines = []
    for n, case in enumerate(cases):
        files.setdefault(case["file"] if n % 3 else f"memory/2026-01-{n % 9 + 1:02d}.md", []).extend(case["memory"])
        lines.append(case["candidate"])
    for n, line in enumerate(_synthetic(300, 5)):
        files.setdefault(f"memory/2026-02-{n % 4 + 1:02d}.md", []).append(line)
    for memory in files.values():
        lines.extend(memory)
    index = arb.ConstraintIndex.from_texts({rel: "\n".join(m) + "\n" for rel, m in files.items()})
    return index, list(dict.fromkeys(lines))


def _analysis(line: str):
    from tiers.stamps import split_stamp

    return analyze(split_stamp(line)[0].strip())


def test_fast_check_equals_the_exhaustive_check_on_every_pair(corpus):
    index, lines = corpus
    constraints = index.constraints
    assert len(constraints) > 150
    pairs = 0
    blocks = 0
    for line in lines:
        a = _analysis(line)
        tiers = {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}
        for tier in tiers:
            for cons in constraints:
                fast = arb.check_conflict(a, tier, cons)
                assert fast == arb._check_conflict_exhaustive(a, tier, cons), (line, tier, cons.content)
                pairs += 1
                blocks += fast is not None
    assert pairs > 100_000 and blocks > 1_000  # the comparison covers many conflicts, not only passes


@pytest.mark.parametrize("cap", [arb.POSTING_CAP, 40, 8, 2])
def test_fast_candidates_equal_the_reference_scoring(corpus, monkeypatch, cap):
    monkeypatch.setattr(arb, "POSTING_CAP", cap)
    index, lines = corpus
    index = arb.ConstraintIndex(index._files)  # no memo, no bit sets from another cap
    for f in index._files:
        f.inter.clear()  # tails depend on the cap
        f.bits.clear()
    seen = set()
    for line in lines:
        a = _analysis(line)
        keys = a.index_keys
        slots = frozenset(s if not s.startswith("NUM:") else "NUM" for s, _, _ in a.values)
        for limit in (16, 4, 1):
            for indiff in {a.indiff, True}:
                sig = (tuple(keys), slots, indiff, limit)
                if sig in seen:
                    continue
                seen.add(sig)
                got = index._candidates(keys, slots, indiff, limit)
                assert got == index._candidates_reference(keys, slots, indiff, limit), (line, limit, indiff)
    for f in index._files:
        f.inter.clear()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 2 ** 16), min_size=1, max_size=6), st.integers(1, 5), st.integers(2, 30))
def test_candidates_on_random_postings_equal_the_reference(monkeypatch, seeds, limit, cap):
    """Postings with many equal scores (the per-file cut falls inside a tie) and frequent keys."""
    monkeypatch.setattr(arb, "POSTING_CAP", cap)
    rng = random.Random(sum(seeds))
    files = {f"f{n}.md": _synthetic(rng.randint(5, 80), s) for n, s in enumerate(seeds)}
    index = arb.ConstraintIndex.from_texts({rel: "\n".join(m) + "\n" for rel, m in files.items()})
    index = arb.ConstraintIndex(index._files)
    for f in index._files:
        f.inter.clear()
    for line in _synthetic(15, seeds[0]):
        a = _analysis(line)
        slots = frozenset(s if not s.startswith("NUM:") else "NUM" for s, _, _ in a.values)
        assert index._candidates(a.index_keys, slots, a.indiff, limit) == \
            index._candidates_reference(a.index_keys, slots, a.indiff, limit)
    for f in index._files:
        f.inter.clear()


_KEYS = ["w:a", "w:b", "w:c", "w:d", "w:e", "DEPLOY", "DAY"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.tuples(st.frozensets(st.sampled_from(_KEYS), min_size=1, max_size=4), st.booleans(),
                                   st.sampled_from([0.5, 1.0, 3.0])), max_size=70), min_size=1, max_size=3),
       st.frozensets(st.sampled_from(_KEYS), min_size=1), st.frozensets(st.sampled_from(_KEYS)),
       st.booleans(), st.integers(1, 6), st.integers(1, 30))
def test_candidates_on_synthetic_postings_equal_the_reference(monkeypatch, files, keys, slots, indiff, limit, cap):
    """Keys of equal weight and equal posting lengths tie: the per-file cut falls inside ties of several groups."""
    monkeypatch.setattr(arb, "POSTING_CAP", cap)
    built = _files(files)
    index = arb.ConstraintIndex(built)
    assert index._candidates(keys, slots, indiff, limit) == index._candidates_reference(keys, slots, indiff, limit)
    kw = {k: arb.lexicon().weight(k) for k in keys}
    for fnum, f in enumerate(built):  # each file's best 3 * limit, scores and members, whatever the walk needs
        assert _expand(index._file_streams(fnum, f, keys, kw, 3 * limit)) == \
            sorted(index._file_top(fnum, f, keys, kw, 3 * limit))


def _expand(streams: list[tuple[float, int, int, int]]) -> list[tuple[float, int, int]]:
    out = []
    for neg, fnum, i, rest in streams:
        out.append((neg, fnum, i))
        while rest:
            low = rest & -rest
            out.append((neg, fnum, low.bit_length() - 1))
            rest ^= low
    return sorted(out)


def test_bitset():
    assert arb._bitset([]) == 0
    for idx in ([0], [7, 8], [3, 200, 1, 64], list(range(0, 5000, 7))):
        assert arb._bitset(idx) == sum(1 << i for i in idx)


def test_lowest_bits():
    for g in (0b1011_0110, (1 << 300) | (1 << 5) | 1, int("1" * 64, 2)):
        ones = [i for i in range(g.bit_length()) if g >> i & 1]
        for n in range(1, len(ones)):
            assert arb._lowest_bits(g, n) == sum(1 << i for i in ones[:n])


def test_a_mention_is_allowed_without_checks_exactly_when_every_check_passes(corpus):
    index, lines = corpus
    mentions = 0
    for line in lines:
        a = _analysis(line)
        if not (a.mention and not (a.markers & {"PERMIT", "RELAX", "INDIFF"})):
            continue
        mentions += 1
        for cons in index.constraints:
            assert arb._check_conflict_exhaustive(a, Tier.HYPOTHESIS, cons) is None
        assert arb.arbitrate(index, line, Tier.HYPOTHESIS).decision == "allow"
    assert mentions >= 3


def dense_corpus(month: str, spread: int, n_synthetic: int, synthetic_seed: int, later_month: str, seed: int,
                 extra_words: list[str], keep_dash: bool = False) -> tuple[arb.ConstraintIndex, list[str]]:
    """Every case's memory (spread over ``spread`` daily notes of ``month`` and the cases' own files) and half of
    ``n_synthetic`` synthetic constraints (notes of ``later_month``) in one index, and the lines to check: the
    candidates, the memory lines, the synthetic lines and two-word mutations of each (words of the corpus and
    ``extra_words``; ``keep_dash`` keeps a list item's "- " in front)."""
    cases = _cases()
    files: dict[str, list[str]] = {}
    lines = []
    for n, case in enumerate(cases):
        rel = case["file"] if n % 2 else f"memory/{month}-{n % spread + 1:02d}.md"
        files.setdefault(rel, []).extend(case["memory"])
        lines.append(case["candidate"])
        lines.extend(case["memory"])
    synthetic = _synthetic(n_synthetic, synthetic_seed)
    for n, line in enumerate(synthetic[: n_synthetic // 2]):
        files.setdefault(f"memory/{later_month}-{n % 3 + 1:02d}.md", []).append(line)
    lines.extend(synthetic)
    rng = random.Random(seed)
    words = [w for line in lines for w in line.split()]
    for line in list(lines):
        ws = line.split()
        for _ in range(2):
            i = rng.randrange(len(ws))
            ws[i] = rng.choice(words + extra_words)
        lines.append("- " + " ".join(ws[1:]) if keep_dash and ws[0] == "-" else " ".join(ws))
    index = arb.ConstraintIndex.from_texts({rel: "\n".join(m) + "\n" for rel, m in files.items()})
    return index, list(dict.fromkeys(lines))
