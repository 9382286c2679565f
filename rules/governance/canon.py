"""Canonical form and digest of one command: tool aliases, getopt-style flag normalization, sha256 digests.

Equivalent spellings digest equally (``cat f`` = ``head f``, ``grep -rn p .`` = ``rg -n p .``,
``git log --oneline`` = ``git log --pretty=oneline``, ``rm -rf x`` = ``rm --recursive --force x`` =
``/bin/rm -fr x``). The canonical text is itself a valid command whose canonical form is itself.
"""

from __future__ import annotations

import functools

from tiers.record import dataclass, field

from tiers.secrets import MASK, find_secrets, needs_mask

#: argv[0] basename -> canonical tool
TOOL_ALIASES: dict[str, str] = {
    "cat": "read", "head": "read", "tail": "read", "less": "read", "more": "read", "bat": "read", "batcat": "read",
    "grep": "grep", "egrep": "grep", "fgrep": "grep", "rg": "grep", "ripgrep": "grep", "ag": "grep", "ack": "grep",
    "find": "find", "fd": "find", "fdfind": "find",
    "ls": "ls", "exa": "ls", "eza": "ls", "tree": "ls", "dir": "ls",
    "kubectl": "kubectl", "k": "kubectl",
    "python": "python", "python3": "python", "python2": "python", "py": "python", "pypy": "python", "pypy3": "python",
    "nodejs": "node", "vim": "vi", "nvim": "vi", "gawk": "awk", "mawk": "awk", "nawk": "awk",
    "mariadb": "mysql", "sqlite": "sqlite3", "pip3": "pip", "podman": "docker", "wget2": "wget",
    "ncat": "nc", "netcat": "nc", "doas": "sudo", "sudoedit": "sudo",
}

#: tools whose first non-flag word is a subcommand (the "action")
MULTI_LEVEL = frozenset({"git", "docker", "kubectl", "gh", "cargo", "go", "pnpm", "npm", "uv", "terraform", "helm",
                         "systemctl", "apt", "apt-get", "brew", "yarn", "poetry", "conda", "pip", "dnf", "yum",
                         "snap", "gcloud", "aws", "az", "kubeadm", "bun", "deno", "ip", "service"})

