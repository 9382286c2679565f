"""From a parsed command to what it does: unwrapped segments, action types, effects and invariant violations.

Every simple command is looked through (sudo, env, timeout, nohup, nice, command, exec, xargs, find -exec,
``sh -c``, eval, interpreters' ``-c``/``-e`` code that shells out) and typed read / write / exec / git / net /
dangerous. Each segment carries its effects (``write`` of a path, ``net`` to a host, ``git`` on a branch…) for the
policy, and the walker records invariant violations as it goes: recursive deletes outside allowed dirs,
permission escalation, egress, IDE sockets, destructive SQL, dynamic script execution, force pushes and protected
branches, and writes to memory, the policy, cuticle's state or hook settings.
"""

from __future__ import annotations

import functools
import re

from tiers.record import dataclass, field

from ._lazy import LazyRe
from ._records import builder
from .invariants import Violation
from .canon import Canonical, canonicalize, tool_name
import os

from .paths import DEVICES, STATE_SECRETS, Env, PathRef, _combined, _pattern_regex, glob_in, is_pattern
from .shell import Compound, Script, Simple, Word, parse

RANK = {"read": 0, "exec": 1, "write": 2, "net": 3, "git": 4, "dangerous": 5}
TYPES = tuple(RANK)
#: "the most dangerous segment" of a command line, in the order the action types are defined (a test run whose
#: output ``tee`` logs to a file is an exec; RANK orders the effects inside one segment: code that writes a file
#: is a write)
SEGMENT_ORDER = {"read": 0, "write": 1, "exec": 2, "git": 3, "net": 4, "dangerous": 5}


def action_of(analysis: "Analysis") -> str:
    """The action type of a command: its most dangerous segment (SEGMENT_ORDER), or effect of a file tool."""
    best = "read"
    for seg in analysis.segments:
        if SEGMENT_ORDER[seg.type] > SEGMENT_ORDER[best]:
            best = seg.type
    for eff in analysis.effects:
        if SEGMENT_ORDER[eff.type] > SEGMENT_ORDER[best]:
            best = eff.type
    return best

#: the built-in invariants (id -> summary); each has its module and docs under rules/governance/invariants/
INVARIANTS: dict[str, str] = {
    "no-recursive-delete": "recursive delete outside the allowed build and temp dirs",
    "no-permission-escalation": "sudo and friends, chmod 777 / setuid, chown root",
    "no-network-egress": "network access to hosts that are not allowed; uploading protected files",
    "no-ide-socket-access": "talking to an IDE or editor socket",
    "no-destructive-sql": "DROP, TRUNCATE, DELETE or UPDATE without WHERE",
    "script-execution-tracking": "downloaded, decoded or computed code executed",
    "no-force-push": "force pushes of any kind",
    "no-protected-branch": "pushes, commits and deletions on protected branches",
    "no-governance-self-modification": "writes to the policy, .cuticle/ or a host's hook settings; any read of the "
                                       "stamp key or server token",
    "no-memory-write-via-shell": "writes to memory files by any means but the memory gate",
    "no-secret-write": "writes to credential files (.env, keys, secrets and credentials files)",
    "no-infra-destroy": "destroying infrastructure: terraform destroy, kubectl delete namespace",
}

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ash", "ksh", "mksh", "fish", "csh", "tcsh", "yash", "posh"})
INTERPRETERS = frozenset({"python", "node", "perl", "ruby", "php", "deno", "bun", "lua", "luajit", "rscript",
                          "pwsh", "powershell", "osascript", "tclsh", "jshell", "irb", "julia"})
FETCHERS = frozenset({"curl", "wget", "fetch", "http", "https", "xh", "xhs", "aria2c", "lwp-request", "get",
                      "lynx", "w3m", "links", "httpie", "curlie"})
NET_TOOLS = FETCHERS | frozenset({"ssh", "scp", "sftp", "ftp", "nc", "socat", "telnet", "gh", "rsync", "ping",
                                  "dig", "nslookup", "host", "whois", "mosh", "tftp", "rclone", "s3cmd"})
SQL_CLIENTS = frozenset({"psql", "mysql", "sqlite3", "duckdb", "sqlcmd", "clickhouse-client", "cockroach",
                         "mysqlsh", "pgcli", "mycli", "litecli", "usql", "snowsql", "bq"})
READ_TOOLS = frozenset({"read", "grep", "find", "ls", "wc", "diff", "cmp", "file", "stat", "du", "df", "pwd",
                        "which", "whereis", "type", "realpath", "readlink", "basename", "dirname", "uniq", "cut",
                        "tr", "jq", "column", "nl", "od", "hexdump", "strings", "md5sum", "sha1sum", "sha256sum",
                        "sha512sum", "cksum", "test", "[", "[[", "true", "false", ":", "date", "printenv", "id",
                        "whoami", "uname", "hostname", "ps", "free", "uptime", "cd", "pushd", "popd", "tac", "rev",
                        "fold", "fmt", "paste", "join", "comm", "expand", "unexpand", "look", "zcat", "zgrep",
                        "zless", "xzcat", "bzcat", "lsof", "env", "set", "locale", "tput", "seq", "yes", "sleep",
                        "wait", "history", "alias", "hash", "command", "getent", "groups", "nproc", "lscpu",
                        "tokei", "cloc", "awk", "sed", "sort", "base64", "xxd", "iconv", "shasum", "((…))", "let",
                        "local", "declare", "typeset", "readonly", "shift", "return", "exit", "break", "continue",
                        "trap", "umask", "ulimit", "jobs", "fg", "bg", "disown", "times", "help", "man", "info",
                        "tldr", "apropos", "whatis", "printf", "echo", "export", "unset", "shopt", "setopt",
                        "unalias"})
WRITE_TOOLS = frozenset({"vi", "nano", "emacs", "ex", "pico", "micro", "joe", "ssh-keygen", "tee", "cp", "mv", "ln", "install", "touch", "mkdir", "rmdir", "rm", "unlink", "truncate",
                         "chmod", "chown", "chgrp", "dd", "patch", "split", "csplit", "shred", "sponge", "ed",
                         "mktemp", "link", "chattr", "setfacl", "rename", "mkfifo", "mknod"})
DEVICE_WIPERS = frozenset({"mkfs", "fdisk", "sfdisk", "parted", "wipefs", "mkswap", "blkdiscard", "sgdisk",
                           "cfdisk", "format", "diskutil"})
ESCALATORS = frozenset({"sudo", "doas", "su", "pkexec", "runuser", "run0", "sudo-rs", "gosu", "setpriv",
                        "visudo", "setcap", "usermod", "chpasswd", "passwd", "newgrp", "sg"})
DECODE_FLAGS = frozenset({"-d", "--decode", "-D"})

_IDE_WORDS = ("sock", "vscode", "cursor", "jetbrains", "code-server", "codeserver", "ipc", "windsurf", "zed",
              "base64", "\\x")


def _may_mention_ide(command: str) -> bool:
    """Could the command reach an IDE socket? (False: no ``$``, backtick or any of ``_IDE_WORDS`` in it; substring
    tests in C beat one regex alternation for this one-per-command check.) Each word is searched only when the
    text has a letter it contains (a "c" for six of them, a rare letter for each other one): a one-character test
    is cheaper than a substring search, and the result is the same disjunction."""
    if "$" in command or "`" in command:
        return True
    low = command.lower()
    return (("c" in low and ("sock" in low or "vscode" in low or "cursor" in low or "code-server" in low
                             or "codeserver" in low or "ipc" in low))
            or ("j" in low and "jetbrains" in low) or ("w" in low and "windsurf" in low)
            or ("z" in low and "zed" in low) or ("6" in low and "base64" in low) or ("\\" in low and "\\x" in low))


_URL = LazyRe(r"(?i)\b(?:https?|ftp|wss?|s3|gs)://([^/\s:'\"@]+@)?([^/\s:'\"?#]+)")
_IDE = LazyRe(r"(?i)(vscode-ipc-[^\s]*\.sock|vscode-git-[^\s]*\.sock|vscode-[a-z0-9-]*\.sock|\.vscode-server/|"
                  r"\.cursor-server/|cursor-ipc|VSCODE_IPC_HOOK|VSCODE_GIT_IPC|JETBRAINS_[A-Z_]*SOCK|"
                  r"jetbrains[^\s]*\.sock|/\.?code-?server[^\s]*\.sock|windsurf[^\s]*\.sock|zed[^\s]*\.sock)")


def _ide_hit(text: str) -> bool:
    """``_IDE.search(text)`` is not None. The regex is case-insensitive with no literal prefix, so the engine tries
    every alternative at every position (~1k machine instructions per character). Each alternative contains one of
    the words below, and for ASCII text its (?i) matching is plain ASCII case folding, so a lowercased ASCII text
    without any of them cannot match (non-ASCII text goes to the regex: Unicode case folding is wider)."""
    if text.isascii():
        low = text.lower()
        if not ("vscode" in low or "cursor" in low or "jetbrains" in low or "code-server" in low
                or "codeserver" in low or "windsurf" in low or "zed" in low):
            return False
    return _IDE.search(text) is not None


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a segment does, for policy matching: ``type`` and its ``target`` (path, host or branch)."""

    type: str
    target: str = ""
    kind: str = ""  # "path", "host", "branch" or ""

    def to_json(self) -> dict:
        out = {"type": self.type}
        if self.target:
            out["target"] = self.target
            out["kind"] = self.kind
        return out


#: one shared (immutable) target-less effect per type
_PLAIN_EFFECTS = {t: Effect(t) for t in TYPES}
_PLAIN_TUPLES = {t: (e,) for t, e in _PLAIN_EFFECTS.items()}
_new = object.__new__
_EffectBuilder = builder(Effect)


def _effect(type: str, target: str = "", kind: str = "") -> Effect:
    """An ``Effect`` built slot by slot, then frozen (see _records): the hot path makes a few per segment, and a
    frozen record's generated ``__init__`` sets each field through ``object.__setattr__``."""
    e = _EffectBuilder()
    e.type = type
    e.target = target
    e.kind = kind
    e.__class__ = Effect
    return e


_ViolationBuilder = builder(Violation)


def _violation(invariant: str, reason: str, segment: int = -1) -> Violation:
    """A ``Violation`` built slot by slot, then frozen (see :func:`_effect`)."""
    v = _ViolationBuilder()
    v.invariant = invariant
    v.reason = reason
    v.segment = segment
    v.__class__ = Violation
    return v


@dataclass(slots=True)
class Segment:
    """One unwrapped simple command (its canonical form is computed on first use)."""

    op: str
    argv: tuple[str, ...]
    sudo: bool
    type: str
    effects: tuple[Effect, ...]
    via: str = ""
    wrappers: tuple[str, ...] = ()
    _canonical: Canonical | None = None

    @property
    def canonical(self) -> Canonical:
        if self._canonical is None:
            self._canonical = canonicalize(self.argv, sudo=self.sudo)  # it only reads argv: the tuple will do
        return self._canonical

    @property
    def raw(self) -> str:
        return " ".join(self.argv)

    def to_json(self) -> dict:
        out = {"op": self.op, "command": self.raw, "action": self.type, **self.canonical.to_json(),
               "effects": [e.to_json() for e in self.effects]}
        if self.via:
            out["via"] = self.via
        if self.wrappers:
            out["wrappers"] = list(self.wrappers)
        return out


@dataclass(slots=True)
class Analysis:
    segments: list[Segment] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    #: effects of the call that belong to no shell segment (file tools)
    effects: list[Effect] = field(default_factory=list)
    #: the result depends on state outside the command (the checked-out git branch): do not memoize it
    volatile: bool = False

    @property
    def action(self) -> str:
        return action_of(self)

    def all_effects(self):
        for seg in self.segments:
            yield from seg.effects
        yield from self.effects


@dataclass(slots=True)
class Flow:
    """What a command writes to its stdout, as far as it matters: tainted (fetched/decoded) or literal text."""

    taint: str | None = None
    text: str | None = None
    #: the stream carries the contents of a credential or protected file
    secret: bool = False
    #: path patterns the stream lists, one per item (``find``, ``ls``, ``grep -l`` output) for ``xargs``
    names: tuple[str, ...] | None = None


#: the flow of a command whose output carries nothing of interest (shared: flows are never changed once returned)
_NO_FLOW = Flow()


def _flow(taint: str | None = None, text: str | None = None, secret: bool = False) -> Flow:
    """A ``Flow`` built slot by slot (no generated ``__init__`` frame)."""
    f = _new(Flow)
    f.taint = taint
    f.text = text
    f.secret = secret
    f.names = None
    return f


def _names_flow(names) -> Flow:
    f = _flow()
    f.names = tuple(names)
    return f


@dataclass(slots=True)
class Options:
    """The policy knobs invariants use."""

    protected_branches: tuple[str, ...] = ("main", "master")
    delete_allowed: tuple[str, ...] = ("build", "dist", "out", "tmp")
    allowed_hosts: tuple[str, ...] | None = None  # None: any host


_MAX_SEGMENTS = 2000
#: all-False "dynamic" flags and all-None taints for a command of literal words, shared by length:
#: nothing changes these sequences in place (dispatch and the handlers only index, slice and rebind them), and a
#: list with a true first flag, the one case dispatch concatenates, never comes from here
_SHARED_LEN = 32
_FALSES = tuple((False,) * n for n in range(_SHARED_LEN))
_NONES = tuple((None,) * n for n in range(_SHARED_LEN))
_MAX_NEST = 12


@functools.lru_cache(maxsize=64)
def _allowed_dirs_text(delete_allowed: tuple[str, ...]) -> str:
    """The policy's allowed delete dirs as the recursive-delete reason lists them (one text per policy, not one
    join per violation)."""
    return ", ".join(d.rstrip("/") + "/" for d in delete_allowed) or "none"


