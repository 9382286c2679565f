"""Record classes: what a class and an instance cost, tiers.record vs the stdlib dataclasses decorator.

    python benchmarks/record_speed.py [--classes 200] [--instances 200000]

Why tiers.record exists (its docstring): the hook imports every record class on every call, and the stdlib
decorator compiles each class's methods with ``exec``. The table prints the cost per class, the number of record
classes the in-process Write hook defines, what they cost both ways, and the cost per instance (positional and
keyword construction, hash), so the trade (cheaper classes, somewhat dearer instances) stays visible.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tiers import record  # noqa: E402


def make_class(decorate, field):
    """One five-field frozen slotted record class, made by ``decorate`` (the thing being measured)."""
    @decorate(frozen=True, slots=True)
    class A:
        a: int
        b: str
        c: int = 0
        d: tuple = ()
        e: tuple = field(default_factory=tuple)

    return A


def per_class(decorate, field, n: int) -> float:
    """Milliseconds to make one record class."""
    t = time.perf_counter()
    for _ in range(n):
        make_class(decorate, field)
    return (time.perf_counter() - t) * 1000 / n


def per_instance(decorate, field, n: int) -> tuple[float, float, float]:
    """Microseconds per positional construction, keyword construction and hash of one instance."""
    A = make_class(decorate, field)
    out = []
    for make in (lambda: A(1, "x", 2), lambda: A(a=1, b="x", c=2)):
        t = time.perf_counter()
        for _ in range(n):
            make()
        out.append((time.perf_counter() - t) * 1e6 / n)
    x = A(1, "x", 2)
    t = time.perf_counter()
    for _ in range(n):
        hash(x)
    out.append((time.perf_counter() - t) * 1e6 / n)
    return out[0], out[1], out[2]


HOOK_CLASSES = r"""
import collections, io, sys
import tiers.record as record
count = collections.Counter()
made = record._make
def counted(cls, frozen, slots):
    count[cls.__module__] += 1
    return made(cls, frozen, slots)
record._make = counted
import json
ws = sys.argv[1]
sys.argv = ["cuticle", "hook", "claude"]
memory = open(ws + "/MEMORY.md", encoding="utf-8").read()
payload = {"session_id": "s", "cwd": ws, "hook_event_name": "PreToolUse", "tool_name": "Write",
           "tool_input": {"file_path": ws + "/MEMORY.md", "content": memory + "- `make` reported 2 failures." + chr(10)}}
sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode()))
from gate.cli import main
sys.stdout = io.StringIO()
try:
    main(["hook", "claude"])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print(sum(count.values()))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", type=int, default=200)
    ap.add_argument("--instances", type=int, default=200_000)
    args = ap.parse_args()
    ours = per_class(record.dataclass, record.field, args.classes)
    stdlib = per_class(dataclasses.dataclass, dataclasses.field, args.classes)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(ROOT / "sample-workspace", ws, ignore=shutil.ignore_patterns(".cuticle"))
        (ws / ".cuticle").mkdir()
        (ws / ".cuticle" / "key").write_text("5a" * 32 + "\n", encoding="ascii")
        (ws / ".cuticle" / "config.toml").write_text("", encoding="utf-8")
        hook = subprocess.run([sys.executable, "-c", HOOK_CLASSES, str(ws)], capture_output=True, text=True,
                              cwd=ROOT, env=dict(os.environ, CUTICLE_SERVER="off"))
    if hook.returncode != 0 or not hook.stdout.strip().isdigit():
        raise SystemExit(f"record_speed: the hook run failed: {hook.stderr.strip()[-500:]}")
    classes = int(hook.stdout)
    print(f"record classes, per class and for the {classes} classes the in-process Write hook defines:")
    print(f"  {'':24} {'ms/class':>9} {'hook ms':>8}")
    print(f"  {'tiers.record':24} {ours:9.3f} {ours * classes:8.1f}")
    print(f"  {'dataclasses (stdlib)':24} {stdlib:9.3f} {stdlib * classes:8.1f}")
    print("instances, microseconds each:")
    print(f"  {'':24} {'positional':>10} {'keywords':>9} {'hash':>6}")
    for name, dec, fld in (("tiers.record", record.dataclass, record.field),
                           ("dataclasses (stdlib)", dataclasses.dataclass, dataclasses.field)):
        pos, kw, h = per_instance(dec, fld, args.instances)
        print(f"  {name:24} {pos:10.2f} {kw:9.2f} {h:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
