"""Score the tier classifier on the tiers dev set, and measure stamp length and classification speed.

    python benchmarks/tiers_eval.py [--data PATH] [--json] [--no-stamps]

Prints accuracy per language and per tier, the DECISION scope exact-match rate, the confusion matrix, every
misclassified line, the average stamp length when every memory line of sample-workspace/ is stamped (in a
temporary copy, with a throwaway key), and the time to classify one line.
"""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tiers.classify import classify  # noqa: E402
from tiers.model import Tier  # noqa: E402

DEFAULT_DATA = ROOT / "benchmarks" / "data" / "eval" / "tiers-dev.jsonl"
TIERS = [t.name for t in Tier]


def evaluate(rows: list[dict]) -> dict:
    by_lang: dict[str, list[int]] = {}
    by_tier: dict[str, list[int]] = {}
    confusion = {e: {p: 0 for p in TIERS} for e in TIERS}
    scope_hits = scope_total = 0
    misses = []
    for row in rows:
        got = classify(row["line"])
        ok = got.tier.name == row["expect"]
        for table, k in ((by_lang, row.get("lang", "?")), (by_tier, row["expect"])):
            table.setdefault(k, [0, 0])
            table[k][0] += ok
            table[k][1] += 1
        confusion[row["expect"]][got.tier.name] += 1
        scope_ok = True
        if row["expect"] == "DECISION":
            scope_total += 1
            scope_ok = got.scope == row.get("scope")
            scope_hits += scope_ok
        if not ok or not scope_ok:
            misses.append({"id": row.get("id"), "lang": row.get("lang"), "line": row["line"],
                           "expect": row["expect"], "got": got.tier.name, "expect_scope": row.get("scope"),
                           "got_scope": got.scope, "reasons": list(got.reasons)})
    return {
        "n": len(rows),
        "accuracy": sum(v[0] for v in by_lang.values()) / max(1, len(rows)),
        "accuracy_by_lang": {k: v[0] / v[1] for k, v in sorted(by_lang.items())},
        "accuracy_by_tier": {k: v[0] / v[1] for k, v in sorted(by_tier.items())},
        "scope_exact": scope_hits / scope_total if scope_total else None,
        "scope_n": scope_total,
        "confusion": confusion,
        "misses": misses,
    }


def stamp_lengths(sample: Path) -> dict:
    """Stamp every memory line of a temporary copy of ``sample`` and measure the stamps."""
    from tiers.markdown import parse_document
    from tiers.stamps import apply_stamp, make_stamp, render_stamp

    key = secrets.token_bytes(32)
    lengths: list[int] = []
    before = after = 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "ws"
        shutil.copytree(sample, copy, ignore=shutil.ignore_patterns(".cuticle"))
        for path in sorted(copy.rglob("*.md")):
            data = path.read_bytes()
            doc = parse_document(data)
            texts = {}
            for line in doc.memory_lines():
                c = classify(line.text)
                stamp = make_stamp(line.content, c.tier, 12, key, scope=c.scope,
                                   ttl=3 if c.tier is Tier.HYPOTHESIS else None)
                texts[line.number] = apply_stamp(line.text, stamp)
                lengths.append(len(render_stamp(stamp)) + 1)  # + the separating space
            stamped = doc.with_texts(texts).render()
            before += len(data.decode("utf-8"))
            after += len(stamped.decode("utf-8"))
    return {
        "stamps": len(lengths),
        "avg_chars": sum(lengths) / max(1, len(lengths)),
        "min_chars": min(lengths, default=0),
        "max_chars": max(lengths, default=0),
        "file_growth": (after - before) / max(1, before),
    }


def speed(rows: list[dict], repeat: int = 20) -> float:
    """CPU microseconds per line, uncached (prepare() and classify() memoize repeated lines): prepared and classified."""
    from tiers.classify import _classify
    from tiers.line import prepare

    lines = [r["line"] for r in rows] or ["- User said: x"]
    classify(lines[0])  # compile the lexicon once
    start = time.process_time()
    for _ in range(repeat):
        for line in lines:
            _classify(prepare.__wrapped__(line))
    return (time.process_time() - start) / (repeat * len(lines)) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"JSONL dev set (default {DEFAULT_DATA})")
    ap.add_argument("--sample", type=Path, default=ROOT / "sample-workspace")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-stamps", action="store_true", help="skip the stamp-length measurement")
    args = ap.parse_args(argv)
    if not args.data.is_file():
        print(f"tiers_eval: {args.data}: no such file (use --data PATH)", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    result = evaluate(rows)
    result["us_per_line"] = speed(rows)
    if not args.no_stamps and args.sample.is_dir():
        result["stamp_lengths"] = stamp_lengths(args.sample)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"tiers dev set: {args.data.name}, {result['n']} lines")
    print(f"accuracy overall: {result['accuracy']:.3f}")
    for lang, acc in result["accuracy_by_lang"].items():
        print(f"  {lang}: {acc:.3f}")
    print("accuracy by tier: " + ", ".join(f"{k} {v:.2f}" for k, v in result["accuracy_by_tier"].items()))
    if result["scope_exact"] is not None:
        print(f"DECISION scope exact match: {result['scope_exact']:.3f} ({result['scope_n']} lines)")
    print("\nconfusion (rows = expected, columns = predicted):")
    print(" " * 12 + "".join(f"{t[:5]:>7}" for t in TIERS))
    for e in TIERS:
        print(f"{e:<12}" + "".join(f"{result['confusion'][e][p]:>7}" for p in TIERS))
    print(f"\nmisclassified or wrong scope: {len(result['misses'])}")
    for m in result["misses"]:
        print(f"  {m['id']} [{m['lang']}] expected {m['expect']} got {m['got']}: {m['line']}")
        if m["expect"] == "DECISION" and m["got_scope"] != m["expect_scope"]:
            print(f"      scope expected {m['expect_scope']!r}, got {m['got_scope']!r}")
        print(f"      reasons: {'; '.join(m['reasons'])}")
    print(f"\nclassify: {result['us_per_line']:.0f} µs CPU per line (uncached; repeated lines hit an LRU cache)")
    s = result.get("stamp_lengths")
    if s:
        print(f"stamps on sample-workspace: {s['stamps']} stamps, average {s['avg_chars']:.1f} chars "
              f"(min {s['min_chars']}, max {s['max_chars']}, incl. the space), files grow {s['file_growth']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
