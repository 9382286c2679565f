"""The real Codex CLI (npm @openai/codex 0.171) reads the hooks `cuticle init codex` writes: its own `codex
app-server` answers `hooks/list`, and `cuticle doctor` reports the two trust steps Codex needs before it runs any."""

from __future__ import annotations

import json
import select
import subprocess
import time
from pathlib import Path

import pytest

from hostkit import cuticle, host_env, npm_host, user_workspace

from gate.hosts import get

CODEX = get("codex")


@pytest.fixture(scope="module")
def codex_bin() -> Path:
    found = sorted((npm_host("codex") / "node_modules" / "@openai").glob("codex-*/vendor/*/bin/codex"))
    assert found, "no native codex binary among @openai/codex's platform packages"
    return found[0]


def hooks_list(codex_bin: Path, env: dict, ws: Path) -> dict:
    """Codex's own view of the hooks for ``ws``: app-server JSON-RPC ``initialize`` then ``hooks/list``."""
    proc = subprocess.Popen([str(codex_bin), "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ws, env=env, text=True)

    def call(n: int, method: str, params: dict) -> dict:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": n, "method": method, "params": params}) + "\n")
        proc.stdin.flush()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if select.select([proc.stdout], [], [], 1)[0]:
                line = proc.stdout.readline()
                if not line:
                    break
                msg = json.loads(line)
                if msg.get("id") == n:
                    assert "error" not in msg, msg
                    return msg["result"]
        raise AssertionError(f"codex app-server gave no answer to {method}")

    try:
        call(1, "initialize", {"clientInfo": {"name": "cuticle-tests", "version": "0"}})
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "initialized"}) + "\n")
        (entry,) = call(2, "hooks/list", {"cwds": [str(ws)]})["data"]
        return entry
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.fixture
def installed(tmp_path):
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    ws = user_workspace(tmp_path)
    env = host_env(home)
    cuticle(env, "init", "codex", str(ws))
    return env, ws, home / ".codex" / "config.toml"


def doctor_checks(env: dict, ws: Path) -> dict[str, dict]:
    out = cuticle(env, "doctor", str(ws), "--json", check=False)
    return {c["check"]: c for c in json.loads(out.stdout)["checks"]}


def test_codex_runs_no_project_hook_before_the_project_is_trusted_and_doctor_says_so(codex_bin, installed):
    env, ws, _ = installed
    assert hooks_list(codex_bin, env, ws)["hooks"] == []
    assert doctor_checks(env, ws)["codex:trust"]["status"] == "warn"


def test_once_trusted_codex_parses_every_hook_init_wrote_without_warnings(codex_bin, installed):
    env, ws, config = installed
    config.write_text(f'[projects."{ws}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    entry = hooks_list(codex_bin, env, ws)
    assert entry["warnings"] == [] and entry["errors"] == [], entry
    seen = {(h["eventName"], h["matcher"]) for h in entry["hooks"]}
    want = {(s.event[0].lower() + s.event[1:], s.matcher) for s in CODEX.specs}
    assert seen == want
    assert all(h["source"] == "project" and h["enabled"] for h in entry["hooks"])
    timeouts = {h["eventName"]: h["timeoutSec"] for h in entry["hooks"]}
    assert timeouts["preToolUse"] == 10 and timeouts["sessionEnd"] == 3  # Codex: 1 s by default, at most 3 s
    # per-hook trust: parsed, but none runs until reviewed, and doctor says so
    assert {h["trustStatus"] for h in entry["hooks"]} == {"untrusted"}
    checks = doctor_checks(env, ws)
    assert checks["codex:trust"]["status"] == "ok" and checks["codex:hook-trust"]["status"] == "warn", checks


def test_doctor_accepts_hooks_reviewed_in_codex(codex_bin, installed):
    env, ws, config = installed
    config.write_text(f'[projects."{ws}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    hooks = hooks_list(codex_bin, env, ws)["hooks"]
    # what /hooks records when the user trusts them
    config.write_text(config.read_text(encoding="utf-8") + "".join(
        f'\n[hooks.state."{h["key"]}"]\ntrusted_hash = "{h["currentHash"]}"\n' for h in hooks), encoding="utf-8")
    assert {h["trustStatus"] for h in hooks_list(codex_bin, env, ws)["hooks"]} == {"trusted"}
    assert sorted(h["key"] for h in hooks) == sorted(CODEX.hook_keys(ws / ".codex" / "hooks.json",
                                                                     json.loads((ws / ".codex/hooks.json").read_text())))
    checks = doctor_checks(env, ws)
    assert checks["codex:hook-trust"]["status"] == "ok", checks
    assert all(c["status"] != "fail" for c in checks.values()), checks
