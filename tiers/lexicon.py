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

import bisect
import functools
import os
import re

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


# -- matching -------------------------------------------------------------------------------------------------------
# Phrases are matched without compiling anything on ordinary lines: each phrase of the pattern language becomes a
# short list of steps that a small backtracking matcher runs over the folded line, trying alternatives, greedy runs
# and optional tokens in exactly the order the compiled regular expression would (``compile_phrase`` stays the
# reference, and the ``regex`` engine runs it whenever the fast path may differ). Why: a hook process classifies one
# line; importing ``regex`` (~13 ms) and compiling a dozen alternations (~30 ms) was most of its time.
#
# The fast path reads ``\w`` as ``str.isalnum() or "_"``, ``\s`` as ``str.isspace()`` and ``\d`` as
# ``str.isdecimal()``: exactly the stdlib ``re`` classes. A line holding a character on which ``re`` and ``regex``
# disagree (combining marks, superscript digits, letters newer than Python's Unicode tables; listed in
# ``data/regex_engine_diff.txt``, plus every code point Python's tables leave unassigned, which a newer ``regex``
# may know) is matched by ``regex`` itself, as before. Raw ``re:`` patterns are compiled
# (lazily, one by one) with ``re`` on ordinary lines and with ``regex`` on the others.

# The stdlib engine is faster for this one trivial scan; its \w is Unicode-aware on str patterns too.
_WORD_RUN = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
# An ASCII line is also read as bytes (encoding and decoding it are copies): ``bytes.translate`` maps each byte
# through a table in C, where ``str.translate`` looks every distinct character up in a mapping.
#: The ASCII bytes outside ``\w`` (all but 0-9, A-Z, a-z and "_"; tables made in C: the hook imports this module).
_NON_WORD_ASCII = bytes(range(0x30)) + bytes(range(0x3A, 0x41)) + bytes(range(0x5B, 0x5F)) + b"`" + bytes(
    range(0x7B, 0x80))
#: Those bytes as spaces, every other byte as itself: an ASCII line's ``\w`` runs are then the words ``split``
#: finds (every character ``split`` splits at is one of them). So are those of a line's UTF-8 bytes when its other
#: characters are all Cyrillic letters (``_NOT_ASCII_OR_CYRILLIC`` finds none): their bytes, all from 0x80 on,
#: stay as they are.
_WORD_BYTES = bytes.maketrans(_NON_WORD_ASCII, b" " * len(_NON_WORD_ASCII))
_UTF8_WORD_BYTES = _WORD_BYTES
#: A character that is neither ASCII nor a Cyrillic letter (U+0400-U+0481 and U+048A-U+04FF are letters, all ``\w``);
#: compiled on the first line that is not ASCII (a hook process classifying an English line never needs it).
_NOT_ASCII_OR_CYRILLIC = None
#: ASCII digits as "0", anything else as a space: the first "0" is the first ``\d`` of an ASCII line.
_DIGIT_BYTES = bytes.maketrans(b"0123456789" + bytes(range(0x30)) + bytes(range(0x3A, 0x100)), b"0" * 10 + b" " * 246)


def line_words(text: str) -> list[str]:
    """``_WORD_RUN.findall(text)``: the ``\\w`` runs of ``text``, left to right."""
    if text.isascii():
        return _ascii_words(text.encode("ascii"))
    return _other_words(text)


def _other_words(text: str) -> list[str]:
    """The ``\\w`` runs of a line that is not ASCII: through its UTF-8 bytes when it holds only ASCII and Cyrillic
    letters (a Russian line: ``findall`` looks up every character's Unicode category), else by ``_WORD_RUN``."""
    global _NOT_ASCII_OR_CYRILLIC
    if _NOT_ASCII_OR_CYRILLIC is None:
        _NOT_ASCII_OR_CYRILLIC = re.compile(r"[^\x00-\x7f\u0400-\u0481\u048a-\u04ff]")
    if _NOT_ASCII_OR_CYRILLIC.search(text) is None:
        return text.encode("utf-8").translate(_UTF8_WORD_BYTES).decode("utf-8").split()
    return _WORD_RUN.findall(text)


def _ascii_words(raw: bytes) -> list[str]:
    """The ``\\w`` runs of an ASCII line given as bytes."""
    return raw.translate(_WORD_BYTES).decode("ascii").split()


def _first_digit(text: str, raw: bytes | None) -> int:
    """Where ``_DIGIT`` first matches in ``text`` (``raw``: the line as bytes when it is ASCII), or -1."""
    if raw is not None:
        return raw.translate(_DIGIT_BYTES).find(b"0")
    digit = _DIGIT.search(text)
    return -1 if digit is None else digit.start()

_ASCII_DIFF = "\x1c\x1d\x1e\x1f"
_LATIN1_DIFF = frozenset("\x1c\x1d\x1e\x1f\xb2\xb3\xb9\xbc\xbd\xbe")
#: The characters below U+0483 where the engines differ (the first ranges of data/regex_engine_diff.txt).
_LOW_DIFF = _LATIN1_DIFF | frozenset(map(chr, range(0x300, 0x370)))
_DIFF_RANGES: tuple[list[int], list[int]] | None = None


def _diff_ranges() -> tuple[list[int], list[int]]:
    global _DIFF_RANGES
    if _DIFF_RANGES is None:
        starts: list[int] = []
        ends: list[int] = []
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "regex_engine_diff.txt")
        with open(path, encoding="ascii") as fh:
            for line in fh:
                if line.startswith("#"):
                    continue
                for part in line.split():
                    lo, _, hi = part.partition("-")
                    starts.append(int(lo, 16))
                    ends.append(int(hi or lo, 16))
        _DIFF_RANGES = starts, ends
    return _DIFF_RANGES


_BELOW_ARMENIAN_DIFF: frozenset[str] | None = None


def _below_armenian_diff() -> frozenset[str]:
    """Every character below U+0530 (Latin, Greek, Cyrillic) that ``needs_regex`` sends to ``regex``."""
    global _BELOW_ARMENIAN_DIFF
    if _BELOW_ARMENIAN_DIFF is None:
        _BELOW_ARMENIAN_DIFF = frozenset(ch for ch in map(chr, range(0x530)) if _needs_regex_by_char(ch))
    return _BELOW_ARMENIAN_DIFF


_BELOW_ARMENIAN_DIFF_RX = None
#: a character from U+0530 on (Armenian and above): the character loop decides such a line (compiled on the first
#: line that is not ASCII)
_FROM_ARMENIAN = None


def _below_armenian_diff_rx():
    """``_below_armenian_diff()`` as one character class: a search runs in C without making a string object of
    each character of the line (which a set test does for every character above Latin-1)."""
    global _BELOW_ARMENIAN_DIFF_RX
    if _BELOW_ARMENIAN_DIFF_RX is None:
        cps = sorted(map(ord, _below_armenian_diff()))
        ranges: list[list[int]] = []
        for cp in cps:
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
        _BELOW_ARMENIAN_DIFF_RX = re.compile("[" + "".join(
            f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges) + "]")
    return _BELOW_ARMENIAN_DIFF_RX


