"""Bilingual concept analysis of one memory line: what it is about, with which polarity, force and values.

Arbitration cannot compare words: "never deploy on Fridays" and «выкатывать релиз в конце рабочей недели —
нормально» share none. This module maps a line onto language-neutral *concept ids* from the lexicon in
``tiers/data/concepts.toml`` (EN and RU stems, phrases, tools grouped into slots, antonym pairs), splits it into
clauses, gives every concept the sign of its clause (negation and relaxation scope), records the clause's force
(obligation, permission, relaxation, prohibition, plain assertion), and extracts slot values (timezones, names,
times, dates, URLs, versions, branch names, tools). ``tiers.arbitrate`` compares two analyses.

Everything is deterministic, local and loaded lazily on first use.
"""

from __future__ import annotations

import functools
import unicodedata
from functools import reduce
from operator import itemgetter, or_
from pathlib import Path
import re

from .record import dataclass, field
from .text import normalize, normalize_nfc, strip_markup

# Patterns are compiled by the stdlib `re` on first use (a line compiles only the patterns it needs); `\p{Lu}` and
# `\p{Ll}`, which `re` lacks, are spelt out as classes of the letters below U+2040 (Latin, Greek, Cyrillic).
_NOT_PLAIN = re.compile(
    "[^\x00-\x1b\x20-\xb1\xb4-\xb8\xba\xbb\xbf-\u012f\u0132-\u017e\u0180-\u024f\u0400-\u0482"
    "\u048a-\u04ff\u2010-\u2027\u2030-\u203e\u20a0-\u20bf]")


def _plain(text: str) -> bool:
    """No character of ``text`` is outside the plain set (Latin, basic Cyrillic, common punctuation): the tokenizer
    then splits the line into chunks it prepares once per distinct chunk."""
    return text.isascii() and text.isprintable() or _NOT_PLAIN.search(text) is None


_VERBOSE = re.VERBOSE


def _re_source(pattern: str) -> str:
    """The pattern for `re`: Unicode property classes spelt out."""
    if "\\p{" not in pattern:
        return pattern
    return pattern.replace("\\p{Lu}", _category_class("Lu")).replace("\\p{Ll}", _category_class("Ll"))


@functools.lru_cache(maxsize=None)
def _category_class(cat: str) -> str:
    chars = [chr(c) for c in range(0x2040) if unicodedata.category(chr(c)) == cat]
    return "[" + "".join(re.escape(c) for c in chars) + "]"


class _LazyRe:
    """A pattern compiled by `re` on first use."""

    __slots__ = ("_source", "_flags", "_re")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._re = None

    def on(self, plain: bool = True):
        """The compiled pattern."""
        rx = self._re
        if rx is None:
            rx = self._re = re.compile(_re_source(self._source), self._flags)
        return rx

    def match(self, text: str, *args):
        return self.on().match(text, *args)

    def fullmatch(self, text: str, *args):
        return self.on().fullmatch(text, *args)

    def search(self, text: str, *args):
        return self.on().search(text, *args)

    def finditer(self, text: str, *args):
        return self.on().finditer(text, *args)

    def findall(self, text: str, *args):
        return self.on().findall(text, *args)

    def split(self, text: str, maxsplit: int = 0):
        return self.on().split(text, maxsplit=maxsplit)

    def sub(self, repl, text: str, count: int = 0):
        return self.on().sub(repl, text, count=count)


def _lazy(source: str, flags: int = 0) -> _LazyRe:
    return _LazyRe(source, flags)


class _LazyStd:
    """A stdlib `re` pattern compiled on first use, for the literal tests below (same on every text)."""

    __slots__ = ("_source", "_rx")

    def __init__(self, source: str) -> None:
        self._source = source
        self._rx = None

    def search(self, text: str):
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self._source)
        return rx.search(text)

__all__ = ["Analysis", "Clause", "Lexicon", "analyze", "lexicon", "weight"]

DATA = Path(__file__).with_name("data") / "concepts.toml"

KIND_WEIGHT = {
    "action": 1.5,
    "object": 1.2,
    "value": 1.6,
    "slot": 0.9,
    "qualifier": 1.0,
    "generic": 0.3,
    "lexical": 1.0,
}
#: Broader concepts (a parent evoked through [broader]) count for less than the word itself.
BROADER_FACTOR = 0.7

MARKER_TYPES = (
    "NEG", "NEG_LOCAL", "PERMIT", "RELAX", "OBLIGE", "ONLY", "UNIVERSAL", "INDIFF", "HEDGE", "MENTION", "PAST",
    "FUTURE_PLAN", "USER_MARKER",
)

_STOP = frozenset(
    """
    a an the and or of to in on at for from by with into onto as is are be been being it its this that these those
    there here we our us you your i he she they them their his her its was were will would should can could
    than then so such very just also too either even via per about over under up down out off if when while
    what which who whom whose how why all any some more most other another each both same own one two three
    и в во на с со к ко по о об от до за из у же ли бы то это этот эта эти тот та те как так что чтобы
    а но или да его ее её их мы вы он она они оно там тут здесь уже еще ещё очень при для про над под
    через после перед без всё все всех весь вся быть есть был была были будет который которая которые
    свой своя свои себе себя мне меня мой моя мои нам нас наш наша наши
    """.split()
)

_EN_PAST_FIRST = _lazy(r"^[a-z]{3,}ed$")
_RU_PAST = _lazy(r"^[а-я]{3,}(?:ил|ел|ал|ял|ил[аио]|ел[аио]|ал[аио]|ял[аио]|ался|ался|ился|ились|ались|алась|илась)$")
_RU_PARTICIPLE = _lazy(r"^(?:за|на|до|пере|от|об|вы|у|под|про|с|раз)?[а-я]{3,}(?:ован|ирован|ен|ан|ян)[аоы]?$")

# Cheap tests that run before a pattern (so a line compiles only the patterns it can match). Each is a superset
# of the pattern's matches.


def _en_past(w: str) -> bool:
    """``^[a-z]{3,}ed$``."""
    return len(w) >= 5 and w.endswith("ed") and w.isascii() and w.isalpha() and w.islower()


def _ru_past(w: str) -> bool:
    return len(w) >= 5 and "а" <= w[0] <= "я" and w[-1] in "лаиояь" and bool(_RU_PAST.match(w))


def _ru_participle(w: str) -> bool:
    return len(w) >= 5 and "а" <= w[0] <= "я" and w[-1] in "наоы" and bool(_RU_PARTICIPLE.match(w))


def _cyrillic_first(text: str) -> bool:
    """The text starts with a Cyrillic letter."""
    ch = text[:1]
    return "\u0400" <= ch <= "\u052f" or (ch > "\u052f" and "CYRILLIC" in unicodedata.name(ch, ""))


def _may_have_digit(text: str) -> bool:
    r"""False only when ``\d`` cannot match in ``text``."""
    return any(map(str.isdigit, text))


def _may_have_upper(text: str) -> bool:
    r"""False only when ``\p{Lu}`` cannot match in ``text``."""
    if text.isascii():  # A-Z, the only ASCII upper case, are the only characters lower() changes (in C)
        return text.lower() != text
    return any(map(str.isupper, text))


_PRESENT_AUX = frozenset({"is", "are", "be", "get", "gets", "getting", "stays", "stay", "remain", "remains", "been",
                          "being", "must", "should", "will", "can", "may", "to", "needs", "need", "keep", "keeps"})
_NOT_SUBJECT = frozenset({"a", "an", "the", "all", "any", "no", "never", "only", "always", "for", "on", "in", "with",
                          "without", "by", "of", "from", "at", "not", "don't", "do", "does", "please"})
_AUX_OR_NOT_SUBJECT = _PRESENT_AUX | _NOT_SUBJECT
_RU_PAST_NOT = frozenset({"правила", "файла", "сигнала", "начала", "стола", "масла", "числа", "дела", "тела", "села"})

_TOKEN = _lazy(
    r"""
    (?P<url>https?://[^\s<>"'`)\]]+?(?=[.,;:!?]*(?:[\s<>"'`)\]]|$)))
  | (?P<mail>[\w.+-]+@[\w-]+\.[\w.-]+)
  | (?P<phone>\+\d[\d\s()-]{6,}\d)
  | (?P<iso>\d{4}-\d{2}-\d{2}(?:t\d{2}:\d{2}(?::\d{2})?(?:z|[+-]\d{2}:?\d{2})?)?)
  | (?P<time>(?<![\d.:])\d{1,2}:\d{2}(?![\d:]))
  | (?P<path>(?:[\w.*-]*\w|\.\w+)(?:/[\w.*-]*)+|\.{0,2}/[\w.*-]+(?:/[\w.*-]*)*)
  | (?P<flag>(?<![\w-])--?[a-z][\w-]*)
  | (?P<alnum>\d+[a-zа-я]\w*)
  | (?P<num>\d+(?:[.,]\d+)*(?:\.x)?\+?%?)
  | (?P<word>(?<![\w.])\.?\w+(?:'\w+)*(?:\.\w+)*)
  | (?P<punct>[;,.!?()\[\]]|(?<=\s)-(?=\s)|:(?=\s|$)|`)
    """,
    _VERBOSE,
)

_TZ = _lazy(
    r"^(?:africa|america|antarctica|asia|atlantic|australia|europe|indian|pacific|etc)/[a-z_+-]+(?:/[a-z_]+)?$"
)
_NUM_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
              "eight": "8", "nine": "9", "ten": "10", "один": "1", "одна": "1", "одно": "1", "одного": "1",
              "одном": "1", "одной": "1", "одну": "1", "два": "2", "две": "2", "двух": "2", "двум": "2", "три": "3", "трех": "3", "четыре": "4", "пять": "5",
              "шесть": "6", "семь": "7", "восемь": "8", "девять": "9", "десять": "10", "single": "1",
              "double": "2", "twice": "2", "once": "1"}
_CITY_TZ = {"moscow": "europe/moscow", "москв": "europe/moscow", "московск": "europe/moscow",
            "berlin": "europe/berlin", "берлин": "europe/berlin", "london": "europe/london",
            "лондон": "europe/london", "paris": "europe/paris", "lisbon": "europe/lisbon", "kyiv": "europe/kyiv",
            "киев": "europe/kyiv", "tokyo": "asia/tokyo", "warsaw": "europe/warsaw", "riga": "europe/riga",
            "new york": "america/new_york", "pacific": "america/los_angeles", "eastern": "america/new_york",
            "tbilisi": "asia/tbilisi", "тбилис": "asia/tbilisi", "yerevan": "asia/yerevan"}
_CITY_TIME = _lazy(
    r"\b(moscow|berlin|london|paris|lisbon|kyiv|tokyo|warsaw|riga|new york|pacific|eastern|tbilisi|yerevan)\s+time\b"
    r"|\b(?:по\s+)?(московск|берлинск|лондонск|киевск|тбилисск)\w*\s+времен\w*"
    r"|\bпо\s+(москв|берлин|лондон|киев|тбилис)\w*"
    r"|\b(msk|мск)\b")
#: Every match of _CITY_TIME holds one of these (the «по …» alternative a city stem).
_CITY_TIME_NEEDS = ("time", "времен", "msk", "мск", "москв", "берлин", "лондон", "киев", "тбилис")
_TZ_ABBR = frozenset({"utc", "gmt", "cet", "cest", "eet", "eest", "wet", "west", "msk", "est", "edt", "pst", "pdt",
                      "cst", "cdt", "mst", "mdt", "bst", "ist", "jst", "aest"})
