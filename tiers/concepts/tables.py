"""The concept lexicon: its tables built from ``tiers/data/concepts.toml``, and the shipped built copy of them."""

from __future__ import annotations

import functools
from pathlib import Path

from ..text import normalize
from .tokens import tokenize


DATA = Path(__file__).parent.with_name("data") / "concepts.toml"

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


def _ing_form(pat: tuple[tuple[str, bool], ...]) -> tuple[tuple[str, bool], ...] | None:
    """An English stem pattern ending in a silent e ("enable*", "wipe*") as its -ing form ("enabling", "wiping"),
    which the stem itself does not start: one more pattern for the same concept. None for any other pattern."""
    last, star = pat[-1]
    if not star or len(last) < 4 or not last.endswith("e") or last.endswith("ee") or not last.isascii() \
            or not last.isalpha():
        return None
    return pat[:-1] + ((last[:-1] + "ing", True),)


_VOWELS = frozenset("aeiou")


def _en_inflections(word: str) -> tuple[str, ...]:
    """The regular English inflections of a verb or noun written as one exact word ("book" -> "books", "booked",
    "booking"; "drop" -> "dropped", "dropping"; "reply" -> "replies", "replied"; "erase" -> "erased", "erasing").
    Over-generated forms of nouns ("flighted") are harmless: no text holds them."""
    if len(word) < 3 or not word.isascii() or not word.isalpha():
        return ()
    if word.endswith("e"):
        return word + "s", word + "d", word[:-1] + "ing"
    if word.endswith("y") and word[-2] not in _VOWELS:
        return word[:-1] + "ies", word[:-1] + "ied", word + "ing"
    if word.endswith(("s", "sh", "ch", "x", "z")):
        return word + "es", word + "ed", word + "ing"
    stem = word
    if len(word) <= 4 and word[-1] in "bdglmnprt" and word[-2] in _VOWELS and word[-3] not in _VOWELS:
        stem = word + word[-1]  # one syllable ending consonant-vowel-consonant: drop -> dropped
    return word + "s", stem + "ed", stem + "ing"


class PatternTable:
    """A pattern table: first token -> its (pattern, ids) entries (or their shipped string form, see
    ``_encode_entries``), kept in parts by the token's first character. A part of the shipped tables stays one
    ``marshal`` string until a token starting with its character is looked up: a line's few tokens decode a few
    parts, not thousands of entries. ``longest`` is the length of the longest first token."""

    __slots__ = ("_parts", "longest")

    def __init__(self, parts: dict | None = None, longest: int = 0) -> None:
        self._parts: dict[str, dict | bytes] = parts if parts is not None else {}
        self.longest = longest

    def _part(self, first: str) -> dict | None:
        part = self._parts.get(first[:1])
        if part.__class__ is bytes:
            import marshal

            part = self._parts[first[:1]] = marshal.loads(part)
        return part

    def get(self, key: str, default=None):
        part = self._part(key)
        return default if part is None else part.get(key, default)

    def __setitem__(self, key: str, value) -> None:
        part = self._part(key)
        if part is None:
            part = self._parts[key[:1]] = {}
        part[key] = value
        self.longest = max(self.longest, len(key))

    def setdefault(self, key: str, default):
        got = self.get(key)
        if got is None:
            self[key] = got = default
        return got

    def items(self):
        for first in list(self._parts):
            yield from self._part(first).items()

    def __iter__(self):
        return (key for key, _ in self.items())

    def values(self):
        return (value for _, value in self.items())

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __len__(self) -> int:
        return sum(1 for _ in self.items())

    def state(self) -> dict:
        """The shipped form: each part's entries in their string form, as one marshal string."""
        import marshal

        parts = {first: marshal.dumps({k: v if v.__class__ is str else _encode_entries(v)
                                       for k, v in self._part(first).items()}, _MARSHAL_VERSION)
                 for first in sorted(self._parts)}
        return {"longest": self.longest, "parts": parts}

    @classmethod
    def from_state(cls, state) -> PatternTable | None:
        if not isinstance(state, dict) or not isinstance(state.get("parts"), dict) \
                or not isinstance(state.get("longest"), int):
            return None
        return cls(dict(state["parts"]), state["longest"])


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
        self.content = PatternTable()
        self.content_prefix = PatternTable()
        self.marker = PatternTable()
        self.marker_prefix = PatternTable()
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
        self._add_inflections(data)
        for name, pats in data.get("marker", {}).items():
            self._add(self.marker, self.marker_prefix, pats, (name,))
        for cid, parents in data.get("broader", {}).items():
            self.broader[cid] = tuple(parents)
            for p in parents:
                self.kind.setdefault(p, "object")
        for a, b in data.get("antonyms", {}).get("pairs", []):
            self.antonym[b] = a
        self.weights.update({k: float(v) for k, v in data.get("weights", {}).items()})

    def _add_inflections(self, data: dict) -> None:
        """Every exact one-word English pattern of an action or an object also matches its regular inflections
        (``_en_inflections``): a rule about booking is met by a line that "booked". A form that some pattern of the
        lexicon already names keeps that pattern's concept (the lexicon's senses win over the rule)."""
        named = {t for t in self.content}
        for kind in ("action", "object"):
            for cid, pats in data.get(kind, {}).items():
                for text in pats:
                    pat = self._pattern(text)
                    if len(pat) != 1 or pat[0][1]:
                        continue
                    for form in _en_inflections(pat[0][0]):
                        if form in named:
                            continue
                        entries = self.content.setdefault(form, [])
                        if not any(ids == (cid,) for _, ids in entries):
                            entries.append((((form, False),), (cid,)))

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

    def _add(self, exact: PatternTable, prefix: PatternTable, patterns: list[str], ids: tuple[str, ...]) -> None:
        for text in patterns:
            pat = self._pattern(text)
            if not pat:
                continue
            for form in (pat, _ing_form(pat)):
                if form is None:
                    continue
                first, is_prefix = form[0]
                table = prefix if is_prefix else exact
                table.setdefault(first, []).append((form, ids))

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


