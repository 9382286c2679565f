"""The installed hook command and its way into a running server: the door FIFO of `.cuticle/` (gate.client,
gate.door). A forwarded call loads almost nothing and answers exactly what the in-process gate answers; every
way the door can fail (no server, a dead one, a slow one, a cut answer, a stale one) ends in-process, never as an
unchecked call."""

from __future__ import annotations

import json
import os
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gate_helpers import CONFLICT, Hook, serving, write_payload

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="the door is a FIFO")


@pytest.fixture(autouse=True)
def _servers_allowed(monkeypatch):
    monkeypatch.delenv("CUTICLE_SERVER", raising=False)


def installed_argv() -> list[str]:
    from gate.install import default_command

    return shlex.split(default_command())


def run_installed(payload, ws: Path, *args: str, env: dict | None = None, cwd: Path | None = None) -> Hook:
    """The hook as a host runs what `cuticle init` installed: in the project, with the project variable set."""
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(ws), **(env or {})}
    proc = subprocess.run([*installed_argv(), "hook", "claude", *args], input=json.dumps(payload).encode(),
                          capture_output=True, cwd=cwd or ws, env=env, timeout=120)
    return Hook(subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()),
                "claude")


@pytest.fixture
def door_server(ws: Path):
    with serving(ws) as proc:
        yield proc


def conflict_payload(ws: Path) -> dict:
    return write_payload("claude", ws, "MEMORY.md", (ws / "MEMORY.md").read_text() + CONFLICT + "\n")[0]


def test_init_installs_the_interpreter_isolated_running_the_hook_file(ws):
    argv = installed_argv()
    assert argv[0] == sys.executable and argv[1:3] == ["-I", "-S"]
    assert Path(argv[3]).name == "cuticle_hook.py" and Path(argv[3]).is_file()
    from gate.hosts import get

    assert get("claude").is_ours(f"{shlex.join(argv)} hook claude PreToolUse")


def test_the_installed_command_answers_in_process_without_a_server(ws):
    (ws / ".cuticle" / "config.toml").write_text('[gate]\nserver = "off"\n', encoding="utf-8")
    out = run_installed(conflict_payload(ws), ws)
    assert out.blocked and out.code == 2


