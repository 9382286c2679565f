"""Modality: a rule restated with its force weakened ("always X" as "usually X") or with an exception the user
never gave ("X, except for hotfixes"). docs/arbitration.md, *Modality and exceptions*, states the rule."""

from __future__ import annotations

import functools
import math
import re

from ..concepts import Analysis, Clause, analyze, lexicon
from ..lazy import LazyRe
from .compare import _core
from .phrasing import prescribes
from .values import LIGHT

#: Share of a rule clause's core (its acts, objects, values, unknown words) a line must name to restate the rule.
RESTATE_MIN = 0.6

#: a frequency or condition that makes a rule hold only some of the time or at the agent's discretion: "usually",
#: "when convenient", "if time allows", «обычно», «по возможности», «когда удобно»; not «как обычно» ("as usual"),
#: which says the act happens every time, as the rule asks
_WEAKENED = LazyRe(
    r"\b(?:usually|normally|generally|typically|mostly|often|sometimes|occasionally|now and then|from time to time|"
    r"rarely|seldom|ideally|preferably|"
    r"(?:when|whenever|where|if)\s+(?:it'?s\s+|it\s+is\s+)?(?:convenient|possible|practical|feasible|we\s+can|"
    r"there'?s\s+time|time\s+(?:allows|permits))|as\s+(?:needed|time\s+allows)|best[- ]effort|"
    r"when\s+(?:we|you|I)\s+(?:remember|feel\s+like\s+it|get\s+(?:a|the)\s+chance)|in\s+most\s+cases|more\s+often\s+than\s+not|"
    r"nice[- ]to[- ]have|if\s+need\s+be|as\s+(?:appropriate|necessary)|(?:if|when|whenever|where)\s+it\s+makes\s+sense|"
    r"(?:when|if|where)\s+(?:it'?s\s+|(?:the|it|this|that)\s+)?(?:[a-z]+\s+)?(?:is\s+|are\s+|seems\s+|looks\s+|'s\s+)?"
    r"(?:relevant|important|needed|necessary|appropriate|useful|warranted|justified|worth\s+it))\b|"
    r"(?<![\w-])(?:(?<!как\s)обычно|как\s+правило|в\s+основном|чаще\s+всего|иногда|изредка|редко|время\s+от\s+времени|"
    r"по\s+возможности|при\s+возможности|если\s+(?:получится|будет\s+время|есть\s+время|успеваем|успеем|удобно)|"
    r"когда\s+(?:удобно|получается|есть\s+время|будет\s+время|вспомним)|желательно|в\s+большинстве\s+случаев|"
    r"по\s+ситуации|по\s+настроению|при\s+необходимости|по\s+необходимости|"
    r"(?:если|когда)\s+(?:\w+\s+)?(?:важн\w*|нужн\w*|надо|необходим\w*|уместн\w*|актуальн\w*|имеет\s+смысл))(?![\w-])",
    re.I)

#: an exception named in the line: "except (for)", "other than", "apart from", "exempt from", «кроме», «за
#: исключением», «не касается»; "no exceptions" / «без исключений» reinforces a rule instead
_EXCEPT = LazyRe(
    r"\b(?:except(?:\s+for)?|excepting|other\s+than|apart\s+from|aside\s+from|save\s+for|excluding|"
    r"with\s+the\s+exception\s+of|exempt(?:ed)?\s+from|an?\s+exception\s+(?:is|for|are)|unless|"
    r"(?:but|though|although)\s+not\s+(?:for|on|in|when|with|during))\b|"
    r"(?<![\w-])(?:кроме|за\s+исключением|исключение\s+(?:—|-|:|для|составля\w+)|освобожд[её]н\w*\s+от|"
    r"не\s+считая|если\s+только\s+не|разве\s+что|(?:но|хотя|только)\s+не\s+(?:для|в|на|при|по))(?![\w-])", re.I)
_NO_EXCEPTION = LazyRe(r"\b(?:no|without)\s+exceptions?\b|(?<![\w-])без\s+исключени\w*", re.I)


def _ruling(kc: Clause, text: str) -> bool:
    """A clause that rules over every case: an obligation, a prohibition, or a plain statement over all cases
    ("type hints on all new functions") or in the mood of a rule."""
    return kc.force in {"prohibit", "oblige"} or (kc.force == "assert" and (
        "UNIVERSAL" in kc.markers or prescribes(text)))


