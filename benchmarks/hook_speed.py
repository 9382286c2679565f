"""Hook speed: `cuticle hook claude` on a PreToolUse Write to a 1,000-line MEMORY.md (or a Bash command) vs a bare
`python -c pass`.

Everything runs side by side in one process, interleaved round-robin so machine noise hits every variant alike:

    python benchmarks/hook_speed.py [--reps 40] [--lines 1000] [--tool write|bash] [--command CMD] [--json]

``--callgrind`` counts instead, with ``valgrind --tool=callgrind``, the instructions of one in-process call (the
clean venv's interpreter running the installed command's ``gate/cuticle_hook.py`` path, ``--no-server``, after a
warm-up call has filled ``.cuticle/cache``) and of the clean venv's bare ``python -c pass``: steady on a busy
machine, where CPU times are not. Under valgrind a call takes seconds, so the call runs through a driver that
raises the hook's answer deadline (``gate.commands.hook.BUDGET``) and is otherwise the installed command.

``--tool bash`` sends a PreToolUse Bash payload instead (``--command``, by default a shell write to MEMORY.md): each
hook call is checked to deny it, so a hook that fails open fast cannot pass for a fast one.

Variants: the bare interpreter; the hook as `cuticle init` installs it (``gate.install.default_command``: the
interpreter with ``-I -S`` running ``gate/cuticle_hook.py``; `[gate] server = "auto"`: the first call answers
in-process and starts a `cuticle serve` for the workspace, every later call hands its payload to it through the
server's door); the same command with ``--no-server`` (the in-process gate); the pip console script `cuticle hook
claude` (what a user types); and `python -m gate --no-server`. Each hook process is started as Claude Code starts
it: in the project directory, with CLAUDE_PROJECT_DIR naming it. Each hook call is checked to return the
expected answer (a hook that fails open fast would be a meaningless win).

The same rows are also run in a **clean virtual environment** made for the run (`--no-venv` skips it): the
interpreter's own site-packages may run `.pth` start-up code (a sandbox's certificate shim, editable-install
finders) that makes the bare interpreter slow and every ratio flattering. The clean venv sees this repository and
the dependencies' directories on `sys.path` but runs none of their `.pth` files, as a `pipx`-style install would,
and gets a `cuticle` console script written exactly as pip writes it (its installed command is the clean
venv's own interpreter).
Times are wall-clock medians; `cpu ms` is the child's user+system CPU time, steadier on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


def clean_venv(root: Path) -> Path:
    """A venv whose only `.pth` puts this repository and the current dependencies' directories on sys.path."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = subprocess.run([str(root / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    deps = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    Path(site, "cuticle-bench.pth").write_text("\n".join([str(ROOT), *deps]) + "\n", encoding="utf-8")
    # the console script exactly as pip writes it for `[project.scripts] cuticle = "gate.cli:main"`
    script = root / "bin" / "cuticle"
    script.write_text(f"#!{root / 'bin' / 'python'}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
                      "from gate.cli import console\nif __name__ == '__main__':\n"
                      "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
                      "    sys.exit(console())\n", encoding="utf-8")
    script.chmod(0o755)
    return root / "bin" / "python"