#: (tool, action) or tool -> short/long flag names that take a value (the next word when not attached)
VALUED: dict[str, frozenset[str]] = {
    "grep": frozenset({"A", "B", "C", "e", "m", "f", "after-context", "before-context", "context", "regexp",
                       "max-count", "file", "g", "glob", "t", "type", "T", "type-not", "include", "exclude",
                       "max-depth", "d", "D"}),
    "read": frozenset({"n", "c", "lines", "bytes", "head-lines", "tail-lines"}),
    "git": frozenset({"C", "c", "git-dir", "work-tree", "namespace", "exec-path"}),
    "git.log": frozenset({"n", "max-count", "format", "pretty", "since", "until", "author", "grep", "after", "before"}),
    "git.commit": frozenset({"m", "message", "author", "F", "file", "C", "c", "reuse-message", "date", "fixup",
                             "squash", "t", "template"}),
    "git.push": frozenset({"o", "push-option", "repo", "receive-pack", "exec"}),
    "git.checkout": frozenset({"b", "B", "orphan", "conflict"}),
    "git.switch": frozenset({"c", "C", "create", "force-create", "orphan"}),
    "git.clone": frozenset({"b", "branch", "depth", "o", "origin", "reference", "c", "config", "j", "jobs"}),
    "git.branch": frozenset({"set-upstream-to", "u"}),
    "git.diff": frozenset(),
    "gh.pr": frozenset({"base", "B", "head", "H", "title", "t", "body", "b", "repo", "R"}),
    "curl": frozenset({"output", "o", "request", "X", "header", "H", "data", "d", "data-binary", "data-raw",
                       "data-urlencode", "form", "F", "user", "u", "upload-file", "T", "A", "user-agent", "e",
                       "referer", "b", "cookie", "c", "cookie-jar", "m", "max-time", "connect-timeout", "retry",
                       "x", "proxy", "w", "write-out", "K", "config", "E", "cert", "key", "cacert", "unix-socket",
                       "abstract-unix-socket", "resolve", "url", "json", "range", "r", "z", "time-cond"}),
    "wget": frozenset({"O", "output-document", "o", "output-file", "P", "directory-prefix", "post-file", "post-data",
                       "body-file", "body-data", "method", "header", "U", "user-agent", "t", "tries", "T", "timeout",
                       "i", "input-file", "a", "append-output", "user", "password", "e", "execute"}),
    "find": frozenset(),
    "docker": frozenset({"name", "format", "f", "H", "host", "context", "e", "env", "v", "volume", "p", "publish",
                         "w", "workdir", "u", "user", "network", "entrypoint", "l", "label", "m", "memory"}),
    "kubectl": frozenset({"context", "n", "namespace", "s", "server", "f", "filename", "o", "output", "l",
                          "selector", "c", "container", "kubeconfig"}),
    "python": frozenset({"c", "m", "W", "X", "Q"}),
    "node": frozenset({"e", "eval", "p", "print", "r", "require", "input-type", "import", "loader"}),
    "ruby": frozenset({"e", "r", "I", "C", "E"}), "perl": frozenset({"e", "E", "I", "M", "m", "x"}),
    "php": frozenset({"r", "c", "d", "f", "z"}),
    "bash": frozenset({"c", "o", "O", "rcfile", "init-file"}), "sh": frozenset({"c", "o"}),
    "zsh": frozenset({"c", "o"}), "dash": frozenset({"c", "o"}), "ash": frozenset({"c", "o"}),
    "ksh": frozenset({"c", "o"}), "fish": frozenset({"c", "command", "C", "init-command"}),
    "sed": frozenset({"e", "expression", "f", "file", "l", "line-length"}),
    "awk": frozenset({"F", "f", "v", "field-separator", "assign", "i", "include"}),
    "rm": frozenset(), "cp": frozenset({"t", "target-directory", "S", "suffix"}),
    "mv": frozenset({"t", "target-directory", "S", "suffix"}), "ln": frozenset({"t", "target-directory", "S"}),
    "install": frozenset({"m", "mode", "o", "owner", "g", "group", "t", "target-directory", "S"}),
    "tee": frozenset(), "chmod": frozenset({"reference", "mode"}), "chown": frozenset({"reference", "from"}),
    "psql": frozenset({"c", "command", "d", "dbname", "f", "file", "h", "host", "p", "port", "U", "username",
                       "o", "output", "v", "set", "variable", "L", "log-file", "P", "pset", "F", "R", "T"}),
    "mysql": frozenset({"e", "execute", "u", "user", "h", "host", "P", "port", "D", "database", "S", "socket",
                        "default-character-set", "defaults-file"}),
    "sqlite3": frozenset({"cmd", "separator", "newline", "nullvalue", "init"}),
    "duckdb": frozenset({"c", "cmd", "s", "init"}),
    "sqlcmd": frozenset({"Q", "q", "S", "U", "P", "d", "i", "o"}),
    "clickhouse-client": frozenset({"q", "query", "h", "host", "u", "user", "d", "database", "port"}),
    "xargs": frozenset({"I", "n", "L", "P", "d", "E", "s", "a", "max-args", "max-lines", "max-procs", "delimiter",
                        "arg-file", "replace", "eof"}),
    "ssh": frozenset({"i", "p", "l", "o", "F", "J", "L", "R", "D", "b", "c", "e", "m", "O", "S", "W", "w", "E", "B"}),
    "scp": frozenset({"i", "P", "o", "F", "J", "l", "c", "S"}),
    "rsync": frozenset({"e", "rsh", "exclude", "include", "filter", "f", "files-from", "rsync-path", "exclude-from",
                        "include-from", "chmod", "chown", "log-file", "password-file", "port", "T", "temp-dir"}),
    "tar": frozenset({"f", "file", "C", "directory", "T", "files-from", "X", "exclude-from", "exclude"}),
    "make": frozenset({"C", "directory", "f", "file", "makefile", "j", "jobs", "I", "include-dir", "o", "W"}),
    "dd": frozenset(), "gh": frozenset({"R", "repo", "hostname"}),
    "nc": frozenset({"p", "s", "w", "i", "q", "x", "X", "e", "c"}),
    "sort": frozenset({"o", "output", "k", "key", "t", "field-separator", "S", "buffer-size", "T"}),
    "npm": frozenset({"prefix", "C", "w", "workspace"}), "pnpm": frozenset({"C", "dir", "filter", "F"}),
    "yarn": frozenset({"cwd"}), "cargo": frozenset({"p", "package", "j", "jobs", "features", "target",
                                                    "manifest-path", "Z"}),
    "go": frozenset({"C", "o", "run", "tags", "p", "timeout", "count", "bench", "coverprofile"}),
    "pytest": frozenset({"k", "m", "p", "c", "o", "rootdir", "maxfail", "tb", "durations", "n", "cov",
                         "basetemp", "junitxml"}),
}

