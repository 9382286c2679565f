"""A bash-grade shell parser in pure Python: what the agent's command would actually run, never raising.

The parser builds a small syntax tree (lists, pipelines, simple commands, compound commands) the way bash reads
a command line: quotes and escapes, ``&&`` ``||`` ``;`` ``|`` ``|&`` ``&`` and newlines, subshells and groups,
``$(…)`` and backticks, process substitution, redirections (``>file``, ``2>&1``, ``&>``), heredocs and
here-strings, ``if``/``for``/``while``/``until``/``case`` bodies and function definitions. Anything it cannot
make sense of is kept as literal text: :func:`parse` never raises, whatever the input.
"""

from __future__ import annotations

import re

from tiers.record import dataclass, field

from ._lazy import LazyRe

#: deepest nesting of substitutions/groups we follow; deeper input is kept as text (and treated as opaque)
MAX_DEPTH = 48
#: longest command line parsed structurally; longer input is cut (the rest is still scanned as text)
MAX_INPUT = 200_000
#: longest command line the fast paths (:func:`fast_items`) try
FAST_MAX = 2000

_BLANKS = frozenset(" \t\r\f\v")
#: the characters :meth:`_Parser.skip_blanks` can move past (blanks, a backslash-newline, a comment); at any other
#: character it leaves the cursor where it is, so callers on a hot path test for these before calling it
_SKIPPABLE = frozenset(" \t\r\f\v\\#")
#: the characters a redirection can start with (:meth:`_Parser.try_redirect` returns None for any other)
_REDIRECT_START = frozenset("<>&0123456789{")
_WORD_BREAK = frozenset(" \t\r\f\v;&|<>()\n")
_PLAIN = re.compile(r"[^\s;&|<>()'\"\\$`]+")
_BARE = re.compile(r"[^\s;&|<>()'\"\\$`]*")
#: a run of characters that mean nothing special inside double quotes / inside backticks
_DQ_RUN = LazyRe(r'[^"\\$`]+')
_BACKTICK_RUN = LazyRe(r"[^`\\]+")
_ANSI_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
                 "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


@dataclass(slots=True)
class Word:
    """One shell word after quote removal. Expansions stay as text (``$HOME``, ``$(…)``)."""

    text: str
    #: no parameter expansion, command or process substitution anywhere in the word
    literal: bool = True
    #: some part of the word was quoted or escaped (so it is never a keyword or an assignment)
    quoted: bool = False
    #: command substitutions ``$(…)`` / backticks inside the word, parsed
    subs: list[Script] = field(default_factory=list)
    #: process substitutions: (direction ``<`` or ``>``, parsed script)
    procsubs: list[tuple[str, Script]] = field(default_factory=list)
    #: offset in ``text`` where the first quoted or escaped character starts (-1: none)
    qstart: int = -1


@dataclass(slots=True)
class Redirect:
    """A redirection: ``fd`` (or None), operator (``>``, ``>>``, ``<``, ``<<``, ``<<<``, ``&>``, ``>&``…)."""

    op: str
    target: Word | None
    fd: str | None = None
    #: heredoc body (for ``<<`` / ``<<-``) or here-string text (``<<<``)
    body: str | None = None
    #: heredoc delimiter was quoted: the body is taken literally (no expansion)
    body_quoted: bool = False


@dataclass(slots=True)
class Simple:
    """A simple command: assignments, words and redirections."""

    assigns: list[tuple[str, Word]] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Compound:
    """A compound command: ``subshell``, ``group``, ``if``, ``for``, ``while``, ``case`` or ``function``.

    ``bodies`` are the command lists it contains (conditions included); ``words`` the words it iterates over or
    matches (``for x in WORDS``, ``case WORD``); ``name`` a function's name.
    """

    kind: str
    bodies: list[Script] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    name: str = ""


Command = Simple | Compound


@dataclass(slots=True)
class Pipeline:
    commands: list[Command] = field(default_factory=list)
    #: the operator after each command but the last: ``|`` or ``|&``
    pipes: list[str] = field(default_factory=list)
    negated: bool = False


@dataclass(slots=True)
class Script:
    """A command list: ``items`` are (operator before the pipeline, pipeline); ops ``""``, ``&&``, ``||``,
    ``;``, ``&`` or ``\\n``. ``background`` marks pipelines followed by ``&``."""

    items: list[tuple[str, Pipeline]] = field(default_factory=list)
    background: set[int] = field(default_factory=set)


