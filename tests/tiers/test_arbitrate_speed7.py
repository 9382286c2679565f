"""Session-7 fast paths of arbitration give what the plain computations give.

- ``_Fx`` builds its features in stages, per role (``related``, ``line``, ``full``, ``c_flips``, ``k_flips``): each
  stage holds what the single stage of session 6 held, built from the plain definitions here, whatever the order
  the stages are asked for;
- ``arbitrate`` as a whole is compared with the exhaustive check of every candidate on a dense corpus, odd lines
  included (tests/tiers/test_arbitrate_speed6.py covers the conflict sets and a generated lint workspace).
"""

from __future__ import annotations

import random

import pytest

from test_arbitrate_speed4_candidates import _plain_arbitrate
from test_arbitrate_speed_equivalence import dense_corpus
from tiers import arbitrate as arb
from tiers.classify import classify
from tiers.concepts import analyze, lexicon
from tiers.model import Tier
from tiers.stamps import split_stamp

ODD = [
    "", " ", "-", "- ", "`", "**", "<!-- cu:D -->", "- User said:", "- User said: never", "- не", "- без",
    "- User said: never deploy on Fridays unless asked, except hotfixes.",
    "- Пользователь сказал: не звонить до 10:00 и после 19:00, кроме пятницы.",
    "- User said: never spend more than 150 EUR above budget; below 20 is fine.",
    "- Decided with the user: SQLite only for local dev, not for prod or staging.",
    "- e\u0301t\u00e9 \u200b ﬁx İstanbul ǅ Ⅻ 🚀 — ok?",
    "- 2026-11-03 14:30 v2.3.1 /etc/hosts ~/src/app C:\\tmp $300 1,5",
    "- TODO: remind the user that they said never deploy on Fridays.",
    "- The timezone is Europe/Berlin, not UTC; user is Samuel, not Sam.",
    "- Deploying svc3 without review is fine; so reviews can be skipped.",
]


def _analysis(line: str):
    return analyze(split_stamp(line)[0].strip())


def _plain_stages(a) -> dict:
    """What the session-6 ``_Fx`` held after ``full`` and ``flips``, computed the plain way."""
    kind = lexicon().kind
    vals = arb._values(a)
    c_flip, k_flip = [], []
    for cl in a.clauses:
        if cl.exception:
            continue
        signed = [(x, sg > 0) for x, sg in cl.signs.items() if sg and kind.get(x) not in {"generic", "slot"}]
        flipped = [(x, not s) for x, s in signed]
        comparable = [x for x, _ in signed]
        nq = [x for x in comparable if kind.get(x) != "qualifier"]
        if not comparable:
            continue
        k_flip.append((frozenset(flipped), frozenset(comparable), arb._clause_actions(cl, kind)))
        permissive = cl.force in arb._PERMISSIVE
        if nq and cl.force in arb._CONFLICT_FORCES and not (a.report and not permissive):
            c_flip.append((permissive, frozenset(signed), frozenset(nq), cl.signs))
    gates = [cl.signs["GATE"] for cl in a.clauses if not cl.exception and cl.signs.get("GATE")]
    return {
        "slots": frozenset(s for s, _, _ in a.values),
        "rel_cl": [(cl.content, cl.cov_w, cl.content_total) for cl in a.clauses if not cl.exception],
        "content_all": frozenset(x for cl in a.clauses if not cl.exception for x in cl.content),
        "pos_slots": frozenset(s for s, lst in vals.items() if s != "MONTH_V" and any(sg > 0 for _, sg, _ in lst)),
        "pos_all": frozenset(s for s, _, sg in a.values if sg > 0),
        "pos_time": "TIME" in {s for s, _, sg in a.values if sg > 0},
        "c_vals": frozenset(v for _, v, sg in a.values if sg > 0),
        "vals": vals,
        "c_flip": c_flip,
        "k_flip": k_flip,
        "neg_gate": any(cl.signs.get("GATE", 0) < 0 for cl in a.clauses),
        "gate_required": bool(gates) and all(sg > 0 for sg in gates),
    }


@pytest.fixture(scope="module")
def dense() -> tuple[arb.ConstraintIndex, list[str]]:
    return dense_corpus("2026-07", 3, 200, 29, "2026-08", 31,
                        ["not", "never", "always", "fine", "OK", "without", "не", "можно", "без", "so", "only"])


def test_feature_stages_hold_the_plain_values_in_any_order(dense):
    _, lines = dense
    rng = random.Random(7)
    orders = [("related", "line", "full", "c_flips", "k_flips"), ("k_flips", "full", "related", "c_flips", "line"),
              ("c_flips", "line", "k_flips", "related", "full"), ("full", "flips", "related")]
    checked = 0
    for line in lines + ODD:
        a = _analysis(line)
        want = _plain_stages(a)
        fx = arb._Fx(a)
        for stage in rng.choice(orders):
            getattr(fx, stage)(a)
        for name, value in want.items():
            assert getattr(fx, name) == value, (line, name)
        checked += 1
    assert checked > 1000


def test_a_line_stage_alone_serves_may_conflict(dense):
    """``_may_conflict`` on features built by nothing but itself equals it on features built in full first."""
    index, lines = dense
    constraints = list({c.content: c for c in index.constraints}.values())[:60]
    for line in lines[:400] + ODD:
        a = _analysis(line)
        if a.indiff:
            continue
        for cons in constraints:
            k = analyze(cons.content)
            lazy = (arb._Fx(a), arb._Fx(k).related(k))
            eager = (arb._Fx(a).full(a).flips(a), arb._Fx(k).related(k).full(k).flips(k))
            rel = arb._relatedness_fx(lazy[1], a)
            assert rel == arb._relatedness(k, a)
            for cx, kx in (lazy, eager):
                apart = cx.slots.isdisjoint(kx.slots)
                got = arb._may_conflict(a, cx, cons, (k, kx), rel, apart)
                assert got == arb._may_conflict(a, eager[0], cons, (k, eager[1]), rel, apart), (line, cons.content)


def test_arbitrate_equals_the_exhaustive_check_on_odd_lines(dense):
    index, lines = dense
    rng = random.Random(11)
    words = [w for line in lines for w in line.split()]
    odd = ODD + [" ".join(rng.choice(words + ODD) for _ in range(rng.randint(1, 12))) for _ in range(300)]
    for line in odd:
        for tier in {classify(line).tier, Tier.HYPOTHESIS, Tier.OBSERVATION}:
            got = arb.arbitrate(index, line, tier, file="MEMORY.md")
            want = _plain_arbitrate(index, line, tier, "MEMORY.md", arb._check_conflict_exhaustive)
            assert (got.decision, got.conflicts) == want, (line, tier)


def test_a_plan_made_with_the_per_constraint_memo_equals_a_fresh_plan(dense):
    """``_plan`` keeps each constraint's identity and features with the index: a plan made after many others
    (the memo full) equals the plan a new index over the same files makes."""
    index, lines = dense
    for line in lines[:300]:
        index._scoring(_analysis(line))  # fill the memo through other scorings first
    for line in lines[300:600] + ODD:
        a = _analysis(line)
        cands = index._candidates_of(a)
        fresh = arb.ConstraintIndex(index._files)
        got, want = arb._plan(index, a, cands), arb._plan(fresh, a, cands)
        assert [(st[0], st[1], st[2][0] if st[2] else None, st[3], st[4]) for st in got[0]] == \
            [(st[0], st[1], st[2][0] if st[2] else None, st[3], st[4]) for st in want[0]], line
        assert [st[0] for st in got[1]] == [st[0] for st in want[1]] and got[2] == want[2], line