def needs_regex(text: str) -> bool:
    """True when ``re`` and ``regex`` could read ``text`` differently (see the note above ``_WORD_RUN``)."""
    if text.isascii():
        return not text.isprintable() and any(ch in text for ch in _ASCII_DIFF)
    global _FROM_ARMENIAN
    if _FROM_ARMENIAN is None:
        _FROM_ARMENIAN = re.compile(r"[^\x00-\u052f]")
    if _FROM_ARMENIAN.search(text) is None:  # Latin, Greek, Cyrillic: one search in C, no loop in Python
        return _below_armenian_diff_rx().search(text) is not None
    return _needs_regex_by_char(text)


def _needs_regex_by_char(text: str) -> bool:
    for ch in set(text):
        if ch < "\u0300":
            if ch in _LATIN1_DIFF:
                return True
        elif ch < "\u0370":  # combining diacritical marks: all differ
            return True
        elif "\u0400" <= ch < "\u0530":  # Cyrillic (fully assigned): only its combining marks differ
            if "\u0483" <= ch <= "\u0489":
                return True
        else:
            starts, ends = _diff_ranges()
            cp = ord(ch)
            i = bisect.bisect_right(starts, cp) - 1
            if i >= 0 and cp <= ends[i]:
                return True
            if _unassigned(ch):
                return True
    return False


def _unassigned(ch: str) -> bool:
    """A code point Python's Unicode tables do not know yet. A ``regex`` release newer than the one the table was
    generated from may already class it as a letter or a digit (its Unicode is newer than the interpreter's), so a
    line holding one goes to ``regex``: the table stays safe when ``regex`` is upgraded."""
    import unicodedata

    return unicodedata.category(ch) == "Cn"