class _Parser:
    __slots__ = ("s", "i", "n", "depth", "pending")

    def __init__(self, text: str, depth: int = 0) -> None:
        self.s = text
        self.i = 0
        self.n = len(text)
        self.depth = depth
        self.pending: list[Redirect | tuple[Redirect, str, bool]] = []

    # -- low level -----------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < self.n else ""

    def startswith(self, tok: str) -> bool:
        return self.s.startswith(tok, self.i)

    def skip_blanks(self) -> None:
        s, n, i = self.s, self.n, self.i
        while i < n:
            c = s[i]
            if c in _BLANKS:
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
            elif c == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
            else:
                break
        self.i = i

    def newline(self) -> None:
        """Consume a newline and, if heredocs are pending, their bodies."""
        self.i += 1
        if self.pending:
            pending, self.pending = self.pending, []
            for red, delim, strip in pending:  # type: ignore[misc]
                red.body = self.read_heredoc_body(delim, strip)

    def read_heredoc_body(self, delim: str, strip_tabs: bool) -> str:
        lines: list[str] = []
        s, n = self.s, self.n
        while self.i < n:
            j = s.find("\n", self.i)
            if j < 0:
                j = n
            line = s[self.i:j]
            self.i = min(j + 1, n)
            check = line.lstrip("\t") if strip_tabs else line
            if check == delim or check.rstrip("\r") == delim:
                return "\n".join(lines)
            lines.append(check if strip_tabs else line)
        return "\n".join(lines)

    # -- lists ---------------------------------------------------------------------------------------
    def parse_list(self, stops: frozenset[str] = frozenset(), closer: str = "") -> Script:
        """Parse pipelines joined by operators until EOF, ``closer`` (``)`` or ``}``) or a stop keyword."""
        script = _new(Script)  # slot by slot (no generated __init__ frame)
        items: list = []
        script.items = items
        script.background = set()
        op = ""
        s, n = self.s, self.n
        while True:
            i = self.i
            if i < n and s[i] in _SKIPPABLE:  # skip_blanks would move: call it (otherwise it leaves i as is)
                self.skip_blanks()
                i = self.i
            if i >= n:
                break
            c = s[i]
            if c == "\n":
                self.newline()
                if items:
                    op = op or "\n"
                continue
            nxt = s[i + 1] if i + 1 < n else ""
            if c == ";" and nxt != ";":
                self.i = i + 1
                op = ";"
                continue
            if closer and c == closer:
                break
            if c == ")" and closer != ")":
                if self.depth == 0:
                    self.i = i + 1  # a stray ')' at top level: skip it
                    continue
                break
            if c == ";":  # ';;' (a lone ';' and ';&' were taken above)
                if ";;" in stops:
                    break
                self.i = i + 2
                op = ";"
                continue
            if stops:
                w = self.peek_word()
                if w in stops:
                    break
            if (c == "&" or c == "|") and nxt == c:
                op = c + c
                self.i = i + 2
                continue
            if c == "&" and nxt != ">":
                if items:
                    script.background.add(len(items) - 1)
                self.i = i + 1
                op = "&"
                continue
            pipeline = self.parse_pipeline(stops, closer)
            if pipeline.commands:
                items.append((op if items else "", pipeline))
                op = ""
            if self.i == i:
                self.i = i + 1  # never loop without progress
        return script

    def peek_word(self) -> str:
        """The bare word at the cursor (for keyword detection), without consuming it."""
        s, n = self.s, self.n
        j = _BARE.match(s, self.i).end()
        if j < n and s[j] not in _WORD_BREAK:
            return ""
        return s[self.i:j]

    def parse_pipeline(self, stops: frozenset[str], closer: str) -> Pipeline:
        pipe = _new(Pipeline)  # slot by slot (no generated __init__ frame)
        commands: list = []
        pipes: list = []
        pipe.commands = commands
        pipe.pipes = pipes
        pipe.negated = False
        s, n = self.s, self.n
        self.skip_blanks()
        while self.peek() == "!" and (self.peek(1) in _BLANKS or self.peek(1) == ""):
            pipe.negated = True
            self.i += 1
            self.skip_blanks()
        while True:
            if s.startswith("time", self.i) and self.peek_word() == "time":
                self.i += 4
                self.skip_blanks()
                while self.startswith("-p ") or self.startswith("--"):
                    self.i += 2
                    self.skip_blanks()
            cmd = self.parse_command(stops, closer)
            if cmd is None:
                break
            commands.append(cmd)
            i = self.i
            if i < n and s[i] in _SKIPPABLE:
                self.skip_blanks()
                i = self.i
            if i >= n or s[i] != "|":
                break
            nxt = s[i + 1] if i + 1 < n else ""
            if nxt == "|":
                break
            if nxt == "&":
                pipes.append("|&")
                self.i = i + 2
            else:
                pipes.append("|")
                self.i = i + 1
            # a newline may follow a pipe operator
            while True:
                self.skip_blanks()
                if self.peek() == "\n":
                    self.newline()
                else:
                    break
        if len(pipes) >= len(commands) and pipes:
            pipe.pipes = pipes[: max(len(commands) - 1, 0)]
        return pipe

    # -- commands ------------------------------------------------------------------------------------
    def parse_command(self, stops: frozenset[str], closer: str) -> Command | None:
        i = self.i
        if i < self.n and self.s[i] in _SKIPPABLE:
            self.skip_blanks()
        if self.i >= self.n:
            return None
        c = self.s[self.i]
        if c in "\n;&|" or (c == ")" and closer != ")" and self.depth > 0) or (closer and c == closer):
            return None
        if self.depth >= MAX_DEPTH:
            return self.parse_opaque()
        if c == "(" and self.peek(1) != "(":
            self.i += 1
            body = self.sub(")").parse_list(closer=")")
            self.expect(")")
            return self.finish_compound(Compound("subshell", [body]))
        if c == "(" and self.peek(1) == "(":  # (( arithmetic ))
            end = self.s.find("))", self.i + 2)
            end = self.n if end < 0 else end + 2
            self.i = end
            return Simple(words=[Word("((…))", literal=True)])
        w = self.peek_word()
        if w and w in stops:
            return None
        if w == "{":
            self.i += 1
            body = self.sub("}").parse_list(closer="}")
            self.expect("}")
            return self.finish_compound(Compound("group", [body]))
        if w in ("if", "while", "until", "for", "select", "case", "function"):
            return getattr(self, "parse_" + ("for" if w == "select" else "while" if w == "until" else w))()
        if w == "[[":
            return self.parse_double_bracket()
        return self.parse_simple(stops, closer)

    def sub(self, closer: str) -> _Parser:
        """Enter one nesting level (the caller parses the body with the same cursor)."""
        self.depth += 1
        return self

    def expect(self, ch: str) -> None:
        self.depth = max(0, self.depth - 1)
        self.skip_blanks()
        if self.peek() == ch:
            self.i += 1

    def finish_compound(self, comp: Compound) -> Compound:
        while True:
            self.skip_blanks()
            red = self.try_redirect()
            if red is None:
                break
            comp.redirects.append(red)
        return comp

    def skip_separators(self) -> None:
        """Blanks, newlines (reading pending heredocs) and single `;` — but not a `case` item's `;;`."""
        self.skip_blanks()
        while self.peek() in ("\n", ";") and not self.startswith(";;"):
            if self.peek() == "\n":
                self.newline()
            else:
                self.i += 1
            self.skip_blanks()

    def keyword(self, kw: str) -> bool:
        self.skip_separators()
        if self.peek_word() == kw:
            self.i += len(kw)
            return True
        return False

    def body_until(self, stops: set[str]) -> Script:
        self.depth += 1
        script = self.parse_list(stops=frozenset(stops))
        self.depth = max(0, self.depth - 1)
        return script

    def parse_if(self) -> Command:
        self.i += 2
        comp = Compound("if")
        comp.bodies.append(self.body_until({"then"}))
        while True:
            if self.keyword("then") or self.keyword("else"):
                comp.bodies.append(self.body_until({"elif", "else", "fi"}))
                continue
            if self.keyword("elif"):
                comp.bodies.append(self.body_until({"then"}))
                continue
            self.keyword("fi")
            break
        return self.finish_compound(comp)

    def parse_while(self) -> Command:
        kw = self.peek_word()
        self.i += len(kw)
        comp = Compound("while")
        comp.bodies.append(self.body_until({"do"}))
        if self.keyword("do"):
            comp.bodies.append(self.body_until({"done"}))
            self.keyword("done")
        return self.finish_compound(comp)

    def parse_for(self) -> Command:
        kw = self.peek_word()
        self.i += len(kw)
        comp = Compound("for")
        self.skip_blanks()
        if self.startswith("(("):
            end = self.s.find("))", self.i)
            self.i = self.n if end < 0 else end + 2
        else:
            name = self.read_word()
            comp.name = name.text if name else ""
            self.skip_blanks()
            if self.peek_word() == "in":
                self.i += 2
                while True:
                    self.skip_blanks()
                    if self.i >= self.n or self.peek() in ";\n&|)":
                        break
                    w = self.read_word()
                    if w is None:
                        break
                    comp.words.append(w)
        if self.keyword("do"):
            comp.bodies.append(self.body_until({"done"}))
            self.keyword("done")
        elif self.peek() == "{":
            self.i += 1
            comp.bodies.append(self.sub("}").parse_list(closer="}"))
            self.expect("}")
        return self.finish_compound(comp)

    def parse_case(self) -> Command:
        self.i += 4
        comp = Compound("case")
        self.skip_blanks()
        w = self.read_word()
        if w:
            comp.words.append(w)
        self.keyword("in")
        while True:
            self.skip_separators()
            if self.i >= self.n or self.peek_word() == "esac":
                break
            # pattern list up to ')'
            if self.peek() == "(":
                self.i += 1
            start = self.i
            while self.i < self.n and self.s[self.i] != ")" and self.s[self.i] != "\n":
                if self.s[self.i] in "'\"":
                    self.read_word()
                    continue
                self.i += 1
            if self.peek() == ")":
                self.i += 1
            elif self.i == start:
                self.i += 1
            self.depth += 1
            comp.bodies.append(self.parse_list(stops=frozenset({";;", "esac"})))
            self.depth = max(0, self.depth - 1)
            if self.startswith(";;&") or self.startswith(";&"):
                self.i += 3 if self.startswith(";;&") else 2
            elif self.startswith(";;"):
                self.i += 2
        self.keyword("esac")
        return self.finish_compound(comp)

    def parse_function(self) -> Command:
        self.i += 8
        self.skip_blanks()
        name = self.read_word()
        self.skip_blanks()
        if self.startswith("()"):
            self.i += 2
        return self.function_body(name.text if name else "")

    def function_body(self, name: str) -> Command:
        while True:
            self.skip_blanks()
            if self.peek() == "\n":
                self.newline()
            else:
                break
        body = self.parse_command(frozenset(), "")
        comp = Compound("function", name=name)
        if isinstance(body, Compound):
            comp.bodies.extend(body.bodies)
        elif body is not None:
            comp.bodies.append(Script(items=[("", Pipeline(commands=[body]))]))
        return comp

    def parse_double_bracket(self) -> Command:
        self.i += 2
        words = [Word("[[")]
        while True:
            self.skip_blanks()
            if self.i >= self.n or self.peek() == "\n":
                break
            if self.peek_word() == "]]":
                self.i += 2
                words.append(Word("]]"))
                break
            if self.peek() in "&|<>();":
                self.i += 2 if self.s[self.i:self.i + 2] in ("&&", "||") else 1
                continue
            w = self.read_word()
            if w is None:
                self.i += 1
            else:
                words.append(w)
        return Simple(words=words)

    def parse_opaque(self) -> Command:
        """Too deep: keep the rest of this command as one opaque word."""
        start = self.i
        while self.i < self.n and self.s[self.i] not in "\n;&|)":
            self.i += 1
        return Simple(words=[Word(self.s[start:self.i] or "?", literal=False)])

    def parse_simple(self, stops: frozenset[str], closer: str) -> Command | None:
        cmd = _new(Simple)  # slot by slot (no generated __init__ frame)
        cmd.assigns = []
        cmd.words = []
        cmd.redirects = []
        s, n = self.s, self.n
        while True:
            i = self.i
            if i < n and s[i] in _SKIPPABLE:
                self.skip_blanks()
                i = self.i
            if i >= n:
                break
            c = s[i]
            if c in "\n;|" or (c == "&" and not self.startswith("&>")):
                break
            if c == ")" or (closer and c == closer and not cmd.words and closer == "}"):
                break
            if closer == "}" and c == "}" and (self.peek(1) in _WORD_BREAK or self.peek(1) == ""):
                break
            if c in _REDIRECT_START:
                red = self.try_redirect()
                if red is not None:
                    cmd.redirects.append(red)
                    continue
            if c == "(":
                if cmd.words and not cmd.assigns and self.startswith("()"):
                    self.i += 2
                    return self.function_body(cmd.words[0].text)
                if cmd.words and self.startswith("()") is False and len(cmd.words) == 1 and self.s[self.i + 1:].lstrip(" \t").startswith(")"):
                    self.i = self.s.index(")", self.i) + 1
                    return self.function_body(cmd.words[0].text)
                # unexpected '(' inside a command: skip it
                self.i += 1
                continue
            w = self.read_word()
            if w is None:
                self.i += 1
                continue
            if not cmd.words:
                eq = w.text.find("=")
                if w.quoted and 0 <= w.qstart <= eq:
                    eq = -1
                name = w.text[:eq].rstrip("+")
                if eq > 0 and name.replace("_", "a").isalnum() and not name[0].isdigit():
                    value = _split_assignment(w, eq)
                    if self.peek() == "(" and value.text == "":  # array assignment a=(…)
                        end = self.s.find(")", self.i)
                        self.i = self.n if end < 0 else end + 1
                    cmd.assigns.append((name, value))
                    continue
            cmd.words.append(w)
        if not cmd.words and not cmd.assigns and not cmd.redirects:
            return None
        return cmd

    # -- redirections --------------------------------------------------------------------------------
    def try_redirect(self) -> Redirect | None:
        s, i = self.s, self.i
        if i >= self.n or s[i] not in "<>&0123456789{":
            return None
        if s[i] == "&" and not s.startswith("&>", i):
            return None
        j = i
        fd = None
        while j < self.n and s[j].isdigit():
            j += 1
        if j > i and j < self.n and s[j] in "<>":
            fd = s[i:j]
        elif j < self.n and s[j] == "{" and s.find("}", j) > j:  # {fd}> named descriptors
            k = s.find("}", j)
            if k + 1 < self.n and s[k + 1] in "<>" and s[j + 1:k].replace("_", "a").isalnum():
                fd = s[j:k + 1]
                j = k + 1
            else:
                j = i
        else:
            j = i
        if j >= self.n:
            return None
        op = ""
        for cand in ("&>>", "&>", "<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"):
            if s.startswith(cand, j):
                op = cand
                break
        if not op:
            return None
        if op in ("<", ">") and j + 1 < self.n and s[j + 1] == "(" and fd is None:
            return None  # process substitution, read as a word
        self.i = j + len(op)
        self.skip_blanks()
        if op in ("<<", "<<-"):
            target = self.read_word()
            delim = target.text if target else ""
            red = Redirect(op, target, fd, body="", body_quoted=bool(target and target.quoted))
            self.pending.append((red, delim, op == "<<-"))  # type: ignore[arg-type]
            return red
        target = self.read_word()
        red = Redirect(op, target, fd)
        if op == "<<<":
            red.body = target.text if target else ""
        return red

    # -- words ---------------------------------------------------------------------------------------
    def read_word(self) -> Word | None:
        s, n = self.s, self.n
        i = self.i
        if i >= n:
            return None
        parts: list[str] = []
        word = _new(Word)  # slot by slot (no generated __init__ frame)
        word.text = ""
        word.literal = True
        word.quoted = False
        word.subs = []
        word.procsubs = []
        word.qstart = -1
        start = i
        # process substitution at word start
        if s[i] in "<>" and i + 1 < n and s[i + 1] == "(":
            direction = s[i]
            self.i = i + 2
            inner = self.nested_until(")")
            word.procsubs.append((direction, inner))
            word.literal = False
            word.text = direction + "(…)"
            return word
        plain = _PLAIN.match
        m = plain(s, i)
        if m is not None:
            j = m.end()
            if j >= n or s[j] in _WORD_BREAK:  # a plain word (the commonest): what the loop below makes of it
                self.i = j
                word.text = m.group()
                return word
            parts.append(m.group())
            i = j
        while i < n:
            m = plain(s, i)
            if m is not None:
                parts.append(m.group())
                i = m.end()
                continue
            c = s[i]
            if c in _WORD_BREAK:
                break
            if c in "\\'\"" and word.qstart < 0:
                word.qstart = sum(len(p) for p in parts)
            if c == "\\":
                if i + 1 < n:
                    if s[i + 1] == "\n":
                        i += 2
                        continue
                    parts.append(s[i + 1])
                    word.quoted = True
                    i += 2
                else:
                    i += 1
                continue
            if c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    j = n
                parts.append(s[i + 1:j])
                word.quoted = True
                i = j + 1
                continue
            if c == '"':
                self.i = i + 1
                self.read_double_quoted(word, parts)
                i = self.i
                word.quoted = True
                continue
            if c == "$":
                self.i = i
                self.read_dollar(word, parts)
                i = self.i
                continue
            if c == "`":
                self.i = i
                self.read_backticks(word, parts, "`$\\")
                i = self.i
                continue
            if c == "{" and i == start:
                # brace group opener as a word only when followed by more word chars ({a,b}, {})
                parts.append(c)
                i += 1
                continue
            parts.append(c)
            i += 1
        self.i = i
        if i == start:
            return None
        word.text = "".join(parts)
        return word

    def read_double_quoted(self, word: Word, parts: list[str]) -> None:
        s, n = self.s, self.n
        run = _DQ_RUN.match
        while self.i < n:
            m = run(s, self.i)  # characters with no meaning inside double quotes, taken as one run
            if m is not None:
                parts.append(m.group())
                self.i = m.end()
                continue
            c = s[self.i]
            if c == '"':
                self.i += 1
                return
            if c == "\\" and self.i + 1 < n:
                nxt = s[self.i + 1]
                if nxt in '$`"\\':
                    parts.append(nxt)
                    self.i += 2
                    continue
                if nxt == "\n":
                    self.i += 2
                    continue
                parts.append(c)
                self.i += 1
                continue
            if c == "$":
                self.read_dollar(word, parts, in_quotes=True)
                continue
            if c == "`":
                self.read_backticks(word, parts, '`$\\"')
                continue
            parts.append(c)
            self.i += 1

    def read_backticks(self, word: Word, parts: list[str], escapable: str) -> None:
        """A `…` command substitution (the cursor is on the opening backtick); a backslash escapes only the
        characters in ``escapable`` (inside double quotes the quote itself is escapable too)."""
        s, n = self.s, self.n
        self.i += 1
        j = self.i
        buf: list[str] = []
        run = _BACKTICK_RUN.match
        while j < n and s[j] != "`":
            m = run(s, j)  # neither a backtick nor a backslash: one run
            if m is not None:
                buf.append(m.group())
                j = m.end()
                continue
            if s[j] == "\\" and j + 1 < n and s[j + 1] in escapable:
                buf.append(s[j + 1])
                j += 2
                continue
            buf.append(s[j])
            j += 1
        self.i = min(j + 1, n)
        word.subs.append(parse("".join(buf), self.depth + 1))
        word.literal = False
        parts.append("$(…)")

    def read_dollar(self, word: Word, parts: list[str], in_quotes: bool = False) -> None:
        s, n = self.s, self.n
        nxt = s[self.i + 1] if self.i + 1 < n else ""
        if nxt == "(" and self.i + 2 < n and s[self.i + 2] == "(":
            end = _find_arith_end(s, self.i + 3)
            parts.append(s[self.i:end])
            word.literal = False
            self.i = end
            return
        if nxt == "(":
            self.i += 2
            inner = self.nested_until(")")
            word.subs.append(inner)
            word.literal = False
            parts.append("$(…)")
            return
        if nxt == "{":
            j = self.i + 2
            depth = 1
            while j < n and depth:
                if s[j] == "{":
                    depth += 1
                elif s[j] == "}":
                    depth -= 1
                j += 1
            inner = s[self.i + 2:j - 1] if depth == 0 else s[self.i + 2:j]
            # ${VAR:-$(cmd)} and friends: parse a substitution inside
            k = inner.find("$(")
            if k >= 0:
                word.subs.append(parse(inner[k + 2:].rstrip(")"), self.depth + 1))
            parts.append("${" + inner + "}")
            word.literal = False
            self.i = j
            return
        if nxt == "'" and not in_quotes:
            j = self.i + 2
            buf: list[str] = []
            while j < n and s[j] != "'":
                if s[j] == "\\" and j + 1 < n:
                    e = s[j + 1]
                    if e in _ANSI_ESCAPES:
                        buf.append(_ANSI_ESCAPES[e])
                        j += 2
                        continue
                    if e == "x":
                        hexd = ""
                        k = j + 2
                        while k < n and len(hexd) < 2 and s[k] in "0123456789abcdefABCDEF":
                            hexd += s[k]
                            k += 1
                        if hexd:
                            buf.append(chr(int(hexd, 16)))
                            j = k
                            continue
                    if e in "01234567":
                        octd = ""
                        k = j + 1
                        while k < n and len(octd) < 3 and s[k] in "01234567":
                            octd += s[k]
                            k += 1
                        buf.append(chr(int(octd, 8) % 256))
                        j = k
                        continue
                    buf.append(e)
                    j += 2
                    continue
                buf.append(s[j])
                j += 1
            parts.append("".join(buf))
            word.quoted = True
            self.i = min(j + 1, n)
            return
        if nxt == '"' and not in_quotes:
            self.i += 1
            return
        j = self.i + 1
        if j < n and (s[j].isalpha() or s[j] == "_"):
            while j < n and (s[j].isalnum() or s[j] == "_"):
                j += 1
        elif j < n and s[j] in "@*#?$!-0123456789":
            j += 1
        else:
            parts.append("$")
            self.i += 1
            return
        parts.append(s[self.i:j])
        word.literal = False
        self.i = j

    def nested_until(self, closer: str) -> Script:
        """Parse ``$(…)`` / ``<(…)`` contents (the opener is consumed) up to the matching ``)``."""
        self.depth += 1
        if self.depth >= MAX_DEPTH:
            depth = 1
            start = self.i
            while self.i < self.n and depth:
                if self.s[self.i] == "(":
                    depth += 1
                elif self.s[self.i] == ")":
                    depth -= 1
                self.i += 1
            self.depth -= 1
            return Script(items=[("", Pipeline(commands=[Simple(words=[Word(self.s[start:self.i], literal=False)])]))])
        end = self.s.find(closer, self.i, self.i + FAST_MAX)
        if end >= 0:
            script = _fast_inner(self.s[self.i:end], self.depth)
            if script is not None:
                self.depth = max(0, self.depth - 1)
                self.i = end + 1
                return script
        script = self.parse_list(closer=closer)
        self.depth = max(0, self.depth - 1)
        if self.peek() == closer:
            self.i += 1
        return script


