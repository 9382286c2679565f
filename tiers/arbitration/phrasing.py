"""How a line says what it says: a rule given by its mood (an imperative, a Russian bare infinitive), and things
named only as what an artifact is about ("deploy notes", «заметки о деплое»). docs/arbitration.md, the rules of
session 13."""

from __future__ import annotations

import functools
import re

from .structure import _STOP, _strip


#: a Russian infinitive (a bare infinitive prescribes: «Счета отдавать на подпись …», «задачи заводить в …»); not
#: a noun or numeral in the same letters (память, часть, пять, десять)
_RU_INFINITIVE = re.compile(r"(?<![\w-])[а-яё]{2,}(?:[аяеиуы]ть(?:ся)?|ти|чь)(?![\w-])", re.I)
_NOT_INFINITIVE = frozenset("""память опять пять шесть девять десять двадцать тридцать часть сеть путь
степень новость дать""".split())
_RU_PAST = re.compile(r"(?<![\w-])[а-яё]{2,}(?:ал|ял|ел|ил|ул|ыл)(?:а|о|и|ся|ась|ось|ись)?(?![\w-])", re.I)


#: verbs of setting and keeping the concept lexicon does not count as acts ("Keep the snapshots for a month")
_SETTING_VERBS = frozenset("""keep set route make put pin assign forward leave give store retain hand let please
stick name call""".split())


@functools.lru_cache(maxsize=65536)  # asked of both lines of every pair a lint checks: once per text
def prescribes(text: str) -> bool:
    """The line prescribes by its mood: an English imperative (its first word a verb of the lexicon in its base
    form: "Ask Julia to review …", "Route the reports to …") or a Russian bare infinitive with no verb in the past
    («Счета отдавать на подпись Сергею»)."""
    from ..concepts import analyze as _analyze, lexicon as _lexicon

    body = _strip(text)
    first = re.match(r"[^\W\d_][\w'-]*", body)
    if first and first.group(0).isascii():
        w = first.group(0).casefold()
        if w.endswith(("s", "ed", "ing")) or len(w) < 3:
            return False
        kind = _lexicon().kind
        return w in _SETTING_VERBS or any(kind.get(x) == "action" for x in _analyze(w).concepts)
    infinitives = [m.group(0).casefold() for m in _RU_INFINITIVE.finditer(body)]
    return any(w not in _NOT_INFINITIVE for w in infinitives) and _RU_PAST.search(body) is None


#: nouns of an artifact about a thing (its notes, template, settings, protection, page…): "deploy notes", "email
#: templates", "force-push protection", «заметки о деплое», «шаблоны писем» are about the artifact, not the act
_ARTIFACT = (r"notes?|minutes|templates?|docs?|documentation|protection|settings|dashboard|checklist|guide|"
             r"freeze|ban|moratorium|embargo|"
             r"polic(?:y|ies)|scripts?|history|button|page|form|hooks?|queue|config|configuration|metrics|stats|"
             r"statistics|tooling|runbook|wiki|readme|slides?|recording|transcript|archive")
_MODIFIER = re.compile(rf"\b([a-z][\w'-]*?)(?:'s)?[ -](?:{_ARTIFACT})\b|"
                       rf"\b(?:{_ARTIFACT})\s+(?:for|about|on|of)\s+(?:the\s+|a\s+|an\s+|our\s+|this\s+|that\s+)?"
                       r"([a-z][\w'-]*)|"
                       r"(?<![\w-])(?:заметк\w*|шаблон\w*|документаци\w*|инструкци\w*|чек-лист\w*|настройк\w*|"
                       r"дашборд\w*|страниц\w*|скрипт\w*|истори\w*|защит\w*|регламент\w*|запис\w+ встреч\w*|"
                       r"протокол\w*|вики|запрет\w*|заморозк\w*|мораторий\w*)\s+(?:о|об|про|по|для|от|на)?\s*([а-яё][\w-]*)", re.I)