class Walker:
    """Walks a parsed script, unwrapping and typing every simple command."""

    def __init__(self, env: Env, opts: Options | None = None, *, git_branch=None) -> None:
        self.env = env
        self.opts = opts or Options()
        out = self.out = _new(Analysis)  # slot by slot (no generated __init__ frame)
        out.segments = []
        out.violations = []
        out.effects = []
        out.volatile = False
        self.vars: dict[str, str] = {}
        self.tainted: dict[str, str] = {}
        self.downloads: set[str] = set()
        #: files this command line writes from a heredoc (path -> text), so running them later is inspected
        self.written: dict[str, str] = {}
        self.branch: str | None = None  # set by `git switch X` / `git checkout X` earlier in the chain
        self.git_branch = git_branch  # callable(repo_dir) -> current branch or None
        self.nest = 0
        self.ide_possible = True  # cleared when the raw command cannot mention an IDE socket
        #: shell functions and aliases defined earlier in this command line (name -> body / expansion text)
        self.stashed = False  # `git stash` ran earlier in this command line
        #: a substitution in the current command's words printed a protected or credential file
        self.sub_secret = False
        self.functions: dict[str, list[Script]] = {}
        self.aliases: dict[str, str] = {}
        #: the positional parameters inside a function call or after ``set --`` (None: unknown, the caller's)
        self.positional: list[str] | None = None
        #: the working directory of the command being typed (targets only known as patterns resolve against it)
        self.cwd_hint: str | None = env.root

    # -- reporting -----------------------------------------------------------------------------------
    def violate(self, invariant: str, reason: str) -> None:
        self.out.violations.append(_violation(invariant, reason, len(self.out.segments)))

    def emit(self, argv: list[str], op: str, via: str, typ: str, effects: list[Effect], sudo=False,
             wrappers=()) -> Segment:
        best = typ
        if effects:
            rank = RANK[typ]
            seen = False
            for e in effects:
                if e.type == typ:
                    seen = True
                elif RANK[e.type] > rank:
                    best, rank = e.type, RANK[e.type]
            if not seen:
                effects.insert(0, _PLAIN_EFFECTS[typ])
            effs = tuple(effects)
        else:
            effs = _PLAIN_TUPLES[typ]
        seg = _new(Segment)  # slot by slot: no generated __init__ frame on the per-segment path
        seg.op = op
        seg.argv = tuple(argv)
        seg.sudo = sudo
        seg.type = best
        seg.effects = effs
        seg.via = via
        seg.wrappers = wrappers  # always a tuple (dispatch builds them as tuples; the default is ())
        seg._canonical = None
        segments = self.out.segments
        if len(segments) < _MAX_SEGMENTS:
            segments.append(seg)
        elif len(segments) == _MAX_SEGMENTS and not any(
                v.reason.startswith("more than") for v in self.out.violations):
            self.violate("script-execution-tracking", f"more than {_MAX_SEGMENTS} commands in one call; cuticle "
                         "cannot inspect them all. Split the work into smaller commands")
        return seg

    # -- structure -----------------------------------------------------------------------------------
    def script(self, script: Script, cwd: str | None, via: str = "", op0: str = "") -> tuple[str | None, Flow]:
        flow = _NO_FLOW
        first = True
        for op, pipe in script.items:
            cwd, flow = self.pipeline(pipe, cwd, via, op0 if first else op)
            first = False
        return cwd, flow

    def pipeline(self, pipe, cwd, via, op) -> tuple[str | None, Flow]:
        commands = pipe.commands
        if len(commands) == 1:  # no pipe: the command's working directory carries over
            cmd = commands[0]
            if type(cmd) is Simple:
                return self.simple(cmd, cwd, via, op, None)
            return self.command(cmd, cwd, via, op, None)
        stdin: Flow | None = None
        flow = _NO_FLOW
        pipes = pipe.pipes
        for k, cmd in enumerate(commands):
            pop = op if k == 0 else (pipes[k - 1] if k - 1 < len(pipes) else "|")
            _, flow = self.command(cmd, cwd, via, pop, stdin)
            stdin = flow
        return cwd, flow

    def command(self, cmd, cwd, via, op, stdin) -> tuple[str | None, Flow]:
        if type(cmd) is Simple:
            return self.simple(cmd, cwd, via, op, stdin)
        assert isinstance(cmd, Compound)
        start = len(self.out.segments)
        for w in cmd.words:
            self.word_subs(w, cwd, via)
        if cmd.kind == "function" and cmd.name:
            self.functions[cmd.name] = cmd.bodies  # a call walks the body again with its arguments
        inner_cwd = cwd
        if cmd.kind == "for" and cmd.name:
            # the loop variable takes each value of the word list (globs and braces as written: a write to
            # "$f" then reaches what the pattern reaches); no list ("$@") leaves it unknown
            values: list[str] = []
            for w in cmd.words:
                text, dyn = self.expand(w, cwd)
                values.extend(_braces(text) if not w.quoted else [text])
            for value in values[:8] or [None]:
                if value is None:
                    self.vars.pop(cmd.name, None)
                else:
                    self.vars[cmd.name] = value
                for body in cmd.bodies:
                    inner_cwd, _ = self.script(body, inner_cwd, via or cmd.kind, op)
        else:
            for body in cmd.bodies:
                inner_cwd, _ = self.script(body, inner_cwd, via or cmd.kind, op)
        taint = self.segments_taint(start)
        stdin_effects: list[Effect] = []
        for red in cmd.redirects:
            if red.op == "<" and red.target is not None:
                ref = self.env.norm(self.expand(red.target, cwd)[0], cwd)
                stdin_effects.append(_effect("read", ref.display, "path"))
                self.check_state_secret(ref, ref.display, "<")
            self.redirect_effects(red, cwd, [], via, op, standalone=True)
        if stdin_effects:
            self.emit(["<"], op, via, "read", stdin_effects)
        return (cwd if cmd.kind in ("subshell", "function") else inner_cwd), _flow(taint)

    def segments_taint(self, start: int) -> str | None:
        for seg in self.out.segments[start:]:
            tool = tool_name(seg.argv[0]) if seg.argv else ""
            if tool in FETCHERS:
                return "fetch"
            if _is_decoder(tool, seg.argv):
                return "decode"
        return None

    def word_subs(self, w: Word, cwd, via) -> str | None:
        """Walk the substitutions inside a word (they run); the taint of their output."""
        taint = None
        for sub in w.subs:
            start = len(self.out.segments)
            _, flow = self.nested(sub, cwd, "$(…)", ";")
            taint = taint or flow.taint or self.segments_taint(start)
            if flow.secret:
                self.sub_secret = True  # `curl -d "$(cat USER.md)"`: the argument carries the file
        for _, sub in w.procsubs:
            start = len(self.out.segments)
            _, flow = self.nested(sub, cwd, "<(…)", "|")
            taint = taint or flow.taint or self.segments_taint(start)
        return taint

    def nested(self, script: Script, cwd, via, op) -> tuple[str | None, Flow]:
        if self.nest >= _MAX_NEST:
            self.violate("script-execution-tracking", "commands nested too deeply to inspect; run them directly")
            return cwd, _NO_FLOW
        self.nest += 1
        try:
            return self.script(script, cwd, via, op)
        finally:
            self.nest -= 1

    def run_text(self, text: str, cwd, via, op) -> tuple[str | None, Flow]:
        return self.nested(parse(text, 1), cwd, via, op)

    # -- words ---------------------------------------------------------------------------------------
    def expand(self, w: Word, cwd) -> tuple[str, bool]:
        """Word text with known variables substituted; second item True when something stayed unknown."""
        if w.literal:
            return w.text, False
        text = w.text
        # substitutions that are `echo literal`: their value is known
        for sub in w.subs:
            value = _echo_value(sub)
            if value is None and cwd and _is_pwd(sub):
                value = cwd
            if value is None:
                value = _listing_value(sub)
            if value is None:
                value = _lookup_value(sub)
            if value is not None and "$(…)" in text:
                text = text.replace("$(…)", value, 1)
        dynamic = "$(…)" in text or "(…)" in text

        def repl(m: re.Match[str]) -> str:
            nonlocal dynamic
            name = m.group(1) or m.group(2)
            if name in self.vars:
                return self.vars[name]
            if name == "HOME" and self.env.home:
                return self.env.home
            if name == "PWD" and cwd:
                return cwd
            dynamic = True
            return m.group(0)

        if "~+" in text and cwd and (text.startswith("~+/") or text == "~+"):
            text = cwd + text[2:]  # ~+ is $PWD

        text = _VAR.sub(repl, text)
        if "$" in text and not dynamic and _VAR_ANY.search(text):
            dynamic = True
        return text, dynamic

    # -- simple commands -----------------------------------------------------------------------------
    def simple(self, cmd: Simple, cwd, via, op, stdin: Flow | None) -> tuple[str | None, Flow]:
        words = cmd.words
        self.sub_secret = False
        if not cmd.assigns:
            for w in words:
                if not w.literal:
                    break
            else:  # the common case: only literal words (no assignment, expansion or substitution)
                argv = [w.text for w in words]
                n = len(argv)
                return self.simple_words(cmd, cwd, via, op, stdin, argv, _FALSES[n] if n < _SHARED_LEN else
                                         (False,) * n, _NONES[n] if n < _SHARED_LEN else (None,) * n)
        for name, w in cmd.assigns:
            t = self.word_subs(w, cwd, via)
            value, dyn = self.expand(w, cwd)
            if self.ide_possible and _ide_hit(name + "=" + value):
                self.violate("no-ide-socket-access", f"sets {name} to an IDE socket; editor sockets are off limits")
            if not cmd.words:
                if dyn:
                    self.vars.pop(name, None)
                else:
                    self.vars[name] = value
                if t:
                    self.tainted[name] = t
                else:
                    self.tainted.pop(name, None)
        argv: list[str] = []
        dyn_flags: list[bool] = []
        word_taint: list[str | None] = []
        for w in cmd.words:
            if w.literal:  # the common case: no expansion, no substitution
                word_taint.append(None)
                argv.append(w.text)
                dyn_flags.append(False)
                continue
            t = self.word_subs(w, cwd, via) if (w.subs or w.procsubs) else None
            if not t and self.tainted:
                for name in _VAR.findall(w.text):
                    t = t or self.tainted.get(name[0] or name[1])
            if self.positional is not None and (w.text in ("$@", "${@}") or not w.quoted and w.text in ("$*", "${*}")):
                # "$@" is one word per positional parameter (a function forwarding its arguments to sed -i)
                argv.extend(self.positional)
                dyn_flags.extend([False] * len(self.positional))
                word_taint.extend([t] * len(self.positional))
                continue
            text, dyn = self.expand(w, cwd)
            if not w.quoted and not dyn and argv and (" " in text or "\t" in text or "\n" in text):
                # field splitting: an unquoted expansion is as many words as its value has fields
                fields = text.split()
                argv.extend(fields)
                dyn_flags.extend([False] * len(fields))
                word_taint.extend([t] * len(fields))
                continue
            word_taint.append(t)
            argv.append(text)
            dyn_flags.append(dyn)
        return self.simple_words(cmd, cwd, via, op, stdin, argv, dyn_flags, word_taint)

    def braced(self, cmd: Simple, argv, dyn_flags, word_taint):
        """``argv`` with bash brace expansion applied to its unquoted words (``{MEMORY,foo}.md``)."""
        out, dyn, taint = [], [], []
        for k, a in enumerate(argv):
            w = cmd.words[k] if k < len(cmd.words) else None
            parts = _braces(a) if k and w is not None and not w.quoted else [a]
            out.extend(parts)
            dyn.extend([dyn_flags[k]] * len(parts))
            taint.extend([word_taint[k]] * len(parts))
        return out, dyn, taint

    def simple_words(self, cmd: Simple, cwd, via, op, stdin: Flow | None, argv: list[str], dyn_flags: list[bool],
                     word_taint: list[str | None]) -> tuple[str | None, Flow]:
        """The rest of :meth:`simple` once the words are expanded: redirections, stdin, then dispatch."""
        redirects = cmd.redirects
        effects: list[Effect] = []
        self.cwd_hint = cwd
        if len(argv) > 1 and any("{" in a for a in argv):
            argv, dyn_flags, word_taint = self.braced(cmd, argv, dyn_flags, word_taint)
        if redirects:
            stdin = self.redirections(redirects, cwd, via, stdin, effects)
        if stdin is not None and stdin.text is not None and argv and argv[0] in ("cat", "tee", "dd"):
            targets = [e.target for e in effects if e.type == "write" and e.kind == "path"]
            if argv[0] == "tee":
                targets += [a for a in argv[1:] if not a.startswith("-")]
            for t in targets:
                self.written[self.env.abs_of(self.env.norm(t, cwd).display)] = stdin.text
        if not argv:
            if effects:
                self.emit([">"], op, via, "write", effects)
            return cwd, _NO_FLOW
        if self.ide_possible and _ide_hit(" ".join(argv)):
            self.violate("no-ide-socket-access", "reaches an IDE/editor socket; agents may not drive the editor")
        if not dyn_flags[0] and not self.functions and not self.aliases and argv[0] not in ("alias", "set"):
            tool = tool_name(argv[0])
            if tool not in _WRAPPERS:  # dispatch() would break out of its loop at once: go straight to final()
                return self.final(argv, dyn_flags, word_taint, cwd, via, op, stdin, effects, False, (), tool)
        return self.dispatch(argv, dyn_flags, word_taint, cwd, via, op, stdin, effects, cmd)

    def redirections(self, redirects, cwd, via, stdin: Flow | None, effects: list[Effect]) -> Flow | None:
        """Walk a command's redirections: their substitutions run, heredocs and ``<`` feed stdin, ``>`` writes
        (appended to ``effects``); the command's stdin afterwards."""
        redir_taint: dict[int, str | None] = {}
        for red in redirects:
            if red.target is not None:
                redir_taint[id(red.target)] = self.word_subs(red.target, cwd, via)
        # stdin from heredoc / here-string / file
        stdin_reads: list[str] = []
        for red in redirects:
            if red.op in ("<<", "<<-"):
                stdin = _flow(None, red.body or "")
                if not red.body_quoted and red.body and ("$(" in red.body or "`" in red.body):
                    # an unquoted heredoc expands $(…) and backticks when the command runs
                    for inner in _substitutions(red.body):
                        self.run_text(inner, cwd, "heredoc $(…)", ";")
            elif red.op == "<<<":
                t = self.word_subs(red.target, cwd, via) if red.target else None
                text = self.expand(red.target, cwd)[0] if red.target else ""
                stdin = _flow(t, text)
            elif red.op == "<" and red.target is not None:
                if red.target.procsubs:
                    stdin = _flow(redir_taint.get(id(red.target)))
                    continue
                ref = self.env.norm(self.expand(red.target, cwd)[0], cwd)
                stdin_reads.append(ref.display)
                if ref.abs and ref.abs in self.downloads:
                    stdin = _flow("fetch")
                elif self.env.is_secret(ref) or self.env.protected(ref):
                    stdin = _flow(None, None, True)
                self.check_state_secret(ref, ref.display, "<")
        self.redirect_effects_list(redirects, cwd, effects)
        # `cmd < file` reads the file as surely as `cat file` does (policy read rules, state secrets)
        effects.extend(_effect("read", target, "path") for target in stdin_reads)
        return stdin

    def redirect_effects_list(self, redirects, cwd, effects: list[Effect]) -> None:
        for red in redirects:
            op = red.op
            if op in (">", ">>", ">|", "&>", "&>>", "<>") or (op == ">&" and red.target is not None
                                                              and not red.target.text.isdigit()
                                                              and red.target.text != "-"):
                if red.target is None:
                    continue
                text, _ = self.expand(red.target, cwd)
                if text in DEVICES or text.startswith("/dev/fd/") or text.startswith("/proc/self/fd/"):
                    continue
                for one in (_braces(text) if "{" in text and not red.target.quoted else (text,)):
                    ref = self.env.norm(one, cwd)
                    effects.append(self.write_effect(ref, "redirect"))
                    if op == "<>":
                        self.check_state_secret(ref, one, "<>")

    def redirect_effects(self, red, cwd, effects, via, op, standalone=False) -> None:
        local: list[Effect] = []
        self.redirect_effects_list([red], cwd, local)
        if local and standalone:
            self.emit([">"], op, via, "write", local)

    def write_effect(self, ref: PathRef, how: str) -> Effect:
        hit = None if ref.scope == "ws" and ref.rel in ("", ".") else self.env.protected(ref)
        if hit:
            inv, what = hit
            self.violate(inv, f"{how} writes {what}; " + _SELF_FIX[inv])
        elif is_pattern(ref.display) or ref.scope == "unknown":
            self.reach_check(ref, how, "writes")
        elif self.env.is_credential(ref):
            self.violate("no-secret-write", f"{how} writes {ref.display}, a credential file; "
                         + _SELF_FIX["no-secret-write"])
        if ref.abs and (ref.abs.startswith("/etc/sudoers") or ref.abs in ("/etc/passwd", "/etc/shadow", "/etc/group")):
            self.violate("no-permission-escalation", f"{how} writes {ref.display}; editing account or sudo files "
                         "escalates privileges")
        return _effect("write", ref.display, "path")

    def reach_check(self, ref: PathRef, how: str, verb: str, instead: str = "") -> bool:
        """A target known only as a pattern (a variable from the environment, a substitution, a glob, interpreter
        code that computes a path) counts as every protected path it could name: a violation for the first one."""
        pattern = ref.abs if ref.scope == "ws" and ref.abs else ref.display
        if ref.scope != "unknown" and "$" not in pattern and "`" not in pattern and "(…)" not in pattern:
            # only glob characters: the shell expands them against the disk the hook sees now (no match: the
            # word stays literal), so the files they match are the targets
            import glob as _glob
            hit = None
            for found in sorted(_glob.glob(pattern))[:500]:
                fref = self.env.norm(found, None)
                if self.env.protected(fref) or self.env.is_credential(fref) or self.env.is_state_secret(fref):
                    hit = fref.display
                    break
        else:
            hit = self.env.reach(pattern, None if ref.scope == "ws" else self.cwd_hint)
        if hit is None:
            return False
        href = self.env.norm(hit, self.env.root)
        found = self.env.protected(href)
        inv, what = found if found else ("no-secret-write", f"{hit} (a credential file)")
        shown = ref.display.replace("$(…)", "$(...)")
        self.violate(inv, f"{how} {verb} {shown}, which is only known when it runs and may be {what}; "
                     + (instead or "name the target literally (a path outside memory files, cuticle's files and "
                        "credentials is allowed)")
                     + ("; " + _SELF_FIX[inv] if inv == "no-memory-write-via-shell" else ""))
        return True

    def check_state_secret(self, ref: PathRef, text: str, how: str) -> bool:
        """Any read of the stamp key or the server token (or a pattern that names one and nothing else)."""
        env = self.env
        if env.is_state_secret(ref):
            shown = ref.display
        elif is_pattern(text) and ref.scope in ("ws", "unknown"):
            pattern = ref.abs if ref.scope == "ws" and ref.abs else ref.display
            rx = _pattern_regex(pattern, None if ref.scope == "ws" else self.cwd_hint)
            if rx is None or (rx.match(env.root + "/zz-cuticle-probe/unrelated.txt") and "$(find)" not in text):
                return False  # matches anything: no more the key than any other file (a find lists them all)
            secrets = [env.root + "/" + s for s in STATE_SECRETS]
            hits = [x for x in secrets if rx.match(x)]
            if not hits:
                return False
            shown = f"{text} (= {hits[0][len(env.root) + 1:]})"
        else:
            return False
        self.violate("no-governance-self-modification", f"{how} reads {shown}, cuticle's stamp key or server "
                     "token; with it an agent could forge stamps or answers, so only cuticle itself reads it")
        return True

    def delete_effect(self, ref: PathRef, how: str, recursive: bool, filtered: bool = False) -> Effect:
        hit = None if filtered and ref.scope == "ws" else self.env.protected(ref)
        if recursive:
            # a find filter narrows what is deleted but not where: only the allowed dirs may be swept
            ok = ref.scope == "ws" and ref.rel not in (None, "", ".") and glob_in(ref.rel, self.opts.delete_allowed)
            if not ok:
                where = {"ws": "inside the workspace but outside the allowed dirs",
                         "home": "in the home directory", "abs": "outside the workspace",
                         "unknown": "at a path that is only known at run time"}[ref.scope]
                allowed = _allowed_dirs_text(tuple(self.opts.delete_allowed))
                self.violate("no-recursive-delete", f"{how} recursively deletes {ref.display} ({where}); recursive "
                             f"deletes are allowed only under {allowed}. Delete specific files, or ask the user")
        if hit:
            inv, what = hit
            self.violate(inv, f"{how} deletes {what}; " + _SELF_FIX[inv])
        elif is_pattern(ref.display) or ref.scope == "unknown":
            self.reach_check(ref, how, "deletes")
        if recursive:
            return _effect("dangerous", ref.display, "path")
        return _effect("write", ref.display, "path")

    def paths(self, items, cwd) -> list[PathRef]:
        return [self.env.norm(p, cwd) for p in items]

    # -- dispatch ------------------------------------------------------------------------------------
    def dispatch(self, argv, dyn, taints, cwd, via, op, stdin, effects, cmd=None, sudo=False,
                 wrappers=()) -> tuple[str | None, Flow]:
        for _ in range(24):
            if not argv:
                self.emit(["true"], op, via, "read", effects, sudo, wrappers)
                return cwd, _NO_FLOW
            head = argv[0]
            if dyn and dyn[0]:
                base = head.rsplit("/", 1)[-1]
                if "/" in head and base and "$" not in base and "…" not in base:
                    argv = [base] + argv[1:]
                    dyn = [False] + dyn[1:]
                    continue
                taint = taints[0] if taints else None
                if taint:
                    self.violate("script-execution-tracking", f"runs a command whose name comes from {taint}ed "
                                 "content; download or decode to a file, review it, then run it")
                    self.emit(argv, op, via, "dangerous", effects, sudo, wrappers)
                    return cwd, _NO_FLOW
                return self.unknown_program(argv, cwd, via, op, effects, sudo, wrappers)
            if self.functions and head in self.functions:
                return self.call_function(head, argv, cwd, via, op, stdin, effects)
            if head == "alias" or head == "set" or (self.aliases and head in self.aliases):
                done = self.alias_or_set(argv, cwd, via, op, effects)
                if done is not None:
                    return done
            tool = tool_name(head)
            handler = _WRAPPERS.get(tool)
            if handler is None:
                break
            res = handler(self, argv, cwd)
            if res is None:
                break
            kind, new_argv, extra = res
            if kind == "sudo":
                sudo = True
                wrappers = (*wrappers, tool)
                self.violate("no-permission-escalation", f"'{head}' runs a command with elevated privileges; "
                             "agents never escalate. Ask the user to run it")
            elif kind == "cwd":
                cwd = extra
                wrappers = (*wrappers, tool)
            elif kind == "stdin-args":  # xargs: items from stdin become arguments
                items = _stdin_items(stdin)
                wrappers = (*wrappers, tool)
                if extra:  # -I REPL: each item replaces REPL
                    expanded: list[str] = []
                    for a in new_argv:
                        if a == "\x00R":
                            expanded.extend(items or ["?"])
                        else:
                            expanded.append(a.replace("\x00R", items[0] if items else "?"))
                    new_argv = expanded
                else:
                    new_argv = new_argv + items
                stdin = None
                argv, dyn, taints = new_argv, [False] * len(new_argv), [None] * len(new_argv)
                continue
            elif kind == "shell":  # nested shell with a script string
                wrappers = (*wrappers, tool)
                taint = next((t for t in taints[extra:] if t), None) if extra is not None else None
                if tool == "eval" and "$(…)" in new_argv[0] and not taint:
                    # eval "$(ssh-agent -s)": the code comes from a local command, not from the network
                    self.emit(argv, op, via, "exec", effects, sudo, wrappers)
                    return cwd, _NO_FLOW
                self.shell_script(new_argv[0], cwd, tool, op, taint)
                if effects:
                    self.emit([tool], op, via, "write", effects, sudo, wrappers)
                return cwd, _NO_FLOW
            else:
                wrappers = (*wrappers, tool)
            shift = len(argv) - len(new_argv)
            dyn = dyn[shift:] if shift >= 0 else [False] * len(new_argv)
            taints = taints[shift:] if shift >= 0 else [None] * len(new_argv)
            argv = new_argv
        else:
            tool = None  # 24 wrappers deep: argv changed after the last lookup
        return self.final(argv, dyn, taints, cwd, via, op, stdin, effects, sudo, wrappers, tool)

    def unknown_program(self, argv, cwd, via, op, effects, sudo, wrappers) -> tuple[str | None, Flow]:
        """``"$EDITOR" notes.txt``, ``$PYTHON -m pytest``: the exec of an unknown program. Allowed, unless an
        argument is a protected path (the program may write it) or it is handed a shell script."""
        head = argv[0]
        self.cwd_hint = cwd
        if len(argv) > 2 and argv[1] == "-c":  # "$SHELL" -c '…': whatever shell it is, the script runs
            start = len(self.out.segments)
            self.run_text(argv[2], cwd, f"{head} -c", op)
            if len(self.out.segments) > start:  # unwrapped: the commands it runs are the segments that count
                self.emit(argv, op, via, "read", effects, sudo, wrappers)
                return cwd, _NO_FLOW
        else:
            for a in argv[1:]:
                value = a.split("=", 1)[1] if a.startswith("-") and "=" in a else a
                if not value or value.startswith("-"):
                    continue
                ref = self.env.norm(value, cwd)
                if ref.scope == "ws" and ref.rel in ("", "."):
                    continue  # `$LINTER .`: the workspace as a whole is a normal argument
                if self.check_state_secret(ref, value, head):
                    continue
                hit = self.env.protected(ref)
                if hit:
                    inv, what = hit
                    self.violate(inv, f"{head} is a program only known when it runs, and it is handed {what}; it "
                                 "may change it. " + _SELF_FIX[inv])
                elif self.env.is_credential(ref):
                    self.violate("no-secret-write", f"{head} is a program only known when it runs, and it is handed "
                                 f"the credential file {ref.display}; " + _SELF_FIX["no-secret-write"])
        self.emit(argv, op, via, "exec", effects, sudo, wrappers)
        return cwd, _NO_FLOW

    def call_function(self, name, argv, cwd, via, op, stdin, effects) -> tuple[str | None, Flow]:
        """A call of a function defined earlier in the command: its body runs with the call's arguments."""
        saved = {k: self.vars[k] for k in _POSITIONAL if k in self.vars}
        for k in _POSITIONAL:
            self.vars.pop(k, None)
        for k, a in enumerate(argv[1:10], 1):
            self.vars[str(k)] = a
        self.vars["@"] = self.vars["*"] = " ".join(argv[1:])
        self.vars["#"] = str(len(argv) - 1)
        saved_positional, self.positional = self.positional, list(argv[1:])
        body = self.functions.pop(name)  # popped while it runs: a recursive call is walked once
        try:
            flow = _NO_FLOW
            for script in body:
                cwd, flow = self.nested(script, cwd, f"function {name}", op)
        finally:
            self.functions[name] = body
            self.positional = saved_positional
            for k in _POSITIONAL:
                self.vars.pop(k, None)
            self.vars.update(saved)
        if effects:
            self.emit([name], op, via, "write", effects)
        return cwd, flow

    def alias_or_set(self, argv, cwd, via, op, effects) -> tuple[str | None, Flow] | None:
        """``alias name=value`` (recorded), a use of such an alias (expanded and walked) and ``set -- args``
        (positional parameters)."""
        head = argv[0]
        if head == "alias":
            for a in argv[1:]:
                name, eq, value = a.partition("=")
                if eq and name:
                    self.aliases[name] = value
            self.emit(argv, op, via, "read", effects)
            return cwd, _NO_FLOW
        if head == "set":
            if "--" in argv:
                args = argv[argv.index("--") + 1:]
                for k in _POSITIONAL:
                    self.vars.pop(k, None)
                for k, a in enumerate(args[:9], 1):
                    self.vars[str(k)] = a
                self.vars["@"] = self.vars["*"] = " ".join(args)
                self.positional = list(args)
            return None
        expansion = self.aliases.pop(head)  # popped while it runs: `alias ls='ls -F'` expands once
        try:
            text = expansion + "".join(" " + _shell_quote(a) for a in argv[1:])
            cwd, flow = self.nested(parse(text, 1), cwd, f"alias {head}", op)
        finally:
            self.aliases[head] = expansion
        return cwd, flow

    def shell_script(self, text: str, cwd, via, op, taint) -> None:
        if taint:
            self.violate("script-execution-tracking", f"{via} runs {taint}ed content as a script; save it to a "
                         "file, review it, then run it")
            self.emit([via, text], op, via, "dangerous", [])
        self.run_text(text, cwd, via, op)

    # -- final commands ------------------------------------------------------------------------------
    def final(self, argv, dyn, taints, cwd, via, op, stdin, effects, sudo, wrappers,
              tool: str | None = None) -> tuple[str | None, Flow]:
        """Type the unwrapped command ``argv`` (``tool``: its ``tool_name`` when the caller has it)."""
        if tool is None:
            tool = tool_name(argv[0])
        self.cwd_hint = cwd
        if tool not in _META_TOOLS:
            self.scan_state_secrets(tool, argv, cwd)
        cat = _CATEGORIES.get(tool)
        if cat is None:
            cat = _category_missing(tool)
        nested_from = len(self.out.segments)
        if tool in _META_TOOLS:
            cat = _C_EXEC if cat == _C_EXEC else -1  # names and metadata only: no read of the content
            res = ("read", None)
            if tool == "ls":
                ops = _operands(argv[1:])
                res = ("read", _names_flow([*ops, *(o.rstrip("/") + "/$(…)" for o in ops)] or ["$(…)"]))
        if cat == -1:
            pass
        elif cat == _C_HANDLER:
            res = _FINAL[tool](self, tool, argv, cwd, stdin, effects, taints)
        elif cat == _C_READ:
            res = ("read", None)
            end = False
            for a in argv[1:]:  # _operands(argv[1:]), inline: its operands with a '/' or '.' are read
                if not end:
                    if a == "--":
                        end = True
                        continue
                    if a.startswith("-") and a != "-":
                        continue
                if "/" in a or "." in a:
                    effects.append(_effect("read", self.env.norm(a, cwd).display, "path"))
            if tool == "grep" and any(x in ("-l", "-L", "--files-with-matches") for x in argv[1:]):
                ops = _operands(argv[1:])
                if not any(x in ("-e", "-f", "--regexp", "--file") for x in argv[1:]):
                    ops = ops[1:]  # the first operand is the pattern
                res = ("read", _names_flow([*ops, *(o.rstrip("/") + "/$(…)" for o in ops)] or ["$(…)"]))
        elif cat == _C_EXEC:
            res = ("exec", None)
            if self.downloads or self.written:
                self.check_exec_of_download(argv[0], cwd, "sh", op)
        elif cat == _C_SHELL:
            res = self.run_shell(tool, argv, cwd, via, op, stdin, effects, taints)
        elif cat == _C_INTERP:
            res = self.run_interpreter(tool, argv, cwd, via, op, stdin, effects, taints)
        elif cat == _C_SQL:
            res = self.run_sql(tool, argv, cwd, stdin, effects)
        elif cat == _C_WIPER:
            self.violate("no-recursive-delete", f"'{tool}' wipes a disk or filesystem; never run it from an agent")
            res = ("dangerous", None)
        elif cat == _C_ESCALATOR:
            self.violate("no-permission-escalation", f"'{tool}' changes privileges or accounts; ask the user")
            res = ("dangerous", None)
        elif cat == _C_NET:
            res = self.run_net(tool, argv, cwd, stdin, effects)
        else:  # _C_WRITE
            res = ("write", None)
            for ref in self.paths(_operands(argv[1:]), cwd):
                effects.append(self.write_effect(ref, tool))
        typ, flow = res
        if typ == "exec" and (cat == _C_SHELL or cat == _C_INTERP) and len(self.out.segments) > nested_from:
            typ = "read"  # a shell or interpreter unwrapped: the commands it runs are the segments that count
        if sudo:
            typ = "dangerous"
        if tool not in _TAIL_TOOLS:  # no taint, download, working directory, variable or echo text to track
            self.emit(argv, op, via, typ, effects, sudo, wrappers)
            return cwd, _NO_FLOW if flow is None else flow
        args = argv[1:]
        fetcher = tool in FETCHERS
        decoder = tool in _DECODER_TOOLS and _is_decoder(tool, argv)
        if effects and (fetcher or decoder or (stdin is not None and stdin.taint and tool in _FILTERS)):
            for e in effects:  # curl URL > x.sh, base64 -d > x.sh, curl URL | tee x.sh: x.sh is untrusted code
                if e.type == "write" and e.kind == "path":
                    self.downloads.add(self.env.abs_of(e.target))
        if tool in _CWD_OR_VARS:
            if tool == "cd" or tool == "pushd":
                ops = _operands(args)
                cwd = self.env.cd(cwd, ops[0] if ops else None)
            else:
                for k, a in enumerate(args):
                    name, eq, value = a.partition("=")
                    if eq and name.replace("_", "a").isalnum():
                        if dyn and k + 1 < len(dyn) and dyn[k + 1]:
                            self.vars.pop(name, None)
                        else:
                            self.vars[name] = value
        self.emit(argv, op, via, typ, effects, sudo, wrappers)
        if flow is None:
            taint = text = None
            secret = False
            if fetcher:
                taint = "fetch"
            elif decoder:
                taint = "decode"
                if stdin and stdin.text and tool == "base64":
                    text = _b64(stdin.text)
            elif tool == "printf" and len(args) > 1 and args[0] == "-v":
                # printf -v NAME: the output goes to the variable, not to stdout
                if any(dyn[3:]) if dyn else False:
                    self.vars.pop(args[1], None)
                else:
                    self.vars[args[1]] = _printf(args[2:])
                text = ""
            elif tool == "echo" or tool == "printf":
                text = _echo_text(tool, args)
                if any("\\" in a for a in args):
                    joined = " ".join(args)
                    if _ENCODED_CHAR.search(joined) and (tool == "printf" or any(
                            a.startswith("-") and "e" in a for a in args[:2])):
                        taint = "decode"  # hex or octal escapes spell out text: run as code, it is decoded code
            elif stdin is not None and tool in _FILTERS:
                taint, secret = stdin.taint, stdin.secret
                if tool in ("cat", "read", "tee"):
                    text = stdin.text
            if effects and any(e.type == "read" and e.kind == "path" and self.carries_protected(e.target, cwd)
                               for e in effects):
                secret = True
            flow = _NO_FLOW if taint is None and text is None and not secret else _flow(taint, text, secret)
        return cwd, flow

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
                self.violate("no-governance-self-modification", f"{tool} reads everything under {ref.display}, "
                             "cuticle's stamp key and server token included; exclude them (--exclude=.cuticle / "
                             "--exclude-dir=.cuticle) or name the files you need")
                return

    def scan_state_secrets(self, tool: str, argv, cwd) -> None:
        """Every argument that names the stamp key or the server token (``base64 .cuticle/key``, ``dd
        if=.cuticle/key``, ``cd .cuticle && sort key``, ``cat .cu*/ke?``), or hands the ``.cuticle`` directory to
        a command that reads what is inside, is a read of cuticle's secrets, whatever the command."""
        in_state = cwd is not None and "/.cuticle" in cwd
        if tool in _TREE_READERS:
            self.tree_reader(tool, argv, cwd)
        for a in argv[1:]:
            if a.startswith(("--exclude", "--ignore", "-x")):
                continue
            if not (in_state or "key" in a or "serve" in a or "cuti" in a or "*" in a or "?" in a or "[" in a
                    or "$(find)" in a):
                continue
            value = a
            if "=" in a and (a.startswith("-") or a[:3] in ("if=", "of=")):
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
                self.violate("no-governance-self-modification", f"{tool} reads {ref.display}/, which holds "
                             "cuticle's stamp key and server token; only cuticle itself reads them")
                return

    def check_exec_of_download(self, path: str, cwd, lang: str = "sh", op: str = ";") -> None:
        if self.downloads or self.written:
            ref = self.env.norm(path, cwd)
            if ref.abs and ref.abs in self.downloads:
                self.violate("script-execution-tracking", f"runs {ref.display}, which this command just downloaded;"
                             " review the file first")
            elif ref.abs and ref.abs in self.written:
                text = self.written.pop(ref.abs)  # pop: a script that runs itself is inspected once
                if lang in SHELLS or lang == "sh":
                    self.run_text(text, cwd, f"script {ref.display}", op)
                else:
                    self.scan_code(lang, text, cwd, op)

    # shells ---------------------------------------------------------------------------------------------
    def run_shell(self, tool, argv, cwd, via, op, stdin, effects, taints):
        script_idx = None
        i = 1
        reads_stdin = False
        while i < len(argv):
            a = argv[i]
            if a == "--" or a == "-":
                i += 1
                break
            if a.startswith("--"):
                if a in ("--rcfile", "--init-file"):
                    i += 1
                i += 1
                continue
            if a.startswith("-") or a.startswith("+"):
                body = a[1:]
                if "c" in body:
                    script_idx = i + 1
                    break
                if "s" in body:
                    reads_stdin = True
                if "o" in body or "O" in body:
                    i += 1
                i += 1
                continue
            break
        if script_idx is not None:
            if script_idx < len(argv):
                self.shell_script(argv[script_idx], cwd, f"{tool} -c", op,
                                  taints[script_idx] if script_idx < len(taints) else None)
            return "exec", None
        rest = argv[i:]
        if rest and not reads_stdin:
            target = rest[0]
            if target.startswith("<(…)") or target.startswith("/dev/fd/") or target == "/dev/stdin":
                taint = taints[i] if i < len(taints) else None
                if taint or (stdin and stdin.taint and target == "/dev/stdin"):
                    self.violate("script-execution-tracking", f"{tool} runs a script straight from the network or "
                                 "a decoder; download it, review it, then run it")
                return "dangerous" if taint else "exec", None
            self.check_exec_of_download(target, cwd, tool, op)
            if self.out.violations and self.out.violations[-1].invariant == "script-execution-tracking" \
                    and self.out.violations[-1].segment == len(self.out.segments):
                return "dangerous", None
            return "exec", None
        # the shell reads its script from stdin
        if stdin is not None:
            if stdin.taint:
                self.violate("script-execution-tracking", f"pipes {stdin.taint}ed content into {tool}; download "
                             "to a file, review it, then run it")
                return "dangerous", None
            if stdin.text:
                self.run_text(stdin.text, cwd, f"{tool} stdin", op)
        return "exec", None

    # interpreters ---------------------------------------------------------------------------------------
    def run_interpreter(self, tool, argv, cwd, via, op, stdin, effects, taints):
        code = None
        code_idx = None
        files: list[str] = []
        inplace = False
        i = 1
        code_flags = {"python": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"),
                      "ruby": ("-e",), "php": ("-r",), "deno": ("eval",), "bun": ("-e", "--eval"),
                      "lua": ("-e",), "pwsh": ("-c", "-command", "-Command"),
                      "powershell": ("-c", "-command", "-Command"), "osascript": ("-e",), "rscript": ("-e",)}
        flags = code_flags.get(tool, ("-c", "-e"))
        script_given = False
        reads_stdin = False
        while i < len(argv):
            a = argv[i]
            if a in flags:
                code_idx = i + 1
                code = argv[i + 1] if i + 1 < len(argv) else ""
                i += 2
                continue
            if a.startswith("--") and "=" in a and a.split("=", 1)[0] in flags:
                code = a.split("=", 1)[1]
                code_idx = i
                i += 1
                continue
            if tool in ("perl", "ruby") and a.startswith("-") and not a.startswith("--"):
                body = a[1:]
                if "i" in body:
                    inplace = True
                if body.endswith("e") or body.endswith("E"):
                    code_idx = i + 1
                    code = argv[i + 1] if i + 1 < len(argv) else ""
                    i += 2
                    continue
                i += 1
                continue
            if tool == "python" and a.startswith("-") and len(a) > 2 and not a.startswith("--") and "c" in a[1:]:
                # -Sc 'code', -uc 'code'
                if a[-1] == "c":
                    code_idx = i + 1
                    code = argv[i + 1] if i + 1 < len(argv) else ""
                    i += 2
                    continue
            if a == "-":
                reads_stdin = True
                i += 1
                break
            if a.startswith("-"):
                if tool == "python" and a in ("-m", "-W", "-X"):
                    if a == "-m":
                        script_given = True
                        mod = argv[i + 1:i + 2]
                        rest = argv[i + 2:]
                        if mod in (["zipfile"], ["tarfile"]) and rest[:1] and rest[0] in ("-e", "--extract"):
                            ops = [x for x in rest[1:] if not x.startswith("-")]
                            if ops:
                                _extract(self, f"python -m {mod[0]} -e", ops[0], [],
                                         ops[1] if len(ops) > 1 else ".", cwd, effects)
                                return "write", None
                        break
                    i += 1
                i += 1
                continue
            if code is None:
                script_given = True
                self.check_exec_of_download(a, cwd, tool, op)
                if a.startswith("<(…)"):
                    taint = taints[i] if i < len(taints) else None
                    if taint:
                        self.violate("script-execution-tracking", f"{tool} runs code straight from the network; "
                                     "download it, review it, then run it")
                        return "dangerous", None
                break
            files.append(a)
            i += 1
        if code is not None:
            taint = taints[code_idx] if code_idx is not None and code_idx < len(taints) else None
            if taint:
                self.violate("script-execution-tracking", f"{tool} runs {taint}ed code; save it, review it, then "
                             "run it")
                return "dangerous", None
            typ = self.scan_code(tool, code, cwd, op, tuple(files) + tuple(argv[i:]))
            if inplace:
                files = files or argv[i:]
                for ref in self.paths([f for f in files if not f.startswith("-")], cwd):
                    effects.append(self.write_effect(ref, f"{tool} -i"))
                typ = max(typ, "write", key=RANK.__getitem__)
            return typ, None
        if not script_given or reads_stdin:
            if stdin is not None and stdin.taint:
                self.violate("script-execution-tracking", f"pipes {stdin.taint}ed content into {tool}; download "
                             "to a file, review it, then run it")
                return "dangerous", None
            if stdin is not None and stdin.text:
                return self.scan_code(tool, stdin.text, cwd, op), None
        return "exec", None

    def scan_code(self, lang: str, code: str, cwd, op, args: tuple[str, ...] = ()) -> str:
        """Type inline interpreter code by what it shells out to, reads, writes and deletes.

        String literals joined with ``+``/``.``/``..`` count as one (``'MEM'+'ORY.md'``); a write whose target
        is not a literal (``open(sys.argv[1], 'a')``, a loop over ``glob('*.md')``) targets the script's
        arguments when the code reads its argv, else every protected path in reach; decoded code that is
        executed is dangerous."""
        typ = "exec"
        code = _join_literals(code)
        strings = [_strip_mode(x) for x in _string_literals(code)]
        self.cwd_hint = cwd
        for x in strings:
            if ("key" in x or "serve" in x or "cuti" in x) and _pathish(x):
                if self.check_state_secret(self.env.norm(x, cwd), x, f"{lang} code"):
                    break
        else:
            if any(x.rstrip("/").endswith(".cuticle") for x in strings) and \
                    any(x in ("key", "serve.json", "/key", "/serve.json") for x in strings):
                self.violate("no-governance-self-modification", f"{lang} code builds the path of cuticle's stamp key "
                             "or server token; only cuticle itself reads them")
        if _FETCH_API.search(code):
            for x in strings:
                if _pathish(x) and self.carries_protected(x, cwd):
                    self.violate("no-network-egress", f"{lang} code talks to the network and reads {x}, a protected "
                                 "file (memory, cuticle's state, the policy or a credential); it never leaves the "
                                 "machine")
                    break
        if _FETCH_API.search(code) and _EXEC_API.search(code):
            self.violate("script-execution-tracking", f"{lang} code fetches content and executes it; download it, "
                         "review it, then run it")
            typ = "dangerous"
        if _DECODE_API.search(code) and _EXEC_API.search(code):
            self.violate("script-execution-tracking", f"{lang} code decodes a payload and executes it")
            typ = "dangerous"
        for m in _SHELL_CALL.finditer(code):
            arg = _call_args(code, m.end())
            lits = _string_literals(arg)
            if not lits:
                continue
            text = " ".join(lits) if arg.lstrip().startswith(("[", "(", "%w", "qw")) or len(lits) > 1 and \
                "," in arg.split(lits[1])[0] else lits[0]
            start = len(self.out.segments)
            self.run_text(text, cwd, f"{lang} code", op)
            for seg in self.out.segments[start:]:
                if RANK[seg.type] > RANK[typ]:
                    typ = seg.type
        for m in _BACKTICK.finditer(code) if lang in ("perl", "ruby", "php") else ():
            self.run_text(m.group(1), cwd, f"{lang} code", op)
        if _RMTREE_API.search(code):
            for s in strings:
                if _pathish(s):
                    self.delete_effect(self.env.norm(s, cwd), f"{lang} code", recursive=True)
                    typ = "dangerous"
        if _WRITE_API.search(code) or _RMTREE_API.search(code) or _OS_OPEN_WRITE.search(code):
            found = False
            for s in strings:
                if _pathish(s):
                    ref = self.env.norm(s, cwd)
                    hit = self.env.protected(ref)
                    if hit:
                        inv, what = hit
                        self.violate(inv, f"{lang} code writes {what}; " + _SELF_FIX[inv])
                        found = True
                    elif is_pattern(s):
                        found = self.reach_check(ref, f"{lang} code", "writes") or found
                    elif self.env.is_credential(ref):
                        self.violate("no-secret-write", f"{lang} code writes {ref.display}, a credential file; "
                                     + _SELF_FIX["no-secret-write"])
                        found = True
            if not found and _computed_write(code):
                if _ARGV_API.search(code) and args:
                    for a in args:
                        if not a.startswith("-"):
                            self.write_effect(self.env.norm(a, cwd), f"{lang} code (its argument)")
                else:
                    self.reach_check(PathRef("unknown", "$(…)"), f"{lang} code", "writes")
            if RANK[typ] < RANK["write"]:
                typ = "write"
        for s in strings:
            kind = sql_kind(s)
            if kind == "destructive":
                self.violate("no-destructive-sql", f"{lang} code runs destructive SQL ({_short(s)}); add a WHERE "
                             "clause or ask the user")
                typ = "dangerous"
        return typ

    # SQL -------------------------------------------------------------------------------------------------
    def run_sql(self, tool, argv, cwd, stdin, effects):
        texts: list[str] = []
        args = argv[1:]
        i = 0
        positional: list[str] = []
        flag_map = {"psql": ("-c", "--command"), "mysql": ("-e", "--execute"), "duckdb": ("-c", "-cmd"),
                    "sqlite3": ("-cmd",), "sqlcmd": ("-Q", "-q"), "clickhouse-client": ("-q", "--query"),
                    "cockroach": ("-e", "--execute"), "mysqlsh": ("-e", "--execute", "--sql"),
                    "pgcli": ("-c",), "mycli": ("-e", "--execute"), "litecli": ("-e",), "usql": ("-c", "--command"),
                    "snowsql": ("-q", "--query"), "bq": ("query",)}
        flags = flag_map.get(tool, ("-c", "-e"))
        valued = {"-h", "-U", "-d", "-u", "-P", "-D", "-S", "-f", "-o", "-v", "--host", "--port", "--user",
                  "--username", "--dbname", "--database", "-F", "-R", "-T", "-L", "-i", "--file", "--set"}
        if tool not in ("mysql", "mysqlsh", "mycli"):
            valued.add("-p")  # psql -p PORT; mysql -p prompts (or -pSECRET, attached)
        while i < len(args):
            a = args[i]
            if a in flags:
                if i + 1 < len(args):
                    texts.append(args[i + 1])
                i += 2
                continue
            hit = next((f for f in flags if f.startswith("--") and a.startswith(f + "=")), None)
            if hit:
                texts.append(a.split("=", 1)[1])
                i += 1
                continue
            if len(a) > 2 and a[:2] in flags and not a.startswith("--"):
                texts.append(a[2:])
                i += 1
                continue
            if a in valued:
                i += 2
                continue
            if a.startswith("-"):
                i += 1
                continue
            positional.append(a)
            i += 1
        if tool in ("sqlite3", "duckdb") and len(positional) > 1:
            texts.extend(positional[1:])
        if not texts and stdin is not None and stdin.text:
            texts.append(stdin.text)
        if not texts:
            return "exec", None
        typ = "read"
        for t in texts:
            kind = sql_kind(t)
            if kind == "destructive":
                self.violate("no-destructive-sql", f"{tool} runs destructive SQL ({_short(t)}); DROP, TRUNCATE "
                             "and DELETE/UPDATE without WHERE lose data. Add a WHERE clause or ask the user")
                typ = "dangerous"
            elif kind == "write" and RANK[typ] < RANK["write"]:
                typ = "write"
            elif kind == "exec" and RANK[typ] < RANK["exec"]:
                typ = "exec"
        return typ, None

    # network ---------------------------------------------------------------------------------------------
    def run_net(self, tool, argv, cwd, stdin, effects):
        args = argv[1:]
        hosts: list[str] = []
        for a in args:
            if "://" in a:  # every match holds it: most arguments need no regex scanner
                for m in _URL.finditer(a):
                    hosts.append(m.group(2).lower())
        uploads: list[str] = []
        outputs: list[str] = []
        if tool in ("ssh", "scp", "sftp", "rsync", "mosh"):
            for a in _operands(args):
                if "@" in a or (":" in a and not a.startswith("/") and "://" not in a):
                    host = a.split(":", 1)[0].split("@")[-1]
                    if host:
                        hosts.append(host.lower())
            if tool in ("scp", "rsync"):
                ops = _operands(args)
                if len(ops) >= 2 and (":" in ops[-1] and "://" not in ops[-1]):
                    uploads.extend(o for o in ops[:-1] if ":" not in o)
                elif ops:
                    outputs.append(ops[-1])
                    if len(ops) >= 2 and any(o.endswith("/") or o.endswith("/.") for o in ops[:-1]):
                        self.cwd_hint = cwd
                        self.reach_check(self.env.norm(ops[-1].rstrip("/") + "/$(…)", cwd), tool,
                                         "copies a directory whose content is not checked over")
            if tool == "ssh":
                ops = _operands(args)
                if not hosts and ops:
                    hosts.append(ops[0].split("@")[-1].lower())
        if tool == "gh":
            hosts.append("github.com")
            # gh gist create FILES, gh release upload TAG FILES, --body-file/-F FILE: the files leave the machine
            ops = _operands(args)
            if ops[:2] == ["gist", "create"]:
                uploads.extend(ops[2:])
            elif ops[:2] == ["release", "upload"]:
                uploads.extend(ops[3:])
            for k, a in enumerate(args):
                if a in ("--body-file", "-F") and k + 1 < len(args):
                    uploads.append(args[k + 1])
                elif a.startswith("--body-file="):
                    uploads.append(a.split("=", 1)[1])
        if tool in ("rclone", "s3cmd"):
            ops = _operands(args)
            if len(ops) >= 3 and ":" in ops[-1]:
                uploads.extend(o for o in ops[1:-1] if ":" not in o)
        if tool in ("nc", "socat", "telnet"):
            ops = _operands(args)
            if ops:
                hosts.append(ops[0].lower())
        i = 0
        while i < len(args):
            a = args[i]
            nxt = args[i + 1] if i + 1 < len(args) else ""
            if tool in ("curl", "curlie"):
                pass  # parsed as a whole below (short-option clusters take their value from the rest)
            elif tool in ("wget", "wget2"):
                if a in ("-O", "--output-document"):
                    outputs.append(nxt)
                elif a.startswith("--output-document="):
                    outputs.append(a.split("=", 1)[1])
                elif a.startswith("-") and not a.startswith("--") and a.endswith("O") and nxt:
                    outputs.append(nxt)
                elif a.startswith("--post-file=") or a.startswith("--body-file="):
                    uploads.append(a.split("=", 1)[1])
                elif a in ("--post-file", "--body-file"):
                    uploads.append(nxt)
            i += 1
        if tool in ("curl", "curlie"):
            _curl_files(args, uploads, outputs)
        if tool in ("wget", "wget2") and not outputs:
            outputs.extend(_url_basename(x) for x in args if "://" in x)
        if self.sub_secret:
            self.violate("no-network-egress", f"{tool} is handed the contents of a protected file (memory, cuticle's "
                         "state, the policy or a credential) through a substitution; they never leave the machine")
        if stdin is not None and stdin.secret and tool in NET_TOOLS:
            self.violate("no-network-egress", f"pipes the contents of a protected file (memory, cuticle's state, "
                         f"the policy or a credential) into {tool}; they never leave the machine")
        for up in uploads:
            if up in ("-", ""):
                continue
            ref = self.env.norm(up, cwd)
            hit = self.env.protected(ref)
            if self.env.is_secret(ref) or self.env.is_state_secret(ref):
                self.violate("no-network-egress", f"{tool} uploads {ref.display}, a credential or cuticle's own "
                             "secret; secrets never leave the machine")
            elif hit:
                self.violate("no-network-egress", f"{tool} uploads {hit[1]}; memory, the policy and cuticle's state "
                             "never leave the machine through the shell. Upload other files, or ask the user")
            elif is_pattern(ref.display) and self.env.reach(ref.abs or ref.display, cwd):
                self.violate("no-network-egress", f"{tool} uploads {ref.display}, which is only known when it runs "
                             "and may be a protected file; name the file literally")
        for host in hosts:
            effects.append(_effect("net", host, "host"))
            if self.opts.allowed_hosts is not None:
                from .invariants.no_network_egress import host_violation  # it imports this module
                v = host_violation(tool, host, self.opts.allowed_hosts)
                if v is not None:
                    self.violate(v.invariant, v.reason)
        for out in outputs:
            if out and out != "-" and out not in DEVICES:
                ref = self.env.norm(out, cwd)
                effects.append(self.write_effect(ref, f"{tool} output"))
                if ref.abs:
                    self.downloads.add(ref.abs)
        if not hosts and tool in ("rsync", "scp"):
            return "write", None  # both ends on this machine: a copy, not a transfer
        return "net", None


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