def _find_arith_end(s: str, j: int) -> int:
    depth = 2
    n = len(s)
    while j < n and depth:
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
        j += 1
    return j


def _split_assignment(w: Word, eq: int) -> Word:
    return Word(w.text[eq + 1:], literal=w.literal, quoted=w.quoted, subs=w.subs, procsubs=w.procsubs)


#: a command line made only of plain or simply-quoted words and the operators && || ; | |& & (no expansions,
#: redirections, groups, comments or escapes) is tokenized by one regex; anything else takes the full parser.
#: Braces may appear in words (``find … -exec cmd {} +``, ``{a,b}``): the full parser reads them as word characters
#: too, and a first word ``{`` or ``}`` (a group) is a reserved word the fast paths decline.
_FAST_TOKEN = re.compile(r"[ \t]*+(?:(&&|\|\||\|&|[|;&])|((?:[^\s'\"\\$`;&|<>()#]++|'[^']*+'|\"[^\"\\$`]*+\")++))")
_FAST_RESERVED = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
                            "esac", "function", "select", "[[", "!", "time", "in", "{", "}", "coproc"})
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


#: the whole line is a sequence of such tokens (non-capturing: one C-level check before tokenizing)
_FAST_LINE = re.compile(r"(?:[ \t]*+(?:&&|\|\||\|&|[|;&]|(?:[^\s'\"\\$`;&|<>()#]++|'[^']*+'|\"[^\"\\$`]*+\")++))*+"
                        r"[ \t]*+")
