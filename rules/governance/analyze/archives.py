"""Archives and patches: the files tar, unzip, 7z and patch/git apply write, and cloud copy targets.
"""

from __future__ import annotations

from tiers.lazy import LazyRe

from ..invariants import no_network_egress
from ..invariants._targets import protected_write
from .model import Effect
from .tools import _TAR_LETTERS
from .words import _operands, _opts_and_operands

def _apply_patches(w: Walker, how: str, args, cwd, stdin, effects) -> None:
    """git apply / git am / patch: the files each patch names are written (read from disk or a heredoc); a patch
    that cannot be read counts as writing every protected path under the working directory."""
    from ..content import diff_paths, read_text

    valued = {"-p", "-i", "--input", "-d", "--directory", "-o", "--output", "-r", "--reject-file", "-B", "-z",
              "--exclude", "--include", "-C", "--whitespace", "-F", "--fuzz", "-V"}
    flags, ops, values = _opts_and_operands(list(args), valued)
    names = set(flags)
    if names & {"check", "stat", "numstat", "summary", "dry-run"} and "apply" not in names:
        return  # only reports what the patch would do
    base = values.get("directory") or values.get("d") or ""
    texts: list[str | None] = []
    sources = []
    if how == "patch":
        src = values.get("i") or values.get("input")
        if ops:  # patch ORIGFILE [PATCHFILE]: the named file is the one written
            for ref in w.paths(ops[:1], cwd):
                effects.append(w.write_effect(ref, how))
            return
        sources = [src] if src else []
    else:
        sources = ops
    for src in sources:
        ref = w.env.norm(src, cwd)
        texts.append(read_text(ref.abs) if ref.abs and ref.scope != "unknown" else None)
    if not sources:
        texts.append(stdin.text if stdin is not None and stdin.text is not None else None)
    prefix = (base.rstrip("/") + "/") if base else ""
    for text in texts:
        if text is None:
            w.cwd_hint = cwd
            if not w.reach_check(w.env.norm(prefix + "$(…)", cwd), how, "applies a patch to",
                                 "save the patch to a file in the workspace (it is then judged by the files it "
                                 "names) or check it first with --stat"):
                effects.append(Effect("write", w.env.norm(prefix + ".", cwd).display, "path"))
            continue
        for path in diff_paths(text):
            effects.append(w.write_effect(w.env.norm(prefix + path, cwd), how))


def _h_patch(w: Walker, tool, argv, cwd, stdin, effects, taints):
    _apply_patches(w, "patch", argv[1:], cwd, stdin, effects)
    return "write", None


def _extract(w: Walker, how: str, archive: str | None, members: list[str], dest: str, cwd, effects) -> None:
    """An archive extracted into ``dest``: the members named on the command line, else those the archive on disk
    lists, else (unreadable) every protected path under ``dest``."""
    from ..content import archive_members

    prefix = dest.rstrip("/") + "/" if dest not in ("", ".") else ""
    if not members and archive and archive != "-":
        ref = w.env.norm(archive, cwd)
        listed = archive_members(ref.abs) if ref.abs and ref.scope != "unknown" else None
        if listed is not None:
            members = listed
    if not members:
        w.cwd_hint = cwd
        w.reach_check(w.env.norm(prefix + "$(…)", cwd), how, "extracts an archive whose content is not known into",
                      "list it first (tar -tf / unzip -l) and extract the members by name, or extract into a "
                      "directory that holds no protected files (build/, tmp/)")
        effects.append(Effect("write", w.env.norm(dest or ".", cwd).display, "path"))
        return
    for m in members[:2000]:
        effects.append(w.write_effect(w.env.norm(prefix + m.lstrip("/"), cwd), how))


def _h_7z(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """7z / 7za / 7zz / unrar: ``x`` and ``e`` extract (``-oDIR``); other commands read or create archives."""
    args = argv[1:]
    if not args or args[0] not in ("x", "e"):
        if args[:1] in (["a"], ["u"]):  # add: every file under the operands after the archive is read
            ops = [a for a in args[1:] if not a.startswith("-")]
            w.dir_read(f"{tool} {args[0]}", ops[1:] or ["."], cwd,
                       [a for a in args if a.startswith(("-x", "-xr"))])
        return "write" if args[:1] in (["a"], ["u"]) else "read", None
    dest = next((a[2:] for a in args if a.startswith("-o") and len(a) > 2), ".")
    ops = [a for a in args[1:] if not a.startswith("-")]
    if tool == "unrar" and len(ops) > 1 and ops[-1].endswith("/"):
        dest = ops.pop()
    if ops:
        _extract(w, f"{tool} {args[0]}", ops[0], ops[1:], dest, cwd, effects)
    return "write", None


def _h_cloud_copy(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """aws s3 cp/sync/mv and gsutil cp/rsync/mv: local sources copied to a bucket are uploads."""
    ops = _operands(argv[1:])
    if tool == "aws":
        ops = ops[1:] if ops[:1] == ["s3"] else []
    if not ops or ops[0] not in ("cp", "sync", "mv", "rsync"):
        return "net", None
    rest = ops[1:]
    if len(rest) >= 2 and "://" in rest[-1]:
        for src in rest[:-1]:
            if "://" in src:
                continue
            ref = w.env.norm(src, cwd)
            if w.carries_protected(src, cwd) or w.env.protected(ref):
                w.report(no_network_egress.cloud_upload(tool, ref.display, segment=w.at))
            effects.append(Effect("read", ref.display, "path"))
    elif len(rest) >= 2:
        effects.append(w.write_effect(w.env.norm(rest[-1], cwd), tool))
    return "net", None


def _h_unzip(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], {"-d", "-x", "-P"})
    if set(flags) & {"l", "t", "v", "Z", "p", "z"}:
        return "read", None
    if not ops:
        return "read", None
    _extract(w, "unzip", ops[0], ops[1:], values.get("d") or ".", cwd, effects)
    return "write", None


def _h_tar(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], {"-f", "--file", "-C", "--directory"})
    if argv[1:] and not argv[1].startswith("-") and _TAR_LETTERS.fullmatch(argv[1]):
        flags.extend(argv[1])
    if "x" in flags or "extract" in flags or "get" in flags:
        dest = values.get("C") or values.get("directory") or "."
        into = w.env.norm(dest, cwd)
        if dest != "." and w.report(protected_write(w.env, into, "tar", "extracts into", segment=w.at)):
            return "write", None
        archive = values.get("f") or values.get("file")
        members = ops[1:] if archive is None and argv[1:] and not argv[1].startswith("-") and "f" in argv[1] \
            else ops
        if archive is None and argv[1:] and not argv[1].startswith("-") and "f" in argv[1] and ops:
            archive = ops[0]
        _extract(w, "tar -x", archive, members, dest, cwd, effects)
        return "write", None
    if "c" in flags or "create" in flags or "r" in flags or "u" in flags:
        out = values.get("f") or values.get("file")
        if out and out != "-":
            effects.append(w.write_effect(w.env.norm(out, cwd), "tar"))
        members = ops[1:] if out is None and argv[1:] and not argv[1].startswith("-") and "f" in argv[1] else ops
        for m in members:  # what goes into the archive is read (`tar -c memory | ssh …` carries memory)
            effects.append(Effect("read", w.env.norm(m, cwd).display, "path"))
        return "write", None
    return "read", None
