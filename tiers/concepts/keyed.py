""""label: value" lines: the value a line gives to a labelled setting."""

from __future__ import annotations

from tiers.lazy import LazyRe

from .patterns import _lazy
from .scan import _scan
from .tables import lexicon
from .tokens import tokenize
from .words import _STOP, _stem


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
_SEPARATOR = LazyRe("[:=\u2014\u2013]")


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