#: ``_FAST_TOKEN`` plus a last group for any other character: one findall both tokenizes a line and tells
#: whether ``_FAST_LINE`` matches all of it (exactly when no token has that group; blanks at the end match nothing)
_FAST_SCAN = LazyRe(r"[ \t]*+(?:(&&|\|\||\|&|[|;&])|((?:[^\s'\"\\$`;&|<>()#]++|'[^']*+'|\"[^\"\\$`]*+\")++)|([^ \t]))")
_NO_SUBS: tuple = ()  # shared by fast-path words (nothing is ever appended to them)


def _unquote(q: re.Match[str]) -> str:
    return q.group(1) if q.group(1) is not None else q.group(2)



#: a line of plain words only: printable ASCII without quotes, escapes, expansions, operators, redirections,
#: groups or comments (and no blanks but spaces and tabs), so ``str.split`` finds exactly its words
_PLAIN_LINE = re.compile(r"[ \t!%*+,\-./0-9:=?@A-Z\[\]^_a-z~]*")
_new = object.__new__


def _is_keyword_or_assignment(word: str) -> bool:
    """A first word the fast paths leave to the full parser: a reserved word or something like NAME=value."""
    return word in _FAST_RESERVED or ("=" in word and word.split("=", 1)[0].replace("_", "a").isalnum())


