"""Conflict arbitration quality on the conflicts dev set: recall on block, false-block rate on allow.

Each case's memory lines become the existing file (``file``), the candidate is arbitrated as a new line of that
file with the tier the classifier gives it. Prints figures per kind and per language, then every failure.

    python benchmarks/conflicts_eval.py [PATH.jsonl] [--json] [--quiet] [--why]

``--why`` says, for each missed block case, at which stage the conflict was lost (``stage``, below): the split
shows whether recall is lost to retrieval (nothing linked the line to the rule), to missing rules, or to a rule
that judged the pair compatible.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT = ROOT / "benchmarks" / "data" / "eval" / "conflicts-dev.jsonl"
#: The day the cases are read on: a DECISION bounded by a date ("until Dec 6") binds until that day passes, and the
#: sets were written for the end of November 2026. Fixed so the figures do not change with the calendar.
TODAY = __import__("datetime").date(2026, 11, 30)


#: the stages a missed conflict can be lost at (``stage``)
STAGES = {
    "tier": "no constraint: the memory line was not read as a DIRECTIVE or DECISION",
    "a-retrieval": "(a) the index did not offer the constraint for the line",
    "a-unrelated": "(a) offered, but the concepts do not link the line to the constraint (relatedness < 0.4)",
    "b-no-rule": "(b) related, but no rule fired (no sign opposed, no value or scope compared)",
    "c-compatible": "(c) related and signs opposed, but a rule or the weighing judged it compatible",
}


def stage(index, a, cand_tier, today) -> tuple[str, str]:
    """(stage, detail) at which the conflict of a missed block case was lost: the constraint of the case's memory
    most related to the candidate is followed through retrieval, relatedness, the rules' preconditions and the
    rules' own exits. Read-only: it calls the arbiter's functions, it does not change them."""
    from tiers.arbitration import decide
    from tiers.arbitration.compare import may_flip, relatedness
    from tiers.arbitration.index import RELATED_MIN
    from tiers.model import Tier

    cons = [k for k in index.constraints]
    if not cons:
        return "tier", ""
    offered = {id(k) for k in index.candidates(a)}
    rel, best = max(((relatedness(k.analysis, a), k) for k in cons), key=lambda t: t[0])
    k = best.analysis
    common = {s for s, _, _ in a.values} & {s for s, _, _ in k.values}
    shown = "cand " + ",".join(sorted(x for x in a.concepts )[:18]) + \
        " | rule " + ",".join(sorted(x for x in k.concepts )[:18])
    if id(best) not in offered:
        return "a-retrieval", f"rel {rel:.2f}; {shown}"
    if rel < RELATED_MIN and not common and best.tier is not Tier.DECISION:
        return "a-unrelated", f"rel {rel:.2f}; {shown}"
    decide._load_comparisons()
    if decide._mentions(a):
        return "c-compatible", "read as a mention of the rule"
    if may_flip(a, k) or a.indiff:
        return "c-compatible", f"rel {rel:.2f}; signs opposed but passed; {shown}"
    return "b-no-rule", f"rel {rel:.2f}; {shown}"


def run(path: Path, why: bool = False) -> dict:
    from tiers.arbitrate import ConstraintIndex, arbitrate
    from tiers.arbitration.decide import claims
    from tiers.classify import classify
    from tiers.concepts import analyze

    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = []
    t0 = time.perf_counter()
    for case in cases:
        index = ConstraintIndex.from_texts({case["file"]: "\n".join(case["memory"]) + "\n"})
        cls = classify(case["candidate"])
        res = arbitrate(index, case["candidate"], cls.tier, file=case["file"], scope=cls.scope,
                        verified=False, today=TODAY)
        rows.append((case, res, stage(index, analyze(claims(case["candidate"])), cls.tier, TODAY)
                     if why and case["expect"] == "block" and res.decision != "block" else None))
    elapsed = time.perf_counter() - t0

    def bucket() -> dict:
        return {"n": 0, "ok": 0}

    by_kind: dict[str, dict] = defaultdict(bucket)
    by_lang: dict[tuple[str, str], dict] = defaultdict(bucket)
    failures = []
    stages: dict[str, int] = defaultdict(int)
    for case, res, st in rows:
        ok = res.decision == case["expect"]
        for b in (by_kind[case["kind"]], by_lang[(case["expect"], case["lang"])]):
            b["n"] += 1
            b["ok"] += ok
        if not ok:
            failures.append({"id": case["id"], "kind": case["kind"], "expect": case["expect"],
                             "got": res.decision, "candidate": case["candidate"],
                             "why": (res.error or {}).get("reason") or (f"[{st[0]}] {st[1]}" if st else None)})
            if st:
                stages[st[0]] += 1
    blocks = [(c, r) for c, r, _ in rows if c["expect"] == "block"]
    allows = [(c, r) for c, r, _ in rows if c["expect"] == "allow"]
    recall = sum(r.decision == "block" for _, r in blocks) / max(len(blocks), 1)
    false_block = sum(r.decision == "block" for _, r in allows) / max(len(allows), 1)
    return {
        "cases": len(rows),
        "recall": round(recall, 3),
        "false_block_rate": round(false_block, 3),
        "per_kind": {k: {"n": v["n"], "correct": v["ok"], "rate": round(v["ok"] / v["n"], 3)}
                     for k, v in sorted(by_kind.items())},
        "per_lang": {f"{e}/{lang}": {"n": v["n"], "correct": v["ok"], "rate": round(v["ok"] / v["n"], 3)}
                     for (e, lang), v in sorted(by_lang.items())},
        "ms_per_case": round(elapsed / max(len(rows), 1) * 1000, 2),
        "failures": failures,
        "stages": dict(sorted(stages.items())),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="figures only, no failure list")
    ap.add_argument("--why", action="store_true", help="the stage each missed block case was lost at")
    args = ap.parse_args(argv)
    path = Path(args.path)
    if not path.exists():
        print(f"conflicts_eval: {path} not found", file=sys.stderr)
        return 2
    rep = run(path, why=args.why)
    if args.json:
        print(json.dumps(rep, ensure_ascii=False, indent=2))
        return 0
    print(f"cases {rep['cases']}  recall(block) {rep['recall']:.3f}  false-block rate(allow) "
          f"{rep['false_block_rate']:.3f}  ({rep['ms_per_case']} ms/case incl. index build)")
    print("\nper kind (share decided correctly: recall for block kinds, 1 - false-block rate for allow kinds)")
    for k, v in rep["per_kind"].items():
        print(f"  {k:28s} {v['correct']:3d}/{v['n']:<3d} {v['rate']:.2f}")
    print("\nper expectation/language")
    for k, v in rep["per_lang"].items():
        print(f"  {k:28s} {v['correct']:3d}/{v['n']:<3d} {v['rate']:.2f}")
    if rep["stages"]:
        print("\nmissed blocks by stage")
        for k, v in rep["stages"].items():
            print(f"  {k:14s} {v:3d}  {STAGES[k]}")
    if not args.quiet and rep["failures"]:
        print("\nfailures")
        for f in rep["failures"]:
            print(f"  {f['id']} [{f['kind']}] expect {f['expect']} got {f['got']}: {f['candidate']}")
            if f["why"]:
                print(f"      reason: {f['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
