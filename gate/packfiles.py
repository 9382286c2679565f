"""File-tool writes to the hosts' agent, command and skill files (``.claude/skills/``, ``.claude/agents/``,
``.github/agents/``…, and the same under the user's home, ``~/.claude/agents/``…, ``tiers.hostfiles``): allowed when the file declares to the host exactly what it declared
before (hooks, tool permissions, MCP servers, commands run on load: ``tiers.hostfiles.controls``); refused when the
write adds, changes or removes any of it. The text a write would produce is computed as the host's tool would
(edits and patches applied to the file on disk); a move carries the source's text to its destination."""

from __future__ import annotations

import os

from tiers.errors import ParseError


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            return fh.read()
    except (OSError, ValueError):
        return ""


def _results(op, base: str) -> list[tuple[str, str]]:
    """(path, text after the call) for each file the op leaves behind or removes ("" for a removed file)."""
    from .edits import apply_edits
    from .patch import added_text, apply_hunks

    full = os.path.normpath(os.path.join(base, os.path.expanduser(op.path)))
    old = _read(full)
    if op.kind == "write":
        return [(op.path, op.content or "")]
    if op.kind == "edit":
        try:
            return [(op.path, apply_edits(old, op.edits, path=op.path))]
        except ParseError:  # the host's tool fails too; judge the new pieces as if they were added
            return [(op.path, old + "\n" + "\n".join(e.new for e in op.edits))]
    if op.kind == "delete":
        return [(op.path, "")]
    if op.kind == "move" and op.move_to:
        return [(op.path, ""), (op.move_to, old)]
    patch = op.patch
    if op.kind == "patch" and patch is not None:
        if patch.kind == "add":
            return [(patch.path, added_text(patch))]
        if patch.kind == "delete":
            return [(patch.path, "")]
        try:
            text = apply_hunks(old, patch.hunks, path=patch.path)
        except ParseError:
            text = old + "\n" + "\n".join(line for h in patch.hunks for line in h.new_lines)
        if patch.move_to:
            return [(patch.path, ""), (patch.move_to, text)]
        return [(patch.path, text)]
    return []


def pack_refusals(req, ws) -> list[dict]:
    """Refusals for the ops of ``req`` that change what a host's agent, command or skill file declares."""
    from tiers.hostfiles import changed_controls, is_pack_path

    base = req.cwd or str(ws.root)
    out: list[dict] = []
    for op in req.ops:
        patch = getattr(op, "patch", None)
        named = [op.path, op.move_to, getattr(patch, "path", None), getattr(patch, "move_to", None)]
        if not any(_pack_rels(p, base, ws, is_pack_path) for p in named if isinstance(p, str) and p):
            continue  # the usual case: no agent, command or skill file (nothing read from disk)
        for path, new in _results(op, base):
            for candidate, rel in _pack_rels(path, base, ws, is_pack_path):
                changed = changed_controls(_read(candidate), new, rel)
                if not changed:
                    break
                out.append({"kind": "cuticle.block/v1", "reason": "host-controls", "file": rel,
                            "message": f"{rel} is a host's agent, command or skill file, and this write changes what "
                                       f"it declares to the host ({_short(changed)}); hooks, tool permissions, MCP "
                                       "servers and commands run on load are the user's to set",
                            "resolve": "write the file without hooks, allowed-tools, permissionMode, mcpServers or "
                                       "inline !`command` lines (instructions, descriptions and a tools list are "
                                       "fine), or ask the user to add them"})
                break
    return out


def _pack_rels(path: str, base: str, ws, is_pack_path) -> list[tuple[str, str]]:
    """(absolute path, workspace-relative path or ``~/…``) of ``path`` as written and with its directory's links
    resolved, for those that are agent, command or skill files of the workspace or of the user's home."""
    try:
        full = os.path.normpath(os.path.join(base, os.path.expanduser(path)))
        real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    except (OSError, ValueError, TypeError):
        return []
    from tiers.hostfiles import home_display, is_home_pack_path

    out = []
    for candidate in dict.fromkeys((full, real)):
        try:
            rel = os.path.relpath(candidate, ws.root).replace(os.sep, "/")
        except ValueError:
            continue
        if rel != ".." and not rel.startswith("../") and is_pack_path(rel):
            out.append((candidate, rel))
            continue
        home = home_display(candidate)  # the same files under the user's home (~/.claude/agents/…)
        if home is not None and is_home_pack_path(home):
            out.append((candidate, home))
    return out


def _short(items: list[str]) -> str:
    text = "; ".join(items)
    return text if len(text) <= 120 else text[:117] + "..."
