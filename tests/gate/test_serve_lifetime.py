"""`cuticle serve` never outlives its workspace, and no number of clients makes it start unbounded threads."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gate_helpers import install


def _serve(ws: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    info = ws / ".cuticle" / "serve.json"
    for _ in range(200):
        if info.exists() and info.stat().st_size:
            return proc
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("cuticle serve did not start")


@pytest.mark.parametrize("how", ["removed", "re-created-with-a-new-key", "re-created-with-the-same-key"])
def test_a_server_stops_when_its_workspace_goes_or_is_re_created_at_the_same_path(ws, how):
    proc = _serve(ws)
    try:
        key = (ws / ".cuticle" / "key").read_bytes()
        shutil.rmtree(ws / ".cuticle")
        if how != "removed":
            install(ws)
            if how == "re-created-with-the-same-key":
                (ws / ".cuticle" / "key").write_bytes(key)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_an_untouched_workspace_keeps_its_server(ws, monkeypatch):
    from gate import server

    monkeypatch.setattr(server, "WORKSPACE_CHECK_EVERY", 0.05)
    srv = server.make_server(cwd=str(ws))
    server.stop_when_idle(srv, 0, ws / ".cuticle")
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    time.sleep(0.4)
    assert t.is_alive()
    (ws / ".cuticle" / "key").write_text("cd" * 32, encoding="ascii")  # a new key: no longer the same workspace
    t.join(timeout=5)
    assert not t.is_alive()
    srv.server_close()


def test_connections_beyond_the_worker_limit_wait_and_never_start_threads(ws, monkeypatch):
    from gate import server

    monkeypatch.setattr(server, "MAX_WORKERS", 2)
    monkeypatch.setattr(server, "QUEUE_WAIT", 0.3)
    monkeypatch.setattr(server._Handler, "timeout", 1.0)
    srv = server.make_server(cwd=str(ws), token="tok")
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    base = threading.active_count()
    idle = [socket.create_connection(srv.server_address, timeout=5) for _ in range(12)]  # say nothing
    try:
        peak = 0
        for _ in range(20):
            peak = max(peak, threading.active_count() - base)
            time.sleep(0.05)
        assert peak <= 2
    finally:
        for s in idle:
            s.close()
    time.sleep(1.5)  # the stalled workers time out
    import http.client

    conn = http.client.HTTPConnection(*srv.server_address, timeout=10)
    conn.request("GET", "/health", headers={"Authorization": "Bearer tok"})
    assert json.loads(conn.getresponse().read())["ok"] is True
    srv.shutdown()
    srv.server_close()


def test_concurrent_calls_for_the_same_file_in_one_server_process_all_get_their_answer(ws):
    """The server answers calls in threads of one process: scratch files must not collide (they did: a shared
    pid-named snapshot temp file made some calls fail open)."""
    from gate.handler import handle

    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    body = json.dumps({"session_id": "s", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write",
                       "tool_input": {"file_path": str(ws / "MEMORY.md"),
                                      "content": memory + "- The flaky test is probably a race.\n"}}).encode()
    bad: list[str] = []

    def run() -> None:
        for _ in range(15):
            r = handle("claude", "PreToolUse", body, cwd=str(ws), env={})
            if "updatedInput" not in r.stdout:
                bad.append(r.stderr)

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_a_slow_server_is_given_up_within_the_budget_and_not_replaced(ws, monkeypatch):
    from gate.client import forward

    monkeypatch.delenv("CUTICLE_SERVER", raising=False)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts (the kernel does) and never answers
    info = ws / ".cuticle" / "serve.json"
    info.write_text(json.dumps({"address": f"http://127.0.0.1:{listener.getsockname()[1]}", "token": "t"}))
    try:
        t0 = time.monotonic()
        assert forward("claude", "PreToolUse", json.dumps({"cwd": str(ws)}).encode(), timeout=0.3) is None
        assert time.monotonic() - t0 < 2.0
        assert info.exists()  # slow is not stale: no second server is started over it
    finally:
        listener.close()
