"""CU901 unused-suppression: a `<!-- cuticle: disable… -->` comment that suppresses nothing.

## What it does
Reports suppression comments (next line, same line, block or whole file) whose rules found nothing on the
lines they cover. The engine evaluates this after every other rule has run.

## Why is this bad
Stale suppressions hide future problems and cost context tokens every session.

## Example
```markdown
<!-- cuticle: disable-next-line CU301 -->
- Deploys happen on Tuesdays.
```

## Fix safety
Safe: the fix deletes the comment (the whole line when the comment is alone on it). When a comment names
several rules and only some are unused, there is no fix.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Applicability, Severity, rule


@rule("CU901", "unused-suppression", "Suppression comment that suppresses nothing", Severity.WARNING,
      fix=Applicability.SAFE, inputs=file_only)
def check(ctx):
    return ()  # evaluated by rules.suppress after the other rules
