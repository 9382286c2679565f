"""Words for matching insights: Unicode tokens, a working EN (Porter2) and RU (Snowball) stemmer, negation scope.

Chitin's tokenizer split on ASCII ``\\W`` (Cyrillic became separators) and its stemmer only ever removed
``-ness``. Everything here is for matching only; nothing is ever written back to a file.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_WORD_RE = re.compile(r"\w+")
_NT_RE = re.compile(r"(?<=\w)n['’]t\b")
_CANT_RE = re.compile(r"\b(can)not\b")


@functools.lru_cache(maxsize=1)
def _tiers_normalize():
    """The memory model's normaliser when it exists (one definition for the whole project)."""
    try:
        from tiers.text import normalize as tiers_normalize  # type: ignore[import-not-found]
    except ImportError:
        return None
    return tiers_normalize


@functools.lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """NFC, casefold, ё→е, curly apostrophes straightened, whitespace collapsed (matching only)."""
    if text.isascii():  # same result as the memory model's normaliser, at C speed
        return " ".join(text.lower().split())
    tiers_normalize = _tiers_normalize()
    if tiers_normalize is not None:
        return tiers_normalize(text)
    text = unicodedata.normalize("NFC", text).casefold().replace("ё", "е")
    text = text.replace("’", "'").replace("‘", "'")
    return " ".join(text.split())


def words(text: str) -> list[str]:
    """Normalised Unicode word tokens, with ``n't`` expanded to ``not`` (so negation survives tokenising)."""
    norm = _NT_RE.sub(" not", normalize(text))
    norm = _CANT_RE.sub(r"\1 not", norm)
    return _WORD_RE.findall(norm)


def plain_words(text: str) -> list[str]:
    """Normalised word tokens without the negation rewrite (for hashing and relevance)."""
    return _WORD_RE.findall(normalize(text))


def chitin_tokens(text: str) -> set[str]:
    """Chitin's ``similar`` tokenizer, made Unicode-aware: lowercase words longer than 2 characters, as a set."""
    return {w for w in _WORD_RE.findall(text.lower()) if len(w) > 2}


# -- English: Porter2 (Snowball English) ------------------------------------------------------------------
_V = frozenset("aeiouy")
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_END = frozenset("cdeghkmnrt")
_EXCEPTIONS = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
    "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl", "sky": "sky",
    "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}
_EXCEPTIONS_1A = frozenset(("inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"))
_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("abli", "able"), ("entli", "ent"),
    ("ization", "ize"), ("izer", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("aliti", "al"),
    ("alli", "al"), ("fulness", "ful"), ("ousli", "ous"), ("ousness", "ous"), ("iveness", "ive"), ("iviti", "ive"),
    ("biliti", "ble"), ("bli", "ble"), ("fulli", "ful"), ("lessli", "less"), ("ogi", "og"), ("li", ""),
)
_STEP3 = (
    ("ational", "ate"), ("tional", "tion"), ("alize", "al"), ("icate", "ic"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""), ("ative", ""),
)
_STEP4 = (
    "ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion",
    "al", "er", "ic",
)


def _regions(w: str) -> tuple[int, int]:
    def after(start: int) -> int:
        for i in range(start + 1, len(w)):
            if w[i] not in _V and w[i - 1] in _V:
                return i + 1
        return len(w)

    for prefix in ("gener", "commun", "arsen"):
        if w.startswith(prefix):
            r1 = len(prefix)
            break
    else:
        r1 = after(0)
    return r1, after(r1) if r1 < len(w) else len(w)


def _short_syllable_end(w: str) -> bool:
    if len(w) == 2:
        return w[0] in _V and w[1] not in _V
    return len(w) >= 3 and w[-1] not in _V and w[-1] not in "wxY" and w[-2] in _V and w[-3] not in _V


def _has_vowel(s: str) -> bool:
    return any(c in _V for c in s)


