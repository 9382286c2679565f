"""Structural values of a line, found by their shape rather than by the concept lexicon.

A rule fixes a *slot* with a value of some general type: a number with a unit ("25 MB", "€600", "port 8080"), a
version of a named thing ("Java 21"), a cloud region or zone ("eu-west-1"), an address (an e-mail, a host, a URL),
a template or format (a code span of a naming or format rule), a person, an ordered sequence of people. A
candidate that gives the same slot another value of the same type contradicts it, whatever words carry the two.

``shape(text)`` prepares a line once into a ``Shape`` (named records, cached by text); ``substituted(c, k)`` says
which typed value the candidate ``c`` replaces in the constraint ``k``. Whether the two lines are about the same
slot is the caller's test (``anchored``), made from shared words, code spans and concepts.

Over 800 lines because every typed value's pattern, record field and comparison share one ``shape`` pass and
its memo; the next seam to split along is the data formats and designators (``_formats``, ``_designators``).
"""

from __future__ import annotations

import functools
import re

from ..record import dataclass
from .typed import DIGIT as _DIGIT, LETTER_ID as _LETTER_ID

# ------------------------------------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class Number:
    """A number of a line: its value, the unit after it (a class: "MB", "EUR", "min", "chars", …) and the
    words it is anchored to (the word right before it, or the key of a "key: value" line)."""

    value: float
    unit: str | None
    anchors: frozenset[str]
    limit: bool  # stated as a limit: "up to", "max", "не больше", "до"
    #: the side a bound allows: "max" ("at most N", "no more than N", "не больше N", "N or less"), "min" ("at
    #: least N", "не меньше N", "N or more"), or "" (not a bound, or a bare "over"/"до" whose side the clause sets)
    bound: str = ""


@dataclass(frozen=True, slots=True)
class Shape:
    """The structural values of one line."""

    text: str
    code: frozenset[str]  # code spans, casefolded
    numbers: tuple[Number, ...]
    regions: frozenset[str]
    addresses: frozenset[str]
    templates: frozenset[str]  # skeletons of templates and formats (a code span of a naming or format rule)
    forms: frozenset[str]  # skeletons of every code span shaped like a template ("type(scope): subject")
    people: tuple[str, ...]  # name keys, in order of appearance
    lead: str | None  # the name key of an unknown capitalized word starting the claim ("Marek signs off …")
    sequence: tuple[str, ...]  # name keys of an ordered list ("Ivan, then Lena"), else ()
    first: str | None  # the name said to come first ("Lena is first on call"), else None
    keyed: bool  # a "key: value" line
    report: bool  # tells what happened (past tense, a log line)
    #: data formats named by the line, as (class, value): ("file", "csv"), ("encoding", "utf-8"), ("date",
    #: "yyyy-mm-dd")
    formats: frozenset[tuple[str, str]] = frozenset()
    #: ranges of amounts the line gives ("19–21°C", "between 2 and 4 hours", «от 3 до 5 дней»), as (low, high)
    ranges: tuple[tuple[float, float], ...] = ()
    #: the items of an ordered list of things ("db, then backend, then frontend", "staging → canary → prod",
    #: «сначала база, потом фронт»), each as the stems of its words; () when the line states no order
    order: tuple[frozenset[str], ...] = ()
    #: designators: a noun and the letter naming which one ("gate B", «выход Б», "terminal C2"), as (noun stem,
    #: letter), and masked account or card numbers ("card ...4417", "*4417", "ending in 4417") as ("#", digits)
    designators: frozenset[tuple[str, str]] = frozenset()

    def may_meet(self, text: str) -> bool:
        """Whether a line could hold a value of a type this shape holds (cheap tests on its text): a line that
        cannot need not be shaped."""
        if (self.numbers or self.regions) and (_DIGIT.search(text) or _TIMES_WORDS.search(text)):
            return True
        if self.addresses and ("@" in text or "." in text):
            return True
        if (self.templates or self.forms) and ("`" in text or _PLAIN_TEMPLATE.search(text)):
            return True
        if self.numbers and (_ONE_PERIOD.search(text) or _BARE_PERIOD.search(text)):
            return True
        if self.order and _ORDER_WORDS.search(text):
            return True
        if self.formats and _formats(text):
            return True
        if self.designators and _designators(_strip(text)):
            return True
        return bool(self.people or self.lead) and not text[2:].islower()

    @property
    def typed(self) -> bool:
        """The line holds a value of some type (a constraint without one has nothing to substitute)."""
        return bool(self.numbers or self.regions or self.addresses or self.templates or self.forms or self.people
                    or self.lead or self.formats or self.order or self.designators)


# ------------------------------------------------------------------------------------------------ patterns

_CODE = re.compile(r"`([^`]+)`")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # from a token's start: linear in a long word
_URL = re.compile(r"\bhttps?://[^\s`'\")>]+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|ru|de|eu|co|uk|me|info|"
                  r"host|cloud|internal|local|site|ai|рф)\b(?![.\w-]*@)", re.I)
#: a cloud region or zone: "eu-west-1", "us-east-1", "ru-central1-a", "europe-west4" (a digit in it)
#: a region or zone named after the word: "region kz1", «в регионе kz1», "zone b2" (an identifier with a digit)
_NAMED_REGION = re.compile(r"(?:\bregion|\bzone|(?<![\w-])регион\w*|(?<![\w-])зон[аеуы])\s*[—:=-]?\s*[`«\"]?"
                           r"([a-z][a-z0-9]*\d[a-z0-9-]*)\b", re.I)
_REGION = re.compile(r"\b[a-z]{2,6}(?:-[a-z]+){1,2}-?\d{1,2}(?:-[a-z]|[a-z])?\b", re.I)
_NUMBER = re.compile(r"(?:(?<![\w.,/-])|(?<=(?<![\w.-])v))([€$£]|₽)?\s?(\d{1,3}(?:[ ,\u00a0\u202f]\d{3})+|\d+(?:[.,]\d+)?)(?![\w.-]*[/@])"
                     r"(?:[\s-]?([%€$£₽]|[^\W\d_]{1,14}\.?))?", re.U)
_MONTH = (r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?|(?:янв|фев|мар|апр|ма[йя]|июн|июл|авг|"
          r"сен|окт|ноя|дек)[а-я]*\.?)")
#: "Dec 22", "22 декабря", "Dec 22 – Jan 2", "19–23 декабря": dates, which the concept layer compares
_MONTH_DATE = re.compile(rf"\b{_MONTH}\s+\d{{1,2}}(?:\s?[–-]\s?\d{{1,2}})?\b|\b\d{{1,2}}(?:\s?[–-]\s?\d{{1,2}})?(?:-?[а-я]{{1,2}})?\s+{_MONTH}",
                         re.I)
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.U)
_NAME = re.compile(r"(?<![\w`@./-])([A-ZА-ЯЁ][a-zа-яё]{2,}(?:-[A-ZА-ЯЁ][a-zа-яё]+)?)(?![\w`@/-])")
#: a code span that is a file path, not a template: "src/app.py", ".gitlab/x/default.md", "~/bin/", "legacy/"
_PATH = re.compile(r"^(?:[~.]?/|\.)?[\w.-]+(?:/[\w.-]*)+$|^[\w-]+\.[a-z0-9]{1,5}$|^\.[\w.-]+$")
_KEYED = re.compile(r"^[^:—–=]{2,60}?(?::|\s[—–-]\s|=)\s*\S")
_TEMPLATE_CONTEXT = re.compile(
    r"\b(?:format\w*|nam(?:e|es|ed|ing)|number(?:s|ed|ing)?|follow\w*|pattern|template|convention|e\.g\.|like|style|"
    r"нумерац\w*|"
    r"формат\w*|называ\w*|именова\w*|имена|шаблон\w*|например|вида|вид)\b", re.I)