#: commands that look at names and metadata only (a stat, a test, a listing): never a read of the content
_META_TOOLS = frozenset({"ls", "stat", "test", "[", "[[", "du", "df", "realpath", "readlink", "basename", "dirname",
                         "file", "lsof", "exa", "eza", "tree", "pwd", "which", "type", "command"})
#: commands that may name the state directory without reading its files (deleting or moving it is a write)
_STATE_DIR_OK = frozenset({"rm", "rmdir", "mv", "chmod", "chown", "chgrp", "touch", "mkdir", "cd", "pushd", "find",
                           "git", "cuticle"})
_POSITIONAL = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*", "#")


def _shell_quote(a: str) -> str:
    if a and all(c.isalnum() or c in "@%+=:,./-_" for c in a):
        return a
    return "'" + a.replace("'", "'\\''") + "'"


def _braces(text: str, limit: int = 64) -> list[str]:
    """Bash brace expansion of one word: ``{a,b}c`` -> ``ac bc``, ``x{1..3}`` -> ``x1 x2 x3``; a word without a
    valid brace group (``{}``, ``{a}``, ``${x}``) stays as it is."""
    i = 0
    n = len(text)
    while i < n:
        if text[i] == "{" and (i == 0 or text[i - 1] != "$"):
            depth = 0
            commas = []
            for j in range(i, n):
                c = text[j]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        body = text[i + 1:j]
                        pre, post = text[:i], text[j + 1:]
                        if commas:
                            parts, last = [], i + 1
                            for k in commas:
                                parts.append(text[last:k])
                                last = k + 1
                            parts.append(text[last:j])
                        else:
                            m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)|([a-zA-Z])\.\.([a-zA-Z])", body)
                            if not m:
                                break
                            if m.group(1) is not None:
                                a, b = int(m.group(1)), int(m.group(2))
                                step = 1 if b >= a else -1
                                parts = [str(x) for x in range(a, b + step, step)[:limit]]  # a range slice is lazy
                            else:
                                a, b = ord(m.group(3)), ord(m.group(4))
                                step = 1 if b >= a else -1
                                parts = [chr(x) for x in range(a, b + step, step)[:limit]]
                        out: list[str] = []
                        for part in parts:
                            for tail in _braces(post, limit):
                                out.extend(_braces(pre + part + tail, limit) if "{" in part else [pre + part + tail])
                                if len(out) >= limit:
                                    return out
                        return out
                elif c == "," and depth == 1:
                    commas.append(j)
            else:
                return [text]
        i += 1
    return [text]