#: (tool or tool.action) -> short flag -> long name
FLAG_ALIASES: dict[str, dict[str, str]] = {
    "grep": {"r": "recursive", "R": "recursive", "i": "ignore-case", "n": "line-number", "l": "files-with-matches",
             "c": "count", "v": "invert-match", "w": "word-regexp", "e": "regexp", "A": "after-context",
             "B": "before-context", "C": "context", "E": "extended-regexp", "F": "fixed-strings", "H": "with-filename",
             "h": "no-filename", "o": "only-matching", "q": "quiet", "s": "no-messages", "x": "line-regexp",
             "m": "max-count", "L": "files-without-match", "P": "perl-regexp"},
    "git.log": {"n": "max-count", "p": "patch"},
    "gh.pr": {"B": "base", "H": "head", "t": "title", "b": "body", "R": "repo"},
    "read": {"n": "lines", "c": "bytes", "f": "follow", "q": "quiet", "v": "verbose", "A": "show-all",
             "b": "number-nonblank", "s": "squeeze-blank"},
    "ls": {"l": "long", "a": "all", "h": "human-readable", "R": "recursive", "A": "almost-all", "t": "sort-time",
           "r": "reverse", "S": "sort-size", "d": "directory", "1": "one-per-line", "F": "classify", "i": "inode"},
    "docker.ps": {"a": "all", "q": "quiet", "f": "filter", "n": "last", "s": "size"},
    "curl": {"s": "silent", "S": "show-error", "o": "output", "O": "remote-name", "X": "request", "H": "header",
             "d": "data", "L": "location", "f": "fail", "k": "insecure", "I": "head", "i": "include", "v": "verbose",
             "F": "form", "u": "user", "T": "upload-file", "A": "user-agent", "x": "proxy", "m": "max-time",
             "w": "write-out", "G": "get", "C": "continue-at", "r": "range", "b": "cookie", "c": "cookie-jar",
             "e": "referer", "K": "config", "E": "cert", "4": "ipv4", "6": "ipv6", "#": "progress-bar"},
    "wget": {"O": "output-document", "q": "quiet", "o": "output-file", "P": "directory-prefix", "c": "continue",
             "N": "timestamping", "r": "recursive", "nv": "no-verbose", "U": "user-agent", "t": "tries",
             "T": "timeout", "i": "input-file", "S": "server-response", "v": "verbose", "b": "background"},
    "rm": {"r": "recursive", "R": "recursive", "f": "force", "i": "interactive", "I": "interactive-once",
           "d": "dir", "v": "verbose"},
    "cp": {"r": "recursive", "R": "recursive", "f": "force", "i": "interactive", "n": "no-clobber", "v": "verbose",
           "a": "archive", "p": "preserve", "t": "target-directory", "u": "update", "l": "link", "s": "symbolic-link",
           "T": "no-target-directory", "b": "backup"},
    "mv": {"f": "force", "i": "interactive", "n": "no-clobber", "v": "verbose", "t": "target-directory",
           "u": "update", "T": "no-target-directory", "b": "backup"},
    "ln": {"s": "symbolic", "f": "force", "n": "no-dereference", "v": "verbose", "t": "target-directory",
           "r": "relative", "T": "no-target-directory", "i": "interactive", "b": "backup"},
    "mkdir": {"p": "parents", "v": "verbose", "m": "mode"},
    "chmod": {"R": "recursive", "v": "verbose", "f": "silent", "c": "changes"},
    "chown": {"R": "recursive", "v": "verbose", "f": "silent", "c": "changes", "h": "no-dereference"},
    "tee": {"a": "append", "i": "ignore-interrupts", "p": "output-error"},
    "sed": {"i": "in-place", "n": "quiet", "e": "expression", "E": "regexp-extended", "r": "regexp-extended",
            "f": "file", "s": "separate", "z": "null-data", "u": "unbuffered"},
    "git.push": {"f": "force", "u": "set-upstream", "d": "delete", "n": "dry-run", "v": "verbose", "q": "quiet",
                 "o": "push-option"},
    "git.commit": {"m": "message", "a": "all", "n": "no-verify", "v": "verbose", "q": "quiet", "s": "signoff",
                   "F": "file", "S": "gpg-sign", "e": "edit", "p": "patch"},
    "git.diff": {"p": "patch", "u": "patch", "w": "ignore-all-space", "b": "ignore-space-change", "R": "reverse",
                 "M": "find-renames"},
    "git.status": {"s": "short", "b": "branch", "u": "untracked-files", "v": "verbose"},
    "git.branch": {"d": "delete", "D": "force-delete", "f": "force", "m": "move", "M": "force-move", "a": "all",
                   "r": "remotes", "v": "verbose", "c": "copy", "C": "force-copy", "u": "set-upstream-to"},
    "git.checkout": {"b": "create", "B": "force-create", "f": "force", "q": "quiet", "p": "patch", "t": "track"},
    "git.switch": {"c": "create", "C": "force-create", "f": "force", "d": "detach", "t": "track"},
    "git.clean": {"f": "force", "d": "dirs", "x": "ignored-too", "X": "only-ignored", "n": "dry-run", "q": "quiet",
                  "i": "interactive", "e": "exclude"},
    "git.reset": {"q": "quiet", "p": "patch", "N": "intent-to-add"},
    "git.add": {"A": "all", "u": "update", "p": "patch", "n": "dry-run", "v": "verbose", "f": "force", "N": "intent-to-add"},
    "python": {"c": "command", "m": "module", "u": "unbuffered", "B": "dont-write-bytecode", "O": "optimize",
               "E": "ignore-environment", "I": "isolated", "q": "quiet", "v": "verbose", "V": "version",
               "s": "no-user-site", "S": "no-site", "W": "warnings", "X": "implementation-option"},
    "node": {"e": "eval", "p": "print", "r": "require", "i": "interactive", "v": "version", "c": "check"},
    "perl": {"e": "execute", "E": "execute-features", "i": "in-place", "p": "print-loop", "n": "loop",
             "l": "line-endings", "w": "warnings", "M": "module", "I": "include"},
    "ruby": {"e": "execute", "r": "require", "I": "include", "w": "warnings", "n": "loop", "p": "print-loop",
             "i": "in-place"},
    "xargs": {"I": "replace", "n": "max-args", "L": "max-lines", "P": "max-procs", "d": "delimiter", "0": "null",
              "r": "no-run-if-empty", "t": "verbose", "p": "interactive", "E": "eof", "a": "arg-file", "x": "exit"},
    "psql": {"c": "command", "d": "dbname", "f": "file", "h": "host", "p": "port", "U": "username", "o": "output",
             "q": "quiet", "X": "no-psqlrc", "A": "no-align", "t": "tuples-only", "v": "set", "1": "single-transaction"},
    "mysql": {"e": "execute", "u": "user", "h": "host", "P": "port", "D": "database", "S": "socket", "B": "batch",
              "N": "skip-column-names", "s": "silent", "v": "verbose", "t": "table"},
    "make": {"C": "directory", "f": "file", "j": "jobs", "k": "keep-going", "n": "dry-run", "s": "silent",
             "B": "always-make", "i": "ignore-errors", "q": "question", "I": "include-dir"},
    "tar": {"x": "extract", "c": "create", "t": "list", "v": "verbose", "f": "file", "z": "gzip", "j": "bzip2",
            "J": "xz", "C": "directory", "p": "preserve-permissions", "a": "auto-compress", "r": "append",
            "u": "update", "k": "keep-old-files", "O": "to-stdout"},
    "rsync": {"a": "archive", "v": "verbose", "z": "compress", "r": "recursive", "n": "dry-run", "P": "partial-progress",
              "e": "rsh", "u": "update", "h": "human-readable", "q": "quiet", "c": "checksum", "l": "links",
              "p": "perms", "t": "times", "g": "group", "o": "owner", "D": "devices-specials"},
    "ssh": {"i": "identity", "p": "port", "l": "login", "v": "verbose", "q": "quiet", "t": "tty", "T": "no-tty",
            "N": "no-command", "f": "background", "A": "forward-agent", "X": "forward-x11", "C": "compress"},
    "sort": {"o": "output", "r": "reverse", "n": "numeric-sort", "u": "unique", "k": "key", "t": "field-separator",
             "h": "human-numeric-sort", "f": "ignore-case", "V": "version-sort", "s": "stable", "z": "zero-terminated"},
    "pytest": {"q": "quiet", "v": "verbose", "x": "exitfirst", "k": "keyword", "m": "marker", "s": "capture-no",
               "n": "numprocesses", "p": "plugin", "c": "config-file", "l": "showlocals", "r": "report-chars"},
}

