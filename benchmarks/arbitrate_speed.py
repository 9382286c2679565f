"""Arbitration speed: a 10-line change checked against a 10,000-line memory holding 100 / 1,000 / 10,000 directives.

For each size it prints the time to build the constraint index cold (first read of the files), the time to get
it again from the per-process cache (what a long-lived gate pays per write), and the time per check of the
10-line change (10 arbitrations against the warm index), median of several runs.

    python benchmarks/arbitrate_speed.py [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOTAL_LINES = 10_000

_VERBS = ["deploy", "merge", "push", "delete", "run", "schedule", "install", "rotate", "restart", "publish",
          "refactor", "upgrade", "cache", "back up", "mock", "migrate", "archive", "rename", "tag", "lint"]
_OBJECTS = ["the {n} service", "branch {n}", "the {n} bucket", "cluster {n}", "the {n} database", "job {n}",
            "the {n} dashboard", "module {n}", "the {n} queue", "project {n}", "the {n} API", "repo {n}"]
_QUALS = ["on Fridays", "after 18:00", "on weekends", "without asking me", "in production", "before review",
          "during the freeze", "at night", "on the main branch", "for customers"]
_RU = ["Пользователь сказал: никогда не трогать {o} по выходным.", "Пользователь сказал: всегда спрашивать перед {v} {o}.",
       "Просьба пользователя: не удалять {o} без подтверждения."]


def _name(i: int) -> str:
    syll = ["ka", "ro", "mi", "ten", "sol", "var", "dex", "lu", "po", "zan", "qui", "bel", "tor", "ny", "fa"]
    out = []
    while True:
        out.append(syll[i % len(syll)])
        i //= len(syll)
        if not i:
            break
    return "".join(out)


def make_memory(directives: int, seed: int = 7) -> list[str]:
    rnd = random.Random(seed)
    lines: list[str] = []
    positions = set(rnd.sample(range(TOTAL_LINES), directives))
    for i in range(TOTAL_LINES):
        n = _name(i)
        if i % 97 == 0:
            lines.append(f"## Section {n}")
            continue
        if i in positions:
            if i % 7 == 0:
                lines.append("- " + rnd.choice(_RU).format(o=f"сервис {n}", v="перезапуском"))
            else:
                v, o, q = rnd.choice(_VERBS), rnd.choice(_OBJECTS).format(n=n), rnd.choice(_QUALS)
                lines.append(f"- User said: {rnd.choice(['never', 'always', 'do not'])} {v} {o} {q}.")
        elif i % 3 == 0:
            lines.append(f"- `pytest tests/{n}` passed: 42 tests in 3.{i % 10}s.")
        else:
            lines.append(f"- Probably the {n} worker is slow because of the {_name(i + 5)} cache.")
    return lines


def change(seed: int = 11) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for i in range(10):
        n = _name(rnd.randrange(TOTAL_LINES))
        out.append(rnd.choice([
            f"- It is fine to deploy the {n} service on Fridays.",
            f"- The {n} queue drains in about 4 minutes.",
            f"- Probably no need to ask before restarting cluster {n}.",
            f"- Можно удалять бакет {n} без подтверждения.",
            f"- Plan: refactor module {n} next week.",
        ]))
    return out


def measure(directives: int, runs: int) -> dict:
    from tiers import arbitrate as arb
    from tiers.concepts.analysis import _analyze_cached
    from tiers.model import Tier
    from tiers.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "MEMORY.md").write_text("\n".join(make_memory(directives)) + "\n", encoding="utf-8")
        (root / ".cuticle").mkdir()
        ws = Workspace(root)
        arb._FILE_CACHE.clear()
        arb._DISK.clear()
        t0 = time.perf_counter()
        index = arb.ConstraintIndex.from_workspace(ws)
        cold = time.perf_counter() - t0
        lines = change()
        # A fresh process: nothing in memory, the disk cache in .cuticle/cache/ from the first build.
        arb._FILE_CACHE.clear()
        arb._DISK.clear()
        _analyze_cached.cache_clear()
        t0 = time.perf_counter()
        index = arb.ConstraintIndex.from_workspace(ws)
        disk = time.perf_counter() - t0
        t0 = time.perf_counter()
        for ln in lines:
            arb.arbitrate(index, ln, Tier.HYPOTHESIS)
        first = time.perf_counter() - t0
        warm_times, check_times, check_cpu = [], [], []
        for ln in lines:
            arb.arbitrate(index, ln, Tier.HYPOTHESIS)
        for _ in range(runs):
            t0 = time.perf_counter()
            index = arb.ConstraintIndex.from_workspace(ws)
            warm_times.append(time.perf_counter() - t0)
            t0, c0 = time.perf_counter(), time.process_time()
            blocked = sum(arb.arbitrate(index, ln, Tier.HYPOTHESIS).blocked for ln in lines)
            check_times.append(time.perf_counter() - t0)
            check_cpu.append(time.process_time() - c0)
        # The first hook call after an edit: a fresh process, the file changed (10 lines appended), so its cached
        # index is stale; only the lines not seen before need analysing.
        with open(root / "MEMORY.md", "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        arb._FILE_CACHE.clear()
        arb._DISK.clear()
        _analyze_cached.cache_clear()
        t0 = time.perf_counter()
        arb.ConstraintIndex.from_workspace(ws)
        edited = time.perf_counter() - t0
        return {
            "directives": directives,
            "constraints_indexed": len(index),
            "index_cold_ms": round(cold * 1000, 1),
            "index_from_disk_cache_ms": round(disk * 1000, 1),
            "first_check_fresh_process_ms": round(first * 1000, 1),
            "index_warm_ms": round(statistics.median(warm_times) * 1000, 2),
            "index_after_edit_fresh_process_ms": round(edited * 1000, 1),
            "check_10_lines_ms": round(statistics.median(check_times) * 1000, 2),
            "check_10_lines_min_ms": round(min(check_times) * 1000, 2),
            "check_10_lines_cpu_ms": round(statistics.median(check_cpu) * 1000, 2),
            "per_line_ms": round(statistics.median(check_times) * 100, 3),
            "blocked_of_10": blocked,
        }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [measure(n, args.runs) for n in (100, 1_000, 10_000)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"memory: {TOTAL_LINES} lines; change: 10 new lines; median of {args.runs} runs")
    print(f"{'directives':>10} {'indexed':>8} {'index cold':>11} {'disk cache':>11} {'in-proc':>8} "
          f"{'after edit':>11} {'1st check':>10} {'check median':>13} {'check min':>10} {'check CPU':>10} {'per line':>9} {'blocked':>8}   (all ms)")
    for r in rows:
        print(f"{r['directives']:>10} {r['constraints_indexed']:>8} {r['index_cold_ms']:>11} "
              f"{r['index_from_disk_cache_ms']:>11} {r['index_warm_ms']:>8} {r['index_after_edit_fresh_process_ms']:>11} "
              f"{r['first_check_fresh_process_ms']:>10} "
              f"{r['check_10_lines_ms']:>13} {r['check_10_lines_min_ms']:>10} "
              f"{r['check_10_lines_cpu_ms']:>10} {r['per_line_ms']:>9} "
              f"{r['blocked_of_10']:>8}")
    print("index cold: first read, every line classified; disk cache: a fresh process reading .cuticle/cache/;\n"
          "in-proc: the index again in the same process; after edit: a fresh process after 10 lines were appended\n"
          "to the file (its cached index is stale); 1st check: the 10 lines right after a fresh start\n"
          "(constraint analyses not yet cached); check: the 10-line change against the warm index (wall; CPU:\n"
          "its process time, steadier on a busy machine).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
