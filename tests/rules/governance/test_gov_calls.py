"""Tool calls from every host: tool names, file tools, patches, fetches, MCP, the hookimpl and the decision log."""

from __future__ import annotations

import json

import pytest

from rules.governance import evaluate_call, log_decision
from rules.governance.evaluate import patch_paths, tool_kind
from rules.model import Decision, ToolCall

SHELL_TOOLS = [("claude", "Bash"), ("codex", "Bash"), ("gemini", "run_shell_command"), ("copilot", "bash"),
               ("cursor", "beforeShellExecution"), ("openclaw", "exec"), ("cursor", "Shell")]


@pytest.mark.parametrize(("host", "tool"), SHELL_TOOLS, ids=[f"{h}-{t}" for h, t in SHELL_TOOLS])
def test_every_hosts_shell_tool_is_governed(ws, host, tool):
    call = ToolCall(tool=tool, kind="", command="git push origin HEAD:main", host=host)
    assert tool_kind(call) == "shell"
    ev = evaluate_call(call, ws)
    assert (ev.decision, ev.rule, ev.action) == ("deny", "no-protected-branch", "git")
    assert evaluate_call(ToolCall(tool=tool, kind="", command="ls", host=host), ws).decision == "allow"


def test_shell_command_from_arguments_when_the_gate_did_not_extract_it(ws):
    call = ToolCall(tool="run_shell_command", kind="shell", arguments={"command": "sudo id"})
    assert evaluate_call(call, ws).rule == "no-permission-escalation"


KINDS = [("Write", "write"), ("Edit", "write"), ("MultiEdit", "write"), ("NotebookEdit", "write"),
         ("write_file", "write"), ("replace", "write"), ("create", "write"), ("edit", "write"),
         ("StrReplace", "write"), ("apply_patch", "patch"), ("Read", "read"), ("read_file", "read"),
         ("read_many_files", "read"), ("view", "read"), ("Glob", "read"), ("Grep", "read"), ("LS", "read"),
         ("WebFetch", "net"), ("WebSearch", "net"), ("web_fetch", "net"), ("google_web_search", "net"),
         ("mcp__github__create_issue", "net"), ("Task", "exec"), ("Agent", "exec"), ("unknown_tool", "exec")]


@pytest.mark.parametrize(("tool", "kind"), KINDS, ids=[t for t, _ in KINDS])
def test_tool_names_map_to_kinds(tool, kind):
    assert tool_kind(ToolCall(tool=tool, kind="")) == kind


def test_file_tools_may_not_touch_policy_state_or_hook_settings(ws):
    for path in ("chitin.yaml", ".cuticle/config.toml", ".claude/settings.json", ".gemini/settings.json",
                 ".cursor/hooks.json", ".github/hooks/h.json", ".codex/hooks.json"):
        ev = evaluate_call(ToolCall(tool="Write", kind="write", paths=(path,)), ws)
        assert ev.rule == "no-governance-self-modification", path


def test_file_tool_writes_to_memory_are_left_to_the_memory_gate(ws):
    ev = evaluate_call(ToolCall(tool="Edit", kind="edit", paths=("MEMORY.md",)), ws)
    assert ev.decision == "allow" and ev.action == "write"


def test_absolute_paths_from_hosts_are_resolved_against_the_workspace(ws):
    ev = evaluate_call(ToolCall(tool="Write", kind="", arguments={"file_path": str(ws.root / "chitin.yaml")}), ws)
    assert ev.rule == "no-governance-self-modification"


def test_every_file_of_a_patch_is_evaluated(ws):
    patch = ("*** Begin Patch\n*** Add File: src/a.go\n+x\n*** Update File: src/b.go\n*** Move to: .env\n@@\n+y\n"
             "*** End Patch")
    assert patch_paths(patch) == [("add", "src/a.go"), ("update", "src/b.go"), ("move", ".env")]
    ev = evaluate_call(ToolCall(tool="apply_patch", kind="patch", arguments={"command": patch}), ws)
    assert ev.decision == "deny" and ev.rule == "no-secret-write"  # the invariant, whatever the policy says
    patch = "*** Begin Patch\n*** Delete File: .cuticle/key\n*** End Patch"
    ev = evaluate_call(ToolCall(tool="apply_patch", kind="", arguments={"input": patch}), ws)
    assert ev.rule == "no-governance-self-modification"


def test_reads_of_memory_are_allowed_and_ide_sockets_are_not(ws):
    assert evaluate_call(ToolCall(tool="Read", kind="read", paths=("MEMORY.md",)), ws).decision == "allow"
    ev = evaluate_call(ToolCall(tool="Read", kind="read", paths=("/tmp/vscode-ipc-123.sock",)), ws)
    assert ev.rule == "no-ide-socket-access"


def test_fetch_and_mcp_are_net(ws):
    ev = evaluate_call(ToolCall(tool="WebFetch", kind="fetch", arguments={"url": "https://docs.python.org/3/"}), ws)
    assert (ev.decision, ev.action) == ("allow", "net")
    assert evaluate_call(ToolCall(tool="mcp__github__list", kind="mcp"), ws).action == "net"


def test_hookimpl_votes_with_a_verdict(ws):
    from rules.governance import cuticle_tool_call_verdict
    v = cuticle_tool_call_verdict(call=ToolCall(tool="Bash", kind="shell", command="rm -rf ~"), context=ws)
    assert v.decision is Decision.DENY and v.rule == "no-recursive-delete" and v.scope == "invariant"
    v = cuticle_tool_call_verdict(call=ToolCall(tool="Bash", kind="shell", command="ls"),
                                  context={"workspace": ws})
    assert v.decision is Decision.ALLOW and v.action == "read"


def test_hookimpl_is_found_by_pluggy(ws):
    """The entry point's module, on its own (no other test imported the package's lazy names first)."""
    import importlib.metadata
    import pluggy

    (ep,) = [e for e in importlib.metadata.entry_points(group="cuticle") if e.name == "governance"]
    gov = ep.load()
    from tiers import hookspecs
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(gov)
    votes = pm.hook.cuticle_tool_call_verdict(call=ToolCall(tool="Bash", kind="shell", command="sudo ls"),
                                              context=ws)
    assert [v.rule for v in votes] == ["no-permission-escalation"]


def test_log_decision_appends_masked_json_lines(ws):
    secret = "sk-proj-" + "Zx9" * 10
    ev = evaluate_call(ToolCall(tool="Bash", kind="shell", command=f"OPENAI_API_KEY={secret} rm -rf /"), ws)
    rec = log_decision(ws, ev, host="claude")
    log_decision(ws, ev, host="claude")
    lines = (ws.root / ".cuticle" / "events.jsonl").read_text().splitlines()
    assert len(lines) == 2 and secret not in "".join(lines)
    data = json.loads(lines[0])
    assert data == rec and data["host"] == "claude" and data["decision"] == "deny" and data["digests"]


def test_evaluation_strings_are_masked(ws):
    secret = "ghp_" + "q" * 36
    ev = evaluate_call(ToolCall(tool="Bash", kind="shell", command=f"git push https://x:{secret}@github.com/a/b main"),
                       ws)
    assert secret not in json.dumps(ev.to_json())


def test_an_internal_error_is_a_deny_not_an_allow(ws, monkeypatch):
    import rules.governance.evaluate as mod

    def boom(*a, **k):
        raise RuntimeError("bug")
    monkeypatch.setattr(mod, "analyze_call", boom)
    ev = evaluate_call(ToolCall(tool="Bash", kind="shell", command="ls"), ws)
    assert (ev.decision, ev.rule) == ("deny", "internal-error")
