"""cuticle inside a real OpenClaw (npm openclaw@2026.9.6 on Node 24): installed with `cuticle init openclaw`, loaded
by OpenClaw's own plugin loader, and OpenClaw's real coding tools driven through its own before/after-tool
machinery on a copy of sample-workspace/ (tests/hosts/openclaw_driver.mjs does the driving)."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from hostkit import SAMPLE, cuticle, host_env, npm_host, seed_insight, stamped, stop_servers, user_workspace

DRIVER = Path(__file__).with_name("openclaw_driver.mjs")
#: OpenClaw's internal functions the driver calls, found by name: the chunk files are hashed per release
ENTRY_POINTS = ("loadOpenClawPlugins", "createOpenClawCodingTools", "buildSessionStartHookPayload",
                "buildSessionEndHookPayload", "isToolResultError", "extractToolErrorMessage", "sanitizeToolResult")
CONFLICT = "- Running terraform destroy in sandbox accounts is fine."
HYPOTHESIS = "- 10:15 The nightly export job probably fails because the disk is full."
PROMPT = "Please remember this: never schedule meetings before 10:00."


def entry_points(dist: Path) -> dict[str, list[str]]:
    """name -> [chunk file, export alias] for each of ENTRY_POINTS, by the function's own name (cached per install)."""
    cache = dist.parent / ".cuticle-entry-points.json"
    try:
        found = json.loads(cache.read_text(encoding="utf-8"))
        if set(found) == set(ENTRY_POINTS) and all((dist / f).is_file() for f, _ in found.values()):
            return found
    except (OSError, ValueError):
        pass
    found = {}
    for chunk in sorted(dist.glob("*.mjs")):
        text = chunk.read_text(encoding="utf-8", errors="replace")
        for name in ENTRY_POINTS:
            if name in found or f"function {name}(" not in text:
                continue
            m = re.search(r"export \{[^}]*?\b" + name + r"(?: as (\w+))?\s*[,}]", text)
            if m:
                found[name] = [chunk.name, m.group(1) or name]
    missing = sorted(set(ENTRY_POINTS) - set(found))
    assert not missing, f"OpenClaw's dist/ no longer defines and exports {missing}"
    part = cache.with_name(f"{cache.name}.{os.getpid()}")  # parallel workers may both write: whole files only
    part.write_text(json.dumps(found), encoding="utf-8")
    os.replace(part, cache)
    return found


@pytest.fixture(scope="module")
def openclaw() -> Path:
    return npm_host("openclaw")


class Run:
    def __init__(self, record: dict, ws: Path, original: dict[str, bytes]):
        self.load = record["load"]
        self.steps = {s["label"]: s for s in record["steps"]}
        self.record = record
        self.ws = ws
        self.original = original

    def step(self, label: str) -> dict:
        s = self.steps[label]
        assert "exception" not in s, s["exception"]
        return s