@functools.lru_cache(maxsize=65536)
def stem_en(word: str) -> str:
    """Porter2 stem of a lowercase English word (``quickly``→``quick``, ``formality``→``formal``)."""
    if len(word) <= 2 or not word.isascii():
        return word
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word]
    w = word.lstrip("'")
    if w.startswith("y"):
        w = "Y" + w[1:]
    w = "".join("Y" if c == "y" and i > 0 and w[i - 1] in _V else c for i, c in enumerate(w))
    r1, r2 = _regions(w)
    # step 0
    for suf in ("'s'", "'s", "'"):
        if w.endswith(suf):
            w = w[: -len(suf)]
            break
    # step 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith(("ied", "ies")):
        w = w[:-2] if len(w) > 4 else w[:-1]
    elif w.endswith(("us", "ss")):
        pass
    elif w.endswith("s") and _has_vowel(w[:-2]):
        w = w[:-1]
    if w in _EXCEPTIONS_1A:
        return w
    # step 1b
    for suf in ("eedly", "ingly", "edly", "eed", "ing", "ed"):
        if w.endswith(suf):
            if suf in ("eed", "eedly"):
                if len(w) - len(suf) >= r1:
                    w = w[: -len(suf)] + "ee"
            elif _has_vowel(w[: -len(suf)]):
                w = w[: -len(suf)]
                if w.endswith(("at", "bl", "iz")):
                    w += "e"
                elif w.endswith(_DOUBLES):
                    w = w[:-1]
                elif _short_syllable_end(w) and r1 >= len(w):
                    w += "e"
            break
    # step 1c
    if len(w) > 2 and w[-1] in "yY" and w[-2] not in _V:
        w = w[:-1] + "i"
    # step 2
    for suf, rep in _STEP2:
        if w.endswith(suf):
            if len(w) - len(suf) >= r1:
                if suf == "ogi":
                    if w[-4:-3] == "l":
                        w = w[:-1]
                elif suf == "li":
                    if len(w) >= 3 and w[-3] in _LI_END:
                        w = w[:-2]
                else:
                    w = w[: -len(suf)] + rep
            break
    # step 3
    for suf, rep in _STEP3:
        if w.endswith(suf):
            if len(w) - len(suf) >= r1:
                if suf == "ative":
                    if len(w) - len(suf) >= r2:
                        w = w[:-5]
                else:
                    w = w[: -len(suf)] + rep
            break
    # step 4
    for suf in _STEP4:
        if w.endswith(suf):
            if len(w) - len(suf) >= r2:
                if suf == "ion":
                    if w[-4:-3] in ("s", "t"):
                        w = w[:-3]
                else:
                    w = w[: -len(suf)]
            break
    # step 5
    if w.endswith("e"):
        if len(w) - 1 >= r2 or (len(w) - 1 >= r1 and not _short_syllable_end(w[:-1])):
            w = w[:-1]
    elif w.endswith("l") and len(w) - 1 >= r2 and w.endswith("ll"):
        w = w[:-1]
    return w.replace("Y", "y")


# -- Russian: Snowball Russian ------------------------------------------------------------------------------
_RV = frozenset("аеиоуыэюя")
_PERF_1 = ("вшись", "вши", "в")
_PERF_2 = ("ывшись", "ившись", "ывши", "ивши", "ыв", "ив")
_REFL = ("ся", "сь")
_ADJ = (
    "ими", "ыми", "его", "ого", "ему", "ому", "ее", "ие", "ые", "ое", "ей", "ий", "ый", "ой", "ем", "им", "ым",
    "ом", "их", "ых", "ую", "юю", "ая", "яя", "ою", "ею",
)
_PART_1 = ("ем", "нн", "вш", "ющ", "щ")
_PART_2 = ("ивш", "ывш", "ующ")
_VERB_1 = ("ете", "йте", "ешь", "нно", "ла", "на", "ли", "ем", "ло", "но", "ет", "ют", "ны", "ть", "й", "л", "н")
_VERB_2 = (
    "ейте", "уйте", "ила", "ыла", "ена", "ите", "или", "ыли", "ило", "ыло", "ено", "ует", "уют", "ены", "ить",
    "ыть", "ишь", "ей", "уй", "ил", "ыл", "им", "ым", "ен", "ят", "ит", "ыт", "ую", "ю",
)
_NOUN = (
    "иями", "ями", "ами", "ией", "иям", "ием", "иях", "ев", "ов", "ие", "ье", "еи", "ии", "ей", "ой", "ий", "ям",
    "ем", "ам", "ом", "ах", "ях", "ию", "ью", "ия", "ья", "а", "е", "и", "й", "о", "у", "ы", "ь", "ю", "я",
)


def _longest(w: str, start: int, suffixes: tuple[str, ...], preceded: str | None = None) -> str | None:
    best = None
    for suf in suffixes:
        if w.endswith(suf) and len(w) - len(suf) >= start and (best is None or len(suf) > len(best)):
            if preceded is not None:
                i = len(w) - len(suf) - 1
                if i < start or w[i] not in preceded:
                    continue
            best = suf
    return best


def _strip_group(w: str, rv: int, group1: tuple[str, ...], group2: tuple[str, ...]) -> str | None:
    a = _longest(w, rv, group1, preceded="ая")
    b = _longest(w, rv, group2)
    pick = max((s for s in (a, b) if s), key=len, default=None)
    return w[: -len(pick)] if pick else None


