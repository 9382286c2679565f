"""git commands that fill, move, empty or narrow a work tree other than by switching commits:
``git worktree add/move/remove``, ``git sparse-checkout``, ``git submodule add/update/deinit/foreach`` (and
``--recurse-submodules``), ``git clone`` and the directory it fills.

The model is the one of ``worktree.py``: a command writes (or deletes) every file it puts in (or takes out of) a
work tree, and a file it writes is judged like any other write, by its path. Where git knows the files locally and
read-only they are listed (``git ls-tree`` for a new work tree, ``git ls-files`` for one that moves or goes);
where it does not (a submodule's or a clone's content comes from a remote; sparse-checkout rules are git's to
apply), every protected path in reach of the directory counts (``$(…)`` under it), or, for a sparse checkout of
this work tree, every protected path the repository tracks.
"""

from __future__ import annotations

import os
import re
import shlex

from .worktree import git_lines, git_top, unquote, update_work_tree
from .words import _opts_and_operands

#: options of ``git worktree add`` that take a value in the next word
_WORKTREE_ADD_VALUED = {"-b", "-B", "--orphan", "--reason"}
#: ``git sparse-checkout`` steps that rewrite the work tree (list and check-rules only read)
_SPARSE_WRITES = frozenset({"set", "add", "reapply", "disable", "init"})