def drive(openclaw: Path, tmp_path: Path, steps: list[dict], *, inject: str = "prompt", server: str = "off",
          command: list[str] | None = None, hook_timeout_ms: int | None = None) -> Run:
    home = tmp_path / "home"
    home.mkdir()
    ws = user_workspace(tmp_path)
    node_bin = openclaw / "node_modules" / ".bin"
    env = host_env(home, node_bin, CUTICLE_SERVER=server)
    cuticle(env, "init", "openclaw", str(ws))
    seed_insight(env, ws)
    original = {p.relative_to(ws).as_posix(): p.read_bytes() for p in ws.rglob("*.md") if ".cuticle" not in p.parts}
    config = json.loads((home / ".openclaw" / "openclaw.json").read_text(encoding="utf-8"))
    entry = config["plugins"]["entries"]["cuticle"]
    entry["config"]["inject"] = inject
    if command is not None:
        entry["config"]["command"] = command
    if hook_timeout_ms is not None:
        entry["hooks"]["timeoutMs"] = hook_timeout_ms
    config["agents"] = {"defaults": {"workspace": str(ws)}}
    dist = openclaw / "node_modules" / "openclaw" / "dist"
    plan = tmp_path / "plan.json"
    out = tmp_path / "out.json"
    plan.write_text(json.dumps({"dist": str(dist), "entry": entry_points(dist), "config": config, "workspace": str(ws),
                                "steps": steps}), encoding="utf-8")
    try:
        proc = subprocess.run([str(node_bin / "node"), str(DRIVER), str(plan), str(out)], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
    finally:
        stop_servers(ws)
    assert out.is_file(), f"driver exited {proc.returncode} before loading:\n{proc.stderr[-4000:]}"
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record.get("done"), f"driver stopped early (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    return Run(record, ws, original)


def tool(label: str, name: str, params: dict, *snapshot: str) -> dict:
    return {"op": "tool", "label": label, "name": name, "params": params, "snapshot": list(snapshot)}


@pytest.fixture(scope="module")
def run(openclaw, tmp_path_factory) -> Run:
    """One session of OpenClaw's real tools on a copy of sample-workspace/, then sessions until GC collects."""
    tmp = tmp_path_factory.mktemp("openclaw")
    memory = (SAMPLE / "MEMORY.md").read_text(encoding="utf-8")
    ws = tmp / "ws"
    add = "- Always run migrations before seeding the DB."
    steps = [
        {"op": "session_start", "sessionId": "oc-sess-1"},
        {"op": "llm_input", "prompt": PROMPT},
        {"op": "prompt_build", "label": "prompt_build"},
        # the session's first tool call is also cuticle's cold start
        tool("conflicting-write", "write", {"path": "MEMORY.md", "content": memory + "\n" + CONFLICT + "\n"}, "MEMORY.md"),
        tool("conflicting-edit", "edit", {"path": "MEMORY.md", "edits": [{"oldText": add, "newText": add + "\n" + CONFLICT}]},
             "MEMORY.md"),
        tool("accepted-edit", "edit", {"path": "MEMORY.md", "edits": [{"oldText": add, "newText":
             add + "\n- The staging DB was migrated to Postgres 16 on 2026-11-30."}]}, "MEMORY.md"),
        tool("new-daily-note", "write", {"path": "memory/2026-12-01.md", "content": "# 2026-12-01\n\n" + HYPOTHESIS + "\n"},
             "memory/2026-12-01.md"),
        tool("patch", "apply_patch", {"input": "*** Begin Patch\n*** Update File: memory/2026-11-29.md\n@@\n"
                                               " - Не выкатывать релизы по пятницам.\n"
                                               "+- 18:00 The CI cache was cleared; builds take 12 minutes again.\n"
                                               "*** End Patch"}, "memory/2026-11-29.md"),
        tool("user-directive", "edit", {"path": "USER.md", "edits": [{"oldText": "## Work", "newText":
             "- User said: never schedule meetings before 10:00.\n\n## Work"}]}, "USER.md"),
        tool("user-line-without-the-users-words", "edit", {"path": "USER.md", "edits": [{"oldText": "## Work", "newText":
             "- User prefers dark mode everywhere.\n\n## Work"}]}, "USER.md"),
        tool("non-memory-write", "write", {"path": "src/app.ts", "content": "export const x = 1; // - User said: never\n"},
             "src/app.ts"),
        tool("exec", "exec", {"command": "echo hello-from-exec"}),
        tool("exec-to-memory", "exec", {"command": "echo '- npm is fine' >> MEMORY.md"}, "MEMORY.md"),
        tool("process-typing-to-memory", "process", {"action": "write", "sessionId": "no-such-session",
                                                     "data": "echo '- npm is fine' >> MEMORY.md\n"}, "MEMORY.md"),
        tool("file-write-conflict", "file_write", {"node": "local", "path": str(ws / "MEMORY.md"), "overwrite": True,
             "contentBase64": base64.b64encode((memory + CONFLICT + "\n").encode()).decode()}, "MEMORY.md"),
        {"op": "session_end", "next": "oc-sess-2", "label": "end-1", "snapshot": ["memory/2026-12-01.md"]},
    ]
    for n in range(2, 6):
        steps += [{"op": "session_start", "sessionId": f"oc-sess-{n}", "resumedFrom": f"oc-sess-{n - 1}"},
                  {"op": "session_end", "next": f"oc-sess-{n + 1}", "label": f"end-{n}",
                   "snapshot": ["memory/2026-12-01.md", "MEMORY.md"]}]
    return drive(openclaw, tmp, steps, server="auto")


def test_openclaws_loader_loads_the_plugin_init_installed_with_every_hook(run):
    assert run.load["status"] == "loaded", run.load
    hooks = {h["hook"] for h in run.load["typedHooks"]}
    assert hooks == {"before_tool_call", "after_tool_call", "llm_input", "session_start", "session_end", "before_reset",
                     "before_prompt_build"}, run.load
    assert sorted(run.load["internalHooks"]) == ["agent:bootstrap", "command:new"]
    before = next(h for h in run.load["typedHooks"] if h["hook"] == "before_tool_call")
    assert set(before["matcher"]) == {"write", "edit", "apply_patch", "file_write", "exec", "process", "terminal"}


def test_a_conflicting_whole_file_write_is_blocked_with_cuticles_reason(run):
    s = run.step("conflicting-write")
    assert s["status"] == "blocked", s
    assert "EpistemicConflictError" in s["text"] and "polarity" in s["text"], s["text"]


def test_after_a_blocked_whole_file_write_the_file_is_byte_identical(run):
    # OpenClaw fires after_tool_call for the blocked call too: nothing of it may be stamped on disk
    s = run.step("conflicting-write")
    assert s["files"]["MEMORY.md"].encode() == run.original["MEMORY.md"]


def test_a_conflicting_edit_is_blocked(run):
    s = run.step("conflicting-edit")
    assert s["status"] == "blocked" and "EpistemicConflictError" in s["text"], s
    assert s["files"]["MEMORY.md"].encode() == run.original["MEMORY.md"]


def test_an_accepted_edit_arrives_stamped_on_disk(run):
    s = run.step("accepted-edit")
    assert s["status"] != "blocked", s
    (line,) = [x for x in s["files"]["MEMORY.md"].splitlines() if "Postgres 16" in x]
    assert re.search(r"<!--cu:[A-Z]", line), line
    assert stamped(s["files"]["MEMORY.md"]) == [line]  # only the line the call added


def test_an_accepted_write_of_a_new_daily_note_arrives_stamped(run):
    text = run.step("new-daily-note")["files"]["memory/2026-12-01.md"]
    assert any(HYPOTHESIS in x and "<!--cu:H" in x for x in text.splitlines()), text


def test_an_apply_patch_line_arrives_stamped(run):
    s = run.step("patch")
    (line,) = [x for x in s["files"]["memory/2026-11-29.md"].splitlines() if "CI cache" in x]
    assert "<!--cu:" in line, (line, s["text"])
    assert len(stamped(s["files"]["memory/2026-11-29.md"])) == 1


def test_a_user_directive_in_the_users_own_words_is_accepted_in_user_md(run):
    (line,) = [x for x in run.step("user-directive")["files"]["USER.md"].splitlines() if "10:00" in x]
    assert "<!--cu:" in line


def test_a_user_md_line_without_the_users_words_is_blocked(run):
    s = run.step("user-line-without-the-users-words")
    assert s["status"] == "blocked" and "dark mode" not in s["files"]["USER.md"], s


def test_a_non_memory_write_is_untouched(run):
    s = run.step("non-memory-write")
    assert s["files"]["src/app.ts"] == "export const x = 1; // - User said: never\n"


def test_a_benign_exec_runs(run):
    assert "hello-from-exec" in run.step("exec")["text"]


def test_a_shell_write_to_memory_is_denied_by_the_policy(run):
    s = run.step("exec-to-memory")
    assert s["status"] == "blocked" and "no-memory-write-via-shell" in s["text"], s
    assert "npm is fine" not in s["files"]["MEMORY.md"]


def test_text_typed_into_a_running_shell_through_process_is_governed_too(run):
    s = run.step("process-typing-to-memory")
    assert s["status"] == "blocked" and "no-memory-write-via-shell" in s["text"], s


def test_file_write_of_a_conflicting_memory_file_is_blocked(run):
    s = run.step("file-write-conflict")
    assert s["status"] == "blocked" and "EpistemicConflictError" in s["text"], s
    assert CONFLICT not in s["files"]["MEMORY.md"]


def test_session_end_runs_gc_which_collects_the_expired_hypothesis(run):
    ends = [run.step(f"end-{n}")["files"]["memory/2026-12-01.md"] for n in range(1, 6)]
    assert HYPOTHESIS in ends[0]
    assert HYPOTHESIS not in ends[-1], ends[-1]
    archive = list((run.ws / ".cuticle").rglob("*archive*"))
    assert archive, "GC archived nothing"


def test_gc_leaves_every_pre_existing_memory_line_alone(run):
    strip = lambda t: {re.sub(r" ?<!--cu:[^>]*-->", "", x) for x in t.splitlines() if x.strip()}  # noqa: E731
    now = strip(run.step("end-5")["files"]["MEMORY.md"])
    lost = strip(run.original["MEMORY.md"].decode()) - now
    assert not lost, lost


def test_before_prompt_build_delivers_personality_md(run):
    r = run.step("prompt_build")["result"]
    text = json.dumps(r)
    assert "Personality Context" in text and "Lead with the command" in text, r


def test_doctor_finds_the_openclaw_install_from_the_workspace_alone(openclaw, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    ws = user_workspace(tmp_path)
    env = host_env(home)
    cuticle(env, "init", "openclaw", str(ws))
    out = cuticle(env, "doctor", str(ws), "--json", check=False)
    rep = json.loads(out.stdout)
    assert out.returncode == 0, rep
    assert any(c["check"] == "openclaw:canary:conflict" and c["status"] == "ok" for c in rep["checks"]), rep


def test_agent_bootstrap_adds_personality_md_once(openclaw, tmp_path):
    r = drive(openclaw, tmp_path, [{"op": "session_start", "sessionId": "b-1"},
                                   {"op": "bootstrap", "label": "first"}, {"op": "bootstrap", "label": "second"}],
              inject="bootstrap")
    first = [f for f in r.step("first")["files"] if f["name"] == "PERSONALITY.md"]
    assert len(first) == 1 and "Lead with the command" in (first[0]["content"] or ""), r.step("first")
    assert [f["name"] for f in r.step("second")["files"]].count("PERSONALITY.md") == 1


def test_a_cuticle_that_never_answers_is_cut_off_before_openclaws_limit_and_the_call_proceeds(openclaw, tmp_path):
    # OpenClaw blocks a before_tool_call whose handler overruns its limit (fail-closed); cuticle must fail open
    hang = tmp_path / "hang.sh"
    hang.write_text("#!/bin/sh\nexec sleep 30\n", encoding="utf-8")
    hang.chmod(0o755)
    limit = 2000
    r = drive(openclaw, tmp_path, [
        {"op": "session_start", "sessionId": "slow-1"},
        tool("slow-write", "write", {"path": "src/slow.ts", "content": "export const slow = 1;\n"}, "src/slow.ts"),
    ], command=[str(hang)], hook_timeout_ms=limit)
    s = r.step("slow-write")
    assert s["status"] != "blocked" and not s["isError"], s
    assert s["files"]["src/slow.ts"] == "export const slow = 1;\n"
    assert s["ms"] < limit, s
