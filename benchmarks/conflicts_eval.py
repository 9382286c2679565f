"""Conflict arbitration quality on the conflicts dev set: recall on block, false-block rate on allow.

Each case's memory lines become the existing file (``file``), the candidate is arbitrated as a new line of that
file with the tier the classifier gives it. Prints figures per kind and per language, then every failure.

    python benchmarks/conflicts_eval.py [PATH.jsonl] [--json] [--quiet]
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


def run(path: Path) -> dict:
    from tiers.arbitrate import ConstraintIndex, arbitrate
    from tiers.classify import classify

    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = []
    t0 = time.perf_counter()
    for case in cases:
        index = ConstraintIndex.from_texts({case["file"]: "\n".join(case["memory"]) + "\n"})
        cls = classify(case["candidate"])
        res = arbitrate(index, case["candidate"], cls.tier, file=case["file"], scope=cls.scope,
                        verified=False, today=TODAY)
        rows.append((case, res))
    elapsed = time.perf_counter() - t0

    def bucket() -> dict:
        return {"n": 0, "ok": 0}

    by_kind: dict[str, dict] = defaultdict(bucket)
    by_lang: dict[tuple[str, str], dict] = defaultdict(bucket)
    failures = []
    for case, res in rows:
        ok = res.decision == case["expect"]
        for b in (by_kind[case["kind"]], by_lang[(case["expect"], case["lang"])]):
            b["n"] += 1
            b["ok"] += ok
        if not ok:
            failures.append({"id": case["id"], "kind": case["kind"], "expect": case["expect"],
                             "got": res.decision, "candidate": case["candidate"],
                             "why": (res.error or {}).get("reason")})
    blocks = [(c, r) for c, r in rows if c["expect"] == "block"]
    allows = [(c, r) for c, r in rows if c["expect"] == "allow"]
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
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="figures only, no failure list")
    args = ap.parse_args(argv)
    path = Path(args.path)
    if not path.exists():
        print(f"conflicts_eval: {path} not found", file=sys.stderr)
        return 2
    rep = run(path)
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
    if not args.quiet and rep["failures"]:
        print("\nfailures")
        for f in rep["failures"]:
            print(f"  {f['id']} [{f['kind']}] expect {f['expect']} got {f['got']}: {f['candidate']}")
            if f["why"]:
                print(f"      reason: {f['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
