"""End to end: the real `cuticle hook` command, real host payloads, a copy of sample-workspace."""

from __future__ import annotations

import json
import os
import re

import pytest

from gate_helpers import install
from gate_helpers import CONFLICT, HOSTS, TERRAFORM_DIRECTIVE, run_hook, write_payload

STAMP = re.compile(r" <!--cu:[DOCH][a-z2-7]+@\d+(~\d+)?(![sx])?(\+[uv])?(\|[^#]*)?#[a-z2-7]+-->$")
NEW_HYPOTHESIS = "- The flaky login test is probably a race in the session cache."


def _memory(ws) -> str:
    return (ws / "MEMORY.md").read_text(encoding="utf-8")


def _events(ws) -> list[dict]:
    path = ws / ".cuticle" / "events.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


# -- blocks reach the model in every host --------------------------------------------------------------


@pytest.mark.parametrize("host", HOSTS)
def test_conflicting_write_is_blocked_with_the_arbitration_error_as_reason(ws, host):
    before = _memory(ws)
    payload, event = write_payload(host, ws, "MEMORY.md", before + CONFLICT + "\n")
    out = run_hook(host, payload, event)
    assert out.blocked, out.stdout + out.stderr
    reason = json.loads(out.reason)
    assert reason["error"] == "EpistemicConflictError"
    assert reason["conflicts_with"]["file"] == "MEMORY.md"
    assert reason["conflicts_with"]["content"] == TERRAFORM_DIRECTIVE
    assert reason["attempted"]["line"] == before.count("\n") + 1
    assert _memory(ws) == before  # nothing written
    assert _events(ws)[-1]["decision"] == "block"


def test_claude_deny_uses_both_channels(ws):
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")
    out = run_hook("claude", payload)
    assert out.code == 2
    assert out.json["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(out.stderr)["error"] == "EpistemicConflictError"


# -- accepted writes are stamped -------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["openclaw", "claude", "gemini", "cursor"])
def test_accepted_write_returns_stamped_content_where_the_host_can_rewrite(ws, host):
    before = _memory(ws)
    payload, event = write_payload(host, ws, "MEMORY.md", before + NEW_HYPOTHESIS + "\n")
    out = run_hook(host, payload, event)
    assert not out.blocked, out.stdout + out.stderr
    args = out.rewritten
    key = "contents" if host == "cursor" else "content"
    lines = args[key].split("\n")
    assert "\n".join(lines[: before.count("\n")]) + "\n" == before  # old lines byte-identical
    new = lines[before.count("\n")]
    assert new.startswith(NEW_HYPOTHESIS + " <!--cu:H")
    assert STAMP.search(new)
    assert _memory(ws) == before  # the host writes, not the hook


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"])
def test_claude_rewrite_leaves_the_decision_to_claudes_own_permission_flow_in_every_mode(ws, mode):
    # an "allow" would override plan and dontAsk, an "ask" the user's allow rules (and in `claude -p` its reason
    # reaches the model as the error text): the stamped input goes without a decision
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + NEW_HYPOTHESIS + "\n")
    payload["permission_mode"] = mode
    out = run_hook("claude", payload).json["hookSpecificOutput"]
    assert "permissionDecision" not in out
    assert NEW_HYPOTHESIS + " <!--cu:H" in out["updatedInput"]["content"]


@pytest.mark.parametrize(("setting", "decision"), [("allow", "allow"), ("ask", "ask")])
def test_claude_auto_allow_forces_a_decision(ws, setting, decision):
    (ws / ".cuticle" / "config.toml").write_text(f'[gate]\nclaude_auto_allow = "{setting}"\n', encoding="utf-8")
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + NEW_HYPOTHESIS + "\n")
    out = run_hook("claude", payload).json["hookSpecificOutput"]
    assert out["permissionDecision"] == decision and "updatedInput" in out
    assert "stamped" not in out["permissionDecisionReason"] or decision == "allow"