#: long options of each tool (GNU getopt accepts any unambiguous prefix: ``rm --rec`` = ``rm --recursive``)
LONG_OPTIONS: dict[str, tuple[str, ...]] = {
    "rm": ("recursive", "force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "dir",
           "verbose", "help", "version"),
    "cp": ("recursive", "force", "interactive", "no-clobber", "verbose", "archive", "preserve", "target-directory",
           "update", "link", "symbolic-link", "no-target-directory", "backup", "dereference", "parents", "reflink"),
    "mv": ("force", "interactive", "no-clobber", "verbose", "target-directory", "update", "no-target-directory",
           "backup", "strip-trailing-slashes"),
    "chmod": ("recursive", "verbose", "silent", "quiet", "changes", "reference", "preserve-root", "no-preserve-root"),
    "chown": ("recursive", "verbose", "silent", "quiet", "changes", "reference", "from", "dereference",
              "no-dereference", "preserve-root", "no-preserve-root"),
    "sed": ("in-place", "quiet", "silent", "expression", "regexp-extended", "file", "separate", "null-data",
            "unbuffered", "posix", "debug", "sandbox", "follow-symlinks", "line-length"),
    "tee": ("append", "ignore-interrupts", "output-error"),
    "git.push": ("force", "force-with-lease", "force-if-includes", "set-upstream", "delete", "dry-run", "verbose",
                 "quiet", "mirror", "all", "branches", "tags", "follow-tags", "prune", "atomic", "no-verify",
                 "push-option", "repo", "porcelain", "signed", "receive-pack", "exec", "progress", "thin", "no-thin",
                 "recurse-submodules", "ipv4", "ipv6", "no-force-with-lease"),
}



