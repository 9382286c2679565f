"""CU402 daily-note-name: a daily note under `memory/` that is not named `YYYY-MM-DD.md`.

## What it does
For files directly under `memory/` whose name contains a date, checks the name is `YYYY-MM-DD.md` (or
`YYYY-MM-DD-slug.md`, as OpenClaw's session-memory hook writes) with a real calendar date. Topic files
without a date (`memory/projects.md`) are fine.

## Why is this bad
Hosts find the daily notes of today and yesterday by name. `memory/28-11-2026.md` or `memory/2026-11-5.md`
is never loaded as a daily note, and date sorting breaks.

## Example
`memory/2026_11_28.md`, `memory/20261128.md`, `memory/2026-02-30.md`. Use instead: `memory/2026-11-28.md`.

## Fix safety
No fix: renaming a file is left to you (`git mv`).
"""

from __future__ import annotations

import datetime as dt

import regex

from rules.cache import file_only
from rules.model import Problem, Severity, rule

_GOOD = regex.compile(r"(\d{4})-(\d{2})-(\d{2})(?:-[\w-]+)?")
_DATEISH = regex.compile(r"(?<!\d)(?:\d{4}[-_. ]?\d{1,2}[-_. ]?\d{1,2}|\d{1,2}[-_. ]\d{1,2}[-_. ]\d{2,4})(?!\d)")


def _valid(y: str, m: str, d: str) -> bool:
    try:
        dt.date(int(y), int(m), int(d))
    except ValueError:
        return False
    return True


@rule("CU402", "daily-note-name", "Daily note not named memory/YYYY-MM-DD.md", Severity.WARNING,
      options={"dir": "memory"}, inputs=file_only)
def check(ctx):
    folder = ctx.options["dir"].strip("/")
    parts = ctx.path.split("/")
    if len(parts) != 2 or parts[0] != folder or not parts[1].endswith(".md"):
        return
    stem = parts[1][:-3]
    m = _GOOD.fullmatch(stem)
    if m:
        if not _valid(*m.groups()):
            yield Problem(f"{ctx.path}:1: {parts[1]} is not a real date; name daily notes {folder}/YYYY-MM-DD.md", 1)
        return
    if _DATEISH.search(stem):
        yield Problem(f"{ctx.path}:1: daily note named {parts[1]!r}; hosts load daily notes named "
                      f"{folder}/YYYY-MM-DD.md: rename it (`git mv`)", 1)