@pytest.mark.parametrize("host", ["codex", "copilot"])
def test_hosts_that_cannot_rewrite_get_the_file_stamped_after_the_tool(ws, host):
    before = _memory(ws)
    content = before + NEW_HYPOTHESIS + "\n"
    payload, event = write_payload(host, ws, "MEMORY.md", content)
    pre = run_hook(host, payload, event)
    assert not pre.blocked and pre.rewritten is None
    (ws / "MEMORY.md").write_text(content, encoding="utf-8")  # the host's tool runs
    if host == "codex":
        post_payload = {**payload, "hook_event_name": "PostToolUse", "tool_response": {"success": True}}
        post = run_hook(host, post_payload)
    else:
        post_payload = {**payload, "toolResult": {"resultType": "success", "textResultForLlm": "ok"}}
        post = run_hook(host, post_payload, "postToolUse")
    assert post.code == 0
    after = _memory(ws)
    assert after.startswith(before)  # untouched lines byte-identical
    assert STAMP.search(after.splitlines()[-1])
    assert after.splitlines()[-1].startswith(NEW_HYPOTHESIS)


def test_after_tool_without_an_allowed_pre_tool_step_changes_nothing(ws):
    """No pre-tool snapshot means the gate never allowed this call: the after-tool event must not label lines
    (the line stays unstamped, which lint reports) rather than guess whose they are."""
    before = _memory(ws)
    (ws / "MEMORY.md").write_text(before + NEW_HYPOTHESIS + "\n", encoding="utf-8")
    payload = {"timestamp": 1, "cwd": str(ws), "toolName": "edit",
               "toolArgs": json.dumps({"path": "MEMORY.md", "old_str": "x", "new_str": NEW_HYPOTHESIS}),
               "toolResult": {"resultType": "success"}}
    run_hook("copilot", payload, "postToolUse")
    assert _memory(ws) == before + NEW_HYPOTHESIS + "\n"


def test_unchanged_rewrite_of_the_whole_file_classifies_nothing(ws):
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws))
    out = run_hook("claude", payload)
    assert out.code == 0 and out.stdout == ""
    assert _events(ws)[-1]["files"][0]["new_lines"] == []


# -- edit variants ---------------------------------------------------------------------------------------

OLD = "- Always run migrations before seeding the DB."
NEW = OLD + "\n" + NEW_HYPOTHESIS

EDITS = [
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Edit",
                "tool_input": {"file_path": "{ws}/MEMORY.md", "old_string": OLD, "new_string": NEW, "replace_all": False}}, None),
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "MultiEdit",
                "tool_input": {"file_path": "{ws}/MEMORY.md", "edits": [{"old_string": OLD, "new_string": NEW}]}}, None),
    ("gemini", {"hook_event_name": "BeforeTool", "timestamp": "t", "tool_name": "replace",
                "tool_input": {"file_path": "{ws}/MEMORY.md", "old_string": OLD, "new_string": NEW, "expected_replacements": 1}}, None),
    ("cursor", {"hook_event_name": "preToolUse", "conversation_id": "c1", "workspace_roots": ["{ws}"], "tool_name": "StrReplace",
                "tool_input": {"file_path": "{ws}/MEMORY.md", "old_string": OLD, "new_string": NEW}}, None),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": [{"oldText": OLD, "newText": NEW}]}}}, "before_tool_call"),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": json.dumps([{"oldText": OLD, "newText": NEW}])}}}, "before_tool_call"),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "edits": {"oldText": OLD, "newText": NEW}}}}, "before_tool_call"),
    ("openclaw", {"event": {"toolName": "edit", "params": {"path": "MEMORY.md", "oldText": OLD, "newText": NEW}}}, "before_tool_call"),
    ("openclaw", {"event": {"toolName": "edit", "params": {"file_path": "MEMORY.md", "old_string": OLD, "new_string": NEW}}}, "before_tool_call"),
]


def _fill(obj, ws):
    return json.loads(json.dumps(obj).replace("{ws}", str(ws)))


def _apply_rewritten_edit(text: str, args: dict) -> str:
    from gate.edits import apply_edits
    from gate.payload import extract_edits

    return apply_edits(text, extract_edits(args))


@pytest.mark.parametrize("host, payload, event", EDITS,
                         ids=["claude-edit", "claude-multiedit", "gemini-replace", "cursor-strreplace", "oc-array",
                              "oc-json-string", "oc-object", "oc-legacy", "oc-claude-aliases"])
