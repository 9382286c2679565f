"""git: the branch a command acts on, force pushes, protected branches, stashes and the files a checkout or
restore writes (decides no-force-push and no-protected-branch).
"""

from __future__ import annotations

import os
import re

from tiers.lazy import LazyRe

from ..invariants import no_force_push, no_governance_self_modification, no_protected_branch
from ..invariants._targets import unknown_stash
from .archives import _apply_patches
from .gittrees import clone, recurses, run_ext, sparse_checkout, submodule, submodule_writes, \
    work_tree_setting, worktree
from .model import Effect, _names_flow
from .words import _operands, _opts_and_operands
from .worktree import checkout_branch, git_lines as _git_lines, git_top as _git_top, merge, pick, plumbing, \
    rebase, reset_keep, update_work_tree

#: the git subcommands an invariant or a write effect looks at
_GIT_WATCHED = frozenset({"push", "commit", "checkout", "switch", "mv", "rm", "restore", "branch", "config", "apply",
                          "am", "stash", "clone", "clean", "reset", "merge", "pull", "fetch", "cherry-pick", "revert",
                          "rebase", "remote", "read-tree", "checkout-index", "merge-file", "bisect", "tag",
                          "update-ref", "symbolic-ref", "replace", "worktree", "sparse-checkout", "submodule", "init",
                          "archive", "bundle", "diff", "log", "show", "whatchanged", "format-patch", "range-diff",
                          "diff-tree", "diff-index", "diff-files", "difftool", "grep", "filter-branch", "ls-remote",
                          "send-email", "imap-send"})
#: options whose value git runs as a command line, by subcommand (``--upload-pack`` for local and ssh remotes,
#: difftool's ``--extcmd``, grep's pager, filter-branch's filters, send-email's address commands); ``-O`` of grep
#: takes its value only glued (``-Oless``)
_RUNS = {
    "clone": ("-u", "--upload-pack"), "fetch": ("--upload-pack",), "pull": ("--upload-pack",),
    "ls-remote": ("--upload-pack",), "archive": ("--exec",), "push": ("--receive-pack", "--exec"),
    "difftool": ("-x", "--extcmd"), "grep": ("-O=", "--open-files-in-pager="),
    "filter-branch": ("--tree-filter", "--index-filter", "--env-filter", "--parent-filter", "--msg-filter",
                      "--commit-filter", "--tag-name-filter"),
    "send-email": ("--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"),
}
#: options naming a file git writes (the diff family's ``--output``, archive's ``-o``, a bundle's file), and the
#: directory format-patch writes its ``NNNN-subject.patch`` files into
_OUTPUT = {"archive": ("-o", "--output")}
_DIFF_FAMILY = frozenset({"diff", "log", "show", "whatchanged", "format-patch", "range-diff", "diff-tree",
                          "diff-index", "diff-files"})
#: subcommands that update the work tree and, with --recurse-submodules, the submodules' too
_RECURSING = frozenset({"checkout", "switch", "reset", "read-tree", "restore", "pull", "merge", "rebase",
                        "cherry-pick", "revert"})
#: subcommands after which a revision named later in the same command line may point somewhere else than now
_MOVES_REFS = frozenset({"commit", "merge", "pull", "fetch", "cherry-pick", "revert", "rebase", "reset", "am",
                         "remote", "read-tree", "bisect", "update-ref", "symbolic-ref", "replace"})
#: options of `git branch` / `git tag` that move or rename an existing ref (or a branch's upstream)
_REF_FORCE = frozenset({"f", "force", "m", "M", "move", "c", "C", "copy", "u", "set-upstream-to", "d", "D",
                        "delete"})


