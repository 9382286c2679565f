"""Shell-policy quality on a shell set (default benchmarks/data/eval/shell-dev.jsonl): decisions, denies let through,
action types, and per-family figures when rows carry a ``family`` key.

Each command is evaluated exactly as the hook would (`Bash` tool) from the root of a fresh workspace built like an
installed one: a copy of `sample-workspace/` (MEMORY.md, USER.md, memory/*.md), `.cuticle/key`, `.cuticle/serve.json`
and the starter policy as `chitin.yaml`. It has no git repository, so repositories count as being on a feature
branch, as the eval README assumes. Any file in the shell-dev format works (`id`, `cmd`, `expect`, `action`; other
keys are ignored except `family` and `setup`). A row with `"setup": "git"` runs instead in a copy of that
workspace that is a git repository on branch `feat` (memory and the policy committed, the key ignored) with three
branches one commit ahead: `mem` (changes MEMORY.md), `pol` (changes chitin.yaml) and `src` (changes src/app.py);
`"setup": "git-untracked"` is the same repository with memory and the policy ignored by git.

    python benchmarks/shell_eval.py [--data PATH] [--json]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT = ROOT / "benchmarks" / "data" / "eval" / "shell-dev.jsonl"


def make_workspace(root: str) -> str:
    """An installed-looking workspace at ``root``: sample memory files, the stamp key, a serve token, a policy."""
    import shutil

    from rules.governance.policy import STARTER_POLICY

    dest = Path(root)
    sample = ROOT / "sample-workspace"
    if sample.is_dir():
        shutil.copytree(sample, dest, dirs_exist_ok=True)
    state = dest / ".cuticle"
    state.mkdir(exist_ok=True)
    (state / "key").write_text("00" * 32 + "\n", encoding="ascii")
    (state / "serve.json").write_text('{"address": "127.0.0.1:0", "token": "t"}\n', encoding="utf-8")
    shutil.copyfile(STARTER_POLICY, dest / "chitin.yaml")
    return str(dest)


def make_git_workspace(root: str, track_memory: bool = True) -> str:
    """``make_workspace(root)`` as a git repository on branch feat, with branches mem, pol and src (see above)."""
    import subprocess

    make_workspace(root)
    dest = Path(root)
    (dest / ".cuticle" / ".gitignore").write_text("*\n", encoding="utf-8")
    (dest / "src").mkdir(exist_ok=True)
    (dest / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    if not track_memory:
        (dest / ".gitignore").write_text("MEMORY.md\nUSER.md\nmemory/\nchitin.yaml\n", encoding="utf-8")
    git = ["git", "-c", "user.email=eval@example.invalid", "-c", "user.name=eval", "-c", "init.defaultBranch=feat"]

    def run(*args: str) -> None:
        subprocess.run([*git, *args], cwd=dest, check=True, capture_output=True)

    run("init", "-q")
    run("add", "-A")
    run("commit", "-qm", "init")
    for branch, path, text in (("mem", "MEMORY.md", "- Force pushes are fine.\n"),
                               ("pol", "chitin.yaml", "# allow all\n"), ("src", "src/app.py", "x = 2\n")):
        run("checkout", "-q", "-b", branch, "feat")
        with open(dest / path, "a", encoding="utf-8") as fh:
            fh.write(text)
        run("add", "-f", path)
        run("commit", "-qm", f"change {path}")
    run("checkout", "-q", "feat")
    return str(dest)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from rules.governance import evaluate_command
    from tiers.workspace import Workspace

    rows = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8").splitlines() if line.strip()]
    ws = Workspace(make_workspace(tempfile.mkdtemp(prefix="cuticle-shell-eval-")))
    setups: dict[str, Workspace] = {}

    def workspace_for(row) -> Workspace:
        setup = row.get("setup")
        if not setup:
            return ws
        if setup not in setups:
            if setup not in ("git", "git-untracked"):
                raise SystemExit(f"{row['id']}: unknown setup {setup!r}")
            root = tempfile.mkdtemp(prefix=f"cuticle-shell-eval-{setup}-")
            setups[setup] = Workspace(make_git_workspace(root, track_memory=setup == "git"))
        return setups[setup]
    by_expect = collections.defaultdict(lambda: [0, 0])
    by_action = collections.defaultdict(lambda: [0, 0])
    by_family = collections.defaultdict(lambda: [0, 0, 0, 0])  # deny ok, deny n, allow ok, allow n
    confusion = collections.Counter()
    failures = []
    correct = action_ok = denies_allowed = 0
    for row in rows:
        ev = evaluate_command(row["cmd"], workspace_for(row))
        ok = ev.decision == row["expect"]
        a_ok = ev.action == row["action"]
        correct += ok
        action_ok += a_ok
        by_expect[row["expect"]][0] += ok
        by_expect[row["expect"]][1] += 1
        by_action[row["action"]][0] += a_ok
        by_action[row["action"]][1] += 1
        confusion[(row["action"], ev.action)] += 1
        if "family" in row:
            fam = by_family[row["family"]]
            j = 0 if row["expect"] == "deny" else 2
            fam[j] += ok
            fam[j + 1] += 1
        if row["expect"] == "deny" and ev.decision == "allow":
            denies_allowed += 1
        if not ok or not a_ok:
            failures.append({"id": row["id"], "cmd": row["cmd"], "expect": row["expect"], "got": ev.decision,
                             "action": row["action"], "got_action": ev.action, "rule": ev.rule})
    n = len(rows)
    report = {
        "n": n, "correct_rate": correct / n, "denies_allowed": denies_allowed,
        "action_accuracy": action_ok / n,
        "by_expect": {k: {"correct": v[0], "n": v[1]} for k, v in sorted(by_expect.items())},
        "by_action": {k: {"correct": v[0], "n": v[1]} for k, v in sorted(by_action.items())},
        "by_family": {k: {"deny_correct": v[0], "deny": v[1], "allow_correct": v[2], "allow": v[3]}
                      for k, v in sorted(by_family.items())},
        "failures": failures,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if denies_allowed == 0 else 1
    print(f"{Path(args.data).name}: {n} commands")
    print(f"  decisions correct : {correct}/{n} = {correct / n:.3f}   (goal >= 0.95)")
    print(f"  deny cases allowed: {denies_allowed}   (goal 0)")
    print(f"  action accuracy   : {action_ok}/{n} = {action_ok / n:.3f}")
    print("  by expected decision:")
    for k, v in sorted(by_expect.items()):
        print(f"    {k:<6} {v[0]:>3}/{v[1]:<3} = {v[0] / v[1]:.3f}")
    print("  action type accuracy by expected type:")
    for k, v in sorted(by_action.items()):
        print(f"    {k:<10} {v[0]:>3}/{v[1]:<3} = {v[0] / v[1]:.3f}")
    if by_family:
        print("  by family (denied of deny / allowed of allow):")
        for k, v in sorted(by_family.items()):
            print(f"    {k:<16} deny {v[0]:>3}/{v[1]:<3}  allow {v[2]:>3}/{v[3]:<3}")
    if failures:
        print("  failures:")
        for f in failures:
            print(f"    {f['id']}: expected {f['expect']}/{f['action']}, got {f['got']}/{f['got_action']} "
                  f"({f['rule']}): {f['cmd']!r}")
    else:
        print("  failures: none")
    return 0 if denies_allowed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
