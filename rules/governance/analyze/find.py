"""``find``: the paths it lists, deletes (``-delete``) and runs commands on (``-exec``).
"""

from __future__ import annotations

from ..paths import glob_in
from .model import Effect, RANK, _names_flow

def _h_find(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """find: its -exec commands run (with {} under the start paths); -delete deletes under the start paths."""
    i = 1
    starts: list[str] = []
    while i < len(argv) and not argv[i].startswith("-") and argv[i] not in ("(", "!", ")"):
        starts.append(argv[i])
        i += 1
    if not starts:
        starts = ["."]
    expr = argv[i:]
    names = [expr[k + 1] for k, a in enumerate(expr) if a in ("-name", "-iname", "-path", "-ipath", "-wholename")
             and k + 1 < len(expr)]
    # a name or path filter narrows what is deleted (and is checked against the protected files below); a negated
    # or alternative filter (`! -name '*.pyc'`, `-name a -o -mtime +1`) does not
    filtered = bool(names) and not any(a in ("!", "-not", "-o", "-or", ",") for a in expr)
    typ = "read"
    j = 0
    while j < len(expr):
        a = expr[j]
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            k = j + 1
            sub: list[str] = []
            while k < len(expr) and expr[k] not in (";", "+", "\\;"):
                sub.append(expr[k])
                k += 1
            for start in starts:
                inner = [_find_pattern(start, names) if x == "{}" else x for x in sub]
                before = len(w.out.segments)
                w.find_exec(inner, cwd, filtered, names)
                for seg in w.out.segments[before:]:
                    if RANK[seg.type] > RANK[typ]:
                        typ = seg.type
            j = k + 1
            continue
        if a == "-delete":
            for start in starts:
                ref = w.env.norm(start, cwd)
                effects.append(w.find_delete(ref, filtered, names))
            typ = max(typ, effects[-1].type, key=RANK.__getitem__)
        if a in ("-fprint", "-fprintf", "-fls", "-fprint0") and j + 1 < len(expr):
            effects.append(w.write_effect(w.env.norm(expr[j + 1], cwd), "find -fprint"))
            if RANK[typ] < RANK["write"]:
                typ = "write"
        j += 1
    if typ == "read":
        return typ, _names_flow(_find_pattern(start, names) for start in starts)
    return typ, None


def _find_pattern(start: str, names: list[str]) -> str:
    """The path pattern a find's ``{}`` stands for: any file under ``start`` whose last name matches the -name
    filter (``$(…)`` is "any directories"), so writes through -exec reach what the filter can reach."""
    base = start.rstrip("/") or "/"
    plain = [n for n in names if "/" not in n]
    name = plain[0] if len(plain) == 1 else names[0] if len(names) == 1 else "*"
    if "/" in name:  # -path: the whole path
        return name if name.startswith(("/", "*", ".")) else base + "/" + name
    return base + "/$(find)" + ("/" + name if name != "*" else "")


def _walker_find_exec(self: Walker, inner: list[str], cwd, filtered: bool, names: list[str]) -> None:
    self._find_ctx = (filtered, names)
    try:
        self.dispatch(inner, [False] * len(inner), [None] * len(inner), cwd, "find -exec", ";", None, [])
    finally:
        self._find_ctx = None


def _walker_find_delete(self: Walker, ref: PathRef, filtered: bool, names: list[str]) -> Effect:
    """``find START … -delete`` deletes file by file. Inside the workspace, outside the allowed build and temp
    dirs, it is a write of the files it reaches: with a name or path filter those the filter matches under START
    (``find . -name '*.pyc' -delete`` reaches no protected file), without one every file under START (``find
    memory -type f -delete`` deletes memory). Anywhere else (an allowed dir, the home directory, the system) it
    sweeps the tree as ``rm -r START`` does: a recursive delete, allowed only in the allowed dirs."""
    in_ws = ref.scope == "ws" and ref.rel not in (None, "")
    allowed = in_ws and glob_in(ref.rel, self.opts.delete_allowed)
    if filtered and ref.scope == "ws" and not allowed:
        pattern = _find_pattern(ref.rel or ".", names)
        self.reach_check(self.env.norm(pattern, self.env.root), "find -delete", "deletes",
                         "narrow the -name/-path filter so that it names no memory file, cuticle's files or "
                         "credentials")
        return Effect("write", ref.display, "path")
    eff = self.delete_effect(ref, "find -delete", recursive=True)
    return eff if allowed or ref.scope != "ws" else Effect("write", ref.display, "path")
