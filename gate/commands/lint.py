"""`cuticle lint`, `cuticle rules`, `cuticle rule CODE`: the linter's command line over rules.engine."""

from __future__ import annotations

import argparse
import sys

from ._common import add_json, add_workspace, open_workspace, print_json


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    if name == "lint":
        parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: all memory files)")
        add_workspace(parser)
        parser.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text",
                            help="output format (default: text)")
        parser.add_argument("--fix", action="store_true", help="apply safe fixes, then lint again")
        parser.add_argument("--unsafe-fixes", action="store_true", help="with --fix, also apply unsafe fixes")
        parser.add_argument("--diff", metavar="FILE", help="lint only lines a unified diff adds ('-' reads stdin)")
        parser.add_argument("--select", action="append", default=[], metavar="RULES",
                            help="only these rules (codes, prefixes or names; comma-separated, repeatable)")
        parser.add_argument("--ignore", action="append", default=[], metavar="RULES",
                            help="skip these rules (codes, prefixes or names; comma-separated, repeatable)")
        parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with error findings")
        parser.add_argument("--no-cache", action="store_true",
                            help="neither read nor write the lint result cache (.cuticle/cache/lint.json)")
        parser.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                            help="lint in N processes (default 0: one per CPU when the files are large enough; "
                                 "1: in this process only)")
    elif name == "rules":
        add_json(parser)
    elif name == "rule":
        parser.add_argument("code", metavar="CODE", help="rule code (CU301) or name (secret-in-memory)")
        add_json(parser)


def _split(values: list[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def _read_diff(name: str) -> dict[str, set[int]]:
    """The lines a unified diff adds, per path; a text that is not a diff is a usage error (exit 2)."""
    from rules.diff import added_lines
    from tiers.errors import UsageError

    if name == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(name, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--diff {name}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    added = added_lines(text)
    if text.strip() and not added and not any(line.startswith(_DIFF_STARTS) for line in text.splitlines()):
        where = "standard input" if name == "-" else name
        raise UsageError(f"--diff: {where} is not a unified diff (no 'diff --git', '---'/'+++' or '@@' lines); "
                         "pass the output of `git diff`, e.g. `git diff --cached | cuticle lint --diff -`")
    return added


#: how a unified diff's lines start (an empty diff is fine: nothing was added)
_DIFF_STARTS = ("diff --git ", "--- ", "+++ ", "@@ ", "Binary files ", "rename from ", "deleted file mode ")


def _why_nothing(args: argparse.Namespace, ws, paths: list[str] | None) -> str:
    """Where lint looked and why it found no memory file (said instead of "All checks passed: 0 files")."""
    globs = ", ".join(ws.memory_globs)
    if args.diff:
        return f"cuticle lint: the diff adds no lines to memory files ({globs}); nothing to lint"
    if paths:
        return (f"cuticle lint: no memory files in {', '.join(paths)} (memory files are {globs} under the "
                f"workspace {ws.root}); nothing to lint")
    if args.workspace:
        found = "named by --workspace"
    elif ws.state_dir.is_dir():
        found = "the nearest directory holding .cuticle/"
    else:
        found = "the current directory: no .cuticle/ here or above"
    return (f"cuticle lint: no memory files in {ws.root} ({found}); looked for {globs}. Nothing to lint: pass "
            "--workspace DIR or files, or set [memory] globs in .cuticle/config.toml")


def _lint(args: argparse.Namespace) -> int:
    from rules.engine import lint_and_fix, lint_paths
    from rules.output import render
    from tiers.errors import UsageError

    from . import _common
    from ._common import note, progress, use_color

    ws = open_workspace(args)
    kwargs = {"select": _split(args.select), "ignore": _split(args.ignore), "jobs": args.jobs,
              "cache": not args.no_cache}
    if args.unsafe_fixes and not args.fix:
        args.fix = True
    paths = args.paths or None
    if args.diff:
        if args.fix:
            raise UsageError("--fix cannot be combined with --diff (a fix may touch lines the diff does not add)")
        only = {}
        for path, lines in _read_diff(args.diff).items():
            try:
                rel = ws.relpath(ws.root / path)
            except Exception:  # noqa: BLE001 - a path outside the workspace is simply not linted
                continue
            if ws.is_memory_file(rel) or (paths and rel in paths):
                only[rel] = lines
        kwargs["only_lines"] = only
        paths = [str(ws.root / rel) for rel in sorted(only)]
    files = paths if paths is not None else [str(p) for p in ws.memory_files()]
    with progress(f"linting {len(files)} file(s)"):
        if args.fix:
            result = lint_and_fix(ws, paths, unsafe=args.unsafe_fixes, **kwargs)
        else:
            result = lint_paths(ws, paths, **kwargs)
    for left in getattr(result, "not_fixed", ()):  # one line each, as the gate says why it refused a rewrite
        sys.stderr.write(f"cuticle lint --fix: {left.reason}; not fixed\n")
    nothing = not result.findings and result.summary()["files"] == 0
    if nothing:
        note(_why_nothing(args, ws, args.paths))
    if not (nothing and args.format == "text"):
        sys.stdout.write(render(result, args.format, summary=not _common.QUIET,
                                color=args.format == "text" and use_color(sys.stdout)))
    return 0 if args.exit_zero else result.exit_code


def _rules(args: argparse.Namespace) -> int:
    from rules.engine import iter_rules

    rules = list(iter_rules())
    if args.json:
        print_json([r.to_json() for r in rules])
        return 0
    width = max(len(r.name) for r in rules)
    for r in rules:
        fix = {"safe": "fix", "unsafe": "unsafe-fix"}.get(r.fix.value if r.fix else "", "")
        sys.stdout.write(f"{r.code}  {r.name:<{width}}  {r.severity.value:<7}  {fix:<10}  {r.summary}\n")
    return 0


def _rule(args: argparse.Namespace) -> int:
    from rules.engine import find_rule

    r = find_rule(args.code)
    if args.json:
        print_json({**r.to_json(), "docs": r.docs})
        return 0
    sys.stdout.write(f"# {r.code} {r.name}\n\n{r.summary}. Default severity: {r.severity.value}. "
                     f"Fix: {r.fix.value if r.fix else 'none'}.\n\n")
    from tiers.secrets import mask_secrets

    docs = mask_secrets(r.docs)
    first, _, rest = docs.partition("\n")
    sys.stdout.write((rest.strip() if first.startswith(r.code) else docs) + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.command == "rules":
        return _rules(args)
    if args.command == "rule":
        return _rule(args)
    return _lint(args)
