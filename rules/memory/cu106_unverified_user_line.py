"""CU106 unverified-user-line: a line in `USER.md` that is not a user DIRECTIVE or DECISION.

## What it does
In `USER.md` (option `files`), reports memory lines whose stamp tier is not DIRECTIVE or DECISION, and
unstamped lines that the classifier does not read as DIRECTIVE or DECISION (no user marker such as
`User said:` / `Пользователь сказал:`).

## Why is this bad
`USER.md` is what the agent believes the user said about themselves. A guess stored there is treated as the
user's word in every session. The gate refuses such writes; this catches hand edits and old files.

## Example
```markdown
- The user probably prefers tabs.
```
Use instead: keep the guess in `MEMORY.md`, or record the user's own words: `- User said: I prefer tabs.`

## Fix safety
No fix: moving a line between files is a judgement call.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule


@rule("CU106", "unverified-user-line", "USER.md line is not a user directive or decision", Severity.WARNING,
      options={"files": ["USER.md"]}, inputs=file_only)
def check(ctx):
    from tiers.workspace import glob_match

    if not glob_match(ctx.path, tuple(ctx.options["files"])):
        return
    from tiers.classify import classify
    from tiers.model import Tier

    allowed = (Tier.DIRECTIVE, Tier.DECISION)
    for line in ctx.memory_lines:
        if not line.body.strip():
            continue
        if line.stamp is not None:
            tier, how = line.stamp.tier, "stamped"
        elif line.stamp_error:
            continue  # CU101 reports it
        else:
            tier, how = classify(line.content).tier, "reads as"
        if tier in allowed:
            continue
        yield Problem(f"{ctx.path}:{line.number}: line {how} {tier.name}, but {ctx.name} holds only what the user "
                      f"said; move it to MEMORY.md, or record the user's own words ('User said: …')", line.number)