_LIMIT = re.compile(r"\b(?:up to|max(?:imum)?|at most|no more than|not more than|limit\w*|cap|under|below|over|above|"
                    r"more than|less than|at least|min(?:imum)?|свыше|больше|меньше|минимум|не меньше|"
                    r"до|не больше|не более|максимум|максимальн\w*|лимит\w*|предел\w*|потолок)\b", re.I)
#: bound phrases whose side does not depend on the clause: the negation in "no more than", "не больше", "not
#: more" is part of the bound, not a prohibition of the amount
_MAX_BEFORE = re.compile(r"(?:\b(?:up to|at most|capped at|limited to|a cap of|at the most|no more than|not more than|never more than|no longer than|"
                         r"not longer than|max(?:imum)?|не больше|не более|не дольше|не выше|не дороже|не длиннее|"
                         r"не чаще|максимум|не свыше)\s*(?:of\s+)?[€$£₽]?\s*)$", re.I)
_MIN_BEFORE = re.compile(r"(?:\b(?:at least|no less than|not less than|never less than|no fewer than|"
                         r"min(?:imum)?|не меньше|не менее|не ниже|не короче|не реже|минимум|как минимум)\s*"
                         r"(?:of\s+)?[€$£₽]?\s*)$", re.I)
_MAX_AFTER = re.compile(r"^\s*(?:[^\W\d_][\w'-]*[\s,]+){0,3}?(?:or (?:less|fewer|under|below)|at most|max(?:imum)?\b|"
                        r"tops\b|,?\s*not more\b|,?\s*no more\b|or lower\b|and (?:less|fewer|under|below|lower)\b|или меньше|или менее|"
                        r"или ниже|и меньше|и менее|и ниже|максимум|,?\s*не больше\b|"
                        r",?\s*не более\b)", re.I)
_MIN_AFTER = re.compile(r"^\s*(?:[^\W\d_][\w'-]*[\s,]+){0,3}?(?:or (?:more|longer|above|over|higher|better)|"
                        r"and (?:more|above|over|higher|up)\b|at least|minimum\b|"
                        r"или больше|или более|или выше|и больше|и более|и выше|минимум|,?\s*не меньше\b|,?\s*не менее\b)", re.I)
#: a bare comparative before a number: its side is the bound only under a negation ("never book a layover shorter
#: than 90 minutes" keeps layovers at 90 or more; "flights over 10 hours need approval" sets no bound)
_LESS_BEFORE = re.compile(r"\b(?:shorter|less|fewer|cheaper|earlier|smaller|lower)\s+than\s*[€$£₽]?\s*$|"
                          r"\b(?:under|below)\s*[€$£₽]?\s*$|(?:короче|меньше|дешевле|раньше|ниже)\s*[€$£₽]?\s*$", re.I)
_MORE_BEFORE = re.compile(r"\b(?:longer|more|pricier|later|bigger|larger|higher)\s+than\s*[€$£₽]?\s*$|"
                          r"\bmore expensive than\s*[€$£₽]?\s*$|\b(?:over|above)\s*[€$£₽]?\s*$|"
                          r"(?:длиннее|дольше|больше|дороже|позже|выше|свыше)\s*[€$£₽]?\s*$", re.I)
_NEGATION = re.compile(r"\b(?:never|not|no|don't|do not|doesn't|mustn't|can't|cannot|avoid)\b|"
                       r"(?<![\w-])(?:не|никогда|нельзя|никаких)(?![\w-])", re.I)


#: a count written as a word ("twice a week", «дважды в день», "two meetings", «три созвона»): read as digits
_TIMES_WORDS = re.compile(r"(?<![\w-])(?:(once|однажды)|(twice|дважды)|(thrice|трижды)|"
                          r"(one|two|three|four|five|six|seven|eight|nine|ten|twelve|два|две|три|четыре|пять|шесть|"
                          r"семь|восемь|девять|десять)(?=\s+[^\W\d_]))(?![\w-])", re.I)
_WORD_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "twelve": 12, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
               "восемь": 8, "девять": 9, "десять": 10}


#: one period named by an article after a preposition of duration ("for a month", "within one week", «на один год»):
#: an amount of 1 ("twice a week" is a rate, not an amount)
_ONE_PERIOD = re.compile(r"(?:(?<=\bfor )|(?<=\bover )|(?<=\bafter )|(?<=\bwithin ))(a|an|one)\s+(?:day|week|month|year)"
                         r"(?![\w-])|(?:(?<=\bна )|(?<=\bчерез ))(один|одну)\s+(?:день|неделю|месяц|год)(?![\w-])", re.I)


#: a period named after a verb of keeping or lasting, as its duration: «храним неделю», «живёт месяц», "keep them a
#: week", "lasts a month" (not "every week", «в этом месяце», «Новый год»: ``_kept_for``)
_BARE_PERIOD = re.compile(r"(?<![\w-])([^\W\d_]+)\s+(?:(a|an|one)\s+)?(day|week|month|year|день|неделю|месяц|год|сутки)"
                          r"(?![\w-])", re.I)
_KEEP_EN = frozenset("""keep keeps kept store stores stored retain retains retained hold holds held last lasts lasted
stay stays stayed them it""".split())
#: the ending of a Russian verb form (храним, хранится, живёт, держали), not of an adjective (новый, каждый)
_RU_VERB_END = re.compile(r"(?:им|ем|ём|ют|ят|ут|ит|ет|ёт|ть|ться|тся|ся|ал|ла|ли|ло|ешь|ишь|ете|ите)$")


def _kept_for(m: re.Match) -> bool:
    word = m.group(1).casefold()
    if m.group(3).isascii():
        return bool(m.group(2)) and word in _KEEP_EN
    return not m.group(2) and word not in _STOP and _RU_VERB_END.search(word) is not None


def _times_digits(m: re.Match) -> str:
    """"twice" -> "2 times", «дважды» -> «2 раза», "two" -> "2": the count in digits (the words keep their
    length, so the positions of the line stay)."""
    if m.group(4):
        return str(_WORD_COUNT[m.group(4).casefold()]).rjust(len(m.group(0)))
    n = 1 if m.group(1) else 2 if m.group(2) else 3
    word = m.group(0)
    return (f"{n} times" if word.isascii() else f"{n} раза").ljust(len(word))


_ORDER_WORDS = re.compile(r"\b(?:first|then|after|before|перед|order|next|followed|escalat\w*|rotation|сначала|потом|затем|"
                          r"после|порядок|порядку|очеред\w*|первы\w*|перв\w+|за ней|за ним|следом|rota|roster|график\w*)\b|→|->|>", re.I)
_FIRST = re.compile(r"\b(?:first|primary|первы\w*|перв\w+|сначала)\b", re.I)
_REPORT = re.compile(r"^\s*(?:[-*]\s+)?(?:\d{1,2}:\d{2}\s|\d{4}-\d{2}-\d{2}\b)|\b(?:was|were|went|happened|ran|scaled|"
                     r"peaked|acked|took)\b", re.I)

