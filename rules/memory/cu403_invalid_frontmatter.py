"""CU403 invalid-frontmatter: YAML frontmatter at the top of a memory file that does not parse.

## What it does
When a file starts with a `---` line, checks that the frontmatter is closed (`---` or `...`) and is a YAML
mapping that parses.

## Why is this bad
Hosts strip frontmatter before loading memory (Claude Code) or read metadata from it; broken frontmatter is
either loaded as text (wasting context) or makes the host skip the file's metadata.

## Example
```markdown
---
name: [unclosed
---
- User said: reply in English.
```

## Fix safety
No fix: the intended YAML is unknown.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Problem, Severity, rule


@rule("CU403", "invalid-frontmatter", "Frontmatter is not a valid YAML mapping", Severity.ERROR, inputs=file_only)
def check(ctx):
    lines = ctx.lines
    if not lines or lines[0].text.lstrip("\ufeff").strip() != "---":
        return
    end = next((i for i in range(1, len(lines)) if lines[i].text.strip() in ("---", "...")), None)
    if end is None:
        yield Problem(f"{ctx.path}:1: frontmatter opened with '---' is never closed; add a closing '---' line", 1)
        return
    import yaml

    body = "\n".join(line.text for line in lines[1:end])
    try:
        value = yaml.safe_load(body) if body.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        number = 2 + mark.line if mark is not None else 1
        col = 1 + mark.column if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        yield Problem(f"{ctx.path}:{number}: invalid YAML in frontmatter: {problem}; fix the YAML between the "
                      f"'---' lines", number, col)
        return
    if not isinstance(value, dict):
        yield Problem(f"{ctx.path}:2: frontmatter is a {type(value).__name__}, not a mapping of keys to values; "
                      f"write 'key: value' lines", 2)
