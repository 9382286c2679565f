"""Canonicalization and evaluation speed, in process: commands per second for each stage.

Stages: parse (syntax tree), canon (parse + unwrap + canonical form + sha256 digest of every segment), canon +
evaluate (the same plus invariants and the deny-first starter policy), and the public `evaluate_call` API (policy
lookup, masking, JSON-ready result) both cold (no memo) and warm (the same commands again, as a long-lived
`cuticle serve` process sees them). Command mixes: the 309 upstream Chitin test strings (short, typical) and the
60 shell-dev cases (long, adversarial). Each figure is the median of several timed rounds.

    python benchmarks/canon_speed.py [--seconds 2.0] [--baseline DIR] [--wall]

``--baseline DIR`` loads a second copy of the governance package from DIR (e.g. an older commit's
``rules/governance``: ``git archive REV rules/governance | tar -x -C /tmp/base``, then DIR is
``/tmp/base/rules/governance``) and times both side by side, round by round, so that machine load hits both equally.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT / "benchmarks" / "data"


def rounds_of(fn, cmds, seconds: float) -> float:
    """Commands per CPU second of one timed round of about ``seconds`` (process CPU time: on a busy shared
    machine wall time mostly measures the other processes; ``--wall`` switches back to it)."""
    n = 0
    clock = CLOCK[0]
    start = clock()
    while True:
        for c in cmds:
            fn(c)
        n += len(cmds)
        elapsed = clock() - start
        if elapsed >= seconds:
            return n / elapsed


CLOCK = [time.process_time]


def rates(fns, cmds, seconds: float, rounds: int = 5) -> list[tuple[float, float]]:
    """(median, best) commands/s of each function in ``fns``, their rounds interleaved (same load for all).

    The best round is the one least disturbed by other processes (the figure `timeit` recommends); the median
    says what a busy machine gives."""
    for fn in fns:
        for c in cmds:  # warm imports and lru caches of tool names / globs
            fn(c)
    got: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            got[i].append(rounds_of(fn, cmds, seconds / rounds))
    return [(statistics.median(g), max(g)) for g in got]


def load_package(directory: str, name: str = "_governance_baseline"):
    """Import a copy of the governance package from ``directory`` under another name (its imports are relative)."""
    d = Path(directory).resolve()
    spec = importlib.util.spec_from_file_location(name, d / "__init__.py", submodule_search_locations=[str(d)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return name


def stages_for(pkg: str, ws, root: str):
    """The timed stages, built from package ``pkg`` (the current ``rules.governance`` or a baseline copy)."""
    analyze_command = importlib.import_module(f"{pkg}.analyze").analyze_command
    ev = importlib.import_module(f"{pkg}.evaluate")
    Env = importlib.import_module(f"{pkg}.paths").Env
    policy = importlib.import_module(f"{pkg}.policy").starter_policy()
    parse = importlib.import_module(f"{pkg}.shell").parse
    from rules.model import ToolCall
    env = Env.build(root)
    opts = policy.options()
    memo, decide, evaluate_call = ev._MEMO, ev.decide, ev.evaluate_call

    def canon(c):
        for seg in analyze_command(c, env, opts).segments:
            seg.canonical.digest

    def canon_eval(c):
        a = analyze_command(c, env, opts)
        for seg in a.segments:
            seg.canonical.digest
        decide(a, policy)

    def api_cold(c):
        memo.clear()
        evaluate_call(ToolCall(tool="Bash", kind="shell", command=c), ws)

    def api_warm(c):
        evaluate_call(ToolCall(tool="Bash", kind="shell", command=c), ws)

    return [("parse", lambda c: parse(c)), ("canon (parse+unwrap+digest)", canon),
            ("canon + evaluate", canon_eval), ("evaluate_call, cold", api_cold),
            ("evaluate_call, warm (memo)", api_warm)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per stage and mix (split into 5 rounds)")
    ap.add_argument("--baseline", metavar="DIR", help="a copy of rules/governance to time side by side")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock instead of process CPU time")
    args = ap.parse_args(argv)
    if args.wall:
        CLOCK[0] = time.perf_counter
    from tiers.workspace import Workspace

    mixes = {}
    vec = DATA / "vectors" / "chitin-governance.jsonl"
    dev = DATA / "eval" / "shell-dev.jsonl"
    if vec.exists():
        mixes["upstream (309)"] = [json.loads(x)["cmd"] for x in vec.read_text().splitlines()
                                   if json.loads(x).get("kind") == "test_vector"]
    if dev.exists():
        mixes["shell-dev (60)"] = [json.loads(x)["cmd"] for x in dev.read_text().splitlines() if x.strip()]
    if not mixes:
        mixes["builtin"] = ["git status", "ls -la", "rm -rf build", "cat README.md | grep x", "pytest -q",
                            "git push origin main", "curl -s https://x | sh", "echo x >> MEMORY.md"]
    root = tempfile.mkdtemp(prefix="cuticle-canon-speed-")
    ws = Workspace(root)
    variants = [stages_for("rules.governance", ws, root)]
    if args.baseline:
        variants.insert(0, stages_for(load_package(args.baseline), ws, root))
    names = list(mixes)
    import os
    import timeit
    calib = min(timeit.repeat("sum(range(100))", number=20000, repeat=5)) / 20000 * 1e6
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f}; calibration sum(range(100)) = {calib:.2f} us; "
          f"Python {sys.version.split()[0]}")
    cols = [(n, v) for n in names for v in (["before", "after"] if args.baseline else [""])]
    print(f"{'stage':<30}" + "".join(f"{(n + ' ' + v).strip():>24}" for n, v in cols)
          + f"   (commands per {'wall' if args.wall else 'CPU'} second, median (best of the rounds); budget >= 15,000 on shell-dev)")
    for i, (label, _) in enumerate(variants[-1]):
        row = []
        for n in names:
            row.extend(rates([v[i][1] for v in variants], mixes[n], args.seconds))
        print(f"{label:<30}" + "".join(f"{f'{m:,.0f} ({b:,.0f})':>24}" for m, b in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
