"""Hook speed: `cuticle hook claude` on a PreToolUse Write to a 1,000-line MEMORY.md vs a bare `python -c pass`.

Everything runs side by side in one process, interleaved round-robin so machine noise hits every variant alike:

    python benchmarks/hook_speed.py [--reps 40] [--lines 1000] [--json]

Variants: the bare interpreter; the `cuticle` console script; `python -m gate`; and the console script answering
through a running `cuticle serve` (the hook's fast path). Each hook call is checked to return the stamped
rewrite (a hook that fails open fast would be a meaningless win).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TEMPLATES = [
    "- User said: never deploy {x} on Fridays.",
    "- Decided with the user: use Postgres for service {x} until the migration.",
    "- `pytest` reported 3 failures in module {x}.",
    "- Maybe the cache for {x} is stale.",
    "- The {x} build took 4 minutes on CI.",
]


def make_workspace(lines: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="cuticle-bench-"))
    (root / ".cuticle").mkdir()
    body = ["# MEMORY.md", ""]
    for i in range(lines - 2):
        body.append(TEMPLATES[i % len(TEMPLATES)].format(x=f"svc{i}"))
    (root / "MEMORY.md").write_text("\n".join(body) + "\n", encoding="utf-8")
    return root


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--script", default=None, help="the cuticle console script to run (default: beside python)")
    ap.add_argument("--keep-env-bytecode", action="store_true",
                    help="honour PYTHONDONTWRITEBYTECODE from the environment (default: compile once to __pycache__, "
                         "as an installed package does)")
    args = ap.parse_args(argv)

    ws = make_workspace(args.lines)
    memory = ws / "MEMORY.md"
    payload = json.dumps({
        "session_id": "bench", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write",
        "permission_mode": "default", "tool_use_id": "toolu_bench",
        "tool_input": {"file_path": str(memory),
                       "content": memory.read_text(encoding="utf-8") + "- The flaky test is probably a race.\n"},
    }).encode()
    # the console script installed beside this interpreter (a version manager's shim on PATH adds its own
    # start-up cost, which is not cuticle's; pass --script to measure a specific one)
    beside = Path(sys.executable).with_name("cuticle")
    script = args.script or (str(beside) if beside.exists() else shutil.which("cuticle") or "cuticle")
    variants = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "cuticle hook claude": [script, "hook", "claude", "--no-server"],
        "python -m gate hook claude": [sys.executable, "-m", "gate", "hook", "claude", "--no-server"],
        "cuticle hook claude (serve)": [script, "hook", "claude"],
    }

    env = dict(os.environ)
    if not args.keep_env_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    server = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    info = ws / ".cuticle" / "serve.json"
    for _ in range(400):
        if info.exists() and info.stat().st_size:
            break
        time.sleep(0.05)

    def run(argv: list[str]) -> float:
        t = time.perf_counter()
        proc = subprocess.run(argv, input=payload, capture_output=True, env=env)
        dt = time.perf_counter() - t
        if argv[1:3] == ["hook", "claude"] or argv[1:5] == ["-m", "gate", "hook", "claude"]:
            out = json.loads(proc.stdout or b"{}")
            if "<!--cu:H" not in json.dumps(out):
                raise SystemExit(f"{' '.join(argv)} did not return a stamped rewrite: {proc.stdout[:300]!r} {proc.stderr[:300]!r}")
        return dt

    def round_trip() -> float:
        """The server's own latency: one request from this process, no process start."""
        from gate.client import forward

        t = time.perf_counter()
        got = forward("claude", None, payload)
        dt = time.perf_counter() - t
        if got is None or "<!--cu:H" not in got[0]:
            raise SystemExit("the server did not answer with a stamped rewrite")
        return dt

    try:
        for argv in variants.values():  # warm the page cache and the .pyc files
            run(argv)
            run(argv)
        times: dict[str, list[float]] = {k: [] for k in variants}
        rtt: list[float] = []
        for _ in range(args.reps):
            for name, argv in variants.items():
                times[name].append(run(argv))
            rtt.append(round_trip())
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(ws, ignore_errors=True)

    base = statistics.median(times["python -c pass"])
    rows = []
    for name, xs in times.items():
        med = statistics.median(xs)
        rows.append({"variant": name, "median_ms": round(med * 1000, 1), "p90_ms": round(percentile(xs, 0.9) * 1000, 1),
                     "ratio": round(med / base, 2)})
    serve_rtt = {"median_ms": round(statistics.median(rtt) * 1000, 1), "p90_ms": round(percentile(rtt, 0.9) * 1000, 1)}
    if args.json:
        print(json.dumps({"reps": args.reps, "lines": args.lines, "python": sys.version.split()[0],
                          "serve_round_trip": serve_rtt,
                          "bytecode_cached": not args.keep_env_bytecode,
                          "cpus": os.cpu_count(), "rows": rows}, indent=2))
        return 0
    print(f"hook speed: PreToolUse Write to a {args.lines}-line MEMORY.md, {args.reps} interleaved reps, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"console script: {script}; bytecode {'as in the environment' if args.keep_env_bytecode else 'cached'}")
    print(f"{'variant':32} {'median ms':>10} {'p90 ms':>9} {'x bare':>7}")
    for r in rows:
        print(f"{r['variant']:32} {r['median_ms']:>10.1f} {r['p90_ms']:>9.1f} {r['ratio']:>7.2f}")
    print(f"{'serve round trip (no process)':32} {serve_rtt['median_ms']:>10.1f} {serve_rtt['p90_ms']:>9.1f}")
    print("goal: within 2.5x of the bare interpreter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