def test_every_edit_variant_is_stamped_through_a_rewritten_edit(ws, host, payload, event):
    payload = _fill(payload, ws)
    payload.setdefault("cwd", str(ws))
    if host == "openclaw":
        payload["workspaceDir"] = str(ws)
    before = _memory(ws)
    out = run_hook(host, payload, event)
    assert not out.blocked, out.stdout + out.stderr
    result = _apply_rewritten_edit(before, out.rewritten)  # what the host will write
    lines = result.splitlines()
    i = lines.index(OLD)
    assert STAMP.search(lines[i + 1]) and lines[i + 1].startswith(NEW_HYPOTHESIS)
    assert [x for x in lines if x != lines[i + 1]] == before.splitlines()


@pytest.mark.parametrize("variant", ["array", "string", "object", "legacy"])
def test_conflicting_edit_is_blocked_in_every_shape(ws, variant):
    edit = {"oldText": OLD, "newText": OLD + "\n" + CONFLICT}
    params = {"path": "MEMORY.md"}
    if variant == "array":
        params["edits"] = [edit]
    elif variant == "string":
        params["edits"] = json.dumps([edit])
    elif variant == "object":
        params["edits"] = edit
    else:
        params.update(edit)
    out = run_hook("openclaw", {"workspaceDir": str(ws), "event": {"toolName": "edit", "params": params}}, "before_tool_call")
    assert out.blocked
    assert json.loads(out.reason)["error"] == "EpistemicConflictError"


def test_copilot_edit_inside_toolargs_string_is_checked(ws):
    args = {"path": str(ws / "MEMORY.md"), "old_str": OLD, "new_str": OLD + "\n" + CONFLICT}
    out = run_hook("copilot", {"timestamp": 1, "cwd": str(ws), "toolName": "edit", "toolArgs": json.dumps(args)}, "preToolUse")
    assert out.blocked and out.json["permissionDecision"] == "deny"


def test_edit_whose_old_text_is_missing_is_refused_not_guessed(ws):
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": str(ws),
               "tool_input": {"file_path": str(ws / "MEMORY.md"), "old_string": "- no such line", "new_string": "- x"}}
    out = run_hook("claude", payload)
    assert out.blocked
    assert json.loads(out.reason)["reason"] == "edit-does-not-apply"


# -- apply_patch -------------------------------------------------------------------------------------------


def _patch(*body: str) -> str:
    return "*** Begin Patch\n" + "\n".join(body) + "\n*** End Patch"


def test_openclaw_apply_patch_on_memory_is_rewritten_with_stamps(ws):
    patch = _patch("*** Update File: memory/2026-11-28.md", "@@", "+- hypothesis: the redis restarts come from the OOM killer")
    out = run_hook("openclaw", {"workspaceDir": str(ws), "event": {"toolName": "apply_patch",
                   "derivedPaths": ["memory/2026-11-28.md"], "params": {"input": patch}}}, "before_tool_call")
    assert not out.blocked, out.stderr
    from gate.patch import apply_hunks, parse_patch

    (op,) = parse_patch(out.rewritten["input"])
    before = (ws / "memory/2026-11-28.md").read_text(encoding="utf-8")
    result = apply_hunks(before, op.hunks)
    last = result.splitlines()[-1]
    assert last.startswith("- hypothesis: the redis restarts") and STAMP.search(last)
    assert result.splitlines()[:-1] == before.splitlines()


def test_codex_apply_patch_adding_a_memory_file_is_stamped_after_the_tool(ws):
    patch = _patch("*** Add File: memory/notes.md", "+- fact: maybe the CDN caches 404s")
    payload = {"session_id": "t1", "transcript_path": None, "cwd": str(ws), "hook_event_name": "PreToolUse",
               "model": "gpt-5.4", "turn_id": "u1", "tool_name": "apply_patch", "tool_use_id": "call_9",
               "tool_input": {"command": patch}}
    pre = run_hook("codex", payload)
    assert pre.code == 0 and not pre.blocked
    (ws / "memory" / "notes.md").write_text("- fact: maybe the CDN caches 404s\n", encoding="utf-8")
    post = run_hook("codex", {**payload, "hook_event_name": "PostToolUse"})
    assert post.code == 0
    assert STAMP.search((ws / "memory" / "notes.md").read_text(encoding="utf-8").rstrip("\n"))


def test_codex_apply_patch_conflict_is_blocked(ws):
    patch = _patch("*** Update File: MEMORY.md", "@@", "+" + CONFLICT)
    payload = {"session_id": "t1", "cwd": str(ws), "hook_event_name": "PreToolUse", "model": "m",
               "tool_name": "apply_patch", "tool_input": {"command": patch}}
    out = run_hook("codex", payload)
    assert out.code == 2 and json.loads(out.stderr)["error"] == "EpistemicConflictError"


