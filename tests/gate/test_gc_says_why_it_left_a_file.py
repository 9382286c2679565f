"""`cuticle gc` on a memory file it must not rewrite (a second hard link: the rename would fork the memory) leaves
the file as it was and says so as `lint --fix` does: one line per file on stderr, exit 1 (docs/cli.md), and in the
JSON report's ``errors``; stdout holds results only. Once the second name is gone the line is collected."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tiers.model import Tier
from tiers.session import current_session, end_session
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

GUESS = "- Maybe the cache is cold on Mondays."


def _gc(ws: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gate", "gc", "--workspace", str(ws), *extra],
                          capture_output=True, text=True, timeout=120)


def _expired_and_linked(tmp_path: Path) -> tuple[Path, Path, str]:
    root = tmp_path / "ws"
    root.mkdir()
    ws = Workspace(root)
    ws.ensure_state()
    hyp = apply_stamp(GUESS, make_stamp(GUESS, Tier.HYPOTHESIS, current_session(ws), ws.key, ttl=1))
    text = f"# Memory\n\n- User said: never deploy on Fridays.\n{hyp}\n"
    path = root / "MEMORY.md"
    path.write_text(text, encoding="utf-8")
    end_session(ws, "a")  # the guess has expired
    other = tmp_path / "shared-memory.md"
    os.link(path, other)
    return root, other, text


def test_a_hard_linked_memory_file_is_left_with_a_one_line_reason_and_exit_1(tmp_path: Path) -> None:
    root, other, text = _expired_and_linked(tmp_path)
    out = _gc(root)
    assert out.returncode == 1, out.stdout + out.stderr
    reasons = [line for line in out.stderr.splitlines() if "MEMORY.md" in line]
    assert len(reasons) == 1 and "hard link" in reasons[0] and "not collected" in reasons[0], out.stderr
    assert reasons[0].startswith("cuticle gc: ")
    assert "error" not in out.stdout and "hard link" not in out.stdout
    path = root / "MEMORY.md"
    assert path.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == text
    assert os.stat(path).st_ino == os.stat(other).st_ino


def test_the_json_report_lists_the_file_it_left_and_exits_1(tmp_path: Path) -> None:
    root, _other, _text = _expired_and_linked(tmp_path)
    out = _gc(root, "--json")
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert report["removed"] == [] and len(report["errors"]) == 1
    assert report["errors"][0].startswith("MEMORY.md: ") and "hard link" in report["errors"][0]


def test_a_dry_run_reports_the_file_it_could_not_check_the_same_way(tmp_path: Path) -> None:
    root, _other, text = _expired_and_linked(tmp_path)
    out = _gc(root, "--dry-run")
    assert (root / "MEMORY.md").read_text(encoding="utf-8") == text
    assert out.returncode == 1, out.stdout + out.stderr  # what a real run would refuse, a dry run says
    assert out.stderr.count("cuticle gc: ") == 1 and "hard link" in out.stderr
    assert "would remove HYPOTHESIS" not in out.stdout


def test_once_the_second_name_is_gone_the_line_is_collected(tmp_path: Path) -> None:
    root, other, _text = _expired_and_linked(tmp_path)
    assert _gc(root).returncode == 1
    other.unlink()
    out = _gc(root)
    assert out.returncode == 0, out.stdout + out.stderr
    assert GUESS not in (root / "MEMORY.md").read_text(encoding="utf-8")
    assert out.stderr.count("cuticle gc: ") == 0
