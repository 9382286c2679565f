"""Classification speed: a fresh hook-like process (cold) and per-line classify in a warm one.

    python benchmarks/classify_speed.py [--reps 30] [--baseline REV] [--json]

Cold: one process does what the hook does for one new line: ``import tiers.classify``, classify a typical line,
the provenance check (``classify_with_provenance`` with no prompt on record) and one ``make_stamp``/``render_stamp``,
with PYTHONDONTWRITEBYTECODE=1 and no cache of ours anywhere. Reported as CPU milliseconds beyond a bare
``python -c pass`` (child CPU time, interleaved runs, median), and as the CPU time measured inside the process
around the work (``time.process_time``, so the interpreter's own start-up is not in it).

Warm: CPU microseconds per line of ``_classify`` (uncached) over every memory line of the lint benchmark workspace
(``benchmarks/lint_speed.py`` ``generate()``) and over the tiers dev + held-out lines, in a process that has
classified a few hundred other lines first (best of 3 passes).

``--baseline REV`` runs the same measurements, interleaved, on the ``tiers`` package of git revision REV
(extracted to a temporary folder), and prints it as a column beside the working tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLD = r"""
import time
t0 = time.process_time()
from tiers.classify import classify
from tiers.provenance import classify_with_provenance
from tiers.stamps import make_stamp, render_stamp
from tiers.workspace import Workspace
line = "- Decided with the user: use Postgres for svc12 until the migration."
c = classify_with_provenance(Workspace(WS), "session-1", line)
render_stamp(make_stamp(line, c.tier, 3, b"k" * 32, scope=c.scope))
print((time.process_time() - t0) * 1e3)
"""

WARM = r"""
import json, sys, time
from tiers.classify import _classify, classify
try:  # _classify takes a prepared Line (made once per line by the callers, outside the timing)
    from tiers.line import prepare
except ImportError:  # a baseline from before tiers.line: _classify took the text
    prepare = str
data = json.load(open(DATA, encoding="utf-8"))
out = {}
for name in ("lint", "eval"):
    lines = [prepare(line) for line in data[name]]
    reps = max(1, 3000 // len(lines))
    for line in data["warm"]:
        classify(line)
    best = None
    for _ in range(3):
        t = time.process_time()
        for _ in range(reps):
            for line in lines:
                _classify(line)
        us = (time.process_time() - t) / (reps * len(lines)) * 1e6
        best = us if best is None else min(best, us)
    out[name] = best
print(json.dumps(out))
"""


def _timed(code: str, pythonpath: str, pycache: str, write_bytecode: bool = False) -> tuple[float, str]:
    """(child CPU ms, stdout) of ``python -c code`` with ``pythonpath`` first on sys.path."""
    env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONPYCACHEPREFIX=pycache, PYTHONDONTWRITEBYTECODE="1")
    if write_bytecode:
        del env["PYTHONDONTWRITEBYTECODE"]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=pythonpath, env=env, stdout=out, stderr=err,
                                text=True)
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"classify_speed: child failed:\n{err.read()}")
        return (usage.ru_utime + usage.ru_stime) * 1e3, out.read()


def _lines() -> dict[str, list[str]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import lint_speed  # noqa: PLC0415 - the lint benchmark's own generator

    from tiers.markdown import parse_document

    lint: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        lint_speed.generate(Path(tmp))
        for path in sorted(Path(tmp).rglob("*.md")):
            lint += [ln.text for ln in parse_document(path.read_bytes()).memory_lines()]
    ev: list[str] = []
    for path in (ROOT / "benchmarks" / "data" / "eval" / "tiers-dev.jsonl", ROOT / "benchmarks" / "heldout" / "tiers-heldout.jsonl"):
        if path.is_file():
            ev += [json.loads(x)["line"] for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    sample: list[str] = []
    for path in sorted((ROOT / "sample-workspace").rglob("*.md")):
        sample += [ln.text for ln in parse_document(path.read_bytes()).memory_lines()]
    return {"lint": lint, "eval": ev, "warm": sample + lint[:300]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30, help="cold runs per variant (default 30)")
    ap.add_argument("--baseline", metavar="REV", help="also measure the tiers package of git revision REV")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        variants = {"working tree": str(ROOT)}
        if args.baseline:
            base = tmp_path / "baseline"
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline, "tiers"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            variants = {f"baseline {args.baseline}": str(base), **variants}
        ws = tmp_path / "ws"
        (ws / ".cuticle").mkdir(parents=True)
        data = tmp_path / "lines.json"
        data.write_text(json.dumps(_lines()), encoding="utf-8")

        cold = COLD.replace("WS", repr(str(ws)))
        warm = WARM.replace("DATA", repr(str(data)))
        # Bytecode is compiled once into a private folder, as an installed package has it; then every measured
        # run is PYTHONDONTWRITEBYTECODE=1 (and there is no cache of ours to read).
        pycache = str(tmp_path / "pycache")
        _timed("pass", str(ROOT), pycache, write_bytecode=True)
        for path in variants.values():
            _timed(cold, path, pycache, write_bytecode=True)
        bare: list[float] = []
        child: dict[str, list[float]] = {v: [] for v in variants}
        inside: dict[str, list[float]] = {v: [] for v in variants}
        for _ in range(args.reps):  # interleaved: machine noise hits every variant alike
            bare.append(_timed("pass", str(ROOT), pycache)[0])
            for name, path in variants.items():
                cpu, out = _timed(cold, path, pycache)
                child[name].append(cpu)
                inside[name].append(float(out.strip()))
        warm_us = {name: json.loads(_timed(warm, path, pycache)[1]) for name, path in variants.items()}

    result = {
        "bare_python_cpu_ms": statistics.median(bare),
        "variants": {
            name: {
                "cold_cpu_ms_beyond_bare": statistics.median(child[name]) - statistics.median(bare),
                "cold_cpu_ms_inside": statistics.median(inside[name]),
                "warm_us_per_line_lint_workspace": warm_us[name]["lint"],
                "warm_us_per_line_eval": warm_us[name]["eval"],
            }
            for name in variants
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    names = list(variants)
    print(f"bare `python -c pass`: {result['bare_python_cpu_ms']:.1f} ms CPU (median of {args.reps})")
    print(f"{'':44}" + "".join(f"{n:>22}" for n in names))
    rows = [("cold: CPU ms beyond bare (child)", "cold_cpu_ms_beyond_bare", "{:.1f}"),
            ("cold: CPU ms inside the process", "cold_cpu_ms_inside", "{:.1f}"),
            ("warm: us/line, lint workspace", "warm_us_per_line_lint_workspace", "{:.1f}"),
            ("warm: us/line, tiers dev + held-out", "warm_us_per_line_eval", "{:.1f}")]
    for label, key, fmt in rows:
        print(f"{label:44}" + "".join(f"{fmt.format(result['variants'][n][key]):>22}" for n in names))
    print("goals: cold <= 10 ms beyond bare; warm <= 30 us/line")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
