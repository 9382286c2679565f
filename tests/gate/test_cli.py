"""The CLI skeleton: version, help, unknown commands."""

import subprocess
import sys

from gate.cli import COMMANDS, main


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
