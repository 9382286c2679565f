"""Payload normalization: every host's shapes and every edit variant become the same record."""

from __future__ import annotations

import json

import pytest

from gate.edits import Edit, apply_edits
from gate.payload import END, POST, PRE, PROMPT, START, CONTEXT, normalize
from tiers.errors import ParseError

P1 = [{"oldText": "- a", "newText": "- a\n- b"}]

EDIT_VARIANTS = [
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": P1}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": json.dumps(P1)}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": P1[0]}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "oldText": "- a", "newText": "- a\n- b"}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"file_path": "MEMORY.md", "old_string": "- a", "new_string": "- a\n- b"}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "old_text": "- a", "new_text": "- a\n- b"}}}),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md",
                                                           "patch": "<<<<<<< SEARCH\n- a\n=======\n- a\n- b\n>>>>>>> REPLACE"}}}),
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Edit",
                "tool_input": {"file_path": "MEMORY.md", "old_string": "- a", "new_string": "- a\n- b", "replace_all": False}}),
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "MultiEdit",
                "tool_input": {"file_path": "MEMORY.md", "edits": [{"old_string": "- a", "new_string": "- a\n- b"}]}}),
    ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "replace", "timestamp": "t",
                "tool_input": {"file_path": "MEMORY.md", "old_string": "- a", "new_string": "- a\n- b", "expected_replacements": 1}}),
    ("copilot", {"toolName": "edit", "toolArgs": json.dumps({"path": "MEMORY.md", "old_str": "- a", "new_str": "- a\n- b"})}),
    ("copilot", {"toolName": "edit", "toolArgs": {"path": "MEMORY.md", "old_str": "- a", "new_str": "- a\n- b"}}),
    ("cursor", {"hook_event_name": "preToolUse", "tool_name": "StrReplace",
                "tool_input": {"file_path": "MEMORY.md", "old_string": "- a", "new_string": "- a\n- b"}}),
]
EDIT_IDS = ["oc-array", "oc-json-string", "oc-single-object", "oc-legacy-top-level", "oc-claude-aliases",
            "oc-fork-old_text", "oc-fork-search-replace", "claude-edit", "claude-multiedit", "gemini-replace",
            "copilot-string-args", "copilot-object-args", "cursor-strreplace"]


@pytest.mark.parametrize("host, payload", EDIT_VARIANTS, ids=EDIT_IDS)
def test_every_edit_variant_yields_the_same_resulting_file(host, payload):
    req = normalize(host, "preToolUse" if host == "copilot" else "before_tool_call", payload)
    assert req.event == PRE
    assert req.tool_kind == "edit"
    (op,) = req.ops
    assert op.path == "MEMORY.md" and op.kind == "edit"
    assert apply_edits("- a\n", op.edits) == "- a\n- b\n"


@pytest.mark.parametrize(
    "host, payload, path, content",
    [
        ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "/r/USER.md", "content": "x"}}, "/r/USER.md", "x"),
        ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "write_file", "tool_input": {"file_path": "M.md", "content": "y"}}, "M.md", "y"),
        ("copilot", {"toolName": "create", "toolArgs": "{\"path\":\"memory/x.md\",\"file_text\":\"z\"}"}, "memory/x.md", "z"),
        ("cursor", {"hook_event_name": "preToolUse", "tool_name": "Write", "tool_input": {"file_path": "/r/USER.md", "contents": "w"}}, "/r/USER.md", "w"),
        ("openclaw", {"event": {"toolName": "write", "params": {"path": "MEMORY.md", "content": "v"}}}, "MEMORY.md", "v"),
        ("openclaw", {"event": {"toolName": "mystery_tool", "params": {"path": "MEMORY.md", "content": "u"}}}, "MEMORY.md", "u"),
    ],
    ids=["claude-write", "gemini-write_file", "copilot-create", "cursor-contents", "openclaw-write", "unknown-tool-by-shape"],
)
def test_whole_file_writes_normalize_to_one_write_op(host, payload, path, content):
    req = normalize(host, "preToolUse" if host == "copilot" else "before_tool_call", payload)
    (op,) = req.ops
    assert (op.kind, op.path, op.content) == ("write", path, content)


@pytest.mark.parametrize(
    "host, payload, key",
    [
        ("codex", {"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "model": "m",
                   "tool_input": {"command": "*** Begin Patch\n*** Add File: memory/notes.md\n+- fact\n*** End Patch"}}, "command"),
        ("openclaw", {"event": {"toolName": "apply_patch", "derivedPaths": ["memory/notes.md"],
                                "params": {"input": "*** Begin Patch\n*** Add File: memory/notes.md\n+- fact\n*** End Patch"}}}, "input"),
    ],
    ids=["codex-command", "openclaw-input"],
)
def test_apply_patch_becomes_patch_ops(host, payload, key):
    req = normalize(host, "before_tool_call", payload)
    assert req.tool_kind == "patch" and req.patch_key == key
    assert [o.patch.target for o in req.ops] == ["memory/notes.md"]


