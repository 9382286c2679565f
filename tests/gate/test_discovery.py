"""Which workspace protects a call (docs/gate.md): decoys, strays and a cwd elsewhere never switch the gate off."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gate_helpers import install
from gate_helpers import CONFLICT, run_hook
from tiers.workspace import find_installed, find_workspace, is_installed, is_self_path

UNVERIFIED = "- The user wants to be called Alexander.\n"


def _write(path: Path, content: str, cwd: Path | str) -> dict:
    return {"session_id": "s1", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": str(path), "content": content}}


def _user_md(ws: Path) -> str:
    return (ws / "USER.md").read_text(encoding="utf-8") + UNVERIFIED


def _memory(ws: Path) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8") + CONFLICT + "\n"


def _hook(payload: dict, *, cwd: Path | str, env: dict | None = None):
    e = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    return run_hook("claude", payload, "PreToolUse", cwd=Path(cwd), env={**e, **(env or {})})


@pytest.mark.parametrize("decoy", ["bare", "with-key-and-config"])
def test_a_cuticle_dir_made_inside_a_protected_workspace_never_takes_over(ws, decoy):
    sub = ws / "sub"
    (sub / ".cuticle").mkdir(parents=True)
    if decoy != "bare":
        install(sub)
        (sub / ".cuticle" / "config.toml").write_text("[gate]\nuser_guard = false\n", encoding="utf-8")
    assert find_installed(sub) == ws.resolve()
    out = _hook(_write(ws / "USER.md", _user_md(ws), sub), cwd=sub)
    assert out.blocked and "user-guard" in out.reason
    out = _hook(_write(ws / "MEMORY.md", _memory(ws), sub), cwd=sub)
    assert out.blocked


@pytest.mark.parametrize("target", [".cuticle/config.toml", ".cuticle/cache/config.json", ".claude/settings.json",
                                    "sub/.cuticle/key", "sub/.CUTICLE/config.toml", ".cuticle",
                                    ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json",
                                    ".github/hooks/cuticle.json"])
def test_writing_cuticle_state_or_hook_settings_from_inside_the_workspace_is_refused(ws, target):
    for cwd in (ws, ws / "memory"):
        out = _hook(_write(ws / target, "[gate]\nuser_guard = false\n", cwd), cwd=cwd)
        assert out.blocked and json.loads(out.reason)["reason"] == "cuticle-state", target
    assert not (ws / "sub").exists()


def test_an_edit_of_the_config_through_a_symlink_is_refused(ws):
    (ws / "notes").symlink_to(ws / ".cuticle")
    payload = {"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Edit",
               "tool_input": {"file_path": str(ws / "notes" / "config.toml"), "old_string": "", "new_string": "x"}}
    out = _hook(payload, cwd=ws)
    assert out.blocked and json.loads(out.reason)["reason"] == "cuticle-state"


def test_a_cwd_outside_the_project_with_an_absolute_path_is_judged_by_the_paths_workspace(ws, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _hook(_write(ws / "USER.md", _user_md(ws), elsewhere), cwd=elsewhere)
    assert out.blocked and "user-guard" in out.reason
    out = _hook(_write(ws / "MEMORY.md", _memory(ws), elsewhere), cwd=elsewhere,
                env={"CLAUDE_PROJECT_DIR": str(ws)})
    assert out.blocked


def test_the_hosts_project_root_outranks_the_cwd(ws, tmp_path):
    elsewhere = tmp_path / "tmpdir"
    elsewhere.mkdir()
    payload = _write(Path("USER.md"), _user_md(ws), elsewhere)  # relative path, cwd elsewhere
    payload["tool_input"]["file_path"] = str(ws / "USER.md")
    out = _hook(payload, cwd=elsewhere, env={"CLAUDE_PROJECT_DIR": str(ws)})
    assert out.blocked


def test_a_stray_cuticle_dir_in_a_parent_does_not_capture_commands_below_it(tmp_path, workspace):
    parent = tmp_path
    (parent / ".cuticle").mkdir()
    (parent / ".cuticle" / "key").write_text("ab" * 32, encoding="ascii")  # a key, but no config: not init's
    assert not is_installed(parent)
    before = sorted(p.name for p in (parent / ".cuticle").iterdir())
    out = _hook(_write(workspace / "notes.md", "- x\n", workspace), cwd=workspace)
    assert out.code == 0 and out.stdout == "" and not out.blocked
    assert sorted(p.name for p in (parent / ".cuticle").iterdir()) == before  # nothing logged into it
    assert not (workspace / ".cuticle").exists()


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd"])
def test_hook_calls_create_no_state_where_nothing_is_installed(workspace, event):
    payload = {"session_id": "s1", "cwd": str(workspace), "hook_event_name": event, "prompt": "hi",
               "tool_name": "Write", "tool_input": {"file_path": str(workspace / "MEMORY.md"), "content": "- x\n"}}
    out = run_hook("claude", payload, event, cwd=workspace)
    assert out.code == 0
    assert not (workspace / ".cuticle").exists()
    assert not list(workspace.rglob("*.lock"))


def test_the_outermost_installed_workspace_protects_a_nested_one_unless_the_host_names_it(ws):
    inner = ws / "memory" / "inner"
    inner.mkdir(parents=True)
    install(inner)
    assert find_installed(inner) == ws.resolve()
    assert find_installed(inner, str(inner)) == inner.resolve()
    assert find_installed(inner, str(ws)) == ws.resolve()
    assert find_workspace(inner) == ws.resolve()


def test_self_paths_are_matched_case_insensitively_at_any_depth():
    assert is_self_path(".cuticle/config.toml") and is_self_path("a/b/.Cuticle/key") and is_self_path(".cuticle")
    assert is_self_path(".claude/settings.local.json")
    assert not is_self_path("MEMORY.md") and not is_self_path("docs/cuticle.md") and not is_self_path(".claude/x.md")


def test_no_lock_or_temp_file_is_left_beside_the_users_files(ws):
    payload = _write(ws / "MEMORY.md", (ws / "MEMORY.md").read_text() + "- Tests ran green.\n", ws)
    run_hook("claude", {**payload, "hook_event_name": "PostToolUse"}, "PostToolUse")
    (ws / "MEMORY.md").write_text((ws / "MEMORY.md").read_text() + "- Tests ran green.\n", encoding="utf-8")
    run_hook("claude", {**payload, "hook_event_name": "PostToolUse"}, "PostToolUse")
    run_hook("claude", {"session_id": "s1", "cwd": str(ws), "hook_event_name": "SessionEnd"}, "SessionEnd")
    beside = [p for p in ws.rglob("*") if ".cuticle" not in p.parts and (p.suffix in (".lock", ".tmp"))]
    assert beside == []


def test_the_forwarding_clients_project_variables_are_the_hosts_own():
    """The client keeps its own small table (it must not import the host modules); it must say what they say."""
    from gate.client import PROJECT_ENV
    from gate.hosts import HOSTS, get

    assert PROJECT_ENV == {h: get(h).project_env for h in HOSTS}