def test_the_installed_command_runs_every_other_subcommand_too(ws):
    proc = subprocess.run([*installed_argv(), "lint", "--workspace", str(ws)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr


def test_the_door_is_private_and_answers_exactly_like_the_in_process_gate(ws, door_server):
    door = ws / ".cuticle" / "hook.door"
    assert stat.S_ISFIFO(door.stat().st_mode) and door.stat().st_mode & 0o777 == 0o600
    assert (ws / ".cuticle" / "calls").stat().st_mode & 0o777 == 0o700
    payload = conflict_payload(ws)
    forwarded = run_installed(payload, ws)
    direct = run_installed(payload, ws, "--no-server")
    assert forwarded.code == direct.code == 2
    assert json.loads(forwarded.proc.stdout) == json.loads(direct.proc.stdout)
    assert list((ws / ".cuticle" / "calls").iterdir()) == []  # every call cleans up after itself


def test_a_forwarded_call_imports_neither_json_nor_socket_nor_the_gate(ws, door_server):
    code = ("import sys, runpy\nbefore = set(sys.modules)\nsys.argv = [sys.argv[1], 'hook', 'claude']\n"
            "import os\nsys.path.append(os.path.dirname(os.path.dirname(sys.argv[0])))\n"
            "from gate.cli import main\ncode = main(['hook', 'claude'])\n"
            "sys.stderr.write('\\nLOADED ' + ' '.join(sorted(set(sys.modules) - before)) + ' CODE ' + str(code))\n")
    hook_file = installed_argv()[3]
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", code, hook_file], input=json.dumps(conflict_payload(ws)),
                          capture_output=True, text=True, cwd=ws, env={**os.environ, "CLAUDE_PROJECT_DIR": str(ws)})
    loaded = proc.stderr.rsplit("LOADED ", 1)[1].split()
    assert loaded[-2:] == ["CODE", "2"]
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    heavy = [m for m in loaded[:-2] if m.split(".")[0] in ("json", "re", "enum", "socket", "site", "rules",
                                                            "personality")
             or (m.startswith("tiers.") and m not in ("tiers.discover", "tiers.lazy"))
             or m in ("gate.handler", "gate.writepath", "gate.payload", "gate.server")]
    assert heavy == []


def test_the_server_judges_with_the_callers_project_variable_not_its_own(ws, tmp_path):
    """The server inherited its environment from whichever hook started it; a call is judged with the project
    variable its own hook process has (here: none, so the payload's cwd decides, as in-process)."""
    from gate.door import _reply

    payload = json.dumps(conflict_payload(ws)).encode()
    other = tmp_path / "elsewhere"
    other.mkdir()
    os.environ["CLAUDE_PROJECT_DIR"] = str(other)
    try:
        frame = _reply(("claude", None, str(other), {"CLAUDE_PROJECT_DIR": ""}, payload))
    finally:
        del os.environ["CLAUDE_PROJECT_DIR"]
    head, _, rest = frame.partition(b"\n")
    code, n_out, _ = (int(x) for x in head.split())
    assert code == 2 and b'"deny"' in rest[:n_out]


@pytest.mark.parametrize("bad", [b"", b"not-a-name\n", b"../../etc/passwd00000000000000000\n", b"x" * 5000],
                         ids=["empty", "short", "traversal", "no-newline"])
def test_the_door_ignores_what_is_not_a_call_name_and_keeps_serving(ws, door_server, bad):
    fd = os.open(ws / ".cuticle" / "hook.door", os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, bad)
    finally:
        os.close(fd)
    out = run_installed(conflict_payload(ws), ws)
    assert out.blocked
    assert door_server.poll() is None


def test_a_call_file_that_is_a_symlink_is_not_read(ws, door_server, tmp_path):
    from gate.door import _read_call

    secret = tmp_path / "secret"
    secret.write_bytes(b"cuticle-call 1 claude - 2f - - - - - -\n{}")
    link = ws / ".cuticle" / "calls" / ("a" * 32 + ".in")
    link.symlink_to(secret)
    assert _read_call(str(link)) is None


def test_a_door_nobody_reads_falls_back_in_process_and_starts_a_server(ws):
    (ws / ".cuticle" / "config.toml").write_text('[gate]\nserver = "auto"\n', encoding="utf-8")
    os.mkfifo(ws / ".cuticle" / "hook.door", 0o600)  # left behind by a killed server
    (ws / ".cuticle" / "calls").mkdir(mode=0o700)
    out = run_installed(conflict_payload(ws), ws)
    assert out.blocked
    info = ws / ".cuticle" / "serve.json"
    for _ in range(400):
        if info.exists() and info.stat().st_size:
            break
        time.sleep(0.05)
    pid = json.loads(info.read_text())["pid"]
    try:
        assert run_installed(conflict_payload(ws), ws).blocked
    finally:
        os.kill(pid, signal.SIGINT)


def _fake_server(ws: Path, answer):
    """A door read by ``answer(name)`` in a thread (a server that misbehaves in one chosen way)."""
    state = ws / ".cuticle"
    (state / "calls").mkdir(mode=0o700, exist_ok=True)
    door = state / "hook.door"
    os.mkfifo(door, 0o600)
    fd = os.open(door, os.O_RDWR)

    def loop() -> None:
        buf = b""
        try:
            while b"\n" not in buf:
                buf += os.read(fd, 100)
        except OSError:  # closed by the test: nobody rang
            return
        answer(state / "calls", buf.split(b"\n")[0].decode())

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return fd, t


@pytest.mark.parametrize("frame", [b"0 100 0\n{\"partial\":", b"0 x 0\n{}", b"garbage\n", b"0 -2 4\n{}{}",
                                   b"0 2 0\n{}trailing"],
                         ids=["cut-answer", "bad-length", "bad-header", "negative-length", "too-long"])
def test_a_cut_or_malformed_answer_is_never_taken_and_the_gate_answers_in_process(ws, monkeypatch, frame):
    from gate import client

    fd, t = _fake_server(ws, _answering(frame))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    try:
        assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=1.0) is None
    finally:
        os.close(fd)
    assert list((ws / ".cuticle" / "calls").iterdir()) == []


def test_a_server_that_never_answers_costs_the_timeout_not_the_check(ws, monkeypatch):
    from gate import client

    fd, t = _fake_server(ws, lambda calls, name: None)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    try:
        t0 = time.monotonic()
        assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=0.3) is None
        assert time.monotonic() - t0 < 2
    finally:
        os.close(fd)


def test_a_stale_answer_restarts_the_server(ws, monkeypatch):
    from gate import client

    answer = _answering(client.STALE)
    started = []
    monkeypatch.setattr(client, "_maybe_autostart", lambda state, stale=False: started.append(stale))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    fd, t = _fake_server(ws, answer)
    try:
        assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=2.0) is None
    finally:
        os.close(fd)
    assert started == [True]


def test_a_regular_file_in_place_of_the_door_is_not_written(ws, monkeypatch):
    from gate import client

    door = ws / ".cuticle" / "hook.door"
    door.write_bytes(b"")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=0.5) is None
    assert door.read_bytes() == b""


