"""The tokenizer of a normalized memory line."""

from __future__ import annotations

from .memos import _memo
from .patterns import _NOT_PLAIN, _VERBOSE, _lazy


_TOKEN = _lazy(
    r"""
    (?P<url>https?://(?:(?:[^\s<>"'`)\].,;:!?]|[.,;:!?]++(?=[^\s<>"'`)\].,;:!?]))+|[.,;:!?](?=[.,;:!?]*+(?:[\s<>"'`)\]]|$))))
  | (?P<mail>(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+)
  | (?P<phone>\+\d[\d\s()-]{6,}\d)
  | (?P<iso>\d{4}-\d{2}-\d{2}(?:t\d{2}:\d{2}(?::\d{2})?(?:z|[+-]\d{2}:?\d{2})?)?)
  | (?P<time>(?<![\d.:])\d{1,2}:\d{2}(?![\d:]))
  | (?P<path>(?<![\w.*-])(?:[\w.*-]*\w|\.\w+)(?:/[\w.*-]*)+|\.{0,2}/[\w.*-]+(?:/[\w.*-]*)*)
  | (?P<flag>(?<![\w-])--?[a-z][\w-]*)
  | (?P<alnum>\d+[a-zа-я]\w*)
  | (?P<num>\d+(?:[.,]\d+)*(?:\.x)?\+?%?)
  | (?P<word>(?<![\w.])(?:[dmyдмг]{1,4}-[dmyдмг]{1,4}-[dmyдмг]{1,4}(?![\w-])|\.?\w+(?:'\w+)*(?:\.\w+)*))
  | (?P<punct>[;,.!?()\[\]]|(?<=\s)-(?=\s)|:(?=\s|$)|`)
    """,
    _VERBOSE,
)


# Linear on any line: a url is the longest run that does not end in closing marks, taken greedily with possessive
# mark runs (a lazy run re-reading the marks ahead at each character was the square of a run of dots), and a
# mail or path starts only where a run of its characters starts (one that fails at the run's start fails at every
# character of it: trying each was the square of ``a-a-a-…``, ``....``, ``****``).


class Token:
    """One token of a normalized line (a plain slotted class: a line makes dozens, and a frozen dataclass's
    ``__init__`` costs several times more)."""

    __slots__ = ("text", "kind", "start", "end", "code")

    def __init__(self, text: str, kind: str, start: int, end: int, code: bool = False) -> None:
        self.text = text
        self.kind = kind  # word url mail phone iso time path flag alnum num punct
        self.start = start
        self.end = end
        self.code = code

    def _key(self) -> tuple:
        return (self.text, self.kind, self.start, self.end, self.code)

    def __eq__(self, other: object) -> bool:
        return type(other) is Token and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Token(text={!r}, kind={!r}, start={!r}, end={!r}, code={!r})".format(*self._key())


def tokenize(text: str) -> list[Token]:
    """Tokens of an already normalized line; tokens inside `code spans` are flagged."""
    out: list[Token] = []
    in_code = False
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "word"
        t = m.group(0)
        if kind == "punct" and t == "`":
            in_code = not in_code
            continue
        if kind == "word" and t.endswith("'s"):
            t = t[:-2]
        if kind in {"url", "path"}:
            t = t.rstrip(".,;:!?")
        out.append(Token(t, kind, m.start(), m.end(), in_code))
    return out


def _chunk_tokens(ctx: str) -> tuple[tuple[str | None, str | None], ...]:
    """(text, kind) of the tokens of one space-free chunk of a plain line, seen with its context ``ctx`` (the chunk
    with the space before and after it, where the line has one); (None, None) for a backtick."""
    out = []
    for m in _TOKEN.finditer(ctx):
        kind = m.lastgroup or "word"
        t = m.group(0)
        if kind == "punct" and t == "`":
            out.append((None, None))
            continue
        if kind == "word" and t.endswith("'s"):
            t = t[:-2]
        if kind in {"url", "path"}:
            t = t.rstrip(".,;:!?")
        out.append((t, kind))
    return tuple(out)


_CLOSING = frozenset(".,;:!?")


def _tokens(norm: str, memo: dict | None = None) -> tuple[list[str], list[str], list[bool]]:
    """``tokenize(norm)`` as parallel lists of texts, kinds and code flags (the analysis needs no offsets); ``memo``
    holds the tokens of chunks seen before."""
    texts: list[str] = []
    kinds: list[str] = []
    codes: list[bool] = []
    in_code = False
    if "+" not in norm and _NOT_PLAIN.search(norm) is None:
        # A normalized line is chunks joined by single spaces. No _TOKEN alternative starts at or consumes a space
        # except a phone number (it needs a "+"), and every lookaround sees at most one character past the token:
        # so the line's tokens are its chunks' tokens, each chunk tokenized once with its own context (the space
        # or line edge on either side; at an edge `(?<=\s)-` and `(?=\s)` differ).
        # Two shapes need no pattern. A chunk of letters and digits that starts with a letter can only be one word
        # (every other alternative needs a digit first or a character such a chunk lacks); one of ASCII digits
        # only is one number. One closing mark after either is a token of its own (".", ",", ";", "!", "?", and
        # ":" before a space or the line's end).
        chunks = norm.split(" ")
        last = len(chunks) - 1
        if memo is None:
            memo = _memo(_chunk_tokens)
        for i, chunk in enumerate(chunks):
            core = chunk[:-1] if chunk[-1:] in _CLOSING else chunk
            if core.isalnum():
                if core[0].isalpha():
                    kind = "word"
                elif core.isascii() and core.isdigit():
                    kind = "num"
                else:
                    kind = None
                if kind is not None:
                    texts.append(core)
                    kinds.append(kind)
                    codes.append(in_code)
                    if core is not chunk:
                        texts.append(chunk[-1])
                        kinds.append("punct")
                        codes.append(in_code)
                    continue
            ctx = (" " + chunk if i else chunk) + " " if i < last else (" " + chunk if i else chunk)
            got = memo.get(ctx)
            if got is None:
                got = memo[ctx] = _chunk_tokens(ctx)
            for t, kind in got:
                if kind is None:
                    in_code = not in_code
                    continue
                texts.append(t)
                kinds.append(kind)
                codes.append(in_code)
        return texts, kinds, codes
    for t in tokenize(norm):
        texts.append(t.text)
        kinds.append(t.kind)
        codes.append(t.code)
    return texts, kinds, codes


def _clock_tokens(core: str) -> tuple | None:
    """The (text, kind) tokens of a chunk ``core`` of ASCII digits, a colon and ASCII digits ("22:00", "3658:00"),
    with a space, the line's edge or a closing mark other than ":" after it; None for any other core.

    _TOKEN reads such a core as a time when the first number has one or two digits and the second two (its
    lookbehind sees the space or edge before the chunk, its lookahead no digit or colon after it); else as two
    numbers (the colon, followed by a digit, is no token; a time cannot start after it)."""
    head, colon, tail = core.partition(":")
    if not (colon and head and tail and head.isascii() and head.isdigit() and tail.isascii() and tail.isdigit()):
        return None
    if len(head) <= 2 and len(tail) == 2:
        return ((core, "time"),)
    return ((head, "num"), (tail, "num"))


#: The texts of _TOKEN's punctuation tokens: no token of another kind has one of them (each of the other kinds
#: holds a word character, a "/" or a "@"), so a token with such a text is a punctuation mark.
_PUNCT_TEXTS = frozenset(";,.!?()[]-:`")
