"""A memory file cannot be deleted by a host's file tool, whatever the tool is called: apply_patch's
``*** Delete File`` is refused (``memory-delete``), and so are delete tools that take a path (Cursor's
``Delete`` / ``delete_file``; their names are unverified, docs/hosts.md). Deleting an ordinary file is not the
gate's business. Through the real gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import send


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    install(root)
    (root / "USER.md").write_text("# USER.md\n\n- User said: call me Alex.\n", encoding="utf-8")
    (root / "notes.txt").write_text("x\n", encoding="utf-8")
    return root


def _cursor(ws: Path, tool: str, tool_input: dict) -> dict:
    return {"hook_event_name": "preToolUse", "conversation_id": "s1", "generation_id": "g1",
            "workspace_roots": [str(ws)], "tool_name": tool, "tool_input": tool_input}


def test_a_patch_deleting_user_md_is_refused(ws: Path) -> None:
    patch = "*** Begin Patch\n*** Delete File: USER.md\n*** End Patch"
    ans = send("codex", {"session_id": "s1", "cwd": str(ws), "hook_event_name": "PreToolUse",
                         "tool_name": "apply_patch", "tool_input": {"command": patch}})
    assert ans.blocked


@pytest.mark.xfail(strict=True, reason="finding R12-26")
@pytest.mark.parametrize(("tool", "key"), [("Delete", "file_path"), ("delete_file", "target_file")])
def test_a_delete_tool_on_user_md_is_refused(ws: Path, tool: str, key: str) -> None:
    assert send("cursor", _cursor(ws, tool, {key: str(ws / "USER.md")})).blocked


def test_a_delete_tool_on_an_ordinary_file_is_allowed(ws: Path) -> None:
    assert not send("cursor", _cursor(ws, "Delete", {"file_path": str(ws / "notes.txt")})).blocked