_BAN = re.compile(r"\b(?:freeze|ban|moratorium|embargo)\b|запрет|заморозк|моратори", re.I)
_EXEMPT = re.compile(r"\b(?:exempt\w*|except\w*|lifted|waived|does\s?n[o']t apply|not apply|outside)\b|"
                     r"освобожд\w*|кроме|не действует|не распространя\w*|снят\w*|отмен\w*", re.I)


@functools.lru_cache(maxsize=8192)
def artifact_modifiers(text: str) -> frozenset[str]:
    """The concepts a line names only as what an artifact is about ("Deploy notes for Friday's release",
    «Заметки о деплое»): the line speaks of the artifact; it neither does nor gives them."""
    from ..concepts import analyze as _analyze

    body = _strip(text)
    if not _MODIFIER.search(body):
        return frozenset()
    out: set[str] = set()
    exempt = _EXEMPT.search(body) is not None
    for m in _MODIFIER.finditer(body):
        if exempt and _BAN.search(m.group(0)):
            continue  # "exempt from the Friday deploy freeze": the ban lifted for it, the act allowed
        word = next(g for g in m.groups() if g)
        if word.casefold() in _STOP:
            continue
        out |= _analyze(word).concepts
    # a concept the line also names outside such a phrase is its own
    rest = {x for cl in _analyze(_MODIFIER.sub(" ", body)).clauses for x in cl.direct}
    return frozenset(out - rest)


#: English past forms that do not end in -ed (the agent's record of an act: "Sent the invoice …")
_EN_IRREGULAR_PAST = frozenset("""sent made put set bought took gave wrote ran kept left got paid sold held told
brought built chose drove found hung laid lent lit meant met read rode shut spent spun stuck swept threw won
""".split())
#: a Russian short passive participle («забронирован», «добавлено», «удалены»): an act done, its doer left out
_RU_SHORT_PARTICIPLE = re.compile(r"(?<![\w-])[а-яё]{3,}(?:ован|ирован|ен|ён|ан|ят)(?:а|о|ы)?(?![\w-])", re.I)
_RU_NOT_PARTICIPLE = frozenset("""план плана экран экрана охрана стакан стакана рецепт океан роман романа
карман кармана диван дивана баран тюльпан шафран сторона стороны страна страны цена цены стена стены
смена смены замена замены время имя семья""".split())


#: prepositions that open a Russian place or purpose phrase before the verb («На сайт …», «В конфиг …», «Для биллинга …»)
_RU_PLACE_PREP = frozenset("на в во для к ко из с со по у за под".split())


#: endings of a Russian verb in the first person, present or future («добавляю», «закажу», «ставим», «берём»)
_RU_FIRST_PERSON = ("ю", "у", "ем", "ём", "им")


def _is_act(word: str) -> bool:
    """The lexicon reads ``word`` as an act (an action concept)."""
    from ..concepts import analyze as _analyze, lexicon as _lexicon

    kind = _lexicon().kind
    return any(kind.get(x) == "action" for x in _analyze(word).concepts)


