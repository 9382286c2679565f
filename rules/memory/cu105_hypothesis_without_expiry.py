"""CU105 hypothesis-without-expiry: a HYPOTHESIS stamp with no `~expires` session.

## What it does
Reports stamped HYPOTHESIS lines (`<!--cu:H…-->`) that carry no expiry.

## Why is this bad
Hypotheses live N sessions (default 3). One without an expiry is never garbage-collected and quietly becomes
permanent memory.

## Example
```markdown
- The flaky test is probably a race. <!--cu:Habcde@3#mmmmmm-->
```
Use instead: re-stamp it through cuticle, which sets `~expires` from `[tiers] ttl`.

## Fix safety
No fix: re-stamping needs the workspace key and the session counter (`cuticle stamp`).
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule


@rule("CU105", "hypothesis-without-expiry", "HYPOTHESIS stamp has no expiry", Severity.WARNING, inputs=file_only)
def check(ctx):
    from tiers.model import Tier

    for line in ctx.stamp_lines:  # only a line holding '<!--' can carry a stamp
        st = line.stamp
        if st is not None and st.tier is Tier.HYPOTHESIS and st.expires is None and st.state is None:
            yield Problem(f"{ctx.path}:{line.number}: HYPOTHESIS without an expiry is never collected; re-stamp it "
                          f"with `cuticle stamp` so it expires after the configured number of sessions",
                          line.number, len(line.content) + 1)