_UNITS = {
    "MB": ("mb", "мб", "мегабайт", "megabyte", "megabytes", "mib"),
    "GB": ("gb", "гб", "гигабайт", "gigabyte", "gigabytes", "gib"),
    "KB": ("kb", "кб", "килобайт", "kilobyte", "kilobytes", "kib"),
    "EUR": ("€", "eur", "euro", "euros", "евро"),
    "USD": ("$", "usd", "dollar", "dollars", "доллар", "долларов", "доллара"),
    "GBP": ("£", "gbp", "pound", "pounds", "фунт", "фунтов"),
    "RUB": ("₽", "rub", "руб", "руб.", "рубль", "рублей", "рубля", "р", "р."),
    "%": ("%", "percent", "процент", "процентов", "процента"),
    "min": ("min", "mins", "minute", "minutes", "мин", "мин.", "минут", "минуты", "минута", "минуту"),
    "h": ("h", "hour", "hours", "hr", "hrs", "ч", "час", "часа", "часов"),
    "s": ("s", "sec", "secs", "second", "seconds", "сек", "секунд", "секунды", "секунда", "секунду"),
    "ms": ("ms", "мс",),
    "day": ("day", "days", "день", "дня", "дней", "сутки", "суток"),
    "week": ("week", "weeks", "wk", "wks", "неделя", "недели", "недель", "неделю", "нед"),
    "month": ("month", "months", "mo", "месяц", "месяца", "месяцев", "мес"),
    "year": ("year", "years", "yr", "yrs", "год", "года", "лет"),
    "chars": ("char", "chars", "character", "characters", "символ", "символа", "символов", "знаков", "знака",
              "columns", "cols"),
    "people": ("people", "persons", "guests", "человек", "гостей", "участников"),
    "px": ("px", "pixel", "pixels", "пикселей", "пикселя", "пиксель", "пикс"),
    "times": ("times", "time", "раз", "раза"),
    "req": ("requests", "request", "req", "rps", "запросов", "запроса"),
}
#: verbs that set or keep a value and the prepositions after them: a number's anchor is the word before them
_SETTING_WORDS = frozenset("""
stay stays stayed remain remains keep keeps pin pinned pins set sets bump bumps bumped raise raises raised move moves
moved upgrade upgrades upgraded lower lowers lowered change changes changed increase increased decrease
decreased to at on from до на с со остается останется оставляем держим поднимаем поднять подняли поднимем ставим
поставить выставляем переводим перевести обновляем обновить понижаем снижаем меняем увеличиваем уменьшаем
""".split())
#: the word a number is anchored to, at the end of the text before it. Matched from a word's first letter only and
#: without giving back its letters (the lookbehind and the possessive ``*+``): the leftmost match never starts after
#: a letter, and a word cut short cannot reach the end where the whole word does not, so the match is the same,
#: found 3-7x faster (each number of a line searches the whole text before it)
_ANCHOR = re.compile(r"(?<![^\W\d_])([^\W\d_][\w'-]*+)(?:\s+(?:"
                     + "|".join(sorted(_SETTING_WORDS, key=len, reverse=True))
                     + r")){0,2}(?:\s*(?:v|version)?|\s*(?:is|=|:|—|–|-))(?:\s+(?:only|just|exactly|только|лишь|ровно))?"
                     r"\s*$", re.I)
_TARGET = re.compile(r"\b(?:" + "|".join(sorted(_SETTING_WORDS - {"to", "at", "on", "from", "до", "на", "с", "со"},
                                                key=len, reverse=True)) + r")\s+(?:to|до)\s*$", re.I)
#: words after a number that are not what it counts ("26 until the release", «29 уже»)
_NOT_UNIT = frozenset("""until till before after since by in during when while уже пока после перед""".split())
_UNIT_OF = {form: cls for cls, forms in _UNITS.items() for form in forms}
#: Units of one dimension, each as a multiple of the dimension's base: "2 h" and "120 min" are one amount, "5000 ms"
#: and "30 s" are two (sizes in binary multiples, as the tools that state them count: 1 GB = 1024 MB).
_DIMENSION = {"ms": ("time", 0.001), "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0),
              "day": ("time", 86400.0), "week": ("time", 7 * 86400.0), "month": ("time", 30 * 86400.0),
              "year": ("time", 365 * 86400.0), "KB": ("size", 1024.0), "MB": ("size", 1024.0 ** 2),
              "GB": ("size", 1024.0 ** 3)}


def measure(n: Number) -> tuple[str | None, float]:
    """(dimension or unit, amount in the dimension's base): what two numbers with units are compared by."""
    dim = _DIMENSION.get(n.unit or "")
    return (dim[0], n.value * dim[1]) if dim else (n.unit, n.value)
_PLACE_PREP = frozenset({"in", "at", "to", "from", "near", "via", "в", "во", "из", "до", "через"})
_STOP = frozenset("""
a an the and or but if so of to in on at by for from with without into onto over under via per as is are was were be
been being it its this that these those there here we you he she they i me my our your his her their them us not no
never always only all any every each some more most less very just also too than then now new use used using can
may must should will would could do does did done get gets has have had make made keep one two three first last
user users user's said says per asked told please ok fine
и или но если то так это этот эта эти тот та те там тут мы вы он она они я мне меня мой моя мои наш ваш его её ее их
не нет никогда всегда только все всё всех каждый каждая любой любые ещё еще уже тоже также чем потом теперь новый
для из в во на по с со к ко о об от до за под над при без через как что чтобы кто где когда быть есть был была были
будет пользователь пользователя пользователь сказал просьба решили договорились можно нужно надо
""".split())
_CYR = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t",
                 "u", "f", "kh", "ts", "ch", "sh", "sch", "", "y", "", "e", "yu", "ya"]))


_CYR_TABLE = str.maketrans(_CYR)


def translit(word: str) -> str:
    """A Cyrillic word in Latin letters (names compare across scripts: «Иван» is "ivan")."""
    return word.casefold().translate(_CYR_TABLE)


_NAME_END = re.compile(r"(?:ой|ей|ою|ею|ом|ем|ым|им|ью|ья|ье|ьи|[аяуюеыиоь]|[aeiouy])$")


def name_key(word: str) -> str:
    """A person's name as compared: transliterated, casefolded, its first four letters (declension: «Алину» and
    «Алина», «Наталью» and «Наталья» are one person; "Yulia" and «Юля» too, after "ju"/"yu")."""
    m = _NAME_END.search(word.casefold())
    # a short name keeps two letters before a one-letter ending: «Мию», «Мия» and "Mia" are one person
    if m and (m.start() >= 3 or (m.start() == 2 and m.end() - m.start() == 1)):
        word = word[:m.start()]  # «Дану», «Даной» and "Dana" are one person: a case ending or a final vowel goes
    t = translit(word).replace("yu", "u").replace("ju", "u").replace("ya", "a").replace("ja", "a")
    t = t.replace("kh", "h").replace("y", "i").replace("j", "i")
    return t[:4]


def stem(word: str) -> str:
    """A word as compared across inflections and scripts: transliterated, its first five letters («порт» and
    "port" are one word; "загружаемый" and "загрузки" share "zagru"); a Russian word loses its inflection ending
    first («файлов» and «файлы» are "fail", «даты» and «датой» "dat"), an English one its plural "s"."""
    w = word.replace("ё", "е")
    if len(w) > 3 and w[-1] == "s" and w[-2] not in "su'" and w.isascii():
        w = w[:-1]  # "lines" is "line"
    elif len(w) > 3 and "а" <= w[-1] <= "я":
        m = _RU_END.search(w)
        if m and m.start() >= 3:
            w = w[:m.start()]
    w = translit(w)
    return w[:5] if len(w) > 5 else w


_RU_END = re.compile(r"(?:ами|ями|ого|его|ому|ему|ыми|ими|ем|ет|ут|ют|ат|ят|им|ит|ам|ям|ах|ях|ов|ев|ей|ой|ый|ий|"
                     r"ая|яя|ое|ее|ые|ие|ую|юю|ом|а|я|о|е|ы|и|у|ю|ь)$")


# ------------------------------------------------------------------------------------------------ shape


@functools.lru_cache(maxsize=65536)
def _strip(text: str) -> str:
    """The claim of a line: without stamp, markup and provenance label (memo: shape, stems and _modifiers of one
    line each need it)."""
    from ..stamps import split_stamp
    from ..text import strip_markup

    body = strip_markup(split_stamp(text)[0]).strip()
    # a provenance label ("User said:", «Пользователь сказал:») is not part of the claim
    m = re.match(r"^(?:[\w\s'’]{0,40}?(?:said|asked|says|user|decided|agreed|request|сказал\w*|просьба|решили|"
                 r"договорились|пользовател\w*)[\w\s'’]{0,30}?:)\s*", body, re.I)
    return body[m.end():] if m else body


