"""Names in a line: forms of address it sets, and proper words (places, shops, people)."""

from __future__ import annotations

from ..text import normalize
from .patterns import _lazy
from .words import _STOP, _may_have_upper


_NAME_TRIGGER = _lazy(
    r"(?i)\b(?:call\s+me|call\s+(?:the\s+user|him|her|them)|address\s+(?:me|the\s+user|him|her|them)\s+as|"
    r"refer\s+to\s+(?:me|the\s+user|him|her)\s+as|my\s+name\s+is|name\s*:|"
    r"зови(?:те)?\s+меня|называй(?:те)?\s+меня|обращаться\s+к\s+(?:пользователю|нему|ней|мне)\s*:?|"
    r"обращайся\s+ко\s+мне|(?:меня|его|её|ее)\s+зовут|(?:his|her)\s+name\s+is|имя\s*:|обращение\s*:)"
)
_NAME_NOT_ADDRESS = _lazy(r"(?i)(?:my\s+name|his\s+name|her\s+name|name\s*:|имя|(?:меня|его|её|ее)\s+зовут)")
_NAME_END = _lazy(r"[.;(\n,]|\s(?:and|but|и|но)\s")
_NAME_NOT = _lazy(r"\s*[,;]?\s*(?:not|не|instead\s+of|вместо)\s+([A-ZА-ЯЁ][\w'-]+)")
_NAME = _lazy(r"(?<![\w])(?:(not|не|instead\s+of|вместо)\s+)?([A-ZА-ЯЁ][\w'-]+(?:\s+[A-ZА-ЯЁ][\w'-]+){0,2})")
_FIRST_WORD = _lazy(r"\W*\w+")
_SENTENCE_END = _lazy(r"[.!?:]\s$")
#: The last word of a text and what follows it: matched on the text reversed (one match instead of a search that
#: tries every position); the word comes out reversed.
_LAST_WORD_REVERSED = _lazy(r"\W*(\w+)")
#: A capitalized word after a space, bracket or quote. The capital comes first and the lookbehind checks the
#: character before it (``(?<=[\s(«"'])\p{Lu}`` as written first): a search then skips to the capitals.
_CAPITAL = _lazy(r"\p{Lu}(?<=[\s(«\"']\p{Lu})\p{Ll}{2,}(?:-\p{Lu}?\p{Ll}+)?")
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
    _PROPER_RE = (_FIRST_WORD.on(), _CAPITAL.on(), _LAST_WORD_REVERSED.on(), _SENTENCE_END.on(),
                  _QUOTED.on())
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
            if len(words_) == 1 and len(words_[0]) > 2 and normalize(words_[0]) not in _STOP:
                out.add(normalize(words_[0]))  # (a quoted pronoun, «на «вы»», is a form of address, not a name)
    return frozenset(out)


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


#: A run of two or more capitalized words (a title or a name: "Meat Loaf", "Sugar Ray", "Bat Out of Hell").
_CAPITAL_RUN = _lazy(r"(?<![\w'’])\p{Lu}\p{Ll}+(?:['’]s)?(?:\s+(?:of|the|and|de|von|van|du|la)?\s*\p{Lu}\p{Ll}+)+")
#: A Russian surname: a capitalized word in -ов/-ев/-ин/-ын or -ский/-цкий, in any case and gender («Мясников»,
#: «Мясниковой», «Рыбаков», «Винокурова», «Сахаровский»).
_RU_SURNAME = _lazy(r"(?<![\w-])\p{Lu}\p{Ll}+(?:ов|ев|ин|ын)(?:а|у|ым|ой|е|ых|ыми|ы)?(?![\w-])|"
                    r"(?<![\w-])\p{Lu}\p{Ll}+(?:ск|цк)(?:ий|ая|ого|ой|ому|им|ую|ие|их)(?![\w-])")


def name_words(nfc: str, known) -> frozenset[str]:
    """Normalized words that are part of a proper name in the line, so the thing a word of it names is not meant:
    "Meat Loaf" is a singer, «Мясников» a surname, "Sugar Ray" a band. A name is a run of capitalized words, not
    the line's first word alone, holding a word the lexicon does not know (``known``: the normalized words it knows;
    "Code Review" or "Team Dinner" are titles of known things, kept), or a capitalized word of the shape of a
    Russian surname."""
    body = nfc.strip()
    if not _may_have_upper(body):
        return frozenset()
    out = set()
    for m in _CAPITAL_RUN.finditer(body):
        words_ = [normalize(w) for w in m.group(0).replace("’", "'").split()]
        words_ = [w[:-2] if w.endswith("'s") else w for w in words_]
        caps = [w for w in words_ if w not in {"of", "the", "and", "de", "von", "van", "du", "la"}]
        if len(caps) >= 2 and any(not known(w) for w in caps):
            out.update(caps)
    if not body.isascii():
        for m in _RU_SURNAME.finditer(body):
            out.add(normalize(m.group(0)))
    return frozenset(out)