def _is_w(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


# Step codes of a compiled phrase (a flat list; an optional token is OPT followed by the steps it covers).
_BOL, _NOT_AFTER_W, _NOT_BEFORE_W, _SPACE_PLUS, _SPACE_STAR, _ALT, _ANY_W, _NUM, _OPT = range(9)
_ANY_TAIL = frozenset(".-/'`")


def _token_steps(tok: str) -> tuple[tuple, bool]:
    """(step, wordy) for one token (the optional mark already removed); mirrors ``_token``."""
    if tok == "_":
        return (_ANY_W,), True
    if tok == "#":
        return (_NUM,), True
    alts = []
    for alt in tok.split("|"):
        if alt.endswith("*") and len(alt) > 1:
            alts.append((alt[:-1], True))
        else:
            alts.append((alt, False))
    return (_ALT, tuple(alts)), all(a[:1].isalnum() for a in tok.split("|"))


def phrase_steps(phrase: str) -> tuple[tuple, ...]:
    """The steps of one pattern-language phrase (not ``re:``): the same structure ``compile_phrase`` emits."""
    anchored = phrase.startswith("^")
    if anchored:
        phrase = phrase[1:]
    toks = []
    for t in phrase.split(" "):
        if not t:
            continue
        optional = t.endswith("?") and len(t) > 1
        step, wordy = _token_steps(t[:-1] if optional else t)
        toks.append((step, wordy, optional))
    out: list[tuple] = []
    if anchored:
        out.append((_BOL,))
    if toks[0][1]:
        out.append((_NOT_AFTER_W,))
    for i, (step, wordy, optional) in enumerate(toks):
        if i == 0:
            if optional and len(toks) > 1:
                sep = (_SPACE_PLUS,) if (wordy and toks[1][1]) else (_SPACE_STAR,)
                out += [(_OPT, 2), step, sep]
            else:
                out.append(step)
            continue
        if i == 1 and toks[0][2]:
            seq = [step]  # the optional first token carried its own separator
        else:
            seq = [(_SPACE_PLUS,) if (toks[i - 1][1] and wordy) else (_SPACE_STAR,), step]
        if optional:
            out.append((_OPT, len(seq)))
        out += seq
    if toks[-1][1]:
        out.append((_NOT_BEFORE_W,))
    return tuple(out)


def _num_ends(text: str, pos: int, n: int):
    """End positions of ``\\d+(?:[.,:]\\d+)*`` at ``pos``, in the order a backtracking engine tries them."""
    e = pos
    while e < n and text[e].isdecimal():
        e += 1
    if e == pos:
        return
    yield from _num_tail(text, e, n)
    for end in range(e - 1, pos, -1):
        yield end


def _num_tail(text: str, p: int, n: int):
    if p + 1 < n and text[p] in ".,:" and text[p + 1].isdecimal():
        e = p + 2
        while e < n and text[e].isdecimal():
            e += 1
        yield from _num_tail(text, e, n)
        for end in range(e - 1, p + 1, -1):
            yield end
    yield p


def run_steps(steps: tuple[tuple, ...], text: str, pos: int, i: int = 0) -> int | None:
    """The end of the match of ``steps`` at ``pos`` (``regex`` ``match`` semantics on a fast-path line), or None."""
    n = len(text)
    nsteps = len(steps)
    while i < nsteps:
        st = steps[i]
        code = st[0]
        if code == _ALT:
            alts = st[1]
            if len(alts) == 1 and not alts[0][1]:
                lit = alts[0][0]
                if not text.startswith(lit, pos):
                    return None
                pos += len(lit)
                i += 1
                continue
            for lit, stem in alts:
                if not text.startswith(lit, pos):
                    continue
                e = pos + len(lit)
                if not stem:
                    r = run_steps(steps, text, e, i + 1)
                    if r is not None:
                        return r
                    continue
                base = e
                while e < n and (text[e].isalnum() or text[e] in "_-"):
                    e += 1
                for end in range(e, base - 1, -1):
                    r = run_steps(steps, text, end, i + 1)
                    if r is not None:
                        return r
            return None
        if code == _SPACE_PLUS or code == _SPACE_STAR:
            e = pos
            while e < n and text[e].isspace():
                e += 1
            low = pos + 1 if code == _SPACE_PLUS else pos
            if e < low:
                return None
            if e == low:
                pos = e
                i += 1
                continue
            for end in range(e, low - 1, -1):
                r = run_steps(steps, text, end, i + 1)
                if r is not None:
                    return r
            return None
        if code == _NOT_AFTER_W:
            if pos > 0 and _is_w(text[pos - 1]):
                return None
            i += 1
            continue
        if code == _NOT_BEFORE_W:
            if pos < n and _is_w(text[pos]):
                return None
            i += 1
            continue
        if code == _OPT:
            r = run_steps(steps, text, pos, i + 1)
            if r is not None:
                return r
            i += 1 + st[1]
            continue
        if code == _ANY_W:
            if pos >= n or not _is_w(text[pos]):
                return None
            e = pos + 1
            while e < n and (_is_w(text[e]) or text[e] in _ANY_TAIL):
                e += 1
            for end in range(e, pos, -1):
                r = run_steps(steps, text, end, i + 1)
                if r is not None:
                    return r
            return None
        if code == _NUM:
            for end in _num_ends(text, pos, n):
                r = run_steps(steps, text, end, i + 1)
                if r is not None:
                    return r
            return None
        if code == _BOL:
            if pos != 0:
                return None
            i += 1
            continue
        raise AssertionError(f"unknown step {st!r}")  # pragma: no cover
    return pos


# -- triggers of unindexed patterns ---------------------------------------------------------------------------------
def _item_end(src: str, i: int) -> int:
    """The end of the regex item (group, class, escape or character) that starts at ``src[i]``."""
    ch = src[i]
    if ch == "\\":
        return i + 2
    if ch == "[":
        j = i + 1
        if src[j:j + 1] == "^":
            j += 1
        if src[j:j + 1] == "]":
            j += 1
        while j < len(src) and src[j] != "]":
            j += 2 if src[j] == "\\" else 1
        return j + 1
    if ch == "(":
        depth = 0
        j = i
        while True:
            m = _GROUP_SPECIAL.search(src, j)
            if m is None:
                raise ValueError(f"unbalanced group in {src!r}")
            j = m.start()
            c = src[j]
            if c == "\\":
                j += 2
                continue
            if c == "[":
                j = _item_end(src, j)
                continue
            if c == "(":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
    return i + 1


def _quantifier(src: str, j: int) -> tuple[str, int]:
    """(quantifier, end) after an item ending at ``j``: "" (exactly once), "+" (one or more) or "?" (may be absent)."""
    ch = src[j:j + 1]
    if ch == "+":
        end, kind = j + 1, "+"
    elif ch in ("?", "*"):
        end, kind = j + 1, "?"
    elif ch == "{":
        close = src.index("}", j)
        low = src[j + 1:close].split(",")[0]
        end, kind = close + 1, ("?" if low in ("", "0") else "+")
    else:
        return "", j
    if src[end:end + 1] in ("?", "+"):  # lazy or possessive: the same items still have to occur
        end += 1
    return kind, end


_GROUP_SPECIAL = re.compile(r"[\\\[()]")


def _alternatives(src: str) -> list[str]:
    """``src`` split at its top-level ``|``."""
    if not _GROUP_SPECIAL.search(src):
        return src.split("|")
    out = []
    start = i = 0
    while i < len(src):
        if src[i] == "|":
            out.append(src[start:i])
            start = i + 1
            i += 1
        else:
            i = _item_end(src, i)
    out.append(src[start:])
    return out


def _needs(src: str, first_only: bool = False) -> list:
    """What every match of ``src`` (no top-level ``|``) must contain, one entry per mandatory item that says
    something cheap: "digit", or a tuple of literal substrings (any of them). All entries must hold."""
    out: list = []
    i = 0
    while i < len(src):
        ch = src[i]
        end = _item_end(src, i)
        kind, after = _quantifier(src, end)
        if ch in "^$" or kind == "?" or ch in "[." or (ch == "(" and src.startswith(("(?=", "(?!", "(?<=", "(?<!"), i)):
            i = after  # anchors, optional items, classes and lookarounds say nothing about the text matched
            continue
        if ch == "(":
            if src.startswith("(?:", i):
                inner = src[i + 3:end - 1]
            elif src.startswith("(?P<", i):
                inner = src[src.index(">", i) + 1:end - 1]
            elif src[i + 1] != "?":
                inner = src[i + 1:end - 1]
            else:
                raise ValueError("flags, conditionals, back references: not read")
            subs: list[str] = []
            for alt in _alternatives(inner):
                first = next((n for n in _needs(alt, True) if n != "digit"), None)
                if first is None:
                    subs = []
                    break
                subs.extend(first)
            if subs:
                out.append(tuple(dict.fromkeys(subs)))
                if first_only:
                    break
            i = after
            continue
        if ch == "\\":
            if src[i + 1] == "d":
                if "digit" not in out:
                    out.append("digit")
                i = after
                continue
            if src[i + 1].isalnum():
                i = after  # a class (\w, \s) or an anchor (\b, \A): no literal
                continue
            lit = src[i + 1]
        else:
            lit = ch
        # a run of literal characters; one that a quantifier makes optional ends it
        run = [lit]
        j = after
        if kind == "":
            while j < len(src) and (src[j].isalnum() or src[j] in " _-/'\"`:,;=#№%°<>@!&~"):
                k_kind, k_after = _quantifier(src, j + 1)
                if k_kind == "?":
                    break
                run.append(src[j])
                j = k_after
                if k_kind == "+":
                    break
        out.append(("".join(run),))
        if first_only:
            break
        i = j
    return out


def _trigger(source: str):
    """What a line must contain for an unindexed pattern to have a chance: a tuple of requirements that must all
    hold, each "digit" or a tuple of literal substrings (any of them); None means always try. Saves running (and
    compiling) most raw patterns on most lines; it reads only items every match must contain, so it never turns
    a match away."""
    if re.search(r"\(\?[a-zA-Z^]", source.replace("(?P<", "")):
        return None  # inline flags (case folding, verbose) change what a literal means
    try:
        if len(_alternatives(source)) != 1:
            return None
        needs = _needs(source)
    except (ValueError, IndexError):
        return None
    return tuple(needs) or None


def _may_match(trigger, text: str, has_digit: bool) -> bool:
    """Whether ``text`` holds every requirement of ``trigger`` (the plain test; ``scan`` collects the same answer as
    ids, see ``_Triggers``)."""
    if trigger is None:
        return True
    for need in trigger:
        if need == "digit":
            if not has_digit:
                return False
        elif not any(map(text.__contains__, need)):
            return False
    return True


#: Uses of a pattern matched by steps before it is compiled with ``re`` (faster per call, ~0.2 ms to compile): a
#: hook process compiles nothing, a linter compiles the few phrases that keep coming up.
COMPILE_AFTER = 16


class Pattern:
    """One phrase: matched by steps on fast-path lines until it is hot, compiled (lazily, per engine) otherwise."""

    __slots__ = ("phrase", "trigger", "gate", "uses", "digit_first", "_steps", "_source", "_std", "_rx")

    def __init__(self, phrase: str, trigger=None) -> None:
        self.phrase = phrase  # a pattern-language phrase, or "re:" and a raw pattern
        self.trigger = trigger
        #: every match starts with a digit: a search may start at the line's first digit
        self.digit_first = phrase.startswith("re:") and _digit_first(phrase[3:])
        self.gate: frozenset[int] = frozenset()
        self.uses = 0
        self._steps: tuple | None = None
        self._source: str | None = None
        self._std = None
        self._rx = None

    @property
    def source(self) -> str:
        """The regular expression of the phrase (``compile_phrase``), built when first needed."""
        if self._source is None:
            self._source = compile_phrase(self.phrase)
        return self._source

    @property
    def steps(self) -> tuple | None:
        """The phrase as steps (None for a raw pattern), built when first needed."""
        if self._steps is None and not self.phrase.startswith("re:"):
            self._steps = phrase_steps(self.phrase)
        return self._steps

    def compiled(self, exact: bool):
        """The compiled source: ``regex`` when ``exact`` (the line needs it), else the stdlib ``re``.

        A raw pattern that starts with ``\\d+`` may be compiled for ``re`` as its run-start twin (see
        ``run_start_source``): it finds the same matches searching from the line's start, its first digit or the
        end of a match, which is how raw patterns are searched, but not when matched at any position."""
        if exact:
            if self._rx is None:
                import regex

                self._rx = regex.compile(self.source)
            return self._rx
        if self._std is None:
            twin = run_start_source(self.phrase[3:]) if self.phrase.startswith("re:") else None
            self._std = re.compile(twin or self.source)
        return self._std

    def match_end(self, text: str, pos: int, exact: bool) -> int | None:
        if not exact and self._std is None:
            self.uses += 1
            if self.uses <= COMPILE_AFTER:
                steps = self._steps or self.steps
                if steps is not None:
                    return run_steps(steps, text, pos)
        m = self.compiled(exact).match(text, pos)
        return m.end() if m else None

    def finditer(self, text: str, exact: bool):
        """``(start, end)`` of each non-overlapping match, left to right (``finditer`` semantics)."""
        if not exact and self._std is None:
            self.uses += 1
            if self.uses <= COMPILE_AFTER:
                steps = self._steps or self.steps
                if steps is not None:
                    yield from _finditer_steps(steps, text)
                    return
        for m in self.compiled(exact).finditer(text):
            yield m.start(), m.end()


_REGEX_SPECIAL = frozenset("\\.^$*+?{}[]|()")


def run_start_source(source: str) -> str | None:
    """A faster source with the same search results for a raw pattern ``\\d+…`` whose matches never end between two
    digits (it ends with ``(?!\\w)``, ``(?!\\d)`` or a literal character that is not a digit), or for one that starts
    ``(?<!\\w)\\d+`` (``\\d(?<!\\w\\d)\\d*…``: the same pattern, written class first); else None.

    Why it is the same: a match that starts inside a run of digits implies one at the run's start (``\\d+`` takes
    the extra digits, and the rest matches as before), so a search from a position that is not inside a run (the
    line's start, its first digit, the end of a match of such a pattern) finds its first match at a run's start.
    The twin ``\\d(?<!\\d\\d)\\d*…`` only tries run starts: its first item is a character class, so the ``re``
    engine skips to the next digit in C instead of trying the pattern at every position and every digit."""
    if source.startswith("(?<!\\w)\\d+") and source[10:11] not in ("?", "+"):
        # the lookbehind already keeps matches at run starts: the same pattern with a class first, at any position
        return "\\d(?<!\\w\\d)\\d*" + source[10:]
    if not source.startswith("\\d+") or source[3:4] in ("?", "+"):
        return None
    try:
        if len(_alternatives(source)) != 1:
            return None
    except (ValueError, IndexError):
        return None
    ends_apart = source.endswith(("(?!\\w)", "(?!\\d)")) or (
        source[-1] not in _REGEX_SPECIAL and not source[-1].isdecimal() and source[-2:-1] != "\\")
    if not ends_apart:
        return None
    return "\\d(?<!\\d\\d)\\d*" + source[3:]


def _digit_first(source: str) -> bool:
    """True when every match of the raw pattern ``source`` starts with a decimal digit: after its leading
    lookbehinds (which read the text before the match) comes a required ``\\d`` or a class of ASCII digits."""
    try:
        if len(_alternatives(source)) != 1:
            return False
        while source.startswith(("(?<!", "(?<=")):
            source = source[_item_end(source, 0):]
        if not source:
            return False
        end = _item_end(source, 0)
        if _quantifier(source, end)[0] == "?":
            return False
    except (ValueError, IndexError):
        return False
    first = source[:end]
    return first == "\\d" or _DIGIT_CLASS.fullmatch(first) is not None


_DIGIT_CLASS = re.compile(r"\[(?:[0-9]-[0-9]|[0-9])+\]")


def _finditer_steps(steps: tuple, text: str):
    first = steps[0]
    if first[0] == _ALT and not any(stem for _lit, stem in first[1]):
        # the match starts with one of a few literals: only their positions can start one
        starts = sorted({i for lit, _s in first[1] for i in _find_all(text, lit)})
    else:
        starts = range(len(text) + 1)
    end = 0
    for pos in starts:
        if pos < end:
            continue
        e = run_steps(steps, text, pos)
        if e is not None:
            yield pos, e
            end = e if e > pos else pos + 1


def _find_all(text: str, lit: str):
    i = text.find(lit)
    while i >= 0:
        yield i
        i = text.find(lit, i + 1)


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
            elif alt.replace("_", "a").isalnum():  # all word characters, as _WORD_RUN.fullmatch(alt)
                exact.add(alt)
            else:
                # "error.log", "health-check", "don't": the scanned word is the part before the punctuation
                stems.add(_WORD_RUN.match(alt).group())
        if not optional:
            return exact, stems
    return None


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
assert len(CATEGORIES) == 7, "scan() keeps one hit list per category"
_CATEGORY_INDEX = {c: i for i, c in enumerate(CATEGORIES)}


_TOKEN_INFO: dict[str, tuple] = {}


def _single_chars(need) -> bool:
    return isinstance(need, tuple) and all(len(x) == 1 for x in need)


def _token_info(tok: str) -> tuple[str, bool, list[str], bool, bool]:
    """(token without "?", optional, alternatives, wordy, every alternative ends in punctuation) of a token."""
    info = _TOKEN_INFO.get(tok)
    if info is None:
        optional = tok.endswith("?") and len(tok) > 1
        bare = tok[:-1] if optional else tok
        alts = bare.split("|")
        wordy = bare in ("_", "#") or all(a[:1].isalnum() for a in alts)
        ends_punct = bare not in ("_", "#") and all(a and not _is_w(a[-1]) and not a.endswith("*") for a in alts)
        info = _TOKEN_INFO[tok] = (bare, optional, alts, wordy, ends_punct)
    return info


class _Tables:
    """Every category, built once per process from the phrase tables (plain string work, no compiles).

    ``exact``/``stems`` map a first word (or a stem's leading word characters) to ``(category, entry, pattern)``;
    ``anchored_*`` the same for ``^`` phrases, tried at the first word of the line only; ``loose`` holds the
    patterns tried over the whole line behind a trigger, ``anchored_loose`` those tried at its start.

    Each indexed pattern also has a *gate*: ids of the tokens after its first one that every match needs
    somewhere in the line (a word starting with one of their alternatives, a punctuation mark, a digit). A line
    collects the ids its words and characters satisfy; a pattern whose gate is not among them is not tried.
    """

    __slots__ = ("entries", "exact", "stems", "anchored_exact", "anchored_stems", "loose", "anchored_loose",
                 "stem_lengths", "anchored_stem_lengths", "token_ids", "word_tokens", "word_token_lengths",
                 "char_tokens", "groups", "char_groups", "char_token_tids", "first_chars", "triggers")

    def __init__(self) -> None:
        self.entries: list[tuple[tuple[str, str, float], ...]] = []
        self.exact: dict[str, list] = {}
        self.stems: dict[str, list] = {}
        self.anchored_exact: dict[str, list] = {}
        self.anchored_stems: dict[str, list] = {}
        self.loose: list[tuple[int, int, Pattern]] = []
        self.anchored_loose: list[tuple[int, int, Pattern]] = []
        self.token_ids: dict[str, int] = {}
        #: a word's leading characters -> ids of the tokens it satisfies; "#" and punctuation tokens by characters
        self.word_tokens: dict[str, set[int]] = {}
        self.char_tokens: list[tuple[int, tuple[str, ...]]] = []
        for ci, category in enumerate(CATEGORIES):
            entries: list[tuple[str, str, float]] = []
            for lang, items in _TABLES[category].items():
                for item in items:
                    phrase, weight = (item, 1.0) if isinstance(item, str) else item
                    idx = len(entries)
                    entries.append((lang, phrase, weight))
                    self._add(ci, idx, phrase)
            self.entries.append(tuple(entries))
        groups = self._group(self.loose, False) + self._group(self.anchored_loose, True)
        # a requirement of single characters is tested with one set intersection per line, not group by group
        self.groups = [g for g in groups if not _single_chars(g[0])]
        self.char_groups: dict[str, list] = {}
        for need, members in groups:
            if _single_chars(need):
                for ch in need:
                    self.char_groups.setdefault(ch, []).append(members)
        self.char_token_tids = {lits[0]: tid for tid, lits in self.char_tokens if len(lits) == 1 and len(lits[0]) == 1}
        self.char_tokens = [(tid, lits) for tid, lits in self.char_tokens
                            if not (len(lits) == 1 and len(lits[0]) == 1)]
        #: first characters of every indexed word: a word starting otherwise ("1234") starts no phrase, meets no gate
        self.first_chars = frozenset(k[:1] for table in (self.exact, self.stems, self.word_tokens) for k in table)
        self.stem_lengths = sorted({len(k) for k in self.stems})
        self.anchored_stem_lengths = sorted({len(k) for k in self.anchored_stems})
        self.word_token_lengths = sorted({len(k) for k in self.word_tokens})
        self.triggers = _Triggers(self)

    def _add(self, ci: int, idx: int, phrase: str) -> None:
        if phrase.startswith("re:"):
            source = phrase[3:]
            pat = Pattern(phrase, _trigger(source))
            (self.anchored_loose if source.startswith("^") else self.loose).append((ci, idx, pat))
            return
        if phrase.startswith("^"):
            keys = _first_keys(phrase[1:])
            first = phrase[1:].split(" ", 1)[0]
            if keys is not None and not (first.endswith("?") and len(first) > 1):
                self._index(ci, idx, Pattern(phrase), keys,
                            self.anchored_exact, self.anchored_stems)
            else:
                pat = Pattern(phrase, _trigger(compile_phrase(phrase)))
                self.anchored_loose.append((ci, idx, pat))
            return
        keys = _first_keys(phrase)
        if keys is not None:
            # Leading optional words ("the? user said") are dropped for indexed phrases: the phrase is found
            # from its first required word, which is far rarer than "the" or "my".
            toks = phrase.split(" ")
            while len(toks) > 1 and toks[0].endswith("?") and len(toks[0]) > 1:
                toks = toks[1:]
            trimmed = " ".join(toks)
            if trimmed != phrase:
                phrase = trimmed
                keys = _first_keys(trimmed)
        if keys is None:
            self.loose.append((ci, idx, Pattern(phrase, _trigger(compile_phrase(phrase)))))
            return
        pat = Pattern(phrase)
        pat.gate = self._gate(phrase)
        self._index(ci, idx, pat, keys, self.exact, self.stems)

    def _gate(self, phrase: str) -> frozenset[int]:
        """Ids of the required tokens after the first that a line must hold for ``phrase`` (indexed: its first
        token is required and wordy, and the line's words are those of ``_WORD_RUN``)."""
        toks = [_token_info(t) for t in phrase.split(" ")]
        gate = set()
        for i in range(1, len(toks)):
            tok, optional, alts, wordy, ends_punct = toks[i]
            if optional or tok == "_":
                continue
            prev, prev_optional, _prev_alts, prev_wordy, prev_ends_punct = toks[i - 1]
            tid = self.token_ids.get(tok)
            if tok != "#" and not wordy:
                # punctuation: one of its literals is somewhere in the line
                if tid is None:
                    tid = self.token_ids[tok] = len(self.token_ids)
                    self.char_tokens.append((tid, tuple(a[:-1] if a.endswith("*") and len(a) > 1 else a
                                                        for a in alts)))
                gate.add(tid)
                continue
            if tok == "#":
                if tid is None:
                    tid = self.token_ids[tok] = len(self.token_ids)
                gate.add(tid)
                continue
            # A word token starts a \w run of the line when a space must precede it, or when the token before
            # it always ends in punctuation; then that run starts with the leading word characters of one of
            # its alternatives.
            if not ((prev_wordy and wordy) or (not prev_optional and prev_ends_punct)):
                continue
            if tid is None:
                tid = self.token_ids[tok] = len(self.token_ids)
                for alt in alts:
                    lead = _WORD_RUN.match(alt[:-1] if alt.endswith("*") and len(alt) > 1 else alt)
                    self.word_tokens.setdefault(lead.group(), set()).add(tid)
            gate.add(tid)
        return frozenset(gate)

    @staticmethod
    def _group(patterns: list, anchored: bool) -> list:
        """Unindexed patterns grouped by the first requirement of their trigger, so that a line tests each
        requirement once: ``[(requirement or None, [(category, entry, pattern, other requirements, anchored)])]``."""
        groups: dict = {}
        for ci, idx, pat in patterns:
            need = pat.trigger[0] if pat.trigger else None
            rest = pat.trigger[1:] if pat.trigger and len(pat.trigger) > 1 else None
            groups.setdefault(need, []).append((ci, idx, pat, rest, anchored))
        return list(groups.items())

    @staticmethod
    def _index(ci: int, idx: int, pat: Pattern, keys, exact_table: dict, stem_table: dict) -> None:
        exact, stems = keys
        for w in exact:
            exact_table.setdefault(w, []).append((ci, idx, pat))
        for st in stems:
            # a stem is found by its leading word characters ("health-check" by "health")
            key = _WORD_RUN.match(st).group()
            stem_table.setdefault(key, []).append((ci, idx, pat))

    def candidates(self, word: str, anchored: bool = False) -> tuple:
        """Every indexed phrase whose first token can match ``word`` (a whole \\w run of the line), sorted by
        (category, entry): the first one of a category that matches is its best."""
        exact_table, stem_table, lengths = ((self.anchored_exact, self.anchored_stems, self.anchored_stem_lengths)
                                            if anchored else (self.exact, self.stems, self.stem_lengths))
        found = list(exact_table.get(word, ()))
        for n in lengths:
            if n > len(word):
                break
            more = stem_table.get(word[:n])
            if more:
                found += more
        # one phrase can be keyed by several alternatives of its first token
        unique = {(c[0], c[1]): c for c in found}
        return tuple(unique[k] for k in sorted(unique))

    def word_token_ids(self, word: str) -> frozenset[int]:
        """Ids of the gate tokens a line word satisfies (it starts with one of their alternatives)."""
        out: set[int] = set()
        for n in self.word_token_lengths:
            if n > len(word):
                break
            more = self.word_tokens.get(word[:n])
            if more:
                out |= more
        return frozenset(out)


class _Triggers:
    """The triggers of the unindexed patterns as ids a line collects, next to the gate tokens (derived from the
    tables when they are loaded; not part of the shipped JSON).

    Each distinct requirement of a trigger ("digit", or a tuple of literals of which one must be in the line) gets
    an id above the gate token ids. A line holds a requirement when one of its literals is a substring of it, and
    that is found without a substring search per literal and line:

    - a one-character literal is in the set of the line's characters (``char_ids``);
    - a literal of word characters only lies inside one ``\\w`` run of the line, so it is looked for in the line's
      words, once per word (``word_ids``, kept in the per-word memo of ``scan``);
    - any other literal ("no content", "req/min") is looked for in the line only when its longest run of word
      characters was found in a word (``split``), or on every line when it has none (``bare``, e.g. " /").

    A pattern is tried when the ids of all its requirements are among the line's (``groups``), which is exactly
    when ``_may_match`` holds for its trigger.
    """

    __slots__ = ("char_ids", "digit_ids", "word_literals", "word_first_chars", "split", "bare", "groups", "always",
                 "by_id", "group_ids", "byte_ids", "other_bytes", "_char_finder")

    def __init__(self, tables: _Tables) -> None:
        ids: dict = {}
        next_id = [max(tables.token_ids.values(), default=-1) + 1]
        char_ids: dict[str, set[int]] = {ch: {tid} for ch, tid in tables.char_token_tids.items()}
        digit_ids: set[int] = set()
        if "#" in tables.token_ids:
            digit_ids.add(tables.token_ids["#"])
        word_literals: dict[str, list[tuple[str, int]]] = {}
        split: list[tuple[str, int, int]] = []
        bare: list[tuple[str, int]] = []

        def new_id() -> int:
            next_id[0] += 1
            return next_id[0] - 1

        def literal_id(lit: str, rid: int) -> None:
            """Make a line holding ``lit`` collect ``rid``."""
            if len(lit) == 1:
                char_ids.setdefault(lit, set()).add(rid)
            elif lit.replace("_", "a").isalnum():  # all word characters, as _WORD_RUN.fullmatch(lit)
                word_literals.setdefault(lit[0], []).append((lit, rid))
            else:
                runs = _WORD_RUN.findall(lit)
                if not runs:
                    bare.append((lit, rid))
                    return
                run = max(runs, key=len)
                seg = ids.get(("run", run))
                if seg is None:
                    seg = ids[("run", run)] = new_id()
                    literal_id(run, seg)
                split.append((lit, seg, rid))

        def need_id(need) -> int:
            rid = ids.get(need)
            if rid is None:
                rid = ids[need] = new_id()
                if need == "digit":
                    digit_ids.add(rid)
                else:
                    for lit in need:
                        literal_id(lit, rid)
            return rid

        groups: list[tuple[int | None, list]] = []
        for need, members in _unique_groups(tables):
            groups.append((None if need is None else need_id(need),
                           [(ci, idx, pat, frozenset(map(need_id, rest or ())), at_start)
                            for ci, idx, pat, rest, at_start in members]))
        self.groups = groups
        #: the groups tried on every line, and the others by the id of their first requirement
        self.always = tuple(member for rid, members in groups if rid is None for member in members)
        by_id: dict[int, tuple] = {}
        for rid, members in groups:
            if rid is not None:  # a requirement heads a group of loose and one of ``^`` patterns: one entry
                by_id[rid] = by_id.get(rid, ()) + tuple(members)
        self.by_id = by_id
        self.group_ids = frozenset(self.by_id)
        self.char_ids = {ch: frozenset(v) for ch, v in char_ids.items()}
        #: the ASCII ones by byte, and every other byte (deleted from an ASCII line to leave the ones it holds)
        self.byte_ids = {ord(ch): ids for ch, ids in self.char_ids.items() if ch.isascii()}
        self.other_bytes = bytes(range(256)).translate(None, bytes(self.byte_ids))
        self._char_finder = None
        self.digit_ids = frozenset(digit_ids)
        self.word_literals = {ch: tuple(v) for ch, v in word_literals.items()}
        self.word_first_chars = frozenset(word_literals)
        self.split = tuple(split)
        self.bare = tuple(bare)

    def add_line_ids(self, folded: str, raw: bytes | None, has_digit: bool, have: set[int]) -> None:
        """Add the ids that ``folded`` satisfies beyond those of its words to ``have`` (which holds its words');
        ``raw`` is the line as bytes when it is ASCII, else None."""
        if raw is not None:
            # the line's bytes that are one-character literals (or gate tokens), each once
            byte_ids = self.byte_ids
            for code in set(raw.translate(None, self.other_bytes)):
                have |= byte_ids[code]
        else:
            char_ids = self.char_ids
            for ch in set(self.char_finder().findall(folded)):
                have |= char_ids[ch]
        if has_digit:
            have |= self.digit_ids
        for lit, run, rid in self.split:
            if run in have and rid not in have and lit in folded:
                have.add(rid)
        for lit, rid in self.bare:
            if rid not in have and lit in folded:
                have.add(rid)

    def char_finder(self):
        """One character class of the ``char_ids`` characters (compiled when a non-ASCII line first needs it)."""
        if self._char_finder is None:
            self._char_finder = re.compile("[" + "".join(f"\\U{ord(ch):08x}" for ch in sorted(self.char_ids)) + "]")
        return self._char_finder

    def word_ids(self, word: str) -> frozenset[int]:
        """Ids of the requirements (and literal runs) that a literal inside ``word`` satisfies."""
        out = set()
        for ch in self.word_first_chars.intersection(word):
            for lit, rid in self.word_literals[ch]:
                if lit in word:
                    out.add(rid)
        return frozenset(out)


def _unique_groups(tables: _Tables) -> list:
    """``tables.groups`` and the groups of ``tables.char_groups`` (a group under several characters once), in an
    order that does not depend on how the tables were made (built or loaded): the ids ``_Triggers`` hands out
    follow it, and the per-word memo outlives a change of tables."""
    out = list(tables.groups)
    seen = {id(members) for _need, members in out}
    more = []
    for members_list in tables.char_groups.values():
        for members in members_list:
            if id(members) not in seen:
                seen.add(id(members))
                _ci, _idx, pat, _rest, _at_start = members[0]
                more.append((pat.trigger[0], members))
    more.sort(key=lambda group: [(ci, idx) for ci, idx, *_ in group[1]])
    return out + more


#: The tables as built from the phrase tables, shipped as JSON beside the other data (``python -m tiers.lexicon
#: --build`` writes it; a test fails when it is stale). Building them takes ~10 ms of string work per process,
#: reading them back well under one; a digest of the phrase tables guards against a stale file at run time.
BUILT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lexicon.built.json")
#: Bump when the way tables are built changes (the digest covers the phrases, not the code).
_BUILD_VERSION = 1


def _phrases_digest() -> str:
    import json

    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - a Python built without it still has hashlib's
        from hashlib import blake2b

    data = json.dumps([_BUILD_VERSION, _TABLES], ensure_ascii=False, sort_keys=True).encode("utf-8")
    return blake2b(data, digest_size=12).hexdigest()


def _needs_state(needs):
    return None if needs is None else [n if isinstance(n, str) else list(n) for n in needs]


def _needs_from(state):
    return None if state is None else tuple(n if isinstance(n, str) else tuple(n) for n in state)


def tables_state(tables: _Tables) -> dict:
    """``tables`` as JSON-ready values: patterns once each (by number), shared group lists once each.

    Canonical, so that two builds compare equal in any process: the index tables are filled from sets (their key
    order and the order of a key's phrases follow string hashing, which changes per process; lookups sort their
    candidates), so keys and their lists are written sorted, and patterns are numbered by (category, entry)."""
    index = ("exact", "stems", "anchored_exact", "anchored_stems")
    found: dict[int, tuple] = {}
    for name in index:
        for seq in getattr(tables, name).values():
            for ci, idx, pat in seq:
                found[id(pat)] = (ci, idx, pat)
    for ci, idx, pat in (*tables.loose, *tables.anchored_loose):
        found[id(pat)] = (ci, idx, pat)
    ordered = sorted(found.values(), key=lambda t: (t[0], t[1], t[2].phrase))
    pids = {id(pat): k for k, (_ci, _idx, pat) in enumerate(ordered)}
    patterns = [[pat.phrase, _needs_state(pat.trigger), sorted(pat.gate)] for _ci, _idx, pat in ordered]

    def pid(pat: Pattern) -> int:
        return pids[id(pat)]

    def items(seq) -> list:
        return [[ci, idx, pid(pat)] for ci, idx, pat in seq]

    mids: dict[int, int] = {}
    members: list = []

    def mid(group: list) -> int:
        k = mids.get(id(group))
        if k is None:
            k = mids[id(group)] = len(members)
            members.append([[ci, idx, pid(pat), _needs_state(rest), at_start] for ci, idx, pat, rest, at_start in group])
        return k

    state = {
        "entries": [[list(e) for e in entries] for entries in tables.entries],
        **{name: {k: sorted(items(v)) for k, v in sorted(getattr(tables, name).items())} for name in index},
        "loose": items(tables.loose),
        "anchored_loose": items(tables.anchored_loose),
        "token_ids": dict(sorted(tables.token_ids.items())),
        "word_tokens": {k: sorted(v) for k, v in sorted(tables.word_tokens.items())},
        "char_tokens": [[tid, list(lits)] for tid, lits in tables.char_tokens],
        "groups": [[need if need is None or isinstance(need, str) else list(need), mid(group)]
                   for need, group in tables.groups],
        "char_groups": {ch: [mid(group) for group in groups] for ch, groups in sorted(tables.char_groups.items())},
        "char_token_tids": dict(sorted(tables.char_token_tids.items())),
        "first_chars": sorted(tables.first_chars),
        "stem_lengths": tables.stem_lengths,
        "anchored_stem_lengths": tables.anchored_stem_lengths,
        "word_token_lengths": tables.word_token_lengths,
    }
    state["patterns"] = patterns
    state["members"] = members
    return state


def tables_from_state(state: dict) -> _Tables:
    """The inverse of ``tables_state`` (fresh patterns: nothing compiled or counted yet)."""
    patterns = []
    for phrase, trigger, gate in state["patterns"]:
        pat = Pattern(phrase, _needs_from(trigger))
        pat.gate = frozenset(gate)
        patterns.append(pat)

    def items(seq) -> list:
        return [(ci, idx, patterns[k]) for ci, idx, k in seq]

    members = [[(ci, idx, patterns[k], _needs_from(rest), at_start) for ci, idx, k, rest, at_start in group]
               for group in state["members"]]
    t = _Tables.__new__(_Tables)
    t.entries = [tuple(tuple(e) for e in entries) for entries in state["entries"]]
    for name in ("exact", "stems", "anchored_exact", "anchored_stems"):
        setattr(t, name, {k: items(v) for k, v in state[name].items()})
    t.loose = items(state["loose"])
    t.anchored_loose = items(state["anchored_loose"])
    t.token_ids = state["token_ids"]
    t.word_tokens = {k: set(v) for k, v in state["word_tokens"].items()}
    t.char_tokens = [(tid, tuple(lits)) for tid, lits in state["char_tokens"]]
    t.groups = [(need if need is None or isinstance(need, str) else tuple(need), members[k])
                for need, k in state["groups"]]
    t.char_groups = {ch: [members[k] for k in ks] for ch, ks in state["char_groups"].items()}
    t.char_token_tids = state["char_token_tids"]
    t.first_chars = frozenset(state["first_chars"])
    t.stem_lengths = state["stem_lengths"]
    t.anchored_stem_lengths = state["anchored_stem_lengths"]
    t.word_token_lengths = state["word_token_lengths"]
    t.triggers = _Triggers(t)
    return t


def _load_built() -> _Tables | None:
    """The shipped tables, or None when the file is absent, unreadable or built from other phrases."""
    import json

    try:
        with open(BUILT, "rb") as fh:
            built = json.loads(fh.read())
        if not isinstance(built, dict) or built.get("digest") != _phrases_digest():
            return None
        return tables_from_state(built["tables"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def write_built(path: str | None = None) -> str:
    """Build the tables from the phrase tables and write them (``python -m tiers.lexicon --build``)."""
    import json

    out = path or BUILT
    data = json.dumps({"digest": _phrases_digest(), "tables": tables_state(_Tables())}, ensure_ascii=False,
                      separators=(",", ":"))
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(data + "\n")
    return out


_BUILT: _Tables | None = None
#: word -> (indexed phrases it can start, ids of the gate tokens and trigger requirements it satisfies); words repeat
#: across lines (bounded).
_MEMO: dict[str, tuple[tuple, frozenset[int]]] = {}
_ANCHORED_MEMO: dict[str, tuple] = {}
#: words that start no phrase and satisfy no gate (bounded)
_BORING: set[str] = set()


def _first(item: tuple):
    return item[0]


def _tables() -> _Tables:
    global _BUILT
    if _BUILT is None:
        _BUILT = _load_built() or _Tables()
    return _BUILT


Hit = tuple[int, int, str, str, float]


def scan(folded: str, categories: tuple[str, ...] = CATEGORIES) -> dict[str, list[Hit]]:
    """Every category's matches in one pass over the words of ``folded`` (the hot path of classification).

    Returns ``{category: [(start, end, lang, phrase, weight), ...]}``; within a category matches never overlap.
    """
    tables = _tables()
    triggers = tables.triggers
    exact = needs_regex(folded)
    memo = _MEMO
    raw = folded.encode("ascii") if folded.isascii() else None
    words = _other_words(folded) if raw is None else _ascii_words(raw)
    # Most words of a line start no phrase, satisfy no gate and hold no trigger literal; they are known after
    # their first line.
    starts = []
    have: set[int] = set()
    for word in set(words).difference(_BORING):
        rec = memo.get(word)
        if rec is None:
            rec = _word_record(tables, word)
            if rec is None:
                if len(_BORING) < 200000:
                    _BORING.add(word)
                continue
            if len(memo) < 50000:
                memo[word] = rec
        cands, ids = rec
        if ids:
            have |= ids
        if cands:
            # where the word stands as a whole \w run of the line (the runs ``_WORD_RUN`` finds)
            n = len(folded)
            size = len(word)
            i = folded.find(word)
            while i >= 0:
                j = i + size
                if (i == 0 or not (folded[i - 1].isalnum() or folded[i - 1] == "_")) and (
                        j == n or not (folded[j].isalnum() or folded[j] == "_")):
                    starts.append((i, cands))
                i = folded.find(word, j)
    first_digit = _first_digit(folded, raw)
    has_digit = first_digit >= 0
    if not has_digit:
        first_digit = 0
    found: list[list[tuple[int, int, int]]] = [[], [], [], [], [], [], []]  # one per category
    triggers.add_line_ids(folded, raw, has_digit, have)
    if starts:
        starts.sort(key=_first)
        last_end = [-1] * len(CATEGORIES)
        for pos, cands in starts:
            # sorted by (category, entry): the first match of a category at a word is its best there
            for ci, idx, pat in cands:
                if pos < last_end[ci] or not (exact or pat.gate <= have):
                    continue
                std = pat._std
                if std is not None and not exact:  # ``match_end`` of a compiled pattern, without two calls
                    m = std.match(folded, pos)
                    end = m.end() if m is not None else None
                else:
                    end = pat.match_end(folded, pos, exact)
                if end is not None:
                    found[ci].append((pos, end, idx))
                    last_end[ci] = end
    anchored = None
    if triggers.always:
        anchored = _loose_hits(triggers.always, folded, exact, have, first_digit, found, anchored)
    by_id = triggers.by_id
    for rid in triggers.group_ids.intersection(have):
        anchored = _loose_hits(by_id[rid], folded, exact, have, first_digit, found, anchored)
    _anchored_hits(tables, folded, exact, words[0] if words and folded.startswith(words[0]) else None, anchored,
                   found)
    if categories is CATEGORIES:
        for ci, hits in enumerate(found):
            if hits:
                found[ci] = _resolve(hits, tables.entries[ci])
        return dict(zip(CATEGORIES, found))
    return {name: _resolve(found[_CATEGORY_INDEX[name]], tables.entries[_CATEGORY_INDEX[name]])
            for name in categories}


def _resolve(hits: list[tuple[int, int, int]], entries: tuple) -> list[Hit]:
    """A category's (start, end, entry) matches as hits, left to right, each dropped that overlaps the one before."""
    hits.sort()
    res: list[Hit] = []
    end = -1
    for st, en, idx in hits:
        if st < end:
            continue
        end = max(en, st + 1)
        lang, phrase, weight = entries[idx]
        res.append((st, en, lang, phrase, weight))
    return res


def _loose_hits(members: tuple, folded: str, exact: bool, have: set[int], first_digit: int, found: list,
                anchored: list | None) -> list | None:
    """Run the unindexed ``members`` of one trigger group whose other requirements the line holds: their matches
    go to ``found``; ``^`` patterns are returned in ``anchored`` (made when first needed) for ``_anchored_hits``."""
    for ci, idx, pat, rest, at_start in members:
        if rest and not rest <= have:
            continue
        std = pat._std
        if std is not None and not exact and not at_start:
            # one search first: most lines that hold a trigger still have no match, and a search costs less than
            # an iterator; the matches from its start on are those from the line's start on
            m = std.search(folded, first_digit if pat.digit_first else 0)
            if m is not None:
                for m in std.finditer(folded, m.start()):
                    found[ci].append((m.start(), m.end(), idx))
            continue
        if at_start:
            if anchored is None:
                anchored = []
            anchored.append((ci, idx, pat))
            continue
        for st, en in pat.finditer(folded, exact):
            found[ci].append((st, en, idx))
    return anchored


def _word_record(tables: _Tables, word: str) -> tuple[tuple, frozenset[int]] | None:
    """(indexed phrases ``word`` can start, ids of the gate tokens and trigger requirements it satisfies), or None
    for a word that does neither."""
    if word[0] in tables.first_chars:
        cands = tables.candidates(word)
        ids = tables.word_token_ids(word) | tables.triggers.word_ids(word)
    else:
        cands = ()
        ids = tables.triggers.word_ids(word)
    if not cands and not ids:
        return None
    return cands, ids


def _anchored_hits(tables: _Tables, folded: str, exact: bool, word: str | None, loose: list | None,
                   found: list) -> None:
    """Per category, the ``^`` phrase of the lowest entry that starts the line (as one alternation of them all
    would find it), added to ``found``; ``word`` is the ``\\w`` run that starts the line (None when it starts
    otherwise), ``loose`` are the unindexed ``^`` patterns whose trigger holds."""
    if exact:
        # ``regex`` may end the first word elsewhere than ``re`` does: try every ^ phrase, as one alternation would
        tries = sorted(tables.anchored_loose + [c for cs in tables.anchored_exact.values() for c in cs]
                       + [c for cs in tables.anchored_stems.values() for c in cs], key=lambda c: (c[0], c[1]))
        tries = list({(c[0], c[1]): c for c in tries}.values())
        word = None
    else:
        tries = loose or []
    if word is not None:
        cands = _ANCHORED_MEMO.get(word)
        if cands is None:
            cands = tables.candidates(word, anchored=True)
            if len(_ANCHORED_MEMO) < 50000:
                _ANCHORED_MEMO[word] = cands
        if cands:
            tries = tries + list(cands)
    if not tries:
        return
    tries.sort(key=lambda c: (c[0], c[1]))
    done = -1
    for ci, idx, pat in tries:
        if ci == done:
            continue
        end = pat.match_end(folded, 0, exact)
        if end is not None:
            found[ci].append((0, end, idx))
            done = ci


def _word_chars(text: str) -> bool:
    """``\\w*`` matches all of ``text`` (``regex`` semantics)."""
    if not text:
        return True
    if needs_regex(text):
        import regex

        return regex.fullmatch(r"\w*", text) is not None
    return text.replace("_", "a").isalnum()


@functools.cache
def _word_set_parts(words: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    return frozenset(w for w in words if not w.endswith("*")), tuple(w[:-1] for w in words if w.endswith("*"))


def _in_word_set(words: tuple[str, ...], token: str) -> bool:
    exact, stems = _word_set_parts(words)
    if token in exact:
        return True
    if not token.startswith(stems):
        return False
    for w in words:
        if w.endswith("*"):
            if token.startswith(w[:-1]) and _word_chars(token[len(w) - 1:]):
                return True
        elif token == w:
            return True
    return False


def is_schedule_head(token: str) -> bool:
    """``token`` (a folded word) names a schedule: a weekday, weekends, mornings (``SCHEDULE_HEADS``)."""
    return _in_word_set(SCHEDULE_HEADS, token)


def is_time_head(token: str) -> bool:
    """``token`` (a folded word) names a time: a month, a quarter, a week (``TIME_HEADS``)."""
    return _in_word_set(TIME_HEADS, token)


if __name__ == "__main__":  # pragma: no cover - `python -m tiers.lexicon --build`
    import sys

    if sys.argv[1:] != ["--build"]:
        sys.exit("usage: python -m tiers.lexicon --build")
    print(write_built())