def _unit(token: str | None, before: str | None) -> str | None:
    if before:
        return _UNIT_OF.get(before)
    if not token:
        return None
    return _UNIT_OF.get(token.casefold().rstrip(".")) or _UNIT_OF.get(token.casefold())


def _parse_number(raw: str) -> float | None:
    t = re.sub(r"[ \u00a0\u202f]", "", raw)
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", t):
        t = t.replace(",", "")
    try:
        return float(t.replace(",", "."))
    except ValueError:
        return None


def _blank(m: re.Match) -> str:
    return " " * len(m.group(0))


_NOT_AMOUNT = re.compile("|".join(f"(?:{rx.pattern})" for rx in (
    _CODE, _EMAIL, _URL, _REGION, re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b"),
    _MONTH_DATE)), re.I)


#: the anchors of a length ("length", «длина», "width") and the words of a line of text: such a length is in characters
_LENGTH_STEMS = frozenset({"lengt", "dlin", "dlina", "width", "shiri"})
_LINE_WORD = re.compile(r"\b(?:lines?|строк\w*)\b", re.I)


#: the period of a rate after its unit: "… per minute", "… a second", "/h", «… в секунду», «… за час»
_PER = re.compile(r"\s*(?:per|a|an|each|every|/|в|за)\s*(second|sec|minute|min|hour|hr|h|day|секунду|минуту|час|день|"
                  r"сутки)\b", re.I)
#: an adjective of dimension after an amount and its unit names what it measures ("640 px wide", «2 м в длину»)
_DIMENSION_NOUN = {"wide": "width", "long": "lengt", "high": "heigh", "tall": "heigh", "deep": "depth",
                   "heavy": "weigh", "ширину": "shiri", "длину": "dlin", "высоту": "visot"}
_DIMENSION_WORD = re.compile(r"\s*(?:[^\W\d_]+\.?\s+)?(?:в\s+)?(wide|long|high|tall|deep|heavy|ширину|длину|высоту)\b",
                             re.I)


#: magnitude words after a number ("5k", "10 тысяч", "2 million"): the number is scaled, not counted
_MAGNITUDE = {"k": 1e3, "k.": 1e3, "thousand": 1e3, "тыс": 1e3, "тыс.": 1e3, "тысяч": 1e3, "тысячи": 1e3,
              "тысяча": 1e3, "тысячу": 1e3, "million": 1e6, "millions": 1e6, "mln": 1e6, "млн": 1e6, "млн.": 1e6,
              "миллион": 1e6, "миллиона": 1e6, "миллионов": 1e6}
#: the endings of a Russian ordinal written with digits («95-м», «140-го», «3-й»)
_RU_ORDINAL = frozenset({"й", "я", "е", "ю", "м", "х", "го", "му", "ми", "ой", "ый", "ий", "ая", "ое", "ые", "ую", "ом",
                         "ым", "ого", "ому", "ыми"})
_AFTER_MAGNITUDE = re.compile(r"\s?([%€$£₽]|[^\W\d_]{1,14}\.?)")


def _numbers(body: str, key_end: int, key_stems: frozenset[str]) -> tuple[Number, ...]:
    # code, addresses, regions, clock times and dates are not amounts (dates are the concept layer's)
    masked = _NOT_AMOUNT.sub(_blank, body)
    if _TIMES_WORDS.search(masked):
        masked = _TIMES_WORDS.sub(_times_digits, masked)
    if _ONE_PERIOD.search(masked):
        masked = _ONE_PERIOD.sub(lambda m: "1".ljust(len(m.group(1) or m.group(2))) + m.group(0)[len(m.group(1) or m.group(2)):], masked)
    if _BARE_PERIOD.search(masked):
        # «храним неделю», "keep them a week": one period as an amount, written as "1" (a key's end moves with it)
        for m in reversed([m for m in _BARE_PERIOD.finditer(masked) if _kept_for(m)]):
            if m.group(2):
                masked = masked[:m.start(2)] + "1".ljust(len(m.group(2))) + masked[m.end(2):]
            else:
                masked = masked[:m.start(3)] + "1 " + masked[m.start(3):]
                key_end += 2 if 0 <= m.start(3) < key_end else 0
    out = []
    for m in _NUMBER.finditer(masked):
        value = _parse_number(m.group(2))
        if value is None:
            continue
        after = m.group(3)
        end = m.end()
        scale = _MAGNITUDE.get(after.casefold()) if after else None
        if scale:  # "$5k", "10 тысяч рублей", "2 million": the magnitude scales the number, the unit comes after it
            value *= scale
            um = _AFTER_MAGNITUDE.match(masked, end)
            after = um.group(1) if um else None
            end = um.end() if um else end
        unit = _unit(after, m.group(1))
        prefix = masked[:m.start()]
        anchors = set()
        # the word right before ("Java 21", "port 8080", "line length is 100"), or before a verb of setting and a
        # preposition ("pin Node to 20", «SDK поднимаем до 29»)
        am = _ANCHOR.search(prefix)
        if am and am.group(1).casefold() not in _STOP and am.group(1).casefold() not in _SETTING_WORDS:
            anchors.add(stem(am.group(1).casefold()))
        if key_end >= 0 and m.start() > key_end:
            anchors |= key_stems  # "Target Java version for services: 17"
        if after and after.casefold() in _RU_ORDINAL and masked[m.end(2):m.end(2) + 1] == "-":
            # «140-го размера», «95-м бензином»: an ordinal's ending, and the noun after it is what it numbers
            om = _AFTER_MAGNITUDE.match(masked, end)
            if om and om.group(1)[0].isalpha() and om.group(1).casefold() not in _STOP:
                anchors.add(stem(om.group(1).casefold().rstrip(".")))
            after = None
        if after and unit is None and after.casefold() not in _STOP and after.casefold() not in _NOT_UNIT \
                and len(after) > 2 and not after.isupper():  # "Node 18 LTS": an acronym after it is a label
            unit = "w:" + stem(after.rstrip("."))  # "9 nodes", "14 pods": a counted thing
        # "upgrade to 20", «обновляем до 20»: a preposition after a verb of setting names a target, not a limit
        limit = (bool(_LIMIT.search(masked[max(0, m.start() - 24):m.start()])) and not _TARGET.search(prefix)) or bool(
            re.match(r"\s*(?:max|maximum|максимум)\b", masked[end:], re.I))
        per = _PER.match(masked, end) if unit is not None and unit not in _DIMENSION else None
        if per and _UNIT_OF.get(per.group(1).casefold()) == "day":
            per = None  # "3 meetings a day" is a quota of a day, compared as a count
        if per:  # "600 requests per minute", «10 запросов в секунду»: a rate, compared per second
            seconds = _DIMENSION[_UNIT_OF[per.group(1).casefold()]][1]
            unit, value = f"{unit}/s", value / seconds
        dim = _DIMENSION_WORD.match(masked, end)
        if dim:
            anchors.add(_DIMENSION_NOUN[dim.group(1).casefold()])  # "640 pixels wide" is a width
        if unit is None and anchors & _LENGTH_STEMS and _LINE_WORD.search(body):
            unit = "chars"  # "max line length is 100", «длина строки 120»: a line's length counts characters
        near, rest = masked[max(0, m.start() - 24):m.start()], masked[end:end + 40]
        bound = "max" if _MAX_BEFORE.search(near) or _MAX_AFTER.match(rest) else \
            "min" if _MIN_BEFORE.search(near) or _MIN_AFTER.match(rest) else ""
        if not bound and _NEGATION.search(prefix):  # "never … shorter than 90 min": the range left is the bound
            bound = "min" if _LESS_BEFORE.search(near) else "max" if _MORE_BEFORE.search(near) else ""
        out.append(Number(value, unit, frozenset(anchors), limit or bool(bound), bound))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _unknown(word: str) -> bool:
    """A capitalized word the lexicon does not know (not a tool, a city, a weekday): maybe a person."""
    from ..concepts import analyze

    return word.casefold() not in _STOP and all(x.startswith("w:") for x in analyze(word).concepts)


