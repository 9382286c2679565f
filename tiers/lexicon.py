"""The EN/RU lexicon of tier markers: every phrase the classifier knows lives in the tables of this module.

Phrases are data, written in a tiny pattern language and compiled once, lazily, into one `regex` alternation per
category. They are matched against the *folded* line (NFC, lower case, ё -> е, straight quotes and dashes; see
``tiers.text.fold``), so write them in lower case with е, never ё, and with straight quotes.

Pattern language (tokens separated by single spaces):

=========== ==========================================================================================
``word``     the word itself, with Unicode word boundaries (never ``\\b``: it is ASCII-only in JavaScript)
``stem*``    a word starting with ``stem`` (``пользовател*`` matches every case form)
``a|b*|c``   alternatives for one token
``tok?``     the token is optional
``_``        any one word; ``_?`` an optional one
``#``        a number (``3``, ``3.0``, ``11:02``)
``: ( " …``  punctuation tokens; spaces around them are optional in the text
``^``        (first token only) the phrase must start the line body
``re:…``     the rest is a raw regular expression (kept for the few structural cues words cannot say)
=========== ==========================================================================================

To extend the classifier, add a phrase to the right table and language, then add a test line for it in
``tests/tiers/test_classify.py``; run ``python benchmarks/tiers_eval.py`` to check nothing else moved.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass

import regex

# ---------------------------------------------------------------------------------------------------------------
# Provenance: the user's own instruction (DIRECTIVE). Speech acts only: "user prefers" is an inference.
# ---------------------------------------------------------------------------------------------------------------
USER_MARKERS: dict[str, tuple[str, ...]] = {
    "en": (
        "the|my? user|human _? said|says|asked|asks|told|tells|wrote|writes|requested|requests|instructed|"
        "insisted|insists|demanded|confirmed|specified|stated|ordered|forbade|forbids|prohibited|banned|"
        "approved|allowed|mentioned|clarified|reminded|explained|corrected|emphasized|emphasised|stressed",
        "per the? user|human",
        "( from|by|per the? user|human",
        "instruction|instructions|request|rule|rules|order|directive|requirement|requirements _? from|by the? "
        "user|human",
        "user's|users' request|instruction|instructions|rule|rules|words|order|orders|requirement|directive|wish|"
        "message|messages|email|note|dm|comment|reply|answer",
        "user|human ) said|says|asked|told|wrote|requested|instructed|insisted|demanded|confirmed|specified|stated",
        "user request|instruction|rule|directive|requirement|order|preference :",
        "at the user's request",
        "in the user's own? words",
        "as the user put it",
        "said|asked|requested the user",
        "user|human : \"",
        "user|human _ _? : \"",
        "user|human : '",
        "\" ( user|human",
        "\" - the? user|human",
        "\" , the? user said|says|wrote",
        "explicit|direct instruction|request|order _? from|by the? user",
        "user|human _? gave|issued a|an|the? instruction|instructions|order|rule|directive",
        "user|human _? made it clear",
        "user|human _? set a|the rule|condition|requirement",
        # a user label with a parenthetical before the colon: "User instruction (Nov 20):", "User (voice note):"
        r"re:^(?:the )?(?:user|human)(?:'s)?(?: (?:request|instruction|instructions|rule|rules|order|preference|"
        r"requirement|directive|words|message|note|feedback))?\s*\([^)\n]{0,40}\)\s*:",
    ),
    "ru": (
        "пользовател*|юзер* _? сказал*|говорил*|говорит|попросил*|просил*|просит|велел*|требует|потребовал*|"
        "написал*|пишет|указал*|настоял*|настаивает|запретил*|разрешил*|подтвердил*|распорядил*|поручил*|"
        "уточнил*|напомнил*|объяснил*|поправил*|подчеркнул*",
        "просьба|просьбе|указание|указанию|требование|инструкция|распоряжение|пожелание|слова|словам|правило "
        "от? пользовател*|юзер*",
        "со слов пользовател*|юзер*",
        "по словам|просьбе|указанию|требованию пользовател*|юзер*",
        "правило|просьба|указание|требование|инструкция|распоряжение _? от пользовател*|юзер*",
        "пользовател*|юзер* : \"",
        "пользовател*|юзер* _ _? : \"",
        "\" ( пользовател*|юзер*",
        "\" - пользовател*|юзер*",
        "пользовател*|юзер* _? дал|дала|дали указание|указания|распоряжение|инструкцию|инструкции|понять",
        "пользовател*|юзер* _? поставил*|выдвинул*|сформулировал* условие|требование|правило",
        "пользовател*|юзер* _? выразил* пожелание",
        r"re:^(?:просьба |указание |требование |слова |правило |инструкция )?пользовател\w*\s*"
        r"\([^)\n]{0,40}\)\s*:",
    ),
}

# An agreed choice (DECISION). A scope is looked for after the marker.
DECISION_MARKERS: dict[str, tuple[str, ...]] = {
    "en": (
        "decided|agreed|settled|chose|chosen|concluded|decision|agreement|aligned|consensus together? with the? "
        "user|human",
        "decision|agreement ( with the? user|human",
        "the? user|human and i|we _? agreed|decided|settled|chose|concluded",
        "we and the user _? agreed|decided|settled|chose",
        "the? user|human decided|chose|approved",
        "the? user|human signed off",
        "we agreed|decided|settled",
        "agreed :", "joint decision :",
    ),
    "ru": (
        "решили|решено|решение|договорились|договоренност*|согласовали|согласовано|согласованное|условились|"
        "сошлись|выбрали|постановили вместе? с пользовател*|юзер*",
        "решение|договоренност* ( с пользовател*|юзер*",
        "мы с пользовател*|юзер* _? решили|договорились|согласовали|условились|выбрали",
        "пользовател*|юзер* и я _? решили|договорились|согласовали",
        "пользовател*|юзер* решил*|выбрал*|утвердил*|одобрил*",
        "мы _? договорились|решили|условились",
        "договорились|решено|согласовано :",
    ),
}

# Hedges demote anything to HYPOTHESIS ("User maybe said", "We probably agreed", "Logs suggest ... might").
HEDGES: dict[str, tuple[str, ...]] = {
    "en": (
        "maybe", "perhaps", "probably", "possibly", "likely", "unlikely", "might", "may be",
        "it|they|he|she|this|that|user|we|which may", "could be", "seem*", "apparently", "presumably",
        "supposedly", "allegedly", "looks|look|looked like", "sounds like", "suggest*", "guess|guessed|guesses|guessing", "suspect|suspected|suspects|suspecting",
        "assume|assumed|assumes|assuming|assumption", "hypothes*", "infer|inferred|infers|inferring|inference", "hunch", "not sure", "unsure", "unclear", "unconfirmed", "unverified",
        "not confirmed", "to be confirmed", "judging by|from", "tbd", "tbc", "i think|believe|reckon|feel", "whether",
        "i can't|cannot|couldn't find", "i could not find", "if i recall|remember", "need|needs to confirm|verify|check",
        "should confirm|verify",
        "re:\\?\\s*[\"')\\]]*\\s*$",
    ),
    "ru": (
        "кажется", "вроде бы", "вроде ,", "^вроде", "пользовател*|мы|он|она|оно|они|это|все|тесты вроде", "похоже", "видимо", "вероятно", "наверное", "наверно", "возможно", "может быть",
        "скорее всего", "предположительн*", "предполага*", "предположени*", "догадк*", "по-видимому",
        "судя по всему", "по-моему", "не уверен*", "неуверен*", "я думаю", "думаю", "если не ошибаюсь", "якобы",
        "вряд ли", "не нашел|нашла|нашли", "надо|нужно проверить|уточнить", "уточнить", "гипотез*",
        "как будто", "будто", "неточно", "не точно", "под вопросом", "не подтвержден*", "неподтвержден*",
    ),
}

# Hedges in the agent's own voice: they count even inside a quoted user payload.
AGENT_HEDGES: dict[str, tuple[str, ...]] = {
    "en": (
        "not sure", "i'm not sure", "unsure", "i think|guess|believe|suspect", "unconfirmed", "not confirmed",
        "i can't|cannot|couldn't find", "i could not find", "if i recall|remember",
    ),
    "ru": (
        "не уверен*", "я думаю", "если не ошибаюсь", "не нашел|нашла", "надо|нужно проверить|уточнить",
        "неточно", "не точно",
    ),
}

# An imperative with no marker is the agent's own rule (HYPOTHESIS); it also vetoes weak environment cues.
IMPERATIVE_STARTS: dict[str, tuple[str, ...]] = {
    "en": (
        "^always|never|don't|dont|avoid|prefer|use|remember|keep|stop|please|run|ensure|try|only|must|should|"
        "let's|lets|check|add|remove|install|update|write|call|ask|send|book|skip|mock|rename|move|delete",
        "^do not", "^make sure",
    ),
    "ru": (
        "^всегда|никогда|не|нельзя|обязательно|только|надо|нужно|следует|стоит|давай*",
        "re:^\\w+(?:ть|ти|чь)(?:ся)?(?!\\w)",
    ),
}

# Environment evidence (OBSERVATION). Weights add up; 0.8 makes an observation. Hedges and user markers win.
#: Words that name an environment source; a short label before a colon holding one of them is a strong cue.
ENV_SOURCES: dict[str, tuple[str, ...]] = {
    "en": (
        "log|logs|error.log|access.log|syslog|journal|ci|ci/cd|build|builds|pipeline|workflow|api|endpoint|"
        "response|status|output|stdout|stderr|exit|pytest|jest|vitest|mocha|npm|pnpm|yarn|pip|cargo|go|make|"
        "gradle|maven|docker|kubectl|k8s|helm|terraform|ansible|git|gh|curl|wget|ping|dig|nslookup|df|du|free|top|"
        "ps|uptime|systemctl|journalctl|certbot|openssl|nginx|apache|sentry|grafana|prometheus|datadog|"
        "monitoring|metrics|dashboard|lighthouse|calendar|inbox|email|mail|webhook|cron|http|tests|test|"
        "benchmark|profiler|coverage|linter|lint|ruff|eslint|mypy|tsc|compiler|rustc|gcc|psql|sql|query|"
        "redis-cli|s3|aws|gcloud|az|stripe|github|gitlab|deploy|deployment|health-check|healthcheck|weather|"
        "traceroute|uptimerobot|pagerduty|alert|alerts|crash|report|scan|audit|trivy|snyk|dependabot",
    ),
    "ru": (
        "лог|логи|логов|логах|логам|журнал*|мониторинг*|метрик*|сборк*|статус*|ответ|вывод|календар*|почт*|"
        "письм*|тест*|депло*|пайплайн*|дашборд*|сервер*|консол*|терминал*|алерт*|отчет*|аудит*|сканер*|"
        "health-check|healthcheck|api|ci|pytest|npm|git|docker|curl|df|kubectl|certbot|sentry|grafana",
    ),
}

ENV_CUES: dict[str, tuple[tuple[str, float], ...]] = {
    "en": (
        ("re:^`[^`]+`", 0.5),
        (r"re:(?<=\S\s)`[^`]+`", 0.3),
        ("re:^(?:get|post|put|patch|delete|head) /", 0.4),
        ("shows|showed|shown|reports|reported|returned|returns|responded|outputs|printed|prints|logged|lists|"
         "listed|exited|errored|threw|raised|crashed|restarting|restarted", 0.5),
        ("came back", 0.5),
        ("timed out", 0.5),
        ("failed|fails|failing|passed|passes|succeeded|succeeds", 0.5),
        ("green|red|found|detected|says", 0.4),
        ("with|returned code #", 0.4),
        ("pytest|jest|vitest|npm|pnpm|yarn|cargo|docker|kubectl|helm|terraform|curl|wget|df|du|uptime|systemctl|"
         "journalctl|certbot|openssl|mypy|ruff|eslint|tsc|sentry|grafana|prometheus|datadog|lighthouse|make", 0.3),
        ("exit|status code", 0.4),
        ("status|code #", 0.4),
        ("http #", 0.4),
        ("down|up from #", 0.4),
        ("dropped|rose|increased|decreased|grew|fell to #", 0.4),
        ("email|mail|message|letter|invoice|notification from", 0.8),
        ("according to the? logs|calendar|inbox|dashboard|monitoring|metrics|output|ci", 0.8),
        ("per|in|from the? logs|calendar|inbox|dashboard|monitoring|metrics|output", 0.8),
        ("the? logs|calendar|inbox|dashboard|monitoring|ci|output|response show*|report*|say*|contain*|list*",
         0.8),
        ("api|ci|logs|log|build|pipeline|monitoring|calendar|inbox|deploy|deployment|health-check|cron|webhook|"
         "backup|backups", 0.3),
        ("ran|executed|reran", 0.5),
        ("re:(?<!\\w)[1-5]\\d\\d\\s+(?:ok|created|accepted|no content|moved|found|not modified|bad request|"
         "unauthorized|forbidden|not found|conflict|gone|too many requests|internal server error|bad gateway|"
         "service unavailable|gateway timeout)(?!\\w)", 0.5),
        ("re:(?<!\\w)\\d+\\s+(?:failed|passed|errors?|warnings?|skipped|vulns?|vulnerabilities|commits?|"
         "files?|tests?)(?!\\w)", 0.3),
        ("re:(?:error\\[?e\\d{3,4}|oomkilled|traceback|exception|segfault|econnrefused|etimedout|enoent|"
         "panicked|stack trace)", 0.4),
        ("re:(?:#|№)\\s?\\d{2,}", 0.2),
        ("re:\\d+(?:[.,]\\d+)?\\s?%", 0.2),
        ("re:\\d+(?:[.,]\\d+)?\\s?(?:ms|s|sec|min|kb|mb|gb|tb|req/min|rps|°c|°f)(?!\\w)", 0.2),
    ),
    "ru": (
        ("показывает|показал*|вернул*|возвращает|выдал*|выдает|вывел*|выводит|сообщает|сообщил*|ответил*|"
         "отвечает|перезапуска*|завершил*|упал*|падает|падают|истекает|истек*|заполнен*|вырос*|снизил*|"
         "уменьшил*|увеличил*|прошел|прошла|прошли|прошло|стоят|стоит", 0.5),
        ("успешно|зеленый|красный|ошибк*", 0.3),
        ("нашел|нашла|нашли|обнаружил*|обнаружен*", 0.5),
        ("с кодом #", 0.4),
        ("pytest|jest|npm|pnpm|yarn|cargo|docker|kubectl|terraform|curl|df|certbot|mypy|ruff|eslint|sentry|grafana|"
         "make", 0.3),
        ("код выхода|ответа", 0.4),
        ("по логам|данным|мониторингу|метрикам|календарю", 0.8),
        ("согласно логам|данным|мониторингу|метрикам|календарю", 0.8),
        ("в|во логах|календаре|почте|мониторинге|дашборде|выводе|ответе", 0.8),
        ("письмо|сообщение|уведомление|счет от", 0.8),
        ("ответ api|сервера", 0.8),
        ("вывод команды", 0.8),
        ("логи|журнал|мониторинг|календарь показывают|показывает|пишут|пишет|содержат|содержит", 0.8),
        ("api|ci|логи|лог|сборка|сборки|пайплайн|мониторинг|календарь|деплой|health-check|крон|бэкап*", 0.3),
        ("запустил*|прогнал*|выполнил*", 0.5),
        ("re:(?<!\\w)\\d+\\s+(?:тест\\w*|ошиб\\w*|предупрежд\\w*|коммит\\w*|файл\\w*)(?!\\w)", 0.3),
        ("re:\\d+(?:[.,]\\d+)?\\s?(?:мс|с|сек|мин|кб|мб|гб|тб)(?!\\w)", 0.2),
    ),
}

# ---------------------------------------------------------------------------------------------------------------
# Scope vocabulary (DECISION). Word tuples, folded; used token by token by the scope finder in tiers.classify.
# ---------------------------------------------------------------------------------------------------------------
#: Time- or condition-bounded openings: the scope runs to the end of the clause.
SCOPE_TEMPORAL: tuple[tuple[str, ...], ...] = (
    ("until",), ("till",), ("through",), ("throughout",), ("during",), ("while",), ("before",), ("after",),
    ("as", "long", "as"), ("for", "the", "duration", "of"), ("for", "the", "rest", "of"), ("pending",),
    ("до", "тех", "пор", "пока"), ("до",), ("пока",), ("на", "время"), ("в", "течение"), ("в", "период"),
    ("на", "период"), ("после",), ("вплоть", "до"),
)
#: Openings that restrict where or for what a choice applies.
SCOPE_STRONG: tuple[tuple[str, ...], ...] = (
    ("for",), ("within",), ("inside",), ("in", "scope", "of"), ("для",), ("в", "рамках"), ("в", "пределах"),
    ("в", "границах"),
)
#: Weak openings: a scope only when the phrase names a common-noun place (not a brand, a weekday or a time).
SCOPE_WEAK: tuple[tuple[str, ...], ...] = (("in",), ("on",), ("в",), ("во",), ("на",))
#: Clause-level openings: they run to the next comma.
SCOPE_CONJUNCTIONS: frozenset[str] = frozenset({"while", "пока", "until", "as"})
#: Words that restrict a phrase ("only in the EU region", "for the CLI prototype only").
SCOPE_ONLY: frozenset[str] = frozenset({"only", "exclusively", "solely", "только", "исключительно", "лишь"})
#: Heads that make a phrase part of a schedule (the chosen option), not a scope: "on Tuesdays", "в 8:30".
SCHEDULE_HEADS: tuple[str, ...] = (
    "monday*", "tuesday*", "wednesday*", "thursday*", "friday*", "saturday*", "sunday*", "weekday*",
    "weekend*", "mornings", "evenings", "понедельник*", "вторник*", "сред*", "четверг*", "пятниц*", "суббот*",
    "воскресень*", "выходн*", "будн*", "утрам", "вечерам",
)
#: Time heads that end a leading scope ("в декабре релизы…" -> "в декабре").
TIME_HEADS: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "q1", "q2", "q3", "q4", "январ*", "феврал*", "март*", "апрел*", "мае", "май",
    "мая", "июн*", "июл*", "август*", "сентябр*", "октябр*", "ноябр*", "декабр*", "квартал*", "недел*",
    "week", "month", "quarter", "sprint", "спринт*", "месяц*", "год*",
)
#: Russian adjective and determiner endings: a leading Russian scope reads through them to the noun they qualify.
RU_ADJECTIVE_ENDINGS: tuple[str, ...] = (
    "ой", "ей", "ом", "ем", "ую", "юю", "ая", "яя", "ие", "ые", "ий", "ый", "их", "ых", "ого", "его", "ому", "ему",
    "ими", "ыми",
)
RU_DETERMINERS: frozenset[str] = frozenset({"эта", "это", "этот", "эти", "тот", "та", "те", "то", "весь", "вся", "все"})
#: A leading English scope ends before one of these (the clause's subject).
CLAUSE_SUBJECTS: frozenset[str] = frozenset(
    {"we", "i", "you", "they", "the", "use", "keep", "mock", "skip", "run", "мы", "я"}
)

# ---------------------------------------------------------------------------------------------------------------
# Compilation
# ---------------------------------------------------------------------------------------------------------------
_NUMBER = r"\d+(?:[.,:]\d+)*"
_ANY_WORD = r"[\w][\w.\-/'`]*"


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


_SPACE = r"\s+"
_MAYBE_SPACE = r"\s*"


def compile_phrase(phrase: str) -> str:
    """The regex source for one phrase of the pattern language (see the module docstring)."""
    if phrase.startswith("re:"):
        return phrase[3:]
    anchored = phrase.startswith("^")
    if anchored:
        phrase = phrase[1:]
    toks = [_token(t) for t in phrase.split(" ") if t]
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


# The stdlib engine is faster for this one trivial scan; its \w is Unicode-aware on str patterns too.
_WORD_RUN = re.compile(r"\w+")
#: Per-index memo of word -> candidate phrases (words repeat across lines; the memo is bounded).
_MEMO: dict[int, dict[str, tuple]] = {}


def _candidates(index: dict, word: str) -> tuple:
    """Index entries whose first word can be ``word``: exact words, then stems keyed by 1-3 leading letters."""
    memo = _MEMO.get(id(index))
    if memo is None:
        memo = _MEMO[id(index)] = {}
    hit = memo.get(word)
    if hit is not None:
        return hit
    cands = index.get("=" + word, ())
    for n in (1, 2, 3):
        if len(word) >= n:
            more = index.get("~" + word[:n])
            if more:
                cands = cands + more
    if len(memo) < 50000:
        memo[word] = cands
    return cands


_DIGIT = re.compile(r"\d")


def _trigger(source: str) -> str | None:
    """What a line must contain for an unindexed pattern to have a chance: "digit", a few literal characters
    (any of them), or None (always try). Saves compiling and running most raw patterns on most lines."""
    body = source[7:] if source.startswith(r"(?<!\w)") else source
    if body.startswith((r"\d", "[1-5]", "[0-9]")):
        return "digit"
    group = re.match(r"\(\?:((?:(?:\\[^\w\s]|[^\w\s\\()|])\|?)+)\)", body)
    if group:
        return "+" + group.group(1).replace("\\", "").replace("|", "")
    bare = re.match(r"\\([^\w\s])", body)
    if bare:
        return "+" + bare.group(1)
    return None


class LazyPattern:
    """A pattern compiled on first use: a hook process that classifies three lines compiles only the handful of
    phrases those lines can start, not the whole lexicon (compiling is most of a cold start)."""

    __slots__ = ("source", "_compiled", "trigger")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: regex.Pattern | None = None
        self.trigger = _trigger(source)

    def may_match(self, text: str, has_digit: bool) -> bool:
        t = self.trigger
        if t is None:
            return True
        if t == "digit":
            return has_digit
        return any(ch in text for ch in t[1:])

    @classmethod
    def restored(cls, source: str, trigger: str | None) -> LazyPattern:
        """A pattern read back from the tables cache (its trigger was computed when the tables were built)."""
        obj = cls.__new__(cls)
        obj.source = source
        obj._compiled = None
        obj.trigger = trigger
        return obj

    @property
    def pattern(self) -> regex.Pattern:
        if self._compiled is None:
            self._compiled = regex.compile(self.source)
        return self._compiled

    def match(self, text: str, pos: int = 0):
        return self.pattern.match(text, pos)

    def finditer(self, text: str):
        return self.pattern.finditer(text)


@dataclass(frozen=True, slots=True)
class Matcher:
    """One compiled category.

    Phrases that start with a word are indexed by the first (up to) three letters of that word, so a line is
    scanned once for its words and only the few phrases that can start at each word are tried. Phrases that
    start with punctuation, a wildcard or a raw regex share one alternation scanned over the whole line.
    """

    index: dict[str, tuple[tuple[int, LazyPattern], ...]]
    others: tuple[tuple[int, LazyPattern], ...]
    anchored: LazyPattern | None
    entries: tuple[tuple[str, str, float], ...]

    def finditer(self, folded: str):
        """Yield ``(start, end, lang, phrase, weight)`` for each match, left to right, never overlapping."""
        found: list[tuple[int, int, int]] = []
        last_end = -1
        for w in _WORD_RUN.finditer(folded):
            pos = w.start()
            if pos < last_end:
                continue
            best = None
            for idx, pat in _candidates(self.index, w.group()):
                if best is not None and idx >= best[2]:
                    continue
                m = pat.match(folded, pos)
                if m:
                    best = (pos, m.end(), idx)
            if best:
                found.append(best)
                last_end = best[1]
        if self.anchored is not None:
            m = self.anchored.match(folded)
            if m:
                found.append((m.start(), m.end(), int(m.lastgroup[1:])))
        has_digit = bool(_DIGIT.search(folded))
        for idx, pat in self.others:
            if pat.may_match(folded, has_digit):
                for m in pat.finditer(folded):
                    found.append((m.start(), m.end(), idx))
        found.sort()
        end = -1
        for s, e, idx in found:
            if s < end:
                continue
            end = max(e, s + 1)
            lang, phrase, weight = self.entries[idx]
            yield s, e, lang, phrase, weight

    def search(self, folded: str):
        return next(self.finditer(folded), None)


def _first_keys(phrase: str) -> tuple[set[str], set[str]] | None:
    """(exact first words, first-word stems) of a phrase that starts with words; None when it must be scanned
    for everywhere (raw regexes, anchored phrases, punctuation or wildcards first)."""
    if phrase.startswith(("re:", "^")):
        return None
    exact: set[str] = set()
    stems: set[str] = set()
    for tok in phrase.split(" "):
        optional = tok.endswith("?") and len(tok) > 1
        tok = tok[:-1] if optional else tok
        alts = tok.split("|")
        if tok in ("_", "#") or not all(a[:1].isalnum() for a in alts):
            return None
        for alt in alts:
            if alt.endswith("*"):
                stems.add(alt[:-1])
            elif _WORD_RUN.fullmatch(alt):
                exact.add(alt)
            else:
                # "error.log", "health-check", "don't": the scanned word is the part before the punctuation
                stems.add(_WORD_RUN.match(alt).group())
        if not optional:
            return exact, stems
    return None


def _build(table: dict) -> Matcher:
    entries: list[tuple[str, str, float]] = []
    index: dict[str, list[tuple[int, regex.Pattern]]] = {}
    others: list[tuple[int, regex.Pattern]] = []
    anchored: list[str] = []
    for lang, items in table.items():
        for item in items:
            phrase, weight = (item, 1.0) if isinstance(item, str) else item
            source = compile_phrase(phrase)
            idx = len(entries)
            keys = _first_keys(phrase)
            if keys is not None:
                # Leading optional words ("the? user said") are dropped for indexed phrases: the phrase is found
                # from its first required word, which is far rarer than "the" or "my".
                toks = phrase.split(" ")
                while len(toks) > 1 and toks[0].endswith("?") and len(toks[0]) > 1:
                    toks = toks[1:]
                trimmed = " ".join(toks)
                if trimmed != phrase:
                    source = compile_phrase(trimmed)
                    keys = _first_keys(trimmed)
            if keys is None:
                if source.startswith("^"):
                    anchored.append(f"(?P<e{idx}>{source})")
                else:
                    # separate patterns: one big alternation defeats the engine's first-character scan
                    others.append((idx, LazyPattern(source)))
            else:
                pat = LazyPattern(source)
                exact, stems = keys
                # "=word" finds a whole first word; "~abc" any word starting with a stem (keyed by <= 3 letters)
                for key in {"=" + w for w in exact} | {"~" + st[:3] for st in stems}:
                    index.setdefault(key, []).append((idx, pat))
            entries.append((lang, phrase, weight))
    return Matcher(
        {k: tuple(v) for k, v in index.items()},
        tuple(others),
        LazyPattern("|".join(anchored)) if anchored else None,
        tuple(entries),
    )


_TABLES = {
    "user": USER_MARKERS,
    "decision": DECISION_MARKERS,
    "hedge": HEDGES,
    "agent_hedge": AGENT_HEDGES,
    "imperative": IMPERATIVE_STARTS,
    "env": ENV_CUES,
    "env_source": ENV_SOURCES,
}
#: Every category of the lexicon, in scan order.
CATEGORIES: tuple[str, ...] = tuple(_TABLES)


@functools.cache
def matcher(category: str) -> Matcher:
    """The compiled matcher of one category, built on first use."""
    return _build(_TABLES[category])


@functools.cache
def _combined() -> tuple[dict[str, tuple[tuple[int, int, regex.Pattern], ...]], tuple[Matcher, ...]]:
    path = _tables_path()
    loaded = _read_tables(path) if path else None
    if loaded is not None:
        return loaded
    matchers = tuple(matcher(c) for c in CATEGORIES)
    index: dict[str, list[tuple[int, regex.Pattern]]] = {}
    for ci, m in enumerate(matchers):
        for key, cands in m.index.items():
            index.setdefault(key, []).extend((ci * 100000 + idx, pat) for idx, pat in cands)
    out = {k: tuple(v) for k, v in index.items()}, matchers
    if path and not sys.dont_write_bytecode:
        _write_tables(path, *out)
    return out


# -- the tables cache ----------------------------------------------------------------------------------------------
# Building the matchers (every phrase through compile_phrase) is ~10 ms of every hook process. The result is plain
# data, so it is kept beside this module's bytecode, like a .pyc: in __pycache__, written only where bytecode is
# (not under PYTHONDONTWRITEBYTECODE), named by a digest of the phrase tables and of this file's size and mtime,
# read with marshal (no pickle import). Any problem reading or writing it just means building the tables again.
_TABLES_FORMAT = 1


def _tables_path() -> str | None:
    try:
        st = os.stat(__file__)
        import hashlib

        h = hashlib.blake2b(repr(_TABLES).encode("utf-8", "surrogatepass"), digest_size=10)
        h.update(f"{_TABLES_FORMAT}:{st.st_size}:{st.st_mtime_ns}:{sys.version_info[:2]}".encode())
    except Exception:  # noqa: BLE001 - no cache, not an error
        return None
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                        f"lexicon-tables.{sys.implementation.cache_tag}.{h.hexdigest()}.marshal")


def _read_tables(path: str):
    import marshal

    try:
        with open(path, "rb") as fh:
            fmt, plist, ms, ix = marshal.loads(fh.read())
        if fmt != _TABLES_FORMAT or len(ms) != len(CATEGORIES):
            return None
        pats = [LazyPattern.restored(src, trig) for src, trig in plist]
        matchers = tuple(
            Matcher({k: tuple((i, pats[p]) for i, p in v) for k, v in mi.items()},
                    tuple((i, pats[p]) for i, p in mo), pats[ma] if ma >= 0 else None, tuple(map(tuple, me)))
            for mi, mo, ma, me in ms)
        return {k: tuple((i, pats[p]) for i, p in v) for k, v in ix.items()}, matchers
    except Exception:  # noqa: BLE001 - missing, stale or damaged: build instead
        return None


def _write_tables(path: str, index: dict, matchers: tuple[Matcher, ...]) -> None:
    import marshal

    ids: dict[int, int] = {}
    plist: list[tuple[str, str | None]] = []

    def pid(p: LazyPattern) -> int:
        k = ids.get(id(p))
        if k is None:
            k = ids[id(p)] = len(plist)
            plist.append((p.source, p.trigger))
        return k

    ms = tuple(({k: tuple((i, pid(p)) for i, p in v) for k, v in m.index.items()},
                tuple((i, pid(p)) for i, p in m.others),
                pid(m.anchored) if m.anchored is not None else -1,
                m.entries) for m in matchers)
    ix = {k: tuple((i, pid(p)) for i, p in v) for k, v in index.items()}
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        data = marshal.dumps((_TABLES_FORMAT, tuple(plist), ms, ix))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        prefix = f"lexicon-tables.{sys.implementation.cache_tag}."
        for name in os.listdir(os.path.dirname(path)):
            if name.startswith(prefix) and name.endswith(".marshal") and name != os.path.basename(path):
                os.unlink(os.path.join(os.path.dirname(path), name))
    except Exception:  # noqa: BLE001 - a read-only install simply has no cache
        try:
            os.unlink(tmp)
        except OSError:
            pass


Hit = tuple[int, int, str, str, float]


def scan(folded: str, categories: tuple[str, ...] = CATEGORIES) -> dict[str, list[Hit]]:
    """Every category's matches in one pass over the words of ``folded`` (the hot path of classification).

    Returns ``{category: [(start, end, lang, phrase, weight), ...]}``; within a category matches never overlap.
    """
    index, matchers = _combined()
    wanted = [CATEGORIES.index(c) for c in categories]
    found: list[list[tuple[int, int, int]]] = [[] for _ in CATEGORIES]
    last_end = [-1] * len(CATEGORIES)
    for w in _WORD_RUN.finditer(folded):
        cands = _candidates(index, w.group())
        if not cands:
            continue
        pos = w.start()
        best: dict[int, tuple[int, int, int]] = {}
        for key, pat in cands:
            ci, idx = divmod(key, 100000)
            if pos < last_end[ci] or (ci in best and best[ci][2] <= idx):
                continue
            m = pat.match(folded, pos)
            if m:
                best[ci] = (pos, m.end(), idx)
        for ci, hit in best.items():
            found[ci].append(hit)
            last_end[ci] = hit[1]
    out: dict[str, list[Hit]] = {}
    has_digit = bool(_DIGIT.search(folded))
    for ci in wanted:
        mt = matchers[ci]
        hits = found[ci]
        if mt.anchored is not None:
            m = mt.anchored.match(folded)
            if m:
                hits.append((m.start(), m.end(), int(m.lastgroup[1:])))
        for idx, pat in mt.others:
            if pat.may_match(folded, has_digit):
                for m in pat.finditer(folded):
                    hits.append((m.start(), m.end(), idx))
        hits.sort()
        res: list[Hit] = []
        end = -1
        for st, en, idx in hits:
            if st < end:
                continue
            end = max(en, st + 1)
            lang, phrase, weight = mt.entries[idx]
            res.append((st, en, lang, phrase, weight))
        out[CATEGORIES[ci]] = res
    return out


def _word_set_regex(words: tuple[str, ...]) -> regex.Pattern:
    alts = [re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in words]
    return regex.compile(r"(?:" + "|".join(alts) + r")\Z")


@functools.cache
def schedule_head() -> regex.Pattern:
    return _word_set_regex(SCHEDULE_HEADS)


@functools.cache
def time_head() -> regex.Pattern:
    return _word_set_regex(TIME_HEADS)