def _skip_opts(argv: list[str], valued: set[str], start: int = 1) -> int:
    i = start
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return i + 1
        if not a.startswith("-") or a == "-":
            return i
        name = a.split("=", 1)[0]
        if name in valued and "=" not in a:
            i += 2
            continue
        if not a.startswith("--") and len(a) > 2 and f"-{a[1]}" in valued:
            i += 1  # value attached: -u0
            continue
        if not a.startswith("--") and len(a) > 2 and f"-{a[-1]}" in valued:
            i += 2  # cluster ending in a valued flag
            continue
        i += 1
    return i


def _w_sudo(w: Walker, argv, cwd):
    tool = tool_name(argv[0])
    if argv[0].rsplit("/", 1)[-1] == "sudoedit" or "-e" in argv[1:2]:
        return ("sudo", ["tee"] + [a for a in argv[1:] if not a.startswith("-")], None)
    valued = {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--chdir", "--host",
              "--prompt", "--role", "--type", "--close-from", "--other-user", "--command-timeout"}
    if tool == "su":
        for j, a in enumerate(argv):
            if a in ("-c", "--command") and j + 1 < len(argv):
                return ("sudo", ["sh", "-c", argv[j + 1]], None)
        return ("sudo", ["sh"], None)
    i = _skip_opts(argv, valued)
    rest = argv[i:]
    if not rest and any(a in ("-s", "-i", "--shell", "--login") for a in argv[1:]):
        rest = ["sh"]
    return ("sudo", rest, None)