def test_apply_patch_on_non_memory_files_passes_untouched(ws):
    patch = _patch("*** Add File: src/app.py", "+print('hi')", "*** Update File: AGENTS.md", "@@", "+- more")
    out = run_hook("openclaw", {"workspaceDir": str(ws), "event": {"toolName": "apply_patch", "params": {"input": patch}}},
                   "before_tool_call")
    assert out.code == 0 and out.json == {}


@pytest.mark.parametrize(
    "body, reason",
    [
        (["*** Delete File: MEMORY.md"], "memory-delete"),
        (["*** Update File: MEMORY.md", "*** Move to: notes/old.md", "@@", " # MEMORY.md"], "memory-delete"),
        (["*** Add File: PERSONALITY.md", "+- I am great"], "guarded-file"),
    ],
    ids=["delete-memory", "move-memory-away", "add-guarded"],
)
def test_apply_patch_memory_deletes_and_guarded_files_are_refused(ws, body, reason):
    out = run_hook("openclaw", {"workspaceDir": str(ws), "event": {"toolName": "apply_patch", "params": {"input": _patch(*body)}}},
                   "before_tool_call")
    assert out.blocked
    assert json.loads(out.reason)["reason"] == reason


def test_apply_patch_moving_a_file_into_memory_is_a_memory_write(ws):
    (ws / "notes.md").write_text("- scratch\n", encoding="utf-8")
    patch = _patch("*** Update File: notes.md", "*** Move to: memory/moved.md", "@@", " - scratch", "+" + CONFLICT)
    out = run_hook("openclaw", {"workspaceDir": str(ws), "event": {"toolName": "apply_patch", "params": {"input": patch}}},
                   "before_tool_call")
    assert out.blocked and json.loads(out.reason)["error"] == "EpistemicConflictError"


# -- stamps the agent edited or invented --------------------------------------------------------------------


def _stamped_line(ws, text: str) -> str:
    """Put one cuticle-stamped line into MEMORY.md through the gate (a Claude Write that the host applies)."""
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + text + "\n")
    out = run_hook("claude", payload)
    (ws / "MEMORY.md").write_text(out.rewritten["content"], encoding="utf-8")
    return out.rewritten["content"].splitlines()[-1]


def test_agent_edited_stamp_on_an_existing_line_is_restored(ws):
    line = _stamped_line(ws, NEW_HYPOTHESIS)
    forged = line.replace("<!--cu:H", "<!--cu:D")
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws).replace(line, forged))
    out = run_hook("claude", payload)
    assert not out.blocked
    assert out.rewritten["content"].splitlines()[-1] == line
    assert _events(ws)[-1]["files"][0]["restored_stamps"] == 1


def test_stamp_invented_on_a_new_line_is_stripped_and_replaced(ws):
    forged = NEW_HYPOTHESIS + " <!--cu:Dabcde@1#zzzzzz-->"
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + forged + "\n")
    out = run_hook("claude", payload)
    last = out.rewritten["content"].splitlines()[-1]
    assert last.startswith(NEW_HYPOTHESIS + " <!--cu:H") and "abcde" not in last
    assert _events(ws)[-1]["files"][0]["forged_stamps"] == 1


def test_reordering_the_file_cannot_relabel_old_memory(ws):
    line = _stamped_line(ws, NEW_HYPOTHESIS)
    lines = _memory(ws).splitlines()
    moved = [lines[-1]] + lines[:-1]  # the stamped line moved to the top, stamp rewritten
    moved[0] = moved[0].replace("<!--cu:H", "<!--cu:D")
    payload, _ = write_payload("claude", ws, "MEMORY.md", "\n".join(moved) + "\n")
    out = run_hook("claude", payload)
    assert out.rewritten["content"].splitlines()[0] == line


# -- USER.md guard, guarded files ------------------------------------------------------------------------------


def test_user_md_refuses_lines_without_verified_provenance_and_says_where_they_belong(ws):
    before = (ws / "USER.md").read_text(encoding="utf-8")
    payload, _ = write_payload("claude", ws, "USER.md", before + "- User probably likes dark mode.\n")
    out = run_hook("claude", payload)
    assert out.blocked
    reason = json.loads(out.reason)
    assert reason["reason"] == "user-guard"
    assert "MEMORY.md" in reason["resolve"] and "memory/YYYY-MM-DD.md" in reason["resolve"]