def installed_command(python: str) -> list[str]:
    """The hook command `cuticle init` writes when run by ``python`` (``gate.install.default_command``)."""
    out = subprocess.run([python, "-c", "from gate.install import default_command; print(default_command())"],
                         check=True, capture_output=True, text=True).stdout.strip()
    return shlex.split(out)


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
    ap.add_argument("--tool", choices=("write", "bash"), default="write",
                    help="the PreToolUse payload: a Write to MEMORY.md, or a Bash command")
    ap.add_argument("--command", default='echo "- the user likes tabs" >> MEMORY.md',
                    help="the Bash command of --tool bash (one the starter policy denies: each answer is checked)")
    ap.add_argument("--script", default=None, help="the cuticle console script to run (default: beside python)")
    ap.add_argument("--no-venv", action="store_true", help="skip the clean-venv pair")
    ap.add_argument("--callgrind", action="store_true",
                    help="count the instructions of one in-process call and of a bare interpreter (needs valgrind)")
    ap.add_argument("--keep-env-bytecode", action="store_true",
                    help="honour PYTHONDONTWRITEBYTECODE from the environment (default: compile once to __pycache__, "
                         "as an installed package does)")
    args = ap.parse_args(argv)
    os.environ.pop("CUTICLE_SERVER", None)  # the workspace's own setting decides, here and in every child

    ws = make_workspace(args.lines)
    # set up as a user would: `cuticle init` writes the config, key, starter policy and session state
    subprocess.run([sys.executable, "-m", "gate", "init", "claude", str(ws)], check=True, capture_output=True)
    memory = ws / "MEMORY.md"
    if args.tool == "bash":
        tool_input = {"command": args.command, "description": "benchmark"}
        expect = '"permissionDecision": "deny"'
    else:
        tool_input = {"file_path": str(memory),
                      "content": memory.read_text(encoding="utf-8") + "- The flaky test is probably a race.\n"}
        expect = "<!--cu:H"
    payload = json.dumps({
        "session_id": "bench", "cwd": str(ws), "hook_event_name": "PreToolUse",
        "tool_name": "Bash" if args.tool == "bash" else "Write", "permission_mode": "default",
        "tool_use_id": "toolu_bench", "tool_input": tool_input,
    }).encode()
    # the console script installed beside this interpreter (a version manager's shim on PATH adds its own
    # start-up cost, which is not cuticle's; pass --script to measure a specific one)
    beside = Path(sys.executable).with_name("cuticle")
    script = args.script or (str(beside) if beside.exists() else shutil.which("cuticle") or "cuticle")
    hook = ["hook", "claude"]
    installed = installed_command(sys.executable)
    variants = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "hook as installed": [*installed, *hook],
        "hook as installed --no-server": [*installed, *hook, "--no-server"],
        "console script cuticle hook": [script, *hook],
        "python -m gate hook --no-server": [sys.executable, "-m", "gate", *hook, "--no-server"],
    }
    venv_dir = None
    if not args.no_venv:
        venv_dir = Path(tempfile.mkdtemp(prefix="cuticle-venv-"))
        vpy = str(clean_venv(venv_dir / "venv"))
        vinstalled = installed_command(vpy)
        variants["clean venv: python -c pass"] = [vpy, "-c", "pass"]
        variants["clean venv: hook as installed"] = [*vinstalled, *hook]
        variants["clean venv: as installed --no-server"] = [*vinstalled, *hook, "--no-server"]
        variants["clean venv: console script hook"] = [str(Path(vpy).with_name("cuticle")), *hook]

    if args.callgrind:
        variants = {}
        venv_dir = Path(tempfile.mkdtemp(prefix="cuticle-venv-"))
        vpy = str(clean_venv(venv_dir / "venv"))
        driver = ("import sys; sys.path.append(sys.argv[1]); del sys.argv[1]; import gate.commands.hook as h; "
                  "h.BUDGET = 600.0; from gate.cli import console; console()")
        variants["clean venv: python -c pass"] = [vpy, "-c", "pass"]
        variants["clean venv: in-process call"] = [vpy, "-I", "-S", "-c", driver, str(ROOT), *hook, "--no-server"]

    # a hook process as Claude Code starts it: in the project directory, with CLAUDE_PROJECT_DIR naming it
    os.environ["CLAUDE_PROJECT_DIR"] = str(ws)
    env = dict(os.environ)
    env.pop("CUTICLE_SERVER", None)  # the workspace's own setting (server = "auto", from `cuticle init`) decides
    if not args.keep_env_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    info = ws / ".cuticle" / "serve.json"

    def run(argv: list[str]) -> tuple[float, float]:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run(argv, input=payload, capture_output=True, env=env, cwd=ws)
        dt = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
        if "hook" in argv:
            out = json.loads(proc.stdout or b"{}")
            if expect not in json.dumps(out):
                raise SystemExit(f"{' '.join(argv)} did not return the expected answer ({expect}): "
                                 f"{proc.stdout[:300]!r} {proc.stderr[:300]!r}")
        return dt, cpu

    def round_trip() -> float:
        """The server's own latency: one request from this process, no process start."""
        from gate.client import forward

        t = time.perf_counter()
        got = forward("claude", None, payload)
        dt = time.perf_counter() - t
        if got is None or expect not in got[0]:
            raise SystemExit(f"the server did not answer as expected ({expect})")
        return dt

    def instructions(argv: list[str]) -> int:
        out = Path(tempfile.mkdtemp(prefix="cuticle-cg-")) / "callgrind.out"
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], input=payload,
                              capture_output=True, env=env, cwd=ws)
        if "hook" in argv and expect.encode() not in proc.stdout:
            raise SystemExit(f"the call did not return the expected answer ({expect}): {proc.stdout[:300]!r}")
        summary = [ln for ln in out.read_text(encoding="utf-8").splitlines() if ln.startswith("summary:")]
        shutil.rmtree(out.parent, ignore_errors=True)
        return int(summary[0].split()[1])

    if args.callgrind:
        try:
            for argv in variants.values():
                run(argv)  # the warm-up: .pyc files and .cuticle/cache
            counts = {name: instructions(argv) for name, argv in variants.items()}
        finally:
            shutil.rmtree(ws, ignore_errors=True)
            shutil.rmtree(venv_dir, ignore_errors=True)
        bare = counts["clean venv: python -c pass"]
        for name, n in counts.items():
            print(f"{name:36} {n / 1e6:>9.1f}M instructions {n / bare:>6.2f}x bare")
        return 0

    try:
        for argv in variants.values():  # warm the page cache and the .pyc files; the first hook call starts the server
            run(argv)
            run(argv)
        for _ in range(400):
            if info.exists() and info.stat().st_size:
                break
            time.sleep(0.05)
        round_trip()  # raises unless the autostarted server answers
        times: dict[str, list[float]] = {k: [] for k in variants}
        cpus: dict[str, list[float]] = {k: [] for k in variants}
        rtt: list[float] = []
        for _ in range(args.reps):
            for name, argv in variants.items():
                wall, cpu = run(argv)
                times[name].append(wall)
                cpus[name].append(cpu)
            rtt.append(round_trip())
    finally:
        try:
            os.kill(int(json.loads(info.read_text(encoding="utf-8"))["pid"]), signal.SIGINT)
        except (OSError, ValueError, KeyError):
            pass
        shutil.rmtree(ws, ignore_errors=True)
        if venv_dir is not None:
            shutil.rmtree(venv_dir, ignore_errors=True)

    rows = []
    for name, xs in times.items():
        bare = "clean venv: python -c pass" if name.startswith("clean venv") else "python -c pass"
        base, cpu_base = statistics.median(times[bare]), statistics.median(cpus[bare])
        med, cpu = statistics.median(xs), statistics.median(cpus[name])
        rows.append({"variant": name, "median_ms": round(med * 1000, 1), "p90_ms": round(percentile(xs, 0.9) * 1000, 1),
                     "ratio": round(med / base, 2), "cpu_ms": round(cpu * 1000, 1), "cpu_ratio": round(cpu / cpu_base, 2)})
    serve_rtt = {"median_ms": round(statistics.median(rtt) * 1000, 1), "p90_ms": round(percentile(rtt, 0.9) * 1000, 1)}
    if args.json:
        print(json.dumps({"reps": args.reps, "lines": args.lines, "tool": args.tool, "python": sys.version.split()[0],
                          "serve_round_trip": serve_rtt,
                          "bytecode_cached": not args.keep_env_bytecode,
                          "cpus": os.cpu_count(), "rows": rows}, indent=2))
        return 0
    what = f"Bash {args.command!r}" if args.tool == "bash" else f"Write to a {args.lines}-line MEMORY.md"
    print(f"hook speed: PreToolUse {what}, {args.reps} interleaved reps, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"console script: {script}; bytecode {'as in the environment' if args.keep_env_bytecode else 'cached'}")
    print(f"installed command: {shlex.join(installed)}")
    print(f"{'variant':36} {'median ms':>10} {'p90 ms':>9} {'x bare':>7} {'cpu ms':>8} {'cpu x bare':>10}")
    for r in rows:
        print(f"{r['variant']:36} {r['median_ms']:>10.1f} {r['p90_ms']:>9.1f} {r['ratio']:>7.2f} "
              f"{r['cpu_ms']:>8.1f} {r['cpu_ratio']:>10.2f}")
    print(f"{'serve round trip (no process)':36} {serve_rtt['median_ms']:>10.1f} {serve_rtt['p90_ms']:>9.1f}")
    print("budgets: as installed <= 1.5x the bare interpreter, --no-server <= 4x (each venv row against its own "
          "bare interpreter);\n'as installed' is the command `cuticle init` writes (server = \"auto\"); "
          "--no-server rows load the gate in the hook process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
