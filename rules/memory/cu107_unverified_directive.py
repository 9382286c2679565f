"""CU107 unverified-directive: a DIRECTIVE or DECISION stamped as not verified against the user's prompt.

## What it does
Reports stamped DIRECTIVE and DECISION lines whose stamp records `+u`: when the gate stamped them, the line's
words were not found in the user's prompt of that turn (an agent wrote "User said: …" on its own).

## Why is this bad
A directive binds every later session: it blocks writes that contradict it. One the agent made up can block the
user's real rule, or stand in for one the agent removed. The gate refuses to let such a line override verified
user words, but it still reads as the user's to the model.

## Example
```markdown
- User said: deploys on Fridays are fine. <!--cu:Dabcde@4+u#mmmmmm-->
```
Use instead: ask the user, and record their own words (the gate verifies them against the prompt and stamps
`+v`); or remove the line.

## Fix safety
No fix: whether the user meant it is theirs to say.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule


@rule("CU107", "unverified-directive", "DIRECTIVE/DECISION not verified against the user's prompt",
      Severity.WARNING, inputs=file_only)
def check(ctx):
    for line in ctx.stamp_lines:  # only a line holding '<!--' can carry a stamp
        st = line.stamp
        if st is not None and st.verified is False and st.state is None:
            yield Problem(f"{ctx.path}:{line.number}: {st.tier.name} was not verified against the user's prompt "
                          f"when it was written (an agent's 'User said: …'); confirm it with the user or remove it",
                          line.number, len(line.content) + 1)