@dataclass(frozen=True, slots=True)
class Canonical:
    """The canonical form of one command: tool, action, sorted flags, positional args, digest."""

    tool: str
    action: str
    flags: tuple[tuple[str, str], ...]
    args: tuple[str, ...]
    sudo: bool = False
    #: the digest, computed on first use (most decisions never need it)
    _digest: str = field(default="", compare=False, repr=False)

    @property
    def digest(self) -> str:
        """Full sha256 hex of the canonical form (truncate only for display); computed once, when asked."""
        d = self._digest
        if not d:
            flags = self.flags
            if not flags:
                flag_part = ""
            elif len(flags) == 1:
                flag_part = flags[0][0] + "=" + flags[0][1] + ";"
            else:
                flag_part = "".join([k + "=" + v + ";" for k, v in flags])
            payload = f"{'sudo|' if self.sudo else ''}{self.tool}|{self.action}|{flag_part}|{NUL.join(self.args)}"
            # without surrogates (an ASCII text has none) "surrogatepass" changes nothing: plain encode() is cheaper
            d = _sha256(payload.encode() if payload.isascii() else payload.encode("utf-8", "surrogatepass")).hexdigest()
            _set_digest(self, d)
        return d

    @property
    def short(self) -> str:
        return self.digest[:16]

    @property
    def text(self) -> str:
        """A shell command whose canonical form is this one (the rendering is a fixed point)."""
        out = ["sudo"] if self.sudo else []
        out.append(_quote(self.tool))
        if self.action:
            out.append(_quote(self.action))
        for k, v in self.flags:
            # a valued flag with an empty value renders as --k= so it never swallows the next word
            out.append(_quote(f"--{k}={v}" if v or _valued(self.tool, self.action, k) else f"--{k}"))
        if self.tool not in ("echo", "printf") and (any(a.startswith("-") for a in self.args) or (
                self.tool in MULTI_LEVEL and not self.action and self.args)):
            out.append("--")
        out.extend(_quote(a) for a in self.args)
        return " ".join(out)

    def to_json(self) -> dict:
        return {"tool": self.tool, "subcommand": self.action, "flags": {k: v for k, v in self.flags},
                "args": list(self.args), "canonical": self.text, "digest": self.short, "sha256": self.digest}