#: The lexicon tables built from ``concepts.toml``, shipped beside it in ``marshal`` format (plain dicts and strings:
#: it loads in half the time JSON parses, and ``tomllib`` and the pattern tokenizer cost a fresh process ~80 ms).
#: Regenerate with ``python -m tiers.concepts --build`` after editing the TOML; a test checks the file against a
#: fresh build, and a stale or unreadable file is ignored at run time (the tables are then built from the TOML).
BUILT = DATA.with_name("concepts.built.marshal")
#: the marshal format written (4 reads on every Python since 3.4)
_MARSHAL_VERSION = 4
_BUILD_VERSION = 4  # 2: stems ending in a silent e also match their -ing form; 3: English inflections; 4: parts
_LEXICON_FIELDS = ("kind", "weights", "broader", "slot_of", "antonym", "content", "content_prefix", "marker",
                   "marker_prefix")


def blake2b(data: bytes = b"", *, digest_size: int):
    import hashlib

    return hashlib.blake2b(data, digest_size=digest_size)


def _data_digest(data: bytes) -> str:
    return blake2b(data + f"|{_BUILD_VERSION}".encode(), digest_size=12).hexdigest()


_PATTERN_TABLES = ("content", "content_prefix", "marker", "marker_prefix")


def _encode_entries(entries: list) -> str:
    """One pattern table's entries for a first token as a string: one string loads far faster than nested tuples,
    and a process decodes only the entries of the tokens its lines hold."""
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
    """The built tables as plain values (pattern tables in their string form)."""
    state = {k: getattr(lx, k) for k in _LEXICON_FIELDS}
    for k in _PATTERN_TABLES:
        state[k] = state[k].state()
    return state


def _load_built(data: bytes) -> Lexicon | None:
    import marshal

    try:
        built = marshal.loads(BUILT.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(built, dict) or built.get("digest") != _data_digest(data):
        return None  # absent or stale: built from the TOML
    tables = built.get("tables")
    if not isinstance(tables, dict) or set(tables) != set(_LEXICON_FIELDS):
        return None
    lx = Lexicon.__new__(Lexicon)
    for k in _LEXICON_FIELDS:
        table = tables[k]
        if k in _PATTERN_TABLES:  # their parts keep their shipped form until a token needs them
            table = PatternTable.from_state(table)
            if table is None:
                return None
        setattr(lx, k, table)
    lx._wcache = {}
    lx._xcache = {}
    return lx


def write_built(path: Path | None = None) -> Path:
    """Build the lexicon from the TOML and write the shipped tables (a development step)."""
    import marshal

    data = DATA.read_bytes()
    import tomllib

    lx = Lexicon(tomllib.loads(data.decode("utf-8")))
    out = path or BUILT
    out.write_bytes(marshal.dumps({"digest": _data_digest(data), "tables": _lexicon_state(lx)}, _MARSHAL_VERSION))
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
