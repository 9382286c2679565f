"""git commands that update the work tree from other commits: ``git checkout/switch BRANCH``, ``git merge REV``,
``git pull``, ``git cherry-pick REV``, ``git revert REV``, ``git rebase UPSTREAM``, ``git reset --keep/--merge REV``.

One model for all of them: such a command writes every file git would change, and the local repository says
which, read-only and bounded in time (``git diff --name-only --no-renames`` between the commits, ``git log
--name-only`` for picked commits). Each file listed is a write effect, judged like any other write. When the files
cannot be known — content fetched from a remote (``git pull``), a revision that does not resolve, a sequence
already in progress, git missing or too slow — the command counts as writing every protected path the repository
tracks (``git ls-files``): it is denied only when there is one, and the reason says what would be allowed instead.
A directory in no repository has no work tree to update.
"""

from __future__ import annotations

import os
import time

from ..invariants._targets import unknown_update

#: seconds each read-only git query may take (the hook has a budget of its own; a slow answer counts as unknown)
GIT_TIMEOUT = 2.0

#: options of the commands below that take a value in the next word (so that word is not a revision)
_VALUED = {
    "checkout": {"-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"},
    "switch": {"-c", "-C", "--create", "--force-create", "--orphan", "--conflict"},
    "merge": {"-m", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option", "--into-name", "--cleanup",
              "-S", "--gpg-sign"},
    "cherry-pick": {"-m", "--mainline", "-X", "--strategy-option", "--strategy", "--cleanup"},
    "revert": {"-m", "--mainline", "-X", "--strategy-option", "--strategy", "--cleanup"},
    "rebase": {"--onto", "-s", "--strategy", "-X", "--strategy-option", "-x", "--exec", "-C", "--whitespace",
               "--empty"},
}
#: options that continue, skip or abort a sequence already under way: what it writes is in .git's sequencer state
_IN_PROGRESS = ("continue", "skip", "abort")


def git_lines(repo: str | None, args: list[str], timeout: float = GIT_TIMEOUT) -> list[str] | None:
    """The output lines of a read-only ``git -C REPO ARGS`` (None: no git, an error or a slow answer)."""
    if timeout <= 0:
        return None
    import subprocess  # only a command that touches git's work tree runs git: the hook path does not load it

    try:
        out = subprocess.run(["git", "-c", "core.quotePath=false", "-C", repo or ".", *args], capture_output=True,
                             timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if out.returncode != 0:
        return None
    return [unquote(line) for line in out.stdout.split(b"\n") if line.strip()]


_ESCAPES = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8,
            ord("f"): 12, ord("v"): 11}


