"""Files a host's instruction file imports into the model's memory (``@path`` lines), found without a parser.

Claude Code reads ``@path/to/file`` in ``CLAUDE.md`` (and the files it imports, up to five hops) as "load that
file here"; Gemini CLI does the same in ``GEMINI.md``. An imported file reaches the model exactly as the memory
file does, so cuticle treats it as a memory file (``Workspace.is_memory_file``). A mention inside a code span or
a fenced block is no import (the hosts skip those too); an e-mail address is no import (the ``@`` follows a word).
Only files inside the workspace count; the result is remembered by the identity (size, mtime, inode) of every file
it read, checked again on each use.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .lazy import LazyRe

#: the instruction files whose ``@`` lines the hosts follow (when they are memory files of the workspace)
IMPORTERS: tuple[str, ...] = ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", "GEMINI.md", "AGENTS.md")
MAX_HOPS = 5
_IMPORT = LazyRe(r"(?<![\w`@])@((?:~/|\.{1,2}/|/)?[\w.\-]+(?:/[\w.\-]+)*)")
_FENCE = LazyRe(r"^[ \t]{0,3}(?:`{3,}|~{3,})")
_CODE_SPAN = LazyRe(r"`+[^`]*`+")

_MEMO: dict[tuple, tuple[frozenset[str], tuple]] = {}


def imports_in(text: str) -> list[str]:
    """The ``@path`` operands of ``text`` outside fenced blocks and code spans, in order."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or "@" not in line:
            continue
        for m in _IMPORT.finditer(_CODE_SPAN.sub(" ", line)):
            target = m.group(1).rstrip(".")
            if "/" in target or "." in target:  # a path, not a handle ("@alice")
                out.append(target)
    return out


def _identity(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def imported_by(root: Path, starts: list[str]) -> frozenset[str]:
    """Paths relative to ``root`` imported, directly or through other imports, by the files ``starts`` (relative
    to ``root``: the importers that are memory files)."""
    ids = tuple((rel, _identity(root / rel)) for rel in starts)
    if not any(i is not None for _, i in ids):
        return frozenset()
    key = (str(root), ids)
    hit = _MEMO.get(key)
    if hit is not None and all(_identity(root / rel) == i for rel, i in hit[1]):
        return hit[0]
    found: set[str] = set()
    frontier = [rel for rel, i in ids if i is not None]
    seen = set(frontier)
    for _ in range(MAX_HOPS):
        nxt = []
        for rel in frontier:
            try:
                text = (root / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            base = (root / rel).parent
            for target in imports_in(text):
                full = Path(os.path.expanduser(target)) if target.startswith("~/") else base / target
                try:
                    imported = Path(os.path.normpath(full)).relative_to(root).as_posix()
                except ValueError:
                    continue  # outside the workspace: not this workspace's file
                if imported.startswith(".cuticle/") or imported in seen:
                    continue
                seen.add(imported)
                found.add(imported)
                nxt.append(imported)
        frontier = nxt
        if not frontier:
            break
    if len(_MEMO) > 64:
        _MEMO.clear()
    result = frozenset(found)
    _MEMO[key] = (result, tuple((rel, _identity(root / rel)) for rel in sorted(found)))  # re-checked on each use
    return result