@functools.lru_cache(maxsize=8192)
def agent_act(text: str) -> bool:
    """The line records an act done by the writer with no subject of its own ("Booked the flight for …",
    "Turned off 2FA …", «Забронирован рейс …», «Заказал пиццу», «В тесто добавлено …»): the agent's account of
    what it did (also an indefinite-personal «На сайт добавили …»: a place phrase, then a plural past verb with no
    subject; a verb in the first person present, «Добавляю …», «Закажу …»), which holds it to the rules it did it
    under — unlike a report of the environment with its own
    subject ("CI deployed …", "The standup took 25 minutes"), which states a fact."""
    body = _strip(text)
    body = re.sub(r"^\d{1,2}:\d{2}\s+", "", body)  # a time-stamp prefix of a daily note
    first = re.match(r"[^\W\d_][\w'-]*", body)
    if first is None:
        return False
    w = first.group(0).casefold()
    if w.isascii():
        return (w.endswith("ed") and len(w) > 4) or w in _EN_IRREGULAR_PAST
    if _RU_PAST.fullmatch(w) and not w.endswith(("ся", "сь")):
        return True  # «Заказал …», «Купили …»: a verb first, its subject the writer
    if w.endswith(_RU_FIRST_PERSON) and len(w) > 4 and _is_act(w):
        return True  # «Добавляю 🚀 в …», «Закажу пиццу», «Ставим созвон»: the writer's own act, said in the present
    head = body.split()[:5]
    if w in _RU_PLACE_PREP and any(_RU_PAST.fullmatch(x.casefold()) and x.casefold().endswith("ли")
                                   for x in head[1:]):
        return True  # «На сайт добавили …», «В README дописали …»: a place, then a plural verb with no subject
    return any(_RU_SHORT_PARTICIPLE.fullmatch(x.strip(".,;:«»\"'").casefold()) and
               x.strip(".,;:«»\"'").casefold() not in _RU_NOT_PARTICIPLE for x in head)


#: the user speaking of themself: a rule about the user's own diet, habits or hours ("I'm vegetarian", «я не ем
#: мясо», "never call me before 10")
_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:i|i'm|i’m|i've|i'd|me|my|mine|myself|я|мне|меня|мной|мой|моя|моё|мое|мои|"
                           r"моих|моим|моего|моей)(?![\w'’])", re.I)
#: a person other than the user named as the subject that opens a line: a relative, a friend, a colleague, a guest
_OTHER_PERSON = re.compile(
    r"^(?:(?:my|our|the|his|her|their|a|one|user's|the user's)\s+)?(?:wife|husband|partner|spouse|girlfriend|boyfriend|"
    r"son|daughter|kids?|children|mom|mum|mother|dad|father|parents?|brother|sister|grandma|grandpa|friend|friends|"
    r"colleague|colleagues|coworker|coworkers|boss|manager|neighbou?r|guests?|roommate|flatmate|"
    r"жена|муж|партн[её]р|сын|дочь|дети|мама|папа|мать|отец|родители|брат|сестра|бабушка|дедушка|друг|друзья|подруга|"
    r"коллега|коллеги|начальник|начальница|сосед|соседка|гост[ьи]|сосед по комнате)(?![\w-])", re.I)


def speaks_of_another(text: str, rule: str) -> bool:
    """The line describes another person than the user, in a rule about the user themself: the rule speaks in the
    first person ("I'm vegetarian", «не звонить мне до 10») and the line opens with another person as its subject
    — a relative, friend, colleague or guest ("My wife drinks three coffees a day", «Жена пользователя ест мясо»),
    or a name with a possessive or a comma and a role after it ("Oleg's team", "Oleg, the new designer, loves
    steak"; a name alone may be the user's own: "Jonas is on US Eastern time" in Jonas's file) — and states a fact:
    it offers, plans or records nothing (the caller checks)."""
    return _first_person(rule) and _another_opens(text)


@functools.lru_cache(maxsize=65536)  # the two halves of ``speaks_of_another``, asked for every pair: once per text
def _first_person(rule: str) -> bool:
    return _FIRST_PERSON.search(_strip(rule)) is not None


@functools.lru_cache(maxsize=65536)
def _another_opens(text: str) -> bool:
    body = _strip(text)
    body = re.sub(r"^\d{1,2}:\d{2}\s*(?:[—–-]\s*)?", "", body)
    if _OTHER_PERSON.match(body):
        return True
    m = re.match(r"([A-ZА-ЯЁ][a-zа-яё]+)(?:['’]s\s|\s*,\s*(?:the|our|a|an|my|наш\w*|мой|моя|новый|новая)\s)", body)
    if not m or m.group(1).casefold() in {"user", "пользователь", "the"}:
        return False
    from ..concepts import analyze as _analyze

    # a word the lexicon knows ("Steak's price", «Карбонара, …») is no name
    return all(c.startswith("w:") for c in _analyze(m.group(1)).concepts)
