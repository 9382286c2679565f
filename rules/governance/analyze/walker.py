"""The walker: visits every simple command of a parsed script, expands its words, follows pipes and redirections,
looks through wrappers and types each segment; analyze_command is its entry point. It produces effects; the
invariant modules (``rules/governance/invariants``) judge them, and the walker reports their violations.

Over 800 lines because the Walker class is one unit: its methods share the walking state (variables, taints, working
directories, functions, the segment being typed); the parts that need only a segment's words live in the sibling
modules and are bound as methods here.
"""

from __future__ import annotations

from ..canon import tool_name
from ..paths import DEVICES, is_pattern
from ..shell import Compound, Simple, parse
from ..invariants import Violation, no_ide_socket_access, no_permission_escalation, no_recursive_delete
from ..invariants import no_governance_self_modification, no_secret_write, script_execution_tracking
from ..invariants._targets import protected_write, unknown_program_arg, unknown_target
from ..invariants.no_ide_socket_access import _may_mention_ide
from .find import _walker_find_delete, _walker_find_exec
from .handlers import (
    _CATEGORIES, _C_ESCALATOR, _C_EXEC, _C_HANDLER, _C_INTERP, _C_NET, _C_READ, _C_SHELL, _C_SQL, _C_WIPER,
    _category_missing, final_handler,
)
from .model import Analysis, Effect, Options, RANK, Segment, _NO_FLOW, _PLAIN_EFFECTS, _PLAIN_TUPLES, _flow, _names_flow, _new
from .reads import carries_protected, dir_read, scan_state_secrets, tree_reader
from .text import _ENCODED_CHAR, _b64, _echo_text, _printf
from .tools import (
    FETCHERS, _CWD_OR_VARS, _DECODER_TOOLS, _FILTERS, _META_TOOLS, _POSITIONAL, _TAIL_TOOLS,
)
from .words import (
    _VAR, _VAR_ANY, _braces, _echo_value, _is_decoder, _is_pwd, _listing_value, _lookup_value, _operands,
    _shell_quote, _stdin_items, _substitutions,
)
from .wrappers import _WRAPPERS

_MAX_SEGMENTS = 2000
#: names of the standard input as a file operand
_STDIN_PATHS = frozenset({"/dev/stdin", "-", "/dev/fd/0", "/proc/self/fd/0"})
#: commands whose operands are text, never a file name (a decoded argument of theirs hides no file)
_TEXT_ONLY = FETCHERS | {"echo", "printf", "test", "[", "[[", "export", "declare", "local", "git"}
#: options by which a program not otherwise known rewrites the files it is given (formatters' and fixers' ``--write``,
#: ``-w``, ``--fix``, in-place editing): each path operand of such a call is a write
_REWRITES = frozenset({"--write", "-w", "--fix", "--in-place", "--inplace", "--overwrite", "--replace", "--rewrite"})
#: all-False "dynamic" flags and all-None taints for a command of literal words, shared by length:
#: nothing changes these sequences in place (dispatch and the handlers only index, slice and rebind them), and a
#: list with a true first flag, the one case dispatch concatenates, never comes from here
_SHARED_LEN = 32
_FALSES = tuple((False,) * n for n in range(_SHARED_LEN))
_NONES = tuple((None,) * n for n in range(_SHARED_LEN))
_MAX_NEST = 12
#: environment variables that point git at another repository, work tree or index than the directory's own
_GIT_REPO_VARS = frozenset({"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR",
                            "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE"})


class _Deferred:
    """A Walker method defined in another module of this package: the module is imported the first time the method
    is looked up, and the function then replaces this stand-in on the class."""

    __slots__ = ("module", "name", "attr")

    def __init__(self, module: str, name: str = "") -> None:
        self.module = module
        self.name = name
        self.attr = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr
        self.name = self.name or attr

    def __get__(self, obj, owner: type):
        fn = getattr(__import__(f"{__package__}.{self.module}", fromlist=[self.name]), self.name)
        setattr(owner, self.attr, fn)
        return fn if obj is None else fn.__get__(obj, owner)