def _h_git(w: Walker, tool, argv, cwd, stdin, effects, taints):
    if w.git_vars or w.vars:
        _environment(w, cwd)  # GIT_PAGER=…, GIT_CONFIG_KEY_0=…: settings any git command reads
    if len(argv) > 1 and argv[1] == "ls-files":  # the paths it prints, for xargs: its pathspecs, or any file
        specs = [a for a in _operands(argv[2:])]
        return "git", _names_flow([*specs, *(x.rstrip("/") + "/$(find)" for x in specs)] or ["$(find)"])
    if len(argv) > 1 and argv[1][:1] != "-" and argv[1] not in _GIT_WATCHED:
        return "git", None  # git status, log, diff…: no global options, nothing an invariant looks at
    args = argv[1:]
    repo = cwd
    aliases: dict[str, str] = {}
    settings: dict[str, str] = {}  # `-c KEY=VALUE` of this command (lowercase keys)
    #: the repository is one only known when it runs (``--git-dir``, ``GIT_DIR=…`` set in the command line)
    dynamic = w.git_env or "GIT_DIR" in w.vars or "GIT_WORK_TREE" in w.vars
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-C" and i + 1 < len(args):
            repo = w.env.cd(repo, args[i + 1])
            i += 2
            continue
        if a == "-c" and i + 1 < len(args):
            k, eq, v = args[i + 1].partition("=")
            settings[k.lower()] = v if eq else "true"  # `-c KEY` alone sets a boolean to true
            if k.lower().startswith("alias."):
                aliases[k[6:]] = v
            elif k.lower() == "core.worktree":
                repo, dynamic = w.env.cd(repo, v), True  # as --work-tree=V
            elif v:
                _command_setting(w, k, v, cwd)
            i += 2
            continue
        if a == "--config-env" or a.startswith("--config-env="):
            # `--config-env=KEY=VAR`: KEY's value is VAR's, set in this line or only known when it runs
            spec = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")
            k, _, var = spec.partition("=")
            v = w.vars.get(var, w.git_vars.get(var))
            settings[k.lower()] = v or ""
            if v is None and _GIT_COMMAND_KEY.fullmatch(k.lower()):
                w.report(no_governance_self_modification.unseen_programs(
                    f"git --config-env={k}={var}", f"the value of ${var} as {k}", segment=w.at))
            elif k.lower().startswith("alias."):
                aliases[k[6:]] = v or ""
            elif v:
                _command_setting(w, k, v, cwd)
            i += 1 if "=" in a else 2
            continue
        if a.startswith("--exec-path="):
            # git runs its non-builtin commands (git-SUB) from that directory: programs cuticle cannot see
            w.report(no_governance_self_modification.unseen_programs("git --exec-path", "its commands from that "
                                                                     "directory", segment=w.at))
        if a in ("--git-dir", "--work-tree", "--namespace", "--exec-path") and i + 1 < len(args):
            if a == "--work-tree":
                repo = w.env.cd(repo, args[i + 1])
            dynamic = dynamic or a in ("--git-dir", "--work-tree")  # names are not relative to this repo
            i += 2
            continue
        if a.startswith("--work-tree="):
            repo = w.env.cd(repo, a.split("=", 1)[1])
        dynamic = dynamic or a.startswith(("--git-dir=", "--work-tree="))
        if a.startswith("-"):
            i += 1
            continue
        break
    sub = args[i] if i < len(args) else ""
    rest = args[i + 1:]
    if sub in aliases:
        val = aliases[sub]
        if val.startswith("!"):
            w.run_text(val[1:] + " " + " ".join(rest), cwd, "git alias", ";")
            return "git", None
        sub, rest = (val.split() + [""])[0], val.split()[1:] + rest
    protected = w.opts.protected_branches
    _runs_and_outputs(w, sub, rest, repo, effects)
    if sub in _RECURSING and recurses(rest, settings):
        submodule_writes(w, f"git {sub} --recurse-submodules", repo, effects)
    if sub == "push":
        _git_push(w, rest, repo, effects, protected)
    elif sub == "commit":
        branch = w.current_branch(repo)
        w.report(no_protected_branch.commit_on(branch, protected, segment=w.at))
        effects.append(Effect("git", branch or "", "branch" if branch else ""))
    elif sub in ("checkout", "switch"):
        flags, ops, values = _opts_and_operands(rest, {"-b", "-B", "-c", "-C", "--orphan", "--conflict"})
        pathspec = "--" in rest or (sub == "checkout" and len(ops) >= 2 and not (values.get("b") or values.get("B")))
        if pathspec:
            paths = rest[rest.index("--") + 1:] if "--" in rest else ops[1:]
            for ref in w.paths(paths, repo):
                effects.append(w.write_effect(ref, f"git {sub} --"))
            source = ops[0] if sub == "checkout" and ops and "--" in rest and rest.index("--") > rest.index(ops[0]) \
                else (ops[0] if sub == "checkout" and "--" not in rest else None)
            _rewrites(w, f"git {sub}", repo, ["diff", "--name-only", *([source] if source else []), "--"], paths,
                      effects)
        elif ops[:1] == ["."]:
            effects.append(w.write_effect(w.env.norm(".", repo), "git checkout ."))
            _rewrites(w, "git checkout .", repo, ["diff", "--name-only", "--"], ["."], effects)
        elif not checkout_branch(w, sub, rest, repo, effects, dynamic):
            # `git checkout FILE`: FILE is no revision but a path, restored from the index
            for ref in w.paths(ops, repo):
                effects.append(w.write_effect(ref, "git checkout --"))
            _rewrites(w, "git checkout", repo, ["diff", "--name-only", "--"], ops, effects)
        else:
            new = values.get("b") or values.get("B") or values.get("c") or values.get("C") or values.get("orphan") \
                or values.get("create")
            target = new or (ops[0] if ops else None)
            if target and target != "-" and not target.startswith("HEAD"):
                w.branch = target
            if ops:
                w.git_moved = True  # HEAD now points elsewhere: later revisions in this line are not known now
    elif sub in ("read-tree", "checkout-index", "merge-file", "bisect"):
        plumbing(w, sub, rest, repo, effects, dynamic)
    elif sub in ("merge", "pull", "cherry-pick", "revert", "rebase"):
        if sub == "merge":
            merge(w, rest, repo, effects, dynamic)
        elif sub == "pull":
            update_work_tree(w, "git pull", repo, None, effects, why="it merges commits it fetches from a remote, "
                             "which cuticle cannot see before they arrive", dynamic=dynamic)
        elif sub == "rebase":
            rebase(w, rest, repo, effects, dynamic)
        else:
            pick(w, sub, rest, repo, effects, dynamic)
    elif sub in ("mv", "rm"):
        flags, ops, values = _opts_and_operands(rest, set())
        if not (sub == "rm" and "cached" in flags):
            for ref in w.paths(ops, repo):
                effects.append(w.write_effect(ref, f"git {sub}"))
    elif sub == "restore":
        flags, ops, values = _opts_and_operands(rest, {"-s", "--source"})
        if not ({"staged", "S"} & set(flags)) or {"worktree", "W"} & set(flags):
            for ref in w.paths(ops, repo):
                effects.append(w.write_effect(ref, "git restore"))
            source = values.get("s") or values.get("source")
            _rewrites(w, "git restore", repo, ["diff", "--name-only", *([source] if source else []), "--"], ops,
                      effects)
    elif sub == "reset":
        flags, ops, values = _opts_and_operands(rest, set())
        if "hard" in flags:
            rev = [o for o in ops if o != "--"][:1]
            _rewrites(w, "git reset --hard", repo, ["diff", "--name-only", *(rev or ["HEAD"]), "--"], [], effects)
        elif {"keep", "merge"} & set(flags):
            reset_keep(w, "keep" if "keep" in flags else "merge", rest, repo, effects, dynamic)
    elif sub == "clean":
        flags, ops, values = _opts_and_operands(rest, {"-e", "--exclude"})
        fset = set(flags)
        if not fset & {"n", "dry-run"}:
            listing = ["clean", "-n", *(["-d"] if "d" in fset else []), *(["-x"] if "x" in fset else []),
                       *(["-X"] if "X" in fset else [])]
            for a in rest:
                if a.startswith(("-e", "--exclude")):
                    listing.append(a)  # a glued value (-e*.log / --exclude=x); a separate one follows in ops
            _rewrites(w, "git clean", repo, [*listing, "--"], ops, effects, delete=True)
    elif sub == "branch":
        flags, ops, values = _opts_and_operands(rest, {"-u", "--set-upstream-to"})
        if {"d", "D", "delete", "f", "force", "m", "M", "move"} & set(flags):
            for b in ops:
                w.report(no_protected_branch.branch_change(" ".join(rest), b, protected, segment=w.at))
    elif sub == "clone":
        clone(w, rest, repo, effects, _command_setting)  # `git -C DIR clone URL`: the clone lands in DIR
    elif sub == "worktree":
        worktree(w, rest, repo, effects, dynamic)
    elif sub == "sparse-checkout":
        sparse_checkout(w, rest, repo, effects, dynamic)
    elif sub == "submodule":
        submodule(w, rest, repo, effects)
    elif sub == "init":
        if any(a == "--template" or a.startswith("--template=") for a in rest):
            w.report(no_governance_self_modification.unseen_programs("git init --template", "hooks copied from the "
                                                                     "template directory", segment=w.at))
    elif sub == "remote" and rest[:1] and rest[0] in ("add", "set-url"):
        for a in rest[1:]:
            run_ext(w, a, repo, f"git remote {rest[0]}")
    elif sub in ("apply", "am"):
        _apply_patches(w, f"git {sub}", rest, repo, stdin, effects)
    elif sub == "stash" and (not rest or rest[0] in ("push", "save", "-u", "--include-untracked", "-m")):
        w.stashed = True  # `git stash && … && git stash pop`: the pop puts back what this command stashed
    elif sub == "stash" and rest[:1] and rest[0] in ("pop", "apply") and not w.stashed:
        names = _stash_names(repo, rest[1:2])
        w.out.volatile = True
        if names is not None:
            for name in names:
                effects.append(w.write_effect(w.env.norm(name, _git_top(repo) or repo), f"git stash {rest[0]}"))
            return "git", None
        # the stash's files are in the object store and could not be listed: they may be any tracked file
        w.cwd_hint = repo
        w.report(unknown_stash(w.env, w.env.norm("$(…)", repo), f"git stash {rest[0]}", repo, segment=w.at))
    elif sub == "config":
        _config(w, rest, cwd, effects)
    if sub in _MOVES_REFS or (sub in ("branch", "tag") and _REF_FORCE & set(_opts_and_operands(rest, set())[0])):
        w.git_moved = True  # a fetch, commit, merge, `branch -f`… changes what HEAD and the branches point to
    return "git", None


