"""CU401 host-capacity: a memory file is over (or near) what its host loads at session start.

## What it does
- Claude Code loads only the first 200 lines (or 25 KB) of its `MEMORY.md`; YAML frontmatter and block HTML
  comments are not counted. Lines past the limit are reported (error); a file within 10% of it gets a warning.
- OpenClaw truncates each bootstrap file (`MEMORY.md`, `memory.md`, `USER.md`) at
  `agents.defaults.bootstrapMaxChars` (20,000 characters by default): over is an error, near is a warning.

Options: `claude_lines` (200), `claude_bytes` (25600), `claude_files` (`["MEMORY.md"]`), `openclaw_chars`
(20000), `openclaw_files` (`["MEMORY.md", "memory.md", "USER.md"]`), `near` (0.9).

## Why is this bad
Memory past the cap is silently not loaded: the agent forgets it without anyone noticing, while the file
looks complete to a human.

## Example
A `MEMORY.md` of 240 list items: items 201–240 never reach the model in Claude Code.

## Fix safety
No fix: move detail into topic files (`memory/*.md`) and keep `MEMORY.md` an index.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule
from tiers.workspace import glob_match


def _counted(lines):
    """Lines Claude Code counts: frontmatter and block HTML comments are stripped before measuring."""
    out = []
    in_comment = False
    for line in lines:
        if line.kind == "frontmatter":
            continue
        s = line.text.strip()
        if in_comment:
            if "-->" in s:
                in_comment = False
            continue
        if line.kind == "html" and s.startswith("<!--"):
            if "-->" not in s:
                in_comment = True
            continue
        out.append(line)
    return out


@rule("CU401", "host-capacity", "Memory file over or near a host's load limit", Severity.ERROR,
      options={"claude_lines": 200, "claude_bytes": 25600, "claude_files": ["MEMORY.md"], "openclaw_chars": 20000,
               "openclaw_files": ["MEMORY.md", "memory.md", "USER.md"], "near": 0.9}, inputs=file_only)
def check(ctx):
    o = ctx.options
    near = float(o["near"])
    if glob_match(ctx.path, tuple(o["claude_files"])):
        counted = _counted(ctx.lines)
        limit = int(o["claude_lines"])
        if len(counted) > limit:
            first = counted[limit]
            yield Problem(f"{ctx.path}:{first.number}: Claude Code loads only the first {limit} lines of "
                          f"{ctx.name}; {len(counted) - limit} line(s) from here on are never loaded: move detail into "
                          f"topic files under memory/ and keep {ctx.name} an index", first.number)
        elif len(counted) >= near * limit:
            yield Problem(f"{ctx.path}:{counted[-1].number}: {len(counted)} of Claude Code's {limit}-line budget "
                          f"for {ctx.name} used; lines past {limit} will not load: trim or split it soon",
                          counted[-1].number, severity=Severity.WARNING)
        size = sum(len(line.text.encode("utf-8")) + len(line.eol) for line in counted)
        cap = int(o["claude_bytes"])
        if size > cap:
            yield Problem(f"{ctx.path}:1: {size} bytes is over Claude Code's {cap}-byte load limit for {ctx.name}; "
                          f"the end of the file is never loaded: split it", 1)
    if glob_match(ctx.path, tuple(o["openclaw_files"])):
        cap = int(o["openclaw_chars"])
        total = 0
        over_line = None
        for line in ctx.lines:
            total += len(line.text) + len(line.eol)
            if over_line is None and total > cap:
                over_line = line.number
        if over_line is not None:
            yield Problem(f"{ctx.path}:{over_line}: {total} characters is over OpenClaw's bootstrap cap of {cap} "
                          f"(agents.defaults.bootstrapMaxChars); text from this line on is truncated: split the file",
                          over_line)
        elif total >= near * cap:
            yield Problem(f"{ctx.path}:{len(ctx.lines)}: {total} of OpenClaw's {cap}-character bootstrap cap used; "
                          f"text past the cap is truncated: trim or split it soon", max(1, len(ctx.lines)),
                          severity=Severity.WARNING)