@pytest.mark.parametrize(
    "host, payload, command",
    [
        ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo hi >> MEMORY.md"}}, "echo hi >> MEMORY.md"),
        ("codex", {"hook_event_name": "PreToolUse", "tool_name": "shell", "tool_input": {"command": ["bash", "-lc", "ls -la"]}}, "ls -la"),
        ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}}, "rm -rf /"),
        ("copilot", {"toolName": "bash", "toolArgs": "{\"command\":\"git push\",\"description\":\"d\"}"}, "git push"),
        ("cursor", {"hook_event_name": "beforeShellExecution", "command": "curl x | sh", "cwd": "/r"}, "curl x | sh"),
        ("openclaw", {"event": {"toolName": "exec", "params": {"command": "cat ~/.ssh/id_rsa"}}}, "cat ~/.ssh/id_rsa"),
        ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo '*** Begin Patch'"}}, "echo '*** Begin Patch'"),
    ],
    ids=["claude-bash", "codex-argv", "gemini-shell", "copilot-bash", "cursor-before-shell", "openclaw-exec", "mentions-patch-marker"],
)
def test_shell_calls_carry_their_command(host, payload, command):
    req = normalize(host, "preToolUse" if host == "copilot" else "before_tool_call", payload)
    assert (req.tool_kind, req.command) == ("shell", command)


@pytest.mark.parametrize(
    "host, arg, payload, event",
    [
        ("claude", None, {"hook_event_name": "UserPromptSubmit", "prompt": "remember I use fish"}, PROMPT),
        ("claude", "PreToolUse", {"hook_event_name": "SessionStart", "source": "startup"}, START),
        ("gemini", None, {"hook_event_name": "SessionEnd", "reason": "exit", "timestamp": "t"}, END),
        ("gemini", None, {"hook_event_name": "BeforeAgent", "prompt": "p", "timestamp": "t"}, PROMPT),
        ("copilot", "sessionStart", {"source": "new", "initialPrompt": "x"}, START),
        ("copilot", "postToolUse", {"toolName": "edit", "toolArgs": "{}"}, POST),
        ("cursor", None, {"hook_event_name": "afterFileEdit", "file_path": "/r/MEMORY.md",
                          "edits": [{"old_string": "- a", "new_string": "- b"}]}, POST),
        ("openclaw", "session_end", {"event": {"sessionId": "abc"}, "ctx": {}}, END),
        ("openclaw", None, {"hook": "llm_input", "event": {"prompt": "hi"}, "ctx": {"sessionId": "a"}}, PROMPT),
        ("openclaw", None, {"type": "agent", "action": "bootstrap", "context": {"workspaceDir": "/w"}}, CONTEXT),
    ],
    ids=["claude-prompt", "payload-wins-over-argv", "gemini-end", "gemini-before-agent", "copilot-from-argv",
         "copilot-post", "cursor-after-file-edit", "openclaw-end", "openclaw-llm-input", "openclaw-bootstrap"],
)
def test_event_comes_from_the_payload_else_from_the_argument(host, arg, payload, event):
    assert normalize(host, arg, payload).event == event


def test_openclaw_memory_flush_prompt_is_not_recorded_as_user_words():
    req = normalize("openclaw", None, {"hook": "llm_input", "event": {
        "prompt": "Write any lasting notes to memory/2026-11-28.md; reply with NO_REPLY if nothing to store."}, "ctx": {}})
    assert req.event == PROMPT and req.prompt is None


def test_unknown_event_is_none():
    assert normalize("claude", None, {"hook_event_name": "Notification"}).event is None


@pytest.mark.parametrize(
    "payload",
    [
        [1, 2],
        {"toolName": "edit", "toolArgs": "{not json"},
        {"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": "M", "edits": "[{oops"}},
        {"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": "M", "edits": [1]}},
        {"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": "M", "old_string": 3, "new_string": "x"}},
        {"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch\n*** Bogus\n*** End Patch"}},
    ],
    ids=["not-an-object", "toolargs-not-json", "edits-string-not-json", "edit-not-object", "old-not-string", "bad-patch"],
)
def test_bad_shapes_raise_parse_error(payload):
    with pytest.raises(ParseError):
        normalize("copilot" if isinstance(payload, dict) and "toolName" in payload else "claude", "preToolUse", payload)


@pytest.mark.parametrize(
    "text, edits, expected",
    [
        ("- a\r\n- c\r\n", [Edit("- a\n", "- a\n- b\n")], "- a\r\n- b\r\n- c\r\n"),
        ("\ufeff- a\n", [Edit("- a", "- b")], "\ufeff- b\n"),
        ("x x\n", [Edit("x", "y", replace_all=True)], "y y\n"),
        ("x x\n", [Edit("x", "y", count=2)], "y y\n"),
        ("", [Edit("", "- new\n")], "- new\n"),
        ("- a\n- b\n", [Edit("- a", "- A"), Edit("- b", "- B")], "- A\n- B\n"),
    ],
    ids=["crlf-restored", "bom-kept", "replace-all", "expected-count", "create-via-empty-old", "multi-edit-in-order"],
)
def test_apply_edits_follows_host_semantics(text, edits, expected):
    assert apply_edits(text, edits) == expected


@pytest.mark.parametrize(
    "text, edits, fragment",
    [
        ("- a\n", [Edit("- z", "- b")], "not found"),
        ("x x\n", [Edit("x", "y")], "occurs 2 times"),
        ("x x x\n", [Edit("x", "y", count=2)], "expected 2"),
        ("- a\n", [Edit("", "y")], "empty old text"),
    ],
    ids=["missing", "ambiguous", "count-mismatch", "empty-old-on-nonempty-file"],
)
def test_edits_that_cannot_apply_raise_parse_error(text, edits, fragment):
    with pytest.raises(ParseError) as info:
        apply_edits(text, edits, path="MEMORY.md")
    assert fragment in str(info.value) and "MEMORY.md" in str(info.value)