@functools.lru_cache(maxsize=65536)
def stem_ru(word: str) -> str:
    """Snowball Russian stem of a lowercase word (ё already folded to е)."""
    w = word.replace("ё", "е")
    rv = next((i + 1 for i, c in enumerate(w) if c in _RV), len(w))
    if rv >= len(w):
        return w
    r1 = next((i + 1 for i in range(1, len(w)) if w[i] not in _RV and w[i - 1] in _RV), len(w))
    r2 = next((i + 1 for i in range(r1 + 1, len(w)) if w[i] not in _RV and w[i - 1] in _RV), len(w))
    # step 1
    out = _strip_group(w, rv, _PERF_1, _PERF_2)
    if out is not None:
        w = out
    else:
        refl = _longest(w, rv, _REFL)
        if refl:
            w = w[: -len(refl)]
        adj = _longest(w, rv, _ADJ)
        if adj:
            w = w[: -len(adj)]
            part = _strip_group(w, rv, _PART_1, _PART_2)
            if part is not None:
                w = part
        else:
            verb = _strip_group(w, rv, _VERB_1, _VERB_2)
            if verb is not None:
                w = verb
            else:
                noun = _longest(w, rv, _NOUN)
                if noun:
                    w = w[: -len(noun)]
    # step 2
    if w.endswith("и") and len(w) - 1 >= rv:
        w = w[:-1]
    # step 3
    deriv = _longest(w, r2, ("ость", "ост"))
    if deriv:
        w = w[: -len(deriv)]
    # step 4
    if w.endswith("нн") and len(w) - 1 >= rv:
        w = w[:-1]
    else:
        sup = _longest(w, rv, ("ейше", "ейш"))
        if sup:
            w = w[: -len(sup)]
            if w.endswith("нн"):
                w = w[:-1]
        elif w.endswith("ь") and len(w) - 1 >= rv:
            w = w[:-1]
    return w


#: Irregular derivations no suffix stripper finds (Chitin's explicit map, kept as data).
STEM_MAP: dict[str, str] = {
    "brevity": "brief", "verbosity": "verbose", "cautiously": "cautious", "indecisive": "hesitate",
    "efficiency": "efficient", "flexibility": "flexible", "rigidity": "rigid", "formality": "formal",
    "informality": "informal", "complexity": "complex", "simplicity": "simple", "asking": "ask", "acting": "act",
    "waiting": "wait", "proceeding": "proceed", "caution": "cautious", "hesitant": "hesitate",
    "hesitation": "hesitate", "autonomy": "autonomous", "supervision": "supervised", "silence": "silent",
    "transparency": "transparent", "opacity": "opaque", "risk": "risky", "independence": "independent",
    "dependence": "dependent", "safety": "safe", "explanation": "explain", "explanations": "explain",
    "execution": "execute", "narration": "narrate", "adaptable": "adaptive", "adapt": "adaptive",
    "proactively": "proactive", "initiative": "initiative", "permission": "permission",
    "permissions": "permission", "detail": "detailed", "details": "detailed",
}

_CYRILLIC_RE = re.compile(r"[а-яё]")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Stem of one normalised token: the irregular map, then Porter2 (Latin) or Snowball Russian (Cyrillic)."""
    mapped = STEM_MAP.get(word)
    if mapped is not None:
        word = mapped
    if _CYRILLIC_RE.search(word):
        return stem_ru(word)
    return stem_en(word)


#: Words that flip the polarity of the next few tokens (EN and RU), after ``n't`` → ``not``.
NEGATORS = frozenset(
    {
        "not", "no", "never", "without", "avoid", "avoids", "avoiding", "nor", "neither", "refrain", "stop",
        "dont", "cannot", "не", "нет", "никогда", "без", "ни", "избегай", "избегайте", "избегать", "нельзя",
    }
)
NEGATION_WINDOW = 3

#: Function words left out of relevance scoring (EN + RU); negators are handled separately.
STOPWORDS = frozenset(
    """a an the and or but if then so of to in on at by for with from as is are was were be been being it its
    this that these those i me my we our you your he she they them their his her do does did doing have has had
    having will would shall should can could may might must about into over under than too very just also any
    all some each every more most other such only own same what which who whom when where why how there here up
    down out off again further once both few am s t let lets ever always really even
    и в во на с со к ко по о об от до из за у для что это как а но же ли бы то так его ее их мы вы они он она
    оно я ты мне меня тебе себя был была были быть есть при или если""".split()
)


def analyse(text: str) -> list[tuple[str, bool, str]]:
    """(stem, negated, token) for each token, in order.

    A negator negates the next content word (stop words such as "be", "too", "the" are looked through) as long
    as it comes within ``NEGATION_WINDOW`` tokens: "don't be verbose", "avoid conciseness", "не спрашивай".
    """
    out: list[tuple[str, bool, str]] = []
    left = 0
    for tok in words(text):
        if tok in NEGATORS:
            left = NEGATION_WINDOW
            continue
        if left and tok in STOPWORDS:
            left -= 1
            out.append((stem(tok), False, tok))
            continue
        out.append((stem(tok), left > 0, tok))
        left = 0
    return out


@functools.lru_cache(maxsize=65536)
def content_stems(text: str) -> tuple[str, ...]:
    """Stems of the non-stop-word tokens of ``text``, in order (relevance scoring; negation is irrelevant here)."""
    skip = _SKIP
    return tuple(stem(t) for t in _WORD_RE.findall(normalize(text)) if t not in skip)


_SKIP = STOPWORDS | NEGATORS
