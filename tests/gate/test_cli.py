"""The CLI skeleton: version, help, unknown commands."""

import json
import os
import subprocess
import sys
from pathlib import Path

from gate.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def test_version_prints_name_and_version(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert capsys.readouterr().out.startswith("cuticle 0.")


def test_help_lists_every_command():
    out = subprocess.run([sys.executable, "-m", "gate", "--help"], capture_output=True, text=True, check=True).stdout
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "gate", "frobnicate"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr


def test_hook_command_line_is_read_without_argparse():
    from gate.cli import _hook_args

    ns = _hook_args(["hook", "claude", "--no-server"])
    assert (ns.command, ns.host, ns.event, ns.no_server) == ("hook", "claude", None, True)
    ns = _hook_args(["hook", "copilot", "preToolUse"])
    assert (ns.host, ns.event, ns.no_server) == ("copilot", "preToolUse", False)
    # anything unusual is argparse's to parse (help, errors, unknown flags)
    for argv in (["hook"], ["hook", "--help"], ["hook", "a", "b", "c"], ["hook", "claude", "-x"], ["lint"], []):
        assert _hook_args(argv) is None


def test_hook_usage_errors_still_come_from_argparse():
    proc = subprocess.run([sys.executable, "-m", "gate", "hook"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "host" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "gate", "hook", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "--no-server" in proc.stdout


def test_a_memory_write_stays_light(tmp_path):
    """A stamped write to a plain memory file (headings, list items: the Markdown model's fast path) runs classify,
    provenance, arbitration and the security scan without importing any third-party package (run with ``-S``: none
    is importable) nor the slow-to-load standard modules."""
    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 3\n", encoding="utf-8")
    memory = tmp_path / "MEMORY.md"
    memory.write_text("# MEMORY.md\n\n- User said: never deploy on Fridays.\n- Decided with the user: use Postgres "
                      "for the API until the migration.\n- Пользователь сказал: отчёты присылай до 10:00.\n",
                      encoding="utf-8")
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(memory),
                              "content": memory.read_text(encoding="utf-8") + "- The flaky test is probably a race.\n"}}
    code = (
        "import io, json, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "from gate.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        "code = main(['hook', 'claude', '--no-server'])\n"
        "sys.stdout = real\n"
        "heavy = sorted(m for m in ('argparse', 'numpy', 'regex', 'pluggy', 'markdown_it', 'yaml', 'frontmatter',"
        " '_hashlib', 'logging') if m in sys.modules)\n"
        "print(json.dumps([code, '<!--cu:H' in out.getvalue(), heavy]))\n"
    )
    for run in ("first", "steady"):  # the first call creates the key and the config cache, as `cuticle init` does
        proc = subprocess.run([sys.executable, "-S", "-c", code, json.dumps(payload)], capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
        exit_code, stamped, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
        assert exit_code == 0 and stamped, proc.stderr
    assert heavy == []


def test_a_hook_call_stays_light(tmp_path):
    """The hook runs on every agent write: a call on a non-memory file imports neither argparse nor the heavy
    packages (numpy, pluggy, markdown-it)."""
    code = (
        "import io, json, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps({'session_id': 's', 'cwd': sys.argv[1],"
        " 'hook_event_name': 'PreToolUse', 'tool_name': 'Write',"
        " 'tool_input': {'file_path': sys.argv[1] + '/notes.txt', 'content': 'x'}}).encode()))\n"
        "from gate.cli import main\n"
        "code = main(['hook', 'claude', '--no-server'])\n"
        "heavy = sorted(m for m in ('argparse', 'numpy', 'pluggy', 'markdown_it') if m in sys.modules)\n"
        "print(json.dumps([code, heavy]))\n"
    )
    (tmp_path / ".cuticle").mkdir()
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    code, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 0
    assert heavy == []
