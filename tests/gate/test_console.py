"""The `cuticle` program's exit: output complete and flushed, exit codes kept, the collector off only for
short-lived commands (gate.cli.console ends the process with os._exit after flushing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: standard output block-buffered, as for a user's pipe (an unflushed buffer would be lost at os._exit)
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _workspace(tmp_path: Path, lines: int) -> Path:
    body = [f"- The svc{i // 2} team meets on Friday at {i // 2 % 12 + 1}:30." for i in range(lines)]  # pairs
    body.append("- token ghp_" + "a1B2c3D4e5" * 4)  # an error finding: exit code 1
    (tmp_path / "MEMORY.md").write_text("# Memory\n" + "\n".join(body) + "\n", encoding="utf-8")
    return tmp_path


def test_large_json_output_arrives_whole_and_the_exit_code_is_kept(tmp_path):
    ws = _workspace(tmp_path, 3000)
    proc = subprocess.run([sys.executable, "-m", "gate", "lint", "--workspace", str(ws), "--format", "json",
                           "--select", "CU202,CU301"], capture_output=True, cwd=ROOT, timeout=120, env=BUFFERED)
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]  # a truncated buffer would not parse
    assert len(proc.stdout) > 65536  # more than one pipe buffer went through the flush
    assert any(f["code"] == "CU301" for f in findings)
    assert sum(f["code"] == "CU202" for f in findings) > 100
    assert proc.stderr == b""


def test_clean_run_exits_zero(tmp_path):
    (tmp_path / "MEMORY.md").write_text("# Memory\n- The team meets on Friday.\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "gate", "lint", "--workspace", str(tmp_path)],
                          capture_output=True, cwd=ROOT, timeout=120, env=BUFFERED)
    assert proc.returncode == 0, proc.stderr


def test_a_reader_that_goes_away_is_not_an_error(tmp_path):
    ws = _workspace(tmp_path, 3000)
    proc = subprocess.Popen([sys.executable, "-m", "gate", "lint", "--workspace", str(ws), "--format", "json",
                             "--select", "CU202"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=BUFFERED)
    proc.stdout.read(10)
    proc.stdout.close()  # `cuticle lint | head -c 10`
    err = proc.stderr.read()
    code = proc.wait(timeout=120)
    assert b"Traceback" not in err and b"Exception ignored" not in err, err
    assert code in (0, 1)


@pytest.mark.parametrize(("argv", "collector_on"), [
    (["lint", "--workspace", "."], False),
    (["--no-server", "hook", "claude"], False),
    (["serve", "--workspace", "."], True),  # long-lived: keeps the cyclic collector
])
def test_the_collector_is_off_only_for_short_lived_commands(argv, collector_on):
    script = textwrap.dedent(f"""
        import gc, sys
        import gate.cli as cli
        cli.main = lambda: print(gc.isenabled()) or 7
        sys.argv = ["cuticle", *{argv!r}]
        cli.console()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60, env=BUFFERED)
    assert proc.returncode == 7  # main's code is the process's exit code
    assert proc.stdout.strip() == str(collector_on)
