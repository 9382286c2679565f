"""Canonicalization and evaluation speed, in process: commands per second for each stage.

Stages: parse (syntax tree), canon (parse + unwrap + canonical form + sha256 digest of every segment), canon +
evaluate (the same plus invariants and the deny-first starter policy), and the public `evaluate_call` API (policy
lookup, masking, JSON-ready result) both cold (no memo) and warm (the same commands again, as a long-lived
`cuticle serve` process sees them). Command mixes: the 309 upstream Chitin test strings (short, typical) and the
60 shell-dev cases (long, adversarial).

    python benchmarks/canon_speed.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"


def rate(fn, cmds, seconds: float, rounds: int = 5) -> float:
    """Best commands/s over several rounds (the best round is the least disturbed by other load)."""
    for c in cmds:  # warm imports and lru caches of tool names / globs
        fn(c)
    best = 0.0
    for _ in range(rounds):
        n = 0
        start = time.perf_counter()
        while True:
            for c in cmds:
                fn(c)
            n += len(cmds)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / rounds:
                break
        best = max(best, n / elapsed)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per stage and mix (split into 5 rounds)")
    args = ap.parse_args(argv)

    from rules.governance.analyze import analyze_command
    from rules.governance.evaluate import _MEMO, decide, evaluate_call
    from rules.governance.paths import Env
    from rules.governance.policy import starter_policy
    from rules.governance.shell import parse
    from rules.model import ToolCall
    from tiers.workspace import Workspace

    mixes = {}
    vec = SHARED / "vectors" / "chitin-governance.jsonl"
    dev = SHARED / "eval" / "shell-dev.jsonl"
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
    env = Env.build(root)
    policy = starter_policy()
    opts = policy.options()

    def canon(c):
        for seg in analyze_command(c, env, opts).segments:
            seg.canonical.digest

    def canon_eval(c):
        a = analyze_command(c, env, opts)
        for seg in a.segments:
            seg.canonical.digest
        decide(a, policy)

    def api_cold(c):
        _MEMO.clear()
        evaluate_call(ToolCall(tool="Bash", kind="shell", command=c), ws)

    def api_warm(c):
        evaluate_call(ToolCall(tool="Bash", kind="shell", command=c), ws)

    stages = [("parse", lambda c: parse(c)), ("canon (parse+unwrap+digest)", canon),
              ("canon + evaluate", canon_eval), ("evaluate_call, cold", api_cold),
              ("evaluate_call, warm (memo)", api_warm)]
    names = list(mixes)
    import os
    import timeit
    calib = min(timeit.repeat("sum(range(100))", number=20000, repeat=5)) / 20000 * 1e6
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f}; calibration sum(range(100)) = {calib:.2f} us")
    print(f"{'stage':<30}" + "".join(f"{n:>18}" for n in names) + "   (commands/s; goal > 20,000)")
    for label, fn in stages:
        row = [rate(fn, mixes[n], args.seconds) for n in names]
        print(f"{label:<30}" + "".join(f"{r:>18,.0f}" for r in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