#: git settings whose value git later runs as a shell command (or, include.path, loads as more settings)
_GIT_COMMAND_KEY = LazyRe(
    r"core\.(?:fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|sequence\.editor|diff\.external|"
    r"diff\..+\.(?:textconv|command)|merge\..+\.driver|filter\..+\.(?:clean|smudge|process)|pager\..+|alias\..+|"
    r"credential(?:\..+)?\.helper|gpg(?:\..+)?\.program|remote\..+\.(?:uploadpack|receivepack|proxy)|"
    r"sendemail\..+|web\.browser|browser\..+\.(?:cmd|path)|uploadpack\.packobjectshook|core\.hookspath|"
    r"include\.path|includeif\..+\.path|"
    r"(?:mergetool|difftool)\..+\.(?:cmd|path)|interactive\.difffilter|tar\..+\.command|trailer\..+\.(?:command|cmd)|"
    r"hook\..+\.command|submodule\..+\.update|core\.alternaterefscommand|gpg\.ssh\.defaultkeycommand|"
    r"man\..+\.(?:cmd|path)|imap\.tunnel|init\.templatedir|core\.worktree|remote\..+\.(?:url|pushurl)|"
    r"url\..+\.(?:insteadof|pushinsteadof)")


#: environment variables whose value git runs as a command line
_COMMAND_VARS = ("GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_SSH_COMMAND", "GIT_SSH",
                 "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL", "PAGER")
