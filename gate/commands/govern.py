"""`cuticle evaluate`, `cuticle validate` and `cuticle canon`: the governance layer from the command line.

`evaluate` explains the decision on a tool call without running anything (exit 0 allow, 1 deny, 2 invalid
policy); `validate` checks a policy file (exit 0 valid, 2 invalid, one `file:line: message` per problem);
`canon` prints the segments of a shell command with their canonical forms and digests.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from ._common import add_json, add_workspace, open_workspace, print_json


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    if name == "evaluate":
        parser.add_argument("-t", "--tool", default="Bash",
                            help="the host's tool name: Bash, run_shell_command, exec, Write, apply_patch… "
                                 "(default Bash)")
        parser.add_argument("-c", "--command", dest="shell_command", default=None,
                            help="the shell command (or patch text)")
        parser.add_argument("-p", "--path", action="append", default=[], metavar="PATH",
                            help="target path of a file tool (repeatable)")
        parser.add_argument("--url", default=None, help="URL of a web-fetch tool")
        parser.add_argument("--cwd", default="", help="working directory of the call (default: workspace root)")
        parser.add_argument("--policy", default=None, metavar="FILE", help="policy file (default: the workspace's "
                            "chitin.yaml or [policy] path, else the starter policy)")
        parser.add_argument("--log", action="store_true", help="also append the decision to .cuticle/events.jsonl")
        add_workspace(parser)
        add_json(parser)
    elif name == "validate":
        parser.add_argument("file", nargs="?", default=None, metavar="FILE",
                            help="policy file (default: the workspace's policy)")
        add_workspace(parser)
        add_json(parser)
    elif name == "canon":
        parser.add_argument("shell_command", metavar="COMMAND", help="a shell command line")
        add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.command == "evaluate":
        return _evaluate(args)
    if args.command == "validate":
        return _validate(args)
    return _canon(args)


def _evaluate(args: argparse.Namespace) -> int:
    from rules.governance.evaluate import evaluate_call, log_decision, tool_kind
    from rules.model import ToolCall
    from tiers.errors import UsageError

    ws = open_workspace(args)
    arguments: dict = {}
    if args.url:
        arguments["url"] = args.url
    command = args.shell_command
    probe = ToolCall(tool=args.tool, kind="", command=command, paths=tuple(args.path), arguments=arguments)
    kind = tool_kind(probe)
    if kind == "patch" and command:
        arguments["input"] = command
    if kind == "shell" and command is None:
        raise UsageError("evaluate: a shell tool needs -c COMMAND")
    call = ToolCall(tool=args.tool, kind="", command=command if kind == "shell" else None,
                    paths=tuple(args.path), host="cli", cwd=args.cwd, arguments=arguments)
    ev = evaluate_call(call, ws, policy_path=args.policy)
    from tiers.record import replace

    from rules.plugins import overruled
    from tiers.secrets import mask_secrets

    # other plugins' cuticle_tool_call_verdict votes (deny wins) see the call with its kind, as the gate sends it
    ev = overruled(ev, replace(call, kind=kind), ws, mask_secrets)
    if args.log:
        log_decision(ws, ev, host="cli")
    if args.json:
        print_json(ev.to_json())
    else:
        out = sys.stdout
        out.write(f"Tool:     {ev.tool}\n")
        out.write(f"Action:   {ev.action}\n")
        out.write(f"Decision: {ev.decision.upper()}" + (" (monitor)" if ev.mode == "monitor" else "") + "\n")
        out.write(f"Rule:     {ev.rule}\n")
        out.write(f"Reason:   {ev.reason}\n")
        out.write(f"Policy:   {ev.policy}\n")
        if ev.segments:
            out.write("Segments:\n")
            for i, seg in enumerate(ev.segments, 1):
                via = f"  (via {seg['via']})" if seg.get("via") else ""
                op = f"{seg['op']} " if seg.get("op") else ""
                out.write(f"  {i}. {op}{seg['canonical']}  [{seg['action']}] {seg['digest']}{via}\n")
        extra = [f for f in ev.findings if f.rule != ev.rule]
        if extra:
            out.write("Also:\n")
            for f in extra:
                out.write(f"  - {f.rule} ({f.mode}): {f.reason}\n")
    return 0 if ev.decision == "allow" else 1


def _validate(args: argparse.Namespace) -> int:
    from rules.governance.policy import STARTER_POLICY, policy_location, validate_policy_file

    path = args.file
    if path is None:
        ws = open_workspace(args)
        loc = policy_location(ws)
        path = str(loc) if loc is not None else None
        if path is None:
            sys.stderr.write(f"cuticle: no policy file in {ws.root}; the starter policy ({STARTER_POLICY.name}) "
                             "applies\n")
            path = str(STARTER_POLICY)
    errors = validate_policy_file(path)
    if args.json:
        items = []
        for e in errors:
            head, _, msg = e.partition(": ")
            line = head.rsplit(":", 1)[-1]
            items.append({"line": int(line) if line.isdigit() else None, "message": msg, "text": e})
        print_json({"file": path, "valid": not errors, "errors": items})
    else:
        if errors:
            for e in errors:
                sys.stdout.write(e + "\n")
        else:
            sys.stdout.write(f"{path}: valid policy\n")
    return 0 if not errors else 2


def _canon(args: argparse.Namespace) -> int:
    import tempfile

    from rules.governance.analyze import analyze_command
    from rules.governance.paths import Env
    from tiers.secrets import mask_json, mask_secrets, secret_values

    env = Env.build(tempfile.gettempdir())
    analysis = analyze_command(args.shell_command, env)
    # a secret of the command is hidden in every form derived from it (a parser may split `-pSECRET`)
    raw = [s.to_json() for s in analysis.segments]
    payload = "".join(f"{s['op']}:{s['sha256']}|" for s in raw)  # the digests as computed, whatever masking does
    segments = mask_json(raw, secret_values(args.shell_command))
    pipeline = hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
    if args.json:
        print_json({"command": mask_secrets(args.shell_command), "action": analysis.action, "digest": pipeline[:16],
                    "sha256": pipeline, "segments": segments})
        return 0
    out = sys.stdout
    for i, s in enumerate(segments, 1):
        via = f"  (via {s['via']})" if s.get("via") else ""
        op = f"{s['op']!r:6} " if s.get("op") else " " * 7
        out.write(f"{i:>2}. {op}{s['canonical']}\n      {s['action']:<9} {s['digest']}{via}\n")
    out.write(f"pipeline {pipeline[:16]}  action {analysis.action}\n")
    return 0
