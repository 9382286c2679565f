"""Rewrite a tool call's arguments so that the host writes the stamped lines itself (OpenClaw, Claude, Gemini,
Cursor). Whole-file writes get the stamped content; edits become one edit over the smallest unique run of whole
lines that covers every change; OpenClaw patches are re-rendered with the stamped lines."""

from __future__ import annotations

import json

from .payload import _CONTENT_KEYS, _NEW_KEYS, _OLD_KEYS

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

_EDIT_KEYS = set(_OLD_KEYS) | set(_NEW_KEYS) | {"edits", "replace_all", "replaceAll", "expected_replacements",
                                                  "allow_multiple"}


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "surrogateescape")


def line_span(old: str, new: str) -> tuple[int, int] | None:
    """(p, s): the lines of ``old`` after the first p and before the last s are replaced, as a run that occurs
    exactly once in ``old`` and is not empty. None when no such run exists (e.g. ``old`` is empty)."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    if not a:
        return None
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    s = 0
    while s < len(a) - p and s < len(b) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    flip = True
    while True:
        span = "".join(a[p:len(a) - s])
        if span and old.count(span) == 1:
            return p, s
        if p == 0 and s == 0:
            return None
        if (flip and p > 0) or s == 0:
            p -= 1
        else:
            s -= 1
        flip = not flip


def edit_pair(old: str, new: str, *, lf: bool) -> tuple[str, str] | None:
    """(old_string, new_string) that turns ``old`` into ``new`` in one unique replacement."""
    bom = "\ufeff"
    if old.startswith(bom):
        old, new = old[1:], new[1:] if new.startswith(bom) else new
    if lf:
        old, new = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    span = line_span(old, new)
    if span is None:
        return None
    p, s = span
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    return "".join(a[p:len(a) - s]), "".join(b[p:len(b) - s])


def _host(req):
    from .hosts import get

    return get(req.host)


def rewritten_args(req, plans_by_op: list[tuple[Any, list]]) -> dict | None:
    """New tool arguments with stamped lines, or None when the call cannot be rewritten safely."""
    if req.tool_kind == "write":
        op, plans = plans_by_op[0]
        plan = plans[0]
        if plan.stamped is None:
            return None
        args = dict(req.args)
        key = next((k for k in _CONTENT_KEYS if isinstance(args.get(k), str)), "content")
        args[key] = _text(plan.stamped)
        return args
    if req.tool_kind == "edit":
        op, plans = plans_by_op[0]
        plan = plans[0]
        if plan.stamped is None:
            return None
        pair = edit_pair(_text(plan.old), _text(plan.stamped), lf=_host(req).lf_edits)
        if pair is None:
            return None
        return _edit_args(req, *pair)
    if req.tool_kind == "patch" and _host(req).rewrites_patches and req.patch_key:
        return _patch_args(req, plans_by_op)
    return None


def _edit_args(req, old: str, new: str) -> dict:
    src = req.args
    edits = src.get("edits")
    parsed = json.loads(edits) if isinstance(edits, str) else edits
    sample = parsed[0] if isinstance(parsed, list) and parsed and isinstance(parsed[0], dict) else (
        parsed if isinstance(parsed, dict) else src)
    default_old, default_new = _host(req).edit_keys
    old_key = next((k for k in _OLD_KEYS if k in sample), default_old)
    new_key = next((k for k in _NEW_KEYS if k in sample), default_new)
    args = {k: v for k, v in src.items() if k not in _EDIT_KEYS}
    if edits is not None:
        one = [{old_key: old, new_key: new}]
        args["edits"] = json.dumps(one, ensure_ascii=False) if isinstance(edits, str) else one
    else:
        args[old_key] = old
        args[new_key] = new
        if "replace_all" in src:
            args["replace_all"] = False
        if "expected_replacements" in src:
            args["expected_replacements"] = 1
    return args


def _patch_args(req, plans_by_op) -> dict | None:
    from .patch import PatchOp, render_patch, replacement_hunk

    out_ops: list[PatchOp] = []
    changed = False
    for op, plans in plans_by_op:
        pop = op.patch
        stamped_plan = next((p for p in plans if p.stamped is not None and p.action == "allow"), None)
        if stamped_plan is None:
            out_ops.append(pop)
            continue
        new_text = _text(stamped_plan.stamped).replace("\r\n", "\n")
        new_lines = new_text.split("\n")
        if new_lines and new_lines[-1] == "":
            new_lines.pop()
        changed = True
        if pop.kind == "add":
            out_ops.append(PatchOp("add", pop.path, add_lines=tuple(new_lines)))
        elif pop.move_to:
            out_ops.append(PatchOp("delete", pop.path))
            out_ops.append(PatchOp("add", pop.move_to, add_lines=tuple(new_lines)))
        else:
            old_text = _text(stamped_plan.old).replace("\r\n", "\n")
            if not old_text:
                out_ops.append(PatchOp("update", pop.path, hunks=(replacement_hunk([], new_lines),)))
                continue
            pair = edit_pair(old_text, new_text, lf=True)
            if pair is None:
                return None
            o, n = pair
            out_ops.append(PatchOp("update", pop.path, hunks=(replacement_hunk(
                o.split("\n")[:-1] if o.endswith("\n") else o.split("\n"),
                n.split("\n")[:-1] if n.endswith("\n") else n.split("\n")),)))
    if not changed:
        return None
    args = dict(req.args)
    args[req.patch_key] = render_patch(out_ops)
    return args