#: environment variables that make git load settings or programs from files cuticle does not read
_INCLUDE_VARS = ("GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR")


def _environment(w: Walker, cwd) -> None:
    """Settings git reads from its environment, set in this command line (``GIT_PAGER=… git log``, ``export``,
    ``env …``): a command-valued one is walked as the command line git runs; ``GIT_CONFIG_KEY_n``/``VALUE_n`` and
    ``GIT_CONFIG_PARAMETERS`` are settings like ``git -c``; a variable pointing git at another settings file or
    program directory is an include."""
    found = {k: v for k, v in w.vars.items() if k.startswith("GIT_") or k in _COMMAND_VARS}
    found.update(w.git_vars)
    if not found:
        return
    for name in _COMMAND_VARS:
        if found.get(name):
            w.run_text(found[name], cwd, f"git ${name}", ";")
    for name in _INCLUDE_VARS:
        if found.get(name, "/dev/null") not in ("/dev/null", ""):  # GIT_CONFIG_GLOBAL=/dev/null loads nothing
            w.report(no_governance_self_modification.config_include(f"(${name})", segment=w.at))
    for name, key in found.items():
        if name.startswith("GIT_CONFIG_KEY_"):
            _command_setting(w, key, found.get("GIT_CONFIG_VALUE_" + name[len("GIT_CONFIG_KEY_"):], ""), cwd)
    params = found.get("GIT_CONFIG_PARAMETERS", "")
    for m in re.finditer(r"'((?:[^']|'\\'')*)'(?:=('((?:[^']|'\\'')*)'))?", params):
        key, value = m.group(1), m.group(3) or ""
        if "=" in key and not m.group(2):
            key, _, value = key.partition("=")
        _command_setting(w, key, value, cwd)