_OFFSET = _lazy(r"(?:utc|gmt)\s?([+-]\s?\d{1,2})(?::?(\d{2}))?|(?<=\d)([+-]\d{2}):?(\d{2})\b")
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
    "nov": 11, "dec": 12, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
    "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}
_DATE_MD = _lazy(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\b(?!:)")
_DATE_DM = _lazy(
    r"\b(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя|дек)[a-zа-я]*\b"
)
_DATE_DOT = _lazy(r"(?<![\d.])(\d{1,2})\.(\d{1,2})(?:\.(\d{2,4}))?(?![\d.])")
_NAME_TRIGGER = _lazy(
    r"(?i)\b(?:call\s+me|call\s+(?:the\s+user|him|her|them)|address\s+(?:me|the\s+user|him|her|them)\s+as|"
    r"refer\s+to\s+(?:me|the\s+user|him|her)\s+as|my\s+name\s+is|name\s*:|"
    r"зови(?:те)?\s+меня|называй(?:те)?\s+меня|обращаться\s+к\s+(?:пользователю|нему|ней|мне)\s*:?|"
    r"обращайся\s+ко\s+мне|(?:меня|его|её|ее)\s+зовут|(?:his|her)\s+name\s+is|имя\s*:|обращение\s*:)"
)
_NAME_NOT_ADDRESS = _lazy(r"(?i)(?:my\s+name|his\s+name|her\s+name|name\s*:|имя|(?:меня|его|её|ее)\s+зовут)")
_NAME_END = _lazy(r"[.;(\n,]|\s(?:and|but|и|но)\s")
_NAME_NOT = _lazy(r"\s*[,;]?\s*(?:not|не|instead\s+of|вместо)\s+([A-ZА-ЯЁ][\w'-]+)")
_ISO_OFFSET = _lazy(r"t\d{2}:\d{2}(?::\d{2})?(z|[+-]\d{2}:?\d{2})$")
_AIRPORT = _lazy(r"\(([A-Z]{3})\)")
_NAME = _lazy(r"(?<![\w])(?:(not|не|instead\s+of|вместо)\s+)?([A-ZА-ЯЁ][\w'-]+(?:\s+[A-ZА-ЯЁ][\w'-]+){0,2})")

_BOUNDARY_WORDS = {
    ("but",), ("however",), ("so",), ("because",), ("since",), ("while",), ("when",), ("once",), ("if",),
    ("although",), ("though",), ("even", "though"), ("whereas",), ("so", "that"), ("а",), ("но",), ("однако",),
    ("так", "что"), ("потому", "что"), ("поскольку",), ("чтобы",), ("если",), ("когда",), ("хотя",),
    ("as", "soon", "as"), ("after",), ("unless",), ("only", "if"), ("except", "when"), ("except", "if"),
    ("если", "только"), ("только", "если"), ("кроме", "случаев"), ("разве", "что"),
}
#: First words of the boundaries (only a token among them can start one).
_BOUNDARY_FIRST = frozenset(w[0] for w in _BOUNDARY_WORDS)
_EXCEPTION_WORDS = {("unless",), ("only", "if"), ("except", "when"), ("except", "if"), ("если", "только"),
                    ("только", "если"), ("кроме", "случаев"), ("разве", "что")}
_ANY = frozenset({"any", "whatever", "любой", "любом", "любые", "любую", "любых", "угодно"})
_WORKS = frozenset({"works", "work", "do", "does", "fits", "suits", "подойдет", "подойдут", "подходит", "подходят",
                    "годится", "сойдет", "устроит"})
_NEEDED = frozenset({"needed", "required", "necessary", "нужен", "нужна", "нужно", "нужны", "требуется"})
_CONTINUE = frozenset({"even", "including", "especially", "даже", "включая", "особенно", "в том числе"})
_COORD = frozenset({"and", "or", "nor", "и", "или", "ни", "&"})
_DAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
DAY_GROUPS = {"WEEKDAY": frozenset(_DAYS[:5]), "WEEKEND": frozenset(_DAYS[5:])}
for _d in _DAYS:
    DAY_GROUPS[_d] = frozenset({_d})


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


class Lexicon:
    """The compiled concept lexicon: pattern tables for content concepts and for function-word markers."""

    def __init__(self, data: dict) -> None:
        self.kind: dict[str, str] = {}
        self.weights: dict[str, float] = {}
        self._wcache: dict[str, float] = {}
        self._xcache: dict[str, tuple[str, ...]] = {}
        self.broader: dict[str, tuple[str, ...]] = {}
        self.slot_of: dict[str, str] = {}
        self.antonym: dict[str, str] = {}
        self.content: dict[str, list[tuple[tuple[tuple[str, bool], ...], tuple[str, ...]]]] = {}
        self.content_prefix: dict[str, list] = {}
        self.marker: dict[str, list] = {}
        self.marker_prefix: dict[str, list] = {}
        for kind in ("action", "object", "qualifier", "generic"):
            for cid, pats in data.get(kind, {}).items():
                self.kind.setdefault(cid, kind)
                self._add(self.content, self.content_prefix, pats, (cid,))
        for slot, table in data.get("slot", {}).items():
            self.kind.setdefault(slot, "slot")
            for cid, pats in table.items():
                if cid == slot:
                    self._add(self.content, self.content_prefix, pats, (slot,))
                    continue
                self.kind[cid] = "value"
                self.slot_of[cid] = slot
                self._add(self.content, self.content_prefix, pats, (cid,))
        for name, pats in data.get("marker", {}).items():
            self._add(self.marker, self.marker_prefix, pats, (name,))
        for cid, parents in data.get("broader", {}).items():
            self.broader[cid] = tuple(parents)
            for p in parents:
                self.kind.setdefault(p, "object")
        for a, b in data.get("antonyms", {}).get("pairs", []):
            self.antonym[b] = a
        self.weights.update({k: float(v) for k, v in data.get("weights", {}).items()})

    @staticmethod
    def _pattern(text: str) -> tuple[tuple[str, bool], ...]:
        elems: list[tuple[str, bool]] = []
        for part in text.split():
            star = part.endswith("*")
            toks = [t.text for t in tokenize(normalize(part.rstrip("*"))) if t.kind != "punct"]
            if not toks:
                continue
            for i, t in enumerate(toks):
                elems.append((t, star and i == len(toks) - 1))
        return tuple(elems)

    def _add(self, exact: dict, prefix: dict, patterns: list[str], ids: tuple[str, ...]) -> None:
        for text in patterns:
            pat = self._pattern(text)
            if not pat:
                continue
            first, is_prefix = pat[0]
            table = prefix if is_prefix else exact
            table.setdefault(first, []).append((pat, ids))

    def weight(self, cid: str) -> float:
        w = self._wcache.get(cid)
        if w is None:
            w = self.weights.get(cid)
            if w is None:
                w = KIND_WEIGHT["lexical"] if cid.startswith("w:") else KIND_WEIGHT.get(self.kind.get(cid, "object"), 1.0)
            if len(self._wcache) < 100_000:
                self._wcache[cid] = w
        return w

    def expand(self, cid: str) -> tuple[str, ...]:
        """Parents of a concept (transitively), not including itself."""
        got = self._xcache.get(cid)
        if got is not None:
            return got
        out: list[str] = []
        stack = list(self.broader.get(cid, ()))
        while stack:
            p = stack.pop()
            if p not in out:
                out.append(p)
                stack.extend(self.broader.get(p, ()))
        got = self._xcache[cid] = tuple(out)
        return got

    def canon(self, cid: str) -> tuple[str, int]:
        """Antonym canonicalization: ``HTTP`` -> (``HTTPS``, -1)."""
        a = self.antonym.get(cid)
        return (a, -1) if a else (cid, 1)


#: The lexicon tables built from ``concepts.toml``, shipped beside it as JSON (``json`` parses in C; ``tomllib`` and
#: the pattern tokenizer cost a fresh process ~80 ms). Regenerate with ``python -m tiers.concepts --build`` after
#: editing the TOML; a test checks the file against a fresh build, and a stale file is ignored at run time.
BUILT = DATA.with_name("concepts.built.json")
_BUILD_VERSION = 1
_LEXICON_FIELDS = ("kind", "weights", "broader", "slot_of", "antonym", "content", "content_prefix", "marker",
                   "marker_prefix")


def blake2b(data: bytes = b"", *, digest_size: int):
    import hashlib

    return hashlib.blake2b(data, digest_size=digest_size)


def _data_digest(data: bytes) -> str:
    return blake2b(data + f"|{_BUILD_VERSION}".encode(), digest_size=12).hexdigest()


_PATTERN_TABLES = ("content", "content_prefix", "marker", "marker_prefix")


def _encode_entries(entries: list) -> str:
    """One pattern table's entries for a first token as a string: JSON parses one string far faster than nested
    lists, and a process decodes only the entries of the tokens its lines hold."""
    return "\x1e".join("\x1f".join(t + ("\x01" if star else "") for t, star in pat) + "\x1d" + "\x1f".join(ids)
                       for pat, ids in entries)


def _decode_entries(text: str) -> list:
    out = []
    for entry in text.split("\x1e"):
        pat, ids = entry.split("\x1d")
        out.append((tuple((t[:-1], True) if t.endswith("\x01") else (t, False) for t in pat.split("\x1f")),
                    tuple(ids.split("\x1f"))))
    return out


def _lexicon_state(lx: Lexicon) -> dict:
    """The built tables as JSON-ready values (pattern tables in their string form)."""
    state = {k: getattr(lx, k) for k in _LEXICON_FIELDS}
    for k in _PATTERN_TABLES:
        state[k] = {first: _encode_entries(entries) if not isinstance(entries, str) else entries
                    for first, entries in state[k].items()}
    return state


def _load_built(data: bytes) -> Lexicon | None:
    import json

    try:
        built = json.loads(BUILT.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(built, dict) or built.get("digest") != _data_digest(data):
        return None  # absent or stale: built from the TOML
    tables = built.get("tables")
    if not isinstance(tables, dict) or set(tables) != set(_LEXICON_FIELDS):
        return None
    lx = Lexicon.__new__(Lexicon)
    for k in _LEXICON_FIELDS:
        setattr(lx, k, tables[k])  # pattern tables keep their string form until a token needs them
    lx._wcache = {}
    lx._xcache = {}
    return lx


def write_built(path: Path | None = None) -> Path:
    """Build the lexicon from the TOML and write the shipped JSON tables (a development step)."""
    import json

    data = DATA.read_bytes()
    import tomllib

    lx = Lexicon(tomllib.loads(data.decode("utf-8")))
    out = path or BUILT
    out.write_text(json.dumps({"digest": _data_digest(data), "tables": _lexicon_state(lx)}, ensure_ascii=False,
                              separators=(",", ":")) + "\n", encoding="utf-8")
    return out


@functools.lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    with open(DATA, "rb") as fh:
        data = fh.read()
    lx = _load_built(data)
    if lx is None:
        import tomllib

        lx = Lexicon(tomllib.loads(data.decode("utf-8")))
    return lx


def weight(cid: str) -> float:
    return lexicon().weight(cid)


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


def _entries(table: dict, key: str) -> list:
    """The (pattern, ids) entries of ``table`` for a first token, decoded from the shipped form on first use."""
    lst = table.get(key)
    if lst.__class__ is str:
        lst = table[key] = _decode_entries(lst)
    return lst


def _patterns_for(t: str, exact: dict, prefix: dict, memo: dict) -> list:
    """Every pattern whose first element can match token text ``t``: exact ones, then prefixes longest first."""
    cands = memo.get(t)
    if cands is None:
        cands = list(_entries(exact, t) or ())
        get = prefix.get
        for n in range(len(t), 1, -1):
            lst = get(t[:n])  # _entries(prefix, t[:n]), without a call for each prefix that has none
            if lst:
                cands.extend(_entries(prefix, t[:n]) if lst.__class__ is str else lst)
        if len(memo) >= 100_000:
            memo.clear()
        memo[t] = cands
    return cands


def _match_at(tokens: list[Token], i: int, exact: dict, prefix: dict, skip_code: bool) -> tuple[int, set[str]]:
    """Longest pattern starting at token i: (length, ids). Exact first elements beat prefix ones of equal length."""
    tok = tokens[i]
    if tok.kind == "punct" or (skip_code and tok.code):
        return 0, set()
    best_len, best_ids, best_exact = 0, set(), False
    memo = _PATTERN_MEMO.get(id(prefix))
    if memo is None or memo[0] is not prefix:
        memo = _PATTERN_MEMO[id(prefix)] = (prefix, {})
    cands = _patterns_for(tok.text, exact, prefix, memo[1])
    for pat, ids in cands:
        n = len(pat)
        if i + n > len(tokens):
            continue
        ok = True
        for k, (el, is_prefix) in enumerate(pat):
            tk = tokens[i + k]
            if tk.kind == "punct" or (skip_code and tk.code):
                ok = False
                break
            if is_prefix:
                if not tk.text.startswith(el):
                    ok = False
                    break
            elif tk.text != el:
                ok = False
                break
        if not ok:
            continue
        is_exact = not pat[-1][1]
        if n > best_len or (n == best_len and is_exact and not best_exact):
            best_len, best_ids, best_exact = n, set(ids), is_exact
        elif n == best_len and is_exact == best_exact:
            best_ids |= set(ids)
    return best_len, best_ids


#: id(owner) -> (owner, memo): for each prefix table, token text -> candidate patterns; for the owners of _memo(),
#: their memos. The owner is kept so an id is never reused.
_PATTERN_MEMO: dict[int, tuple[dict, dict]] = {}


def _scan(tokens: list[Token], exact: dict, prefix: dict, skip_code: bool) -> list[tuple[int, int, set[str]]]:
    out = []
    i = 0
    memo = _PATTERN_MEMO.get(id(prefix))
    if memo is None or memo[0] is not prefix:
        memo = _PATTERN_MEMO[id(prefix)] = (prefix, {})
    known = memo[1]
    while i < len(tokens):
        if not known.get(tokens[i].text, True):
            i += 1  # no pattern starts with this token (most words): nothing to try
            continue
        n, ids = _match_at(tokens, i, exact, prefix, skip_code)
        if n:
            out.append((i, i + n, ids))
            i += n
        else:
            i += 1
    return out


_RU_ENDING = _lazy(
    r"(?:ами|ями|ого|его|ому|ему|ыми|ими|ешь|ете|ишь|ите|ем|ет|ут|ют|ат|ят|им|ит|ам|ям|ах|ях|ов|ев|ей|ой|ый|ий|"
    r"ая|яя|ое|ее|ые|ие|ую|юю|ом|а|я|о|е|ы|и|у|ю|ь)$")


def _stem(word: str) -> str:
    if "a" <= word[:1] <= "z":
        for suf in ("ing", "ed", "es", "s"):
            if len(word) > len(suf) + 3 and word.endswith(suf):
                word = word[: -len(suf)]
                break
        return word[:8]
    m = _RU_ENDING.search(word)
    if m and m.start() >= 3:
        word = word[:m.start()]  # «живём»/«живёт» -> «жив…»: inflection off before the cut
    return word[:6] if len(word) > 6 else word


def _weight_and_content(lx: Lexicon, cid: str) -> tuple[float, bool, float]:
    """A concept's weight, whether it counts as clause content (not generic, not a slot name), and its weight as a
    broader concept (times BROADER_FACTOR)."""
    w = lx.weight(cid)
    return w, lx.kind.get(cid) not in ("generic", "slot"), w * BROADER_FACTOR


@dataclass(slots=True)
class Clause:
    """One clause: its concepts with signs (+1 asserted, -1 denied), force, markers and values."""

    start: int
    end: int
    signs: dict[str, int] = field(default_factory=dict)  # canonical concept -> sign (0 when mixed)
    direct: set[str] = field(default_factory=set)  # concepts named by the words themselves (canonical)
    raw: set[str] = field(default_factory=set)  # concepts as matched, before antonym folding
    antonymic: set[str] = field(default_factory=set)  # canonical ids reached through an antonym
    markers: set[str] = field(default_factory=set)
    force: str = "assert"  # oblige | permit | relax | prohibit | indiff | assert
    exception: bool = False
    only_targets: set[str] = field(default_factory=set)
    has_only: bool = False
    negated_direct: set[str] = field(default_factory=set)
    local_neg: set[str] = field(default_factory=set)  # denied by "without"/«без» only: the focus of the clause
    soft: set[str] = field(default_factory=set)  # named before the clause's negation: context more than core
    values: list[tuple[str, str, int]] = field(default_factory=list)  # (slot, value, sign)
    #: concept -> weight in this clause (parents reached through [broader] and context words count for less)
    wmap: dict[str, float] = field(default_factory=dict)
    #: the content concepts (not generic, not slot names) and their total weight
    content: tuple[str, ...] = ()
    content_total: float = 0.0
    cov_w: dict[str, float] = field(default_factory=dict)

    def finish(self, memo: dict | None = None) -> None:
        """Weights and content of the clause; ``memo``: concept -> _weight_and_content (the lexicon's line memo,
        when the caller holds it)."""
        if memo is None:
            memo = _line_memos(lexicon())[8]
        direct, soft, wmap = self.direct, self.soft, self.wmap
        # For coverage, one of a pair of opposites is the evaluative core of the clause and weighs more (x1.5; the
        # others x1.0, which leaves a float as it is).
        antonymic = self.antonymic
        cov_w = {}  # keyed by the content concepts, in order
        for c in self.signs:
            got = memo.get(c)
            if got is None:
                got = memo[c] = _weight_and_content(lexicon(), c)
            w = got[0] if c in direct else got[2]
            if soft and c in soft:
                w *= 0.5
            wmap[c] = w
            if got[1]:
                cov_w[c] = w * 1.5 if antonymic and c in antonymic else w
        self.content = tuple(cov_w)
        self.cov_w = cov_w
        self.content_total = sum(cov_w.values())


@dataclass(slots=True)
class Analysis:
    """A memory line seen by the arbitration layer."""

    text: str
    clauses: list[Clause]
    concepts: frozenset[str]  # every canonical concept of the line (incl. broader and slot ids)
    markers: frozenset[str]
    values: list[tuple[str, str, int]]
    hedged: bool
    report: bool
    mention: bool
    universal: bool
    indiff: bool

    @property
    def index_keys(self) -> frozenset[str]:
        lx = lexicon()
        return frozenset(c for c in self.concepts if lx.kind.get(c) != "generic")


_object_new = object.__new__


def _new_clause(start: int, end: int, exception: bool) -> Clause:
    """``Clause(start, end, exception=exception)``, every field set here (the generated ``__init__`` costs a line
    more: keyword handling and a call per default factory)."""
    cl = _object_new(Clause)
    cl.start = start
    cl.end = end
    cl.signs = {}
    cl.direct = set()
    cl.raw = set()
    cl.antonymic = set()
    cl.markers = set()
    cl.force = "assert"
    cl.exception = exception
    cl.only_targets = set()
    cl.has_only = False
    cl.negated_direct = set()
    cl.local_neg = set()
    cl.soft = set()
    cl.values = []
    cl.wmap = {}
    cl.content = ()
    cl.content_total = 0.0
    cl.cov_w = {}
    return cl


def _new_analysis(text: str, clauses: list[Clause], concepts: frozenset[str], markers: frozenset[str],
                  values: list, hedged: bool, report: bool, mention: bool, universal: bool, indiff: bool) -> Analysis:
    """``Analysis(...)`` of these fields, set without the generated ``__init__``."""
    a = _object_new(Analysis)
    a.text = text
    a.clauses = clauses
    a.concepts = concepts
    a.markers = markers
    a.values = values
    a.hedged = hedged
    a.report = report
    a.mention = mention
    a.universal = universal
    a.indiff = indiff
    return a


# ---------------------------------------------------------------------------------------------------------------
# The per-line analysis. A line has ~10 tokens, most of them ordinary words that only the pattern scan and the
# concept loop care about. So what depends on a token's text alone (its flags, pattern candidates, stem, date
# shapes) or on a concept id alone (kind, parents, antonym) is computed once per distinct text or id, and each
# per-token stage visits only the tokens whose flags say it can do something.
# ---------------------------------------------------------------------------------------------------------------

def _memo(owner: object) -> dict:
    """The content memo belonging to ``owner`` (a lexicon table, or the function whose results it holds).

    All of them live in _PATTERN_MEMO, which the lint benchmark's forget_memos() clears with the rest."""
    got = _PATTERN_MEMO.get(id(owner))
    if got is None or got[0] is not owner:
        got = _PATTERN_MEMO[id(owner)] = (owner, {})
    elif len(got[1]) >= 100_000:
        got[1].clear()
    return got[1]


def _line_memos(lx: Lexicon) -> tuple[dict, dict, dict, dict, dict, dict, dict, dict, dict]:
    """The memos of the per-line analysis, fetched once per line: chunk tokens, text infos, concept infos, lexical
    ids, marker and content pattern entries, then the chunk records of _line_tokens (by chunk, by chunk in its
    context) and each concept's _weight_and_content, all tied to the lexicon they were built from."""
    got = _PATTERN_MEMO.get(id(lx))
    if got is None or got[0] is not lx:
        got = _PATTERN_MEMO[id(lx)] = (lx, ({}, {}, {}, {}, {}, {}, {}, {}, {}))
    memos = got[1]
    if max(map(len, memos)) >= 100_000:
        for m in memos:
            if len(m) >= 100_000:
                m.clear()
    return memos


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


# Bits of a token's kind, ORed into its text flags in the per-token list of _line_tokens (never in _text_info's):
# with them a stage selects its tokens by one mask.
_K_VALUE_KIND = 64  # kind in _VALUE_KINDS
_K_LEXICAL = 4  # a lexical fallback can name it: kind not in _NOT_LEXICAL, and not a _F_STOP word


def _kind_bits(kind: str, f: int) -> int:
    """The kind bits of a token of ``kind`` whose text has flags ``f``."""
    bits = 0
    if kind in _VALUE_KINDS:
        bits |= _K_VALUE_KIND
    if kind not in _NOT_LEXICAL and not (kind == "word" and f & _F_STOP):
        bits |= _K_LEXICAL
    return bits


#: A chunk that _fast_chunk cannot take: it is tokenized with its context.
_IN_CONTEXT = ()


def _chunk_record(toks, tmemo: dict, lx: Lexicon) -> tuple:
    """What _line_tokens adds for one chunk, from its (text, kind) tokens ((None, None): a backtick): texts, kinds,
    _token_infos, per-token flags (text flags | kind bits), their OR, the code flags of the tokens when the chunk
    starts outside a code span and when it starts inside one, and whether the chunk toggles the code span."""
    texts, kinds, infos, flags, outside, inside = [], [], [], [], [], []
    toggled = False
    line_f = 0
    for t, kind in toks:
        if kind is None:
            toggled = not toggled
            continue
        info = tmemo.get(t) or _token_info(t, lx, tmemo)
        f = info[0] | _kind_bits(kind, info[0])
        texts.append(t)
        kinds.append(kind)
        infos.append(info)
        flags.append(f)
        outside.append(toggled)
        inside.append(not toggled)
        line_f |= f
    return (tuple(texts), tuple(kinds), tuple(infos), tuple(flags), line_f, tuple(outside), tuple(inside), toggled)


def _fast_chunk(chunk: str, tmemo: dict, lx: Lexicon) -> tuple:
    """The record of a chunk that needs no pattern (_tokens' two shapes: a word of letters and digits starting
    with a letter, or ASCII digits, each with one closing mark after it; and _clock_tokens' one), else
    _IN_CONTEXT."""
    core = chunk[:-1] if chunk[-1:] in _CLOSING else chunk
    if not core.isalnum():
        toks = _clock_tokens(core) if chunk[-1:] != ":" else None
        if toks is None:
            return _IN_CONTEXT
        return _chunk_record(toks if core is chunk else toks + ((chunk[-1], "punct"),), tmemo, lx)
    if core[0].isalpha():
        kind = "word"
    elif core.isascii() and core.isdigit():
        kind = "num"
    else:
        return _IN_CONTEXT
    toks = ((core, kind),) if core is chunk else ((core, kind), (chunk[-1], "punct"))
    return _chunk_record(toks, tmemo, lx)


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


def _line_tokens(norm: str, memos: tuple, lx: Lexicon) -> tuple[list, list, list, list, list, int]:
    """``_tokens(norm)`` with each token's _token_info and flags (text flags | kind bits): texts, kinds, codes,
    infos, flags and the OR of the flags. On a plain line (the case _tokens splits into chunks) each distinct
    chunk is prepared once (a record of _chunk_record) and a line only joins its chunks' records."""
    tmemo = memos[1]
    if "+" in norm or not _plain(norm):
        texts, kinds, codes = _tokens(norm, memos[0])
        infos = [tmemo.get(t) or _token_info(t, lx, tmemo) for t in texts]
        flags = [info[0] | _kind_bits(kind, info[0]) for info, kind in zip(infos, kinds)]
        line_flags = 0
        for f in flags:
            line_flags |= f
        return texts, kinds, codes, infos, flags, line_flags
    by_chunk, in_context = memos[6], memos[7]
    texts: list[str] = []
    kinds: list[str] = []
    codes: list[bool] = []
    infos: list[tuple] = []
    flags: list[int] = []
    line_flags = 0
    in_code = False
    with_code = "`" in norm  # else no token is in a code span
    chunks = norm.split(" ")
    last = len(chunks) - 1
    for i, chunk in enumerate(chunks):
        rec = by_chunk.get(chunk)
        if rec is None:
            rec = by_chunk[chunk] = _fast_chunk(chunk, tmemo, lx)
        if rec is _IN_CONTEXT:
            # the chunk with the space before and after it, where the line has one (see _tokens)
            ctx = (" " + chunk if i else chunk) + " " if i < last else (" " + chunk if i else chunk)
            rec = in_context.get(ctx)
            if rec is None:
                rec = in_context[ctx] = _chunk_record(_chunk_tokens(ctx), tmemo, lx)
        texts += rec[0]
        kinds += rec[1]
        infos += rec[2]
        flags += rec[3]
        line_flags |= rec[4]
        if with_code:
            codes += rec[6] if in_code else rec[5]
            if rec[7]:
                in_code = not in_code
    if not with_code:
        codes = [False] * len(texts)
    return texts, kinds, codes, infos, flags, line_flags


# Flags of a token text (_text_info); a line ORs them so a stage whose flag no token has is skipped whole. The bits
# tested on every token (the roles of _token_roles, _K_LEXICAL and _K_VALUE_KIND among them) are the low eight: a
# mask of them gives a cached small int (under 256), not a new int object per test.
_F_MARKER = 1  # a marker pattern can start at it (its _scan_entry is not None)
_F_CONTENT = 2  # a content pattern can start at it
_F_SPLIT = 8  # a punctuation mark that can end a clause
_F_BOUND = 16  # can start a clause boundary
_F_VALUE = 32  # in _TZ_ABBR or _NUM_WORDS: the first value loop looks at it
_F_CONT = 128  # in _CONTINUE
_F_STOP = 1 << 8  # in _STOP or shorter than 3: never a lexical concept
_F_ANY = 1 << 9
_F_WORKS = 1 << 10
_F_NEEDED = 1 << 11
_F_VIA = 1 << 12
_F_CITY = 1 << 13  # holds one of _CITY_TIME_NEEDS
_F_DIGIT = 1 << 14  # _may_have_digit
_F_MON_EN = 1 << 15  # holds an English month abbreviation (_DATE_MD)
_F_MON_ANY = 1 << 16  # holds an English or Russian one (_DATE_DM)
_F_UTC = 1 << 17  # holds "utc" or "gmt" (the only _OFFSET matches that give a value)
_F_OPEN = 1 << 18  # "(": an aside can start
_F_DATES = 1 << 19  # has a DATE_FORMAT value or is in _VIA: the second value pass looks at it
_F_MONTH_DAY = 1 << 20  # has a MONTH_V or DOM value: the third value pass looks at it
_F_EN_PAST = 1 << 21  # _en_past
_F_RU_PAST = 1 << 22  # _ru_past and not in _RU_PAST_NOT
_F_RU_PART = 1 << 23  # _ru_participle
_F_MONTH_ID = 1 << 24  # a content pattern starting at it names MONTH
#: _token_roles' masks: where a clause can end or start, where a value can be.
_SPLIT_ROLE = _F_SPLIT | _F_BOUND
_VALUE_ROLE = _F_VALUE | _K_VALUE_KIND
_MONTH_OR_UTC = _F_MON_ANY | _F_UTC
# Substring tests as one alternation of literals each (the same answer as ``any(w in t for w in words)``).
_HAS_CITY_NEED = _LazyStd("|".join(_CITY_TIME_NEEDS))
_HAS_MON_EN = _LazyStd("|".join(k for k in _MONTHS if k.isascii()))
_HAS_MON_ANY = _LazyStd("|".join(_MONTHS))


def _text_info(t: str) -> tuple[int, str | None, str | None, str | None]:
    """(flags, DATE_FORMAT value, MONTH_V value, DOM value) of a token text (values only where the pattern can
    match: the kind of the token is checked where they are used)."""
    f = 0
    if t in _STOP or len(t) < 3:
        f |= _F_STOP
    if t in _CONTINUE:
        f |= _F_CONT
    if t in _ANY:
        f |= _F_ANY
    if t in _WORKS:
        f |= _F_WORKS
    if t in _NEEDED:
        f |= _F_NEEDED
    if t in _TZ_ABBR or t in _NUM_WORDS:
        f |= _F_VALUE
    if t in _VIA:
        f |= _F_VIA
    if _HAS_CITY_NEED.search(t):
        f |= _F_CITY
    if _may_have_digit(t):
        f |= _F_DIGIT
    if _HAS_MON_ANY.search(t):
        f |= _F_MON_ANY
        if _HAS_MON_EN.search(t):
            f |= _F_MON_EN
    if "utc" in t or "gmt" in t:
        f |= _F_UTC
    if t == "(":
        f |= _F_OPEN
    if t in _BOUNDARY_FIRST:
        f |= _F_BOUND
    fm = _DATE_FORMAT.match(t) if t[:1] in ("d", "m", "y") else None
    date_format = "".join(g[0] for g in fm.groups()) if fm else None
    mo = _MONTH_WORD.match(t) if t[:3] in _MONTH_HEADS else None
    month = str(_MONTH_NUM[next(g for g in mo.groups() if g)]) if mo else None
    dm = _DOM.match(t) if t[-1:] in "tdhое" else None
    dom = str(int(dm.group(1))) if dm and 1 <= int(dm.group(1)) <= 31 else None
    if date_format is not None or f & _F_VIA:
        f |= _F_DATES
    if _en_past(t):
        f |= _F_EN_PAST
    if _ru_past(t) and t not in _RU_PAST_NOT:
        f |= _F_RU_PAST
    if _ru_participle(t):
        f |= _F_RU_PART
    if t in _SPLIT_PUNCT:
        f |= _F_SPLIT
    if month is not None or dom is not None:
        f |= _F_MONTH_DAY
    return f, date_format, month, dom


def _token_info(t: str, lx: Lexicon, memo: dict) -> tuple:
    """_text_info of ``t`` and its _scan_entry in the marker and content tables (with _F_MARKER and _F_CONTENT
    set when they are not None), stored in ``memo``."""
    f, date_format, month, dom = _text_info(t)
    if t in _PUNCT_TEXTS:  # no pattern starts at a punctuation mark (_scan_starts relies on it)
        marker = content = None
    else:
        marker = _scan_entry(t, lx.marker, lx.marker_prefix)
        content = _scan_entry(t, lx.content, lx.content_prefix)
    if marker is not None:
        f |= _F_MARKER
    if content is not None:
        f |= _F_CONTENT
        if "MONTH" in content[1] or any("MONTH" in item[1] for item in content[2]):
            f |= _F_MONTH_ID
    got = memo[t] = (f, date_format, month, dom, marker, content)
    return got


#: The texts of _TOKEN's punctuation tokens: no token of another kind has one of them (each of the other kinds
#: holds a word character, a "/" or a "@"), so a token with such a text is a punctuation mark.
_PUNCT_TEXTS = frozenset(";,.!?()[]-:`")


def _scan_entry(t: str, exact: dict, prefix: dict):
    """The patterns that can start at a token with text ``t``, prepared for _scan_starts: None when there are none,
    else (length, ids) of the best one-token pattern (each of them matches wherever ``t`` stands: its only element
    is ``t`` or a prefix of it) and the longer patterns as (later elements, ids, length, exact). Built with the
    selection rule of _match_at, in its candidate order."""
    cands = _patterns_for(t, exact, prefix, {})
    if not cands:
        return None
    best_len, best_ids, best_exact = 0, set(), False
    multi = []
    by_second: dict[str, list] = {}
    prefix_second = []
    for pat, ids in cands:
        is_exact = not pat[-1][1]
        if len(pat) > 1:
            item = (pat[1:], ids, len(pat), is_exact, len(multi))
            multi.append(item)
            second, second_is_prefix = pat[1]
            if second_is_prefix:
                prefix_second.append(item)
            else:
                by_second.setdefault(second, []).append(item)
        elif best_len == 0 or (is_exact and not best_exact):
            best_len, best_ids, best_exact = 1, set(ids), is_exact
        elif is_exact == best_exact:
            best_ids |= set(ids)
    return (best_len, best_ids, tuple(multi), {k: tuple(v) for k, v in by_second.items()}, tuple(prefix_second))


def _order(item: tuple) -> int:
    return item[4]


def _second_matches(entry: tuple, nxt: str) -> tuple:
    """The longer patterns of a _scan_entry whose second element matches the token text ``nxt`` (equal to it, or
    a prefix of it), in the entry's candidate order: no other can match where ``nxt`` follows."""
    got = entry[3].get(nxt, ())
    if entry[4]:
        more = tuple(item for item in entry[4] if nxt.startswith(item[0][0][0]))
        if more:
            got = tuple(sorted(got + more, key=_order)) if got else more
    return got


def _table_spans(texts: list[str], kinds: list[str], codes: list[bool], infos: list[tuple], flag: int, slot: int,
                 skip_code: bool) -> list[tuple[int, int, set[str]]]:
    """``_scan`` of one pattern table (marker: ``_F_MARKER``, slot 4; content: ``_F_CONTENT``, slot 5) over the
    parallel token lists and their ``_token_info``s, visiting only the tokens where one of its patterns can start."""
    starts = [k for k, info in enumerate(infos) if info[0] & flag and kinds[k] != "punct"]
    return _scan_starts(texts, kinds, codes, infos, slot, starts, skip_code)


def _scan_starts(texts: list[str], kinds: list[str], codes: list[bool], infos: list[tuple], slot: int,
                 starts, skip_code: bool) -> list[tuple[int, int, set[str]]]:
    """``_scan`` over parallel token lists, with each text's candidates prepared once (_scan_entry, kept at
    ``infos[k][slot]``). ``starts``: in order, the tokens whose entry is not None (no pattern starts elsewhere), no
    punctuation mark among them (_token_info gives those no entry); ``skip_code`` may be False when no token is in
    a code span.

    A longer pattern that matches always beats the one-token ones, so these decide only when none does. The
    returned id sets may be shared between lines: callers never change them."""
    out = []
    n_tok = len(texts)
    i = 0
    for i0 in starts:
        if i0 < i or (skip_code and codes[i0]):
            continue
        i = i0
        entry = infos[i][slot]
        if entry[2] and i + 1 < n_tok:
            multi = _second_matches(entry, texts[i + 1]) if entry[4] else entry[3].get(texts[i + 1], ())
            if multi:
                best_len = 0
                best_ids: set[str] = set()
                best_exact = False
                for rest, ids, n, is_exact, _ in multi:
                    if i + n > n_tok:
                        continue
                    k = i
                    for el, is_prefix in rest:
                        k += 1
                        if kinds[k] == "punct" or (skip_code and codes[k]) or \
                                (not texts[k].startswith(el) if is_prefix else texts[k] != el):
                            break
                    else:
                        if n > best_len or (n == best_len and is_exact and not best_exact):
                            best_len, best_ids, best_exact = n, set(ids), is_exact
                        elif n == best_len and is_exact == best_exact:
                            best_ids |= set(ids)
                if best_len:
                    out.append((i, i + best_len, best_ids))
                    i += best_len
                    continue
        if entry[0]:  # no longer pattern matched: the best one-token one, if any
            out.append((i, i + 1, entry[1]))
        i += 1
    return out


def _cid_info(lx: Lexicon, cid: str) -> tuple:
    """(kind, ((id, canonical id, flip) for the id and each of its parents), slot, is a day, kind for clause
    merging, the first link of that chain, the others) of a concept id."""
    chain = tuple((c, *lx.canon(c)) for c in (cid, *lx.expand(cid)))
    return (lx.kind.get(cid), chain, lx.slot_of.get(cid), cid in DAY_GROUPS,
            lx.kind.get(cid, "lexical" if cid.startswith("w:") else "object"), chain[0], chain[1:])


_NOT_LEXICAL = frozenset({"punct", "num", "time", "iso", "url", "mail", "phone"})
_SPLIT_PUNCT = frozenset({";", ",", ".", "!", "?", "-", ":"})
_DASH_STOP = frozenset({";", ",", ".", "!", "?", "-"})
_VALUE_KINDS = frozenset({"time", "flag", "url", "path", "iso", "num"})
_HAS_VALUE_KINDS = frozenset({"time", "iso", "num", "url"})
_BRANCH_WORDS = frozenset({"main", "master", "trunk", "develop", "dev"})


def _split_lists(texts: list[str], kinds: list[str], codes: list[bool],
                 cands: list[int]) -> list[tuple[int, int, bool]]:
    """Clause bounds (start, end, exception) of a token list. ``cands``: in order, the tokens that can end or start
    a clause (a punctuation mark of _SPLIT_PUNCT, a word of _BOUNDARY_FIRST); no other token does anything."""
    bounds: list[tuple[int, int, bool]] = []
    start = 0
    exception = False
    n = len(texts)
    skip_to = 0  # after a boundary of several words
    for i in cands:
        if i < skip_to:
            continue
        t = texts[i]
        if kinds[i] == "punct" and t in _SPLIT_PUNCT:
            if t == ":" and i <= 3:
                continue
            if t == "-":
                j = i + 1
                while j < n and not (kinds[j] == "punct" and texts[j] in _DASH_STOP):
                    j += 1
                if j - i - 1 <= 3:
                    continue  # "X — Y" with a short Y is a copula («Кэш — Redis»), not a new clause
            if i > start:  # an empty clause is dropped
                bounds.append((start, i, exception))
            start, exception = i + 1, False
            continue
        if kinds[i] == "word" and not codes[i] and t in _BOUNDARY_FIRST:
            hit = None
            for L in (3, 2, 1):
                key = tuple(texts[i:i + L])
                if len(key) == L and key in _BOUNDARY_WORDS:
                    hit = key
                    break
            if hit and i > start:
                bounds.append((start, i, exception))
                start, exception = i, hit in _EXCEPTION_WORDS
                skip_to = i + len(hit)
                continue
            if hit and i == start and hit in _EXCEPTION_WORDS:
                exception = True
    if n > start:
        bounds.append((start, n, exception))
    return bounds


def _split_stamp(text: str) -> tuple:
    """tiers.stamps.split_stamp, imported on first use (this name then becomes that function)."""
    global _split_stamp
    from .stamps import split_stamp

    _split_stamp = split_stamp
    return split_stamp(text)


def analyze(text: str) -> Analysis:
    """Analyse one memory line (markup and a trailing stamp are stripped first)."""
    return _analyze_cached(text)


#: Analyses made by other processes of this same code (see seed_analyses), taken on first use.
_SEEDED: dict[str, Analysis] = {}


def seed_analyses(pairs) -> None:
    """Hand over (text, Analysis) pairs that ``analyze(text)`` computed in another process running this same
    code (a parallel lint analyses a workspace's constraints in several processes): the first analyze() of such a
    text here takes the given result instead of analysing again (a text already in the memo keeps its own).
    A hand-over replaces the previous one: ``seed_analyses(())`` drops what was not taken."""
    _SEEDED.clear()
    for text, a in pairs:
        if isinstance(text, str) and isinstance(a, Analysis):
            _SEEDED[text] = a


@functools.lru_cache(maxsize=32768)
def _analyze_cached(text: str) -> Analysis:
    if _SEEDED:
        seeded = _SEEDED.pop(text, None)
        if seeded is not None:
            return seeded
    lx = lexicon()
    memos = _line_memos(lx)
    _, tmemo, cmemo, wmemo, _, content_memo, _, _, _ = memos
    content, _, _ = _split_stamp(text)
    body = strip_markup(content)
    nfc = unicodedata.normalize("NFC", body)
    norm = normalize_nfc(nfc)
    texts, kinds, codes, infos, flags, line_flags = _line_tokens(norm, memos, lx)
    n_tok = len(texts)
    marker_starts, content_starts, lexical_toks, split_cands, value_toks = _token_roles(flags)
    # (most lines have no token for the second and third value passes: the line's flags tell without a call)
    date_toks = _having(range(n_tok), flags, _F_DATES, line_flags) if line_flags & _F_DATES else []
    month_day_toks = _having(range(n_tok), flags, _F_MONTH_DAY, line_flags) if line_flags & _F_MONTH_DAY else []

    def cinfo(cid: str) -> tuple:
        got = cmemo.get(cid)
        if got is None:
            got = cmemo[cid] = _cid_info(lx, cid)
        return got

    marker_spans = _scan_starts(texts, kinds, codes, infos, 4, marker_starts, "`" in norm)  # else no code span
    content_spans = _scan_starts(texts, kinds, codes, infos, 5, content_starts, False)
    marker_list: list[tuple[int, set[str]]] = []  # (start token, markers) of each marker span (never changed)
    marker_tokens: set[int] = set()
    for s, e, ids in marker_spans:
        marker_list.append((s, ids))
        if e == s + 1:
            marker_tokens.add(s)
        else:
            marker_tokens.update(range(s, e))
    covered_by_content = set()
    concept_at: list[tuple[int, set[str]]] = []
    span_end: dict[int, int] = {}  # a concept's end token where it is not the next one (looked up with a default)
    for s, e, ids in content_spans:
        concept_at.append((s, ids))
        span_end[s] = e
        if e == s + 1:
            covered_by_content.add(s)
        else:
            covered_by_content.update(range(s, e))
    # Lexical fallback: unknown content words still carry meaning (names, projects, folders).
    ext_memo = content_memo
    ext_month = False  # an extension's concepts name MONTH
    for i in lexical_toks:  # not punctuation, numbers, times, stop words
        if i in covered_by_content:
            continue
        kind = kinds[i]
        if kind == "word" and i in marker_tokens:
            continue
        t = texts[i]
        key = t.strip("/*").rstrip("/") if kind == "path" else t
        if not key:
            continue
        ids = wmemo.get(key)
        if ids is None:
            ids = wmemo[key] = {"w:" + _stem(key)}  # shared by the lines holding the word: never changed
        concept_at.append((i, ids))
        ext = _EXT.search(t) if kind in {"word", "path"} and t.find(".", 1) > 0 else None  # "." in t[1:]
        if ext:
            # a file extension alone: what _match_at finds for a one-token list, the best one-token pattern
            e_text = ext.group(1)
            entry = ext_memo.get(e_text, 0)
            if entry == 0:
                entry = ext_memo[e_text] = _scan_entry(e_text, lx.content, lx.content_prefix)
            if entry is not None and entry[0]:
                concept_at.append((i, entry[1]))
                ext_month = ext_month or "MONTH" in entry[1]
    concept_at.sort(key=_first)

    # Clauses; merge clauses with no content into the previous one, qualifier-only ones into the next.
    raw_bounds = _split_lists(texts, kinds, codes, split_cands)
    merged: list[list] = []
    pending_front: list = []
    if len(raw_bounds) == 1:
        merged.append(list(raw_bounds[0]))  # a lone clause stays as it is, whatever it holds
        raw_bounds = ()
    for s, e, exc in raw_bounds:
        named, full = False, False  # the bounds name a concept; one that is not a qualifier or generic
        for i, cs in concept_at:  # sorted
            if i < s:
                continue
            if i >= e:
                break
            for c in cs:
                named = True
                if cinfo(c)[4] not in ("qualifier", "generic"):
                    full = True
                    break
            if full:
                break
        if named:
            hc = "full" if full else "qual"
        else:  # values alone count as qualifiers (an empty set of kinds is within any)
            hc = "qual" if any(kinds[k] in _HAS_VALUE_KINDS for k in range(s, e)) else "none"
        if merged and s < n_tok and flags[s] & _F_CONT:
            merged[-1][1] = e  # "…, even for the vendor demo" extends the clause before it
            continue
        if hc == "none" and merged:
            merged[-1][1] = e
            continue
        if hc != "full" and not merged:
            pending_front.append((s, e, exc))
            continue
        if hc == "qual" and merged and not merged[-1][2] and not any(
                s <= k < e and ("NEG" in ms or "RELAX" in ms) for k, ms in marker_list):
            # A trailing qualifier ("on Fridays", «по выходным») belongs to the clause before it.
            merged[-1][1] = e
            continue
        if pending_front:
            s = pending_front[0][0]
            exc = exc or pending_front[0][2]
            pending_front = []
        merged.append([s, e, exc])
    if pending_front:
        if merged:
            merged[0][0] = pending_front[0][0]
        else:
            merged.append([pending_front[0][0], pending_front[-1][1], pending_front[0][2]])

    line = _Line(texts, kinds, codes, infos, line_flags, concept_at, span_end, nfc, value_toks, date_toks,
                 month_day_toks, flags)
    if not (line_flags & _F_MONTH_ID or ext_month):
        line.months = _NO_MONTHS  # no concept of the line names MONTH
    local_ctx = None  # what "without X" needs to find X's extent, built on the first NEG_LOCAL
    weight_memo = memos[8]
    clauses: list[Clause] = []
    all_concepts: set[str] = set()
    line_markers: set[str] = set()
    values: list[tuple[str, str, int]] = []
    for s, e, exc in merged:
        cl = _new_clause(s, e, exc)
        neg = 0
        local: set[int] = set()
        first_neg: int | None = None
        ru_neg = False
        only_pos: list[int] = []
        markers = cl.markers
        for k, ms in marker_list:
            if k < s:
                continue
            if k >= e:
                break
            for m in ms:
                markers.add(m)
                if m == "NEG" or m == "RELAX":
                    if m == "NEG" and _cyrillic_first(texts[k]):
                        ru_neg = True  # negative concord: «никогда не», «ничего не» deny once
                    else:
                        neg += 1
                    if m == "NEG" and first_neg is None and _cyrillic_first(texts[k]):
                        first_neg = k
                elif m == "NEG_LOCAL":
                    if local_ctx is None:
                        local_ctx = (
                            {k2 for k2, _ in concept_at},
                            {k2 for k2, ids in concept_at if all(cinfo(c)[0] == "generic" for c in ids)},
                            {k2: all(c.startswith("w:") for c in ids) for k2, ids in concept_at},
                            {k2 for k2, ids in concept_at if all(cinfo(c)[0] in ("qualifier", "generic") for c in ids)},
                        )
                    starts, generic_at, weak_at, qual_at = local_ctx
                    # "without X" / «без X» denies only the next noun phrase: up to the first concept after it.
                    j = k + 1
                    while j < min(e, k + 6):
                        local.add(j)
                        if j in starts:
                            local.update(range(j, span_end.get(j, j + 1)))
                            end_j = span_end.get(j, j + 1)
                            # a possessor is not the head: "without Anna's review", «без его проверки»
                            if ((weak_at.get(j) or j in qual_at) and end_j < e and end_j in starts) or j in generic_at:
                                j = end_j
                                continue
                            j = end_j
                            # coordinated phrases stay denied: "without X or Y", «без X и Y»
                            if j + 1 < e and texts[j] in _COORD and (j + 1) in starts:
                                local.add(j)
                                j += 1
                                continue
                            break
                        j += 1
                elif m == "ONLY":
                    only_pos.append(k)
        neg += 1 if ru_neg else 0
        base = -1 if neg % 2 else 1
        line_markers |= markers

        pre: set[str] = set()
        post: set[str] = set()
        even_at = next((k for k in range(s + 1, e) if flags[k] & _F_CONT), None) if line_flags & _F_CONT else None
        aside: set[int] = set()
        if line_flags & _F_OPEN:  # an aside needs a "("
            depth = 0
            for k in range(s, e):  # "(guessed from commit timestamps)": an aside is context, not the claim
                if kinds[k] == "punct" and texts[k] == "(":
                    depth += 1
                elif kinds[k] == "punct" and texts[k] == ")":
                    depth = max(0, depth - 1)
                elif depth:
                    aside.add(k)
        signs = cl.signs
        direct = cl.direct
        raw, antonymic, negated_direct, local_neg = cl.raw, cl.antonymic, cl.negated_direct, cl.local_neg
        add_concept = all_concepts.add
        # Concepts go to ``pre`` (context) or ``post``; soft = pre - post. With no Russian negation, "even" or
        # aside every one would go to ``post``: soft is empty, and neither set is kept.
        some_pre = first_neg is not None or even_at is not None or bool(aside)
        into = post
        for k, ids in concept_at:
            if k < s:
                continue
            if k >= e:
                break  # concept_at is sorted
            in_local = k in local
            sg = -base if in_local else base
            if some_pre:
                into = pre if ((first_neg is not None and k < first_neg) or (even_at is not None and k > even_at)
                               or k in aside) else post
            for cid in ids:
                info = cmemo.get(cid) or cinfo(cid)
                # the concept itself (its first link), then its parents: each set gets its ids in the same order
                c, can, flip = info[5]
                val = sg * flip
                prev = signs.get(can)
                signs[can] = val if prev is None or prev == val else 0
                if some_pre:
                    into.add(can)
                direct.add(can)
                raw.add(c)
                if flip < 0:
                    antonymic.add(can)
                if sg < 0:
                    negated_direct.add(c)
                if in_local:
                    local_neg.add(can)
                add_concept(can)
                for c, can, flip in info[6]:
                    val = sg * flip
                    prev = signs.get(can)
                    signs[can] = val if prev is None or prev == val else 0
                    if some_pre:
                        into.add(can)
                    add_concept(can)
                slot = info[2]
                if slot:
                    all_concepts.add(slot)
                    cl.values.append((slot, cid, sg))
                    signs.setdefault(slot, sg)
                if info[3]:
                    cl.values.append(("DAY", cid, sg))
        cl.soft = pre - post if some_pre else set()
        cl.has_only = bool(only_pos)
        if only_pos:
            # "only X": X follows; "X only": X precedes (the last content before ONLY at clause end).
            for p in only_pos:
                after = [ids for k, ids in concept_at if p < k < e]
                before = [ids for k, ids in concept_at if s <= k < p]
                if after:
                    for ids in after[:3]:
                        cl.only_targets |= {c for c in ids if lx.kind.get(c) not in {"generic"}}
                elif before:
                    for ids in reversed(before):
                        got = {c for c in ids if lx.kind.get(c) not in {"generic"}}
                        if got:
                            cl.only_targets |= got
                            break
        # Force of the clause.
        mk = markers
        if "NEG" in mk and line_flags & _F_NEEDED and any(flags[k] & _F_NEEDED for k in range(s, e)):
            mk.add("RELAX")  # "no notice needed", «проверка не нужна»: an obligation dropped
        if line_flags & _F_ANY:
            if "PERMIT" in mk and any(flags[k] & _F_ANY for k in range(s, e)):
                mk.add("INDIFF")  # "can be in any style", «можно в любом виде»: the rule is waved away
            if "NEG" not in mk and any(flags[k] & _F_ANY for k in range(s, e)) and any(
                    flags[k] & _F_WORKS for k in range(s, e)):
                mk.add("INDIFF")  # "any messenger works", «подойдёт любой»
        if "RELAX" in mk:
            cl.force = "relax"
        elif "INDIFF" in mk:
            cl.force = "indiff"
        elif "PERMIT" in mk and not neg:
            cl.force = "permit"
        elif neg:
            cl.force = "prohibit"
        elif mk & {"OBLIGE", "ONLY"}:
            cl.force = "oblige"
        line_markers |= mk  # markers inferred above (RELAX from "not needed", INDIFF from "any … works")
        _values_for(cl, line, s, e, local, base)
        values.extend(cl.values)
        cl.finish(weight_memo)
        clauses.append(cl)

    if len(clauses) >= 2:
        last = clauses[-1]
        if last.force in {"permit", "relax", "indiff"} and not any(lx.kind.get(c) == "action" for c in last.direct):
            for cl in clauses[:-1]:
                if cl.force == "assert" and not cl.exception:
                    cl.force = last.force  # "Leaving the heating on while away is fine": the verdict is the line's
    names = _names(nfc)
    if names and clauses:
        clauses[0].values.extend(names)
        values.extend(names)
        all_concepts.add("NAME")
    keyed = _keyed(norm)
    if keyed and clauses:
        clauses[0].values.append(keyed)
        values.append(keyed)
    for slot, _, _ in values:
        all_concepts.add(slot if not slot.startswith("NUM:") else "NUM")

    report = _reports(texts, kinds, flags, line_flags, line_markers, concept_at, cinfo)
    return _new_analysis(text, clauses, frozenset(all_concepts), frozenset(line_markers), values,
                         "HEDGE" in line_markers, report, "MENTION" in line_markers, "UNIVERSAL" in line_markers,
                         "INDIFF" in line_markers)


#: The first item of a tuple (a sort key called in C).
_first = itemgetter(0)


_MODAL = frozenset({"PERMIT", "RELAX", "INDIFF", "OBLIGE", "FUTURE_PLAN"})
_NOT_NARRATIVE = frozenset({"PERMIT", "RELAX", "OBLIGE", "NEG", "FUTURE_PLAN"})
_NOMINAL_KINDS = frozenset({"object", "qualifier", "value", "slot"})


def _reports(texts: list[str], kinds: list[str], flags: list[int], line_flags: int, line_markers: set[str],
             concept_at: list[tuple[int, set[str]]], cinfo) -> bool:
    """Whether a line tells what happened (``Analysis.report``): a past verb where the verb of a line stands, and
    no modal marker. A test a line's flags rule out (no token with _F_RU_PAST, _F_RU_PART, _F_EN_PAST) is skipped."""
    if not line_markers.isdisjoint(_MODAL):
        return False

    def nominal(i: int) -> bool:  # «спортзал» is a noun: a concept at i names a thing, not an action
        return any(k == i and any(cinfo(c)[0] in _NOMINAL_KINDS for c in ids)
                   and not any(cinfo(c)[0] == "action" for c in ids) for k, ids in concept_at)

    first_i = kinds.index("word") if "word" in kinds else -1
    first_f = flags[first_i] if first_i >= 0 else 0  # _en_past(""), _ru_past("") are False
    past = "PAST" in line_markers or bool(first_f & _F_EN_PAST) or (bool(first_f & _F_RU_PAST) and not nominal(first_i))
    if not past and line_flags & _F_RU_PAST:
        past = any(kinds[i] == "word" and flags[i] & _F_RU_PAST and not nominal(i) for i in range(min(4, len(texts))))
    if not past and line_flags & _F_RU_PART:
        past = any(kinds[i] == "word" and flags[i] & _F_RU_PART for i in range(min(2, len(texts))))
    if past and first_f & _F_EN_PAST:
        words_ = [t for t, kind in zip(texts, kinds) if kind == "word"]
        if not _PRESENT_AUX.isdisjoint(words_[1:5]):
            past = False  # "Scanned documents are named …": a participle used as an adjective, the verb is present
    if not past and line_flags & _F_EN_PAST and line_markers.isdisjoint(_NOT_NARRATIVE):
        words_ = [t for t, kind in zip(texts, kinds) if kind == "word"]
        # "Friends ordered steaks …": a past verb in second or third place after a subject
        for i in (1, 2) if len(words_) > 2 else ():
            if _en_past(words_[i]) and words_[i - 1] not in _AUX_OR_NOT_SUBJECT \
                    and (i == 1 or words_[0] not in _AUX_OR_NOT_SUBJECT) \
                    and _PRESENT_AUX.isdisjoint(words_[i + 1:i + 5]):
                past = True
                break
    return past


def _token_roles(flags: list[int]) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """In one pass over a line's token flags: the tokens where a marker pattern can start, where a content one
    can, those a lexical fallback can name, those that can end or start a clause, and those the first value pass
    can use (each in order)."""
    markers: list[int] = []
    contents: list[int] = []
    lexical: list[int] = []
    splits: list[int] = []
    values: list[int] = []
    for k, f in enumerate(flags):
        if f & _F_MARKER:
            markers.append(k)
        if f & _F_CONTENT:
            contents.append(k)
        if f & _K_LEXICAL:
            lexical.append(k)
        if f & _SPLIT_ROLE:
            splits.append(k)
        if f & _VALUE_ROLE:
            values.append(k)
    return markers, contents, lexical, splits, values


def _having(positions: range, flags: list[int], mask: int, line_flags: int) -> list[int]:
    """The positions whose flags share a bit with ``mask``, in order (none when the line's flags have none)."""
    if not line_flags & mask:
        return []
    return [k for k in positions if flags[k] & mask]


class _Line:
    """What the value passes of every clause of one line share."""

    __slots__ = ("texts", "kinds", "codes", "infos", "line_flags", "concept_at", "span_end", "nfc", "value_toks",
                 "date_toks", "month_day_toks", "num_keys", "months", "proper", "flags")

    def __init__(self, texts, kinds, codes, infos, line_flags, concept_at, span_end, nfc, value_toks, date_toks,
                 month_day_toks, flags) -> None:
        self.flags = flags  # each token's text flags and kind bits
        self.texts = texts
        self.kinds = kinds
        self.codes = codes
        self.infos = infos
        self.line_flags = line_flags
        self.concept_at = concept_at
        self.span_end = span_end
        self.nfc = nfc
        self.value_toks = value_toks  # tokens the first value pass can use (by kind or text), in order
        self.date_toks = date_toks  # ... the second one
        self.month_day_toks = month_day_toks  # ... the third one
        self.num_keys: dict[int, str] | None = None  # token -> the concept a number next to it counts
        self.months: set[int] | None = None  # where a MONTH concept starts
        self.proper: frozenset[str] | None = None  # _proper_words(nfc), for every clause


def _near_month_at(line: _Line, k: int) -> bool:
    """``_near_month``: a MONTH concept starts at k or next to it (the number is a day of the month)."""
    months = line.months
    if months is None:
        months = line.months = {kk for kk, ids in line.concept_at if "MONTH" in ids}
    return bool(months) and (k - 1 in months or k in months or k + 1 in months)


_NOT_NUM_KEY = frozenset({"generic", "qualifier"})
_NO_MONTHS: frozenset[int] = frozenset()


def _num_keys(concept_at: list[tuple[int, set[str]]], span_end: dict[int, int], kind: dict[str, str]) -> dict:
    """For each token, the first concept covering it (in concept_at order) with a non-generic, non-qualifier id:
    its smallest such id (what a number next to the token counts)."""
    keys: dict[int, str] = {}
    for kk, ids in concept_at:
        end = span_end.get(kk, kk + 1)
        if end == kk + 1 and len(ids) == 1:  # most concepts: one token, one id
            if kk not in keys:
                (c,) = ids
                if kind.get(c) not in _NOT_NUM_KEY:
                    keys[kk] = c
            continue
        cands = None
        for j in range(kk, end):
            if j not in keys:
                if cands is None:
                    cands = [c for c in ids if kind.get(c) not in _NOT_NUM_KEY]
                if cands:
                    keys[j] = min(cands)
    return keys


def _values_for(cl: Clause, line: _Line, s: int, e: int, local: set[int], base: int) -> None:
    """The slot values of clause tokens s..e, appended to ``cl.values`` in token order, one pass after another.

    Each pass visits only the tokens that can give it a value (line.value_toks, date_toks, month_day_toks: by kind
    and text flags); a token it skips would have fallen through every branch."""
    lx = lexicon()
    texts, kinds, codes, infos, concept_at = line.texts, line.kinds, line.codes, line.infos, line.concept_at
    has_branch = "BRANCH" in cl.signs
    n_tok = len(texts)
    append = cl.values.append
    if has_branch:
        value_toks = range(s, e)
    elif s == 0 and e == n_tok or not line.value_toks:
        value_toks = line.value_toks  # the clause is the line
    else:
        value_toks = [k for k in line.value_toks if s <= k < e]
    for k in value_toks:
        t = texts[k]
        kind = kinds[k]
        sg = -base if k in local else base
        if kind == "time":
            hh, mm = t.split(":")
            append(("TIME", f"{int(hh):02d}:{mm}", sg))
            h = int(hh)
            part = ("PART_MORNING" if 5 <= h < 12 else "PART_AFTERNOON" if 12 <= h < 17
                    else "PART_EVENING" if 17 <= h < 22 else "PART_NIGHT")
            if sg > 0:  # "not before 8:00" rules out a time, not the whole morning
                append(("DAYPART", part, sg))
        elif kind == "flag" and len(t) > 2:
            append(("FLAG", t, sg))
        elif kind == "url":
            append(("URL", t.split("://", 1)[1].rstrip("/.").lower(), sg))
        elif kind == "path" and _TZ.match(t):
            append(("TZ", t, sg))
        elif kind == "word" and t in _TZ_ABBR:
            append(("TZ", t, sg))
        elif kind == "iso":
            append(("DATE", t[5:10], sg))
            off = _ISO_OFFSET.search(t)
            if off:
                o = off.group(1)
                append(("TZ", "utc" if o == "z" else "utc" + o.replace(":", "")[:3].replace("+0", "+").replace("-0", "-"), sg))
        elif (kind == "num" or (kind == "word" and t in _NUM_WORDS and not codes[k])) \
                and not _near_month_at(line, k):
            keys = line.num_keys
            if keys is None:
                keys = line.num_keys = _num_keys(concept_at, line.span_end, lx.kind)
            num = _NUM_WORDS.get(t, t)
            key = None  # the nearest token in the clause with a key, the one before first at equal distance
            for dist in (1, 2, 3):
                if k - dist >= s:
                    key = keys.get(k - dist)
                    if key is not None:
                        break
                if k + dist < e:
                    key = keys.get(k + dist)
                    if key is not None:
                        break
            if key:
                append(("NUM:" + key, num.rstrip("+%"), sg))
        if has_branch:
            code = codes[k]
            single_code = code and not (k > 0 and codes[k - 1]) and not (k + 1 < n_tok and codes[k + 1])
            if single_code and kind in {"word", "path"}:
                append(("BRANCH", t, sg))
            elif kind == "word" and t in _BRANCH_WORDS:
                append(("BRANCH", "main" if t in {"master", "trunk"} else t, sg))
    for k in line.date_toks:
        if k < s:
            continue
        if k >= e:
            break
        info = infos[k]
        kind = kinds[k]
        if kind in {"word", "path"} and info[1] is not None:
            # "DD.MM.YYYY", "MM/DD/YYYY", "yyyy-mm-dd": the order of day, month and year is the value
            append(("DATE_FORMAT", info[1], -base if k in local else base))
        if kind == "word" and info[0] & _F_VIA and k + 1 < e:
            nxt = texts[k + 1]
            if kinds[k + 1] in {"word", "path"} and nxt not in _STOP and not any(
                    kk == k + 1 and any(lx.kind.get(c) not in (None,) and not c.startswith("w:") for c in ids)
                    for kk, ids in concept_at):
                # "через Тинькофф", "via Wise": a named channel or provider is a value of "how it is done"
                append(("VIA", _stem(nxt), -base if k + 1 in local else base))
    proper = line.proper
    if proper is None:
        proper = line.proper = _proper_words(line.nfc)
    if proper:
        covered = {kk for kk, ids in concept_at if not all(c.startswith("w:") for c in ids)}
        third_pass = range(s, e)
    else:
        covered = ()
        third_pass = [k for k in line.month_day_toks if s <= k < e] if line.month_day_toks else ()
    for k in third_pass:
        info = infos[k]
        kind = kinds[k]
        if kind == "word" and info[2] is not None:
            append(("MONTH_V", info[2], -base if k in local else base))
        if kind == "alnum":
            if info[3] is not None:  # "on the 15th", «15-го»: a day of the month
                append(("DOM", info[3], -base if k in local else base))
        elif kind == "word" and not codes[k] and k not in covered and texts[k] in proper:
            # a place, shop or person named in the line ("Munich", «Ригла»): a value of where/who
            append(("PROPER", _stem(texts[k]), -base if k in local else base))
    if "AIRPORT" in cl.signs:
        for m in _AIRPORT.finditer(line.nfc):
            append(("AIRPORT_CODE", m.group(1), 1))
    # The patterns below read the clause's text; a flag no token has rules a pattern out (see _text_info).
    # _CITY_TIME needs _F_CITY; the date and offset patterns a digit and a month (_F_MON_EN is within _F_MON_ANY)
    # or "utc"/"gmt".
    line_flags = line.line_flags
    if not (line_flags & _F_CITY or line_flags & _F_DIGIT and line_flags & _MONTH_OR_UTC):
        return
    if s == 0 and e == n_tok:
        seg_flags = line_flags
    else:
        seg_flags = reduce(or_, line.flags[s:e], 0)  # the text bits of the clause's tokens (and kind bits)
        if not (seg_flags & _F_CITY or seg_flags & _F_DIGIT and seg_flags & _MONTH_OR_UTC):
            return
    seg = " ".join(texts[s:e])
    if seg_flags & _F_CITY:  # every match of _CITY_TIME holds one of _CITY_TIME_NEEDS, none holds a space
        for m in _CITY_TIME.finditer(seg):
            city = next(g for g in m.groups() if g)
            tz = "europe/moscow" if city in {"msk", "мск"} else next(
                (v for k2, v in _CITY_TZ.items() if city.startswith(k2) or k2.startswith(city)), None)
            if tz:
                append(("TZ", tz, 1))
    if not seg_flags & _F_DIGIT:
        return  # the date and offset patterns below all need a digit
    if seg_flags & _F_MON_EN:
        for m in _DATE_MD.finditer(seg):
            append(("DATE", f"{_MONTHS[m.group(1)[:3]]:02d}-{int(m.group(2)):02d}", cl.signs and 1 or 1))
    if seg_flags & _F_MON_ANY:
        for m in _DATE_DM.finditer(seg):
            append(("DATE", f"{_MONTHS[m.group(2)[:3]]:02d}-{int(m.group(1)):02d}", 1))
    if seg_flags & _F_UTC:  # only the "utc"/"gmt" alternative of _OFFSET sets group 1
        for m in _OFFSET.finditer(seg):
            if m.group(1):
                h = int(m.group(1).replace(" ", ""))
                append(("TZ", f"utc{h:+d}" if h else "utc", 1))


_DATE_FORMAT = _lazy(r"^(d{1,2}|m{1,2}|y{2,4})[./-](d{1,2}|m{1,2}|y{2,4})[./-](d{1,2}|m{1,2}|y{2,4})$")
_VIA = frozenset({"via", "through", "через"})


_PROVENANCE_LABEL = _lazy(
    r"^[^:]{0,40}(?:user|пользовател|decided|agreed|решили|решено|договорились|просьба|decision)[^:]{0,20}:\s+")
_KEYED = (
    _lazy(r"^(?:the\s+|our\s+|my\s+)?default\s+(?P<key>[\w-]+(?:\s+[\w-]+)?)\s+(?:is|=|:)\s+(?P<val>.+)$"),
    _lazy(r"^(?P<key>[\w-]+(?:\s+[\w-]+)?)\s+по\s+умолчанию\s*(?:[:=—–-]|это)?\s*(?P<val>.+)$"),
    _lazy(r"^по\s+умолчанию\s+(?P<key>[\w-]+(?:\s+[\w-]+)?)\s*(?:[:=—–-]|это)\s*(?P<val>.+)$"),
    _lazy(r"^(?:default\s+)?(?P<key>[\w-]+(?:\s+[\w-]+){0,2})\s*(?::|=|\s[—–]\s)\s*(?P<val>[^:]+)$"),
)


#: Every match of a _KEYED pattern holds one of these (_PROVENANCE_LABEL only removes text). Tested with ``in``
#: one by one: a search for the alternation tries every position of the line with every literal.
_KEYED_NEEDS = (":", "=", "\u2014", "\u2013", "default", "умолчанию")
#: What a match of each _KEYED pattern holds, in order: "default", «умолчанию» twice, a separator.
_KEYED_PATTERN_NEEDS = (("default",), ("умолчанию",), ("умолчанию",), (":", "=", "\u2014", "\u2013"))


#: The words of _PROVENANCE_LABEL: a match holds one of them before the text's first colon.
_PROVENANCE_WORDS = ("user", "пользовател", "decided", "agreed", "решили", "решено", "договорились", "просьба",
                     "decision")
#: The last _KEYED pattern: "label: value", "label = value", "label — value".
_LABEL_VALUE = _KEYED[3]
_SEPARATOR = _LazyStd("[:=\u2014\u2013]")


def _may_be_provenance_label(text: str) -> bool:
    """False when _PROVENANCE_LABEL cannot match ``text`` (which holds a colon): each of its words stands, whole,
    before the first colon."""
    head = text[:text.index(":")]
    for w in _PROVENANCE_WORDS:
        if w in head:
            return True
    return False


#: The blanks after the label's colon (with the engine _PROVENANCE_LABEL would take for the text: \s is read alike).
_BLANKS = _lazy(r"\s+")


def _provenance_label_end(text: str) -> int:
    r"""Where the match of _PROVENANCE_LABEL on ``text`` (which holds a colon) ends; 0 when there is none.

    The pattern, ``^[^:]{0,40}(?:WORDS)[^:]{0,20}:\s+``, is read directly instead of backtracking through every
    split of the text before the colon: no ``[^:]`` passes a colon, so its colon is the text's first; a word must
    start at most 40 characters in and end at most 20 before that colon, and the first occurrence of a word from
    the lowest start it may take decides; the blanks after the colon are taken whole."""
    colon = text.index(":")
    for w in _PROVENANCE_WORDS:
        at = text.find(w, max(0, colon - 20 - len(w)), colon)
        if 0 <= at <= 40:
            blanks = _BLANKS.match(text, colon + 1)
            return blanks.end() if blanks else 0
    return 0


def _may_be_label_value(text: str) -> bool:
    """False when _LABEL_VALUE cannot match ``text``. A match starts with at most four runs of word characters and
    hyphens ("default" and a label of three words) separated by blanks, then the separator: so the first ":", "=",
    "—" or "–" of the text is the separator, with at most four blank-separated words before it (str.split splits
    at every blank \\s matches, so it finds no more words than the pattern does); and the value after it holds no
    colon, so the text holds at most one."""
    m = _SEPARATOR.search(text)
    return m is not None and text.count(":") <= 1 and len(text[:m.start()].split()) <= 4


def _holds_keyed_need(text: str) -> bool:
    """``any(w in text for w in _KEYED_NEEDS)``, spelt out (a generator costs more than the tests)."""
    return ":" in text or "=" in text or "\u2014" in text or "\u2013" in text or "default" in text \
        or "умолчанию" in text


def _keyed(norm: str) -> tuple[str, str, int] | None:
    """A "label: value" line ("Default editor: VS Code", «браузер по умолчанию — Firefox», "X = Y").

    Returns ("KEY:<label concept>", <value concept>, +1): two lines giving different values to the same label
    disagree, in either language when the label maps to a concept.
    """
    if not _holds_keyed_need(norm):
        return None  # every pattern below needs a separator, "default" or «по умолчанию»
    lx = lexicon()
    text = norm.strip().strip("*_ ")
    if ":" in text and _may_be_provenance_label(text):  # the label pattern ends with a colon
        text = text[_provenance_label_end(text):]  # _PROVENANCE_LABEL.sub("", text, count=1)
    text = text.rstrip(" .!").replace("**", "")
    if not _holds_keyed_need(text):
        return None  # the label removed held the only one ("User said: …")
    for rx, needs in zip(_KEYED, _KEYED_PATTERN_NEEDS):
        for w in needs:
            if w in text:
                break
        else:
            continue
        if rx is _LABEL_VALUE and not _may_be_label_value(text):
            continue
        m = rx.match(text)
        if not m:
            continue
        key_toks = [t for t in tokenize(m.group("key")) if t.kind == "word" and t.text not in _STOP
                    and t.text not in {"default", "по", "умолчанию"}]
        val_toks = [t for t in tokenize(m.group("val")) if t.kind not in {"punct"} and t.text not in _STOP]
        if not key_toks or not val_toks or len(val_toks) > 4:
            return None
        if any(t.text in {"not", "never", "no", "не", "нет", "никогда"} for t in val_toks):
            return None
        key_spans = _scan(key_toks, lx.content, lx.content_prefix, skip_code=False)
        key_ids = sorted(c for _, _, ids in key_spans for c in ids if lx.kind.get(c) not in {"generic", None})
        key = key_ids[-1] if key_ids else "w:" + _stem(key_toks[-1].text)
        val_spans = _scan(val_toks, lx.content, lx.content_prefix, skip_code=False)
        val_ids = sorted(c for s0, _, ids in val_spans if s0 == 0 for c in ids if lx.kind.get(c) != "generic")
        val = val_ids[0] if val_ids else _stem(val_toks[0].text)
        return ("KEY:" + key, val, 1)
    return None


_EXT = _lazy(r"(\.[a-z]{1,4})$")
_DOM = _lazy(r"^(\d{1,2})(?:st|nd|rd|th|-?го|-?е)$")
_FIRST_WORD = _lazy(r"\W*\w+")
_SENTENCE_END = _lazy(r"[.!?:]\s$")
#: The last word of a text and what follows it: matched on the text reversed (one match instead of a search that
#: tries every position); the word comes out reversed.
_LAST_WORD_REVERSED = _lazy(r"\W*(\w+)")
#: A capitalized word after a space, bracket or quote. The capital comes first and the lookbehind checks the
#: character before it (``(?<=[\s(«"'])\p{Lu}`` as written first): a search then skips to the capitals.
_CAPITAL = _lazy(r"\p{Lu}(?<=[\s(«\"']\p{Lu})\p{Ll}{2,}(?:-\p{Lu}?\p{Ll}+)?")
_MONTH_WORD = _lazy(
    r"^(?:(january|february|march|april|june|july|august|september|october|november|december)"
    r"|(январ|феврал|март|апрел|мая|май|июн|июл|август|сентябр|октябр|ноябр|декабр)\w*)$")
#: The first three letters of every match of _MONTH_WORD.
_MONTH_HEADS = frozenset({"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "янв", "фев",
                          "мар", "апр", "мая", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"})
_MONTH_NUM = {name: i + 1 for i, name in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"])}
_MONTH_NUM.update({name: i + 1 for i, name in enumerate(
    ["январ", "феврал", "март", "апрел", "мая", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр"])})
_MONTH_NUM["май"] = 5
_PLACE_PREP = frozenset({"in", "at", "to", "from", "near", "via", "в", "во", "на", "из", "у", "до", "через", "к"})
_QUOTED = _lazy(r"[«\"]([^»\"]{2,30})[»\"]")


def _last_word(prefix: str, reversed_rx=_LAST_WORD_REVERSED) -> str | None:
    r"""Group 1 of ``re.search(r"(\w+)\W*$", prefix)``: the last run of word characters with only non-word ones
    after it, read from the end (one match of ``reversed_rx``, _LAST_WORD_REVERSED or its compiled form, on the
    text reversed, instead of a search that tries every position)."""
    m = reversed_rx.match(prefix[::-1])
    return m.group(1)[::-1] if m else None


_PROPER_RE: tuple | None = None


def _proper_re() -> tuple:
    """The `re` forms of _proper_words' patterns (for a plain line), compiled once."""
    global _PROPER_RE
    _PROPER_RE = (_FIRST_WORD.on(True), _CAPITAL.on(True), _LAST_WORD_REVERSED.on(True), _SENTENCE_END.on(True),
                  _QUOTED.on(True))
    return _PROPER_RE


def _proper_words(nfc: str) -> frozenset[str]:
    """Normalized words written with a capital inside the line (not its first word) or inside quotes."""
    body = nfc.strip()
    if "«" not in body and '"' not in body and not _may_have_upper(body[1:]):
        return frozenset()  # neither a capital nor a quote
    first_word, capital, last_word_reversed, sentence_end, quoted = _PROPER_RE or _proper_re()
    first = first_word.match(body)
    start = first.end() if first else 0
    out = set()
    for m in capital.finditer(body, start):
        at = m.start()
        # the word before first: it rules out most capitals ("use Postgres"), the sentence test few
        prev = _last_word(body[:at], last_word_reversed)
        if not prev or prev.casefold() not in _PLACE_PREP:
            continue  # only where/with whom: "in Munich", «в Ригле», "at Anna's"; not "British spelling"
        if sentence_end.search(body[max(0, at - 2):at]):
            continue  # a new sentence or a label's value starts with a capital anyway
        out.add(normalize(m.group(0)))
    if "«" in body or '"' in body:  # every _QUOTED match starts with one
        for m in quoted.finditer(body):
            words_ = m.group(1).split()
            if len(words_) == 1:
                out.add(normalize(words_[0]))
    return frozenset(out)


def _near_month(k: int, concept_at, span_end) -> bool:
    for kk, ids in concept_at:
        if "MONTH" in ids and abs(kk - k) <= 1:
            return True
    return False


_NAME_NEEDS = ("call", "address", "refer", "name", "зови", "называй", "обращ", "зовут", "имя")


def _holds_name_need(folded: str) -> bool:
    """``any(w in folded for w in _NAME_NEEDS)``, spelt out."""
    return "call" in folded or "address" in folded or "refer" in folded or "name" in folded or "зови" in folded \
        or "называй" in folded or "обращ" in folded or "зовут" in folded or "имя" in folded


def _names(nfc: str) -> list[tuple[str, str, int]]:
    """Forms of address the line sets: "call me Sam, not Samuel" -> [(NAME, sam, +1), (NAME, samuel, -1)].

    When the line has both a name ("my name is Dmitry") and a form of address ("call me Dima"), the form of
    address is what a later line must respect.
    """
    found: list[tuple[bool, str, str, int]] = []
    folded = nfc.casefold()
    if not _holds_name_need(folded):
        return []  # (case-insensitive) every trigger holds one of these words
    for m in _NAME_TRIGGER.finditer(nfc):
        address = not _NAME_NOT_ADDRESS.match(m.group(0))
        tail = _NAME_END.split(nfc[m.end():m.end() + 80], maxsplit=1)
        seg = tail[0]
        rest = nfc[m.end() + len(seg):m.end() + len(seg) + 40]
        neg_rest = _NAME_NOT.match(rest)
        for nm in _NAME.finditer(seg):
            found.append((address, "NAME", normalize(nm.group(2)), -1 if nm.group(1) else 1))
        if neg_rest:
            found.append((address, "NAME", normalize(neg_rest.group(1)), -1))
    if any(a for a, *_ in found) and not all(a for a, *_ in found):
        found = [f for f in found if f[0]]
    return [(slot, name, sg) for _, slot, name, sg in found][:4]


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--build"]:
        print(write_built())