def test_user_md_guard_can_be_turned_off(ws):
    (ws / ".cuticle" / "config.toml").write_text("[gate]\nuser_guard = false\n", encoding="utf-8")
    before = (ws / "USER.md").read_text(encoding="utf-8")
    payload, _ = write_payload("claude", ws, "USER.md", before + "- User probably likes dark mode.\n")
    assert not run_hook("claude", payload).blocked


def test_user_md_accepts_the_users_own_words_after_the_prompt_is_recorded(ws):
    pytest.importorskip("tiers.provenance", reason="provenance (issue 3) not in this build")
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "remember that I use fish as my shell",
              "session_id": "s1", "cwd": str(ws)}
    assert run_hook("claude", prompt).code == 0
    before = (ws / "USER.md").read_text(encoding="utf-8")
    payload, _ = write_payload("claude", ws, "USER.md", before + "- User said: I use fish as my shell.\n")
    out = run_hook("claude", payload)
    assert not out.blocked, out.reason
    assert "<!--cu:D" in out.rewritten["content"].splitlines()[-1]


@pytest.mark.parametrize("name", ["PERSONALITY.md", "INSIGHTS.md"])
def test_guarded_files_are_refused_for_agent_writes(ws, name):
    payload, _ = write_payload("claude", ws, name, "- I am always right.\n")
    out = run_hook("claude", payload)
    assert out.blocked and json.loads(out.reason)["reason"] == "guarded-file"


# -- paths ------------------------------------------------------------------------------------------------------


def test_dot_dot_path_into_memory_resolves_to_the_memory_file(ws):
    payload, _ = write_payload("openclaw", ws, "memory/../MEMORY.md", _memory(ws) + CONFLICT + "\n")
    assert run_hook("openclaw", payload).blocked


def test_path_leaving_the_workspace_is_not_tiered(ws, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    payload, _ = write_payload("claude", ws, "../elsewhere/MEMORY.md", CONFLICT + "\n")
    out = run_hook("claude", payload)
    assert out.code == 0 and not out.blocked


def test_symlinked_memory_file_pointing_outside_is_refused(ws, tmp_path):
    target = tmp_path / "victim.md"
    target.write_text("- someone else's notes\n", encoding="utf-8")
    (ws / "memory" / "link.md").symlink_to(target)
    payload, _ = write_payload("claude", ws, "memory/link.md", "- overwritten\n")
    out = run_hook("claude", payload)
    assert out.blocked and json.loads(out.reason)["reason"] == "path-outside-workspace"
    assert target.read_text(encoding="utf-8") == "- someone else's notes\n"


@pytest.mark.parametrize("kind", ["binary", "huge", "no-permission"])
def test_an_edit_of_an_unreadable_memory_file_is_refused_with_the_reason(ws, kind):
    path = ws / "memory" / "odd.md"
    if kind == "binary":
        path.write_bytes(b"\x00\x01binary")
    elif kind == "huge":
        path.write_bytes(b"- line\n" * 700_000)
    else:
        if os.geteuid() == 0:
            pytest.skip("root reads every file")
        path.write_text("- a\n", encoding="utf-8")
        path.chmod(0)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": str(ws),
               "tool_input": {"file_path": str(path), "old_string": "binary", "new_string": "x"}}
    out = run_hook("claude", payload)
    assert out.blocked  # an edit of what cuticle cannot read cannot be checked (docs/bad-input.md)
    assert json.loads(out.reason)["reason"] == "unreadable-memory-file" and "memory/odd.md" in out.reason
    assert _events(ws)[-1]["decision"] == "block"


def test_huge_or_binary_new_content_for_a_memory_file_is_refused(ws):
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n" + "x" * 5_000_000)
    out = run_hook("claude", payload)
    assert out.blocked and json.loads(out.reason)["reason"] == "not-a-memory-text"


def test_non_memory_write_passes_untouched(ws):
    payload, _ = write_payload("claude", ws, "src/app.py", "print('hi')\n")
    out = run_hook("claude", payload)
    assert (out.code, out.stdout) == (0, "")


# -- fail-open ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", HOSTS)
def test_malformed_stdin_before_a_tool_is_refused_and_logged(ws, host):
    out = run_hook(host, None, "preToolUse", raw=b"{not json", cwd=ws)
    assert out.blocked
    assert "payload is not JSON" in (out.reason or "")
    assert _events(ws)[-1]["decision"] == "block" and "not JSON" in _events(ws)[-1]["error"]