def unquote(raw: bytes) -> str:
    """A path as git prints it: a name with a quote, a backslash or a control character comes C-quoted
    (``"memory/a\\tb.md"``, octal bytes for the rest); others are as they are (``core.quotePath=false``)."""
    if not (len(raw) >= 2 and raw[:1] == b'"' and raw[-1:] == b'"'):
        return raw.decode("utf-8", "surrogateescape")
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):  # a backslash escape
            n = body[i + 1]
            digits = body[i + 1:i + 4]
            if len(digits) == 3 and all(48 <= d <= 55 for d in digits):
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(_ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def git_top(repo: str | None) -> str | None:
    """The directory holding ``.git`` at or above ``repo``."""
    d = repo
    while d and d != "/":
        if os.path.exists(d + "/.git"):
            return d
        d = d.rsplit("/", 1)[0] or "/"
    return None


def _diff(*revs: str) -> list[str]:
    """``git diff`` arguments listing the files that differ between ``revs`` (one rev: it and the work tree)."""
    return ["diff", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", *revs, "--"]


def _picked(revs: list[str]) -> list[str]:
    """``git log`` arguments listing the files the commits ``revs`` change (single commits, or ranges as
    cherry-pick reads them: a ``..`` or ``^`` makes it walk)."""
    walk = any(".." in r or r.startswith("^") for r in revs)
    return ["log", "-m", "--name-only", "--format=", "--no-renames", *([] if walk else ["--no-walk"]), *revs, "--"]


def update_work_tree(w, how: str, repo: str | None, listings: list[list[str]] | None, effects, why: str = "",
                     dynamic: bool = False) -> None:
    """``how`` updates the work tree of the repository at ``repo``: a write effect on each file the read-only
    ``listings`` name (git arguments, relative to the top of the work tree). ``listings`` None, or one that git
    cannot answer, means the files are unknown (``why`` says why): every protected path the repository tracks
    counts, and the command is denied when there is one. ``dynamic``: the repository is named by something only
    known when it runs (``--git-dir``, ``GIT_DIR=…``)."""
    w.out.volatile = True  # the answer depends on the repository's state, not only on the command's text
    w.cwd_hint = repo
    if repo is None:  # a directory only known when it runs (`cd "$D" && …`, `ssh host …`): it may be the workspace
        repo, listings = w.env.root, None
        why = "the repository is only known when it runs"
    top = None if dynamic else git_top(repo)
    if top is None and not dynamic and not os.environ.get("GIT_DIR"):
        return  # no repository here: git refuses, nothing is written
    if listings is not None and w.git_moved:
        listings = None
        why = ("an earlier git command in this command line moves HEAD or the branches, so the files cannot be "
               "listed now; run it as a command of its own")
    names: list[str] = []
    if top is not None and listings is not None:
        deadline = time.monotonic() + GIT_TIMEOUT  # one budget for all the queries of this command
        for args in listings:
            got = git_lines(top, args, deadline - time.monotonic())
            if got is None:
                names = []
                why = why or f"`git {' '.join(a for a in args if not a.startswith('--no-'))}` did not answer"
                listings = None
                break
            names.extend(got)
    if listings is not None and top is not None:
        for name in dict.fromkeys(names):
            effects.append(w.write_effect(w.env.norm(name, top), how))
        return
    tracked = tracked_protected(w.env, top) if top is not None else None
    if dynamic:
        why = "git's repository is named by --git-dir, --work-tree or GIT_DIR, so its files are not known here"
    w.report(unknown_update(w.env, how, why or "the commits it takes are not known before it runs", tracked,
                            w.env.norm(f"{(top or repo).rstrip('/')}/$(…)", None), repo, segment=w.at))


def tracked_protected(env, top: str) -> str | None:
    """The first protected path (display form) the repository at ``top`` tracks, "" when it tracks none, None when
    git cannot list them."""
    specs = env.repo_pathspecs(top)  # only the protected globs: a large tree is not listed file by file
    import subprocess

    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-z", *(["--", *specs] if specs else [])],
                             capture_output=True, timeout=GIT_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if out.returncode != 0:
        return None
    for raw in out.stdout.split(b"\0"):
        if not raw:
            continue
        ref = env.norm(raw.decode("utf-8", "surrogateescape"), top)
        if env.protected(ref):
            return ref.display
    return ""


def _revs(sub: str, rest: list[str]) -> tuple[set[str], list[str], dict[str, str]]:
    from .words import _opts_and_operands

    flags, ops, values = _opts_and_operands(rest, _VALUED.get(sub, set()))
    return set(flags), [o for o in ops if o != "--"], values


def checkout_branch(w, sub: str, rest: list[str], repo, effects, dynamic: bool = False) -> bool:
    """``git checkout/switch [-b NEW] [REV]`` without pathspecs moves the work tree from HEAD to REV: the files
    that differ between them are written (with ``-f``/``--discard-changes``, every file that differs from REV,
    local changes included). True when ``rest`` was such a switch (False: ``git checkout X`` where X is no
    revision but a path on disk, which the caller handles as a pathspec)."""
    flags, ops, values = _revs(sub, rest)
    force = bool(flags & {"f", "force", "discard-changes"})
    new = next((values[k] for k in ("b", "B", "c", "C", "create", "force-create") if values.get(k)), None)
    if "orphan" in values:
        return True  # a new unborn branch keeps the index and the work tree as they are
    start = ops[0] if ops else None
    if start is None:
        if force and not new:
            update_work_tree(w, f"git {sub} -f", repo, [_diff("HEAD")], effects, dynamic=dynamic)
        return True  # `git checkout -b new`: a new branch at HEAD, nothing in the work tree changes
    if start == "-":
        start = "@{-1}"
    top = git_top(repo) if sub == "checkout" and not new and not dynamic and repo else None
    if top is not None and git_lines(top, ["rev-parse", "--verify", "--quiet", start + "^{commit}"]) is None:
        local = os.path.join(repo, start)
        if os.path.lexists(local):
            return False  # `git checkout src/app.py`: a path, restored from the index
        remote = git_lines(top, ["for-each-ref", "--format=%(refname)", f"refs/remotes/*/{start}"])
        if remote and len(remote) == 1:
            start = remote[0]  # `git checkout feat` makes feat from the one remote branch of that name
    how = f"git {sub} {start}"
    update_work_tree(w, how, repo, [_diff(start) if force else _diff("HEAD", start)], effects,
                     why=f"{start} does not resolve to a commit", dynamic=dynamic)
    return True


def merge(w, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git merge REV…``: what each REV changed since it forked from HEAD (``git diff HEAD...REV``); no REV merges
    the upstream branch (``@{upstream}``). ``--abort`` puts back the files the merge staged."""
    flags, ops, values = _revs("merge", rest)
    if flags & {"continue", "quit"}:
        return  # commits what is staged, or forgets the merge: the work tree stays as it is
    if "abort" in flags:
        update_work_tree(w, "git merge --abort", repo, [["diff", "--name-only", "--no-renames", "--cached", "HEAD",
                                                         "--"]], effects, dynamic=dynamic)
        return
    revs = [("@{-1}" if r == "-" else r) for r in ops] or ["@{upstream}"]
    update_work_tree(w, f"git merge {' '.join(revs)}", repo, [_diff(f"HEAD...{r}") for r in revs], effects,
                     why=f"{' '.join(revs)} does not resolve to a commit", dynamic=dynamic)


def pick(w, sub: str, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git cherry-pick/revert REV…``: each picked commit writes the files it changes (``--no-commit`` too)."""
    flags, ops, values = _revs(sub, rest)
    if "quit" in flags:
        return
    if flags & set(_IN_PROGRESS):
        update_work_tree(w, f"git {sub} --{next(f for f in _IN_PROGRESS if f in flags)}", repo, None, effects,
                         why="the rest of the sequence is in git's state, not on the command line", dynamic=dynamic)
        return
    if not ops:
        return  # git refuses: nothing to pick
    update_work_tree(w, f"git {sub} {' '.join(ops)}", repo, [_picked(ops)], effects,
                     why=f"{' '.join(ops)} does not resolve to commits", dynamic=dynamic)


def rebase(w, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git rebase [--onto NEWBASE] [UPSTREAM [BRANCH]]``: the result is NEWBASE (default UPSTREAM, default the
    upstream branch) plus BRANCH's own commits, so the files written are those that differ between the fork point
    and NEWBASE, and those between HEAD and BRANCH when BRANCH is named; an interactive rebase may also drop or
    reorder BRANCH's commits, so their files count too. ``--exec CMD`` runs CMD after each commit: it is walked
    as the command line it is."""
    flags, ops, values = _revs("rebase", rest)
    for cmd in _exec_values(rest):
        w.run_text(cmd, repo, "git rebase --exec", ";")
    if flags & {"quit", "edit-todo", "show-current-patch"}:
        return
    if flags & set(_IN_PROGRESS):
        update_work_tree(w, f"git rebase --{next(f for f in _IN_PROGRESS if f in flags)}", repo, None, effects,
                         why="the commits still to apply are in git's state, not on the command line", dynamic=dynamic)
        return
    if "root" in flags:
        update_work_tree(w, "git rebase --root", repo, None, effects, why="it rewrites every commit of the branch",
                         dynamic=dynamic)
        return
    upstream = ops[0] if ops else "@{upstream}"
    branch = ops[1] if len(ops) > 1 else "HEAD"
    onto = values.get("onto") or upstream
    how = f"git rebase {' '.join(ops) or upstream}"
    top = git_top(repo) if repo else None
    fork = git_lines(top, ["merge-base", upstream, branch]) if top else None
    if top is not None and not fork:
        update_work_tree(w, how, repo, None, effects, why=f"{upstream} and {branch} have no common commit cuticle "
                         "can find", dynamic=dynamic)
        return
    listings = [_diff(fork[0] if fork else upstream, onto)]
    if branch != "HEAD":
        listings.append(_diff("HEAD", branch))
    if flags & {"i", "interactive"}:
        listings.append(["log", "--name-only", "--format=", "--no-renames", f"{upstream}..{branch}", "--"])
    update_work_tree(w, how, repo, listings, effects, why=f"{upstream} does not resolve to a commit", dynamic=dynamic)


def _exec_values(rest: list[str]) -> list[str]:
    """Every ``--exec CMD`` / ``-x CMD`` of a rebase, in any spelling (``--exec=CMD``, ``-xCMD``, a cluster such as
    ``-ix CMD``), not only the last one."""
    out: list[str] = []
    short_valued = {v[1] for v in _VALUED["rebase"] if len(v) == 2}
    i = 0
    while i < len(rest):
        a = rest[i]
        i += 1
        if a == "--":
            break
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            if f"--{name}" in _VALUED["rebase"] and not eq:
                val = rest[i] if i < len(rest) else ""
                i += 1
            if name == "exec":
                out.append(val)
            continue
        if a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:], 1):
                if ch in short_valued:
                    val = a[k + 1:]
                    if not val:
                        val = rest[i] if i < len(rest) else ""
                        i += 1
                    if ch == "x":
                        out.append(val)
                    break
    return out


def plumbing(w, sub: str, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """Plumbing that writes the work tree: ``git read-tree -u`` (from trees: unknown), ``git checkout-index``
    (the named files from the index, ``-a`` every file that differs from it, ``--prefix=DIR/`` under DIR),
    ``git merge-file CURRENT BASE OTHER`` (CURRENT, unless ``-p``), and ``git bisect`` (each step checks out a
    commit chosen then: unknown; ``bisect run CMD`` also runs CMD)."""
    from .words import _opts_and_operands

    if sub == "read-tree":
        flags, ops, _values = _opts_and_operands(rest, {"--prefix", "--index-output"})
        if "u" in flags:
            update_work_tree(w, "git read-tree -u", repo, None, effects, why="it checks out trees read into the "
                             "index", dynamic=dynamic)
        return
    if sub == "checkout-index":
        flags, ops, values = _opts_and_operands(rest, {"--prefix", "--stage"})
        prefix = values.get("prefix", "")
        if prefix:
            w.reach_check(w.env.norm(prefix + "$(…)", repo), "git checkout-index --prefix", "writes")
        elif flags and {"a", "all"} & set(flags):
            update_work_tree(w, "git checkout-index -a", repo, [["diff", "--name-only", "--no-renames", "--"]],
                             effects, dynamic=dynamic)
        for ref in w.paths([o for o in ops if o != "--"], repo):
            effects.append(w.write_effect(ref, "git checkout-index"))
        return
    if sub == "merge-file":
        flags, ops, _values = _opts_and_operands(rest, {"-L", "--diff-algorithm"})
        if ops and not {"p", "stdout"} & set(flags):
            effects.append(w.write_effect(w.env.norm(ops[0], repo), "git merge-file"))
        return
    step = rest[0] if rest else ""
    if step in ("", "log", "view", "visualize", "terms", "help", "replay"):
        return
    if step == "run":
        w.run_text(" ".join(rest[1:]), repo, "git bisect run", ";")
    update_work_tree(w, f"git bisect {step}", repo, None, effects, why="bisect checks out a commit it picks as it "
                     "goes", dynamic=dynamic)


def reset_keep(w, mode: str, rest: list[str], repo, effects, dynamic: bool = False) -> None:
    """``git reset --keep/--merge [REV]``: the files that differ between HEAD and REV are written (local changes
    are kept)."""
    from .words import _opts_and_operands

    _flags, ops, _values = _opts_and_operands(rest, set())
    rev = next((o for o in ops if o != "--"), "HEAD")
    update_work_tree(w, f"git reset --{mode} {rev}", repo, [_diff("HEAD", rev)], effects,
                     why=f"{rev} does not resolve to a commit", dynamic=dynamic)