_set_digest = Canonical._digest.__set__  # the slot's own setter (a frozen record's __setattr__ refuses)
from hashlib import sha256 as _sha256  # noqa: E402
NUL = "\x00"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def _quote(s: str) -> str:
    if s and all(c in _SAFE for c in s):
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"


@functools.lru_cache(maxsize=4096)
def tool_name(argv0: str) -> str:
    """The canonical tool of an argv[0]: basename, version suffixes dropped (python3.11), aliases applied."""
    base = argv0.rsplit("/", 1)[-1] if "/" in argv0 else argv0
    if base.endswith(".exe"):
        base = base[:-4]
    low = base.lower() if base.isascii() else base
    if low.startswith("python"):
        tail = low[6:]
        if tail == "" or all(c.isdigit() or c == "." for c in tail):
            return "python"
    if low in TOOL_ALIASES:
        return TOOL_ALIASES[low]
    for prefix in ("pip", "node", "ruby", "perl", "php", "lua"):
        if low.startswith(prefix) and low[len(prefix):].replace(".", "").isdigit():
            return TOOL_ALIASES.get(prefix, prefix)
    return low or "unknown"


def _lookup(table: dict, tool: str, action: str):
    if action and f"{tool}.{action}" in table:
        return table[f"{tool}.{action}"]
    return table.get(tool)


@functools.lru_cache(maxsize=8192)
def _valued(tool: str, action: str, name: str, raw0: str = "") -> bool:
    if tool == "read" and raw0 not in ("head", "tail", ""):
        return False  # cat -n numbers lines; only head/tail take -n N
    for key in ((f"{tool}.{action}",) if action else ()) + (tool,):
        if name in VALUED.get(key, ()):
            return True
    return False


@functools.lru_cache(maxsize=8192)
def _alias(tool: str, action: str, name: str) -> str:
    for key in ((f"{tool}.{action}",) if action else ()) + (tool,):
        aliases = FLAG_ALIASES.get(key)
        if aliases and name in aliases:
            return aliases[name]
    longs = _lookup(LONG_OPTIONS, tool, action)
    if longs and len(name) > 1 and name not in longs:
        hits = [opt for opt in longs if opt.startswith(name)]
        if len(hits) == 1:
            return hits[0]
    return name


@functools.lru_cache(maxsize=8192)
def _short_flag(tool: str, action: str, ch: str, raw0: str) -> tuple[bool, str]:
    """``(_valued(tool, action, ch, raw0), _alias(tool, action, ch))``: one cached lookup per clustered flag."""
    return _valued(tool, action, ch, raw0), _alias(tool, action, ch)


#: key -> {ch: _short_flag(tool, action, ch, raw0)} for the one-character flags with a table entry (see _short_table)
_SHORT_TABLES: dict[str, dict[str, tuple[bool, str]]] = {}
_NO_SHORT: dict[str, tuple[bool, str]] = {}


