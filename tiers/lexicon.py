"""The EN/RU lexicon of tier markers: the phrases the classifier knows, read from one data file per language.

The phrases live in ``tiers/data/markers/<lang>.txt`` (how to add one: ``docs/lexicon.md``), shipped built into
``tiers/data/markers.built.json`` (``python -m tiers.lexicon --build``). They are written in a tiny pattern
language, each compiled to a stdlib ``re`` pattern the first time a line could match it, and matched against the
*folded* line (NFC, lower case, ё -> е, straight quotes and dashes; see ``tiers.text.fold``), so they
are written in lower case with е, never ё, and with straight quotes.

Pattern language (tokens separated by single spaces):

=========== ==========================================================================================
``word``     the word itself, with Unicode word boundaries (``(?<!\\w)``/``(?!\\w)``)
``stem*``    a word starting with ``stem`` (``пользовател*`` matches every case form)
``a|b*|c``   alternatives for one token
``tok?``     the token is optional
``_``        any one word; ``_?`` an optional one
``#``        a number (``3``, ``3.0``, ``11:02``)
``: ( " …``  punctuation tokens; spaces around them are optional in the text
``^``        (first token only) the phrase must start the line body
``re:…``     the rest is a raw regular expression (kept for the few structural cues words cannot say)
=========== ==========================================================================================
"""

from __future__ import annotations

import functools
import os
import re
from .record import dataclass

__all__ = ["BUILT", "CATEGORIES", "LANGS", "Entry", "Hit", "LexiconError", "Scope", "build_tables", "compile_phrase",
           "entries", "first_chars", "is_schedule_head", "is_time_head", "parse_markers", "scan", "scope_words",
           "write_built"]

#: The languages with a marker file, in the order their phrases are tried.
LANGS: tuple[str, ...] = ("en", "ru")
#: Every category of the lexicon (the tables of a marker file).
CATEGORIES: tuple[str, ...] = ("user", "decision", "hedge", "agent_hedge", "imperative", "env", "env_source",
                                "env_subject", "env_hedge")
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "markers")


@dataclass(frozen=True, slots=True)
class Entry:
    """One phrase of a category: its language, its text in the pattern language and its weight (env cues)."""

    lang: str
    phrase: str
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Hit:
    """Where a phrase matched the folded line (``start``/``end`` index the folded text)."""

    start: int
    end: int
    lang: str
    phrase: str
    weight: float


@dataclass(frozen=True, slots=True)
class Scope:
    """The scope vocabulary of every language, merged (word tuples and sets of folded words)."""

    temporal: tuple[tuple[str, ...], ...]
    strong: tuple[tuple[str, ...], ...]
    weak: tuple[tuple[str, ...], ...]
    dated: tuple[tuple[str, ...], ...]
    restricted: tuple[tuple[str, ...], ...]
    conjunctions: frozenset[str]
    only: frozenset[str]
    schedule_heads: tuple[str, ...]
    time_heads: tuple[str, ...]
    clause_subjects: frozenset[str]
    adjective_endings: tuple[str, ...]
    determiners: frozenset[str]
    attached: frozenset[str]
    range_to: frozenset[str]
    audience_endings: tuple[str, ...]
    comparatives: frozenset[str]


class LexiconError(ValueError):
    """A marker file is missing or holds a malformed entry (a packaging or editing error)."""


# -- data ----------------------------------------------------------------------------------------------------------
#: The sections a marker file may hold: the categories, and the scope vocabulary (``[scope.<name>]``).
SCOPE_SECTIONS: tuple[str, ...] = ("temporal", "strong", "weak", "dated", "restricted", "conjunctions", "only",
                                   "schedule_heads", "time_heads", "clause_subjects", "adjective_endings",
                                   "determiners", "attached", "range_to", "audience_endings", "comparatives")
_SECTIONS = frozenset(CATEGORIES) | {f"scope.{name}" for name in SCOPE_SECTIONS}