#: "to" after a verb that hands work over ("questions go to", "route requests to", "escalate to"): who gets it.
_ROUTED_TO = re.compile(r"\b(?:go(?:es)?|sent|send[s]?|rout(?:e[sd]?|ing)|assign(?:s|ed)?|forward(?:s|ed)?|"
                        r"escalat(?:e[sd]?|ing)|hand(?:s|ed)?(?:\s+(?:it|them))?\s+over)\s+(?:\w+\s+){0,2}?to$",
                        re.I)


#: a title before a name: its full stop does not end a sentence ("Dr. Okafor", "Ms. Reyes", «д-р Иванов»)
_TITLE = re.compile(r"(?<![\w.])(?:dr|mr|mrs|ms|mx|prof|sr|jr|д-р|проф|г-н|г-жа)\.$", re.I)
_VERSION_AFTER = re.compile(r"\s*v?\d")


_PATRONYMIC = re.compile(r"(?:ович|евич|ьич|овна|евна|ична|инична)(?:а|у|ем|ом|е|ой|ы)?$", re.I)


@functools.lru_cache(maxsize=65536)
def _people(body: str) -> tuple[tuple[int, str], ...]:
    """(offset, name key) of each capitalized word of ``body`` that may name a person (memo: shape and stems)."""
    out = []
    masked = _CODE.sub(lambda m: " " * len(m.group(0)), body)
    for m in _NAME.finditer(masked):
        word = m.group(1)
        before = masked[:m.start()].rstrip()
        if not before or (before.endswith((".", "!", "?", "(")) and not _TITLE.search(before)):
            continue  # a sentence starts with a capital anyway; "(Ireland)" is an aside; "Dr. Okafor" is a name
        prev = _WORD.findall(before[-12:])
        if prev and prev[-1].casefold() in _PLACE_PREP and before.endswith(prev[-1]) \
                and not _ROUTED_TO.search(before[-40:]):
            continue  # "in Madrid", "to Frankfurt", «в Казани»: a place; "questions go to Tomasz": a person
        if not _unknown(word):
            continue  # a known word (a tool, a city, a weekday), not a person
        if _PATRONYMIC.search(word) and prev:
            continue  # «Павел Сергеевич»: a patronymic is part of the name before it, not another person
        if _VERSION_AFTER.match(masked, m.end()):
            continue  # "Node 18", "Kotlin v2.0": a product and its version
        out.append((m.start(), name_key(word)))
    return out


@functools.lru_cache(maxsize=65536)
def shape(text: str) -> Shape:
    """The structural values of ``text`` (one memory line)."""
    body = _strip(text)
    digits = _DIGIT.search(body) is not None or _TIMES_WORDS.search(body) is not None or \
        _ONE_PERIOD.search(body) is not None or (_BARE_PERIOD.search(body) is not None and any(
            _kept_for(m) for m in _BARE_PERIOD.finditer(body)))
    code = frozenset(c.strip().casefold() for c in _CODE.findall(body)) if "`" in body else frozenset()
    keyed = bool(_KEYED.match(body))
    key_stems: frozenset[str] = frozenset()
    key_end = -1
    if keyed:
        key = re.split(r":|\s[—–-]\s|=", body, maxsplit=1)[0]
        key_end = len(key)
        key_stems = frozenset(stem(w) for w in _WORD.findall(key) if w.casefold() not in _STOP and len(w) > 1)
    addresses = (frozenset(x.casefold().rstrip(".") for x in _EMAIL.findall(body)) | frozenset(
        x.casefold().rstrip(".").removeprefix("https://").removeprefix("http://").split("/")[0]
        for x in _URL.findall(_EMAIL.sub(" ", body)))) if "." in body or "@" in body else frozenset()
    regions = frozenset(r.casefold() for r in _REGION.findall(body)) if digits and "-" in body else frozenset()
    if digits and _NAMED_REGION.search(body):
        regions |= frozenset(r.casefold() for r in _NAMED_REGION.findall(body))
    templates = frozenset() if not code else frozenset(_skeleton(c) for c in _CODE.findall(body) if not _PATH.match(c) and (("<" in c and ">" in c) or ("{" in c and "}" in c)
                          or (_TEMPLATE_CONTEXT.search(body) and re.search(r"[\w][/(\[:_-]|[\])][\s:]", c))))
    forms = frozenset() if not code else frozenset(_skeleton(c) for c in _CODE.findall(body) if not _PATH.match(c) and (
        re.search(r"[<{]", c) or re.search(r"[\w][/(\[:_-]|[\])][\s:]", c)))
    if _PLAIN_TEMPLATE.search(body) and _TEMPLATE_CONTEXT.search(body):
        # a template written as text in a line about names or formats ("name branches release/YYYY.MM")
        plain = frozenset(_skeleton(t.rstrip(".,;:)")) for t in _PLAIN_TEMPLATE.findall(_CODE.sub(" ", body)))
        templates, forms = templates | plain, forms | plain
    people_at = _people(body)
    lm = _NAME.match(body)
    lead = name_key(lm.group(1)) if lm and _unknown(lm.group(1)) else None
    people = tuple(dict.fromkeys(k for _, k in people_at))
    sequence: tuple[str, ...] = ()
    if len(people) >= 2 and _ORDER_WORDS.search(body):
        sequence = people
    first = None
    fm = _FIRST.search(body)
    if fm:
        near = [k for at, k in people_at if abs(at - fm.start()) < 40]
        first = near[0] if near else None
    numbers = _numbers(body, key_end, key_stems) if digits else ()
    return Shape(text, code, numbers, regions, addresses, templates, forms, people,
                 lead, sequence,
                 first, keyed, bool(_REPORT.search(body)), _formats(body), _ranges(body) if digits else (),
                 _ordered(body), _designators(body))


#: a masked account or card number: its last digits after dots, stars or "ending in" («…4417», "ending in 4417")
_MASKED = re.compile(r"(?:\.{3}|…|\*{1,12}|\b[xх]{2,}|\bending\s+(?:in|with)\s+|\bоканчива\w+\s+на\s+)(\d{4})\b",
                     re.I)


@functools.lru_cache(maxsize=65536)
def _designators(body: str) -> frozenset[tuple[str, str]]:
    """The designators of a line (outside code spans): ("gate" stem, "b") for "gate B", ("#", "4417") for
    "card ...4417"."""
    text = _CODE.sub(" ", body) if "`" in body else body
    out = set()
    for m in _LETTER_ID.finditer(text):
        noun, ident = m.group(1), m.group(2)
        if noun.casefold() in _STOP or (ident in {"I", "A"} and not noun.islower()):
            continue
        out.add((stem(noun.casefold()), ident.casefold()))
    out.update(("#", m.group(1)) for m in _MASKED.finditer(text))
    return frozenset(out)


#: a range of two amounts: "19–21", "2-4 hours", "between 2 and 4", «от 3 до 5» (dates and times are masked first)
_RANGE = re.compile(r"(?<![\w.,/-])(\d+(?:[.,]\d+)?)\s?[–—-]\s?(\d+(?:[.,]\d+)?)(?![\d.,]*\d)|"
                    r"\b(?:between|от)\s+(\d+(?:[.,]\d+)?)\s+(?:[^\W\d_]+\s+)?(?:and|и|до)\s+(\d+(?:[.,]\d+)?)",
                    re.I)


def _ranges(body: str) -> tuple[tuple[float, float], ...]:
    out = []
    for m in _RANGE.finditer(_NOT_AMOUNT.sub(_blank, body)):
        lo, hi = _parse_number(m.group(1) or m.group(3)), _parse_number(m.group(2) or m.group(4))
        if lo is not None and hi is not None and lo < hi:
            out.append((lo, hi))
    return tuple(out)


