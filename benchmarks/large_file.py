"""One large MEMORY.md, linted by a real `cuticle lint` process at growing sizes: wall and CPU time, peak memory
and the CPU time per line (steadier than wall time on a busy machine), so a cost that grows faster than the file
shows as a growing per-line figure.

Usage: python benchmarks/large_file.py [--sizes 4000,16000,64000] [--content varied|sample] [--select RULES]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from lint_speed import TEMPLATES  # noqa: E402 - the 10k-line benchmark's line shapes, one list for both


def generate(path: Path, lines: int, content: str = "varied", seed: int = 7) -> None:
    """``varied``: lines from TEMPLATES with random names and numbers (few repeats); ``sample``: the sample
    workspace's MEMORY.md over and over (every line repeated: the duplicate rules' worst case)."""
    if content == "sample":
        sample = (ROOT / "sample-workspace" / "MEMORY.md").read_text(encoding="utf-8").splitlines()
        out = [sample[i % len(sample)] for i in range(lines)]
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        return
    rng = random.Random(seed)
    out = ["# MEMORY.md"]
    while len(out) < lines:
        t = rng.choice(TEMPLATES)
        out.append(t.format(svc=f"svc{rng.randint(1, 400)}", day=rng.choice(["Friday", "Monday", "Sunday"]),
                            db=rng.choice(["SQLite", "Postgres"]), n=rng.randint(1, 9999)))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def measure(lines: int, select: str | None, content: str = "varied") -> dict:
    with tempfile.TemporaryDirectory(prefix="cuticle-large-") as tmp:
        ws = Path(tmp)
        generate(ws / "MEMORY.md", lines, content)
        cmd = [sys.executable, "-m", "gate", "lint", "--workspace", str(ws), "--no-cache", "--jobs", "1",
               "--exit-zero", "--format", "json"]
        if select:
            cmd += ["--select", select]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, cwd=ROOT, timeout=1800)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"cuticle lint failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        return {"lines": lines, "bytes": (ws / "MEMORY.md").stat().st_size, "wall": wall,
                "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
                "rss_mb": after.ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="4000,16000,64000", help="comma-separated line counts")
    ap.add_argument("--select", default=None, help="only these rules (as cuticle lint --select)")
    ap.add_argument("--content", choices=("varied", "sample"), default="varied",
                    help="varied lines (default) or the sample MEMORY.md repeated")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'lines':>7} {'bytes':>9} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'CPU us/line':>11}")
    for n in sizes:
        r = measure(n, args.select, args.content)
        print(f"{r['lines']:>7} {r['bytes']:>9} {r['wall']:>7.2f} {r['cpu']:>7.2f} {r['rss_mb']:>8.0f} "
              f"{r['cpu'] / n * 1e6:>11.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
