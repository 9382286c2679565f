"""Invisible and bidi-control characters: which code points hide text, which uses are benign, how to strip them.

Benign on purpose: a zero-width joiner or variation selector inside an emoji sequence, an emoji flag's tag
sequence (England 🏴 + tags + cancel tag), a ZWNJ/ZWJ between letters of scripts that need them (Persian,
Indic), a BOM at the start of a file, and no-break spaces (ordinary typography, e.g. in Russian numbers).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from tiers.record import dataclass


ZW = {
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u2060": "WORD JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\u00ad": "SOFT HYPHEN",
    "\u180e": "MONGOLIAN VOWEL SEPARATOR",
    "\u2061": "FUNCTION APPLICATION",
    "\u2062": "INVISIBLE TIMES",
    "\u2063": "INVISIBLE SEPARATOR",
    "\u2064": "INVISIBLE PLUS",
    "\u034f": "COMBINING GRAPHEME JOINER",
    "\u115f": "HANGUL CHOSEONG FILLER",
    "\u1160": "HANGUL JUNGSEONG FILLER",
    "\u3164": "HANGUL FILLER",
    "\uffa0": "HALFWIDTH HANGUL FILLER",
}
BIDI = {
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
}
#: Marks that are legitimate in right-to-left text; reported only in lines without RTL letters.
BIDI_MARKS = {"\u200e": "LEFT-TO-RIGHT MARK", "\u200f": "RIGHT-TO-LEFT MARK", "\u061c": "ARABIC LETTER MARK"}

@functools.lru_cache(maxsize=1)
def _classes():
    """Script and emoji classes, compiled on first need: only lines with a candidate character get here, so the
    `regex` import (tens of milliseconds) stays off the hook path of ordinary writes."""
    import regex

    picto = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]")
    joining = regex.compile(r"[\p{Arabic}\p{Devanagari}\p{Bengali}\p{Gurmukhi}\p{Gujarati}\p{Oriya}\p{Tamil}"
                            r"\p{Telugu}\p{Kannada}\p{Malayalam}\p{Sinhala}\p{Syriac}\p{Khmer}\p{Myanmar}]")
    rtl = regex.compile(r"[\p{Hebrew}\p{Arabic}\p{Syriac}\p{Thaana}\p{Nko}]")
    return picto, joining, rtl


def _picto(ch: str):
    return _classes()[0].match(ch)


def _joining(ch: str):
    return _classes()[1].match(ch)


def _rtl(text: str):
    return _classes()[2].search(text)


@functools.lru_cache(maxsize=1)
def _candidates() -> re.Pattern[str]:
    """Every character :func:`scan` may report (a character class: compiled on first use, not at import)."""
    return re.compile(
        "[" + "".join(ZW) + "".join(BIDI) + "".join(BIDI_MARKS)
        + r"\uFE00-\uFE0F\U000E0000-\U000E007F\U000E0100-\U000E01EF\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]")


@dataclass(frozen=True, slots=True)
class Hidden:
    """One run of suspicious characters: where (0-based offsets), which kind, what it spells if anything."""

    kind: str  # "invisible", "tag", "bidi"
    start: int
    end: int
    names: tuple[str, ...]
    decoded: str = ""


def _name(ch: str) -> str:
    return ZW.get(ch) or BIDI.get(ch) or BIDI_MARKS.get(ch) or unicodedata.name(ch, f"U+{ord(ch):04X}")


def _is_tag(ch: str) -> bool:
    return 0xE0000 <= ord(ch) <= 0xE007F


def _prev_visible(text: str, i: int) -> str:
    j = i - 1
    while j >= 0 and (text[j] in "\u200d\ufe0f\ufe0e" or _is_tag(text[j]) or "\U0001F3FB" <= text[j] <= "\U0001F3FF"):
        j -= 1
    return text[j] if j >= 0 else ""


def _benign(text: str, i: int) -> bool:
    ch = text[i]
    prev = text[i - 1] if i > 0 else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if ch == "\u200d":
        # ZWJ inside an emoji sequence (👩‍💻) or between letters of a joining script
        if _picto(prev or " ") or prev in "\ufe0f" or "\U0001F3FB" <= (prev or " ") <= "\U0001F3FF":
            return bool(nxt) and bool(_picto(nxt))
        return bool(prev and nxt and _joining(prev) and _joining(nxt))
    if ch == "\u200c":
        return bool(prev and nxt and _joining(prev) and _joining(nxt))
    if "\ufe00" <= ch <= "\ufe0f":
        # variation selectors after an emoji or a character with a standard variant (digits for keycaps, ©, ™)
        if not prev or _candidates().match(prev):
            return False
        return bool(_picto(prev)) or prev in "0123456789#*©®™↔↕" or ord(prev) > 0x2000
    if _is_tag(ch):
        # emoji subdivision flags: 🏴 + lowercase letters/digits + CANCEL TAG
        base = _prev_visible(text, i)
        if base != "\U0001F3F4":
            return False
        j = i
        while j < len(text) and _is_tag(text[j]):
            j += 1
        run = text[_tag_run_start(text, i):j]
        return run.endswith("\U000E007F") and all(
            "\U000E0061" <= c <= "\U000E007A" or "\U000E0030" <= c <= "\U000E0039" for c in run[:-1])
    if ch == "\ufeff":
        return i == 0
    if ch in BIDI_MARKS:
        return bool(_rtl(text))
    return False


def _tag_run_start(text: str, i: int) -> int:
    while i > 0 and _is_tag(text[i - 1]):
        i -= 1
    return i


def _kind(ch: str) -> str:
    if ch in BIDI or ch in BIDI_MARKS:
        return "bidi"
    if _is_tag(ch):
        return "tag"
    return "invisible"


def scan(text: str) -> list[Hidden]:
    """Runs of non-benign invisible, tag or bidi characters in ``text`` (adjacent same-kind chars merged)."""
    if text.isascii() and text.isprintable():
        return []  # every candidate is a control code or outside ASCII: no class to compile for plain lines
    if _candidates().search(text) is None:
        return []
    return list(_scan(text))


@functools.lru_cache(maxsize=4096)
def _scan(text: str) -> tuple[Hidden, ...]:
    # Runs are grown as lists and made Hidden records at the end, and a tag character takes the verdict of the tag
    # just before it (the same run, the same base emoji): both were per character, the square of a long run.
    runs: list[tuple[str, int, list[str]]] = []  # (kind, start, names) of each run so far
    last_tag, last_tag_benign = -2, False
    for m in _candidates().finditer(text):
        i = m.start()
        if text[i] == "\t":
            continue
        tag = _is_tag(text[i])
        benign = last_tag_benign if tag and last_tag == i - 1 else _benign(text, i)
        if tag:
            last_tag, last_tag_benign = i, benign
        if benign:
            continue
        kind = _kind(text[i])
        if runs and runs[-1][0] == kind and runs[-1][1] + len(runs[-1][2]) == i:
            runs[-1][2].append(_name(text[i]))
        else:
            runs.append((kind, i, [_name(text[i])]))
    out = [Hidden(kind, start, start + len(names), tuple(names)) for kind, start, names in runs]
    return tuple(_decode(text, h) if h.kind == "tag" else h for h in out)


def _decode(text: str, h: Hidden) -> Hidden:
    chars = [chr(ord(c) - 0xE0000) for c in text[h.start:h.end] if 0xE0020 <= ord(c) <= 0xE007E]
    return Hidden(h.kind, h.start, h.end, h.names, "".join(chars))


def strip_hidden(text: str, kinds: tuple[str, ...] = ("invisible", "tag", "bidi")) -> str:
    """``text`` without the non-benign characters :func:`scan` reports (benign ones stay)."""
    for _ in range(4):  # removing one character can make a neighbour lose its benign context
        hits = [h for h in scan(text) if h.kind in kinds]
        if not hits:
            break
        for h in reversed(hits):
            text = text[:h.start] + text[h.end:]
    return text


def reveal(text: str) -> str:
    """What a model reads but a reviewer may not see: hidden characters removed and tag text decoded."""
    hits = scan(text)
    for h in reversed(hits):
        text = text[:h.start] + (f" {h.decoded} " if h.decoded else "") + text[h.end:]
    return text