def in_range(k: Shape, value: float, k_value: float) -> bool:
    """The constraint gives ``k_value`` as an end of a range ("keep the house at 19–21°C") and ``value`` lies
    inside it: a case of the range, not another value."""
    return any(lo <= value <= hi and k_value in (lo, hi) for lo, hi in k.ranges)


#: what separates the items of an ordered list: arrows, "then", «потом», «затем», "followed by", commas, semicolons
_ORDER_SPLIT = re.compile(r"\s*(?:→|->|=>|>|,?\s*\b(?:and\s+)?then\b|,?\s*\b(?:а\s+)?(?:потом|затем|после\s+этого|"
                          r"следом)\b|,?\s*\bfollowed\s+by\b|[,;])\s*", re.I)
#: words of an ordered list that are not its items
_ORDER_STOP = frozenset(stem(w) for w in """first second third last then next order sequence goes go always
afterwards later after before end сначала первым первой первый потом затем порядок порядке очередь после перед
конце напоследок""".split())


#: a word that puts its clause later in a sequence, and the "and" that joins the clause to the one before it
_LATER = re.compile(r"\b(?:afterwards|after that|later|at the end|last|in the end|после этого|в конце|напоследок|"
                    r"потом)\b", re.I)
_AND = re.compile(r"\s*(?:,\s*|\b)(?:and|и|а)\b\s*", re.I)
_BEFORE_AFTER = re.compile(r"\s+(?:before|after|перед|после)\s+", re.I)
_AFTER_WORDS = frozenset({"after", "после"})


@functools.lru_cache(maxsize=65536)
def _ordered(body: str) -> tuple[frozenset[str], ...]:
    """The items of an ordered list a line states (it has an order word and at least two items), as stems."""
    if not _ORDER_WORDS.search(body):
        return ()
    text = _CODE.sub(lambda m: " " + m.group(1).replace(" ", "_") + " ", body) if "`" in body else body
    if ":" in text and _ORDER_SPLIT.search(text.split(":", 1)[0]) is None:
        text = text.split(":", 1)[1]  # "Release flow: A first, then B": the label is not an item
    pieces = _ORDER_SPLIT.split(text)
    if len(pieces) == 1 and _LATER.search(text):
        pieces = _AND.split(text)  # "publish first and tag it afterwards"
    if len(pieces) == 1:
        m = _BEFORE_AFTER.search(text)
        if m:  # "tag before publishing"; "publish after tagging" is the other way round
            pieces = [text[:m.start()], text[m.end():]]
            if m.group(0).strip().casefold() in _AFTER_WORDS:
                pieces.reverse()
    parts = [frozenset(stem(w) for w in _WORD.findall(part.casefold())
                       if w not in _STOP and stem(w) not in _ORDER_STOP)
             for part in pieces]
    parts = [p for p in parts if p]
    return tuple(parts) if len(parts) >= 2 else ()


def _reordered(c: tuple[frozenset[str], ...], k: tuple[frozenset[str], ...]) -> bool:
    """Two ordered lists share items (stems each names in one item only) and put two of them the other way
    round."""
    def places(seq):
        at: dict[str, int] = {}
        for i, part in enumerate(seq):
            for w in part:
                at[w] = -1 if w in at else i
        return {w: i for w, i in at.items() if i >= 0}
    pc, pk = places(c), places(k)
    common = [w for w in pk if w in pc]
    return any(pk[a] < pk[b] and pc[a] > pc[b] for a in common for b in common)


#: data formats known by name: file and data formats, each spelling to one value
_FILE_FORMATS = {
    **{f: f for f in ("csv", "tsv", "json", "jsonl", "xml", "yaml", "toml", "ini", "parquet", "avro", "orc",
                      "xlsx", "xls", "ods", "ofx", "qif", "qfx", "mt940", "html", "pdf", "docx", "odt", "rtf", "epub",
                      "png", "jpg", "webp", "svg", "gif", "heic", "avif", "tiff", "mp4", "mov", "webm", "mkv", "wav",
                      "mp3", "flac", "ogg", "zip", "7z", "rar", "protobuf", "msgpack", "markdown", "sqlite")},
    "yml": "yaml", "jpeg": "jpg", "ndjson": "jsonl", "md": "markdown", "excel": "xlsx", "tif": "tiff",
    "doc": "docx", "proto": "protobuf",
}
_ENCODING = re.compile(r"(?<![\w-])(utf-?(?:8|16|32)(?:-bom)?|windows-?125\d|cp-?125\d|cp866|koi8-?[ru]|latin-?1|"
                       r"iso-?8859-?\d{1,2}|ascii|us-ascii)(?![\w-])", re.I)
#: a date shape written with letters for its parts, Latin or Cyrillic ("YYYY-MM-DD", «ДД.ММ.ГГГГ»), or ISO 8601
_DATE_SHAPE = re.compile(r"(?<![\w-])([ydmгдм]{1,4})([./-])([ydmгдм]{1,4})\2([ydmгдм]{1,4})(?![\w-])|"
                         r"\biso[ -]?8601\b", re.I)
#: a known format's name or extension as a word (one alternation: a line is searched once, not word by word)
_FORMAT_NAME = re.compile(r"(?<![\w/-])\.?(" + "|".join(sorted(map(re.escape, _FILE_FORMATS), key=len, reverse=True))
                          + r")(?![\w/-])")
_DATE_LETTER = str.maketrans({"г": "y", "д": "d", "м": "m"})
#: a field delimiter named as one: "semicolon-separated", "comma delimiter", "delimiter: tab", «разделитель —
#: точка с запятой», «через запятую»
_SEP = (r"(comma|semicolon|tab|pipe|space|точк\w*\s+с\s+запят\w*|запят\w*|табуляц\w*|пробел\w*|"
        r"вертикальн\w*\s+черт\w*)")
_DELIMITER = re.compile(
    rf"\b{_SEP}[- ]?(?:separated|delimited)\b|\b{_SEP}\s+(?:as\s+(?:the\s+)?)?(?:delimiter|separator)s?\b|"
    rf"\b(?:delimiter|separator)\s*(?:is\s+|:\s*|=\s*|[—–-]\s*)?(?:an?\s+)?{_SEP}|"
    rf"разделител\w*\s*(?:[—–:-]\s*)?{_SEP}|(?<![\w-])через\s+{_SEP}", re.I)
_SEP_VALUE = (("точк", "semicolon"), ("semicolon", "semicolon"), ("comma", "comma"), ("запят", "comma"),
              ("tab", "tab"), ("табуляц", "tab"), ("pipe", "pipe"), ("вертикальн", "pipe"), ("space", "space"),
              ("пробел", "space"))


@functools.lru_cache(maxsize=65536)
def _formats(body: str) -> frozenset[tuple[str, str]]:
    """The data formats a line names (outside code spans): file formats by name or extension ("CSV", ".xlsx",
    "Parquet"), text encodings ("UTF-8", «windows-1251»), date shapes ("YYYY-MM-DD", «ДД.ММ.ГГГГ», "ISO 8601" is
    "yyyy-mm-dd"), field delimiters ("semicolon-separated", «через запятую»)."""
    text = _CODE.sub(" ", body) if "`" in body else body
    out = set()
    low = text.casefold()
    enc = False
    for m in _ENCODING.finditer(low):
        enc = True
        v = m.group(1).replace("-", "").replace("cp", "windows")
        out.add(("encoding", v.replace("windows", "windows-") if v.startswith("windows") else v))
    for m in _DATE_SHAPE.finditer(low):
        if m.group(1) is None:
            out.add(("date", "yyyy-mm-dd"))
            continue
        parts = [g.translate(_DATE_LETTER) for g in (m.group(1), m.group(3), m.group(4))]
        if {p[0] for p in parts} == {"y", "m", "d"} and all(len(set(p)) == 1 for p in parts):
            out.add(("date", m.group(2).join(parts)))
    for m in _DELIMITER.finditer(low):
        word = next(g for g in m.groups() if g)
        out.add(("delimiter", next(v for pre, v in _SEP_VALUE if word.startswith(pre))))
    for m in _FORMAT_NAME.finditer(_ENCODING.sub(" ", low) if enc else low):
        v = _FILE_FORMATS.get(m.group(1))
        if v is not None and not (m.group(1) in {"doc", "md", "excel", "ini", "orc"} and m.group(0)[0] != "."
                                  and not _FORMAT_CONTEXT.search(low)):
            out.add(("file", v))
    return frozenset(out)


