"""`cuticle serve --status` / `--stop`: report and stop background servers by their token, never by a guess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gate import servectl
from gate.cli import main


def _start(ws: Path, *extra: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    info = ws / ".cuticle" / "serve.json"
    for _ in range(400):
        if info.exists() and info.stat().st_size:
            return proc
        time.sleep(0.025)
    proc.kill()
    raise AssertionError("the server did not start")


@pytest.fixture
def server(ws: Path):
    proc = _start(ws)
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=10)


def _cli(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["serve", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_status_reports_the_running_server_of_the_workspace(capsys, ws, server):
    code, out = _cli(capsys, "--status", "-w", str(ws))
    (s,) = out["servers"]
    assert code == 0 and s["state"] == "running" and s["pid"] == server.pid
    assert s["address"].startswith("http://127.0.0.1:")


def test_status_without_a_server_says_none_is_recorded(capsys, ws):
    code, out = _cli(capsys, "--status", "-w", str(ws))
    assert code == 0 and out["servers"][0]["state"] == "not-running"


def test_stop_ends_the_server_and_removes_its_record(capsys, ws, server):
    code, out = _cli(capsys, "--stop", "-w", str(ws))
    assert code == 0 and out["servers"][0]["state"] == "stopped"
    assert server.wait(timeout=10) == 0  # a clean exit through serve's own shutdown, not a signal
    assert not (ws / ".cuticle" / "serve.json").exists()


def test_stop_of_a_unix_socket_server_works_the_same(capsys, tmp_path, ws):
    sock = tmp_path / "s.sock"
    proc = _start(ws, "--socket", str(sock))
    try:
        code, out = _cli(capsys, "--stop", "-w", str(ws))
        assert code == 0 and out["servers"][0]["state"] == "stopped" and proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_stop_with_a_stale_record_removes_it_and_signals_nobody(capsys, ws, monkeypatch):
    # a record naming a live process that is not a cuticle server (this test's own pid): never signalled
    (ws / ".cuticle" / "serve.json").write_text(json.dumps(
        {"address": "http://127.0.0.1:9", "token": "t", "pid": os.getpid()}))
    killed = []
    monkeypatch.setattr(servectl.os, "kill", lambda pid, sig: killed.append((pid, sig)) if sig else None)
    code, out = _cli(capsys, "--stop", "-w", str(ws))
    assert code == 0 and out["servers"][0]["state"] == "not-running"
    assert killed == [] and not (ws / ".cuticle" / "serve.json").exists()


def test_a_wrong_token_neither_stops_the_server_nor_counts_as_running(capsys, ws, server):
    info = json.loads((ws / ".cuticle" / "serve.json").read_text())
    answer = servectl._request({**info, "token": "forged"}, "POST", "/shutdown")
    assert answer is not None and answer[0] == 401
    time.sleep(0.2)
    assert server.poll() is None
    code, out = _cli(capsys, "--status", "-w", str(ws))
    assert out["servers"][0]["state"] == "running"


def test_all_finds_the_users_servers_by_command_line(ws, server):
    found = dict(servectl.all_servers())
    assert Path(found[server.pid]).resolve() == ws.resolve()


def test_stop_all_stops_every_server_it_finds(ws, tmp_path, monkeypatch, server):
    # only this test's servers: the real machine may run others' (never stop what the test did not start)
    other = tmp_path / "other"
    other.mkdir()
    (other / ".cuticle").mkdir()
    second = _start(other)
    mine = {server.pid, second.pid}
    real = servectl._processes
    monkeypatch.setattr(servectl, "_processes", lambda: [p for p in real() if p.pid in mine])
    try:
        states = servectl.stop_all()
        assert sorted(s.state for s in states) == ["stopped", "stopped"]
        assert server.wait(timeout=10) == 0 and second.wait(timeout=10) == 0
    finally:
        if second.poll() is None:
            second.kill()


@pytest.mark.parametrize("argv", [["--all"], ["--json"]], ids=["all", "json"])
def test_control_only_options_without_status_or_stop_are_a_usage_error(capsys, ws, argv):
    assert main(["serve", "-w", str(ws), *argv]) == 2
    assert "--status or --stop" in capsys.readouterr().err


def test_status_and_stop_together_are_refused(capsys, ws):
    with pytest.raises(SystemExit) as exc:
        main(["serve", "-w", str(ws), "--status", "--stop"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "argv, serving",
    [
        (("cuticle", "serve"), True),
        (("/venv/bin/cuticle", "serve", "-w", "x"), True),
        (("/usr/bin/python3", "-m", "gate", "serve"), True),
        (("python3", "gate", "serve"), False),
        (("cuticle", "lint", "serve"), False),
        (("vim", "serve"), False),
    ],
    ids=["cuticle", "cuticle-path", "python-m", "script-named-gate", "serve-as-argument", "other-program"],
)
def test_a_server_is_recognised_only_by_its_own_command_line(argv, serving):
    assert (servectl._serve_index(argv) is not None) is serving