#: options of ``git config`` that take a value in the next word
_CONFIG_VALUED = {"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--get-color",
                  "--get-colorbool"}
#: ``git config`` steps (the subcommand spelling of git 2.46) that only read
_CONFIG_READS = frozenset({"get", "list", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "unset",
                           "unset-all", "rename-section", "remove-section", "edit"})


def _config(w: Walker, rest: list[str], cwd, effects) -> None:
    """``git config [--file F] KEY VALUE`` (or ``git config set KEY VALUE``): a setting judged by what git does with
    it (``_command_setting``); a file named by ``--file`` that is not one of git's own settings files is a write
    like any other (``git config -f chitin.yaml a.b c`` rewrites the policy)."""
    if any(a.lower().startswith("core.hookspath") for a in rest):  # set, unset or replaced: the hooks git runs
        w.report(no_governance_self_modification.hooks_path(segment=w.at))
        return
    flags, ops, values = _opts_and_operands(rest, _CONFIG_VALUED)
    if ops[:1] and ops[0] in _CONFIG_READS:
        return
    if ops[:1] and ops[0] == "set":
        ops = ops[1:]
    target = values.get("file") or values.get("f")
    if target and len(ops) >= 2 and target != "-":
        ref = w.env.norm(target, cwd)
        low = ref.display.lower()
        if not (low.endswith("/.git/config") or low in (".git/config", "~/.gitconfig", "~/.config/git/config")):
            effects.append(w.write_effect(ref, "git config --file"))
    if len(ops) >= 2 and not set(flags) & {"get", "get-all", "get-regexp", "unset", "unset-all", "l", "list",
                                          "get-urlmatch", "remove-section", "rename-section"}:
        _command_setting(w, ops[0], ops[1], cwd)


def _runs_and_outputs(w: Walker, sub: str, rest: list[str], repo, effects) -> None:
    """What any git subcommand runs or writes through its options: a command-valued option (``_RUNS``) is walked as
    the command line it is, an ``ext::`` remote URL too; an output file (``--output``, ``archive -o``, ``bundle
    create F``) is a write, and ``format-patch -o DIR`` writes ``DIR/NNNN-subject.patch`` (``--suffix``)."""
    runs = _RUNS.get(sub, ())
    outputs = ("--output",) if sub in _DIFF_FAMILY else _OUTPUT.get(sub, ())
    patch_dir = None
    suffix = ".patch"
    i = 0
    while i < len(rest):
        a = rest[i]
        i += 1
        if a == "--":
            break
        a = _unbundled(a, runs, outputs, sub)
        if sub in ("clone", "fetch", "pull", "push", "ls-remote", "archive"):
            # a remote as an operand or as --remote=/--repo= (archive, push): an ext:: one runs its command
            url = a if not a.startswith("-") else a.split("=", 1)[1] if a.startswith(("--remote=", "--repo=")) else ""
            if url:
                run_ext(w, url, repo, f"git {sub}")
        for names, kind in ((runs, "run"), (outputs, "out"),
                            (("-o", "--output-directory") if sub == "format-patch" else (), "dir"),
                            (("--suffix",) if sub == "format-patch" else (), "suffix")):
            for name in names:
                glued_only = name.endswith("=")
                opt = name.rstrip("=")
                if a == opt and not glued_only and i < len(rest):
                    value = rest[i]
                    i += 1
                elif opt.startswith("--") and a.startswith(opt + "="):
                    value = a[len(opt) + 1:]
                elif not opt.startswith("--") and a.startswith(opt) and len(a) > len(opt):
                    value = a[len(opt):]
                else:
                    continue
                if kind == "run":
                    w.run_text(value, repo, f"git {sub} {opt}", ";")
                elif kind == "out":
                    effects.append(w.write_effect(w.env.norm(value, repo), f"git {sub} {opt}"))
                elif kind == "dir":
                    patch_dir = value
                else:
                    suffix = value
    if patch_dir is not None:
        effects.append(w.write_effect(w.env.norm(patch_dir.rstrip("/") + "/$(…)" + suffix, repo),
                                      "git format-patch -o"))
    if sub == "bundle" and rest[:1] == ["create"] and len(rest) > 1:
        target = next((a for a in rest[1:] if not a.startswith("-")), None)
        if target and target != "-":
            effects.append(w.write_effect(w.env.norm(target, repo), "git bundle create"))