def fast_items(text: str) -> tuple[list[tuple[str, list[list[str]], list[str]]], list[int]] | None:
    """A command line made only of plain or simply-quoted words and the operators ``&&`` ``||`` ``;`` ``|`` ``|&``
    ``&``, read without the full parser: ``(items, background)`` where each item is (operator before it, its
    pipeline's commands as lists of raw words (quotes still on), the pipe operators between them) and
    ``background`` the indices of the items followed by ``&``. None for anything else (expansions,
    redirections, groups, comments, escapes, keywords, assignments)."""
    if _PLAIN_LINE.fullmatch(text) is not None:  # the commonest line: one command of plain words
        tokens = text.split()
        if not tokens:
            return [], []
        t0 = tokens[0]  # _is_keyword_or_assignment, inline
        if t0 in _FAST_RESERVED or ("=" in t0 and t0.split("=", 1)[0].replace("_", "a").isalnum()):
            return None
        return [("", [tokens], [])], []
    if ("$" in text or "`" in text or "\\" in text or "<" in text or ">" in text or "(" in text or ")" in text
            or "#" in text or "\n" in text) and _FAST_LINE.fullmatch(text) is None:
        # characters that start no token (allowed only inside quotes): such a line is mostly declined, which the
        # full-line check finds out before tokenizing; any other line is tokenized at once (_FAST_SCAN's last
        # group still declines it when needed)
        return None
    items: list[tuple[str, list[list[str]], list[str]]] = []
    background: list[int] = []
    commands: list[list[str]] = []
    pipes: list[str] = []
    cmd: list[str] = []
    op = ""
    for tok_op, word, junk in _FAST_SCAN.findall(text):
        if word:
            # a first word that is a keyword or NAME=value: _is_keyword_or_assignment, inline (one call per line)
            if not cmd and (word in _FAST_RESERVED or ("=" in word and word.split("=", 1)[0].replace("_", "a").isalnum())):
                return None
            cmd.append(word)
            continue
        if junk or not cmd:
            return None  # a character no token starts with (the line is not made of them), or a misplaced operator
        commands.append(cmd)
        cmd = []
        if tok_op == "|" or tok_op == "|&":
            pipes.append(tok_op)
            continue
        items.append((op if items else "", commands, pipes))
        if tok_op == "&":
            background.append(len(items) - 1)
        commands, pipes = [], []
        op = tok_op
    if cmd:
        commands.append(cmd)
    elif commands:
        return None  # trailing pipe
    if commands:
        items.append((op if items else "", commands, pipes))
    return items, background