def _w_env(w: Walker, argv, cwd):
    i = 1
    new_cwd = cwd
    while i < len(argv):
        a = argv[i]
        if a in ("-u", "--unset"):
            i += 2
            continue
        if a in ("-C", "--chdir"):
            new_cwd = w.env.cd(cwd, argv[i + 1] if i + 1 < len(argv) else None)
            i += 2
            continue
        if a.startswith("--chdir="):
            new_cwd = w.env.cd(cwd, a.split("=", 1)[1])
            i += 1
            continue
        if a in ("-S", "--split-string") and i + 1 < len(argv):
            return ("wrap", argv[i + 1].split() + argv[i + 2:], None)
        if a.startswith("-S") and len(a) > 2:
            return ("wrap", a[2:].split() + argv[i + 1:], None)
        if a == "--":
            i += 1
            break
        if a.startswith("-"):
            i += 1
            continue
        if "=" in a and not a.startswith("="):
            name = a.split("=", 1)[0]
            if _ide_hit(a):
                w.violate("no-ide-socket-access", f"env sets {name} to an IDE socket; editor sockets are off limits")
            i += 1
            continue
        break
    rest = argv[i:]
    if new_cwd != cwd:
        return ("cwd", rest, new_cwd)
    return ("wrap", rest, None)


def _w_simple(valued: set[str], positional: int = 0):
    def handler(w: Walker, argv, cwd):
        i = _skip_opts(argv, valued)
        i += positional
        return ("wrap", argv[i:], None)
    return handler


def _w_command(w: Walker, argv, cwd):
    if any(a in ("-v", "-V") for a in argv[1:2]):
        return None
    i = _skip_opts(argv, set())
    return ("wrap", argv[i:], None)


def _w_xargs(w: Walker, argv, cwd):
    valued = {"-I", "-n", "-L", "-P", "-d", "-E", "-s", "-a", "--max-args", "--max-lines", "--max-procs",
              "--delimiter", "--arg-file", "--eof", "--replace", "--process-slot-var"}
    i = 1
    repl = None
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-"):
            break
        if a == "-I" and i + 1 < len(argv):
            repl = argv[i + 1]
            i += 2
            continue
        if a.startswith("-I") and len(a) > 2:
            repl = a[2:]
        elif a.startswith("-i"):
            repl = a[2:] or "{}"
        elif a.startswith("--replace"):
            repl = a.split("=", 1)[1] if "=" in a else "{}"
        if a.split("=", 1)[0] in valued and "=" not in a and not (len(a) > 2 and not a.startswith("--")):
            i += 2
            continue
        i += 1
    rest = argv[i:] or ["echo"]
    if repl:
        rest = [a.replace(repl, "\x00R") for a in rest]
    return ("stdin-args", rest, bool(repl))


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


def _listing_value(script: Script) -> str | None:
    """What ``$(find START … -name N)`` or ``$(ls X)`` prints, as a pattern (``START/$(…)/N``, ``X``): enough to
    see that ``cat "$(find . -name key -path '*cuticle*')"`` reads the key. Other substitutions stay unknown."""
    if len(script.items) != 1:
        return None
    pipe = script.items[0][1]
    if not pipe.commands or not isinstance(pipe.commands[0], Simple):
        return None
    words = [w.text for w in pipe.commands[0].words]
    if not words or not all(w.literal for w in pipe.commands[0].words):
        return None
    if words[0] == "find" and len(pipe.commands) == 1:
        i = 1
        starts = []
        while i < len(words) and not words[i].startswith("-") and words[i] not in ("(", "!"):
            starts.append(words[i])
            i += 1
        expr = words[i:]
        names = [expr[k + 1] for k, a in enumerate(expr) if a in ("-name", "-iname") and k + 1 < len(expr)]
        if len(starts) <= 1:
            return _find_pattern(starts[0] if starts else ".", names[:1])
    return None


def _lookup_value(script: Script) -> str | None:
    """What ``$(which NAME)``, ``$(command -v NAME)`` or ``$(type -P NAME)`` prints: the path of program NAME (as
    ``/usr/bin/NAME``: its directory does not matter, its name says what runs), so ``$(which python3) -c …`` is
    looked through like ``python3 -c …``."""
    if len(script.items) != 1:
        return None
    pipe = script.items[0][1]
    if len(pipe.commands) != 1 or not isinstance(pipe.commands[0], Simple):
        return None
    cmd = pipe.commands[0]
    if cmd.redirects and not all(r.target is not None and r.target.text in DEVICES for r in cmd.redirects):
        return None
    words = [w.text for w in cmd.words]
    if not all(w.literal for w in cmd.words) or len(words) < 2:
        return None
    if words[0] == "which" and len(words) == 2 or words[:2] in (["command", "-v"], ["type", "-P"], ["type", "-p"]) \
            and len(words) == 3:
        name = words[-1]
        if not name or name.startswith("-"):
            return None
        return name if "/" in name else "/usr/bin/" + name
    return None


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
        return _effect("write", ref.display, "path")
    eff = self.delete_effect(ref, "find -delete", recursive=True)
    return eff if allowed or ref.scope != "ws" else _effect("write", ref.display, "path")


Walker.find_exec = _walker_find_exec  # type: ignore[attr-defined]
Walker.find_delete = _walker_find_delete  # type: ignore[attr-defined]
Walker._find_ctx = None  # type: ignore[attr-defined]


def _w_watch(w: Walker, argv, cwd):
    i = _skip_opts(argv, {"-n", "--interval", "-d", "--differences", "-q", "--equexit"})
    rest = argv[i:]
    if not rest:
        return None
    return ("shell", [" ".join(rest)], None)


def _w_flock(w: Walker, argv, cwd):
    for j, a in enumerate(argv):
        if a in ("-c", "--command") and j + 1 < len(argv):
            return ("shell", [argv[j + 1]], j + 1)
    i = _skip_opts(argv, {"-w", "--timeout", "-E", "--conflict-exit-code"})
    return ("wrap", argv[i + 1:], None)


def _w_eval(w: Walker, argv, cwd):
    return ("shell", [" ".join(argv[1:])], 1)


def _w_runner(sub: str, valued: set[str] = frozenset()):
    """``uv run CMD``, ``poetry run CMD``, ``bundle exec CMD``…: the command after the subcommand runs."""
    def handler(w: Walker, argv, cwd):
        if len(argv) < 3 or argv[1] != sub:
            return None
        i = _skip_opts(argv, set(valued), start=2)
        return ("wrap", argv[i:], None) if i < len(argv) else None
    return handler


def _w_busybox(w: Walker, argv, cwd):
    return ("wrap", argv[1:], None) if len(argv) > 1 else None


