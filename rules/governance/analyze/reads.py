"""Tree readers and the state secrets: a command that reads every file under a directory holding ``.cuticle/``
(archives, recursive copies, key-matching greps) reads the stamp key too.
"""

from __future__ import annotations

import re

from ..invariants import no_governance_self_modification
from .tools import _STATE_DIR_OK, _TAR_LETTERS
from .words import _opts_and_operands

def carries_protected(self, target: str, cwd) -> bool:
    ref = self.env.norm(target, cwd)
    return self.env.is_secret(ref) or self.env.is_state_secret(ref) or bool(self.env.protected(ref))


def tree_reader(self, tool: str, argv, cwd) -> None:
    """A command that reads every file under a directory holding ``.cuticle/`` (an archive, a recursive copy,
    a grep whose pattern matches the key's hex) reads the key too, unless it excludes ``.cuticle``."""
    args = argv[1:]
    if any(".cuticle" in a or "cuticle" in a.split("=", 1)[-1] for a in args if a.startswith("-")):
        return  # --exclude=.cuticle, --exclude-dir=.cuticle
    flags, ops, values = _opts_and_operands(args, _TREE_VALUED.get(tool, set()))
    names = set(flags)
    if tool in ("tar", "bsdtar"):
        if not (names & {"c", "create", "r", "append", "u", "update"} or
                (args and not args[0].startswith("-") and _TAR_LETTERS.fullmatch(args[0]) and
                 ("c" in args[0] or "r" in args[0]))):
            return
    elif tool in ("cp", "scp", "rsync"):
        if not names & {"r", "R", "a", "recursive", "archive"}:
            return
        ops = ops[:-1]
    elif tool == "zip":
        if not names & {"r", "recurse-paths"}:
            return
        ops = ops[1:]
    elif tool in ("grep", "egrep", "fgrep"):
        if not names & {"r", "R", "recursive", "dereference-recursive"} or names & {"l", "L", "c", "q",
                                                                                  "files-with-matches",
                                                                                  "count", "quiet"}:
            return
        pattern = values.get("e") or values.get("regexp")
        if pattern is None:
            if not ops:
                return
            pattern, ops = ops[0], ops[1:]
        if not ("v" in names or "invert-match" in names or _matches_key(pattern, "F" in names or
                                                                      tool == "fgrep", "i" in names)):
            return
    root = self.env.root
    for o in ops:
        ref = self.env.norm(o, cwd)
        if ref.abs and (ref.abs == root or root.startswith(ref.abs.rstrip("/") + "/")):
            self.report(no_governance_self_modification.tree_read(tool, ref.display, segment=self.at))
            return


def dir_read(self, tool: str, dirs, cwd, excludes=()) -> bool:
    """``tool`` reads (serves, archives) every file under each of ``dirs``: when one holds the workspace's
    ``.cuticle/`` (the workspace, a parent, or ``.cuticle`` itself) it reads the stamp key and the token, unless an
    exclusion names ``.cuticle``."""
    if any("cuticle" in x for x in excludes):
        return False
    root = self.env.root
    for d in dirs:
        ref = self.env.norm(d, cwd)
        if ref.abs and (ref.abs == root or root.startswith(ref.abs.rstrip("/") + "/") or
                        ref.abs.startswith(root + "/.cuticle")):
            return self.report(no_governance_self_modification.tree_read(tool, ref.display, segment=self.at))
    return False


