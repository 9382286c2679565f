"""Word lists and word-shape tests the stages of the concept analysis share (EN and RU)."""

from __future__ import annotations

import unicodedata

from .patterns import _lazy


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
    four five six seven eight nine ten twelve within два две двух трех трёх три четыре четырех четырёх пять шесть
    семь восемь девять десять течение
    i'm i've i'd i'll we're we've we'll you're they're it's that's he's she's let's am mine myself ourselves
    strictly really absolutely totally completely definitely please
    """.split()
)

_EN_PAST_FIRST = _lazy(r"^[a-z]{3,}ed$")
_RU_PAST = _lazy(r"^[а-я]{3,}(?:ил|ел|ал|ял|ил[аио]|ел[аио]|ал[аио]|ял[аио]|ался|ался|ился|ились|ались|алась|илась)$")
_RU_PARTICIPLE = _lazy(r"^(?:за|на|до|пере|от|об|вы|у|под|про|с|раз)?[а-я]{3,}(?:ован|ирован|ен|ан|ян)[аоы]?$")

# Cheap tests that run before a pattern (so a line compiles only the patterns it can match). Each is a superset
# of the pattern's matches.


def _en_past(w: str) -> bool:
    """``^[a-z]{3,}ed$``, not a participle that works as a preposition ("based on", "compared to")."""
    return len(w) >= 5 and w.endswith("ed") and w.isascii() and w.isalpha() and w.islower() \
        and w not in _PREPOSITION_PARTICIPLES


#: participles used as prepositions: "Based on the invoices, …" reports nothing
_PREPOSITION_PARTICIPLES = frozenset({"based", "compared", "provided", "supposed", "assumed", "estimated", "judged"})


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
_RU_PAST_NOT = frozenset({"правила", "файла", "сигнала", "начала", "сначала", "поначалу", "сала", "зала", "канала", "стола", "масла", "числа", "дела", "тела", "села"})
_NUM_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
              "eight": "8", "nine": "9", "ten": "10", "один": "1", "одна": "1", "одно": "1", "одного": "1",
              "одном": "1", "одной": "1", "одну": "1", "два": "2", "две": "2", "двух": "2", "двум": "2", "три": "3", "трех": "3", "четыре": "4", "пять": "5",
              "шесть": "6", "семь": "7", "восемь": "8", "девять": "9", "десять": "10", "single": "1",
              "double": "2", "twice": "2", "once": "1"}
#: Every match of _CITY_TIME holds one of these (the «по …» alternative a city stem).
_CITY_TIME_NEEDS = ("time", "времен", "msk", "мск", "москв", "берлин", "лондон", "киев", "тбилис")
_TZ_ABBR = frozenset({"utc", "gmt", "cet", "cest", "eet", "eest", "wet", "west", "msk", "est", "edt", "pst", "pdt",
                      "cst", "cdt", "mst", "mdt", "bst", "ist", "jst", "aest"})
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
    "nov": 11, "dec": 12, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
    "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}

_BOUNDARY_WORDS = {
    ("but",), ("however",), ("so",), ("because",), ("since",), ("while",), ("when",), ("once",), ("if",),
    ("although",), ("though",), ("even", "though"), ("whereas",), ("so", "that"), ("а",), ("но",), ("однако",),
    ("так", "что"), ("потому", "что"), ("поскольку",), ("чтобы",), ("если",), ("когда",), ("хотя",),
    ("as", "soon", "as"), ("after",), ("unless",), ("only", "if"), ("except", "when"), ("except", "if"),
    ("если", "только"), ("только", "если"), ("кроме", "случаев"), ("разве", "что"), ("whether",),
}
#: First words of the boundaries (only a token among them can start one).
_BOUNDARY_FIRST = frozenset(w[0] for w in _BOUNDARY_WORDS)
_EXCEPTION_WORDS = {("unless",), ("only", "if"), ("except", "when"), ("except", "if"), ("если", "только"),
                    ("только", "если"), ("кроме", "случаев"), ("разве", "что"),
                    # an indirect question ("asked the user whether …") claims nothing, like a condition
                    ("whether",)}
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


#: Russian endings, longest first: a reflexive «-ся/-сь» goes first, then a verb's infinitive or tense ending, a
#: verbal noun's «-ение/-ание» (удаление/удалять) or a case ending.
_RU_REFLEXIVE = ("ся", "сь")
_RU_ENDING = _lazy(
    r"(?:ениями|аниями|ением|анием|ениях|аниях|ения|ания|ении|ании|ение|ание|ений|аний|"
    r"ами|ями|ого|его|ому|ему|ыми|ими|ешь|ете|ишь|ите|ать|ять|ить|еть|ыть|уть|ала|яла|ила|ела|али|яли|или|ели|"
    r"ем|ет|ут|ют|ат|ят|им|ит|ам|ям|ах|ях|ов|ев|ей|ой|ый|ий|"
    r"ая|яя|ое|ее|ые|ие|ую|юю|ом|ал|ял|ил|ел|ть|а|я|о|е|ы|и|у|ю|ь)$")
#: English endings: a noun made from a verb is the verb (departures/depart, payment/pay), an agent noun the act
#: (washer/wash, smoker/smoke), else the inflection goes.
_EN_ENDINGS = ("ures", "ure", "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s")


def _stem(word: str) -> str:
    """The word's stem: its inflection off, then its first 8 (EN) or 6 (RU) letters. The forms of one word, and a
    verb and the nouns made from it, get one stem: after the ending a final «e» goes and «y» is «i»
    (give/giving, cycle/cycling, story/stories), and a doubled consonant left by «-ing»/«-ed» is single
    (running/run). Prefixes stay (aspect pairs such as курить/покурить are two stems)."""
    if "a" <= word[:1] <= "z":
        for suf in _EN_ENDINGS:
            if word.endswith(suf) and len(word) - len(suf) >= (3 if suf in ("ing", "ings") else 4):
                word = word[: -len(suf)]
                if suf in ("ing", "ings", "ed", "ers", "er") and len(word) > 3 and word[-1] == word[-2] \
                        and word[-1] not in "lsz":
                    word = word[:-1]
                break
        if len(word) > 3 and word[-1] == "e":
            word = word[:-1]
        elif len(word) > 3 and word[-1] == "y":
            word = word[:-1] + "i"
        return word[:8]
    if word.endswith(_RU_REFLEXIVE) and len(word) > 5:
        word = word[:-2]
    m = _RU_ENDING.search(word)
    if m and m.start() >= 3:
        word = word[:m.start()]  # «живём»/«живёт» -> «жив…»: inflection off before the cut
    return word[:6] if len(word) > 6 else word


_NOT_LEXICAL = frozenset({"punct", "num", "time", "iso", "url", "mail", "phone"})
_SPLIT_PUNCT = frozenset({";", ",", ".", "!", "?", "-", ":"})
_DASH_STOP = frozenset({";", ",", ".", "!", "?", "-"})
_VALUE_KINDS = frozenset({"time", "flag", "url", "path", "iso", "num"})
_HAS_VALUE_KINDS = frozenset({"time", "iso", "num", "url"})


_DATE_FORMAT = _lazy(r"^(d{1,2}|m{1,2}|y{2,4}|д{1,2}|м{1,2}|г{2,4})[./-](d{1,2}|m{1,2}|y{2,4}|д{1,2}|м{1,2}|г{2,4})"
                     r"[./-](d{1,2}|m{1,2}|y{2,4}|д{1,2}|м{1,2}|г{2,4})$")
_VIA = frozenset({"via", "through", "через"})
_DOM = _lazy(r"^(\d{1,2})(?:st|nd|rd|th|-?го|-?е)$")
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