def _unbundled(a: str, runs, outputs, sub: str) -> str:
    """Short options bundled into one word, as git's option parser reads them: ``-yx CMD`` is ``-y -x CMD`` and
    ``-yxCMD`` is ``-y -xCMD``. The first letter of the bundle that is a command- or file-valued option of this
    subcommand starts the option the rest of the word belongs to (read as an option even where an earlier letter
    might have taken the rest as its value: a doubtful bundle is judged as the riskier reading)."""
    if len(a) < 3 or a[0] != "-" or a[1] == "-":
        return a
    shorts = {n.rstrip("=")[1] for n in (*runs, *outputs, *(("-o",) if sub == "format-patch" else ()))
              if len(n.rstrip("=")) == 2}
    k = next((j for j in range(2, len(a)) if a[j] in shorts), None)
    return a if k is None or a[1] in shorts else "-" + a[k:]


def _command_setting(w: Walker, key: str, value: str, cwd) -> None:
    """``git config KEY VALUE`` / ``git -c KEY=VALUE``: a setting git runs as a shell command later (each
    ``git status`` then runs it, outside every hook) is judged now, as the command line it is; an include loads
    settings cuticle cannot see, so it counts as any of them."""
    low = key.lower()
    if not _GIT_COMMAND_KEY.fullmatch(low):
        return
    if low.startswith("include") or low == "init.templatedir":
        w.report(no_governance_self_modification.config_include(key, segment=w.at))
        return
    if low == "core.worktree":
        work_tree_setting(w, value, cwd, f"git config {key}")
        return
    if low.endswith((".url", ".pushurl", ".insteadof", ".pushinsteadof")):  # an ext:: URL runs its command
        for url in (value, key[4:].rsplit(".", 1)[0] if low.startswith("url.") else ""):
            run_ext(w, url, cwd, f"git config {key}")
        return
    if low.startswith("submodule."):  # `update = !CMD` runs CMD in each `git submodule update`
        if not value.startswith("!"):
            return
        value = value[1:]
    if low == "core.hookspath":  # `git -c core.hooksPath=DIR commit`: git runs DIR's hooks instead of the installed
        w.report(no_governance_self_modification.hooks_path(segment=w.at))
        return
    if low.startswith("alias."):
        if not value.startswith("!"):
            return  # an alias of git subcommands: walked when it is used
        value = value[1:]
    w.run_text(value, cwd, f"git config {key}", ";")


def _rewrites(w: Walker, how: str, repo, listing: list[str], specs: list[str], effects, delete: bool = False) -> None:
    """``how`` rewrites (or, ``delete``, removes) the work-tree files under the pathspecs ``specs`` that git would
    change: a write or delete effect on each file ``git LISTING SPECS`` names (``diff --name-only``,
    ``clean -n``: local and read-only). When git cannot list them, every protected path under the pathspecs counts
    (``unknown_target``)."""
    top = _git_top(repo)
    names = _git_lines(repo, [*listing, *(specs or ["."] if listing[0] == "clean" else specs)]) if top else None
    if w.git_moved and listing[0] == "diff" and len(listing) > 3:
        names = None  # `git fetch && git reset --hard origin/main`: the revision moves before this runs
    w.out.volatile = True
    w.cwd_hint = repo
    if names is None:
        for spec in specs or ["."]:
            ref = w.env.norm(spec.rstrip("/") + "/$(…)" if spec not in ("", ".") else "$(…)", repo)
            if w.reach_check(ref, how, "deletes" if delete else "writes",
                             "name the files outside memory and cuticle's state"):
                return
        return
    base = repo if listing[0] == "clean" else top
    for name in names:
        if listing[0] == "clean":
            name = name[len("Would remove "):] if name.startswith("Would remove ") else ""
            if not name:
                continue
        ref = w.env.norm(name.rstrip("/"), base)
        if delete:
            effects.append(w.delete_effect(ref, how, recursive=False))
            if name.endswith("/") and not w.env.protected(ref):
                w.reach_check(w.env.norm(name.rstrip("/") + "/$(…)", base), how, "deletes")
        else:
            effects.append(w.write_effect(ref, how))




