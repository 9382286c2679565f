"""The CLI skeleton: version, help, unknown commands."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def test_version_prints_name_and_version(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert capsys.readouterr().out.startswith("cuticle 0.")


def test_help_lists_every_command():
    out = subprocess.run([sys.executable, "-m", "gate", "--help"], capture_output=True, text=True, check=True).stdout
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "gate", "frobnicate"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr


def test_hook_command_line_is_read_without_argparse():
    from gate.cli import _hook_args

    ns = _hook_args(["hook", "claude", "--no-server"])
    assert (ns.command, ns.host, ns.event, ns.no_server) == ("hook", "claude", None, True)
    ns = _hook_args(["hook", "copilot", "preToolUse"])
    assert (ns.host, ns.event, ns.no_server) == ("copilot", "preToolUse", False)
    # anything unusual is argparse's to parse (help, errors, unknown flags)
    for argv in (["hook"], ["hook", "--help"], ["hook", "a", "b", "c"], ["hook", "claude", "-x"], ["lint"], []):
        assert _hook_args(argv) is None


def test_hook_usage_errors_still_come_from_argparse():
    proc = subprocess.run([sys.executable, "-m", "gate", "hook"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "host" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "gate", "hook", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "--no-server" in proc.stdout


def _installed(root: Path, config: str) -> None:
    (root / ".cuticle").mkdir()
    (root / ".cuticle" / "config.toml").write_text(config, encoding="utf-8")
    (root / ".cuticle" / "key").write_text("5a" * 32 + "\n", encoding="ascii")  # installed, as by `cuticle init`


def _hook_twice(root: Path, payload: dict, watched: tuple[str, ...]) -> tuple[int, str, list[str], str]:
    """``cuticle hook claude --no-server`` on ``payload`` in a fresh ``-S`` interpreter, twice (the first call
    parses config.toml and leaves its cache): the second call's exit code, stdout, which of ``watched`` it had
    imported, and its stderr."""
    code = (
        "import io, json, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "from gate.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        "code = main(['hook', 'claude', '--no-server'])\n"
        "sys.stdout = real\n"
        f"heavy = sorted(m for m in {watched!r} if m in sys.modules)\n"
        "print(json.dumps([code, out.getvalue(), heavy]))\n"
    )
    for _run in ("first", "steady"):
        proc = subprocess.run([sys.executable, "-S", "-c", code, json.dumps(payload)], capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, cwd=root)
        exit_code, out, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
    return exit_code, out, heavy, proc.stderr


def test_a_memory_write_stays_light(tmp_path):
    """A stamped write to a plain memory file (headings, list items: the Markdown model's fast path) runs classify,
    provenance, arbitration and the security scan without importing any third-party package (run with ``-S``: none
    is importable) nor the slow-to-load standard modules; a new line that meets no constraint it could be about
    loads none of the comparison modules either, nor the typed-value patterns (its line has no digit and no
    designator)."""
    _installed(tmp_path, "[tiers]\nhypothesis_ttl = 3\n")
    memory = tmp_path / "MEMORY.md"
    memory.write_text("# MEMORY.md\n\n- User said: never deploy on Fridays.\n- Decided with the user: use Postgres "
                      "for the API until the migration.\n- Пользователь сказал: отчёты присылай до 10:00.\n",
                      encoding="utf-8")
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(memory),
                              "content": memory.read_text(encoding="utf-8") + "- The flaky test is probably a race.\n"}}
    exit_code, out, heavy, err = _hook_twice(tmp_path, payload, (
        "argparse", "numpy", "regex", "pluggy", "markdown_it", "yaml", "frontmatter", "logging", "dataclasses",
        "inspect", "typing", "tiers.arbitration.compare", "tiers.arbitration.structure"))
    assert exit_code == 0 and "<!--cu:H" in out, err
    assert heavy == []


@pytest.mark.parametrize("command, decision", [("git status", None), ('echo "- x" >> MEMORY.md', "deny")])
def test_a_shell_call_stays_light(tmp_path, command, decision):
    """A Bash call runs canonicalization and the policy without the slow-to-load standard modules: no logging,
    typing or subprocess, and no importlib.metadata (its email, zipfile and socket imports) when no other
    distribution declares cuticle plugins; allowed or denied alike."""
    _installed(tmp_path, "")
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}}
    _code, out, heavy, err = _hook_twice(tmp_path, payload, (
        "argparse", "pluggy", "yaml", "logging", "typing", "subprocess", "importlib.metadata", "dataclasses",
        "inspect"))
    got = json.loads(out)["hookSpecificOutput"].get("permissionDecision") if out.strip() else None
    assert got == decision, err
    assert heavy == []


def test_a_hook_call_stays_light(tmp_path):
    """The hook runs on every agent write: a call on a non-memory file imports neither argparse nor the heavy
    packages (numpy, pluggy, markdown-it)."""
    code = (
        "import io, json, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps({'session_id': 's', 'cwd': sys.argv[1],"
        " 'hook_event_name': 'PreToolUse', 'tool_name': 'Write',"
        " 'tool_input': {'file_path': sys.argv[1] + '/notes.txt', 'content': 'x'}}).encode()))\n"
        "from gate.cli import main\n"
        "code = main(['hook', 'claude', '--no-server'])\n"
        "heavy = sorted(m for m in ('argparse', 'numpy', 'pluggy', 'markdown_it') if m in sys.modules)\n"
        "print(json.dumps([code, heavy]))\n"
    )
    (tmp_path / ".cuticle").mkdir()
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    code, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 0
    assert heavy == []


# -- options: one meaning per short flag ---------------------------------------------------------------------------
def _option_lines(name: str) -> list[list[str]]:
    """The option strings of ``cuticle NAME``, one list per option (its short and long spellings), read from the
    help argparse prints (its public output: the parser's internals are not an API)."""
    import re

    from gate.cli import _build_parser

    text = _build_parser(name).subcommands[name].format_help()
    options = []
    for line in text.splitlines():
        m = re.match(r"^ {2}(-[^ ].*?)(?: {2,}|$)", line)
        if m:
            options.append([part.split(" ")[0] for part in m.group(1).split(", ")])
    return options


def test_every_short_flag_means_one_thing_across_subcommands():
    meaning: dict[str, set[str]] = {}
    for name in COMMANDS:
        for spellings in _option_lines(name):
            longs = [s for s in spellings if s.startswith("--")]
            for short in (s for s in spellings if not s.startswith("--")):
                meaning.setdefault(short, set()).update(longs or {short})
    clashes = {short: sorted(longs) for short, longs in meaning.items() if len(longs) > 1}
    assert clashes == {}
    assert meaning["-q"] == {"--quiet"} and meaning["-w"] == {"--workspace"} and meaning["-f"] == {"--file"}


def test_every_subcommand_takes_quiet():
    for name in COMMANDS:
        assert any("--quiet" in s for s in _option_lines(name)), name


# -- lint on the command line: nothing to lint, not a diff, quiet, colour, progress ---------------------------------
def _cuticle(*args: str, cwd: Path, stdin: str | None = None, env: dict | None = None):
    return subprocess.run([sys.executable, "-m", "gate", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=120, env={**os.environ, **(env or {})})


def test_lint_that_finds_no_memory_files_says_where_it_looked(empty_workspace: Path):
    proc = _cuticle("lint", "--workspace", str(empty_workspace), cwd=empty_workspace)
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert "no memory files in" in proc.stderr and str(empty_workspace.resolve()) in proc.stderr
    assert "MEMORY.md" in proc.stderr and "--workspace" in proc.stderr
    assert "All checks passed" not in proc.stdout + proc.stderr


def test_lint_that_finds_no_memory_files_still_writes_valid_json(empty_workspace: Path):
    proc = _cuticle("lint", "--workspace", str(empty_workspace), "--format", "json", cwd=empty_workspace)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["summary"]["files"] == 0
    assert "no memory files" in proc.stderr


def test_lint_of_a_directory_without_memory_files_names_the_directory(ws: Path):
    (ws / "docs").mkdir()
    proc = _cuticle("lint", "docs", cwd=ws)
    assert proc.returncode == 0 and proc.stdout == ""
    assert "no memory files in docs" in proc.stderr


@pytest.mark.parametrize("text", ["hello\n", "MEMORY.md:3: something\n", "{\"json\": true}\n"],
                         ids=["a-word", "a-lint-line", "json"])
def test_lint_diff_of_something_that_is_not_a_diff_is_a_usage_error(ws: Path, text: str):
    proc = _cuticle("lint", "--diff", "-", cwd=ws, stdin=text)
    assert proc.returncode == 2
    assert "not a unified diff" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_lint_diff_of_an_empty_diff_has_nothing_to_lint(ws: Path):
    proc = _cuticle("lint", "--diff", "-", cwd=ws, stdin="")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "the diff adds no lines to memory files" in proc.stderr


def test_lint_diff_that_adds_a_secret_reports_it(ws: Path):
    diff = ("diff --git a/MEMORY.md b/MEMORY.md\n--- a/MEMORY.md\n+++ b/MEMORY.md\n@@ -1,1 +1,2 @@\n # MEMORY.md\n"
            "+- token ghp_" + "a1B2c3D4e5" * 4 + "\n")
    (ws / "MEMORY.md").write_text("# MEMORY.md\n- token ghp_" + "a1B2c3D4e5" * 4 + "\n", encoding="utf-8")
    proc = _cuticle("lint", "--diff", "-", cwd=ws, stdin=diff)
    assert proc.returncode == 1, proc.stderr
    assert "MEMORY.md:2:" in proc.stdout and "CU301" in proc.stdout


def test_lint_quiet_prints_the_findings_and_nothing_else(ws: Path):
    loud = _cuticle("lint", cwd=ws)
    quiet = _cuticle("lint", "-q", cwd=ws)
    assert loud.stdout.startswith(quiet.stdout) and quiet.stdout
    assert "Found" in loud.stdout and "Found" not in quiet.stdout
    assert quiet.stdout.count("\n") == loud.stdout.count("\n") - 1


def test_lint_colours_only_a_terminal_and_honours_no_color(ws: Path):
    piped = _cuticle("lint", cwd=ws, env={"FORCE_COLOR": "", "NO_COLOR": ""})
    forced = _cuticle("lint", cwd=ws, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    refused = _cuticle("lint", cwd=ws, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in piped.stdout and "\x1b[" not in refused.stdout
    assert "\x1b[33mCU106 [warning]\x1b[0m" in forced.stdout
    assert refused.stdout == piped.stdout


def _run_in_pty(code: str, cwd: Path) -> str:
    """Run ``python -c code`` with stdout and stderr on a pseudo-terminal; return all it wrote."""
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.chdir(cwd)
        os.execv(sys.executable, [sys.executable, "-c", code])
    out = b""
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], 60)
            chunk = os.read(fd, 65536) if ready else b""
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


_SLOW_LINT = (
    "import sys, time\n"
    "import gate.commands._common as common\n"
    "import rules.engine as engine\n"
    "common.PROGRESS_DELAY = 0.05\n"
    "real = engine.lint_paths\n"
    "engine.lint_paths = lambda *a, **k: (time.sleep(0.6), real(*a, **k))[1]\n"
    "from gate.cli import main\n"
    "sys.exit(main(['lint'{extra}]))\n"
)


def test_a_long_lint_shows_progress_on_a_terminal_and_erases_it(ws: Path):
    out = _run_in_pty(_SLOW_LINT.format(extra=""), ws)
    assert "linting 4 file(s)" in out
    assert "\r\x1b[K" in out  # the line is erased before the findings are printed
    assert out.rindex("linting 4 file(s)") < out.index("CU106")


def test_quiet_and_a_pipe_show_no_progress(ws: Path):
    assert "linting" not in _run_in_pty(_SLOW_LINT.format(extra=", '-q'"), ws)
    proc = subprocess.run([sys.executable, "-c", _SLOW_LINT.format(extra="")], capture_output=True, text=True,
                          cwd=ws, timeout=120)
    assert proc.stderr == "" and "CU106" in proc.stdout


# -- one location per message -----------------------------------------------------------------------------------
def test_lint_messages_carry_no_location_of_their_own(ws: Path):
    (ws / "MEMORY.md").write_text("# M\n- token ghp_" + "a1B2c3D4e5" * 4 + "\n- The team meets on Friday.\n- The team meets on Friday.\n", encoding="utf-8")
    proc = _cuticle("lint", "--format", "json", cwd=ws)
    findings = json.loads(proc.stdout)["findings"]
    assert {f["code"] for f in findings} >= {"CU301", "CU202"}
    for f in findings:
        assert not f["message"].startswith(f["path"]), f
    text = _cuticle("lint", cwd=ws).stdout
    for line in text.splitlines()[:-1]:
        assert line.count("MEMORY.md:") + line.count("USER.md:") + line.count("memory/") <= 1, line


def test_a_file_too_large_to_check_is_reported_once_with_its_size(ws: Path):
    from tiers.fsutil import MAX_FILE_BYTES

    (ws / "memory" / "huge.md").write_text("- x\n" * (MAX_FILE_BYTES // 4 + 1), encoding="utf-8")
    proc = _cuticle("lint", cwd=ws)
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if "CU002" in ln)
    assert line.startswith("memory/huge.md:1:1: CU002 [error]")
    assert f"over the {MAX_FILE_BYTES}-byte limit" in line and line.count("huge.md") == 1


@pytest.mark.parametrize(("argv", "what"), [(["classify"], "not classified"), (["stamp"], "stamps not checked")],
                         ids=["classify", "stamp"])
def test_a_file_too_large_to_read_is_named_and_the_others_still_checked(ws: Path, argv: list[str], what: str):
    from tiers.fsutil import MAX_FILE_BYTES

    (ws / "memory" / "huge.md").write_text("- x\n" * (MAX_FILE_BYTES // 4 + 1), encoding="utf-8")
    proc = _cuticle(*argv, cwd=ws)
    assert proc.returncode == 2
    assert f"memory/huge.md: {what}: {(ws / 'memory' / 'huge.md').stat().st_size} bytes is over" in proc.stderr
    assert proc.stderr.count("huge.md") == 1
    if argv == ["classify"]:
        assert "USER.md:4" in proc.stdout and "huge.md" not in proc.stdout


def test_a_blocked_write_names_the_line_once(ws: Path):
    """The reason the model reads: `MEMORY.md:N: CU301 …`, not `MEMORY.md:N: CU301 MEMORY.md:1:9: …`."""
    memory = ws / "MEMORY.md"
    text = memory.read_text(encoding="utf-8") + "- token ghp_" + "a1B2c3D4e5" * 4 + "\n"
    n = text.count("\n")
    payload = {"session_id": "s", "cwd": str(ws), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(memory), "content": text}}
    proc = _cuticle("hook", "claude", "--no-server", cwd=ws, stdin=json.dumps(payload))
    reason = json.loads(json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecisionReason"])
    message = reason["message"] if "message" in reason else reason["errors"][0]["message"]
    assert message.startswith(f"MEMORY.md:{n}: CU301 ") and message.count("MEMORY.md") == 1, message


@pytest.mark.parametrize(("argv", "summary"), [
    (["classify"], "memory lines:"), (["stamp"], "stamps,"), (["gc", "--dry-run"], "line(s) from"),
], ids=["classify", "stamp", "gc"])
def test_quiet_drops_the_summary_line_of_every_listing(ws: Path, argv: list[str], summary: str):
    loud = _cuticle(*argv, cwd=ws)
    quiet = _cuticle(*argv, "--quiet", cwd=ws)
    assert summary in loud.stdout + loud.stderr
    assert summary not in quiet.stdout + quiet.stderr
    assert quiet.returncode == loud.returncode == 0


def test_a_long_import_shows_progress_on_a_terminal_and_erases_it(ws: Path):
    export = [{"id": "i1", "type": "relational", "claim": "Boss values directness", "confidence": 0.8,
               "tags": ["boss"], "created_at": "2026-11-01T00:00:00Z"}]
    (ws / "export.json").write_text(json.dumps(export), encoding="utf-8")
    code = (
        "import sys, time\n"
        "import gate.commands._common as common\n"
        "import personality.ops as ops\n"
        "common.PROGRESS_DELAY = 0.05\n"
        "real = ops.import_json\n"
        "ops.import_json = lambda *a, **k: (time.sleep(0.6), real(*a, **k))[1]\n"
        "from gate.cli import main\n"
        "sys.exit(main(['import', 'export.json']))\n"
    )
    out = _run_in_pty(code, ws)
    assert "importing 1 record(s) of export.json" in out
    assert "\r\x1b[K" in out
    assert out.rindex("importing 1 record(s)") < out.index("Imported")