def _short_table(tool: str, action: str, raw0: str) -> dict[str, tuple[bool, str]]:
    """``_short_flag(tool, action, ch, raw0)`` for every one-character ``ch`` that has an entry in ``VALUED`` or
    ``FLAG_ALIASES`` under ``tool.action`` or ``tool``; any other ``ch`` gives ``(False, ch)`` (no table names it,
    and the long-option prefix rule of :func:`_alias` only applies to names longer than one character). The
    action only matters when ``tool.action`` has an entry, and ``raw0`` only for ``read`` (head/tail or not), so the
    tables are keyed by the static table keys: a bounded cache whatever commands come in."""
    key = f"{tool}.{action}" if action else tool
    if key not in VALUED and key not in FLAG_ALIASES:
        key = tool
        if key not in VALUED and key not in FLAG_ALIASES:
            return _NO_SHORT
    if tool == "read" and raw0 not in ("head", "tail", ""):
        key += "!"  # cat/less/more: nothing is valued
    table = _SHORT_TABLES.get(key)
    if table is None:
        chars = {c for k in ((f"{tool}.{action}", tool) if action else (tool,))
                 for c in (*VALUED.get(k, ()), *FLAG_ALIASES.get(k, ())) if len(c) == 1}
        table = _SHORT_TABLES[key] = {c: _short_flag(tool, action, c, raw0) for c in chars}
    return table


#: tools whose single-dash words are long options (``find -name``) or whose args are code
_NO_CLUSTER = frozenset({"find", "java", "go", "dd", "ffmpeg", "gcc", "cc", "clang", "g++", "tcpdump", "xcodebuild",
                         "iptables", "openssl", "convert", "magick", "sqlite3", "duckdb", "test", "[", "[["})


@functools.lru_cache(maxsize=4096)
def _tool_info(argv0: str) -> tuple[str, str, bool, bool, bool, bool]:
    """What :func:`canonicalize` needs to know about an argv[0], worked out once per name: its tool, its
    lowercased basename (``head`` and ``tail`` number lines), whether the tool has subcommands, takes every word
    as an argument (echo, printf), has no clustered short flags, and has flags :func:`_post_process` rewrites."""
    tool = tool_name(argv0)
    raw0 = (argv0.rsplit("/", 1)[-1] if "/" in argv0 else argv0).lower()
    return (tool, raw0, tool in MULTI_LEVEL, tool == "echo" or tool == "printf", tool in _NO_CLUSTER,
            tool == "read" or tool == "grep" or tool == "git")


