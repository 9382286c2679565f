"""`cuticle arbitrate`: decide a new memory line against the workspace's directives without writing anything.

Exit codes: 0 allow, 1 block, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse

from gate.commands._common import add_json, add_workspace, open_workspace, print_json


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    add_workspace(parser)
    add_json(parser)
    parser.add_argument("line", metavar="LINE", help="the memory line the agent wants to append")
    parser.add_argument("--file", "-f", metavar="PATH", default="MEMORY.md",
                        help="memory file the line would be appended to (default: MEMORY.md)")
    parser.add_argument("--tier", metavar="TIER", default=None,
                        help="tier of the line (D, O, C, H or a name); default: classify it")
    parser.add_argument("--session", metavar="ID", default=None,
                        help="host session id: check the line against the user's recorded prompt (provenance)")


def run(args: argparse.Namespace) -> int:
    from tiers.arbitrate import ConstraintIndex, arbitrate
    from tiers.classify import classify
    from tiers.errors import UsageError
    from tiers.model import Classification, Tier

    ws = open_workspace(args)
    rel = ws.relpath(args.file)
    line = args.line
    if "\n" in line or "\r" in line:
        raise UsageError("LINE must be a single line; arbitrate one line per call")
    if args.tier:
        try:
            tier = Tier.from_code(args.tier)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        cls = Classification(tier, 1.0, None, ("tier given on the command line",))
    elif args.session:
        from tiers.provenance import classify_with_provenance

        cls = classify_with_provenance(ws, args.session, line)
    else:
        cls = classify(line)
    # the caches of .cuticle/cache are read (a fresh process classifies no unchanged file), never written
    index = ConstraintIndex.from_workspace(ws, save=False)
    res = arbitrate(index, line, cls.tier, file=rel, scope=cls.scope, verified=cls.verified)
    out = res.to_json()
    out["classification"] = cls.to_json()
    if args.json:
        print_json(out)
    elif res.blocked:
        err = res.error
        cw = err["conflicts_with"]
        print(f"block: {cls.tier.name} line conflicts with {cw['tier']} {cw['file']}:{cw['line']}: {cw['content']}")
        print(f"  reason: {err['reason']}")
        print(f"  resolution: {err['resolution']}")
    else:
        print(f"allow: {cls.tier.name}" + (f" (supersedes {', '.join(c.id for c in res.supersedes)})"
                                            if res.supersedes else ""))
    return 1 if res.blocked else 0