@pytest.mark.parametrize("host", HOSTS)
def test_malformed_stdin_on_other_events_proceeds_with_one_line_on_stderr(ws, host):
    out = run_hook(host, None, "sessionStart", raw=b"{not json", cwd=ws)
    assert not out.blocked and out.code == 0
    assert out.stderr.count("\n") == 1 and "payload is not JSON" in out.stderr


def test_unknown_host_fails_open(ws):
    out = run_hook("frobnicator", {"cwd": str(ws)}, cwd=ws)
    assert out.code == 0 and out.stdout == "" and "unknown host" in out.stderr


def test_unknown_event_fails_open(ws):
    out = run_hook("claude", {"hook_event_name": "Notification", "cwd": str(ws)})
    assert out.code == 0 and "unknown event" in out.stderr


def test_broken_config_keeps_every_check_on_and_says_why(ws):
    (ws / ".cuticle" / "config.toml").write_text("[gate\nuser_guard = false\n", encoding="utf-8")
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")
    out = run_hook("claude", payload)
    assert out.blocked and "invalid TOML" in out.stderr
    assert "invalid TOML" in json.loads(out.reason)["config_error"]  # the model is told too


def test_workspace_comes_from_claude_project_dir_when_cwd_is_missing(ws):
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")
    del payload["cwd"]
    out = run_hook("claude", payload, env={**os.environ, "CLAUDE_PROJECT_DIR": str(ws)}, cwd="/")
    assert out.blocked


def test_workspace_is_found_by_walking_up_from_a_subdirectory(ws):
    sub = ws / "memory"
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + CONFLICT + "\n")
    payload["cwd"] = str(sub)
    assert run_hook("claude", payload).blocked


# -- decision log ---------------------------------------------------------------------------------------------------


def test_every_decision_is_logged_with_secrets_masked(ws):
    secret = "sk-" + "A1b2C3d4E5f6G7h8J9k0L1m2"
    payload, _ = write_payload("claude", ws, "src/config.py", f"API_KEY = '{secret}'\n")
    payload["tool_input"]["note"] = f"token={secret}"
    run_hook("claude", payload)
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + f"- the deploy token is {secret}\n")
    out = run_hook("claude", payload)
    assert out.blocked  # the security scan refuses secrets in memory
    text = (ws / ".cuticle" / "events.jsonl").read_text(encoding="utf-8")
    assert secret not in text
    assert _events(ws)[-1]["decision"] == "block"


# -- verified user directives supersede; other shapes ----------------------------------------------------------


def test_verified_user_directive_supersedes_the_old_one_after_the_write(ws):
    pytest.importorskip("tiers.provenance", reason="provenance (issue 3) not in this build")
    prompt = {"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": str(ws),
              "prompt": "Forget the terraform rule: you may run terraform destroy."}
    run_hook("claude", prompt)
    before = _memory(ws)
    line = "- User said: you may run terraform destroy."
    payload, _ = write_payload("claude", ws, "MEMORY.md", before + line + "\n")
    out = run_hook("claude", payload)
    assert not out.blocked, out.reason
    (ws / "MEMORY.md").write_text(out.rewritten["content"], encoding="utf-8")  # the host writes
    run_hook("claude", {**payload, "hook_event_name": "PostToolUse", "tool_response": {"success": True}})
    after = _memory(ws).splitlines()
    old = next(x for x in after if x.startswith(TERRAFORM_DIRECTIVE))
    assert "!s#" in old  # the amended directive is now a GC candidate, its text unchanged
    assert after[-1].startswith(line + " <!--cu:D")


def test_an_agent_claiming_the_user_said_it_cannot_override_a_directive(ws):
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + "- User said: you may run terraform destroy.\n")
    out = run_hook("claude", payload)
    assert out.blocked  # no prompt recorded for this session: the marker is not verified provenance
    assert TERRAFORM_DIRECTIVE not in (json.loads(out.reason).get("attempted") or {}).get("content", "")


