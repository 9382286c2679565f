"""CU902 unknown-suppression: a `<!-- cuticle: … -->` comment with an unknown directive or rule.

## What it does
Reports suppression comments whose directive is not one of `disable-next-line`, `disable-line`, `disable`,
`enable`, `disable-file`, or that name a rule code or name that does not exist.

## Why is this bad
A typo in a suppression silently suppresses nothing, and the finding it meant to silence keeps failing CI
(or, worse, the author thinks a rule is off when it is not).

## Example
```markdown
<!-- cuticle: disable-next-line CU999 -->
<!-- cuticle: disabel CU301 -->
```

## Fix safety
No fix.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Severity, rule


@rule("CU902", "unknown-suppression", "Suppression comment with an unknown directive or rule", Severity.WARNING,
      inputs=file_only)
def check(ctx):
    return ()  # evaluated by rules.suppress after the other rules
