"""`python benchmarks/run_all.py` runs the benchmarks and prints one table: figure, budget, measured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import run_all  # noqa: E402


def test_run_all_prints_one_table_of_the_figures_it_ran():
    proc = subprocess.run([sys.executable, "benchmarks/run_all.py", "--only", "shell,vectors"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == ["figure", "budget", "measured"]
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip() for line in lines[2:]}
    assert rows["shell denies allowed, dev"] == "0"
    assert rows["Chitin digest classes"].endswith("agree")
    assert "running benchmarks/shell_eval.py" in proc.stderr


def test_an_unknown_benchmark_name_is_a_usage_error():
    proc = subprocess.run([sys.executable, "benchmarks/run_all.py", "--only", "nope"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown benchmark" in proc.stderr


def test_a_figure_over_budget_is_marked_and_fails_the_run():
    rows = run_all._canon("canon + evaluate          19,000 (19,500)    25,000 (26,000)\n")
    assert [f.ok for f in rows] == [False, True]
    assert run_all._injection("dev", True)("all=all   30   0.800\nall=all   30        0.100\n")[1].ok is False


def test_a_benchmark_whose_output_cannot_be_read_is_reported_not_guessed():
    bench = run_all.Bench("broken", ("-c", "print('nothing useful')"), run_all._lint)
    figures, _, error = run_all.run(bench)
    assert figures == [] and "could not read" in error


def test_the_large_file_benchmark_reads_into_the_table():
    proc = subprocess.run([sys.executable, "benchmarks/large_file.py", "--sizes", "300"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (figure,) = run_all._large(proc.stdout)
    assert figure.name == "lint, one 300-line MEMORY.md (-j1)" and "µs/line" in figure.measured