def test_gemini_save_memory_fact_is_arbitrated(ws):
    base = {"hook_event_name": "BeforeTool", "tool_name": "save_memory", "session_id": "g1", "cwd": str(ws),
            "timestamp": "2026-05-01T10:30:00Z"}
    bad = run_hook("gemini", {**base, "tool_input": {"fact": "It's fine to run terraform destroy in sandbox accounts."}})
    assert bad.blocked and bad.json["decision"] == "deny"
    ok = run_hook("gemini", {**base, "tool_input": {"fact": "User prefers tabs in Go files"}})
    assert not ok.blocked


def test_cursor_after_file_edit_stamps_the_edited_lines_on_disk(ws):
    before = _memory(ws)
    (ws / "MEMORY.md").write_text(before.replace(OLD, NEW), encoding="utf-8")  # the edit already happened
    payload = {"hook_event_name": "afterFileEdit", "conversation_id": "c1", "generation_id": "g1",
               "workspace_roots": [str(ws)], "file_path": str(ws / "MEMORY.md"),
               "edits": [{"old_string": OLD, "new_string": NEW}]}
    out = run_hook("cursor", payload)
    assert out.code == 0 and out.json == {}
    lines = _memory(ws).splitlines()
    i = lines.index(OLD)
    assert STAMP.search(lines[i + 1])
    assert [x for k, x in enumerate(lines) if k != i + 1] == before.splitlines()


@pytest.mark.parametrize("host", ["claude", "openclaw"])
def test_bom_and_crlf_survive_a_rewritten_edit_and_only_the_new_line_is_stamped(empty_workspace, host):
    ws = install(empty_workspace)
    original = "\ufeff# M\r\n\r\n- User said: never deploy on Fridays.\r\n- tests pass\r\n".encode()
    (ws / "MEMORY.md").write_bytes(original)
    if host == "claude":
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": str(ws),
                   "tool_input": {"file_path": str(ws / "MEMORY.md"), "old_string": "- tests pass",
                                  "new_string": "- tests pass\n- maybe flaky"}}
        out = run_hook(host, payload)
    else:
        out = run_hook(host, {"workspaceDir": str(ws), "event": {"toolName": "edit", "params": {
            "path": "MEMORY.md", "edits": [{"oldText": "- tests pass", "newText": "- tests pass\n- maybe flaky"}]}}},
            "before_tool_call")
    result = _apply_rewritten_edit(original.decode(), out.rewritten)
    assert result.encode().startswith(original)
    tail = result.encode()[len(original):].decode()
    assert tail.startswith("- maybe flaky <!--cu:H") and tail.endswith("-->\r\n")
    assert result.count("<!--cu:") == 1


def test_a_secret_in_a_memory_line_is_blocked_and_masked_in_the_reason(ws):
    secret = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    payload, _ = write_payload("claude", ws, "MEMORY.md", _memory(ws) + f"- CI token: {secret}\n")
    out = run_hook("claude", payload)
    assert out.blocked
    reason = json.loads(out.reason)
    assert reason["reason"] == "security" and reason["line"] == _memory(ws).count("\n") + 1
    assert secret not in out.stdout + out.stderr


def test_a_genuine_internal_bug_fails_open_loudly_and_is_logged(ws, monkeypatch):
    """The one fail-open left (docs/bad-input.md): a bug inside cuticle lets a call that writes no memory, guarded or
    state file proceed with the host's allow answer, one line on stderr that says so, and a "fail-open" record in
    the event log; the same bug on a memory write refuses it (``check-failed``) and nothing is written."""
    from gate import handler

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the write path")

    monkeypatch.setattr(handler, "_dispatch", broken)
    payload, _ = write_payload("claude", ws, "notes.txt", "plain text\n")
    reply = handler.handle("claude", None, json.dumps(payload).encode(), env={}, cwd=str(ws))
    assert (reply.exit_code, reply.stdout) == (0, "")
    assert reply.stderr.count("\n") == 1 and "internal error: RuntimeError" in reply.stderr
    assert "fail-open" in reply.stderr
    last = _events(ws)[-1]
    assert last["decision"] == "fail-open" and "a bug in the write path" in last["error"]
    before = _memory(ws)
    payload, _ = write_payload("claude", ws, "MEMORY.md", before + "- Maybe the cache is stale.\n")
    reply = handler.handle("claude", None, json.dumps(payload).encode(), env={}, cwd=str(ws))
    assert reply.exit_code == 2 and "check-failed" in reply.stdout
    assert _events(ws)[-1]["decision"] == "check-failed"
    assert _memory(ws) == before
