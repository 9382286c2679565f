"""File tools: the write, delete and mode targets of rm, cp/mv/ln/install, tee, sed, chmod/chown, dd, sort, uniq,
truncate and friends, yq, base64, source and infrastructure CLIs.
"""

from __future__ import annotations

import os

from tiers.lazy import LazyRe

from ..invariants import no_permission_escalation, no_recursive_delete, script_execution_tracking
from ..invariants._targets import link_to, protected_write
from ..invariants.no_infra_destroy import infra_violation
from ..invariants.no_permission_escalation import mode_danger, owner_danger
from ..paths import DEVICES, PathRef
from .model import Effect, _flow
from .words import _long, _operands, _opts_and_operands

def _h_rm(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, _ = _opts_and_operands(argv[1:], set())
    names = {_long("rm", f) if len(f) > 1 else f for f in flags}
    find_ctx = w._find_ctx
    recursive = bool(names & {"r", "R", "recursive"}) or find_ctx is not None
    if not ops:
        ops = ["?"] if recursive else []
    filtered = bool(find_ctx and find_ctx[0])
    typ = "dangerous" if recursive else "write"
    for a in ops:
        ref = w.env.norm(a, cwd) if a != "?" else PathRef("unknown", "(arguments from stdin)")
        if find_ctx and find_ctx[1] and ref.scope == "ws":
            base = ref.rel or ""
            base = base[:-2].rstrip("/") if base.endswith("{}") else base
            for name in find_ctx[1]:
                name = name[2:] if name.startswith("./") else name
                probe = w.env.norm(name, w.env.root + ("/" + base if base and "/" not in name else ""))
                w.report(protected_write(w.env, probe, "find -exec rm", "may delete", segment=w.at))
        effects.append(w.delete_effect(ref, "rm", recursive=recursive, filtered=filtered and ref.scope == "ws"))
    return typ, None


def _h_copy(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """cp, mv, ln, install: what lands where (``-t DIR`` and a directory destination put each source's basename
    there), what is read, what is moved away, and what a link points at (a link to a protected file makes a
    second, unguarded name for it)."""
    valued = {"-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group"}
    flags, ops, values = _opts_and_operands(argv[1:], valued)
    target = values.get("t") or values.get("target-directory")
    into_dir = target is not None
    if target is not None:
        dests, srcs = [target], ops
    elif tool == "ln" and len(ops) == 1:
        dests, srcs, into_dir = ["."], ops, True  # ln -s X: ./basename(X)
    elif ops:
        dests, srcs = [ops[-1]], ops[:-1]
    else:
        dests, srcs = [], []
    if tool == "install" and "d" in flags:
        dests, srcs = ops, []
    symbolic = "s" in flags or "symbolic" in flags or "symbolic-link" in flags
    link = tool == "ln" or (tool == "cp" and ("l" in flags or "link" in flags or symbolic))
    for d in dests:
        ref = w.env.norm(d, cwd)
        is_dir = into_dir or d.endswith("/") or len(srcs) > 1 or (
            ref.abs is not None and ref.scope != "unknown" and os.path.isdir(ref.abs))
        if not (is_dir and ref.scope == "ws" and ref.rel in ("", ".")):
            effects.append(w.write_effect(ref, tool))
        if not is_dir and not link and srcs and (tool == "mv" or {"r", "R", "a", "recursive", "archive"} & set(flags)):
            _tree_lands(w, tool, w.env.norm(srcs[0], cwd), ref, effects)
        if is_dir and ref.scope != "unknown":
            for s in srcs:
                base = s.rstrip("/").rsplit("/", 1)[-1]
                if base and ("*" in base or "?" in base or "[" in base) and "$" not in s and cwd:
                    # a source glob: the names it matches now are the names that land (none: cp fails)
                    import glob as _glob
                    sref = w.env.norm(s, cwd)
                    found = _glob.glob(sref.abs) if sref.abs else []
                    for name in sorted({x.rstrip("/").rsplit("/", 1)[-1] for x in found})[:200]:
                        effects.append(w.write_effect(w.env.norm(d.rstrip("/") + "/" + name, cwd), tool))
                    continue
                if base and base not in (".", ".."):
                    effects.append(w.write_effect(w.env.norm(d.rstrip("/") + "/" + base, cwd), tool))
        if link:
            # a symbolic link's text is resolved from the link's own directory; a hard link's from cwd
            base_dir = cwd
            if symbolic and ref.abs:
                base_dir = ref.abs if is_dir else ref.abs.rsplit("/", 1)[0] or "/"
            for s in srcs:
                # the target as the link resolves it and as the command's directory names it (ln -r, a copy of
                # the link, or a later cd make them the same file): a protected target is denied wherever the
                # link itself goes
                targets = dict.fromkeys((w.env.norm(s, cwd), w.env.norm(s, base_dir)))
                w.report(link_to(w.env, tool, targets, segment=w.at))
    if tool == "mv":
        for s in srcs:
            ref = w.env.norm(s, cwd)
            w.report(protected_write(w.env, ref, "mv", "moves away", segment=w.at))
            effects.append(Effect("write", ref.display, "path"))
    if tool in ("cp", "install"):
        for s in srcs:
            effects.append(Effect("read", w.env.norm(s, cwd).display, "path"))
    return "write", None


#: files of a moved or copied directory judged one by one; a larger tree counts as any file under its destination
_TREE_FILES = 2000


def _tree_lands(w: Walker, tool: str, src, dest, effects) -> None:
    """``mv SRC DEST`` / ``cp -r SRC DEST`` to a new name: when SRC is a directory, its files land under DEST
    (``mv build/x memory/x`` makes memory/x/*.md). A directory on disk is listed and each file judged at its new
    path; a source not on disk now (made earlier in the same command, or only known when it runs) counts as any
    file under DEST. A regular file is the write of DEST already judged."""
    if src.abs and src.scope != "unknown" and os.path.lexists(src.abs) and not os.path.isdir(src.abs):
        return
    if dest.scope == "unknown" or not dest.abs:
        return  # an unknown destination was judged as a pattern by write_effect
    if src.abs and src.scope != "unknown" and os.path.isdir(src.abs) and not os.path.islink(src.abs):
        count = 0
        for here, dirs, files in os.walk(src.abs):
            for name in files:
                count += 1
                if count > _TREE_FILES:
                    break
                rel = os.path.relpath(os.path.join(here, name), src.abs)
                effects.append(w.write_effect(w.env.norm(os.path.join(dest.abs, rel), None), tool))
            if count > _TREE_FILES:
                break
        else:
            return
    w.reach_check(w.env.norm(dest.abs.rstrip("/") + "/$(…)", None), tool, "fills",
                  "move or copy the directory outside memory and cuticle's files")


def _h_uniq(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """uniq [INPUT [OUTPUT]]: the second operand is written."""
    flags, ops, values = _opts_and_operands(argv[1:], {"-f", "-s", "-w", "--skip-fields", "--skip-chars",
                                                        "--check-chars"})
    if ops:
        effects.append(Effect("read", w.env.norm(ops[0], cwd).display, "path"))
    if len(ops) > 1:
        effects.append(w.write_effect(w.env.norm(ops[1], cwd), "uniq"))
        return "write", None
    return "read", _flow(stdin.taint if stdin else None)


def _h_tee(w: Walker, tool, argv, cwd, stdin, effects, taints):
    for ref in w.paths(_operands(argv[1:]), cwd):
        if ref.display in DEVICES:
            continue
        effects.append(w.write_effect(ref, "tee"))
    return "write", _flow(stdin.taint if stdin else None, stdin.text if stdin else None)


def _h_sed(w: Walker, tool, argv, cwd, stdin, effects, taints):
    args = argv[1:]
    inplace = False
    script_given = False
    files: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-e", "--expression", "-f", "--file"):
            script_given = True
            i += 2
            continue
        if a.startswith("--expression=") or a.startswith("--file="):
            script_given = True
        elif a.startswith("--in-place") or (tool == "sed" and _cluster_has_i(a)):
            inplace = True
        elif a == "--":
            files.extend(args[i + 1:])
            break
        elif not a.startswith("-"):
            if not script_given:
                script_given = True
                if _SED_W_OR_E.search(a) and tool == "sed":
                    m = _SED_W.search(a)
                    if m:
                        effects.append(w.write_effect(w.env.norm(m.group(1), cwd), "sed w"))
            else:
                files.append(a)
        i += 1
    if inplace:
        for ref in w.paths(files, cwd):
            effects.append(w.write_effect(ref, f"{tool} -i"))
        return "write", None
    for ref in w.paths(files, cwd):
        effects.append(Effect("read", ref.display, "path"))
    return "read", _flow(stdin.taint if stdin else None)


def _h_chmod(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], {"--reference"})
    mode = values.get("mode")
    if mode is None and tool == "chmod":
        # a mode may look like an option: chmod -w file, chmod -R 777 dir
        raw = [a for a in argv[1:] if not a.startswith("--")]
        cand = [a for a in raw if _CHMOD_MODE.fullmatch(a)]
        mode = cand[0] if cand else (ops[0] if ops else "")
        if ops and ops[0] == mode:
            ops = ops[1:]
    danger = mode_danger(mode) if tool == "chmod" else None
    if tool in ("chown", "chgrp"):
        danger = owner_danger(tool, ops[0] if ops else "")
        ops = ops[1:]
    if danger:
        w.report(no_permission_escalation.mode_change(tool, mode, danger, segment=w.at))
    recursive = bool({"R", "recursive"} & set(flags))
    for ref in w.paths(ops, cwd):
        effects.append(w.write_effect(ref, tool))
        whole = ref.scope == "ws" and ref.rel in ("", ".")  # write_effect leaves the workspace itself alone
        if recursive and ref.abs and (whole or not w.env.protected(ref)):
            # -R changes every file under the directory: a change of each protected file it holds
            hit = w.env.reach(ref.abs.rstrip("/") + "/$(…)", None)
            if hit is not None:
                w.report(protected_write(w.env, w.env.norm(hit, w.env.root), f"{tool} -R {ref.display}", "changes",
                                         segment=w.at))
    return ("dangerous" if danger else "write"), None


def _h_mount(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """``mount --bind|--rbind|--move|-o bind SRC DST``: DST becomes a second name for SRC (a link)."""
    flags, ops, values = _opts_and_operands(argv[1:], {"-o", "--options", "-t", "--types"})
    opts = (values.get("o") or values.get("options") or "").split(",")
    if not ({"bind", "B", "rbind", "R", "move", "M"} & set(flags) or {"bind", "rbind"} & set(opts)):
        return "write", None
    if len(ops) >= 2:
        src, dst = w.env.norm(ops[0], cwd), w.env.norm(ops[1], cwd)
        w.report(link_to(w.env, f"{tool} --bind", [src], segment=w.at))
        effects.append(w.write_effect(dst, f"{tool} --bind"))
    return "write", None


def _cluster_has_i(a: str) -> bool:
    if not a.startswith("-") or a.startswith("--"):
        return False
    for ch in a[1:]:
        if ch == "i":
            return True
        if ch not in "nrEsuzl":
            return False
    return False


def _h_dd(w: Walker, tool, argv, cwd, stdin, effects, taints):
    for a in argv[1:]:
        if a.startswith("of="):
            target = a[3:]
            if target.startswith("/dev/") and target not in DEVICES:
                w.report(no_recursive_delete.device_write(target, segment=w.at))
                return "dangerous", None
            effects.append(w.write_effect(w.env.norm(target, cwd), "dd"))
    return "write", None


def _h_source(w: Walker, tool, argv, cwd, stdin, effects, taints):
    if len(argv) < 2:
        return "exec", None
    target = argv[1]
    taint = taints[1] if len(taints) > 1 else None
    if target.startswith("<(…)") and taint:
        w.report(script_execution_tracking.tainted_source(argv[0], taint, segment=w.at))
        return "dangerous", None
    if target in ("/dev/stdin", "-") and stdin is not None and stdin.taint:
        w.report(script_execution_tracking.tainted_stdin(argv[0], stdin.taint, segment=w.at))
        return "dangerous", None
    text = w.stream_text(argv, 1, stdin)
    if text is not None and text != "\x00unknown":  # sourcing stdin or a process substitution runs its text
        w.run_text(text, cwd, f"{argv[0]} {target}", ";")
        return "exec", None
    w.check_exec_of_download(target, cwd)
    return "exec", None


def _h_sort(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], {"-o", "--output", "-k", "-t", "-S", "-T"})
    out = values.get("o") or values.get("output")
    if out:
        effects.append(w.write_effect(w.env.norm(out, cwd), "sort -o"))
        return "write", None
    return "read", _flow(stdin.taint if stdin else None)


_TRUNC_VALUED = {"truncate": {"-s", "--size", "-r", "--reference"}, "shred": {"-n", "--iterations", "-s", "--size"},
                 "touch": {"-d", "--date", "-r", "--reference", "-t"}, "mkdir": {"-m", "--mode"}}


def _h_truncate_like(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], _TRUNC_VALUED.get(tool, set()))
    return _writes(w, ops, cwd, effects, tool)


def _writes(w: Walker, targets: list[str], cwd, effects, how: str):
    """Each of ``targets`` (path words, resolved against ``cwd``) as a write effect of ``how``: the handler's answer."""
    for ref in w.paths(targets, cwd):
        effects.append(w.write_effect(ref, how))
    return "write", None


#: compressors replace each file with its compressed copy (decompressors: the copy with its suffix dropped) unless told
#: to keep it; zstd, lz4 and brotli keep the input unless ``--rm``; ``-c``/``-l``/``-t`` write no file at all
_DECOMPRESSORS = frozenset({"gunzip", "bunzip2", "unxz", "unlzma", "unzstd", "uncompress"})
_PACKED = frozenset({"gz", "tgz", "bz2", "xz", "lzma", "lz4", "zst", "z", "lz", "br"})
_NO_FILE = frozenset({"-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"})


def _h_compress(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """``gzip F`` deletes F and creates ``F.gz``; ``gunzip F.gz`` (``gzip -d``, ``xz -d``…) deletes ``F.gz`` and
    creates F: a write of each file removed or created, unless the call writes to standard output or only lists or
    tests; a bundle such as ``-kv`` counts letter by letter."""
    args = argv[1:]
    flags = {a for a in args if a.startswith("--")} | {"-" + c for a in args
                                                       if a.startswith("-") and not a.startswith("--") for c in a[1:]}
    if flags & _NO_FILE:
        return "read", None
    ops = _operands(args)
    if tool in ("zstd", "unzstd", "lz4", "brotli"):
        removes = "--rm" in flags or (tool == "brotli" and "-j" in flags)
    else:
        removes = not flags & {"-k", "--keep"}
    touched = list(ops) if removes else []
    if tool in _DECOMPRESSORS or flags & {"-d", "--decompress", "--uncompress"}:
        touched += [o[: o.rindex(".")] for o in ops if o.rsplit(".", 1)[-1].lower() in _PACKED]
    return _writes(w, touched, cwd, effects, f"{tool} (replaces the file)") if touched else ("read", None)


def _h_recode(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """Converters of a file's text: ``dos2unix F`` (``unix2dos``, ``mac2unix``, ``unix2mac``) rewrites each file in
    place (``-n IN OUT`` writes OUT: every operand counts); ``iconv``/``recode``-style ``-o F``/``--output F`` writes
    F; ``recode CHARSET F`` rewrites F."""
    _flags, ops, values = _opts_and_operands(argv[1:], {"-f", "-t", "-o", "--from-code", "--to-code", "--output"}
                                             if tool == "iconv" else set())
    if tool == "iconv":
        targets = [v for k, v in values.items() if k in ("o", "output") and v]
    else:
        targets = ops[1:] if tool == "recode" else ops
    return _writes(w, targets, cwd, effects, f"{tool} (rewrites the file)") if targets else ("read", None)


def _h_unison(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """``unison ROOT1 ROOT2`` syncs both ways: any file below either local root may be written; a profile name alone
    names roots cuticle cannot see (``~/.unison/NAME.prf``), so the roots are unknown. Its options are single-dash
    words (``-batch``, ``-path P``): every word that is not one counts as a possible root (a value such as ``-path
    memory`` too, the safer reading)."""
    words = [a for a in argv[1:] if not a.startswith("-")]
    roots = [o for o in words if "://" not in o] if len(words) > 1 else ["$(…)"]
    return _writes(w, [*roots, *(r.rstrip("/") + "/$(…)" for r in roots)], cwd, effects, f"{tool} (syncs both ways)")


def _h_yq(w: Walker, tool, argv, cwd, stdin, effects, taints):
    if any(a in ("-i", "--inplace", "--in-place") for a in argv[1:]):
        ops = _operands(argv[1:])
        for ref in w.paths(ops[1:] if len(ops) > 1 else ops, cwd):
            effects.append(w.write_effect(ref, f"{tool} -i"))
        return "write", None
    return "read", None


def _h_base64(w: Walker, tool, argv, cwd, stdin, effects, taints):
    return "read", None


def _h_infra(w: Walker, tool, argv, cwd, stdin, effects, taints):
    v = infra_violation(tool, argv, segment=w.at)
    if v is not None:
        w.report(v)
        return "dangerous", None
    return "exec", None

#: patterns the handlers use, compiled on first use (not looked up in re's cache on every call)
_SED_W_OR_E = LazyRe(r"(^|;)\s*\d*\s*w\s+\S|\be\b")
_SED_W = LazyRe(r"(?:^|;)\s*\d*\s*w\s+(\S+)")
#: awk output redirection: ``print … > "file"`` / ``>> "file"`` (group 2) or a computed target (group 3)
_CHMOD_MODE = LazyRe(r"[0-7]{3,4}|[ugoa]*[+=-][rwxXst]*(,[ugoa]*[+=-][rwxXst]*)*")