def worktree(w, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git worktree add PATH [REV]`` checks out REV's files under PATH (``--no-checkout``/``--orphan``: none);
    ``move SRC DST`` takes SRC's files to DST; ``remove WT`` deletes WT's files. list, prune, lock, unlock and
    repair change only git's bookkeeping."""
    step, args = (rest[0], rest[1:]) if rest else ("", [])
    top = None if dynamic else git_top(repo)
    w.out.volatile = True
    w.cwd_hint = repo
    if step == "add":
        flags, ops, values = _opts_and_operands(args, _WORKTREE_ADD_VALUED)
        if not ops:
            return
        dest = w.env.norm(ops[0], repo)
        effects.append(w.write_effect(dest, "git worktree add"))
        if {"no-checkout"} & set(flags) or "orphan" in values:
            return  # an empty work tree: only its .git file is written
        rev = ops[1] if len(ops) > 1 else None
        if rev is None and not (values.get("b") or values.get("B") or "detach" in flags or "d" in flags):
            # git's convenience: a branch named after the directory, checked out when it exists
            name = ops[0].rstrip("/").rsplit("/", 1)[-1]
            rev = name if top and git_lines(top, ["rev-parse", "--verify", "--quiet", f"refs/heads/{name}"]) else None
        _fill(w, "git worktree add", dest, top, rev or "HEAD", effects)
    elif step == "move":
        _flags, ops, _values = _opts_and_operands(args, set())
        if len(ops) < 2:
            return
        src, dst = w.env.norm(ops[0], repo), w.env.norm(ops[1], repo)
        names = git_lines(src.abs or ops[0], ["ls-files"]) if src.scope != "unknown" else None
        _take(w, "git worktree move", src, names, effects)
        effects.append(w.write_effect(dst, "git worktree move"))
        for name in names or []:
            effects.append(w.write_effect(w.env.norm(name, dst.abs or ops[1]), "git worktree move"))
        # untracked files move too: every protected path they could land on under DST counts
        w.reach_check(w.env.norm(ops[1].rstrip("/") + "/$(…)", repo), "git worktree move", "writes",
                      "move the work tree to a directory outside memory and cuticle's files")
    elif step == "remove":
        _flags, ops, _values = _opts_and_operands(args, set())
        for op in ops:
            ref = w.env.norm(op, repo)
            names = git_lines(ref.abs or op, ["ls-files"]) if ref.scope != "unknown" else None
            _take(w, "git worktree remove", ref, names, effects)


def _fill(w, how: str, dest, top: str | None, rev: str, effects) -> None:
    """``how`` checks out the files of ``rev`` (from the repository at ``top``) under the new directory ``dest``:
    a write of each; when they cannot be listed, every protected path under ``dest`` counts."""
    names = None
    if dest.scope == "ws" and not w.git_moved:  # outside the workspace only what is in reach counts, as for a clone
        names = git_lines(top, ["ls-tree", "-r", "--name-only", "--full-tree", f"{rev}^{{tree}}"]) if top else None
    if names is None:
        w.reach_check(w.env.norm(dest.display.rstrip("/") + "/$(…)", None), how, "writes",
                      "name a revision git can resolve, or a directory outside memory and cuticle's files")
        return
    base = dest.abs or dest.display
    for name in names:
        effects.append(w.write_effect(w.env.norm(name, base), how))


def _take(w, how: str, ref, names: list[str] | None, effects) -> None:
    """``how`` deletes the work tree at ``ref``: each tracked file ``names`` lists, and every protected path under it
    (untracked files go too)."""
    effects.append(w.delete_effect(ref, how, recursive=False))
    base = ref.abs or ref.display
    for name in names or []:
        effects.append(w.delete_effect(w.env.norm(name, base), how, recursive=False))
    w.reach_check(w.env.norm(ref.display.rstrip("/") + "/$(…)", None), how, "deletes")


def sparse_checkout(w, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git sparse-checkout set/add/reapply/init/disable`` removes from the work tree the tracked files its rules
    leave out and writes back, from the index, those they let in: which ones is git's to compute, so every
    protected path the repository tracks counts (denied only when it tracks one)."""
    step = next((a for a in rest if not a.startswith("-")), "")
    if step not in _SPARSE_WRITES:
        return
    update_work_tree(w, f"git sparse-checkout {step}", repo, None, effects,
                     why="the files its rules take out of the work tree or put back are git's to compute",
                     dynamic=dynamic)


def submodule_paths(top: str | None) -> list[str] | None:
    """The paths (relative to ``top``) of the submodules the index records (gitlinks), or None when git cannot
    list them."""
    if top is None:
        return None
    lines = git_lines(top, ["ls-files", "--stage"])
    if lines is None:
        return None
    out = []
    for line in lines:
        mode, _, path = line.partition("\t")
        if mode.startswith("160000 ") and path:
            out.append(unquote(path.encode("utf-8", "surrogateescape")))
    return out


def submodule_writes(w, how: str, repo, effects, only: list[str] | None = None, delete: bool = False) -> None:
    """``how`` checks out (``delete``: empties) the work trees of the repository's submodules (or of those under the
    pathspecs ``only``): their content comes from other repositories, so every protected path under each counts;
    when the submodules cannot be listed, every protected path of the work tree does."""
    top = git_top(repo)
    w.out.volatile = True
    w.cwd_hint = repo
    paths = submodule_paths(top)
    if paths is None:
        if top is not None or os.environ.get("GIT_DIR"):
            w.reach_check(w.env.norm("$(…)", top or repo), how, "deletes" if delete else "writes")
        return
    if only:
        specs = [os.path.normpath(os.path.join(os.path.relpath(repo, top) if repo else ".", s)) for s in only]
        paths = [p for p in paths if any(s in (".", p) or p.startswith(s.rstrip("/") + "/") for s in specs)]
    for path in paths:
        ref = w.env.norm(path, top)
        if delete:
            effects.append(w.delete_effect(ref, how, recursive=False))
        else:
            effects.append(w.write_effect(ref, how))
        w.reach_check(w.env.norm(path + "/$(…)", top), how, "deletes" if delete else "writes",
                      "leave submodules under memory or cuticle's files alone")


#: ``git submodule`` options that take a value in the next word
_SUBMODULE_VALUED = {"-b", "--branch", "--name", "--reference", "--depth", "-j", "--jobs", "--filter"}


def submodule(w, rest: list[str], repo, effects) -> None:
    """``git submodule add URL [PATH]`` fills PATH from a remote; ``update`` checks out each submodule's commit
    (``--init`` first); ``deinit`` empties them; ``foreach CMD`` runs CMD in each (walked as the command line it is,
    with ``$toplevel``, ``$sm_path``, ``$name``, ``$displaypath`` and ``$sha1`` set as git sets them). status, sync,
    init, summary, set-url, set-branch and absorbgitdirs leave the work trees as they are."""
    # git submodule [--quiet] [--cached] STEP …
    i = 0
    while i < len(rest) and rest[i].startswith("-"):
        i += 1
    step, args = (rest[i], rest[i + 1:]) if i < len(rest) else ("status", [])
    flags, ops, _values = _opts_and_operands(args, _SUBMODULE_VALUED)
    if step == "add":
        if not ops:
            return
        dest = ops[1] if len(ops) > 1 else humanish(ops[0])
        run_ext(w, ops[0], repo, "git submodule add")
        ref = w.env.norm(dest, repo)
        effects.append(w.write_effect(ref, "git submodule add"))
        w.reach_check(w.env.norm(dest.rstrip("/") + "/$(…)", repo), "git submodule add", "fills",
                      "add the submodule at a path outside memory and cuticle's files")
    elif step == "update":
        submodule_writes(w, "git submodule update", repo, effects, only=ops)
    elif step == "deinit":
        submodule_writes(w, "git submodule deinit", repo, effects, only=None if "all" in flags else ops or ["."],
                         delete=True)
    elif step == "foreach":
        command = " ".join(ops)
        top = git_top(repo)
        paths = submodule_paths(top)
        w.out.volatile = True
        if not paths:
            if paths is None and top is not None:
                w.run_text(command, None, "git submodule foreach", ";")  # submodules not known: anywhere
            return
        saved = dict(w.vars)
        try:
            for path in paths:
                where = os.path.join(top, path)
                w.vars.update({"toplevel": top, "sm_path": path, "path": path, "name": path, "displaypath": path,
                               "sha1": "0" * 40})
                w.run_text(command, where, "git submodule foreach", ";")
        finally:
            w.vars.clear()
            w.vars.update(saved)


def humanish(url: str) -> str:
    """The directory ``git clone URL`` (and ``git submodule add URL``) makes when none is named: the last part of
    the URL, without ``.git`` or ``.bundle``."""
    s = url.rstrip("/")
    if s.endswith("/.git"):
        s = s[:-5].rstrip("/")
    s = re.split(r"[/:]", s)[-1] if s else s
    for suffix in (".git", ".bundle"):
        if s.endswith(suffix):
            s = s[: -len(suffix)]
    return s or "."


def ext_command(url: str) -> str | None:
    """The command line git runs for an ``ext::`` URL (``ext::sh -c echo% hi``: words split at spaces, ``% `` a
    space inside one, ``%%`` a percent, ``%s``/``%S`` the service), shell-quoted; None for any other URL."""
    if not url.lower().startswith("ext::"):
        return None
    words, cur, i, body = [], [], 0, url[5:]
    while i < len(body):
        c = body[i]
        if c == "%" and i + 1 < len(body):
            n = body[i + 1]
            cur.append({" ": " ", "%": "%", "s": "upload-pack", "S": "git-upload-pack"}.get(n, ""))
            i += 2
            continue
        if c == " ":
            if cur:
                words.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        words.append("".join(cur))
    return shlex.join(words) if words else None


def run_ext(w, url: str, cwd, how: str) -> None:
    """An ``ext::`` URL runs its command when git talks to that remote: walked as the command line it is."""
    command = ext_command(url)
    if command:
        w.run_text(command, cwd, f"{how} ext::", ";")


def clone(w, rest: list[str], cwd, effects, setting) -> None:
    """``git clone URL [DIR]`` fills DIR (by default named after the URL) with files from the remote: every
    protected path under it counts. Its ``-c``/``--config`` settings are written into the new repository and used by
    the checkout, ``--template`` copies hooks the checkout runs, ``-u``/``--upload-pack`` and an ``ext::`` URL run
    commands: each is judged as what it is (``setting`` judges one git setting)."""
    from ..invariants import no_governance_self_modification

    flags, ops, values = _opts_and_operands(rest, {"-b", "--branch", "-o", "--origin", "--depth", "-c", "--config",
                                                   "--reference", "--reference-if-able", "--template", "-j", "--jobs",
                                                   "-u", "--upload-pack", "--separate-git-dir", "--shallow-since",
                                                   "--shallow-exclude", "--filter", "--server-option",
                                                   "--bundle-uri", "--ref-format"})
    for i, a in enumerate(rest):
        pair = None
        if a in ("-c", "--config") and i + 1 < len(rest):
            pair = rest[i + 1]
        elif a.startswith("--config="):
            pair = a.split("=", 1)[1]
        elif a.startswith("-c") and len(a) > 2 and not a.startswith("--"):
            pair = a[2:]
        if pair:
            key, _, value = pair.partition("=")
            setting(w, key, value, cwd)
    if values.get("template"):
        w.report(no_governance_self_modification.unseen_programs("git clone --template", "hooks copied from the "
                                                                 "template directory", segment=w.at))
    command = values.get("upload-pack") or values.get("u")
    if command:
        w.run_text(command, cwd, "git clone --upload-pack", ";")
    if not ops:
        return
    run_ext(w, ops[0], cwd, "git clone")
    dest = (ops[1] if len(ops) > 1 else humanish(ops[0])).rstrip("/") or "."
    w.cwd_hint = cwd
    ref = w.env.norm(dest, cwd)
    effects.append(w.write_effect(ref, "git clone"))
    if not w.env.protected(ref):
        w.reach_check(w.env.norm(dest + "/$(…)", cwd), "git clone", "fills",
                      "clone into a directory outside memory and cuticle's files")
    if values.get("separate-git-dir"):
        w.reach_check(w.env.norm(values["separate-git-dir"].rstrip("/") + "/$(…)", cwd), "git clone", "writes")


def recurses(rest: list[str], settings: dict[str, str]) -> bool:
    """``--recurse-submodules`` (or ``-c submodule.recurse=true``) on a command that updates the work tree: the
    submodules' work trees are updated too."""
    on = settings.get("submodule.recurse", "").lower() in ("true", "yes", "on", "1")
    for a in rest:
        if a == "--":
            break
        if a == "--recurse-submodules" or a.startswith("--recurse-submodules="):
            on = not a.endswith(("=no", "=false"))
        elif a == "--no-recurse-submodules":
            on = False
    return on


def work_tree_setting(w, value: str, cwd, how: str) -> None:
    """``core.worktree`` points the repository's work tree at ``value``: every later checkout writes there, so a
    directory holding protected paths is judged as written now."""
    base = value.rstrip("/") or "/"
    w.reach_check(w.env.norm(base + "/$(…)", cwd), how, "points git's checkouts at",
                  "set core.worktree to a directory outside memory and cuticle's files")