class Walker:
    """Walks a parsed script, unwrapping and typing every simple command."""

    __slots__ = ("env", "opts", "out", "vars", "psub_texts", "namerefs", "sub_values", "tainted", "downloads",
                 "written", "branch", "git_branch", "nest", "ide_possible", "stashed", "sub_secret", "functions",
                 "aliases", "positional", "cwd_hint", "at", "_find_ctx", "git_moved", "git_env", "git_vars")

    def __init__(self, env: Env, opts: Options | None = None, *, git_branch=None) -> None:
        self.env = env
        self.opts = opts or Options()
        out = self.out = _new(Analysis)  # slot by slot (no generated __init__ frame)
        out.segments = []
        out.violations = []
        out.effects = []
        out.volatile = False
        self.vars: dict[str, str] = {}
        self.psub_texts: list[str | None] | tuple = ()
        #: namerefs declared in this command line (declare -n r=f: name -> the variable it refers to)
        self.namerefs: dict[str, str] = {}
        #: the known output of a substitution walked in this command line (id of its script -> text)
        self.sub_values: dict[int, str] = {}
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
        self.git_moved = False  # a git command earlier in this command line moved HEAD, a branch or a remote ref
        self.git_env = False  # an assignment in this command line names git's repository (GIT_DIR=…, env GIT_DIR=…)
        self.git_vars: dict[str, str] = {}  # GIT_*/EDITOR/PAGER set before a command in this line (`GIT_PAGER=… git`)
        #: a substitution in the current command's words printed a protected or credential file
        self.sub_secret = False
        self.functions: dict[str, list[Script]] = {}
        self.aliases: dict[str, str] = {}
        #: the positional parameters inside a function call or after ``set --`` (None: unknown, the caller's)
        self.positional: list[str] | None = None
        #: the working directory of the command being typed (targets only known as patterns resolve against it)
        self.cwd_hint: str | None = env.root
        #: the index of the segment being typed (= len(out.segments)): what a violation found now belongs to
        self.at = 0
        #: inside ``find … -exec``: whether a filter narrows the files and the names they match (see find.py)
        self._find_ctx = None

    # -- reporting -----------------------------------------------------------------------------------
    def report(self, v: Violation | None) -> bool:
        """Record an invariant's judgment of the effect at hand (None: nothing broken; the judgment was made with
        ``segment=self.at``, the segment being typed); True when there was one."""
        if v is None:
            return False
        self.out.violations.append(v)
        return True

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
            self.at = len(segments)
        elif len(segments) == _MAX_SEGMENTS and not any(
                v.reason.startswith("more than") for v in self.out.violations):
            self.report(script_execution_tracking.too_many_commands(_MAX_SEGMENTS, segment=self.at))
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
                stdin_effects.append(Effect("read", ref.display, "path"))
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
            if flow.text is not None:  # its output is known (`$(echo … | base64 -d)`): expand() uses it
                self.sub_values[id(sub)] = flow.text.rstrip("\n")
            if flow.secret:
                self.sub_secret = True  # `curl -d "$(cat USER.md)"`: the argument carries the file
        texts = []
        for _, sub in w.procsubs:
            start = len(self.out.segments)
            _, flow = self.nested(sub, cwd, "<(…)", "|")
            taint = taint or flow.taint or self.segments_taint(start)
            texts.append(flow.text)
        if texts:
            self.psub_texts = [*self.psub_texts, *texts]
        return taint

    def nested(self, script: Script, cwd, via, op) -> tuple[str | None, Flow]:
        if self.nest >= _MAX_NEST:
            self.report(script_execution_tracking.too_deep(segment=self.at))
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
            if value is None and self.sub_values:
                value = self.sub_values.get(id(sub))
            if value is not None and "$(…)" in text:
                text = text.replace("$(…)", value, 1)
        dynamic = "$(…)" in text or "(…)" in text

        def repl(m: re.Match[str]) -> str:
            nonlocal dynamic
            name = m.group(1) or m.group(2)
            for _ in range(8):  # a nameref names another variable (declare -n)
                if name not in self.namerefs:
                    break
                name = self.namerefs[name]
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
        if self.psub_texts:
            self.psub_texts = ()  # what each <(…) of this command prints, in order (None: not known)
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
            if name in _GIT_REPO_VARS:
                self.git_env = True  # `GIT_DIR=… git merge X`: the repository is not the one on disk here
            t = self.word_subs(w, cwd, via)
            value, dyn = self.expand(w, cwd)
            if cmd.words and (name.startswith("GIT_") or name in ("EDITOR", "VISUAL", "PAGER")):
                self.git_vars[name] = value  # settings git reads from its environment (analyze/git.py)
            if self.ide_possible:
                self.report(no_ide_socket_access.ide_assignment(name, value, segment=self.at))
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
        psubs: list[str | None] = []
        for w in cmd.words:
            if w.literal:  # the common case: no expansion, no substitution
                word_taint.append(None)
                argv.append(w.text)
                dyn_flags.append(False)
                continue
            t = None
            if w.subs or w.procsubs:
                t = self.word_subs(w, cwd, via)
                if w.procsubs:  # word_subs appended this word's texts last
                    psubs.extend(self.psub_texts[-len(w.procsubs):])
                self.psub_texts = psubs[:]  # nested commands walked inside the word reset it
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
        if len(argv) > 1 and "{" in "\x00".join(argv):  # one search of the joined words beats a generator
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
        if self.ide_possible:
            self.report(no_ide_socket_access.ide_command(" ".join(argv), segment=self.at))
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
        effects.extend(Effect("read", target, "path") for target in stdin_reads)
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
        """The write effect of ``how`` on ``ref``, judged by the invariants that own such paths."""
        env = self.env
        root = ref.scope == "ws" and ref.rel in ("", ".")
        if not root and self.report(protected_write(env, ref, how, segment=self.at)):
            pass
        elif is_pattern(ref.display) or ref.scope == "unknown":
            self.reach_check(ref, how, "writes")
        else:
            self.report(no_secret_write.credential_write(env, ref, how, segment=self.at))
        self.report(no_permission_escalation.account_file_write(ref, how, segment=self.at))
        return Effect("write", ref.display, "path")

    def reach_check(self, ref: PathRef, how: str, verb: str, instead: str = "") -> bool:
        """A target known only as a pattern counts as every protected path it could name (``unknown_target``)."""
        return self.report(unknown_target(self.env, ref, how, verb, self.cwd_hint, instead, segment=self.at))

    def check_state_secret(self, ref: PathRef, text: str, how: str) -> bool:
        """Any read of the stamp key or the server token (or a pattern that names one and nothing else)."""
        return self.report(no_governance_self_modification.state_secret_read(self.env, ref, text, how, self.cwd_hint,
                                                                             segment=self.at))

    def delete_effect(self, ref: PathRef, how: str, recursive: bool, filtered: bool = False) -> Effect:
        """The delete effect of ``how`` on ``ref`` (``filtered``: a find filter narrows what is deleted under the
        workspace), judged by the recursive-delete invariant and those that own such paths."""
        if recursive:
            self.report(no_recursive_delete.recursive_delete(ref, how, self.opts.delete_allowed, segment=self.at))
        narrowed = filtered and ref.scope == "ws"
        if not narrowed and self.report(protected_write(self.env, ref, how, "deletes", segment=self.at)):
            pass
        elif is_pattern(ref.display) or ref.scope == "unknown":
            self.reach_check(ref, how, "deletes")
        if recursive:
            return Effect("dangerous", ref.display, "path")
        return Effect("write", ref.display, "path")

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
                    self.report(script_execution_tracking.tainted_command_name(taint, segment=self.at))
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
                self.report(no_permission_escalation.elevated(head, segment=self.at))
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
                self.report(unknown_program_arg(self.env, ref, head, segment=self.at))
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

    def stream_text(self, argv, k: int, stdin: Flow | None) -> str | None:
        """The text of a script or program file operand ``argv[k]`` that is a stream, not a file: stdin
        (``/dev/stdin``, ``/dev/fd/0``, ``/proc/self/fd/0``, ``-``) is what is fed in, ``<(…)`` what the process
        substitution prints. ``"\x00unknown"`` when the stream's text cannot be known; None for an ordinary file."""
        a = argv[k]
        if a in _STDIN_PATHS:
            return stdin.text if stdin is not None and stdin.text is not None else "\x00unknown"
        if a.startswith("<(…)") or a.startswith("/dev/fd/") or a.startswith("/proc/self/fd/"):
            n = sum(1 for x in argv[:k] if x.startswith("<(…)"))
            if a.startswith("<(…)") and n < len(self.psub_texts) and self.psub_texts[n] is not None:
                return self.psub_texts[n]
            return "\x00unknown"
        return None

    def shell_script(self, text: str, cwd, via, op, taint) -> None:
        if taint:
            self.report(script_execution_tracking.tainted_script(via, taint, segment=self.at))
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
            if "decode" in taints and tool not in _TEXT_ONLY:
                for k in range(1, min(len(argv), len(taints), len(dyn))):
                    if taints[k] == "decode" and dyn[k] and not argv[k].startswith("-"):
                        self.report(no_governance_self_modification.hidden_name(tool, segment=self.at))
                        break
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
            res = final_handler(tool)(self, tool, argv, cwd, stdin, effects, taints)
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
                    effects.append(Effect("read", self.env.norm(a, cwd).display, "path"))
            if tool == "grep" and any(x in ("-l", "-L", "--files-with-matches") for x in argv[1:]):
                ops = _operands(argv[1:])
                if not any(x in ("-e", "-f", "--regexp", "--file") for x in argv[1:]):
                    ops = ops[1:]  # the first operand is the pattern
                res = ("read", _names_flow([*ops, *(o.rstrip("/") + "/$(…)" for o in ops)] or ["$(…)"]))
        elif cat == _C_EXEC:
            res = ("exec", None)
            if not _REWRITES.isdisjoint(argv[1:]):  # `npx prettier --write F`, `gofmt -w F`, `x --fix F`
                ops = _operands(argv[1:])  # a directory operand: any file below it (`prettier --write .`)
                for ref in self.paths([*ops, *(o.rstrip("/") + "/$(…)" for o in ops)], cwd):
                    effects.append(self.write_effect(ref, f"{tool} (rewrites its inputs)"))
                res = ("write", None)
            if self.downloads or self.written:
                self.check_exec_of_download(argv[0], cwd, "sh", op)
        elif cat == _C_SHELL:
            res = self.run_shell(tool, argv, cwd, via, op, stdin, effects, taints)
        elif cat == _C_INTERP:
            res = self.run_interpreter(tool, argv, cwd, via, op, stdin, effects, taints)
        elif cat == _C_SQL:
            res = self.run_sql(tool, argv, cwd, stdin, effects)
        elif cat == _C_WIPER:
            self.report(no_recursive_delete.disk_wiper(tool, segment=self.at))
            res = ("dangerous", None)
        elif cat == _C_ESCALATOR:
            self.report(no_permission_escalation.privilege_tool(tool, segment=self.at))
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
                nameref = tool != "export" and any(x.startswith("-") and "n" in x[1:] for x in args)
                for k, a in enumerate(args):
                    name, eq, value = a.partition("=")
                    if nameref and eq and name.replace("_", "a").isalnum():
                        self.namerefs[name] = value  # declare -n r=f: $r is whatever $f is when it is used
                        self.vars.pop(name, None)
                        continue
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

    carries_protected = carries_protected

    tree_reader = tree_reader

    dir_read = dir_read

    scan_state_secrets = scan_state_secrets

    # the walk's parts for interpreters, nested shells, SQL clients, network tools and git, imported the first time
    # a command needs one (a hook call pays only for what its command runs)
    check_exec_of_download = _Deferred("interp")

    run_shell = _Deferred("interp")

    run_interpreter = _Deferred("interp")

    scan_code = _Deferred("interp")

    run_sql = _Deferred("sql")

    run_net = _Deferred("net")

    current_branch = _Deferred("git", "_walker_current_branch")


Walker.find_exec = _walker_find_exec  # type: ignore[attr-defined]
Walker.find_delete = _walker_find_delete  # type: ignore[attr-defined]


def analyze_command(command: str, env: Env, opts: Options | None = None, *, cwd: str | None = None,
                    git_branch=None) -> Analysis:
    """Parse and walk a shell command. Never raises on any input."""
    walker = Walker(env, opts, git_branch=git_branch)
    walker.ide_possible = _may_mention_ide(command)
    walker.script(parse(command), cwd if cwd is not None else env.root)
    return walker.out
