"""CU202 duplicate-line: the same memory line appears more than once in a file.

## What it does
Compares memory lines by their normalized content (stamp and list/checkbox markup removed, case and
whitespace folded) and reports every repeat after the first.

## Why is this bad
Memory files are loaded into the context every session: a repeated line costs tokens each time and, after
edits, the copies drift apart into near-contradictions.

## Example
```markdown
- Staging runs on port 8080.
- Staging runs on port 8080.
```

## Fix safety
Safe: the later copy is deleted when it carries no stronger stamp than the first (the first copy keeps its
stamp, position and wording). When the later copy has a higher tier than the first, the fix is unsafe.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Applicability, Edit, Fix, Problem, Severity, rule


def _rank(line) -> int:
    return line.stamp.tier.rank if line.stamp is not None else -1


@rule("CU202", "duplicate-line", "Exact duplicate memory line", Severity.WARNING, fix=Applicability.SAFE,
      inputs=file_only)
def check(ctx):
    first: dict[str, object] = {}
    for line, key in zip(ctx.memory_lines, ctx.memory_keys):  # normalized_content of each line, once per file
        if len(key) < 3:
            continue
        prev = first.get(key)
        if prev is None:
            first[key] = line
            continue
        safe = _rank(line) <= _rank(prev)
        fix = Fix(f"delete the repeat of line {prev.number}", (Edit(line.number, None, line.text),),
                  Applicability.SAFE if safe else Applicability.UNSAFE)
        yield Problem(f"{ctx.path}:{line.number}: duplicate of line {prev.number}; delete this copy",
                      line.number, fix=fix)
