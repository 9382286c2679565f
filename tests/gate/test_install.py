"""`cuticle init` and `cuticle doctor`: merge into host configs without clobbering, back up, stay idempotent,
and prove with a canary that the installed command blocks."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gate.hosts import get

CONFIG_FILES = {h: get(h).config_file for h in ("claude", "codex", "gemini", "copilot", "cursor")}
SPECS = {h: get(h).specs for h in CONFIG_FILES}

CMD = shlex.join([sys.executable, "-m", "gate"])
CLI_HOSTS = ("claude", "codex", "gemini", "copilot", "cursor")


def cuticle(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gate", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("host", CLI_HOSTS)
def test_init_creates_state_and_installs_every_event_and_matcher(workspace, host):
    out = cuticle("init", host, str(workspace), "--command", CMD, "--json")
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert (workspace / ".cuticle" / "config.toml").is_file()
    assert (workspace / ".cuticle" / "key").is_file()
    assert oct((workspace / ".cuticle" / "key").stat().st_mode & 0o777) == "0o600"
    cfg = json.loads((workspace / CONFIG_FILES[host]).read_text())
    assert rep["config_file"].endswith(CONFIG_FILES[host])
    text = json.dumps(cfg)
    for spec in SPECS[host]:
        assert spec.event in cfg["hooks"]
        assert f"hook {host} {spec.event}" in text
        if spec.matcher:
            assert spec.matcher in text


def test_init_keeps_the_stamp_key_and_caches_out_of_git(workspace):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", str(workspace)], check=True)
    assert cuticle("init", "claude", str(workspace), "--command", CMD).returncode == 0
    cuticle("lint", "--workspace", str(workspace))  # writes .cuticle/cache/ where there is memory to lint
    subprocess.run([*git, "add", "-A"], cwd=workspace, check=True)
    staged = subprocess.run([*git, "diff", "--cached", "--name-only"], cwd=workspace, capture_output=True,
                            text=True, check=True).stdout.split()
    state = sorted(p for p in staged if p.startswith(".cuticle/"))
    assert state == [".cuticle/.gitignore", ".cuticle/config.toml"]
    assert (workspace / ".cuticle" / "key").is_file()
    again = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    assert not any(".gitignore" in a for a in again["actions"])  # written once, then left to the user


def test_init_merges_without_clobbering_other_hooks_backs_up_and_is_idempotent(workspace):
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    other = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-audit-hook"}]}
    original = {"permissions": {"allow": ["Bash(ls:*)"]}, "hooks": {"PreToolUse": [other]}}
    settings.write_text(json.dumps(original), encoding="utf-8")
    first = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    cfg = json.loads(settings.read_text())
    assert cfg["permissions"] == original["permissions"]
    assert cfg["hooks"]["PreToolUse"][0] == other
    assert len(cfg["hooks"]["PreToolUse"]) == 2
    assert first["backup"] and json.loads(Path(first["backup"]).read_text()) == original
    again = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    assert again["backup"] is None
    assert json.loads(settings.read_text()) == cfg
    assert any("unchanged" in a for a in again["actions"])


def test_init_refuses_to_touch_a_config_that_is_not_json(workspace):
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{oops", encoding="utf-8")
    out = cuticle("init", "claude", str(workspace), "--command", CMD)
    assert out.returncode == 2 and "not valid JSON" in out.stderr
    assert settings.read_text() == "{oops"


def test_init_openclaw_adds_the_plugin_path_and_entry(workspace, tmp_path):
    conf = tmp_path / "openclaw.json"
    conf.write_text(json.dumps({"plugins": {"entries": {"other": {"enabled": True}}}}), encoding="utf-8")
    out = cuticle("init", "openclaw", str(workspace), "--command", CMD, "--host-config", str(conf), "--json")
    assert out.returncode == 0, out.stderr
    cfg = json.loads(conf.read_text())
    assert cfg["plugins"]["entries"]["other"] == {"enabled": True}
    entry = cfg["plugins"]["entries"]["cuticle"]
    assert entry["enabled"] and entry["hooks"]["allowConversationAccess"] and entry["config"]["command"] == shlex.split(CMD)
    assert any(p.endswith("gate/openclaw") for p in cfg["plugins"]["load"]["paths"])


@pytest.mark.parametrize("host", CLI_HOSTS)
def test_doctor_passes_after_init_and_its_canary_is_blocked(workspace, host):
    cuticle("init", host, str(workspace), "--command", CMD)
    before = sorted(p.name for p in (workspace / ".cuticle").iterdir())
    out = cuticle("doctor", str(workspace), "--host", host, "--json")
    rep = json.loads(out.stdout)
    failing = [c for c in rep["checks"] if c["status"] == "fail"]
    assert out.returncode == 0 and not failing, failing
    names = {c["check"] for c in rep["checks"]}
    assert {f"{host}:canary:guarded", f"{host}:canary:conflict"} <= names
    assert sorted(p.name for p in (workspace / ".cuticle").iterdir()) == before  # nothing left behind


def test_doctor_openclaw_runs_the_configured_command(workspace, tmp_path):
    conf = tmp_path / "openclaw.json"
    cuticle("init", "openclaw", str(workspace), "--command", CMD, "--host-config", str(conf))
    out = cuticle("doctor", str(workspace), "--host", "openclaw", "--host-config", str(conf), "--json")
    rep = json.loads(out.stdout)
    assert out.returncode == 0, rep
    assert any(c["check"] == "openclaw:canary:conflict" and c["status"] == "ok" for c in rep["checks"])


def test_doctor_reports_a_missing_matcher_and_a_missing_event(workspace):
    cuticle("init", "claude", str(workspace), "--command", CMD)
    settings = workspace / ".claude" / "settings.json"
    cfg = json.loads(settings.read_text())
    cfg["hooks"]["PreToolUse"][0]["matcher"] = "Write"
    del cfg["hooks"]["SessionEnd"]
    settings.write_text(json.dumps(cfg), encoding="utf-8")
    out = cuticle("doctor", str(workspace), "--host", "claude", "--no-canary")
    assert out.returncode == 1
    assert "matcher misses Bash, Edit, MultiEdit" in out.stdout
    assert "no cuticle hook for SessionEnd" in out.stdout


def test_doctor_detects_a_command_that_does_not_resolve(workspace):
    cuticle("init", "codex", str(workspace), "--command", "/nonexistent/cuticle")
    out = cuticle("doctor", str(workspace), "--host", "codex", "--json")
    rep = json.loads(out.stdout)
    assert out.returncode == 1
    assert any(c["check"] == "codex:command" and c["status"] == "fail" for c in rep["checks"])


def test_doctor_on_an_uninitialised_workspace_says_what_to_run(empty_workspace):
    out = cuticle("doctor", str(empty_workspace), "--no-canary")
    assert out.returncode == 1
    assert "cuticle init" in out.stdout


def test_init_writes_the_starter_policy_once_and_it_validates(workspace):
    pytest.importorskip("rules.governance.policy", reason="governance (issue 6) not in this build")
    rep = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    policy = workspace / "chitin.yaml"
    assert policy.is_file() and "wrote starter policy chitin.yaml" in rep["actions"]
    assert cuticle("validate", str(policy)).returncode == 0
    policy.write_text(policy.read_text() + "\n# edited by the user\n", encoding="utf-8")
    again = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    assert any("kept" in a for a in again["actions"])
    assert policy.read_text().endswith("# edited by the user\n")


def test_init_config_documents_every_gate_key_with_its_default(workspace):
    cuticle("init", "codex", str(workspace), "--command", CMD)
    import tomllib

    cfg = tomllib.loads((workspace / ".cuticle" / "config.toml").read_text())
    assert cfg["gate"] == {"user_guard": ["USER.md"], "allow_memory_delete": False, "fail_closed_policy": False,
                           "claude_auto_allow": "auto", "server": "auto"}
    assert cfg["tiers"]["hypothesis_ttl"] == 3
    # the one key whose starter value is not the built-in default: a workspace without it answers in-process
    from gate.client import autostart_enabled

    os.environ.pop("CUTICLE_SERVER", None)
    assert autostart_enabled(str(workspace / ".cuticle"))
    (workspace / ".cuticle" / "config.toml").write_text("[gate]\n", encoding="utf-8")
    assert not autostart_enabled(str(workspace / ".cuticle"))


def test_doctor_reports_the_hook_server_setting(workspace, monkeypatch):
    cuticle("init", "claude", str(workspace), "--command", CMD)
    checks = json.loads(cuticle("doctor", str(workspace), "--no-canary", "--json").stdout)["checks"]
    assert [c["detail"] for c in checks if c["check"] == "server"] == ["server off; none running"]  # env says off
    monkeypatch.delenv("CUTICLE_SERVER")
    checks = json.loads(cuticle("doctor", str(workspace), "--no-canary", "--json").stdout)["checks"]
    (detail,) = [c["detail"] for c in checks if c["check"] == "server"]
    assert detail.startswith("server auto") and detail.endswith("none running")


# -- the command a host runs, and doctor from the host's environment -------------------------------------


def _host_path_env(home: Path) -> dict:
    """A host's environment: no virtual environment on PATH."""
    return {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "CUTICLE_SERVER": "off"}