def _answering(frame: bytes):
    def answer(calls: Path, name: str) -> None:
        try:
            out = os.open(calls / (name + ".out"), os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # the client gave up already (a loaded machine)
            return
        os.write(out, frame)
        os.close(out)

    return answer


def test_a_route_from_the_payload_alone_still_reaches_the_server(ws, monkeypatch, tmp_path):
    """Neither a project variable nor the hook's directory names the workspace: the payload's cwd does."""
    from gate import client

    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    fd, t = _fake_server(ws, _answering(b"0 2 0\n{}"))
    try:
        assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=2.0) == ("{}", "", 0)
    finally:
        os.close(fd)


def test_a_decoy_workspace_in_the_payloads_cwd_is_not_rung_when_the_host_names_the_project(ws, monkeypatch, tmp_path):
    """An agent can make an installed-looking `.cuticle/` with a door of its own where it stands; the host's
    project variable routes the call to the project's server (none here: in-process), never to the decoy."""
    from gate import client
    from gate_helpers import install

    decoy = tmp_path / "decoy"
    decoy.mkdir()
    install(decoy)
    (decoy / "MEMORY.md").write_text("# memory\n")
    fd, t = _fake_server(decoy, _answering(b"0 2 0\n{}"))
    payload = write_payload("claude", decoy, "MEMORY.md", "# memory\n" + CONFLICT + "\n")[0]
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    monkeypatch.chdir(ws)
    try:
        assert client.forward("claude", None, json.dumps(payload).encode(), timeout=0.5) is None
    finally:
        os.close(fd)


def test_simultaneous_calls_each_get_their_own_answer(ws, door_server):
    """Calls from many hook processes at once: every one is answered (by the server or in-process), none is
    lost or crossed with another's."""
    from concurrent.futures import ThreadPoolExecutor

    base = (ws / "MEMORY.md").read_text()
    payloads = [conflict_payload(ws) if i % 2 else
                write_payload("claude", ws, "MEMORY.md", base + f"- The build of service {i} takes 4 minutes.\n")[0]
                for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        outs = list(pool.map(lambda p: run_installed(p, ws), payloads))
    for i, out in enumerate(outs):
        if i % 2:
            assert out.blocked
        else:
            assert f"service {i} takes" in out.rewritten["content"]
    assert list((ws / ".cuticle" / "calls").iterdir()) == []


class _Srv:
    """What a Door needs of its server."""

    def __init__(self, changed: bool) -> None:
        self.changed, self.stopped, self.last_request = changed, threading.Event(), 0.0

    def code_changed(self) -> bool:
        return self.changed

    def shutdown(self) -> None:
        self.stopped.set()


def test_a_server_whose_code_changed_answers_stale_and_stops(ws, monkeypatch):
    from gate import client
    from gate.door import Door

    door = Door(ws / ".cuticle", _Srv(changed=True))
    started = []
    monkeypatch.setattr(client, "_maybe_autostart", lambda state, stale=False: started.append(stale))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    try:
        assert client.forward("claude", None, json.dumps(conflict_payload(ws)).encode(), timeout=5.0) is None
        assert door.srv.stopped.wait(5) and started == [True]
    finally:
        door.close()
    assert not (ws / ".cuticle" / "hook.door").exists()


def test_a_closing_server_leaves_a_newer_servers_door_alone(ws):
    from gate.door import Door

    old = Door(ws / ".cuticle", _Srv(changed=False))
    new = Door(ws / ".cuticle", _Srv(changed=False))  # made its own door at the same path
    old.close()
    assert (ws / ".cuticle" / "hook.door").exists()
    new.close()
    assert not (ws / ".cuticle" / "hook.door").exists()


def test_a_call_carries_the_hooks_directory_and_every_project_variable_exactly(ws, monkeypatch, tmp_path):
    """Undecodable bytes in a directory name (surrogate-escaped by Python) and every host's project variable reach
    the server as the hook process has them, so ``hook auto`` and a mixed-case host are judged as in-process."""
    from gate import client
    from gate.door import _read_call

    odd = tmp_path / os.fsdecode(b"dir-\xff-x")
    odd.mkdir()
    monkeypatch.chdir(odd)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(ws))
    monkeypatch.setenv("GEMINI_PROJECT_DIR", "/elsewhere")
    monkeypatch.delenv("CURSOR_PROJECT_DIR", raising=False)
    seen = []

    def answer(calls: Path, name: str) -> None:
        seen.append(_read_call(str(calls / (name + ".in"))))
        _answering(b"0 0 0\n")(calls, name)

    fd, t = _fake_server(ws, answer)
    try:
        assert client.forward("Claude", None, b'{"x": 1}', timeout=2.0) == ("", "", 0)
    finally:
        os.close(fd)
    host, event, cwd, env, data = seen[0]
    assert (host, event, cwd, data) == ("Claude", None, str(odd), b'{"x": 1}')
    assert env["CLAUDE_PROJECT_DIR"] == str(ws) and env["GEMINI_PROJECT_DIR"] == "/elsewhere"
    assert env["CURSOR_PROJECT_DIR"] == ""