_WRAPPERS = {
    "sudo": _w_sudo, "su": _w_sudo, "pkexec": _w_sudo, "run0": _w_sudo, "runuser": _w_sudo,
    "env": _w_env,
    "timeout": _w_simple({"-k", "-s", "--kill-after", "--signal"}, positional=1),
    "nohup": _w_simple(set()),
    "nice": _w_simple({"-n", "--adjustment"}),
    "ionice": _w_simple({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}),
    "stdbuf": _w_simple({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "time": _w_simple({"-f", "-o", "--format", "--output"}),
    "command": _w_command, "builtin": _w_simple(set()), "exec": _w_simple({"-a"}),
    "setsid": _w_simple(set()), "chronic": _w_simple(set()), "unbuffer": _w_simple(set()),
    "caffeinate": _w_simple({"-t", "-w"}), "torsocks": _w_simple(set()), "proxychains": _w_simple({"-f"}),
    "proxychains4": _w_simple({"-f"}), "xvfb-run": _w_simple({"-s", "-n", "-e", "-f", "-p"}),
    "dbus-run-session": _w_simple(set()), "catchsegv": _w_simple(set()),
    "strace": _w_simple({"-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-S", "-X", "-P"}),
    "ltrace": _w_simple({"-o", "-e", "-p", "-s", "-u", "-n", "-a"}),
    "valgrind": _w_simple(set()), "chroot": _w_simple({"--userspec", "--groups"}, positional=1),
    "xargs": _w_xargs, "watch": _w_watch, "flock": _w_flock, "eval": _w_eval,
    "uv": _w_runner("run", {"--with", "--python", "-p", "--project", "--directory"}),
    "poetry": _w_runner("run"), "pipenv": _w_runner("run"), "bundle": _w_runner("exec"),
    "pnpm": _w_runner("exec"), "conda": _w_runner("run", {"-n", "--name", "-p", "--prefix"}),
    "busybox": _w_busybox, "doas": _w_sudo, "rtk": _w_simple(set()),
}


# -- tool handlers ---------------------------------------------------------------------------------------
def _operands(args: list[str]) -> list[str]:
    out: list[str] = []
    end = False
    for a in args:
        if end:
            out.append(a)
        elif a == "--":
            end = True
        elif a.startswith("-") and a != "-":
            continue
        else:
            out.append(a)
    return out


def _opts_and_operands(args: list[str], valued: set[str]) -> tuple[list[str], list[str], dict[str, str]]:
    flags: list[str] = []
    ops: list[str] = []
    values: dict[str, str] = {}
    i = 0
    end = False
    while i < len(args):
        a = args[i]
        i += 1
        if end or a == "-" or not a.startswith("-"):
            ops.append(a)
            continue
        if a == "--":
            end = True
            continue
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            if not eq and f"--{name}" in valued and i < len(args):
                val = args[i]
                i += 1
            flags.append(name)
            values[name] = val
            continue
        body = a[1:]
        for k, ch in enumerate(body):
            flags.append(ch)
            if f"-{ch}" in valued:
                val = body[k + 1:]
                if not val and i < len(args):
                    val = args[i]
                    i += 1
                values[ch] = val
                break
    return flags, ops, values


_LONG_PREFIX = {"rm": ("recursive", "force", "interactive", "one-file-system", "no-preserve-root",
                       "preserve-root", "dir", "verbose")}


def _long(tool: str, name: str) -> str:
    opts = _LONG_PREFIX.get(tool, ())
    hits = [o for o in opts if o.startswith(name)]
    return hits[0] if len(hits) == 1 else name


def _h_rm(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, _ = _opts_and_operands(argv[1:], set())
    names = {_long("rm", f) if len(f) > 1 else f for f in flags}
    find_ctx = getattr(w, "_find_ctx", None)
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
                hit = w.env.protected(probe)
                if hit:
                    w.violate(hit[0], f"find -exec rm may delete {hit[1]}; " + _SELF_FIX[hit[0]])
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
                hit = None
                for sref in dict.fromkeys((w.env.norm(s, cwd), w.env.norm(s, base_dir))):
                    hit = w.env.protected(sref)
                    if hit is None and w.env.is_state_secret(sref):
                        hit = ("no-governance-self-modification", f"{sref.display} (cuticle's stamp key or token)")
                    if hit or w.env.is_secret(sref):
                        break
                if hit:
                    w.violate(hit[0], f"{tool} links to {hit[1]}: whatever is written through the link changes it, "
                              "and reads through it are reads of it; copy the content instead (cp without -l/-s), "
                              "or link an ordinary file")
                elif w.env.is_secret(sref):
                    w.violate("no-secret-write", f"{tool} links to the credential file {sref.display}; "
                              + _SELF_FIX["no-secret-write"])
    if tool == "mv":
        for s in srcs:
            ref = w.env.norm(s, cwd)
            hit = w.env.protected(ref)
            if hit:
                w.violate(hit[0], f"mv moves away {hit[1]}; " + _SELF_FIX[hit[0]])
            effects.append(_effect("write", ref.display, "path"))
    if tool in ("cp", "install"):
        for s in srcs:
            effects.append(_effect("read", w.env.norm(s, cwd).display, "path"))
    return "write", None


def _h_uniq(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """uniq [INPUT [OUTPUT]]: the second operand is written."""
    flags, ops, values = _opts_and_operands(argv[1:], {"-f", "-s", "-w", "--skip-fields", "--skip-chars",
                                                        "--check-chars"})
    if ops:
        effects.append(_effect("read", w.env.norm(ops[0], cwd).display, "path"))
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
        effects.append(_effect("read", ref.display, "path"))
    return "read", _flow(stdin.taint if stdin else None)


def _h_awk(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """awk: the program's output redirections (``print > EXPR``, ``>>``, ``| "cmd"``), ``system()`` and
    ``"cmd" | getline`` are what it writes and runs. EXPR is evaluated as far as it is known: string literals,
    variables set by ``-v``, by an operand ``name=value`` or by a literal assignment in the program, ``FILENAME``
    (the input files), concatenations and parentheses; an unknown part (a field, ``NR``) stands for anything, so
    ``print > ("build/split-" NR ".txt")`` reaches only ``build/split-*.txt``."""
    from .content import read_text

    args = argv[1:]
    values: dict[str, list[str | None]] = {}
    program: str | None = None
    program_file = False
    inplace = False
    files: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-v", "--assign") or a.startswith(("-v", "--assign=")):
            assign = nxt if a in ("-v", "--assign") else a[2:] if a.startswith("-v") else a.split("=", 1)[1]
            name, eq, value = assign.partition("=")
            if eq:
                values.setdefault(name, []).append(value)
            i += 2 if a in ("-v", "--assign") else 1
            continue
        if a in ("-f", "--file", "-E", "--exec") or a.startswith(("--file=", "--exec=")):
            path = nxt if "=" not in a else a.split("=", 1)[1]
            ref = w.env.norm(path, cwd)
            effects.append(_effect("read", ref.display, "path"))
            text = read_text(ref.abs) if ref.abs and ref.scope != "unknown" else None
            program = (program or "") + "\n" + (text if text is not None else "\x00unknown")
            program_file = True
            i += 1 if "=" in a else 2
            continue
        if a in ("-i", "--include"):
            inplace = inplace or nxt == "inplace"
            i += 2
            continue
        if a in ("-F", "--field-separator"):
            i += 2
            continue
        i += 1
    rest = args[i:]
    if not program_file:
        program, rest = (rest[0], rest[1:]) if rest else ("", [])
    for a in rest:
        name, eq, value = a.partition("=")
        if eq and name.replace("_", "a").isalnum() and not name[0].isdigit():
            values.setdefault(name, []).append(value)  # an operand `name=value` assigns, it is not a file
        else:
            files.append(a)
    assert program is not None
    if "\x00unknown" in program:  # a program file that cannot be read: what it writes is unknown
        w.cwd_hint = cwd
        w.reach_check(PathRef("unknown", "$(…)"), f"{tool} -f", "writes")
        return "write", None
    for m in _AWK_ASSIGN.finditer(program):
        name, lit = m.group(1), m.group(2)
        values.setdefault(name, []).append(_awk_string(lit) if lit is not None else None)
    typ = "read"
    for how, expr in _awk_outputs(program):
        targets = _awk_eval(expr, values, files)
        if how == "|" or how == "getline" or how == "system":
            for t in targets:
                head = t.split(None, 1)[0] if t.split() else ""
                if "$(…)" in t or (how == "|" and tool_name(head) in SHELLS | INTERPRETERS):
                    # a command only known when it runs, or a shell fed the printed text: it may write anything
                    w.cwd_hint = cwd
                    w.reach_check(PathRef("unknown", "$(…)"), f"{tool} {how}", "runs a command that writes")
                else:
                    start = len(w.out.segments)
                    w.run_text(t, cwd, f"{tool} {how}", ";")
                    for seg in w.out.segments[start:]:
                        if RANK[seg.type] > RANK[typ]:
                            typ = seg.type
            if RANK[typ] < RANK["exec"]:
                typ = "exec"
            continue
        for t in targets:
            if t in DEVICES or t.startswith("/dev/fd/") or t in ("/dev/stdout", "/dev/stderr", "-"):
                continue
            w.cwd_hint = cwd
            effects.append(w.write_effect(w.env.norm(t, cwd), f"{tool} print {how}"))
            if RANK[typ] < RANK["write"]:
                typ = "write"
    if inplace:
        for ref in w.paths(files, cwd):
            effects.append(w.write_effect(ref, f"{tool} -i inplace"))
        return "write", None
    for ref in w.paths(files, cwd):
        effects.append(_effect("read", ref.display, "path"))
    if typ != "read":
        return typ, None
    return "read", _flow(stdin.taint if stdin else None)


#: `name = "literal"` or `name = <something else>` in an awk program (not `==`, `<=`, `>=`, `!=`)
_AWK_ASSIGN = LazyRe(r"(?<![=!<>\w$])([A-Za-z_]\w*)\s*=(?!=)\s*(\"(?:[^\"\\]|\\.)*\")?")
_AWK_STMT_END = frozenset(";}\n")


def _awk_string(lit: str) -> str:
    return lit[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _awk_outputs(program: str) -> list[tuple[str, str]]:
    """The output targets of an awk program: (``>``, ``>>`` or ``|``, target expression) of each ``print`` /
    ``printf`` redirection, (``getline``, command) for ``cmd | getline``, (``system``, command) for
    ``system(cmd)``. Strings and parenthesized arguments are skipped (``print (a > b)`` compares)."""
    out: list[tuple[str, str]] = []
    n = len(program)
    i = 0
    in_print = False
    depth = 0
    stmt_start = 0
    while i < n:
        c = program[i]
        if c == '"':
            j = i + 1
            while j < n and program[j] != '"':
                j += 2 if program[j] == "\\" else 1
            i = j + 1
            continue
        if c == "/" and not in_print:  # a regex literal /…/ (division needs an operand before it)
            prev = program[stmt_start:i].rstrip()[-1:]
            if not prev or prev in "({;,!~&|":
                j = program.find("/", i + 1)
                if j > 0:
                    i = j + 1
                    continue
        if c in _AWK_STMT_END and depth == 0:
            in_print = False
            stmt_start = i + 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c.isalpha() and (i == 0 or not (program[i - 1].isalnum() or program[i - 1] in "_$")):
            j = i
            while j < n and (program[j].isalnum() or program[j] == "_"):
                j += 1
            word = program[i:j]
            if word in ("print", "printf") and depth == 0:
                in_print = True
            elif word == "system":
                k = j
                while k < n and program[k] == " ":
                    k += 1
                if k < n and program[k] == "(":
                    out.append(("system", _awk_balanced(program, k)))
            elif word == "getline":
                before = program[stmt_start:i].rstrip()
                if before.endswith("|"):
                    out.append(("getline", before[:-1]))
            i = j
            continue
        elif in_print and depth == 0 and c in ">|":
            how = ">>" if program.startswith(">>", i) else c
            j = i + len(how)
            k = j
            d = 0
            while k < n and not (program[k] in _AWK_STMT_END and d == 0):
                if program[k] == '"':
                    k += 1
                    while k < n and program[k] != '"':
                        k += 2 if program[k] == "\\" else 1
                elif program[k] == "(":
                    d += 1
                elif program[k] == ")":
                    d -= 1
                k += 1
            out.append((how, program[j:k].strip()))
            in_print = False
            i = k
            continue
        i += 1
    return out


def _awk_balanced(program: str, k: int) -> str:
    """The text inside the parentheses opening at ``k``."""
    d = 0
    j = k
    while j < len(program):
        if program[j] == "(":
            d += 1
        elif program[j] == ")":
            d -= 1
            if d == 0:
                return program[k + 1:j]
        elif program[j] == '"':
            j += 1
            while j < len(program) and program[j] != '"':
                j += 2 if program[j] == "\\" else 1
        j += 1
    return program[k + 1:]


_AWK_TOKEN = LazyRe(r'\s*(?:("(?:[^"\\]|\\.)*")|([A-Za-z_]\w*)(?!\s*[\[(])|(\()|(\))|(\$\w+)|(\d+(?:\.\d+)?)|(\S))')


def _awk_eval(expr: str, values: dict[str, list[str | None]], files: list[str]) -> list[str]:
    """The texts an awk expression may have (string concatenation), an unknown part as ``$(…)``: literals,
    numbers, known variables (each value they are given), ``FILENAME`` (each input file), parentheses; a field
    (``$1``) is an unknown part; any operator, array element or call makes the whole value unknown."""
    outs = [""]
    pos = 0
    depth = 0
    unknown = False
    while pos < len(expr):
        m = _AWK_TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        lit, name, opening, closing, field, number, other = m.groups()
        if opening or closing:
            depth += 1 if opening else -1
            continue
        if other is not None:
            return ["$(…)"]  # an operator, an array element (ENVIRON["F"]), a call: a computed value
        if number is not None:
            piece = [number]
        elif field is not None:
            piece = ["$(…)"]  # a field of the input ($1, $NF)
            unknown = True
        elif lit is not None:
            piece = [_awk_string(lit)]
        elif name == "FILENAME" and files:
            piece = list(files)
        elif name is not None and name in values and None not in values[name] and len(values[name]) <= 8:
            piece = [v for v in values[name] if v is not None]
        else:
            piece = ["$(…)"]
            unknown = True
        outs = [o + p for o in outs for p in piece][:16]
    if unknown:
        outs = [re.sub(r"(?:\$\(…\))+", "$(…)", o) for o in outs]
    return outs or ["$(…)"]


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
    danger = _mode_danger(mode) if tool == "chmod" else None
    if tool in ("chown", "chgrp"):
        owner = ops[0] if ops else ""
        ops = ops[1:]
        who = owner.replace(".", ":")
        user, _, group = who.partition(":")
        if tool == "chgrp":
            user, group = "", owner
        if user in ("root", "0") or group in ("root", "0", "wheel", "sudo", "admin"):
            danger = f"gives {owner or 'root'} ownership"
    if danger:
        w.violate("no-permission-escalation", f"{tool} {mode if tool == 'chmod' else ''} {danger}; use "
                  "chmod +x or 755/644 instead".replace("  ", " "))
    for ref in w.paths(ops, cwd):
        effects.append(w.write_effect(ref, tool))
    return ("dangerous" if danger else "write"), None


def _cluster_has_i(a: str) -> bool:
    if not a.startswith("-") or a.startswith("--"):
        return False
    for ch in a[1:]:
        if ch == "i":
            return True
        if ch not in "nrEsuzl":
            return False
    return False


def _mode_danger(mode: str) -> str | None:
    if not mode:
        return None
    if _OCTAL_MODE.fullmatch(mode):
        digits = mode.zfill(4)
        special, other = int(digits[0]), int(digits[3])
        if special & 6:
            return "sets setuid/setgid"
        if other & 2:
            return "makes files world-writable"
        return None
    for clause in mode.split(","):
        m = _MODE_CLAUSE.fullmatch(clause)
        if not m:
            continue
        who, op, perms = m.groups()
        if op == "-":
            continue
        if "s" in perms and (not who or "u" in who or "g" in who or "a" in who):
            return "sets setuid/setgid"
        if "w" in perms and ("o" in who or "a" in who):
            return "makes files world-writable"
    return None


def _h_dd(w: Walker, tool, argv, cwd, stdin, effects, taints):
    for a in argv[1:]:
        if a.startswith("of="):
            target = a[3:]
            if target.startswith("/dev/") and target not in DEVICES:
                w.violate("no-recursive-delete", f"dd writes the device {target}; that wipes a disk")
                return "dangerous", None
            effects.append(w.write_effect(w.env.norm(target, cwd), "dd"))
    return "write", None


#: the git subcommands an invariant or a write effect looks at
_GIT_WATCHED = frozenset({"push", "commit", "checkout", "switch", "mv", "rm", "restore", "branch", "config", "apply",
                          "am", "stash", "clone"})


def _h_git(w: Walker, tool, argv, cwd, stdin, effects, taints):
    if len(argv) > 1 and argv[1] == "ls-files":  # the paths it prints, for xargs: its pathspecs, or any file
        specs = [a for a in _operands(argv[2:])]
        return "git", _names_flow([*specs, *(x.rstrip("/") + "/$(find)" for x in specs)] or ["$(find)"])
    if len(argv) > 1 and argv[1][:1] != "-" and argv[1] not in _GIT_WATCHED:
        return "git", None  # git status, log, diff…: no global options, nothing an invariant looks at
    args = argv[1:]
    repo = cwd
    aliases: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-C" and i + 1 < len(args):
            repo = w.env.cd(repo, args[i + 1])
            i += 2
            continue
        if a == "-c" and i + 1 < len(args):
            k, _, v = args[i + 1].partition("=")
            if k.lower().startswith("alias."):
                aliases[k[6:]] = v
            i += 2
            continue
        if a in ("--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env") and i + 1 < len(args):
            if a == "--work-tree":
                repo = w.env.cd(repo, args[i + 1])
            i += 2
            continue
        if a.startswith("--work-tree="):
            repo = w.env.cd(repo, a.split("=", 1)[1])
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
    if sub == "push":
        _git_push(w, rest, repo, effects, protected)
    elif sub == "commit":
        branch = w.current_branch(repo)
        if branch and _branch_in(branch, protected):
            w.violate("no-protected-branch", f"git commit on the protected branch {branch}; commit on a feature "
                      "branch (git switch -c feat/…) and open a pull request")
        effects.append(_effect("git", branch or "", "branch" if branch else ""))
    elif sub in ("checkout", "switch"):
        flags, ops, values = _opts_and_operands(rest, {"-b", "-B", "-c", "-C", "--orphan", "--conflict"})
        if "--" in rest or (sub == "checkout" and len(ops) >= 2 and not (values.get("b") or values.get("B"))):
            paths = rest[rest.index("--") + 1:] if "--" in rest else ops[1:]
            for ref in w.paths(paths, repo):
                effects.append(w.write_effect(ref, f"git {sub} --"))
        else:
            new = values.get("b") or values.get("B") or values.get("c") or values.get("C") or values.get("orphan") \
                or values.get("create")
            target = new or (ops[0] if ops else None)
            if target and target not in (".", "-") and not target.startswith("HEAD"):
                w.branch = target
            elif target == ".":
                effects.append(w.write_effect(w.env.norm(".", repo), "git checkout ."))
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
    elif sub == "branch":
        flags, ops, values = _opts_and_operands(rest, {"-u", "--set-upstream-to"})
        if {"d", "D", "delete", "f", "force", "m", "M", "move"} & set(flags):
            for b in ops:
                if _branch_in(b, protected):
                    w.violate("no-protected-branch", f"git branch {' '.join(rest)} deletes or moves the protected "
                              f"branch {b}; ask the user")
    elif sub == "clone":
        flags, ops, values = _opts_and_operands(rest, {"-b", "--branch", "-o", "--origin", "--depth", "-c",
                                                       "--config", "--reference", "--template", "-j", "--jobs"})
        if len(ops) >= 2:
            w.cwd_hint = cwd
            dest = ops[1].rstrip("/")
            ref = w.env.norm(dest, cwd)
            effects.append(w.write_effect(ref, "git clone"))
            if not w.env.protected(ref):
                w.reach_check(w.env.norm(dest + "/$(…)", cwd), "git clone", "fills",
                              "clone into a directory outside memory and cuticle's files")
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
        w.reach_check(w.env.norm("$(…)", repo), f"git stash {rest[0]}", "writes")
        if w.out.violations and w.out.violations[-1].reason.startswith(f"git stash {rest[0]} writes"):
            v = w.out.violations.pop()
            w.violate(v.invariant, f"git stash {rest[0]} writes whatever the stash holds, which cuticle cannot see "
                      "and may include memory or cuticle's files; list it with `git stash show --name-only` and "
                      "restore the other files with `git checkout stash@{0} -- FILE`")
    elif sub == "config":
        if any(a.startswith("core.hookspath") or a.startswith("core.hooksPath") for a in rest):
            w.violate("no-governance-self-modification", "git config core.hooksPath redirects git hooks; hooks are "
                      "cuticle's, leave them alone")
    return "git", None


def _git_top(repo: str | None) -> str | None:
    """The directory holding ``.git`` at or above ``repo``."""
    d = repo
    while d and d != "/":
        if os.path.exists(d + "/.git"):
            return d
        d = d.rsplit("/", 1)[0] or "/"
    return None


def _stash_names(repo: str | None, which: list[str]) -> list[str] | None:
    """The files a stash would write (``git stash show --name-only``, untracked files included), or None when
    they cannot be listed (no repository, no git, an error or a slow answer). Local and read-only."""
    top = _git_top(repo)
    if top is None:
        return None
    import subprocess

    ref = which[0] if which and not which[0].startswith("-") else "stash@{0}"
    try:
        out = subprocess.run(["git", "-C", top, "stash", "show", "--name-only", "--include-untracked", ref],
                             capture_output=True, text=True, timeout=3, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return [line for line in out.stdout.splitlines() if line.strip()]


def _apply_patches(w: Walker, how: str, args, cwd, stdin, effects) -> None:
    """git apply / git am / patch: the files each patch names are written (read from disk or a heredoc); a patch
    that cannot be read counts as writing every protected path under the working directory."""
    from .content import diff_paths, read_text

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
                effects.append(_effect("write", w.env.norm(prefix + ".", cwd).display, "path"))
            continue
        for path in diff_paths(text):
            effects.append(w.write_effect(w.env.norm(prefix + path, cwd), how))


def _h_patch(w: Walker, tool, argv, cwd, stdin, effects, taints):
    _apply_patches(w, "patch", argv[1:], cwd, stdin, effects)
    return "write", None


def _extract(w: Walker, how: str, archive: str | None, members: list[str], dest: str, cwd, effects) -> None:
    """An archive extracted into ``dest``: the members named on the command line, else those the archive on disk
    lists, else (unreadable) every protected path under ``dest``."""
    from .content import archive_members

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
        effects.append(_effect("write", w.env.norm(dest or ".", cwd).display, "path"))
        return
    for m in members[:2000]:
        effects.append(w.write_effect(w.env.norm(prefix + m.lstrip("/"), cwd), how))


def _h_7z(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """7z / 7za / 7zz / unrar: ``x`` and ``e`` extract (``-oDIR``); other commands read or create archives."""
    args = argv[1:]
    if not args or args[0] not in ("x", "e"):
        return "write" if args[:1] == ["a"] else "read", None
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
                w.violate("no-network-egress", f"{tool} uploads {ref.display}, a protected file (memory, cuticle's "
                          "state, the policy or a credential); it never leaves the machine")
            effects.append(_effect("read", ref.display, "path"))
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


def _branch_in(branch: str, protected) -> bool:
    """``tiers.workspace.glob_match(b, protected)`` (any glob matches) as one combined regex."""
    b = branch[len("refs/heads/"):] if branch.startswith("refs/heads/") else branch
    return _combined(tuple(protected)).match(b) is not None


_PUSH_FORCE = frozenset({"force", "f", "force-with-lease", "force-if-includes", "mirror"})
#: the long options of git push that _git_push tells apart, in the order an abbreviation picks its first match
_PUSH_LONG = ("force", "force-with-lease", "force-if-includes", "mirror", "delete", "all", "branches", "prune",
              "set-upstream", "tags", "dry-run", "repo", "push-option")
_PUSH_DELETE = frozenset({"d", "delete"})
_PUSH_MANY = frozenset({"all", "branches", "mirror"})
_PUSH_NOT_CURRENT = frozenset({"all", "branches", "mirror", "tags"})


def _git_push(w: Walker, rest, repo, effects, protected) -> None:
    force_flags = _PUSH_FORCE
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
    if fset & force_flags or any(r.startswith("+") for r in refspecs):
        if any(r.startswith("+") for r in refspecs):
            how = "a '+' refspec"
        else:
            first = next(f for f in flags if f in force_flags)
            how = "--force" if first == "f" else "--" + first
        w.violate("no-force-push", f"git push {' '.join(rest)} is a force push ({how}); push without force, or "
                  "ask the user")
    deleting = bool(fset & _PUSH_DELETE)
    if fset & _PUSH_MANY:
        for b in protected:
            w.violate("no-protected-branch", f"git push --{'all' if 'all' in fset else 'mirror'} also pushes the "
                      f"protected branch {b}; push your feature branch by name")
            break
    if fset & {"prune"}:
        w.violate("no-protected-branch", "git push --prune deletes remote branches; push your branch by name")
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
        if dst and _branch_in(dst, protected):
            what = "deletes the remote protected branch" if is_delete else "pushes to the protected branch"
            w.violate("no-protected-branch", f"git push {' '.join(rest)} {what} {dst}; push a feature branch and "
                      "open a pull request")
        effects.append(_effect("git", dst, "branch") if dst else _effect("git"))


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


Walker.current_branch = _walker_current_branch  # type: ignore[attr-defined]


def _h_source(w: Walker, tool, argv, cwd, stdin, effects, taints):
    if len(argv) < 2:
        return "exec", None
    target = argv[1]
    taint = taints[1] if len(taints) > 1 else None
    if target.startswith("<(…)") and taint:
        w.violate("script-execution-tracking", f"{argv[0]} runs a script straight from {taint}ed content; download"
                  " it, review it, then run it")
        return "dangerous", None
    if target in ("/dev/stdin", "-") and stdin is not None and stdin.taint:
        w.violate("script-execution-tracking", f"{argv[0]} runs {stdin.taint}ed stdin")
        return "dangerous", None
    w.check_exec_of_download(target, cwd)
    return "exec", None


def _h_tar(w: Walker, tool, argv, cwd, stdin, effects, taints):
    flags, ops, values = _opts_and_operands(argv[1:], {"-f", "--file", "-C", "--directory"})
    if argv[1:] and not argv[1].startswith("-") and _TAR_LETTERS.fullmatch(argv[1]):
        flags.extend(argv[1])
    if "x" in flags or "extract" in flags or "get" in flags:
        dest = values.get("C") or values.get("directory") or "."
        ref = w.env.norm(dest, cwd)
        hit = w.env.protected(ref)
        if hit and dest != ".":
            w.violate(hit[0], f"tar extracts into {hit[1]}; " + _SELF_FIX[hit[0]])
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
            effects.append(_effect("read", w.env.norm(m, cwd).display, "path"))
        return "write", None
    return "read", None


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
    for ref in w.paths(ops, cwd):
        effects.append(w.write_effect(ref, tool))
    return "write", None


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
    """terraform/tofu/pulumi destroy, kubectl delete of namespaces or everything, helm uninstall."""
    args = argv[1:]
    ops = [a for a in args if not a.startswith("-")]
    what = None
    if tool in ("terraform", "tofu", "pulumi", "cdk", "cdktf"):
        if "destroy" in ops[:2] or ("apply" in ops[:2] and any(a in ("-destroy", "--destroy") for a in args)):
            what = f"{tool} destroy"
    elif tool == "kubectl":
        if "delete" in ops:
            rest = ops[ops.index("delete") + 1:]
            joined = " ".join(rest)
            if rest and (rest[0] in ("ns", "namespace", "namespaces", "all", "node", "nodes", "pv", "crd")
                         or joined.startswith(("ns/", "namespace/")) or "--all" in args
                         or "--all-namespaces" in args or "-A" in args):
                what = "kubectl delete " + " ".join(rest[:2])
    elif tool == "helm" and ops[:1] and ops[0] in ("uninstall", "delete"):
        what = "helm uninstall"
    if what:
        w.violate("no-infra-destroy", f"{what} destroys infrastructure; ask the user to run it")
        return "dangerous", None
    return "exec", None


_FINAL = {
    "rm": _h_rm, "unlink": _h_truncate_like, "shred": _h_truncate_like, "truncate": _h_truncate_like,
    "touch": _h_truncate_like, "mkdir": _h_truncate_like, "rmdir": _h_truncate_like,
    "cp": _h_copy, "mv": _h_copy, "ln": _h_copy, "install": _h_copy,
    "tee": _h_tee, "sponge": _h_tee, "sed": _h_sed, "awk": _h_awk, "chmod": _h_chmod, "chown": _h_chmod,
    "chgrp": _h_chmod, "dd": _h_dd, "git": _h_git, "source": _h_source, ".": _h_source, "tar": _h_tar,
    "sort": _h_sort, "uniq": _h_uniq, "patch": _h_patch, "unzip": _h_unzip, "bsdtar": _h_tar, "7z": _h_7z,
    "7za": _h_7z, "7zz": _h_7z, "unrar": _h_7z, "aws": _h_cloud_copy, "gsutil": _h_cloud_copy, "yq": _h_yq, "base64": _h_base64, "find": _h_find,
    "terraform": _h_infra, "tofu": _h_infra, "pulumi": _h_infra, "kubectl": _h_infra, "helm": _h_infra,
    "cdk": _h_infra, "cdktf": _h_infra,
}

_C_HANDLER, _C_SHELL, _C_INTERP, _C_SQL, _C_WIPER, _C_ESCALATOR, _C_NET, _C_WRITE, _C_READ, _C_EXEC = range(10)
_CWD_OR_VARS = frozenset({"cd", "pushd", "export", "declare", "local", "readonly", "typeset"})


@functools.lru_cache(maxsize=4096)
def _category(tool: str) -> int:
    """How ``Walker.final`` handles a tool, in priority order (one cached lookup instead of a chain of tests)."""
    if tool in _FINAL:
        return _C_HANDLER
    for members, cat in ((SHELLS, _C_SHELL), (INTERPRETERS, _C_INTERP), (SQL_CLIENTS, _C_SQL)):
        if tool in members:
            return cat
    if tool in DEVICE_WIPERS or tool.startswith("mkfs"):
        return _C_WIPER
    for members, cat in ((ESCALATORS, _C_ESCALATOR), (NET_TOOLS, _C_NET), (WRITE_TOOLS, _C_WRITE),
                         (READ_TOOLS, _C_READ)):
        if tool in members:
            return cat
    return _C_EXEC


#: ``_category`` of every tool some set names, filled on first use (one dict lookup per command in ``final``)
_CATEGORIES: dict[str, int] = {}


def _category_missing(tool: str) -> int:
    """``_category(tool)`` for a tool :data:`_CATEGORIES` lacks: the table is built on the first call; after that
    a missing tool is in none of the sets, so only the ``mkfs`` prefix test of ``_category`` remains."""
    if not _CATEGORIES:
        # lowest priority first, so that a tool in two sets ends with _category's (earlier) answer
        for members, cat in ((READ_TOOLS, _C_READ), (WRITE_TOOLS, _C_WRITE), (NET_TOOLS, _C_NET),
                             (ESCALATORS, _C_ESCALATOR), (DEVICE_WIPERS, _C_WIPER), (SQL_CLIENTS, _C_SQL),
                             (INTERPRETERS, _C_INTERP), (SHELLS, _C_SHELL), (_FINAL, _C_HANDLER)):
            for t in members:
                _CATEGORIES[t] = _C_WIPER if t.startswith("mkfs") and cat > _C_WIPER else cat
        hit = _CATEGORIES.get(tool)
        if hit is not None:
            return hit
    return _C_WIPER if tool.startswith("mkfs") else _C_EXEC


#: tools whose output carries a credential file's contents when they read one
_SECRET_CARRIERS = frozenset({"read", "base64", "xxd", "gzip", "tar", "zip", "openssl", "gpg"})
_FILTERS = frozenset({"cat", "read", "tee", "tr", "sed", "awk", "head", "tail", "gunzip", "zcat", "xz", "unxz",
                      "bunzip2", "bzcat", "gzip", "sort", "uniq", "grep", "cut", "rev", "dos2unix", "iconv",
                      "base64", "xxd", "openssl", "gpg", "jq"})

_SELF_FIX = {
    "no-governance-self-modification": "the policy, cuticle's state and hook settings are changed only by the "
                                       "user (cuticle init / editing the file by hand)",
    "no-memory-write-via-shell": "write memory through the file tools (Write/Edit/apply_patch) so the memory gate "
                                 "can tier and check the lines; reading memory is fine",
    "no-secret-write": "credentials are changed by the user; ask them (templates such as .env.example are fine)",
}

#: patterns the handlers use, compiled on first use (not looked up in re's cache on every call)
_SED_W_OR_E = LazyRe(r"(^|;)\s*\d*\s*w\s+\S|\be\b")
_SED_W = LazyRe(r"(?:^|;)\s*\d*\s*w\s+(\S+)")
#: awk output redirection: ``print … > "file"`` / ``>> "file"`` (group 2) or a computed target (group 3)
_CHMOD_MODE = LazyRe(r"[0-7]{3,4}|[ugoa]*[+=-][rwxXst]*(,[ugoa]*[+=-][rwxXst]*)*")
_OCTAL_MODE = LazyRe(r"[0-7]{3,4}")
_MODE_CLAUSE = LazyRe(r"([ugoa]*)([+=-])([rwxXst]*)")
_TAR_LETTERS = LazyRe(r"[a-zA-Z]+")
_OCTAL_ESCAPE = LazyRe(r"\\[0-7]{3}")
_HEX_ESCAPE = LazyRe(r"\\x([0-9a-fA-F]{1,2})")
_OCTAL_ESCAPE_1_3 = LazyRe(r"\\([0-7]{1,3})")
_SQL_WHERE = LazyRe(r"\bWHERE\b")
_SQL_ALTER_DROP = LazyRe(r"\bDROP\s+(COLUMN|TABLE|CONSTRAINT|SCHEMA|DATABASE)\b")
_SQL_WITH_WRITE = LazyRe(r"\)\s*(DELETE|UPDATE)\b")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])\}|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])")
_VAR_ANY = re.compile(r"\$[A-Za-z_{@*#?!0-9]")
_FETCH_API = LazyRe(r"urlopen|urllib|requests\.(get|post)|http\.client|httpx|\bfetch\s*\(|https?\.get|"
                        r"Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|file_get_contents\s*\(\s*['\"]https?:|"
                        r"Invoke-WebRequest|iwr |DownloadString|curl_exec")
_EXEC_API = LazyRe(r"\bexec\s*\(|\beval\s*\(|\beval\s+(?=[\w$\"'])|\bcompile\s*\(|new\s+Function|\bFunction\s*\(|vm\.run|"
                       r"\bsystem\s*\(|popen|subprocess|child_process|Invoke-Expression|\biex\b|instance_eval|"
                       r"\bload\s*\(")
_DECODE_API = LazyRe(r"b64decode|base64\.decode|atob\s*\(|Buffer\.from\([^)]*(?:base64|hex)|decode_base64|"
                         r"unpack\s*\(\s*['\"][mH]|Base64\.decode|FromBase64String|codecs\.decode|fromhex|"
                         r"unhexlify|a2b_hex|a2b_base64|b32decode|b85decode|\bpack\s*\(\s*['\"]H|decompress|"
                         r"\bhex2bin|base64_decode|gzinflate|str_rot13|\\x[0-9a-fA-F]{2}.*\\x[0-9a-fA-F]{2}")
_SHELL_CALL = LazyRe(r"os\.system|os\.popen|os\.exec[lv]p?e?|subprocess\.(?:run|call|Popen|check_output|"
                         r"check_call|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|"
                         r"(?:child_process\.|\b)(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)|"
                         r"\bsystem|\bIO\.popen|Open3\.\w+|shell_exec|passthru|proc_open|\bqx|%x|Kernel\.exec|"
                         r"Deno\.(?:run|Command)|Bun\.(?:spawn|spawnSync|\$)")
_BACKTICK = LazyRe(r"`([^`]+)`")
_WRITE_API = LazyRe(r"open\s*\([^)]*['\"](?:[wax+][bt+]?|r\+[bt]?|rb\+)['\"]|inplace\s*=\s*(?:True|1)|"
                        r"\.open\s*\(\s*['\"][wax]|\.write_(?:text|bytes)|os\.(?:rename|replace|"
                        r"remove|unlink|symlink|link|truncate|chmod)|shutil\.(?:copy\w*|move)|writeFile|appendFile|"
                        r"createWriteStream|renameSync|rename\(|copyFile|unlinkSync|rmSync|fs\.rm\b|File\.(?:write|"
                        r"binwrite|delete|rename|open\([^)]*['\"][wa])|FileUtils\.|IO\.write|open\s*\(\s*\w+\s*,"
                        r"\s*['\"]?[>+]|\bunlink\b|file_put_contents|fopen\([^)]*['\"][wa]|Set-Content|Out-File|"
                        r"Add-Content|Remove-Item|Path\([^)]*\)\.(?:unlink|rename|replace|touch|write)|"
                        r"open\s*\(\s*(?:my\s+)?\$?\w+\s*,\s*['\"][>+]")
#: os.open with a flag that writes
_OS_OPEN_WRITE = LazyRe(r"os\.open\s*\([^)]*O_(?:WRONLY|RDWR|APPEND|CREAT|TRUNC)")
#: the script reads its own arguments (a path handed on the command line)
_ARGV_API = LazyRe(r"sys\.argv|process\.argv|\bARGV\b|\$ARGV|\$argv|@ARGV|\bargv\[")
#: calls that write the file named by their first argument (``open`` only with a write mode)
_WRITE_CALL = LazyRe(r"\b(open|os\.open|writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|"
                     r"File\.write|File\.open|IO\.write|file_put_contents|fopen|Path|shutil\.copy\w*|"
                     r"shutil\.move|os\.rename|os\.replace|os\.remove|os\.unlink|unlinkSync|rmSync)\s*\(")
_LITERAL_ARG = LazyRe(r"\s*(?:[rbuf]{0,2}'[^'\\]*'|[rbuf]{0,2}\"[^\"\\]*\")\s*")
_WRITE_MODE = LazyRe(r"['\"](?:[rbt]*[wax+][bt+]*|r\+|>>?|\+<|w\+?|a\+?)['\"]|O_(?:WRONLY|RDWR|APPEND|CREAT)|"
                     r"flags\s*:\s*['\"][wa]")


def _split_args(text: str) -> list[str]:
    """The top-level, comma-separated arguments of a call whose text starts after its ``(``."""
    out, depth, cur, quote = [], 0, [], ""
    for c in text:
        if quote:
            cur.append(c)
            if c == quote:
                quote = ""
            continue
        if c in "'\"`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(c)
    out.append("".join(cur))
    return out


_ASSIGNED_LITERAL = LazyRe(r"(?:^|[;\n(\s])(?:my\s+|const\s+|let\s+|var\s+|local\s+)?\$?([A-Za-z_]\w*)\s*=\s*"
                           r"(?:'[^'\\\n]*'|\"[^\"\\\n]*\")\s*(?=[;\n)]|$)")


def _computed_write(code: str) -> bool:
    """Some write call's target is not a string literal (a variable, argv, a joined or computed name). A
    variable assigned one literal in the code (``p = 'out.txt'``) counts as that literal (it is checked with the
    other literals); one assigned more than once, or anything else, is computed."""
    names: dict[str, int] = {}
    for m in _ASSIGNED_LITERAL.finditer(code):
        names[m.group(1)] = names.get(m.group(1), 0) + 1
    assigned = {n for n, k in names.items() if k == 1 and len(re.findall(r"\b%s\s*[+\-*/|&]?=" % re.escape(n), code)) == 1}
    for m in _WRITE_CALL.finditer(code):
        args = _split_args(code[m.end():m.end() + 400])
        name = m.group(1)
        if name in ("open", "File.open", "fopen", "Path", "os.open"):
            if name == "Path":
                tail = code[m.end():m.end() + 200]
                if not re.search(r"\)\.(?:write_text|write_bytes|open\s*\(\s*['\"][wa]|touch|unlink|rename)", tail):
                    continue
            elif not any(_WRITE_MODE.search(a) for a in args[1:3]):
                # perl: open(FH, ">>file") / open(my $fh, '>>', $file): the handle comes first
                if len(args) >= 2 and re.match(r"\s*(?:my\s+)?[\$\w]+\s*$", args[0]) and \
                        re.match(r"\s*['\"][+<>]", args[1]):
                    target = args[2] if len(args) > 2 else args[1]
                    if not _LITERAL_ARG.fullmatch(target):
                        return True
                continue
            if name in ("shutil.copy", "shutil.copyfile", "shutil.copy2", "shutil.move", "os.rename", "os.replace"):
                pass
        if name.startswith(("shutil.", "os.rename", "os.replace")):
            target = args[1] if len(args) > 1 else ""
        else:
            target = args[0] if args else ""
        bare = target.strip().lstrip("$")
        if target.strip() and not _LITERAL_ARG.fullmatch(target) and bare not in assigned:
            return True
    return False


_CONCAT = LazyRe(r"(['\"])([^'\"\\\n]*)\1\s*(?:\+|\.\.|\.(?=\s*['\"]))\s*(['\"])([^'\"\\\n]*)\3")


def _join_literals(code: str) -> str:
    """``'MEM' + 'ORY.md'`` (Python, JS, Ruby), ``"MEM" . "ORY.md"`` (Perl, PHP), ``'a'..'b'`` (Lua) as one
    literal, so a name built from pieces is still seen."""
    if "+" not in code and "." not in code:
        return code
    for _ in range(8):
        new = _CONCAT.sub(lambda m: m.group(1) + m.group(2) + m.group(4) + m.group(1), code)
        if new == code:
            break
        code = new
    return code


def _strip_mode(s: str) -> str:
    """A Perl ``open`` argument without its mode (``>>MEMORY.md`` -> ``MEMORY.md``)."""
    return s.lstrip("+<>|& ") if s[:1] in "<>+|" else s


_RMTREE_API = LazyRe(r"shutil\.rmtree|rm_rf|rm_r\b|remove_dir_all|rmSync\([^)]*recursive|fs\.rm\([^)]*"
                         r"recursive|rimraf|Remove-Item[^;]*-Recurse|rmtree")
_STRING = LazyRe(r"'''(.*?)'''|\"\"\"(.*?)\"\"\"|'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"|"
                     r"`((?:[^`\\]|\\.)*)`", re.S)


def _string_literals(code: str) -> list[str]:
    out = []
    for m in _STRING.finditer(code):
        s = next((g for g in m.groups() if g is not None), "")
        out.append(s.replace("\\'", "'").replace('\\"', '"').replace("\\n", "\n"))
    return out


def _call_args(code: str, pos: int) -> str:
    """The argument text of a call whose name ends at ``pos`` (balanced parentheses, or to end of statement)."""
    j = pos
    while j < len(code) and code[j] in " \t":
        j += 1
    if j < len(code) and code[j] in "([{":
        depth = 0
        k = j
        while k < len(code):
            c = code[k]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    return code[j + 1:k]
            k += 1
        return code[j + 1:]
    end = min([x for x in (code.find(";", j), code.find("\n", j)) if x >= 0] or [len(code)])
    return code[j:end]


def _pathish(s: str) -> bool:
    if not s or len(s) > 300 or "\n" in s:
        return False
    if s.startswith(("http://", "https://")):
        return False
    return "/" in s or "." in s or s.lower() in ("memory.md", "user.md", "chitin.yaml")


#: curl options that take a value (short letters and long names); a short cluster's value starts after the letter
_CURL_VALUED_SHORT = frozenset("AbcCdDeEFhHKmoPQrtTuUwxXyYz")
_CURL_DATA = frozenset({"d", "data", "data-binary", "data-ascii", "data-urlencode", "json"})


def _curl_files(args: list[str], uploads: list[str], outputs: list[str]) -> None:
    """The files a curl command sends (``-d @f``, ``--data-binary @f``, ``--data-urlencode name@f``, form fields
    ``-F name=@f`` / ``name=<f``, ``-T f``) and writes (``-o f``, ``-O``, the cookie jar ``-c``, headers ``-D``,
    traces), in any option spelling: ``-sF f=@x``, ``-Fname=@x``, ``--form=…``, ``-sSLo out``."""
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            break
        pairs: list[tuple[str, str]] = []
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            if not eq and name in ("data", "data-binary", "data-ascii", "data-urlencode", "data-raw", "json", "form",
                                   "form-string", "upload-file", "output", "header", "user", "url", "request",
                                   "config", "cookie", "cookie-jar", "referer", "user-agent", "proxy", "write-out",
                                   "range", "max-time", "output-dir", "cacert", "cert", "key", "dump-header",
                                   "trace", "trace-ascii", "stderr", "libcurl", "etag-save"):
                value = args[i] if i < len(args) else ""
                i += 1
            pairs.append((name, value))
        elif a.startswith("-") and len(a) > 1:
            body = a[1:]
            for k, ch in enumerate(body):
                if ch in _CURL_VALUED_SHORT:
                    value = body[k + 1:]
                    if not value:
                        value = args[i] if i < len(args) else ""
                        i += 1
                    pairs.append((ch, value))
                    break
                pairs.append((ch, ""))
        for name, value in pairs:
            if name in _CURL_DATA:
                if value.startswith("@"):
                    uploads.append(value[1:])
                elif name == "data-urlencode" and "@" in value and "=" not in value.split("@", 1)[0]:
                    uploads.append(value.split("@", 1)[1])  # name@file: the file's content, encoded
            elif name in ("F", "form"):
                field_value = value.split("=", 1)[1] if "=" in value else ""
                if field_value[:1] in ("@", "<"):
                    uploads.append(field_value[1:].split(";", 1)[0].strip('"'))
            elif name in ("T", "upload-file"):
                uploads.append(value)
            elif name in ("o", "output", "c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "stderr",
                          "libcurl", "etag-save"):
                outputs.append(value)  # the body, the cookie jar, the headers, a trace: each is a file written
            elif name in ("O", "remote-name"):
                outputs.extend(_url_basename(x) for x in args if "://" in x)


def _url_basename(url: str) -> str:
    path = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    base = path.rstrip("/").rsplit("/", 1)[-1] if "/" in path else "index.html"
    return base or "index.html"


_DECODER_TOOLS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "unbase64", "openssl", "python"})
#: every tool the end of ``Walker.final`` does something for (the others skip it)
_TAIL_TOOLS = FETCHERS | _DECODER_TOOLS | _FILTERS | _CWD_OR_VARS | _SECRET_CARRIERS | {"echo", "printf"}


def _is_decoder(tool: str, argv) -> bool:
    if tool not in _DECODER_TOOLS:  # cheap prefilter: only these tools decode
        return False
    args = argv[1:]
    if tool in ("base64", "base32", "basenc"):
        return any(a in DECODE_FLAGS or (a.startswith("-") and not a.startswith("--") and "d" in a) for a in args)
    if tool == "xxd":
        return any(a.startswith("-r") or a == "-revert" for a in args)
    if tool in ("uudecode", "unbase64"):
        return True
    if tool == "openssl":
        return ("-d" in args or "-decode" in args) and any(a in ("base64", "enc", "-base64", "-a") for a in args)
    if tool == "python" and any("b64decode" in a for a in args):
        return True
    if tool == "printf" and any("\\x" in a or _OCTAL_ESCAPE.search(a) for a in args):
        return False
    return False


def _echo_value(script: Script) -> str | None:
    """The output of ``$(echo literal)`` (so ``$(echo rm) -rf /`` is seen as ``rm -rf /``)."""
    if len(script.items) != 1:
        return None
    pipe = script.items[0][1]
    if len(pipe.commands) != 1 or not isinstance(pipe.commands[0], Simple):
        return None
    cmd = pipe.commands[0]
    if not cmd.words or cmd.words[0].text not in ("echo", "printf") or not all(w.literal for w in cmd.words):
        return None
    return _echo_text(cmd.words[0].text, [w.text for w in cmd.words[1:]]).rstrip("\n")


def _substitutions(text: str) -> list[str]:
    """The command texts of ``$(…)`` and backtick substitutions in expandable text (an unquoted heredoc body)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if text.startswith("$((", i):
            i += 3
            continue
        if text.startswith("$(", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                j += 1
            out.append(text[i + 2:j - 1] if depth == 0 else text[i + 2:])
            i = j
            continue
        if c == "`":
            j = text.find("`", i + 1)
            j = n if j < 0 else j
            out.append(text[i + 1:j])
            i = j + 1
            continue
        i += 1
    return out


def _is_pwd(script: Script) -> bool:
    """``$(pwd)``: its value is the working directory."""
    if len(script.items) != 1 or len(script.items[0][1].commands) != 1:
        return False
    cmd = script.items[0][1].commands[0]
    return isinstance(cmd, Simple) and [w.text for w in cmd.words] in (["pwd"], ["pwd", "-P"], ["pwd", "-L"])


def _echo_text(tool: str, args: list[str]) -> str:
    if tool == "printf":
        return _printf(args)
    words = [a for a in args]
    interpret = False
    while words and words[0] in ("-n", "-e", "-E", "-ne", "-en"):
        interpret = interpret or "e" in words[0]
        words = words[1:]
    text = " ".join(words)
    if interpret:
        text = _HEX_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text).replace("\\n", "\n")
    return text


#: a hex or octal escape (``\\x65``, ``\\145``, ``\\0145``) that printf or ``echo -e`` decodes
_ENCODED_CHAR = LazyRe(r"\\x[0-9a-fA-F]|\\0?[0-7]{3}")
_PRINTF_SPEC = LazyRe(r"%([-+ #0]*)(\d*)(?:\.(\d*))?([sbqdiouxXcfeEgG%])")


def _unescape(text: str) -> str:
    """printf's backslash escapes (in the format, and in ``%b`` arguments)."""
    if "\\" not in text:
        return text
    text = _HEX_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    text = _OCTAL_ESCAPE_1_3.sub(lambda m: chr(int(m.group(1), 8) % 256), text)
    return text.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\\\", "\\")


def _printf(args: list[str]) -> str:
    """What ``printf [-v VAR] [--] FORMAT ARGS…`` prints, as bash does it: the format is reused while arguments
    remain, ``%s``/``%b``/``%d``… take one argument each (a missing one is empty or 0), escapes are decoded. So
    ``printf '%s' MEM ORY.md`` is ``MEMORY.md`` and ``printf -- '--- a/USER.md\\n…'`` is the patch text."""
    if args[:1] == ["-v"]:
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return ""
    fmt, rest = _unescape(args[0]), list(args[1:])
    out: list[str] = []
    for _ in range(64):  # bound the reuse of the format (each pass takes at least one argument)
        took = False

        def conv(m: re.Match[str]) -> str:
            nonlocal took
            flags, width, prec, kind = m.groups()
            if kind == "%":
                return "%"
            width = str(min(int(width), 256)) if width else width  # bounded: the text is for matching, not display
            prec = str(min(int(prec), 256)) if prec else prec
            took = True
            arg = rest.pop(0) if rest else ""
            if kind in "sq":
                value = arg if prec is None else arg[:int(prec or 0)]
            elif kind == "b":
                value = _unescape(arg)
            elif kind == "c":
                value = arg[:1]
            else:
                try:
                    num = float(arg) if kind in "feEgG" else int(arg or "0", 0)
                    value = ("%" + flags + width + ("." + prec if prec is not None else "") + kind) % num
                except (ValueError, TypeError):
                    value = arg
                return value
            return value.rjust(int(width)) if width and "-" not in flags else value.ljust(int(width or 0))

        out.append(_PRINTF_SPEC.sub(conv, fmt))
        if not took or not rest:
            break
    return "".join(out)


def _b64(text: str) -> str | None:
    import base64
    import binascii

    try:
        data = base64.b64decode(text.strip() + "=" * (-len(text.strip()) % 4), validate=False)
        return data.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):  # noqa: F821 - imported above
        return None