def _strip_quotes(t: str) -> str:
    """``_QUOTED.sub(_unquote, t)`` for a fast-path word with quotes: one quoted part spanning the whole word (the
    commonest case) just loses its two quotes, anything else goes through the regex."""
    q = t[0]
    if (q == '"' or q == "'") and t[-1] == q and len(t) > 1 and t.count(q) == 2:
        return t[1:-1]
    return _QUOTED.sub(_unquote, t)


def unquote(word: str) -> str:
    """A fast-path word after quote removal (its quotes are plain '…' or escape-free "…")."""
    return _QUOTED.sub(_unquote, word) if "'" in word or '"' in word else word


def unquote_all(words: list[str]) -> list[str]:
    """:func:`unquote` of each word (one call per command)."""
    return [_strip_quotes(w) if "'" in w or '"' in w else w for w in words]


# The fast path builds its nodes slot by slot: the records have no __post_init__, and skipping one generated
# __init__ frame per node is most of what a short command line costs to parse (a test checks the nodes equal the
# full parser's).
def _fast_parse(text: str) -> Script | None:
    fast = fast_items(text)
    if fast is None:
        return None
    items: list = []
    for op, commands, pipes in fast[0]:
        nodes: list[Command] = []
        for raw in commands:
            words = []
            for t in raw:
                w = _new(Word)
                if "'" in t or '"' in t:
                    sq, dq = t.find("'"), t.find('"')
                    w.text = _strip_quotes(t)
                    w.quoted = True
                    w.qstart = sq if dq < 0 else dq if sq < 0 else min(sq, dq)
                else:
                    w.text = t
                    w.quoted = False
                    w.qstart = -1
                w.literal = True
                w.subs = _NO_SUBS
                w.procsubs = _NO_SUBS
                words.append(w)
            cmd = _new(Simple)
            cmd.assigns = []
            cmd.words = words
            cmd.redirects = []
            nodes.append(cmd)
        pipe = _new(Pipeline)
        pipe.commands = nodes
        pipe.pipes = pipes
        pipe.negated = False
        items.append((op, pipe))
    script = _new(Script)
    script.items = items
    script.background = set(fast[1])
    return script


#: The second fast path: an ASCII line of the fast path's words plus ``$NAME`` expansions (bare or inside double
#: quotes), command substitutions ``$(…)`` and backticks (bare or inside double quotes), process substitutions
#: ``<(…)``/``>(…)``, redirections (``>``, ``>>``, ``2>&1``, ``&>``, ``<``, ``<<<``… to a word; not heredocs) and
#: leading ``NAME=value`` assignments, tokenized by one regex into the same nodes as the full parser. Declined:
#: anything else, a command that starts with a redirection, a reserved first word, and ``}>``/``}<`` (a ``{fd}>``
#: named descriptor). ASCII only: the full parser reads digits and names with ``str.isdigit``/``isalnum``.
#: A ``$(…)`` or ``<(…)`` is taken up to its first ``)`` when its body has no ``(``, backtick or newline (and is
#: then read by :func:`_fast_inner`); a backtick substitution when its body has no backslash (so it is the text
#: the full parser hands to :func:`parse`, escapes removed).
_X_NAME = r"\$[A-Za-z_][A-Za-z0-9_]*+"
_X_SUB = r"\$\([^()`\n]*+\)|`[^`\\]*+`"
_X_WORD = (r"(?:[^\s'\"\\$`;&|<>()#]++|'[^']*+'|\"(?:[^\"\\$`]++|" + _X_NAME + "|" + _X_SUB + r")*+\"|"
           + _X_NAME + "|" + _X_SUB + ")++")
#: one token per match; the last group catches any other character (the line is then declined), so findall
#: covers the whole line and no separate full-line check is needed. A process substitution is a word of its own
#: (the full parser ends the word at its ``)``), tried before the redirections it starts like.
_X_TOKEN = LazyRe(r"[ \t]*+(?:(&>>|&>)|(&&|\|\||\|&|[|;&])|([<>]\([^()`\n]*+\))|([0-9]*+)(<<<|<<-|<<|>>|>\||>&|"
                  r"<&|<>|>|<)|(" + _X_WORD + r")|([^ \t]))")
