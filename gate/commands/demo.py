"""`cuticle demo`: the 60-second tour — every surface of cuticle run for real on a copy of a workspace.

The tour never touches the workspace it is given: it copies it to a temporary directory (or ``--keep DIR``) and
drives the real `cuticle` command there, exactly as a host would. Each step checks its own outcome, so the tour is
also a smoke test: exit 0 when every step behaved as described, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tiers.record import dataclass

SESSION = "demo-session-1"


def _say(text: str) -> None:
    """The tour's narration; ``--quiet`` keeps only failed checks and the verdict."""
    from ._common import QUIET

    if not QUIET:
        print(text)


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("--workspace", "-w", metavar="DIR", default=None,
                        help="workspace to copy and tour (default: ./sample-workspace, else the one shipped with "
                             "cuticle's source)")
    parser.add_argument("--keep", metavar="DIR", default=None,
                        help="make the copy here and keep it afterwards (must not exist yet)")


#: besides the memory files, what the tour copies of a workspace (the personality files and the agent's rules)
EXTRA_FILES = ("AGENTS.md", "INSIGHTS.md", "PERSONALITY.md")


@dataclass
class _Tour:
    root: Path
    failures: int = 0

    def cuticle(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        # the tour's copy is thrown away at the end: no `cuticle serve` is started for it
        return subprocess.run([sys.executable, "-m", "gate", *args], input=stdin, capture_output=True,
                              text=True, cwd=self.root, timeout=120, env={**os.environ, "CUTICLE_SERVER": "off"})

    def hook(self, event: str, **payload) -> subprocess.CompletedProcess[str]:
        body = {"session_id": SESSION, "cwd": str(self.root), "hook_event_name": event, **payload}
        return self.cuticle("hook", "claude", stdin=json.dumps(body))

    def step(self, title: str) -> None:
        _say(f"\n== {title}")

    def show(self, text: str, limit: int = 14) -> None:
        lines = text.rstrip("\n").splitlines()
        for line in lines[:limit]:
            _say(f"   {line}")
        if len(lines) > limit:
            _say(f"   … ({len(lines) - limit} more lines)")

    def expect(self, ok: bool, what: str) -> None:
        from ._common import QUIET, paint, use_color

        color = use_color(sys.stdout)
        if not ok:
            print(f"   {paint('FAIL', 'red', color)} {what}")
        elif not QUIET:
            print(f"   {paint('ok ', 'green', color)} {what}")
        if not ok:
            self.failures += 1


def _decision(proc: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """The Claude Code dialect: exit 2 or permissionDecision deny blocks; the reason is what the model reads."""
    if proc.returncode == 2:
        return "deny", proc.stderr.strip()
    try:
        out = json.loads(proc.stdout or "{}")
    except json.JSONDecodeError:
        return "allow", ""
    spec = out.get("hookSpecificOutput") or {}
    return spec.get("permissionDecision", "allow"), spec.get("permissionDecisionReason", "")


def _tour(t: _Tour) -> None:
    memory = t.root / "MEMORY.md"

    t.step("1. Tiers: every memory line of the workspace, classified (cuticle classify)")
    proc = t.cuticle("classify", "--workspace", ".")
    t.show(proc.stdout, limit=12)
    t.expect(proc.returncode == 0, "lines classified into tiers")

    t.step("2. Install the hook for Claude Code (cuticle init claude)")
    proc = t.cuticle("init", "claude", ".")
    t.show(proc.stdout or proc.stderr, limit=6)
    t.expect(proc.returncode == 0 and (t.root / ".cuticle").is_dir(), ".cuticle/ created, hook installed")

    t.step("3. Session starts; the user says something (UserPromptSubmit records it for provenance)")
    t.hook("SessionStart", source="startup")
    prompt = "From now on use pnpm for every install, never npm."
    proc = t.hook("UserPromptSubmit", prompt=prompt)
    _say(f"   user: {prompt}")
    t.expect(proc.returncode == 0, "prompt recorded")

    t.step("4. The agent files the user's words in MEMORY.md: new line classified, stamped inline")
    old = memory.read_text(encoding="utf-8") if memory.exists() else ""
    directive = "- Use pnpm for every install, never npm."
    guess_line = "- The staging deploys are probably slow because of cold caches."
    new = _append(old, [directive, guess_line])
    proc = t.hook("PreToolUse", tool_name="Write", tool_input={"file_path": str(memory), "content": new})
    decision, _ = _decision(proc)
    stamped, hedge = "", ""
    try:
        updated = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["content"]
        stamped = next((ln for ln in updated.splitlines() if "pnpm for every install" in ln), "")
        hedge = next((ln for ln in updated.splitlines() if "cold caches" in ln), "")
    except (KeyError, TypeError, ValueError, StopIteration):
        updated = ""
    _say(f"   {stamped}\n   {hedge}")
    # the stamped input goes back without a permission decision: Claude's own permission flow runs (or asks for)
    # the write, and the stamped content is what gets written
    t.expect(decision != "deny" and "<!--cu:D" in stamped,
             "the user's own words became a verified DIRECTIVE (stamp tier D)")
    t.expect("<!--cu:H" in hedge, "the agent's guess became a HYPOTHESIS with an expiry (stamp tier H)")
    if updated:
        memory.write_text(updated, encoding="utf-8")  # the host writes the rewritten content

    t.step("5. The agent's guess contradicts a user directive: blocked, with a reason the model can act on")
    guess = "- npm is fine for installs in this repo."
    current = memory.read_text(encoding="utf-8") if memory.exists() else ""
    last = current.rstrip("\n").rsplit("\n", 1)[-1] + "\n"
    proc = t.hook("PreToolUse", tool_name="Edit", tool_input={
        "file_path": str(memory), "old_string": last, "new_string": last + guess + "\n"})
    decision, reason = _decision(proc)
    _say(f"   attempted: {guess}")
    t.show(reason, limit=8)
    t.expect(decision == "deny" and "pnpm" in reason, "write blocked, the directive named in the reason")

    t.step("6. The shell bypass (echo … >> MEMORY.md) is closed by the governance layer")
    cmd = "echo '- npm is fine after all' >> MEMORY.md"
    proc = t.hook("PreToolUse", tool_name="Bash", tool_input={"command": cmd})
    decision, reason = _decision(proc)
    _say(f"   $ {cmd}")
    t.show(reason, limit=4)
    t.expect(decision == "deny", "shell write to a memory file denied")
    proc = t.cuticle("evaluate", "-t", "Bash", "-c", "git status && git push --force origin main", "--json")
    _say("   $ cuticle evaluate -t Bash -c 'git status && git push --force origin main'")
    t.show(proc.stdout, limit=4)
    t.expect(proc.returncode == 1, "a chain is judged by its most dangerous segment")

    t.step("7. Lint the workspace like code (cuticle lint)")
    proc = t.cuticle("lint", "--workspace", ".")
    t.show(proc.stdout + proc.stderr, limit=12)
    t.expect(proc.returncode in (0, 1), "lint ran (exit 0 clean/warnings, 1 error findings)")

    t.step("8. Personality: insights in, a token-budgeted PERSONALITY.md out (contribute, render)")
    t.cuticle("contribute", "--workspace", ".", "--type", "behavioral", "--claim",
              "Lead with the command, then one line of why.", "--confidence", "0.85", "--tags", "style")
    t.cuticle("contribute", "--workspace", ".", "--type", "trigger", "--condition",
              "the user asks to deploy on a Friday", "--claim", "remind him of the release-day rule",
              "--confidence", "0.8")
    proc = t.cuticle("render", "--workspace", ".")
    personality = t.root / "PERSONALITY.md"
    if personality.exists():
        t.show(personality.read_text(encoding="utf-8"), limit=12)
    t.expect(proc.returncode == 0 and personality.exists(), "PERSONALITY.md rendered")

    t.step("9. Sessions and GC: hypotheses expire after 3 sessions and go to a recoverable archive")
    t.hook("SessionEnd", reason="exit")
    for n in range(2, 6):
        body = {"session_id": f"demo-session-{n}", "cwd": str(t.root)}
        t.cuticle("hook", "claude", stdin=json.dumps({**body, "hook_event_name": "SessionStart"}))
        t.cuticle("hook", "claude", stdin=json.dumps({**body, "hook_event_name": "SessionEnd"}))
    from tiers.fsutil import read_jsonl

    archived = read_jsonl(t.root / ".cuticle" / "gc-archive.jsonl")
    for entry in archived[:4]:
        _say(f"   archived {entry.get('id')}: {entry.get('file')}:{entry.get('line')} {entry.get('reason')}")
    t.expect(bool(archived), "expired hypotheses left memory for the archive in .cuticle/")
    if archived:
        proc = t.cuticle("gc", "--workspace", ".", "--restore", str(archived[0]["id"]))
        t.show(proc.stdout + proc.stderr, limit=3)
        t.expect(proc.returncode == 0, "cuticle gc --restore put the line back")

def _append(text: str, lines: list[str]) -> str:
    """``text`` with ``lines`` added at its end (a new MEMORY.md gets a heading first)."""
    if not text.strip():
        text = "# MEMORY.md\n"
    if not text.endswith("\n"):
        text += "\n"
    return text + "\n" + "\n".join(lines) + "\n"


def _source(arg: str | None) -> Path:
    """The workspace to tour: the one named, else ./sample-workspace, else the sample next to cuticle's source."""
    from tiers.errors import UsageError

    if arg is not None:
        source = Path(arg)
        if not source.is_dir():
            raise UsageError(f"{arg}: not a directory")
        return source.resolve()
    for candidate in (Path("sample-workspace"), Path(__file__).resolve().parents[2] / "sample-workspace"):
        if (candidate / "MEMORY.md").is_file():
            return candidate.resolve()
    raise UsageError("no sample-workspace/ here or beside cuticle's source; name one with --workspace DIR")


def _memory_globs(source: Path) -> tuple[str, ...]:
    """The memory globs of ``source``'s `.cuticle/config.toml` (read directly: opening a Workspace would write its
    config cache into the original), else the defaults."""
    import tomllib

    from tiers.workspace import DEFAULT_MEMORY_GLOBS

    try:
        with open(source / ".cuticle" / "config.toml", "rb") as fh:
            globs = tomllib.load(fh).get("memory", {}).get("globs")
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        return DEFAULT_MEMORY_GLOBS
    if isinstance(globs, list) and globs and all(isinstance(g, str) and g for g in globs):
        return tuple(globs)
    return DEFAULT_MEMORY_GLOBS


def _copy(source: Path, dest: Path) -> list[str]:
    """Copy the memory files of ``source`` (and EXTRA_FILES) to ``dest``, contents only; return what was copied.

    Only reads ``source``: its `.cuticle/` state, hooks, git data and everything else stay where they are, so
    touring a real workspace costs a copy of its memory, not of the project. A symlink is not followed (it may
    lead out of the workspace)."""
    rels = set()
    for glob in _memory_globs(source):
        for p in source.glob(glob):
            rel = p.relative_to(source)
            if ".cuticle" in rel.parts or p.is_symlink() or not p.is_file():
                continue
            if any(parent.is_symlink() for parent in p.parents if parent != source and source in parent.parents):
                continue
            rels.add(rel.as_posix())
    rels |= {name for name in EXTRA_FILES if (source / name).is_file() and not (source / name).is_symlink()}
    from tiers.errors import UsageError

    dest.mkdir(parents=True)
    for rel in sorted(rels):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(source / rel, target)
        except OSError as exc:
            raise UsageError(f"{rel}: cannot copy it for the tour ({exc.strerror or exc})") from None
    return sorted(rels)


def run(args: argparse.Namespace) -> int:
    from tiers.errors import UsageError

    source = _source(args.workspace)
    if args.keep:
        root = Path(args.keep)
        if root.exists() or root.is_symlink():
            raise UsageError(f"{args.keep}: already exists; --keep needs a new directory")
        if root.resolve().is_relative_to(source):
            raise UsageError(f"{args.keep}: inside the workspace being toured; choose a directory outside it")
        cleanup = None
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="cuticle-demo-")
        root = Path(cleanup.name) / (source.name or "workspace")
    try:
        copied = _copy(source, root)
        tour = _Tour(root=root.resolve())
        shown = os.path.relpath(source) if source.is_relative_to(Path.cwd().resolve()) else str(source)
        _say(f"cuticle tour on a copy of {shown}/ ({len(copied)} file(s); the original is not touched)")
        if "MEMORY.md" not in copied:
            _say("   (it has no MEMORY.md: the tour starts one in the copy)")
        _tour(tour)
    finally:
        if cleanup is not None:
            cleanup.cleanup()
        elif root.exists():
            _say(f"\nthe toured copy is kept in {args.keep}")
    from ._common import QUIET

    verdict = "all steps behaved as described" if tour.failures == 0 else f"{tour.failures} step(s) failed"
    print(verdict if QUIET else f"\n{verdict}")
    return 0 if tour.failures == 0 else 1