def _stdin_items(stdin: Flow | None) -> list[str]:
    """What ``xargs`` appends: the literal text's words, the path patterns a listing produces, or one item
    standing for anything (a write to it reaches every protected path)."""
    if stdin is not None and stdin.names is not None:
        return list(stdin.names)
    if stdin is None or stdin.text is None:
        return ["$(…)"]
    return stdin.text.split()


def _short(s: str) -> str:
    s = " ".join(s.split())
    return s if len(s) <= 60 else s[:57] + "..."


_SQL_STMT = LazyRe(r"^\s*(?:--[^\n]*\n\s*)*([A-Za-z\\]+)", re.S)


def sql_kind(text: str) -> str | None:
    """``destructive``, ``write``, ``read``, ``exec`` or None (not SQL) for a piece of SQL text."""
    if not text or len(text) > 100_000:
        return None
    result = None
    order = {"read": 0, "exec": 1, "write": 2, "destructive": 3}
    for stmt in _split_sql(text):
        m = _SQL_STMT.match(stmt)
        if not m:
            continue
        kw = m.group(1).upper()
        s = " ".join(stmt.upper().split())
        kind = None
        if kw in ("DROP", "TRUNCATE"):
            kind = "destructive"
        elif kw == "DELETE":
            kind = "write" if _SQL_WHERE.search(s) else "destructive"
        elif kw == "UPDATE":
            kind = "write" if _SQL_WHERE.search(s) or " SET " not in f" {s} " else "destructive"
            if " SET " not in f" {s} ":
                kind = None
        elif kw == "ALTER":
            kind = "destructive" if _SQL_ALTER_DROP.search(s) else "write"
        elif kw in ("INSERT", "CREATE", "REPLACE", "UPSERT", "MERGE", "GRANT", "REVOKE", "COPY", "VACUUM", "REINDEX",
                    "RENAME", "ATTACH", "DETACH", "LOAD", "IMPORT", "COMMENT"):
            kind = "write"
        elif kw in ("SELECT", "WITH", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "PRAGMA", "VALUES", "TABLE", "\\D",
                    "\\DT", "\\L", "\\DN", "\\DF", "\\DI", "\\DU", "\\CONNINFO", ".TABLES", ".SCHEMA"):
            kind = "read"
            if kw == "WITH" and _SQL_WITH_WRITE.search(s):
                kind = "write" if "WHERE" in s else "destructive"
        elif kw.startswith("\\") or kw in ("BEGIN", "COMMIT", "ROLLBACK", "SET", "USE", "START", "END", "SAVEPOINT"):
            kind = "read"
        if kind and (result is None or order[kind] > order[result]):
            result = kind
    return result