def parse_markers(text: str, name: str) -> dict[str, list[Entry]]:
    """The sections of one marker file (``name`` for messages, e.g. ``markers/en.txt``).

    The format is one entry a line under a ``[section]`` header; blank lines and lines starting with ``#`` are
    skipped. An ``[env]`` line starts with its weight (``0.5 shows|showed``); ``[scope.*]`` lines are words."""
    lang = os.path.splitext(os.path.basename(name))[0]
    out: dict[str, list[Entry]] = {}
    section = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            if section not in _SECTIONS:
                raise LexiconError(f"{name}:{n}: unknown section [{section}]; expected one of "
                                   f"{', '.join(sorted(_SECTIONS))}")
            out.setdefault(section, [])
            continue
        if section is None:
            raise LexiconError(f"{name}:{n}: entry before any [section] header")
        weight = 1.0
        if section == "env":
            head, _, line = line.partition(" ")
            try:
                weight = float(head)
            except ValueError:
                raise LexiconError(f"{name}:{n}: an [env] line starts with its weight, e.g. '0.5 {raw.strip()}'") \
                    from None
            line = line.strip()
            if not line or not 0.0 < weight <= 1.0:
                raise LexiconError(f"{name}:{n}: expected 'WEIGHT PHRASE' with 0 < WEIGHT <= 1")
        out[section].append(Entry(lang, line, weight))
    return out


@functools.cache
def _sources() -> dict[str, str]:
    """Each language's marker file, as text."""
    out = {}
    for lang in LANGS:
        path = os.path.join(DATA_DIR, f"{lang}.txt")
        try:
            with open(path, encoding="utf-8") as fh:
                out[lang] = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise LexiconError(f"markers/{lang}.txt: cannot read the marker lexicon ({exc})") from None
    return out


def _section(lang: str, name: str) -> list[tuple[str, float]]:
    """(phrase, weight) of each entry of one section of one language, from the built tables."""
    text = _tables()["sections"][lang].get(name, "")
    return [(phrase, float(weight)) for weight, _, phrase in (row.partition(" ") for row in text.split("\n"))] \
        if text else []


@functools.cache
def entries(category: str) -> tuple[Entry, ...]:
    """The entries of ``category``, every language in ``LANGS`` order (earlier entries win at one position)."""
    return tuple(Entry(lang, phrase, weight) for lang in LANGS for phrase, weight in _section(lang, category))


@functools.cache
def scope_words() -> Scope:
    """The scope vocabulary of all languages (``[scope]`` of each marker file)."""
    merged = {key: [phrase for lang in LANGS for phrase, _ in _section(lang, f"scope.{key}")]
              for key in SCOPE_SECTIONS}

    def seqs(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(w.split()) for w in merged.get(key, ()))

    return Scope(
        temporal=seqs("temporal"), strong=seqs("strong"), weak=seqs("weak"), dated=seqs("dated"),
        restricted=seqs("restricted"),
        conjunctions=frozenset(merged.get("conjunctions", ())), only=frozenset(merged.get("only", ())),
        schedule_heads=tuple(merged.get("schedule_heads", ())), time_heads=tuple(merged.get("time_heads", ())),
        clause_subjects=frozenset(merged.get("clause_subjects", ())),
        adjective_endings=tuple(merged.get("adjective_endings", ())),
        determiners=frozenset(merged.get("determiners", ())),
        attached=frozenset(merged.get("attached", ())),
        range_to=frozenset(merged.get("range_to", ())),
        audience_endings=tuple(merged.get("audience_endings", ())),
        comparatives=frozenset(merged.get("comparatives", ())),
    )


# -- compilation ---------------------------------------------------------------------------------------------------
_NUMBER = r"\d+(?:[.,:]\d+)*"
_ANY_WORD = r"[\w][\w.\-/'`]*"
_SPACE = r"\s+"
_MAYBE_SPACE = r"\s*"


def _token(tok: str) -> tuple[str, bool, bool]:
    """(regex, is_word, optional) for one token of the pattern language."""
    optional = tok.endswith("?") and len(tok) > 1
    if optional:
        tok = tok[:-1]
    if tok == "_":
        return _ANY_WORD, True, optional
    if tok == "#":
        return _NUMBER, True, optional
    alts = []
    for alt in tok.split("|"):
        if alt.endswith("*") and len(alt) > 1:
            alts.append(re.escape(alt[:-1]) + r"[\w\-]*")
        else:
            alts.append(re.escape(alt))
    wordy = all(a[:1].isalnum() for a in tok.split("|"))
    return "(?:" + "|".join(alts) + ")", wordy, optional