def test_init_writes_an_absolute_command_that_runs_without_the_virtual_environment(workspace, tmp_path):
    rep = json.loads(cuticle("init", "claude", str(workspace), "--json").stdout)
    argv = shlex.split(rep["command"])
    assert os.path.isabs(argv[0]) and os.access(argv[0], os.X_OK), rep["command"]
    cfg = json.loads((workspace / ".claude" / "settings.json").read_text())
    assert cfg["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == rep["command"] + " hook claude PreToolUse"
    proc = subprocess.run([*argv, "--version"], env=_host_path_env(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_doctor_fails_a_bare_command_the_hosts_path_does_not_find(workspace, tmp_path):
    cuticle("init", "codex", str(workspace), "--command", "cuticle-not-on-any-path")
    env = {**_host_path_env(tmp_path), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "gate", "doctor", str(workspace), "--json"], env=env,
                          capture_output=True, text=True, timeout=300)
    rep = json.loads(proc.stdout)
    (check,) = [c for c in rep["checks"] if c["check"] == "codex:command"]
    assert proc.returncode == 1 and check["status"] == "fail" and "host's environment" in check["detail"]


def test_doctor_checks_the_command_without_the_virtual_environment_on_path(workspace, tmp_path, monkeypatch):
    # `cuticle` resolves on the venv's PATH, but the host does not have that PATH: doctor must say so
    venv_bin = Path(sys.executable).parent
    if not (venv_bin / "cuticle").is_file():
        pytest.skip("cuticle is not installed as a console script in this environment")
    cuticle("init", "claude", str(workspace), "--command", "cuticle")
    env = {**_host_path_env(tmp_path), "PATH": f"{venv_bin}:/usr/bin:/bin", "VIRTUAL_ENV": str(venv_bin.parent)}
    proc = subprocess.run([sys.executable, "-m", "gate", "doctor", str(workspace), "--no-canary", "--json"], env=env,
                          capture_output=True, text=True, timeout=300)
    checks = {c["check"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["claude:command"]["status"] == "fail", checks


def test_doctor_dir_finds_the_openclaw_config_init_wrote(workspace, tmp_path):
    # `init` prints `cuticle doctor DIR`: it must find the OpenClaw config, which lives outside the workspace
    conf = tmp_path / "elsewhere" / "openclaw.json"
    assert cuticle("init", "openclaw", str(workspace), "--command", CMD, "--host-config", str(conf)).returncode == 0
    out = cuticle("doctor", str(workspace), "--json")
    rep = json.loads(out.stdout)
    assert out.returncode == 0, rep
    assert {"openclaw:plugin", "openclaw:canary:conflict"} <= {c["check"] for c in rep["checks"] if c["status"] == "ok"}


def test_doctor_dir_finds_an_openclaw_config_in_home_that_names_the_workspace(workspace, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    env.pop("OPENCLAW_CONFIG_PATH", None)
    run = lambda *a: subprocess.run([sys.executable, "-m", "gate", *a], env=env, capture_output=True, text=True,  # noqa: E731
                                    timeout=300)
    assert run("init", "openclaw", str(workspace), "--command", CMD).returncode == 0
    (workspace / ".cuticle" / "installed.json").unlink()  # found from the OpenClaw config alone
    out = run("doctor", str(workspace), "--no-canary", "--json")
    assert out.returncode == 0 and any(c["check"] == "openclaw:plugin" for c in json.loads(out.stdout)["checks"])
    other = tmp_path / "other"
    other.mkdir()
    assert run("init", "claude", str(other), "--command", CMD).returncode == 0
    checks = json.loads(run("doctor", str(other), "--no-canary", "--json").stdout)["checks"]
    assert not any(c["check"].startswith("openclaw") for c in checks)  # another workspace's OpenClaw entry


# -- host settings besides the hooks ---------------------------------------------------------------------


def test_gemini_init_no_longer_writes_the_stale_enable_hooks_key_and_doctor_checks_hooks_config(workspace):
    cuticle("init", "gemini", str(workspace), "--command", CMD)
    settings = workspace / ".gemini" / "settings.json"
    cfg = json.loads(settings.read_text())
    assert "tools" not in cfg
    checks = json.loads(cuticle("doctor", str(workspace), "--no-canary", "--json").stdout)["checks"]
    assert [c["status"] for c in checks if c["check"] == "gemini:hooks-enabled"] == ["ok"]
    for off in ({"enabled": False}, {"disabled": ["cuticle-BeforeTool"]}):
        settings.write_text(json.dumps({**cfg, "hooksConfig": off}))
        out = cuticle("doctor", str(workspace), "--no-canary", "--json")
        checks = json.loads(out.stdout)["checks"]
        assert out.returncode == 1 and [c["status"] for c in checks if c["check"] == "gemini:hooks-enabled"] == ["fail"]


def test_codex_init_says_what_codex_still_needs_and_doctor_warns_until_trusted(workspace, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "CODEX_HOME": str(tmp_path / "codex")}
    proc = subprocess.run([sys.executable, "-m", "gate", "init", "codex", str(workspace), "--command", CMD], env=env,
                          capture_output=True, text=True, timeout=300)
    assert "trust the project in Codex" in proc.stdout and "/hooks" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "gate", "doctor", str(workspace), "--no-canary", "--json"], env=env,
                          capture_output=True, text=True, timeout=300)
    checks = {c["check"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["codex:trust"]["status"] == "warn" and proc.returncode == 0
    (tmp_path / "codex").mkdir()
    (tmp_path / "codex" / "config.toml").write_text(f'[projects."{workspace}"]\ntrust_level = "trusted"\n')
    proc = subprocess.run([sys.executable, "-m", "gate", "doctor", str(workspace), "--no-canary", "--json"], env=env,
                          capture_output=True, text=True, timeout=300)
    checks = {c["check"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["codex:trust"]["status"] == "ok" and checks["codex:hook-trust"]["status"] == "warn"


def test_claude_init_makes_claudes_own_memory_memory_files(workspace):
    cuticle("init", "claude", str(workspace), "--command", CMD)
    from tiers.workspace import Workspace

    ws = Workspace(workspace)
    for rel in ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/memory/MEMORY.md",
                ".claude/memory/topics/debugging.md", "MEMORY.md", "memory/2026-11-29.md"):
        assert ws.is_memory_file(rel), rel
    assert not ws.is_memory_file(".claude/settings.json")
    local = json.loads((workspace / ".claude" / "settings.local.json").read_text())
    assert local["autoMemoryDirectory"] == str(workspace / ".claude" / "memory")
    checks = json.loads(cuticle("doctor", str(workspace), "--no-canary", "--json").stdout)["checks"]
    assert [c["status"] for c in checks if c["check"] == "claude:auto-memory"] == ["ok"]


def test_claude_init_keeps_a_users_own_memory_globs_and_auto_memory_directory(workspace):
    (workspace / ".cuticle").mkdir()
    (workspace / ".cuticle" / "config.toml").write_text('[memory]\nglobs = ["notes/*.md"]\n')
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.local.json").write_text('{"autoMemoryDirectory": "~/my-memory"}')
    rep = json.loads(cuticle("init", "claude", str(workspace), "--command", CMD, "--json").stdout)
    assert (workspace / ".cuticle" / "config.toml").read_text() == '[memory]\nglobs = ["notes/*.md"]\n'
    assert any("kept your [memory] globs" in a for a in rep["actions"])
    assert json.loads((workspace / ".claude" / "settings.local.json").read_text()) == {"autoMemoryDirectory": "~/my-memory"}
    checks = json.loads(cuticle("doctor", str(workspace), "--no-canary", "--json").stdout)["checks"]
    assert [c["status"] for c in checks if c["check"] == "claude:auto-memory"] == ["warn"]


def test_uninstall_claude_takes_back_the_auto_memory_directory_and_leaves_its_notes(workspace):
    cuticle("init", "claude", str(workspace), "--command", CMD)
    notes = workspace / ".claude" / "memory" / "MEMORY.md"
    notes.parent.mkdir(parents=True)
    notes.write_text("- a note\n", encoding="utf-8")
    out = cuticle("uninstall", "claude", str(workspace), "--json")
    assert out.returncode == 0, out.stderr
    assert not (workspace / ".claude" / "settings.local.json").exists()
    assert not (workspace / ".claude" / "settings.json").exists()
    assert notes.read_text(encoding="utf-8") == "- a note\n"
