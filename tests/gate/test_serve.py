"""`cuticle serve`: same answers as `cuticle hook`, token required, loopback only; and the hook's fast path."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from gate_helpers import CONFLICT, run_hook, write_payload


@pytest.fixture
def server(ws: Path):
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    info_path = ws / ".cuticle" / "serve.json"
    for _ in range(200):
        if info_path.exists() and info_path.stat().st_size:
            break
        time.sleep(0.05)
    info = json.loads(info_path.read_text())
    yield info
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _post(info: dict, path: str, body: bytes, token: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(info["address"] + path, data=body, method="POST",
                                 headers={"Authorization": f"Bearer {token or info['token']}"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def test_serve_binds_loopback_and_keeps_its_token_private(ws, server):
    assert server["address"].startswith("http://127.0.0.1:")
    assert oct((ws / ".cuticle" / "serve.json").stat().st_mode & 0o777) == "0o600"


def test_serve_answers_exactly_like_the_hook_command(ws, server):
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    status, body = _post(server, "/hook/claude", json.dumps(payload).encode())
    direct = run_hook("claude", payload, env={**os.environ}, cwd=ws)
    assert status == 200
    assert body["exit_code"] == 2 == direct.code
    assert body["result"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(body["stderr"])["error"] == "EpistemicConflictError"


def test_serve_refuses_requests_without_the_token(ws, server):
    status, body = _post(server, "/hook/claude", b"{}", token="wrong")
    assert status == 401 and "token" in body["error"]


def test_hook_command_uses_the_running_server_and_logs_the_same_decision(ws, server):
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    out = run_hook("claude", payload)
    assert out.code == 2 and out.blocked


def test_hook_falls_back_in_process_when_the_recorded_server_is_gone(ws):
    (ws / ".cuticle" / "serve.json").write_text(json.dumps({"address": "http://127.0.0.1:9", "token": "x", "pid": 1}))
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    assert run_hook("claude", payload).blocked


def test_server_auto_starts_on_first_hook_call_and_then_answers(ws):
    (ws / ".cuticle" / "config.toml").write_text('[gate]\nserver = "auto"\n', encoding="utf-8")
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    first = run_hook("claude", payload)
    assert first.blocked  # answered in-process while the server starts
    info_path = ws / ".cuticle" / "serve.json"
    for _ in range(400):
        if info_path.exists() and info_path.stat().st_size:
            break
        time.sleep(0.05)
    info = json.loads(info_path.read_text())
    try:
        assert run_hook("claude", payload).blocked
        status, body = _post(info, "/hook/claude", json.dumps(payload).encode())
        assert status == 200 and body["exit_code"] == 2
        assert not (ws / ".cuticle" / "serve.starting").exists()
    finally:
        os.kill(info["pid"], signal.SIGINT)


def test_server_with_idle_timeout_exits_by_itself(ws):
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws), "--idle-timeout", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not (ws / ".cuticle" / "serve.json").exists()