def scan_state_secrets(self, tool: str, argv, cwd) -> None:
    """Every argument that names the stamp key or the server token (``base64 .cuticle/key``, ``dd
    if=.cuticle/key``, ``cd .cuticle && sort key``, ``cat .cu*/ke?``), or hands the ``.cuticle`` directory to
    a command that reads what is inside, is a read of cuticle's secrets, whatever the command."""
    if tool in _CHDIR_TOOLS:  # git -C DIR, make -C DIR: the operands are resolved in DIR
        cwd = _chdir(self, tool, argv, cwd)
    in_state = cwd is not None and "/.cuticle" in cwd
    if tool in _TREE_READERS:
        self.tree_reader(tool, argv, cwd)
    if not in_state:
        # the test below, over all the arguments at once: no argument passes it unless the joined text does
        # (no needle holds the separator), and most commands name no such thing
        joined = "\x00".join(argv)
        if not ("key" in joined or "serve" in joined or "cuti" in joined or "*" in joined or "?" in joined
                or "[" in joined or "$(find)" in joined or "file:" in joined):
            return
    for a in argv[1:]:
        if a.startswith(("--exclude", "--ignore", "-x")):
            continue
        if not (in_state or "key" in a or "serve" in a or "cuti" in a or "*" in a or "?" in a or "[" in a
                or "$(find)" in a or "file:" in a):
            continue
        value = a
        if "file://" in a:  # a file:// URL (curl, wget, git, a browser) reads the path it names
            from urllib.parse import unquote

            value = unquote(a[a.index("file://") + 7:])
            if value.startswith("localhost/"):
                value = value[9:]
        elif "=" in a and (a.startswith("-") or a[:3] in ("if=", "of=")):
            value = a.split("=", 1)[1]
        elif a.startswith("@"):
            value = a[1:]
        elif a.startswith("-") and not in_state:
            continue
        ref = self.env.norm(value, cwd)
        if self.check_state_secret(ref, value, tool):
            return
        if ref.scope == "ws" and (ref.rel or "").lower() in (".cuticle", ".cuticle/") and \
                tool not in _STATE_DIR_OK:
            self.report(no_governance_self_modification.state_dir_read(tool, ref.display, segment=self.at))
            return


#: tools whose ``-C DIR`` (before the subcommand) is the directory their operands are resolved in
_CHDIR_TOOLS = frozenset({"git", "make", "gmake"})


def _chdir(self, tool: str, argv, cwd):
    """The directory ``tool``'s operands resolve in after its ``-C DIR`` options (each relative to the last)."""
    k = 1
    while k < len(argv):
        a = argv[k]
        if a == "-C" and k + 1 < len(argv):
            cwd = self.env.cd(cwd, argv[k + 1])
            k += 2
            continue
        if a.startswith("-C") and len(a) > 2 and tool != "git":
            cwd = self.env.cd(cwd, a[2:])
        elif tool == "git" and not a.startswith("-"):
            break  # the subcommand: its own -C means something else
        elif tool == "git" and a in ("-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"):
            k += 1
        k += 1
    return cwd


# -- wrappers --------------------------------------------------------------------------------------------
#: commands that read every file under a directory operand (see Walker.tree_reader), their valued options
_TREE_VALUED = {"tar": {"-f", "--file", "-C", "--directory", "-T", "-X"}, "bsdtar": {"-f", "-C"},
                "grep": {"-e", "--regexp", "-f", "--file", "-m", "-A", "-B", "-C", "--include", "--exclude"},
                "cp": {"-t", "--target-directory", "-S"}, "rsync": {"-e", "--rsh"}, "scp": {"-P", "-i", "-o", "-F"},
                "zip": {"-x", "-i"}}
_TREE_VALUED["egrep"] = _TREE_VALUED["fgrep"] = _TREE_VALUED["grep"]
_TREE_READERS = frozenset(_TREE_VALUED)
_KEY_SAMPLE = "0123456789abcdef" * 4


def _matches_key(pattern: str, fixed: bool, icase: bool) -> bool:
    """Could a grep pattern print a line of the stamp key (64 hex digits)? Unknown regex syntax counts as yes."""
    if fixed:
        return bool(pattern) and all(c in "0123456789abcdefABCDEF" for c in pattern)
    try:
        py = pattern.replace("\\<", r"\b").replace("\\>", r"\b").replace("\\|", "|").replace("\\(", "(").replace(
            "\\)", ")").replace("\\{", "{").replace("\\}", "}")
        return re.search(py, _KEY_SAMPLE, re.I if icase else 0) is not None or \
            re.search(py, _KEY_SAMPLE.upper()) is not None
    except re.error:
        return True
