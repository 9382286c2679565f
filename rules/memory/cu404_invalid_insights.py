"""CU404 invalid-insights: the insights file has an entry cuticle cannot load.

## What it does
Checks `INSIGHTS.md`, the Markdown store behind `PERSONALITY.md`, entry by entry with the same parser the
personality commands use: unknown insight types, confidence outside 0..1, missing claims, a trigger without a
condition, malformed field lines, duplicate ids. Every broken entry is reported, not just the first.

## Why is this bad
A broken entry makes every personality command refuse the file (nothing is written rather than guessing), so
`PERSONALITY.md` stops being rendered at session start and the agent loses what it learned.

## Example
```markdown
## i-1
- type: behavioral
- claim: Lead with the command.
- confidence: high
```
`confidence` must be a number between 0 and 1.

## Fix safety
No automatic fix: the right value is the author's call. Edit the entry, or run `cuticle update ID --confidence 0.8`.
"""

from __future__ import annotations

import re

from rules.model import Problem, Severity, rule

_WHERE = re.compile(r"^[^:\n]*:(\d+): ")


@rule("CU404", "invalid-insights", "Insights file entry cuticle cannot load", Severity.ERROR,
      files=("INSIGHTS.md",))
def check(ctx):
    from personality import check_insights

    text = ctx.data.decode("utf-8", errors="replace")
    for problem in check_insights(text, ctx.path):
        m = _WHERE.match(problem)
        line = int(m.group(1)) if m else 1
        message = problem if problem.startswith(ctx.path) else f"{ctx.path}:{line}: {problem}"
        yield Problem(message, line)

