"""Score the injection rules (CU302 poisoning, CU303 invisible, CU304 bidi) on the injection dev set.

Each line goes through three paths that must agree: `rules.engine.scan_new_lines` (the gate's security scan),
`lint_paths` on a file holding the line (the linter), and a real `cuticle hook claude` PreToolUse Write of the
line into MEMORY.md (in process, through `gate.handler.handle`; blocked = flagged). Prints recall and false-flag rate per language and per kind,
and lists every failure (``--quiet``: the figures only, as a blind set is measured). Usage:
python benchmarks/injection_eval.py [--quiet] [PATH.jsonl]
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.engine import lint_paths, scan_new_lines  # noqa: E402
from tiers.workspace import Workspace  # noqa: E402

CODES = {"CU302", "CU303", "CU304"}


def _install(root: Path) -> None:
    """Make ``root`` an installed workspace as `cuticle init` leaves it (a key and a config): the hook passes
    writes anywhere else through."""
    state = root / ".cuticle"
    state.mkdir()
    (state / "key").write_text(secrets.token_hex(32) + "\n", encoding="ascii")
    (state / "config.toml").write_text("", encoding="utf-8")


def _hook_blocks(root: Path, line: str) -> bool:
    """Send the line as a Claude Code PreToolUse Write of MEMORY.md through the real hook handler."""
    from gate.handler import handle

    (root / "MEMORY.md").unlink(missing_ok=True)
    payload = {"session_id": "eval", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(root / "MEMORY.md"), "content": line + "\n"}}
    reply = handle("claude", "PreToolUse", json.dumps(payload), env={}, cwd=str(root))
    return reply.exit_code == 2 or '"deny"' in reply.stdout


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", type=Path,
                    default=ROOT / "benchmarks" / "data" / "eval" / "injection-dev.jsonl")
    ap.add_argument("--quiet", action="store_true", help="figures only, no failure list")
    args = ap.parse_args(argv[1:])
    try:
        rows = [json.loads(line) for line in args.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        ap.error(f"cannot read {args.path}: {exc}")
    stats: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # (group, key) -> [hits, n]
    failures = []
    disagree = 0
    hook_disagree: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as hook_tmp:
        _install(Path(hook_tmp))
        ws = Workspace(tmp)
        for row in rows:
            gate = {f.code for f in scan_new_lines(ws, "MEMORY.md", [row["line"]])} & CODES
            (Path(tmp) / "MEMORY.md").write_text(row["line"] + "\n", encoding="utf-8")
            lint = {f.code for f in lint_paths(ws, select=sorted(CODES)).findings} & CODES
            disagree += gate != lint
            if _hook_blocks(Path(hook_tmp), row["line"]) != bool(gate):
                hook_disagree.append(row["id"])
            flagged = bool(gate)
            want = row["expect"] == "flag"
            ok = flagged == want
            for group, key in (("all", "all"), ("lang", row["lang"]), ("kind", row["kind"])):
                s = stats[(group + ":" + row["expect"], key)]
                s[0] += flagged
                s[1] += 1
            if not ok:
                failures.append((row["id"], row["expect"], row["kind"], sorted(gate), row["line"]))
    print(f"{'group':<28} {'n':>3}  {'recall':>7}  {'false-flag':>10}")
    for (group, key), (hits, n) in sorted(stats.items()):
        label = f"{group.split(':')[0]}={key}"
        if group.endswith(":flag"):
            print(f"{label:<28} {n:>3}  {hits / n:>7.3f}  {'':>10}")
        else:
            print(f"{label:<28} {n:>3}  {'':>7}  {hits / n:>10.3f}")
    print(f"\nscan_new_lines vs lint disagreements: {disagree}")
    print(f"cuticle hook claude vs scan_new_lines disagreements: {len(hook_disagree)} {' '.join(hook_disagree)}")
    print(f"failures: {len(failures)}")
    for f in [] if args.quiet else failures:
        print("  ", f[0], f[1], f[2], f[3], repr(f[4][:100]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