#: words that make a short or common word a format ("doc", "md", "Excel" are formats only in a line about one)
_FORMAT_CONTEXT = re.compile(r"\b(?:format\w*|files?|export\w*|save[sd]?|saving|stored?|written|write|as|"
                             r"формат\w*|файл\w*|выгруз\w*|сохран\w*)\b", re.I)


@functools.lru_cache(maxsize=65536)
def stems(text: str) -> frozenset[str]:
    """The content-word stems of a line (not names, code spans, numbers or stop words): what two lines about the
    same slot share, whatever their values."""
    body = _strip(text)
    names = {key for _, key in _people(body)}  # a capital that starts the line is a word («Бот работает …»)
    folded = body.casefold()
    return frozenset(stem(w) for w in _WORD.findall(_CODE.sub(" ", folded) if "`" in folded else folded)
                     if w not in _STOP and len(w) > 2 and not (names and name_key(w) in names))


#: a template outside a code span: a token with a placeholder (``<ticket>``, ``{slug}``) or a run of placeholder
#: letters (YYYY, MM, DD, NNN, XXX) joined to other parts by / . _ -
_PLACEHOLDER = r"(?:<[^<>\s]+>|\{[^{}\s]+\}|\b(?:YYYY|YY|MM|DD|HH|N{2,}|X{2,})\b)"
_PLAIN_TEMPLATE = re.compile(rf"(?<![\w`])(?=[^\s`]*{_PLACEHOLDER})[^\s`]*[/._-][^\s`]*|(?<![\w`])[\w-]*<[^<>\s]+>[\w/.-]*")


def _skeleton(code: str) -> str:
    """A template's comparable form: placeholders (``<ticket>``, ``{slug}``, ``TICKET-123``, YYYY) reduced to one
    mark."""
    t = re.sub(r"\b(?:YYYY|YY|MM|DD|HH|N{2,}|X{2,})\b", "○", code.strip())
    t = t.casefold()
    t = re.sub(r"<[^>]*>|\{[^}]*\}", "○", t)
    t = re.sub(r"\b[a-z]+-\d+\b", "○", t)
    return t


def _punctuation(skeleton: str) -> str:
    """A template's punctuation alone, its words and placeholders one mark: "type(scope): subject" and "fix(auth):
    handle expired tokens" are both "○(○): ○" — an instance fills a template written with words for its parts."""
    return re.sub(r"[\w○]+(?:[ \t]+[\w○]+)*", "○", skeleton)


def _pick_first(people: tuple[str, ...], sequence: tuple[str, ...]) -> str | None:
    return sequence[0] if sequence else None


def substituted(c: Shape, k: Shape, setting: bool = False) -> tuple[str, str, str] | None:
    """(type, candidate value, constraint value) when the candidate gives a typed value of the constraint's
    another value; None otherwise. The caller has checked that the two lines are about the same thing;
    ``setting`` when the candidate prescribes, permits or guesses (not only a "key: value" line)."""
    setting = setting or c.keyed
    # order of a sequence: the same people, another order; or another person said to come first
    if k.sequence:
        c_seq = c.sequence or (c.people if len(c.people) >= 2 else ())
        common = [p for p in c_seq if p in k.sequence]
        if len(common) >= 2 and common != [p for p in k.sequence if p in common]:
            return "order", " → ".join(c_seq), " → ".join(k.sequence)
        first = c.first or (c.lead if c.lead in k.sequence and _FIRST.search(c.text) else None)
        if first and first in k.sequence and first != k.sequence[0]:
            return "order", f"{first} first", f"{k.sequence[0]} first"
    # the order of a list of things: the same items, two of them the other way round
    if k.order and c.order and _reordered(c.order, k.order):
        return "order", " → ".join("/".join(sorted(p)) for p in c.order), \
            " → ".join("/".join(sorted(p)) for p in k.order)
    # a person (a claim may start with the name: "Marek signs off the budget")
    k_people = tuple(dict.fromkeys(((k.lead,) if k.lead and c.people else ()) + k.people))
    c_people = c.people  # a candidate's first word stays a word: «Передача дежурства …» names no one
    # people both name are context ("while Anna is away"); the role goes to someone else when each line has a
    # person the other lacks
    c_rest = [p for p in c_people if p not in k_people]
    k_rest = [p for p in k_people if p not in c_people]
    if setting and c_rest and k_rest and not c.report:
        return "person", c_rest[0], k_rest[0]
    # a region or zone
    if k.regions and c.regions and not c.regions <= k.regions and not k.regions <= c.regions:
        return "region", sorted(c.regions - k.regions)[0], sorted(k.regions)[0]
    # a designator: the same noun with another letter ("gate A" for "gate B"), another masked number
    if k.designators and c.designators and not c.designators & k.designators:
        for noun, ident in sorted(c.designators):
            other = sorted(i for n, i in k.designators if n == noun)
            if other:
                if noun == "#":
                    return "card or account", "…" + ident, "…" + other[0]
                return "designator", ident.upper(), other[0].upper()
    # an address
    if k.addresses and c.addresses and not c.addresses & k.addresses:
        return "address", sorted(c.addresses)[0], sorted(k.addresses)[0]
    # a template or format: one line states it as one, the other's code span has its shape
    if ((k.templates and c.forms and not c.forms & k.templates) or (
            c.templates and k.forms and not c.templates & k.forms)) and not (
            {_punctuation(f) for f in c.templates | c.forms} & {_punctuation(f) for f in k.templates | k.forms}):
        return "format", sorted(c.templates or c.forms)[0], sorted(k.templates or k.forms)[0]
    # a data format of one class (file format, encoding, date shape): none of the constraint's, another one
    for cls in {c_cls for c_cls, _ in c.formats}:
        k_vals = {v for f, v in k.formats if f == cls}
        c_vals = {v for f, v in c.formats if f == cls}
        if k_vals and not c_vals & k_vals:
            label = {"file": "file format", "encoding": "encoding", "date": "date format",
                     "delimiter": "delimiter"}[cls]
            return label, sorted(c_vals)[0], sorted(k_vals)[0]
    # a number of the same measure
    k_values = {measure(n) for n in k.numbers}
    c_stems = stems(c.text) if c.numbers else frozenset()
    k_stems = stems(k.text) if c.numbers else frozenset()
    c_values = {measure(n) for n in c.numbers if n.unit}
    for cn in c.numbers:
        if c.report:
            continue
        c_dim, c_amount = measure(cn)
        for kn in k.numbers:
            if kn.unit and measure(kn) in c_values:
                continue  # the line names the constraint's amount too ("7 days before each 90-day deadline")
            # the word the constraint's number is anchored to, named again beside an amount in a unit
            # (or the word the candidate's amount is anchored to is one the constraint names: «Сессию держим 1 час»
            # against «сессия живёт 20 минут»)
            keyed_again = cn.unit is not None and cn.unit[:2] != "w:" and bool(
                kn.anchors & c_stems or cn.anchors & k_stems)
            # or each number's word is named by the other line: «заправлять только 95-м» against «заправлять
            # машину 92-м», «машину» being the constraint's word too
            crossed = cn.unit is None and kn.unit is None and bool(kn.anchors & c_stems) and bool(
                cn.anchors & k_stems)
            if not (cn.limit or setting or keyed_again or crossed or cn.anchors & kn.anchors) or (
                    kn.limit and not cn.limit):
                continue  # an amount beside a limit is a case of it (the threshold rule's), not another limit
            if other_thing(c.text, k.text, kn.anchors & (cn.anchors | c_stems)):
                continue  # "the DB query timeout" is not "the HTTP timeout"
            if in_range(k, cn.value, kn.value):
                continue  # 20 beside "19–21": inside the range the constraint gives
            if not (cn.unit or kn.unit) and refines(cn.value, kn.value, c.text, k.text):
                continue  # "Node 18.19" beside "Node 18": a release of the version the constraint fixes
            k_dim, k_amount = measure(kn)
            # one dimension (seconds and milliseconds, MB and GB) is one measure, compared after conversion
            same_measure = (c_dim is not None and c_dim == k_dim and (c_dim[:2] != "w:" or kn.anchors
                                                                       & cn.anchors)) \
                or (bool(cn.anchors & kn.anchors) and (cn.unit is None or kn.unit is None or c_dim == k_dim)) \
                or crossed
            if same_measure and not _same_amount(c_amount, k_amount) and (c_dim, c_amount) not in k_values:
                return "number", _shown(cn), _shown(kn)
    return None


