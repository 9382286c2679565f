"""Agreement with the Chitin governance vectors: equivalence classes, six action types, upstream decisions.

Reads benchmarks/data/vectors/chitin-governance.jsonl (derived from the upstream test suite) and reports, per kind, how
many rows cuticle agrees with, listing every difference. Differences that are deliberate (cuticle's action types
follow eval/README.md; upstream's known bypasses are closed) are labelled with the reason.

    python benchmarks/vectors_report.py [--data PATH] [--verbose]
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
DEFAULT = ROOT / "benchmarks" / "data" / "vectors" / "chitin-governance.jsonl"

#: upstream six-type classifications cuticle changes on purpose (eval/README.md, "action")
DELIBERATE_BASH = {
    ("git", "dangerous"): "any git operation is `git`; force pushes and protected branches are denied by invariants",
    ("write", "dangerous"): "only recursive deletes are `dangerous`; `rm file` is a write",
    ("read", "exec"): "commands with no side effects (cat, ls, grep, find) are `read`",
    ("write", "exec"): "commands that create or change files (mkdir, cp, mv, chmod +x) are `write`",
    ("write", "net"): "a local copy (rsync or scp with no host) is a `write`; only a transfer to another host is `net`",
}
#: upstream 42-type vocabulary -> six types, where the mapping is meaningful
UPSTREAM_TYPE = {"file.recursive_delete": "dangerous", "file.read": "read", "file.write": "write",
                 "file.delete": "write", "http.request": "net", "infra.destroy": "dangerous"}


#: why cuticle allows what the upstream starter policy denied
DELIBERATE_ALLOW = {
    "no-gov-self-mod-via-shell": "these paths are Chitin's own state (.chitin/, .hermes/ plugins); cuticle guards its "
                                 "own (.cuticle/, chitin.yaml, host hook settings), and the same shapes aimed at those "
                                 "are denied (tests/rules/governance)",
    "bounds:undetermined": "upstream fails closed because its diff-size bound cannot run outside a git checkout; "
                           "cuticle has no diff-size bounds",
    "no-protected-push": "bare pushes: upstream denies whenever it cannot resolve the branch; cuticle reads .git/HEAD "
                         "of the effective repository (main -> denied, feature branch or no repository -> allowed)",
    "no-commit-to-protected": "same as bare pushes: the branch is read from .git/HEAD (here: no repository)",
    "no-destructive-rm": "text is not execution: `echo rm -rf /` only prints",
}


def upstream_six(t: str) -> str | None:
    if t in UPSTREAM_TYPE:
        return UPSTREAM_TYPE[t]
    if t.startswith("git."):
        return "git"
    if t.startswith("github."):
        return "net"
    return None  # shell.exec / unknown: a catch-all, not comparable


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT))
    ap.add_argument("--verbose", action="store_true", help="list every disagreement, not only a sample")
    args = ap.parse_args(argv)

    from rules.governance.analyze import analyze_command
    from rules.governance.evaluate import evaluate_command, tool_kind
    from rules.governance.paths import Env
    from rules.model import ToolCall
    from tiers.workspace import Workspace

    rows = [json.loads(x) for x in Path(args.data).read_text(encoding="utf-8").splitlines() if x.strip()]
    root = tempfile.mkdtemp(prefix="cuticle-vectors-")
    ws = Workspace(root)
    env = Env.build(root)

    def digests(cmd):
        return [s.canonical.digest for s in analyze_command(cmd, env).segments]

    # (a) equivalence classes
    eq = [r for r in rows if r["kind"] == "digest_equality"]
    eq_ok = [r for r in eq if (digests(r["a"]) == digests(r["b"])) == r["expect_equal"]]
    print(f"digest_equality: {len(eq_ok)}/{len(eq)} agree")
    for r in eq:
        mark = "ok " if r in eq_ok else "DIFF"
        rel = "==" if r["expect_equal"] else "!="
        print(f"  {mark} {r['a']!r} {rel} {r['b']!r}")

    # (b) tool names -> six types
    kind_to_type = {"write": "write", "patch": "write", "read": "read", "net": "net", "exec": "exec"}
    tools = [r for r in rows if r["kind"] == "six_type_tool"]
    t_ok = 0
    t_diff = []
    for r in tools:
        got = kind_to_type.get(tool_kind(ToolCall(tool=r["tool"], kind="")), "shell")
        if got == r["expected"]:
            t_ok += 1
        else:
            t_diff.append((r["tool"], r["expected"], got))
    print(f"\nsix_type_tool: {t_ok}/{len(tools)} agree")
    for tool, exp, got in t_diff:
        print(f"  DIFF {tool}: upstream {exp}, cuticle {got}")

    # (c) shell commands -> six types
    bash = [r for r in rows if r["kind"] == "six_type_bash"]
    b_ok = 0
    deliberate = collections.Counter()
    other = []
    for r in bash:
        got = evaluate_command(r["command"], ws).action
        if got == r["expected"]:
            b_ok += 1
            continue
        why = DELIBERATE_BASH.get((got, r["expected"]))
        if why:
            deliberate[why] += 1
            print(f"  deliberate: {r['command']!r}: upstream {r['expected']}, cuticle {got}")
        else:
            other.append((r["command"], r["expected"], got))
    print(f"six_type_bash: {b_ok}/{len(bash)} agree; {sum(deliberate.values())} deliberate differences, "
          f"{len(other)} other")
    for why, n in deliberate.items():
        print(f"  {n:>2} x {why}")
    for cmd, exp, got in other:
        print(f"  DIFF {cmd!r}: upstream {exp}, cuticle {got}")

    # (d) upstream test strings: action types where comparable, and starter-policy decisions
    vecs = [r for r in rows if r["kind"] == "test_vector"]
    comparable = agree_type = 0
    type_diff = []
    dec_agree = 0
    stricter = collections.defaultdict(list)  # upstream allowed, cuticle denies: cuticle rule -> cmds
    looser = collections.defaultdict(list)  # upstream denied, cuticle allows: upstream rule -> cmds
    for r in vecs:
        ev = evaluate_command(r["cmd"], ws)
        up = upstream_six(r["gov_normalize_terminal"].get("type", ""))
        if up is not None:
            comparable += 1
            if up == ev.action:
                agree_type += 1
            else:
                type_diff.append((r["cmd"], r["gov_normalize_terminal"]["type"], ev.action))
        spd = r.get("starter_policy_decision") or {}
        up_allowed = bool(spd.get("allowed"))
        if up_allowed == (ev.decision == "allow"):
            dec_agree += 1
        elif up_allowed:
            stricter[ev.rule].append(r["cmd"])
        else:
            looser[spd.get("rule_id", "?")].append((r["cmd"], ev.rule))
    print(f"\ntest_vector action types (where upstream's type maps to one of the six): {agree_type}/{comparable} "
          f"agree ({len(vecs) - comparable} rows are upstream shell.exec/unknown catch-alls, not comparable)")
    for cmd, up, got in type_diff[: None if args.verbose else 25]:
        print(f"  DIFF {cmd!r}: upstream {up}, cuticle {got}")
    if not args.verbose and len(type_diff) > 25:
        print(f"  … {len(type_diff) - 25} more (--verbose)")
    print(f"\ntest_vector decisions vs the upstream starter policy: {dec_agree}/{len(vecs)} agree")
    print(f"  cuticle denies, upstream allowed ({sum(map(len, stricter.values()))}; upstream bypasses closed):")
    for rule, cmds in sorted(stricter.items(), key=lambda kv: -len(kv[1])):
        sample = cmds if args.verbose else cmds[:4]
        print(f"    {rule} ({len(cmds)}): " + "; ".join(repr(c) for c in sample) + (" …" if len(sample) < len(cmds)
                                                                                      else ""))
    print(f"  cuticle allows, upstream denied ({sum(map(len, looser.values()))}):")
    for rule, items in sorted(looser.items(), key=lambda kv: -len(kv[1])):
        sample = items if args.verbose else items[:4]
        print(f"    upstream {rule} ({len(items)}): " + "; ".join(f"{c!r}" for c, _ in sample) +
              (" …" if len(sample) < len(items) else ""))
        print(f"      why: {DELIBERATE_ALLOW.get(rule, 'not deliberate: a gap to look at')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
