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

from gate_helpers import CONFLICT, run_hook, serving, write_payload


@pytest.fixture(autouse=True)
def _servers_allowed(monkeypatch):
    """These tests are about the server: the workspace's own `[gate] server` setting decides."""
    monkeypatch.delenv("CUTICLE_SERVER", raising=False)


@pytest.fixture
def server(ws: Path):
    with serving(ws):
        yield json.loads((ws / ".cuticle" / "serve.json").read_text())


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


def test_a_forwarded_hook_call_loads_neither_the_gate_nor_the_memory_model(ws, server):
    """Routed by the payload alone (no project variable, the hook's directory outside the workspace), a forwarded
    call adds the intake (public ``json``) to the discovery rule, but no memory model, no rules, no ``socket``; the
    answer is the server's, byte for byte what the in-process gate says (test_hook_door.py: the installed command
    routed by the host's project, which reads no JSON at all)."""
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from gate.cli import main\n"
        "code = main(['hook', 'claude'])\n"
        "loaded = sorted(set(sys.modules) - before)\n"
        "sys.stderr.write('\\nLOADED ' + ' '.join(loaded) + ' CODE ' + str(code) + '\\n')\n"
    )
    proc = subprocess.run([sys.executable, "-S", "-c", code], input=json.dumps(payload), capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    loaded = proc.stderr.rsplit("LOADED ", 1)[1].split()
    assert loaded[-2:] == ["CODE", "2"]
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # (``json`` imports ``re``, which imports ``enum``: the price of the public decoder)
    heavy = [m for m in loaded[:-2] if m.split(".")[0] in ("rules", "personality")
             or (m.startswith("tiers.") and m not in ("tiers.discover", "tiers.lazy"))
             or m in ("gate.handler", "gate.writepath", "gate.payload")]
    assert heavy == []


def test_the_client_reads_the_payload_with_the_gates_own_intake(ws, server):
    """Malformed or hostile stdin on the forwarded path never raises (Python 3.11's private scanner raised
    SystemError): the client hands it to the in-process gate, which answers it."""
    from gate.client import forward

    for bad in (b"{", b"\xff{}", b"[" * 5000, b'{"cwd": "\\ud800"' + b"}", b"\x00", b'"just a string"'):
        assert forward("claude", "PreToolUse", bad) is None or bad.startswith(b'{"cwd"')


def test_a_server_whose_code_changed_stops_and_the_hook_answers_in_process(ws, monkeypatch):
    """After an upgrade the old server must not keep answering: it refuses with 503 and shuts down; the hook call
    that met it falls back to the in-process gate, so no answer is lost."""
    import threading

    from gate import client, server

    monkeypatch.setattr(server, "CODE_CHECK_EVERY", 0.0)
    stamps = iter([(("a.py", 1, 1),), (("a.py", 1, 2),)])
    monkeypatch.setattr(server, "code_stamp", lambda: next(stamps, (("a.py", 1, 2),)))
    srv = server.make_server(cwd=str(ws))
    server.write_info(ws / ".cuticle", srv.address, srv.token)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
        status, body = _post(json.loads((ws / ".cuticle" / "serve.json").read_text()), "/hook/claude",
                             json.dumps(payload).encode())
        assert status == 503 and "changed" in body["error"]
        thread.join(timeout=10)
        assert not thread.is_alive()  # it shut itself down
        assert client.forward("claude", None, json.dumps(payload).encode()) is None  # -> in-process
        assert run_hook("claude", payload).blocked
    finally:
        srv.server_close()


def test_code_stamp_sees_an_edited_source_file(tmp_path, monkeypatch):
    from gate import server

    pkg = tmp_path / "gate"
    pkg.mkdir()
    (pkg / "x.py").write_text("a = 1\n")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "x.pyc").write_bytes(b"\0")
    monkeypatch.setattr(server, "__file__", str(pkg / "server.py"))
    before = server.code_stamp()
    assert [Path(p).name for p, _, _ in before] == ["x.py"]
    (pkg / "x.py").write_text("a = 22\n")
    assert server.code_stamp() != before


def test_autostart_reads_no_toml_when_the_setting_is_absent(ws):
    (ws / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 3\n", encoding="utf-8")
    code = ("import sys\nfrom gate.client import _maybe_autostart\n_maybe_autostart(sys.argv[1])\n"
            "print('tomllib' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(ws / ".cuticle")], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert proc.stdout.strip() == "False"
    assert not (ws / ".cuticle" / "serve.starting").exists()


def test_result_zero_leaves_out_only_the_parsed_copy(ws, server):
    payload, _ = write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")
    full = _post(server, "/hook/claude", json.dumps(payload).encode())
    lean = _post(server, "/hook/claude?result=0", json.dumps(payload).encode())
    assert full[0] == lean[0] == 200
    assert "result" not in lean[1] and full[1]["result"] is not None
    assert {k: v for k, v in full[1].items() if k != "result"} == lean[1]


def test_a_stopping_server_leaves_a_newer_servers_record_alone(ws):
    """After a 503 the client may start a fresh server before the old one has finished stopping: the old one must
    not delete the new one's serve.json on its way out."""
    info_path = ws / ".cuticle" / "serve.json"
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(ws), "--idle-timeout", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(400):
            if info_path.exists() and info_path.stat().st_size:
                break
            time.sleep(0.05)
        newer = {"address": "http://127.0.0.1:9", "token": "t", "pid": proc.pid + 100000}
        info_path.write_text(json.dumps(newer), encoding="utf-8")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert json.loads(info_path.read_text(encoding="utf-8")) == newer