def _restated(c: Analysis, kc: Clause, sign: int) -> bool:
    """The line names at least RESTATE_MIN of the rule clause's core with the rule's own sign (outside the
    line's own exception clauses): the same rule, not a reversal (which the polarity rules judge)."""
    core = _core(kc, sign)
    total = math.fsum(core.values())
    if total <= 0 or not any(lexicon().kind.get(x) == "action" for x in core) and len(core) < 2:
        return False
    acts = [x for x in core if lexicon().kind.get(x) == "action"]
    if acts and not any(cc.signs.get(x) for x in acts for cc in c.clauses if not cc.exception):
        return False  # the line names the rule's things but not its act: its frequency is of something else
    got = 0.0
    opposed = 0.0
    for x, w in core.items():
        signs = [cc.signs[x] for cc in c.clauses if not cc.exception and cc.signs.get(x)]
        if not signs:
            continue
        if any(s * sign > 0 for s in signs):
            got += w
        else:
            opposed += w
    return got / total >= RESTATE_MIN and opposed < got


def _own_exception(c_text: str, k: Analysis) -> bool:
    """Every exception the line names is a case the rule names itself ("except staging" beside "on staging Redis,
    Memcached everywhere else"): the line restates the rule's own split, it invents no exception."""
    lx = lexicon()
    for m in _EXCEPT.finditer(c_text):
        if m.group(0).casefold().startswith(("exempt", "освобожд")):
            return False  # "X is exempt from the rule": what follows is the rule, the case is before it
        tail = re.split(r"[,;.!?]", c_text[m.end():], maxsplit=1)[0]
        named = {x for cl in analyze(tail).clauses for x in cl.direct if lx.kind.get(x) not in {"generic", "slot"}}
        if not named or not named <= k.concepts:
            return False
    return True


_SENTENCE = re.compile(r"(?<=[;.!?])\s+")


def _where(c: Analysis, found: bool, rx: LazyRe) -> list[Analysis]:
    """The sentences of the line that hold the qualifier, each as an analysis (the line itself when it is one
    sentence): a qualifier qualifies the rule of its own sentence ("flaky tests are retried when needed; the suite
    still runs before every merge" weakens no rule). A sentence that names no act of its own but light ones
    ("Not always, though.", "Though not for typo fixes.") qualifies the sentence before it."""
    if not found:
        return []
    parts = [p for p in _SENTENCE.split(c.text) if p.strip()]
    if len(parts) <= 1:
        return [c]
    kind = lexicon().kind
    out = []
    for i, p in enumerate(parts):
        if not rx.search(p):
            continue
        a = analyze(p)
        if i and not any(kind.get(x) == "action" and x not in LIGHT for cl in a.clauses for x in cl.direct):
            a = analyze(parts[i - 1] + " " + p)
        out.append(a)
    return out


@functools.lru_cache(maxsize=8192)
def _qualifiers(text: str) -> tuple[bool, bool]:
    """(weakened, excepted): whether the text holds a weakening qualifier, and an exception ("no exceptions"
    aside). Memo: asked of one candidate for each constraint it meets, and of each constraint for many lines."""
    return (_WEAKENED.search(text) is not None,
            _EXCEPT.search(text) is not None and _NO_EXCEPTION.search(text) is None)


def qualified(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """(what, detail) when ``c`` restates an unconditional rule of ``k`` and either weakens its force to a
    frequency or the agent's discretion, or carves out an exception ``k`` does not have, in the same sentence;
    None otherwise."""
    weak, excepts = _qualifiers(c.text)
    if not (weak or excepts):
        return None
    k_weak, k_excepts = _qualifiers(k.text)
    if weak and k_weak:
        weak = False  # the rule itself holds "usually": saying so again restates it
    if excepts and (k_excepts or any(kc.exception for kc in k.clauses) or _own_exception(c.text, k)):
        excepts = False  # the rule has exceptions of its own, or the line's is the rule's own case
    if not (weak or excepts):
        return None
    rules = [(kc, -1 if kc.force == "prohibit" else 1) for kc in k.clauses
             if not kc.exception and _ruling(kc, k.text)]
    if not rules:
        return None
    for what, sentences in (("excepts", _where(c, excepts, _EXCEPT)), ("weakens", _where(c, weak, _WEAKENED))):
        for a in sentences:
            if any(_restated(a, kc, sign) for kc, sign in rules):
                if what == "excepts":
                    return what, "it makes an exception the user never gave"
                return what, "it makes a rule the user gave without conditions hold only sometimes"
    return None
