"""Every benchmark in one command, one table: figure, budget, measured.

Each script runs as its own process, exactly as its README row says (so this is also a smoke test of every
script); its figures are read from its output. By default the quality sets (development and held out) and short
speed runs, a few minutes in all; ``--long`` adds the full speed runs (the 10,000-line lint, the 64,000-line file,
the hook in a clean virtual environment), several minutes more.

Usage: python benchmarks/run_all.py [--long] [--only NAME,...]
Exit: 0 when every figure with a budget is within it, 1 otherwise, 2 when a benchmark itself failed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = "benchmarks/heldout"


@dataclass(frozen=True, slots=True)
class Figure:
    """One row of the table. ``ok`` is None for a figure without a budget."""

    name: str
    budget: str
    measured: str
    ok: bool | None


@dataclass(frozen=True, slots=True)
class Bench:
    """A benchmark script, the arguments it runs with, and how its figures are read from what it prints."""

    name: str
    args: tuple[str, ...]
    read: Callable[[str], list[Figure]]
    long: bool = False


def _at_least(name: str, value: float, goal: float, fmt: str = "{:.3f}") -> Figure:
    return Figure(name, f"≥ {fmt.format(goal)}", fmt.format(value), value >= goal)


def _at_most(name: str, value: float, goal: float, fmt: str = "{:.3f}", unit: str = "") -> Figure:
    return Figure(name, f"≤ {fmt.format(goal)}{unit}", f"{fmt.format(value)}{unit}", value <= goal)


def _info(name: str, measured: str) -> Figure:
    return Figure(name, "—", measured, None)


def _tiers(label: str, budget: bool) -> Callable[[str], list[Figure]]:
    def read(out: str) -> list[Figure]:
        r = json.loads(out)
        rows = []
        for lang, acc in sorted(r["accuracy_by_lang"].items()):
            name = f"tier accuracy {lang.upper()}, {label}"
            rows.append(_at_least(name, acc, 0.9) if budget else _info(name, f"{acc:.3f}"))
        rows.append(_info(f"DECISION scope exact, {label}", f"{round(r['scope_exact'] * r['scope_n'])}/{r['scope_n']}"))
        if r.get("stamp_lengths"):
            rows.append(_info("stamp length (average characters)", f"{r['stamp_lengths']['avg_chars']:.1f}"))
        return rows
    return read


def _conflicts(label: str, budget: bool) -> Callable[[str], list[Figure]]:
    def read(out: str) -> list[Figure]:
        r = json.loads(out)
        if not budget:
            return [_info(f"conflict recall, {label}", f"{r['recall']:.3f}"),
                    _info(f"false blocks, {label}", f"{r['false_block_rate']:.3f}")]
        return [_at_least(f"conflict recall, {label}", r["recall"], 0.8),
                _at_most(f"false blocks, {label}", r["false_block_rate"], 0.05)]
    return read


def _injection(label: str, budget: bool) -> Callable[[str], list[Figure]]:
    def read(out: str) -> list[Figure]:
        # two "all=all" rows: the first carries the recall, the second the false-flag rate
        values = [float(line.split()[2]) for line in out.splitlines() if line.startswith("all=all ")]
        recall, flags = (values + [None, None])[:2]
        if recall is None or flags is None:
            raise ValueError("no 'all=all' recall and false-flag rows")
        if not budget:
            return [_info(f"poisoning recall, {label}", f"{recall:.3f}"),
                    _info(f"poisoning false flags, {label}", f"{flags:.3f}")]
        return [_at_least(f"poisoning recall, {label}", recall, 0.9),
                _at_most(f"poisoning false flags, {label}", flags, 0.05)]
    return read


def _shell(label: str) -> Callable[[str], list[Figure]]:
    def read(out: str) -> list[Figure]:
        r = json.loads(out)
        return [_at_least(f"shell decisions correct, {label}", r["correct_rate"], 0.95),
                _at_most(f"shell denies allowed, {label}", r["denies_allowed"], 0, fmt="{:d}")]
    return read


def _vectors(out: str) -> list[Figure]:
    rows = []
    for key, name in (("digest_equality", "Chitin digest classes"), ("six_type_tool", "Chitin tool types"),
                      ("six_type_bash", "Chitin bash types"), ("test_vector decisions", "Chitin upstream decisions")):
        m = re.search(rf"^{re.escape(key)}[^:]*: (\d+)/(\d+) agree", out, flags=re.M)
        if not m:
            raise ValueError(f"no '{key}' line")
        rows.append(_info(name, f"{m.group(1)}/{m.group(2)} agree"))
    return rows


def _personality(out: str) -> list[Figure]:
    r = json.loads(out)
    warm = max(row["median_ms"] for row in r["rows"] if "warm" in row["case"])
    return [_at_most(f"retrieve + render, {r['insights']:,} insights (warm, worst query)", warm, r["goal_ms"],
                     fmt="{:.1f}", unit=" ms")]


def _arbitrate(out: str) -> list[Figure]:
    rows = json.loads(out)
    return [_at_most(f"arbitration, 10-line change, {r['directives']:,} directives", r["check_10_lines_ms"], 10,
                     fmt="{:.1f}", unit=" ms") for r in rows]


def _canon(out: str) -> list[Figure]:
    m = re.search(r"^canon \+ evaluate\s+([\d,]+) \([\d,]+\)\s+([\d,]+)", out, flags=re.M)
    if not m:
        raise ValueError("no 'canon + evaluate' row")
    upstream, dev = (int(g.replace(",", "")) for g in m.groups())
    return [Figure("canonicalize + evaluate, upstream commands", "> 20,000/s", f"{upstream:,}/s", upstream > 20_000),
            Figure("canonicalize + evaluate, adversarial commands", "> 20,000/s", f"{dev:,}/s", dev > 20_000)]


def _hook(out: str) -> list[Figure]:
    r = json.loads(out)
    rows = []
    for row in r["rows"]:  # the command `cuticle init` writes, forwarded and in-process (issue 16's budgets)
        name = row["variant"]
        if "as installed" not in name:
            continue
        where = "clean venv" if name.startswith("clean venv") else "this interpreter"
        what, budget = ("in-process", 4.0) if "no-server" in name else ("as installed", 1.5)
        rows.append(_at_most(f"hook {what}, fresh process, vs `python -c pass` ({where})", row["ratio"], budget,
                             fmt="{:.2f}", unit="×"))
    return rows


def _lint(out: str) -> list[Figure]:
    m = re.search(r"^all rules\s+(?:[\d.]+\s+){6}([\d.]+)\s", out, flags=re.M)
    if not m:
        raise ValueError("no 'all rules' row")
    return [_at_most("lint, 10,000 lines, cold process (default jobs)", float(m.group(1)), 1.0, fmt="{:.2f}",
                     unit=" s")]


def _large(out: str) -> list[Figure]:
    rows = []
    for line in out.splitlines()[1:]:
        lines, _, wall, cpu, mb, per_line = line.split()
        rows.append(_info(f"lint, one {int(lines):,}-line MEMORY.md (-j1)",
                          f"{float(cpu):.1f} s CPU ({float(wall):.1f} s wall), {float(mb):.0f} MB, {per_line} µs/line"))
    return rows


BENCHES = [
    Bench("tiers", ("benchmarks/tiers_eval.py", "--json"), _tiers("dev", True)),
    Bench("tiers-heldout", ("benchmarks/tiers_eval.py", "--json", "--no-stamps", "--data",
                            f"{HELDOUT}/tiers-heldout.jsonl"), _tiers("held out", False)),
    Bench("conflicts", ("benchmarks/conflicts_eval.py", "--json"), _conflicts("dev", True)),
    Bench("conflicts-heldout", ("benchmarks/conflicts_eval.py", f"{HELDOUT}/conflicts-heldout.jsonl", "--json"),
          _conflicts("held out", False)),
    Bench("injection", ("benchmarks/injection_eval.py",), _injection("dev", True)),
    Bench("injection-heldout", ("benchmarks/injection_eval.py", f"{HELDOUT}/injection-heldout.jsonl"),
          _injection("held out", False)),
    Bench("shell", ("benchmarks/shell_eval.py", "--json"), _shell("dev")),
    Bench("shell-heldout", ("benchmarks/shell_eval.py", "--json", "--data", f"{HELDOUT}/shell-heldout.jsonl"),
          _shell("held out")),
    Bench("vectors", ("benchmarks/vectors_report.py",), _vectors),
    Bench("personality", ("benchmarks/personality_speed.py", "--json", "--repeat", "5"), _personality),
    Bench("arbitrate", ("benchmarks/arbitrate_speed.py", "--json", "--runs", "3"), _arbitrate),
    Bench("canon", ("benchmarks/canon_speed.py", "--seconds", "0.5"), _canon),
    Bench("hook", ("benchmarks/hook_speed.py", "--json", "--no-venv", "--reps", "10"), _hook),
    Bench("hook-venv", ("benchmarks/hook_speed.py", "--json"), _hook, long=True),
    Bench("lint", ("benchmarks/lint_speed.py",), _lint, long=True),
    Bench("large-file", ("benchmarks/large_file.py", "--sizes", "16000,64000"), _large, long=True),
]


def run(bench: Bench) -> tuple[list[Figure], float, str | None]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *bench.args], capture_output=True, text=True, cwd=ROOT, timeout=3600)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return [], seconds, f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}"
    try:
        return bench.read(proc.stdout), seconds, None
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        return [], seconds, f"could not read its output ({type(exc).__name__}: {exc})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--long", action="store_true", help="also the full speed runs (several minutes more)")
    ap.add_argument("--only", default=None, metavar="NAMES", help="comma-separated benchmark names: "
                    + ", ".join(b.name for b in BENCHES))
    args = ap.parse_args(argv)
    chosen = [b for b in BENCHES if args.long or not b.long]
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {b.name for b in BENCHES}
        if unknown:
            ap.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
        chosen = [b for b in BENCHES if b.name in names]
    figures: list[Figure] = []
    failed: list[str] = []
    for bench in chosen:
        print(f"running {' '.join(bench.args)} …", file=sys.stderr, flush=True)
        rows, seconds, error = run(bench)
        if error:
            failed.append(f"{bench.name}: {error}")
        figures += rows
    w = max([len(f.name) for f in figures] + [6])
    wb = max([len(f.budget) for f in figures] + [6])
    print(f"| {'figure':<{w}} | {'budget':<{wb}} | measured |")
    print(f"|{'-' * (w + 2)}|{'-' * (wb + 2)}|----------|")
    for f in figures:
        mark = "" if f.ok is None else ("" if f.ok else "  ✗ over budget")
        print(f"| {f.name:<{w}} | {f.budget:<{wb}} | {f.measured}{mark} |")
    for line in failed:
        print(f"benchmark failed: {line}", file=sys.stderr)
    missed = [f for f in figures if f.ok is False]
    if missed:
        print(f"{len(missed)} figure(s) over budget", file=sys.stderr)
    return 2 if failed else (1 if missed else 0)


if __name__ == "__main__":
    raise SystemExit(main())