def compile_phrase(phrase: str) -> str:
    """The regular expression for one phrase of the pattern language (see the module docstring)."""
    if phrase.startswith("re:"):
        return phrase[3:]
    anchored = phrase.startswith("^")
    if anchored:
        phrase = phrase[1:]
    toks = [_token(t) for t in phrase.split(" ") if t]
    if not toks:
        raise LexiconError(f"empty phrase {phrase!r}")
    out = "^" if anchored else ""
    out += r"(?<!\w)" if toks[0][1] else ""
    for i, (pat, wordy, optional) in enumerate(toks):
        if i == 0:
            if optional and len(toks) > 1:
                sep = _SPACE if (wordy and toks[1][1]) else _MAYBE_SPACE
                out += "(?:" + pat + sep + ")?"
            else:
                out += pat
            continue
        if i == 1 and toks[0][2]:
            sep = ""  # the optional first token carried its own separator
        else:
            sep = _SPACE if (toks[i - 1][1] and wordy) else _MAYBE_SPACE
        out += "(?:" + sep + pat + ")?" if optional else sep + pat
    if toks[-1][1]:
        out += r"(?!\w)"
    return out


_WORD_RUN = re.compile(r"\w+")


def _keys(phrase: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(words, stems) one of which every match of ``phrase`` starts at: a match begins at a ``\\w`` run of the line
    that is one of the words or starts with one of the stems. None when a match may start elsewhere (raw patterns,
    a wildcard or punctuation first): such a phrase is searched for over the whole line. A ``^`` phrase has the
    keys of its first word (its pattern then fails fast anywhere but at the start)."""
    if phrase.startswith("re:"):
        return _raw_keys(phrase[3:])
    phrase = phrase.removeprefix("^")
    words: set[str] = set()
    stems: set[str] = set()
    for tok in phrase.split(" "):
        if not tok:
            continue
        optional = tok.endswith("?") and len(tok) > 1
        bare = tok[:-1] if optional else tok
        if bare in ("_", "#"):
            return None
        for alt in bare.split("|"):
            stem = alt.endswith("*") and len(alt) > 1
            text = alt[:-1] if stem else alt
            run = _WORD_RUN.match(text)
            if run is None:
                return None
            (stems if stem and run.end() == len(text) else words).add(run.group())
        if not optional:  # a match starts at this token, or at an optional one before it
            return frozenset(words), frozenset(stems)
    return None


_RAW_LEAD = re.compile(r"\w+")


def _raw_keys(pattern: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The stem a raw pattern's every match starts with: its leading letters, when the pattern opens with them, no
    quantifier follows them and it has no top-level ``|`` (``may(?<!\\wmay)…``, ``мо(?:жет|гут)…``); else None."""
    lead = _RAW_LEAD.match(pattern)
    if lead is None or pattern[lead.end():lead.end() + 1] in ("*", "?", "+", "{", "|"):
        return None
    depth = 0
    escaped = in_class = False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            return None
    return frozenset(), frozenset({lead.group()})


@dataclass(frozen=True, slots=True)
class _Index:
    """Every category's phrases by the words a match can start at, and the few searched for over the line; each
    posting list is a string of ``category.entry`` pairs (:func:`_postings`), decoded for the words a line holds."""

    by_word: dict[str, str]
    by_stem: dict[str, str]
    stem_lengths: tuple[int, ...]
    loose: tuple[tuple[int, int], ...]


#: The marker files built into the tables a scan reads (each section's entries, the index of their first words),
#: shipped beside them: parsing the files and deriving every phrase's keys cost a fresh process ~2 ms. Rebuild with
#: ``python -m tiers.lexicon --build`` after editing a marker file; a build not made from the files as they are is
#: ignored at run time (the tables are built in memory instead) and a test fails until it is rebuilt.
BUILT = os.path.join(os.path.dirname(DATA_DIR), "markers.built.json")
_BUILD_VERSION = 2  # 2: each phrase's required words and first characters


def _digest(sources: dict[str, str]) -> str:
    import hashlib

    h = hashlib.blake2b(f"markers|{_BUILD_VERSION}".encode(), digest_size=12)
    for lang in sorted(sources):
        h.update(f"|{lang}|{len(sources[lang])}|".encode() + sources[lang].encode("utf-8"))
    return h.hexdigest()


def build_tables(sources: dict[str, str]) -> dict:
    """The tables of the marker files ``sources`` (language -> text), as JSON-ready values. LexiconError for a
    malformed file."""
    data = {lang: parse_markers(text, f"markers/{lang}.txt") for lang, text in sources.items()}
    by_word: dict[str, list[str]] = {}
    by_stem: dict[str, list[str]] = {}
    loose: list[str] = []
    required: dict[str, str] = {}
    starts: dict[str, str] = {}
    for ci, category in enumerate(CATEGORIES):
        phrases = [e.phrase for lang in LANGS for e in data.get(lang, {}).get(category, ())]
        for idx, phrase in enumerate(phrases):
            keys = _keys(phrase)
            posting = f"{ci}.{idx}"
            if need := _required_of(phrase):
                required[posting] = " ".join("|".join(group) for group in need)
            if phrase.startswith("re:") and (first := first_chars(phrase[3:])) is not None:
                starts[posting] = ("d" if first[1] else "-") + "".join(sorted(first[0]))
            if keys is None:
                loose.append(posting)
                continue
            for word in keys[0]:
                by_word.setdefault(word, []).append(posting)
            for stem in keys[1]:
                by_stem.setdefault(stem, []).append(posting)
    return {
        "digest": _digest(sources),
        "sections": {lang: {name: "\n".join(f"{e.weight!r} {e.phrase}" for e in items) for name, items in secs.items()}
                     for lang, secs in data.items()},
        "by_word": {k: " ".join(v) for k, v in sorted(by_word.items())},
        "by_stem": {k: " ".join(v) for k, v in sorted(by_stem.items())},
        "loose": " ".join(loose),
        "required": required,
        "starts": starts,
    }


def write_built(path: str | None = None) -> str:
    """Build the tables from the marker files and write the shipped copy (a development step)."""
    import json

    out = path or BUILT
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(build_tables(_sources()), ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    return out


@functools.cache
def _tables() -> dict:
    """The built tables: the shipped copy when it was built from the marker files as they are, else built now."""
    import json

    sources = _sources()
    try:
        with open(BUILT, encoding="utf-8") as fh:
            built = json.load(fh)
    except (OSError, ValueError):
        built = None
    if (isinstance(built, dict) and built.get("digest") == _digest(sources)
            and set(built) == {"digest", "sections", "by_word", "by_stem", "loose", "required", "starts"}):
        return built
    return build_tables(sources)


def _postings(text: str) -> tuple[tuple[int, int], ...]:
    """``"0.3 2.14"`` -> ((0, 3), (2, 14))."""
    return tuple((int(ci), int(idx)) for ci, _, idx in (p.partition(".") for p in text.split())) if text else ()


@functools.cache
def _index() -> _Index:
    tables = _tables()
    return _Index(tables["by_word"], tables["by_stem"], tuple(sorted({len(k) for k in tables["by_stem"]})),
                  _postings(tables["loose"]))


@functools.cache
def _pattern(ci: int, idx: int) -> re.Pattern[str]:
    """The compiled phrase, made when a line first needs it (a hook process compiles only a few)."""
    entry = entries(CATEGORIES[ci])[idx]
    try:
        return re.compile(compile_phrase(entry.phrase))
    except re.error as exc:
        raise LexiconError(f"markers/{entry.lang}.txt: [{CATEGORIES[ci]}] {entry.phrase!r}: {exc}") from None


#: the longest word prefix the required-word check compares (the marker files' longest is 15 characters). A longer
#: required prefix is cut to it: a run that starts with the prefix starts with its cut, so the check stays a
#: necessary condition, and a line's heads stay linear in its length without reading every phrase of the lexicon
#: first (each hook call is a fresh process and checks a few lines)
_HEAD_CAP = 16


@functools.cache
def _required(ci: int, idx: int) -> tuple[tuple[str, ...], ...]:
    """:func:`_required_of` the phrase, from the built tables."""
    text = _tables()["required"].get(f"{ci}.{idx}", "")
    return tuple(tuple(group.split("|")) for group in text.split(" ")) if text else ()


def _required_of(phrase: str) -> tuple[tuple[str, ...], ...]:
    """What every match of a phrase leaves in the line, so a line without it is never matched against the phrase
    (and the phrase is compiled only for a line that could match it): per required word token, the word prefixes
    one of which some ``\\w`` run of the line starts with. A token counts when it is not optional, is a word
    token (``a|b*``; ``_``, ``#`` and punctuation give nothing) and its match must start a run: the first token
    (``(?<!\\w)`` before it) or one that ``\\s+`` separates from the word token before it. Each alternative gives
    its leading word characters (a stem's stem, ``error`` of ``error.log``). A token after punctuation (``\\s*``
    between them) counts when every form of that punctuation ends in a non-word character. Raw patterns give
    nothing."""
    if phrase.startswith("re:"):
        return ()
    toks = [t for t in phrase.removeprefix("^").split(" ") if t]
    parsed = []
    for tok in toks:
        optional = tok.endswith("?") and len(tok) > 1
        bare = tok[:-1] if optional else tok
        wordy = bare not in ("_", "#") and all(a[:1].isalnum() for a in bare.split("|"))
        parsed.append((bare, optional, wordy or bare in ("_", "#")))
    out = []
    for i, (bare, optional, wordy) in enumerate(parsed):
        if optional or not wordy or bare in ("_", "#"):
            continue
        if i == 0:
            starts_run = True
        elif i == 1 and parsed[0][1]:
            starts_run = parsed[0][2]  # an optional word token first: (?<!\w) before it, \s+ after it
        elif parsed[i - 1][2]:
            starts_run = True  # \s+ between two word tokens
        else:  # \s* after punctuation: a run starts here if every form of that punctuation ends in a non-word
            prev, prev_optional, _ = parsed[i - 1]
            starts_run = not prev_optional and all(
                alt and not alt.endswith("*") and not (alt[-1].isalnum() or alt[-1] == "_") for alt in prev.split("|"))
        if not starts_run:
            continue
        prefixes = []
        for alt in bare.split("|"):
            run = _WORD_RUN.match(alt[:-1] if alt.endswith("*") and len(alt) > 1 else alt)
            if run is None:
                break
            prefixes.append(run.group()[:_HEAD_CAP])
        else:
            out.append(tuple(prefixes))
    return tuple(out)


def _heads(folded: str) -> frozenset[str]:
    """Every prefix of every ``\\w`` run of ``folded`` up to ``_HEAD_CAP`` characters (a run of any length gives a
    bounded number): a run starts with ``p`` (of at most that length) iff ``p`` is one of them."""
    return frozenset(w[:i] for w in set(_WORD_RUN.findall(folded)) for i in range(1, min(len(w), _HEAD_CAP) + 1))


def _may_match(ci: int, idx: int, heads: frozenset[str]) -> bool:
    """False when the line whose ``\\w`` runs start with ``heads`` (every prefix of every run) lacks what every
    match of the phrase has (:func:`_required`): a run starts with a required prefix iff that prefix is a head."""
    for prefixes in _required(ci, idx):
        if not any(p in heads for p in prefixes):
            return False
    return True


# -- the first-character check that spares compiling raw patterns a line cannot match -----------------------------
#: a decimal digit (what ``\d`` matches in a str pattern)
_DIGIT = re.compile(r"\d")
_QUANTIFIER = re.compile(r"(?:[?*+]|\{(\d*)(?:,\d*)?\})[?+]?")


class _Unbounded(Exception):
    """A construct :func:`first_chars` does not read (it then bounds nothing)."""


def first_chars(pattern: str) -> tuple[frozenset[str], bool] | None:
    """``(characters, digit)``: the first character every match of the regular expression ``pattern`` consumes is
    one of ``characters``, or a decimal digit when ``digit``. None when a match may be empty or start with
    something this reading does not bound (``.``, ``\\w``, a negated set, a backreference, inline flags).

    A line holding none of them cannot match, so the pattern is not compiled for it: a raw phrase has no words to
    index (``_keys``), and without this every line compiled every one of them."""
    try:
        chars, digit, nullable, end = _alternatives(pattern, 0)
    except _Unbounded:
        return None
    if nullable or end != len(pattern):
        return None
    return frozenset(chars), digit


def _alternatives(p: str, i: int) -> tuple[set[str], bool, bool, int]:
    chars: set[str] = set()
    digit = nullable = False
    while True:
        c, d, n, i = _sequence(p, i)
        chars |= c
        digit, nullable = digit or d, nullable or n
        if i < len(p) and p[i] == "|":
            i += 1
            continue
        return chars, digit, nullable, i


def _sequence(p: str, i: int) -> tuple[set[str], bool, bool, int]:
    """The first characters of a concatenation: of its items up to the first that cannot be empty."""
    chars: set[str] = set()
    digit, still_empty = False, True
    while i < len(p) and p[i] not in "|)":
        if not still_empty:  # what follows an item that consumes a character is never first: only skipped
            i = _group_end(p, i, stop="|)")
            break
        c, d, nullable, zero_width, i = _atom(p, i)
        q = _QUANTIFIER.match(p, i)
        if q is not None:
            i = q.end()
            nullable = nullable or q.group()[0] in "?*" or (q.group()[0] == "{" and not int(q.group(1) or 0))
        if zero_width:
            continue
        chars |= c
        digit = digit or d
        still_empty = nullable
    return chars, digit, still_empty, i


def _atom(p: str, i: int) -> tuple[set[str], bool, bool, bool, int]:
    """(first characters, digit, may be empty, zero-width, end) of the item at ``i``."""
    ch = p[i]
    if ch == "(":
        if not p.startswith("(?", i):
            return _group(p, i + 1)
        if p[i + 2:i + 3] in (":", ">"):
            return _group(p, i + 3)
        if p.startswith("(?P<", i):
            return _group(p, p.index(">", i) + 1)
        if p[i + 2:i + 3] in ("=", "!") or p[i + 2:i + 4] in ("<=", "<!"):  # a lookaround consumes nothing
            return set(), False, True, True, _group_end(p, i)
        raise _Unbounded  # inline flags, a conditional, a comment
    if ch == "[":
        end = _class_end(p, i)
        chars, digit = _class(p[i + 1:end - 1])
        return chars, digit, False, False, end
    if ch == "\\":
        e = p[i + 1:i + 2]
        if e == "d":
            return set(), True, False, False, i + 2
        if e in ("b", "B", "A", "Z"):
            return set(), False, True, True, i + 2
        if not e or e.isalnum() or e == "_":
            raise _Unbounded  # \w, \s, a backreference, a code point
        return {e}, False, False, False, i + 2
    if ch in "^$":
        return set(), False, True, True, i + 1
    if ch == ".":
        raise _Unbounded
    return {ch}, False, False, False, i + 1


def _group(p: str, j: int) -> tuple[set[str], bool, bool, bool, int]:
    chars, digit, nullable, j = _alternatives(p, j)
    if j >= len(p) or p[j] != ")":
        raise _Unbounded
    return chars, digit, nullable, False, j + 1


def _group_end(p: str, i: int, stop: str = "") -> int:
    """The end of the group opening at ``i``, read past escapes and sets; with ``stop``, the position of the first
    of its characters outside any group from ``i`` on (or the end)."""
    depth = 0
    while i < len(p):
        ch = p[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(p, i)
            continue
        if depth == 0 and ch in stop:
            return i
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and not stop:
                return i + 1
        i += 1
    if stop:
        return i
    raise _Unbounded


def _class_end(p: str, i: int) -> int:
    """The end of the set opening at ``i`` (a ``]`` first in it is a character of it)."""
    k = i + 1
    if p[k:k + 1] == "^":
        k += 1
    if p[k:k + 1] == "]":
        k += 1
    while k < len(p):
        if p[k] == "\\":
            k += 2
            continue
        if p[k] == "]":
            return k + 1
        k += 1
    raise _Unbounded


def _class(body: str) -> tuple[set[str], bool]:
    """The characters of a set's body (``a-z``, ``$€``, ``\\d``, escapes), or _Unbounded (a negated set, ``\\w``)."""
    if body.startswith("^"):
        raise _Unbounded
    chars: set[str] = set()
    digit = False
    k = 0

    def char_at(k: int) -> tuple[str | None, int]:
        if body[k] != "\\":
            return body[k], k + 1
        e = body[k + 1:k + 2]
        if e == "d":
            return None, k + 2
        if not e or e.isalnum() or e == "_":
            raise _Unbounded
        return e, k + 2

    while k < len(body):
        lo, k = char_at(k)
        if lo is None:
            digit = True
            continue
        if body[k:k + 1] == "-" and k + 1 < len(body):
            hi, k = char_at(k + 1)
            if hi is None or ord(hi) - ord(lo) > 4096:
                raise _Unbounded
            chars.update(map(chr, range(ord(lo), ord(hi) + 1)))
        else:
            chars.add(lo)
    return chars, digit


@functools.cache
def _starts(ci: int, idx: int) -> tuple[frozenset[str], bool] | None:
    """:func:`first_chars` of a raw phrase, from the built tables; None for a phrase of the pattern language (its
    words tell more) and for a raw pattern it does not bound."""
    text = _tables()["starts"].get(f"{ci}.{idx}")
    return None if text is None else (frozenset(text[1:]), text[0] == "d")


def _may_start(ci: int, idx: int, chars: frozenset[str], digit: bool) -> bool:
    """False when a line made of ``chars`` (holding a digit when ``digit``) has no character a match of the
    phrase can start with (:func:`_starts`)."""
    first = _starts(ci, idx)
    return first is None or not first[0].isdisjoint(chars) or (first[1] and digit)


@functools.lru_cache(maxsize=65536)
def _candidates(word: str) -> tuple[tuple[int, int], ...]:
    """(category, entry) of every phrase a match of which can start at ``word`` (memory files repeat their words:
    cached, it is one lookup per word of a line)."""
    index = _index()
    cands = list(_postings(index.by_word.get(word, "")))
    for size in index.stem_lengths:
        if size > len(word):
            break
        cands.extend(_postings(index.by_stem.get(word[:size], "")))
    return tuple(cands)


def scan(folded: str, categories: tuple[str, ...] = CATEGORIES) -> dict[str, list[Hit]]:
    """Each category's matches in ``folded``, left to right and never overlapping within a category; where
    several phrases match at one position, the earliest entry of the category wins."""
    index = _index()
    found: set[tuple[int, int, int, int]] = set()  # (category, start, entry, end)
    runs = list(_WORD_RUN.finditer(folded))
    heads = _heads(folded)
    for m in runs:
        pos = m.start()
        for ci, idx in _candidates(m.group()):
            if not _may_match(ci, idx, heads):
                continue
            hit = _pattern(ci, idx).match(folded, pos)
            if hit is not None:
                found.add((ci, hit.start(), idx, hit.end()))
    chars, digit = frozenset(folded), _DIGIT.search(folded) is not None
    for ci, idx in index.loose:
        if not _may_match(ci, idx, heads) or not _may_start(ci, idx, chars, digit):
            continue
        for hit in _pattern(ci, idx).finditer(folded):
            found.add((ci, hit.start(), idx, hit.end()))
    wanted = {CATEGORIES.index(c): c for c in categories}
    out: dict[str, list[Hit]] = {c: [] for c in categories}
    last_end = dict.fromkeys(wanted, -1)
    for ci, start, idx, end in sorted(found):
        if ci not in wanted or start < last_end[ci]:
            continue
        last_end[ci] = max(end, start + 1)
        e = entries(wanted[ci])[idx]
        out[wanted[ci]].append(Hit(start, end, e.lang, e.phrase, e.weight))
    return out


# -- word sets of the scope finder ---------------------------------------------------------------------------------
def _in_word_set(words: tuple[str, ...], token: str) -> bool:
    """``token`` is one of ``words``, or starts with the stem of a ``stem*`` entry and goes on in word characters."""
    for w in words:
        if w.endswith("*"):
            rest = token[len(w) - 1:]
            if token.startswith(w[:-1]) and (not rest or rest.replace("_", "a").isalnum()):
                return True
        elif token == w:
            return True
    return False


def is_schedule_head(token: str) -> bool:
    """``token`` (a folded word) names a schedule: a weekday, weekends, mornings."""
    return _in_word_set(scope_words().schedule_heads, token)


def is_time_head(token: str) -> bool:
    """``token`` (a folded word) names a time: a month, a quarter, a week."""
    return _in_word_set(scope_words().time_heads, token)


if __name__ == "__main__":  # python -m tiers.lexicon --build
    import sys

    if sys.argv[1:] == ["--build"]:
        print(write_built())
    else:
        print("usage: python -m tiers.lexicon --build", file=sys.stderr)
        sys.exit(2)
