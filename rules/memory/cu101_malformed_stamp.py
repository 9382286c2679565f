"""CU101 malformed-stamp: a trailing `<!--cu:…-->` stamp that does not parse.

## What it does
Finds memory lines whose trailing stamp comment starts like a cuticle stamp (`<!--cu:`) but does not follow the
stamp grammar (tier letter, id, `@session`, optional expiry/state/scope, `#mac`).

## Why is this bad
A broken stamp carries no tier: the gate cannot tell a user directive from a guess, GC cannot expire it, and an
agent may have hand-written it to look authoritative.

## Example
```markdown
- Deploys happen on Tuesdays. <!--cu:Q12345@3#abcdef-->
```
Use instead: let cuticle stamp the line (`cuticle stamp --fix`, or write it through the gate).

## Fix safety
Unsafe: the fix removes the broken comment, leaving the line unstamped (it is then classified afresh). It is
unsafe because the line loses whatever the stamp was meant to say.
"""

from __future__ import annotations

import regex

from rules.cache import file_only
from rules.model import Applicability, Edit, Fix, Problem, Severity, rule

_BROKEN = regex.compile(r"[ \t]*<!--[ \t]*cu:[^\n]*?(?:-->|$)[ \t]*$")


@rule("CU101", "malformed-stamp", "Stamp comment does not parse", Severity.ERROR, fix=Applicability.UNSAFE,
      inputs=file_only)
def check(ctx):
    for line in ctx.stamp_lines:  # only a line holding '<!--' can carry a stamp
        err = line.stamp_error
        if not err:
            continue
        m = _BROKEN.search(line.text)
        col = (m.start() + 1 + len(m.group(0)) - len(m.group(0).lstrip())) if m else 1
        fix = None
        if m:
            fix = Fix("remove the malformed stamp", (Edit(line.number, line.text[:m.start()], line.text),),
                      Applicability.UNSAFE)
        yield Problem(f"{ctx.path}:{line.number}: {err}; re-stamp the line with `cuticle stamp` or remove the "
                      f"broken comment", line.number, col, fix=fix)