def canonicalize(argv: list[str], *, sudo: bool = False) -> Canonical:
    """Canonical form of an (unwrapped) argv."""
    if not argv:
        return Canonical("unknown", "", (), (), sudo)
    tool, raw0, multi, plain, no_cluster, post = _tool_info(argv[0])
    n = len(argv)
    action = ""
    flags: list[tuple[str, str]] = []
    args: list[str] = []
    has_value = False  # some flag got a non-empty value (see the masking check below)
    if n > 1:
        i = 1
        end_opts = False
        table = None  # the short-flag table of (tool, action), fetched at the first clustered flag
        while i < n:
            tok = argv[i]
            i += 1
            if end_opts or plain or tok[:1] != "-" or tok == "-":
                if multi and not action and not end_opts:
                    action = tok
                    table = None  # the flags after the action have its tables
                    continue
                args.append(tok)
                continue
            # from here tok is "-" followed by at least one character
            if tok[1] == "-":
                if tok == "--":
                    end_opts = True
                    continue
                if tok[2] == "=":  # "--=…"
                    args.append(tok)
                    continue
                name, eq, value = tok[2:].partition("=")
                name = _alias(tool, action, name)
                if not eq and _valued(tool, action, name, raw0) and i < n and argv[i][:1] != "-":
                    value = argv[i]
                    i += 1
                flags.append((name, value))
                if value:
                    has_value = True
                continue
            body = tok[1:]
            if body[0] == "=":
                args.append(tok)
                continue
            if no_cluster:
                name, eq, value = body.partition("=")
                if not eq and i < n and argv[i][:1] != "-" and tool == "find" and name not in (
                        "delete", "print", "print0", "ls", "prune", "quit", "empty", "depth", "daystart", "follow",
                        "mount", "xdev", "true", "false", "readable", "writable", "executable", "nouser", "nogroup"):
                    if name in ("exec", "execdir", "ok", "okdir"):
                        # the rest up to ';' or '+' is the command
                        cmd: list[str] = []
                        while i < n and argv[i] not in (";", "+"):
                            cmd.append(argv[i])
                            i += 1
                        i += 1
                        value = " ".join(cmd)
                    else:
                        value = argv[i]
                        i += 1
                flags.append((name, value))
                if value:
                    has_value = True
                continue
            if body[0].isdigit() or (len(body) > 1 and body[1].isdigit()
                                     and not _valued(tool, action, body[0], raw0)):
                name, _, value = body.partition("=")
                if len(name) == 1:
                    name = _alias(tool, action, name)  # curl -4 = --ipv4
                flags.append((name, value))  # -20, -C5 style numbers stay whole
                if value:
                    has_value = True
                continue
            if table is None:
                table = _short_table(tool, action, raw0)
            j = 0
            while j < len(body):
                ch = body[j]
                j += 1
                if ch == "=":
                    break
                valued, alias = table.get(ch) or (False, ch)
                if valued:
                    value = body[j:]
                    if value[:1] == "=":
                        value = value[1:]
                    if not value and i < n and argv[i][:1] != "-":
                        value = argv[i]
                        i += 1
                    flags.append((alias, value))
                    if value:
                        has_value = True
                    break
                flags.append((alias, ""))
        if flags and post:
            flags = _post_process(tool, raw0, action, flags)
            has_value = True  # it may give flags new values: look at all of them
    # Only flag values and arguments are masked, and _mask_value changes a value only when find_secrets() finds
    # something, which needs_mask(value) must allow first; needs_mask of a text that contains the value allows it
    # too (every one of its tests finds in a longer text what it finds in a part). So one check over the non-empty
    # values decides whether the masking branch can differ from the plain one; without any value, none is needed.
    if has_value:
        values = " ".join([v for _, v in flags] + args)
    elif args:
        values = args[0] if len(args) == 1 else " ".join(args)
    else:
        values = ""
    if values and needs_mask(values):
        flags_t = tuple(sorted([(k, _mask_value(k, v)) for k, v in flags]))
        args_t = tuple([_mask_value("", a) for a in args])
    else:
        flags_t = () if not flags else (flags[0],) if len(flags) == 1 else tuple(sorted(flags))
        args_t = tuple(args)
    return Canonical(tool, action, flags_t, args_t, sudo)


def _mask_value(name: str, value: str) -> str:
    """``value``, or MASK when it holds a secret: a value is hidden whole, so the question is only whether
    ``mask_secrets`` would change it, which it does exactly when ``find_secrets`` finds something (one scan;
    masking would scan the masked text again to reach its fixpoint)."""
    if not value:
        return value
    return MASK if find_secrets(value) else value


def _post_process(tool: str, raw0: str, action: str, flags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for k, v in flags:
        if tool == "read":
            if k in ("lines", "n") and raw0 in ("head", "tail"):
                k = f"{raw0}-lines"
            elif k.isdigit() and raw0 in ("head", "tail"):
                k, v = f"{raw0}-lines", k
            elif k in ("bytes", "c") and raw0 in ("head", "tail"):
                k = f"{raw0}-bytes"
            elif k == "lines" and raw0 == "cat":
                k = "number"
        elif tool == "grep" and k == "recursive":
            continue  # rg, ag and ack recurse by default: grep -r = rg
        elif tool == "git" and action == "log":
            if k == "oneline":
                k, v = "format", "oneline"
            elif k == "pretty":
                k = "format"
            elif k == "abbrev-commit":
                continue
            elif k.isdigit():
                k, v = "max-count", k
        out.append((k, v))
    return out
