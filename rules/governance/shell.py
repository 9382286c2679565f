"""A bash-grade shell parser in pure Python: what the agent's command would actually run, never raising.

The parser builds a small syntax tree (lists, pipelines, simple commands, compound commands) the way bash reads
a command line: quotes and escapes, ``&&`` ``||`` ``;`` ``|`` ``|&`` ``&`` and newlines, subshells and groups,
``$(…)`` and backticks, process substitution, redirections (``>file``, ``2>&1``, ``&>``), heredocs and
here-strings, ``if``/``for``/``while``/``until``/``case`` bodies and function definitions. Anything it cannot
make sense of is kept as literal text: :func:`parse` never raises, whatever the input.

Over 800 lines on purpose: it is one recursive-descent reader whose functions share the cursor and the word
rules (quoting, expansions, heredocs); split, each part would import the others back.
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe
from tiers.record import dataclass, field

#: deepest nesting of substitutions/groups we follow; deeper input is kept as text (and treated as opaque)
MAX_DEPTH = 48
#: longest command line parsed structurally; longer input is cut (the rest is still scanned as text)
MAX_INPUT = 200_000

_BLANKS = frozenset(" \t\r\f\v")
#: the characters :meth:`_Parser.skip_blanks` can move past (blanks, a backslash-newline, a comment); at any other
#: character it leaves the cursor where it is, so callers on a hot path test for these before calling it
_SKIPPABLE = frozenset(" \t\r\f\v\\#")
#: the characters a redirection can start with (:meth:`_Parser.try_redirect` returns None for any other)
_REDIRECT_START = frozenset("<>&0123456789{")
#: the characters at which :meth:`_Parser.parse_simple` does something else than read a word (an operator, a
#: closer, a redirection, a parenthesis)
_SIMPLE_SPECIAL = frozenset("\n;|&)}(") | _REDIRECT_START
#: the characters at which :meth:`_Parser.parse_list` sees an operator, a newline or a closer
_LIST_SPECIAL = frozenset("\n;)&|}")
#: the first characters of the keywords :meth:`_Parser.parse_command` looks for ({, [[, if, while, until, for,
#: select, case, function)
_KEYWORD_START = frozenset("{[iwufsc")
_WORD_BREAK = frozenset(" \t\r\f\v;&|<>()\n")
_PLAIN = re.compile(r"[^\s;&|<>()'\"\\$`]+")
_BARE = LazyRe(r"[^\s;&|<>()'\"\\$`]*")
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


_new = object.__new__


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
            if c in _LIST_SPECIAL:  # an operator, a newline or a closer; at any other character a pipeline starts
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
            if stops:  # (no stop word starts with a character of _LIST_SPECIAL: the order of the tests is free)
                w = self.peek_word()
                if w in stops:
                    break
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
        if self.i < n and s[self.i] in _SKIPPABLE:
            self.skip_blanks()
        while self.i < n and s[self.i] == "!" and (self.i + 1 == n or s[self.i + 1] in _BLANKS):
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
        # a keyword starts with one of these (a stop word only counts inside a compound command)
        w = self.peek_word() if stops or c in _KEYWORD_START else ""
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
                if s[i] == " " and (i + 1 == n or s[i + 1] not in _SKIPPABLE):
                    i = self.i = i + 1  # one blank between words (the commonest case): no call
                else:
                    self.skip_blanks()
                    i = self.i
            if i >= n:
                break
            c = s[i]
            if c in _SIMPLE_SPECIAL:  # the tests below look only at these characters: a word starts otherwise
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
                if eq > 0 and w.quoted and 0 <= w.qstart <= eq:
                    eq = -1
                if eq > 0:
                    name = w.text[:eq].rstrip("+")
                    if name.replace("_", "a").isalnum() and not name[0].isdigit():
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
        word = _new(Word)  # slot by slot (no generated __init__ frame)
        word.literal = True
        word.quoted = False
        word.subs = []
        word.procsubs = []
        word.qstart = -1
        plain = _PLAIN.match
        m = plain(s, i)
        if m is not None:
            j = m.end()
            if j >= n or s[j] in _WORD_BREAK:  # a plain word (the commonest): what the loop below makes of it
                self.i = j
                word.text = m.group()
                return word
        word.text = ""
        parts: list[str] = []
        start = i
        if m is not None:
            parts.append(m.group())
            i = m.end()
        elif s[i] in "<>" and i + 1 < n and s[i + 1] == "(":  # process substitution at word start
            direction = s[i]
            self.i = i + 2
            inner = self.nested_until(")")
            word.procsubs.append((direction, inner))
            word.literal = False
            word.text = direction + "(…)"
            return word
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


def parse(text: str, depth: int = 0) -> Script:
    """Parse a command line into a :class:`Script`. Never raises: on an internal error, falls back to a crude
    split on blanks and operators so that every word is still seen."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_INPUT:
        text = text[:MAX_INPUT]
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