#: the parts of a word with both quotes and ``$``: plain run, '…', "…", $NAME
_X_PART = LazyRe(r"([^'\"$]++)|'([^']*+)'|\"([^\"]*+)\"|(\$[A-Za-z_0-9]++)")


def _x_word(t: str) -> Word:
    """The full parser's :class:`Word` for one word token of the second fast path."""
    w = _new(Word)
    w.subs = _NO_SUBS
    w.procsubs = _NO_SUBS
    if "'" in t or '"' in t:
        sq, dq = t.find("'"), t.find('"')
        w.text = _strip_quotes(t)
        w.quoted = True
        w.qstart = sq if dq < 0 else dq if sq < 0 else min(sq, dq)
        if "$" in t:  # literal unless a $NAME stands outside single quotes
            w.literal = True
            for plain, _sq, dq_text, dollar in _X_PART.findall(t):
                if dollar or (dq_text and "$" in dq_text):
                    w.literal = False
                    break
        else:
            w.literal = True
    else:
        w.text = t
        w.quoted = False
        w.qstart = -1
        w.literal = "$" not in t
    return w


#: the parts of a word token with a substitution: plain run, '…', "…" (its inside), $NAME, the body of a $(…), the
#: body of a backtick substitution (one group per alternative: ``lastindex`` tells which one matched, even empty)
_S_PART = LazyRe(r"([^'\"$`]++)|'([^']*+)'|\"((?:[^\"\\$`]++|" + _X_NAME + "|" + _X_SUB + r")*+)\"|(" + _X_NAME
                 + r")|\$\(([^()`\n]*+)\)|`([^`\\]*+)`")
#: the parts inside "…" of such a word: plain run, $NAME, the body of a $(…), the body of a backtick substitution
_S_DQ_PART = LazyRe(r"([^$`]++)|(" + _X_NAME + r")|\$\(([^()`\n]*+)\)|`([^`]*+)`")


def _fast_inner(body: str, depth: int) -> Script | None:
    """The tree of a ``$(…)``/``<(…)`` whose ``body`` ends at its first ``)``, read by the fast paths at nesting
    ``depth`` (the full parser's, inside the substitution), or None to leave it to the full parser.

    A body a fast path takes has no ``)`` even inside quotes, so the full parser, reading it in place, stops at
    the same ``)``; and it looks past a word or operator only for a word break, which ``)`` is just as the end of
    the text is: it builds the tree the fast path (equal to the full parser on the body alone) builds. A newline
    is left to the full parser (heredoc bodies after it would be read from the text after the ``)``)."""
    if "\n" in body:
        return None
    script = _fast_parse(body)
    return script if script is not None else _fast_tree(body, depth)


def _sub_word(t: str, depth: int) -> Word | None:
    """The full parser's :class:`Word` for a word token of the second fast path with ``$(…)`` or backticks
    (:meth:`_Parser.read_word` part by part), or None when a substitution's body is left to the full parser.
    ``depth`` is the nesting of the line; a substitution one level short of ``MAX_DEPTH`` is left to it too."""
    if depth + 1 >= MAX_DEPTH:
        return None
    w = _new(Word)
    w.literal = True
    w.quoted = False
    w.qstart = -1
    subs: list = []
    w.subs = subs
    w.procsubs = []
    parts: list[str] = []
    for m in _S_PART.finditer(t):
        kind = m.lastindex
        if kind == 1:
            parts.append(m.group(1))
        elif kind == 2 or kind == 3:
            if w.qstart < 0:
                w.qstart = sum(len(p) for p in parts)
            w.quoted = True
            if kind == 2:
                parts.append(m.group(2))
                continue
            for q in _S_DQ_PART.finditer(m.group(3)):
                inner = q.lastindex
                if inner == 1:
                    parts.append(q.group(1))
                    continue
                w.literal = False
                if inner == 2:
                    parts.append(q.group(2))
                    continue
                sub = _fast_inner(q.group(3), depth + 1) if inner == 3 else parse(q.group(4), depth + 1)
                if sub is None:
                    return None
                subs.append(sub)
                parts.append("$(…)")
        else:
            w.literal = False
            if kind == 4:
                parts.append(m.group(4))
                continue
            sub = _fast_inner(m.group(5), depth + 1) if kind == 5 else parse(m.group(6), depth + 1)
            if sub is None:
                return None
            subs.append(sub)
            parts.append("$(…)")
    w.text = "".join(parts)
    return w


def _proc_word(t: str, depth: int) -> Word | None:
    """The full parser's :class:`Word` for a process substitution token ``<(…)``/``>(…)`` of the second fast path, or
    None when its body is left to the full parser (see :func:`_sub_word` for ``depth``)."""
    if depth + 1 >= MAX_DEPTH:
        return None
    inner = _fast_inner(t[2:-1], depth + 1)
    if inner is None:
        return None
    w = _new(Word)
    w.text = t[0] + "(…)"
    w.literal = False
    w.quoted = False
    w.qstart = -1
    w.subs = []
    w.procsubs = [(t[0], inner)]
    return w


