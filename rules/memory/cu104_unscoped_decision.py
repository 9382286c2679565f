"""CU104 unscoped-decision: a DECISION stamp without a scope.

## What it does
Reports stamped DECISION lines (`<!--cu:C…-->`) that carry no `|scope` part.

## Why is this bad
A DECISION is an agreed choice *with a scope* ("SQLite only for prototype A until the migration"). Without a
scope it never ends and is enforced everywhere, which makes it a directive nobody gave.

## Example
```markdown
- Decided with the user: use SQLite. <!--cu:Cabcde@3#mmmmmm-->
```
Use instead: restate the scope ("… for prototype A until the migration") and re-stamp.

## Fix safety
No fix: only the user knows the scope.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule


@rule("CU104", "unscoped-decision", "DECISION stamp has no scope", Severity.WARNING, inputs=file_only)
def check(ctx):
    from tiers.model import Tier

    for line in ctx.stamp_lines:  # only a line holding '<!--' can carry a stamp
        st = line.stamp
        if st is not None and st.tier is Tier.DECISION and not (st.scope or "").strip():
            yield Problem(f"{ctx.path}:{line.number}: DECISION without a scope never ends; add where, for what or "
                          f"until when it applies and re-stamp it, or ask the user whether it is a directive",
                          line.number, len(line.content) + 1)