def _stash_names(repo: str | None, which: list[str]) -> list[str] | None:
    """The files a stash would write (``git stash show --name-only``, untracked files included), or None when
    they cannot be listed (no repository, no git, an error or a slow answer). Local and read-only."""
    top = _git_top(repo)
    if top is None:
        return None
    ref = which[0] if which and not which[0].startswith("-") else "stash@{0}"
    return _git_lines(top, ["stash", "show", "--name-only", "--include-untracked", ref])


#: the long options of git push that _git_push tells apart, in the order an abbreviation picks its first match
_PUSH_LONG = ("force", "force-with-lease", "force-if-includes", "mirror", "delete", "all", "branches", "prune",
              "set-upstream", "tags", "dry-run", "repo", "push-option")
_PUSH_DELETE = frozenset({"d", "delete"})
_PUSH_MANY = frozenset({"all", "branches", "mirror"})
_PUSH_NOT_CURRENT = frozenset({"all", "branches", "mirror", "tags"})


def _git_push(w: Walker, rest, repo, effects, protected) -> None:
    flags: list[str] = []
    ops: list[str] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        i += 1
        if a == "--":
            ops.extend(rest[i:])
            break
        if a.startswith("--"):
            name = a[2:].split("=", 1)[0]
            if name not in _PUSH_LONG:  # a full option name stays as it is: only an abbreviation is looked up
                hits = [o for o in _PUSH_LONG if len(name) >= 3 and o.startswith(name)]
                name = name if not hits else hits[0]
            flags.append(name)
            if name in ("repo", "push-option", "receive-pack", "exec") and "=" not in a:
                i += 1
            continue
        if a.startswith("-") and a != "-":
            for ch in a[1:]:
                flags.append(ch)
                if ch == "o":
                    i += 1
                    break
            continue
        ops.append(a)
    fset = set(flags)
    refspecs = ops[1:]  # ops[0] is the remote
    w.report(no_force_push.force_push(" ".join(rest), flags, refspecs, segment=w.at))
    deleting = bool(fset & _PUSH_DELETE)
    if fset & _PUSH_MANY:
        w.report(no_protected_branch.push_every_branch("all" if "all" in fset else "mirror", protected, segment=w.at))
    if fset & {"prune"}:
        w.report(no_protected_branch.push_prune(segment=w.at))
    dests: list[tuple[str, bool]] = []
    for r in refspecs:
        spec = r[1:] if r.startswith("+") else r
        if ":" in spec:
            src, dst = spec.split(":", 1)
            if not dst:
                dst = src
            dests.append((dst, src == "" or deleting))
        else:
            if spec in ("HEAD", "@"):
                dests.append((w.current_branch(repo) or "", deleting))
            else:
                dests.append((spec, deleting))
    if not refspecs and not fset & _PUSH_NOT_CURRENT:
        dests.append((w.current_branch(repo) or "", deleting))
    for dst, is_delete in dests:
        if dst.startswith("refs/heads/"):
            dst = dst[len("refs/heads/"):]
        w.report(no_protected_branch.push_to(" ".join(rest), dst, is_delete, protected, segment=w.at))
        effects.append(Effect("git", dst, "branch") if dst else Effect("git"))


def _walker_current_branch(self: Walker, repo: str | None) -> str | None:
    if self.branch:
        return self.branch
    if self.git_branch is not None and repo:
        self.out.volatile = True
        try:
            return self.git_branch(repo)
        except Exception:  # noqa: BLE001 - a broken repo never crashes the evaluation
            return None
    return None
