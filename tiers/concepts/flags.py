"""Per-token flags of a line: what each token can start or give, computed once per distinct token text."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed

from tiers.lazy import LazyRe

from .patterns import _plain
from .scan import _scan_entry
from .tokens import _CLOSING, _PUNCT_TEXTS, _chunk_tokens, _clock_tokens, _tokens
from .words import (
    _ANY, _BOUNDARY_FIRST, _CITY_TIME_NEEDS, _CONTINUE, _DATE_FORMAT, _DOM, _MONTHS, _MONTH_HEADS, _MONTH_NUM,
    _MONTH_WORD, _NEEDED, _NOT_LEXICAL, _NUM_WORDS, _RU_PAST_NOT, _SPLIT_PUNCT, _STOP, _TZ_ABBR, _VALUE_KINDS, _VIA,
    _WORKS, _en_past, _may_have_digit, _ru_participle, _ru_past,
)

if TYPE_CHECKING:
    from .tables import Lexicon


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
_HAS_CITY_NEED = LazyRe("|".join(_CITY_TIME_NEEDS))
_HAS_MON_EN = LazyRe("|".join(k for k in _MONTHS if k.isascii()))
_HAS_MON_ANY = LazyRe("|".join(_MONTHS))


_DATE_LETTERS = str.maketrans({"д": "d", "м": "m", "г": "y"})


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
    fm = _DATE_FORMAT.match(t) if t[:1] in ("d", "m", "y", "д", "м", "г") else None
    # «ДД.ММ.ГГГГ» is "DD.MM.YYYY": the parts' letters in Latin
    date_format = "".join(g[0] for g in fm.groups()).translate(_DATE_LETTERS) if fm else "ymd" if t == "8601" \
        else None  # ISO 8601 is year-month-day
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
