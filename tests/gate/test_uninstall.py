"""`cuticle uninstall <host>`: exactly what init added leaves; other tools' hooks, later edits and memory stay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.cli import main
from gate.install import host_config_path
from gate.uninstall import uninstall

PROJECT_HOSTS = ("claude", "codex", "gemini", "copilot", "cursor")

#: a pre-existing configuration per host, written the way a person would (odd indentation, other tools' hooks)
OTHERS = {
    "claude": '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {"PreToolUse": [{"matcher": "Bash", '
              '"hooks": [{"type": "command", "command": "other-tool check"}]}]}\n}\n',
    "codex": '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-it"}]}]}}',
    "gemini": '{\n "theme": "dark",\n "hooks": {"BeforeTool": [{"matcher": "x", "hooks": [{"name": "o", '
              '"type": "command", "command": "other"}]}]}\n}\n',
    "copilot": '{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "audit.sh"}]}}\n',
    "cursor": '{"version": 1, "hooks": {"afterFileEdit": [{"command": "fmt.sh"}]}}\n',
}


def _init(host: str, root: Path, config: Path | None = None) -> None:
    argv = ["init", host, str(root), "--command", "cuticle", "--json"]
    if config is not None:
        argv += ["--host-config", str(config)]
    assert main(argv) == 0


def _memory_snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*.md")}


@pytest.mark.parametrize("host", PROJECT_HOSTS)
def test_init_then_uninstall_restores_an_existing_config_byte_for_byte(capsys, workspace, host):
    cfg = host_config_path(host, workspace, None)
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(OTHERS[host], encoding="utf-8")
    _init(host, workspace)
    assert cfg.read_text(encoding="utf-8") != OTHERS[host]
    rep = uninstall(host, workspace)
    assert rep.outcome == "restored"
    assert cfg.read_text(encoding="utf-8") == OTHERS[host]
    assert not list(cfg.parent.glob(f"{cfg.name}.cuticle-backup-*"))  # the backup it came from is now the file


@pytest.mark.parametrize("host", PROJECT_HOSTS)
def test_a_config_init_created_is_removed_with_the_directories_it_needed(capsys, workspace, host):
    cfg = host_config_path(host, workspace, None)
    _init(host, workspace)
    assert cfg.exists()
    assert uninstall(host, workspace).outcome == "removed"
    assert not cfg.exists()
    top = workspace / cfg.relative_to(workspace).parts[0]
    assert not top.exists()


@pytest.mark.parametrize("host", PROJECT_HOSTS)
def test_hooks_added_after_init_are_kept_and_only_cuticles_leave(capsys, workspace, host):
    cfg = host_config_path(host, workspace, None)
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(OTHERS[host], encoding="utf-8")
    _init(host, workspace)
    data = json.loads(cfg.read_text(encoding="utf-8"))
    data["addedLater"] = {"keep": True}
    event = next(iter(data["hooks"]))
    later = {"command": "later-tool run", "bash": "later-tool run", "hooks": [{"type": "command", "command": "later-tool run"}]}
    data["hooks"][event].append(later)
    cfg.write_text(json.dumps(data, indent=2), encoding="utf-8")
    rep = uninstall(host, workspace)
    after = json.loads(cfg.read_text(encoding="utf-8"))
    assert rep.outcome == "edited"
    assert after["addedLater"] == {"keep": True} and later in after["hooks"][event]
    assert " hook " + host not in cfg.read_text(encoding="utf-8")
    original = json.loads(OTHERS[host])
    for ev, entries in original["hooks"].items():
        for e in entries:
            assert e in after["hooks"][ev]
    # the file as it was before uninstall is kept as a backup
    assert any(" hook " + host in b.read_text() for b in cfg.parent.glob(f"{cfg.name}.cuticle-backup-*"))


def test_uninstall_leaves_memory_and_workspace_state_untouched(capsys, workspace):
    _init("claude", workspace)
    memory = _memory_snapshot(workspace)
    state = sorted(p.name for p in (workspace / ".cuticle").iterdir())
    assert "claude" in json.loads((workspace / ".cuticle" / "installed.json").read_text())
    key = (workspace / ".cuticle" / "key").read_bytes()
    uninstall("claude", workspace)
    assert _memory_snapshot(workspace) == memory
    assert (workspace / ".cuticle" / "key").read_bytes() == key
    assert {p.name for p in (workspace / ".cuticle").iterdir()} >= set(state) - {"installed.json"}
    assert (workspace / "chitin.yaml").exists()
    # init's record of what it installed no longer names the host
    assert "claude" not in json.loads((workspace / ".cuticle" / "installed.json").read_text())


def test_reinstalling_then_uninstalling_goes_back_to_the_state_before_the_first_install(capsys, workspace):
    cfg = host_config_path("claude", workspace, None)
    cfg.parent.mkdir(parents=True)
    cfg.write_text(OTHERS["claude"], encoding="utf-8")
    _init("claude", workspace)
    _init("claude", workspace)  # unchanged: no second backup
    assert main(["init", "claude", str(workspace), "--command", "/opt/other/cuticle", "--json"]) == 0  # changed
    assert uninstall("claude", workspace).outcome in ("restored", "edited")
    after = json.loads(cfg.read_text(encoding="utf-8"))
    assert after == json.loads(OTHERS["claude"])


def test_openclaw_uninstall_restores_the_home_config(capsys, tmp_path, workspace):
    cfg = tmp_path / "openclaw.json"
    text = '{\n  "agents": {"defaults": {"workspace": "/somewhere"}},\n  "plugins": {"load": {"paths": ["/p/x"]}}\n}\n'
    cfg.write_text(text, encoding="utf-8")
    _init("openclaw", workspace, cfg)
    assert "cuticle" in json.loads(cfg.read_text())["plugins"]["entries"]
    rep = uninstall("openclaw", workspace, host_config=str(cfg))
    assert rep.outcome == "restored" and cfg.read_text(encoding="utf-8") == text


def test_openclaw_installed_for_another_workspace_is_refused(capsys, tmp_path, workspace):
    cfg = tmp_path / "openclaw.json"
    _init("openclaw", workspace, cfg)
    other = tmp_path / "other"
    other.mkdir()
    before = cfg.read_bytes()
    assert main(["uninstall", "openclaw", str(other), "--host-config", str(cfg)]) == 2
    assert "not " + str(other.resolve()) in capsys.readouterr().err
    assert cfg.read_bytes() == before


def test_dry_run_changes_nothing(capsys, workspace):
    _init("claude", workspace)
    cfg = host_config_path("claude", workspace, None)
    before = cfg.read_bytes()
    assert main(["uninstall", "claude", str(workspace), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would remove" in out and cfg.read_bytes() == before


def test_nothing_installed_is_not_an_error(capsys, workspace):
    assert main(["uninstall", "cursor", str(workspace), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "not-installed"


def test_a_broken_config_is_a_usage_error_and_is_left_alone(capsys, workspace):
    cfg = host_config_path("claude", workspace, None)
    cfg.parent.mkdir(parents=True)
    cfg.write_text('{"hooks": ', encoding="utf-8")
    assert main(["uninstall", "claude", str(workspace)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert cfg.read_text(encoding="utf-8") == '{"hooks": '