_SQL_RUN = LazyRe(r"[^'\";]+")


def _split_sql(text: str) -> list[str]:
    """Statements split at ``;`` outside quotes (runs of other characters taken whole, not one by one)."""
    out: list[str] = []
    buf: list[str] = []
    quote = ""
    i, n = 0, len(text)
    run = _SQL_RUN.match
    while i < n:
        if quote:  # inside a quote: up to and including its closing quote
            j = text.find(quote, i)
            if j < 0:
                buf.append(text[i:])
                break
            buf.append(text[i:j + 1])
            quote = ""
            i = j + 1
            continue
        m = run(text, i)
        if m is not None:
            buf.append(m.group())
            i = m.end()
            continue
        ch = text[i]
        i += 1
        if ch == ";":
            out.append("".join(buf))
            buf = []
        else:  # ' or "
            quote = ch
            buf.append(ch)
    if "".join(buf).strip():
        out.append("".join(buf))
    return out


def analyze_command(command: str, env: Env, opts: Options | None = None, *, cwd: str | None = None,
                    git_branch=None) -> Analysis:
    """Parse and walk a shell command. Never raises on any input."""
    walker = Walker(env, opts, git_branch=git_branch)
    walker.ide_possible = _may_mention_ide(command)
    walker.script(parse(command), cwd if cwd is not None else env.root)
    return walker.out