def _fast_tree(text: str, depth: int = 0) -> Script | None:
    """The second fast path (see ``_X_WORD``): the full parser's tree, or None to leave the line to it. A command
    line may also be one such line with heredocs (``<<EOF``, ``<<'EOF'``, ``<<-EOF``) followed by their bodies and
    nothing but blank lines after them. ``depth`` is the nesting the full parser would read the line at (that of
    :func:`parse`), which its substitutions go one level deeper than."""
    nl = text.find("\n")
    line = text if nl < 0 else text[:nl]
    # cheap early declines: characters no token has (the line has no newline), ${…}, a {fd}> descriptor. (One
    # substring test per character: frozenset.isdisjoint(line) would look up every character of the line.)
    if (not line.isascii() or "\r" in line or "\f" in line or "\v" in line or "}>" in line or "}<" in line
            or "${" in line):
        return None
    if ("(" in line or ")" in line or "#" in line or "\\" in line) and not (
            "$(" in line or "`" in line or "<(" in line or ">(" in line) and (
            ("'" not in line and '"' not in line) or ("\\" in line and '"' in line)):
        # characters the tokenizer takes only inside quotes ('…' takes them all, "…" all but a backslash) or in a
        # substitution: without either, or in the likely case of a backslash near a double quote, they stand outside
        # them, a decline found here before the tokenizer tries every alternative at every character
        return None
    if nl < 0 and "<<" in line and "<<" in line.replace("<<<", ""):
        return None  # a heredoc without a body
    items: list = []
    background: list[int] = []
    commands: list = []
    pipes: list[str] = []
    cmd = None
    op = ""
    redirect = None  # (op, fd) waiting for its target word
    pending: list = []  # heredocs: (redirect, delimiter, strip tabs), bodies read after the line
    for amp_op, tok_op, proc, fd, fd_op, word, junk in _X_TOKEN.findall(line):
        if junk:
            return None
        if proc:
            w = _proc_word(proc, depth)
            if w is None:
                return None
            word = proc
        elif word:
            w = _sub_word(word, depth) if "$(" in word or "`" in word else _x_word(word)
            if w is None:
                return None
        if redirect is not None:
            if not word:
                return None  # a redirection without a word after it
            red = _new(Redirect)
            red.op, red.fd = redirect
            red.target = w
            if red.op == "<<" or red.op == "<<-":  # Parser.try_redirect's heredoc, its body read below
                red.body = ""
                red.body_quoted = w.quoted
                pending.append((red, w.text, red.op == "<<-"))
            else:
                red.body = w.text if red.op == "<<<" else None
                red.body_quoted = False
            cmd.redirects.append(red)
            redirect = None
            continue
        if amp_op or fd_op:
            if cmd is None:
                return None  # a command that starts with a redirection
            redirect = (amp_op or fd_op, fd or None)
            continue
        if word:
            if cmd is None:
                if word in _FAST_RESERVED:
                    return None
                cmd = _new(Simple)
                cmd.assigns = []
                cmd.words = []
                cmd.redirects = []
            if not cmd.words:  # NAME=value before the first word (Parser.parse_simple's test, verbatim)
                eq = w.text.find("=")
                if w.quoted and 0 <= w.qstart <= eq:
                    eq = -1
                name = w.text[:eq].rstrip("+")
                if eq > 0 and name.replace("_", "a").isalnum() and not name[0].isdigit():
                    value = _new(Word)
                    value.text = w.text[eq + 1:]
                    value.literal = w.literal
                    value.quoted = w.quoted
                    value.subs = w.subs
                    value.procsubs = w.procsubs
                    value.qstart = -1
                    cmd.assigns.append((name, value))
                    continue
            cmd.words.append(w)
            continue
        if cmd is None:
            return None
        if not cmd.words and not cmd.assigns:
            return None
        commands.append(cmd)
        cmd = None
        if tok_op == "|" or tok_op == "|&":
            pipes.append(tok_op)
            continue
        items.append((op if items else "", commands, pipes))
        if tok_op == "&":
            background.append(len(items) - 1)
        commands, pipes = [], []
        op = tok_op
    if redirect is not None:
        return None
    if cmd is not None:
        if not cmd.words and not cmd.assigns:
            return None
        commands.append(cmd)
    elif commands:
        return None  # trailing pipe
    if commands:
        items.append((op if items else "", commands, pipes))
    if nl >= 0:  # the bodies, as Parser.read_heredoc_body reads them at the newline, then only blank lines
        if not pending:
            return None
        i, n = nl + 1, len(text)
        for red, delim, strip_tabs in pending:
            lines: list[str] = []
            body = None
            while i < n:
                j = text.find("\n", i)
                if j < 0:
                    j = n
                body_line = text[i:j]
                i = min(j + 1, n)
                check = body_line.lstrip("\t") if strip_tabs else body_line
                if check == delim or check.rstrip("\r") == delim:
                    body = "\n".join(lines)
                    break
                lines.append(check if strip_tabs else body_line)
            red.body = "\n".join(lines) if body is None else body
        if text[i:].strip(" \t\n"):
            return None
    out: list = []
    for op, nodes, pipes in items:
        pipe = _new(Pipeline)
        pipe.commands = nodes
        pipe.pipes = pipes
        pipe.negated = False
        out.append((op, pipe))
    script = _new(Script)
    script.items = out
    script.background = set(background)
    return script


def parse(text: str, depth: int = 0, fast: bool = True) -> Script:
    """Parse a command line into a :class:`Script`. Never raises: on an internal error, falls back to a crude
    split on blanks and operators so that every word is still seen. (``fast=False``: the caller already knows
    :func:`fast_items` declines ``text``, so the fast path is not tried again.)"""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_INPUT:
        text = text[:MAX_INPUT]
    if len(text) < FAST_MAX:
        script = _fast_parse(text) if fast else None
        if script is None:
            script = _fast_tree(text, depth)
        if script is not None:
            return script
    try:
        p = _Parser(text, depth)
        script = p.parse_list()
        if p.pending:  # heredoc with no body (no newline after the command)
            p.pending = []
        return script
    except (RecursionError, IndexError, ValueError, TypeError, AttributeError):  # pragma: no cover - safety net
        return _fallback(text)


def _fallback(text: str) -> Script:
    script = Script()
    for chunk in text.replace("&&", ";").replace("||", ";").replace("|", ";").replace("\n", ";").split(";"):
        words = [Word(t, literal="$" not in t and "`" not in t) for t in chunk.split()]
        if words:
            script.items.append((";" if script.items else "", Pipeline(commands=[Simple(words=words)])))
    return script


def iter_simple(script: Script):
    """Every simple command in ``script``, depth-first, including those inside compound commands and
    substitutions (for tests and quick scans)."""
    for _, pipe in script.items:
        for cmd in pipe.commands:
            yield from _iter_cmd(cmd)


def _iter_cmd(cmd: Command):
    if isinstance(cmd, Simple):
        yield cmd
        for w in [*cmd.words, *(v for _, v in cmd.assigns)]:
            for sub in w.subs:
                yield from iter_simple(sub)
            for _, sub in w.procsubs:
                yield from iter_simple(sub)
    else:
        for body in cmd.bodies:
            yield from iter_simple(body)