#: a word that makes a number a version: "version 18", "v18", "Node 20 LTS", «версия 3.11», "Python 3"
_VERSION_CUE = re.compile(r"\b(?:v(?:ersion)?s?|release|lts|major|minor|версия|версии|версию|релиз\w*|"
                          r"node(?:\.?js)?|python|java|go|ruby|php|postgres(?:ql)?|ubuntu|debian|rails|django|react)\b",
                          re.I)


#: a number written right after a name (a word holding a capital letter: "iOS 17", "Xcode 15.2", «Terraform 1.6»):
#: the name's version
_NAMED_NUMBER = re.compile(r"(?<![\w.+-])((?=[\w.+-]*[A-ZА-ЯЁ])[^\W\d_][\w.+-]*)\s+v?(\d+(?:\.\d+)*)(?!\w|\.\d)")


def _named_versions(text: str, value: float) -> set[str]:
    """The names (casefolded) a number of this value is written right after."""
    out = set()
    for m in _NAMED_NUMBER.finditer(text):
        try:
            if float(m.group(2)) == value:
                out.add(m.group(1).casefold())
        except ValueError:  # "1.2.3": a patch release, its value is the constraint's business
            if m.group(2).split(".")[0] == str(int(value)):
                out.add(m.group(1).casefold())
    return out


def refines(c_value: float, k_value: float, c_text: str, k_text: str) -> bool:
    """The candidate's version is a release of the constraint's: the constraint names a whole major version
    ("Node 18") and the candidate a minor or patch of it ("18.19"); "3.12" is not a release of "3.11". A version
    is told by a version word or a runtime name in either line, or by one name written right before both numbers
    ("iOS 17" and "iOS 17.4")."""
    if k_value != int(k_value) or c_value == int(c_value) or int(c_value) != k_value:
        return False
    if _VERSION_CUE.search(c_text) is not None or _VERSION_CUE.search(k_text) is not None:
        return True
    return not _named_versions(c_text, c_value).isdisjoint(_named_versions(k_text, k_value))


def _comparable(cn: Number, kn: Number, c_stems: frozenset[str]) -> bool:
    """Two numbers are amounts of one measure: one dimension or unit class (counted words must share an anchor
    or the counted word), or the same anchor word with no conflicting unit."""
    c_dim, _ = measure(cn)
    k_dim, _ = measure(kn)
    if c_dim is not None and c_dim == k_dim:
        return c_dim[:2] != "w:" or bool(kn.anchors & (cn.anchors | c_stems)) or cn.unit == kn.unit
    return bool(cn.anchors & kn.anchors) and (cn.unit is None or kn.unit is None or c_dim == k_dim)


def bounded(c: Shape, k: Shape) -> tuple[str, Number, Number] | None:
    """("inside" | "beyond", the candidate's amount, the constraint's bound) for the first amount of the
    candidate of the measure a bound of the constraint sets ("at most 3 meetings", «не меньше 40 минут», "twice a
    week, not more"); None when the constraint sets no bound or the candidate names no such amount. A candidate's
    own bound is another limit (``substituted``), not a case of this one, unless it is the same amount (the bound
    restated)."""
    bounds = [kn for kn in k.numbers if kn.bound]
    if not bounds or not c.numbers:
        return None
    c_stems = stems(c.text)
    for cn in c.numbers:
        for kn in bounds:
            if not _comparable(cn, kn, c_stems):
                continue
            _, ca = measure(cn)
            _, ka = measure(kn)
            if cn.limit:
                if _same_amount(ca, ka):
                    return "inside", cn, kn  # "watering cap: two times per week": the bound restated
                continue
            inside = ca <= ka + 1e-9 * max(abs(ka), 1.0) if kn.bound == "max" else ca >= ka - 1e-9 * max(abs(ka), 1.0)
            return ("inside" if inside else "beyond"), cn, kn
    return None


def one_amount(c_text: str, k_text: str, c_value: str, k_value: str) -> bool:
    """Whether the numbers ``c_value`` of ``c_text`` and ``k_value`` of ``k_text`` are one amount in two units
    of a dimension ("1024 MB" and "1 GB", "120 min" and "2 h")."""
    try:
        cv, kv = float(c_value.replace(",", ".")), float(k_value.replace(",", "."))
    except ValueError:
        return False
    c_m = {measure(n) for n in shape(c_text).numbers if n.value == cv and n.unit in _DIMENSION}
    k_m = {measure(n) for n in shape(k_text).numbers if n.value == kv and n.unit in _DIMENSION}
    if any(cd == kd and _same_amount(ca, ka) for cd, ca in c_m for kd, ka in k_m):
        return True
    # rates are compared per second ("600 requests per minute" is "10 requests a second")
    c_r = {(n.unit, n.value) for n in shape(c_text).numbers if n.unit and n.unit.endswith("/s")}
    k_r = {(n.unit, n.value) for n in shape(k_text).numbers if n.unit and n.unit.endswith("/s")}
    return any(cu == ku and _same_amount(ca, ka) for cu, ca in c_r for ku, ka in k_r)


def _same_amount(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)


def _shown(n: Number) -> str:
    v = int(n.value) if n.value == int(n.value) else n.value
    unit = n.unit[2:] if n.unit and n.unit.startswith("w:") else n.unit
    return f"{v} {unit}" if unit else str(v)


_PAIR = re.compile(r"(?<![\w-])([^\W\d_][\w-]*)[ \t]+(?=([^\W\d_][\w-]*))")  # from a word's start only


@functools.lru_cache(maxsize=8192)
def _modifiers(text: str, anchor: str) -> frozenset[str]:
    """The stems of the nouns right before a common noun whose stem is ``anchor``, with only a space between ("DB
    query timeout" → {"query"}; not a verb: "targets Node", "run Python"; not a capitalized name after it)."""
    from ..concepts import analyze as _analyze, lexicon as _lexicon

    kind = _lexicon().kind
    out = set()
    for m in _PAIR.finditer(_strip(text)):
        word, head = m.group(1), m.group(2)
        if stem(head.casefold()) != anchor or not head.islower() or word.casefold() in _STOP or len(word) < 2:
            continue
        if word.isascii() and word.islower() and word.endswith("s") and not word.endswith("ss"):
            continue  # "targets", "runs": a verb
        if any(kind.get(x) == "action" for x in _analyze(word).concepts):
            continue
        out.add(stem(word.casefold()))
    return frozenset(out)


def other_thing(c_text: str, k_text: str, anchors: frozenset[str]) -> bool:
    """The two lines put different words before the anchor they share, neither named by the other line ("The DB
    query timeout" against "the HTTP timeout"): amounts of two things of one kind."""
    if not anchors:
        return False
    c_stems, k_stems = stems(c_text), stems(k_text)
    for a in anchors:
        cm, km = _modifiers(c_text, a), _modifiers(k_text, a)
        if cm and km and not (cm & k_stems) and not (km & c_stems):
            return True
    return False
