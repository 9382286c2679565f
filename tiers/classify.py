"""Marker-based EN/RU classification of one memory line into a tier, with confidence, DECISION scope and reasons.

The rules are DESIGN.md §4 made precise (every phrase lives in ``tiers.lexicon``):

1. a hedge anywhere in the agent's voice -> HYPOTHESIS (a hedge outweighs every marker: "User maybe said…");
2. an agreement marker ("Decided with the user:") -> DECISION, with the scope phrase cut out of the line;
3. a user speech marker or an attributed quote -> DIRECTIVE (DECISION when the user's words carry a restrictive
   "only for …" scope; a deadline alone keeps it a DIRECTIVE);
4. environment evidence (command output, logs, API responses, CI, calendar, inbox) adding up to 0.8 -> OBSERVATION,
   unless the line is an imperative;
5. everything else, unattributed imperatives included -> HYPOTHESIS.

This module must stay light: it never imports markdown-it (the hook imports it on every write).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from . import lexicon as lx
from .model import Classification, Tier
from .text import fold
from .line import Line, prepare
from .lazy import LazyRe

__all__ = ["classify", "find_scope"]

ENV_THRESHOLD = 0.8


def classify(line: str | Line) -> Classification:
    """Classify one memory line, given as text or prepared (a trailing stamp and the line's Markdown markup are
    ignored). Never raises."""
    try:
        if not isinstance(line, Line):
            line = prepare("" if line is None else str(line))
        return _classify_cached(line)
    except Exception as exc:  # noqa: BLE001 - classification must never take the gate down
        import logging  # only on this path: logging costs milliseconds at import on the hook path
        import traceback

        text = line.text if isinstance(line, Line) else str(line)
        where = "".join(traceback.format_tb(exc.__traceback__, limit=-3)).rstrip()  # code locations, no data
        logging.getLogger(__name__).error("classify failed (%s) on a line of %d chars: %s\n%s", type(exc).__name__,
                                          len(text), _log_excerpt(text), where)
        return Classification(Tier.HYPOTHESIS, 0.0, None, (f"could not classify ({type(exc).__name__}); "
                                                             "kept as HYPOTHESIS",))


#: how much of a line a log record may show (after masking): enough to find it in the file, never the whole line
LOG_EXCERPT = 60


def _log_excerpt(text: str) -> str:
    """The start of ``text`` for a log record: secret-masked (the one masker, ``tiers.secrets.mask_secrets``, on
    the whole line, so a secret that crosses the cut is masked whole) and cut to LOG_EXCERPT characters; a line
    too large to mask cheaply, or one the masker fails on, is not shown."""
    if len(text) > 1024 * 1024:
        return "(not shown)"
    try:
        from .secrets import mask_secrets

        shown = mask_secrets(text)
    except Exception:  # noqa: BLE001 - a line the masker cannot read is not shown at all
        return "(not shown)"
    shown = " ".join(shown.split())
    return repr(shown if len(shown) <= LOG_EXCERPT else shown[: LOG_EXCERPT - 1] + "…")


@functools.lru_cache(maxsize=32768)
def _classify_cached(line: Line) -> Classification:
    # Classification is a pure function of the line and Classification is immutable: lint, arbitration and the
    # write path classify the same lines again and again (a lint classifies each line for the constraint index,
    # CU106 and CU201: the memo holds a large workspace's lines, ~10 MB at most).
    seeded = _SEEDED.pop(line.text, None) if _SEEDED else None
    return seeded if seeded is not None else _classify(line)


#: Classifications made by other processes of this same code (see seed_classifications), taken on first use.
_SEEDED: dict[str, Classification] = {}


def seed_classifications(pairs) -> None:
    """Hand over (text, Classification) pairs that ``classify(text)`` computed in another process running this
    same code (a parallel lint classifies a workspace's lines in several processes): the first classify() of such
    a text here takes the given result instead of classifying again (a text already in the memo keeps its own, equal one).
    A hand-over replaces the previous one: ``seed_classifications(())`` drops what was not taken."""
    _SEEDED.clear()
    for text, cls in pairs:
        if isinstance(text, str) and isinstance(cls, Classification):
            _SEEDED[text] = cls


def _q(s: str) -> str:
    s = " ".join(s.split())
    return f"'{s}'"


def _classify(line: Line) -> Classification:
    text, body, nfc, f = line.text, line.body, line.nfc, line.folded
    if not f.strip():
        return Classification(Tier.HYPOTHESIS, 0.3, None, ("empty line: nothing to attribute",))

    hits = lx.scan(f)
    user = next(iter(hits["user"]), None)
    decision = next(iter(hits["decision"]), None)

    hedges = []
    for h in hits["hedge"]:
        # Inside a user's quoted words a hedge is the user's; only the agent's own voice demotes the line.
        if user and not decision and h.start >= user.end:
            continue
        hedges.append(nfc[h.start:h.end].strip() or "?")
    if user and not decision:
        for h in hits["agent_hedge"]:
            if h.start >= user.end:
                hedges.append(nfc[h.start:h.end].strip())

    if hedges:
        reasons = [f"hedged: {', '.join(_q(h) for h in dict.fromkeys(hedges))}"]
        if decision or user:
            m = decision or user
            reasons.append(f"the hedge outweighs the marker {_q(nfc[m.start:m.end])}: an unconfirmed recollection "
                           "stays the agent's inference")
        else:
            env = _env_score(nfc, f, hits)
            if env[0] > 0:
                reasons.append("environment words inside an inference do not make it an observation")
        return Classification(Tier.HYPOTHESIS, 0.85, None, tuple(reasons))

    if decision:
        start = _payload_start(f, decision.end)
        scope = find_scope(nfc, f, start)
        reasons = [f"agreement marker {_q(nfc[decision.start:decision.end])}"]
        if scope:
            reasons.append(f"scope {_q(scope)}")
            return Classification(Tier.DECISION, 0.9, _orig_span(text, body, scope), tuple(reasons))
        reasons.append("no scope phrase found: the decision holds until the user changes it")
        return Classification(Tier.DECISION, 0.6, None, tuple(reasons))

    if user:
        reasons = [f"user marker {_q(nfc[user.start:user.end])}"]
        start = _payload_start(f, user.end)
        restrictive = _restrictive_scope(nfc, f, start)
        if restrictive and _instruction(f, start):
            reasons.append(f"an instruction in the user's words, restricted by {_q(restrictive)}: still the user's "
                           "directive (a restriction makes a choice, not a request, a DECISION)")
            return Classification(Tier.DIRECTIVE, 0.9, None, tuple(reasons))
        if restrictive:
            reasons.append(f"the user's words restrict the choice to {_q(restrictive)}")
            return Classification(Tier.DECISION, 0.75, _orig_span(text, body, restrictive), tuple(reasons))
        return Classification(Tier.DIRECTIVE, 0.95, None, tuple(reasons))

    score, cues = _env_score(nfc, f, hits)
    guess = next(iter(hits["env_hedge"]), None)
    if guess is not None and score > 0:
        return Classification(Tier.HYPOTHESIS, 0.8, None, (
            f"a possibility {_q(nfc[guess.start:guess.end])} about what the environment showed: the agent's "
            f"inference (environment cues {score:.1f}: {', '.join(cues)})",))
    imperative = next(iter(hits["imperative"]), None)
    if imperative is None and ENV_THRESHOLD <= score < ENV_THRESHOLD + 0.5:
        imperative = _clause_imperative(f)
    if score >= ENV_THRESHOLD and not (imperative and score < ENV_THRESHOLD + 0.5):
        conf = min(0.95, 0.55 + 0.3 * score)
        return Classification(Tier.OBSERVATION, conf, None,
                              (f"environment evidence {score:.1f}: {', '.join(cues)}",))
    reasons = []
    if imperative:
        reasons.append(f"imperative {_q(nfc[imperative.start:imperative.end])} with no user marker: the agent's "
                       "own rule")
    else:
        reasons.append("no user, agreement or environment marker: the agent's own inference")
    if score > 0:
        reasons.append(f"environment cues too weak ({score:.1f} < {ENV_THRESHOLD}): {', '.join(cues)}")
    return Classification(Tier.HYPOTHESIS, 0.6 if imperative else 0.5, None, tuple(reasons))


#: A source label before the line's first payload colon ("pytest:", "Статус CI:"; a colon between digits is a time).
_LABEL = re.compile(r"^((?:[^:\n]|(?<=\d):(?=\d)){1,48}?):(?!\d)")


#: A source in the line's topic position, and what it reported. The topic position is a short label before the
#: first colon ("pytest:", "Статус CI:", "Flight tracker:"), a place that opens the line ("In the spreadsheet",
#: «В договоре»), or the subject of a reporting verb ("The thermostat reports", «Умная колонка сообщила»). A label
#: or a place gives LABEL_WEIGHT and a number standing alone after it (a measured value) or a quoted literal (a
#: status or text the source displayed: «Готово», "Delivered") LABEL_NUMBER_WEIGHT more: a
#: label or place alone ("Test runner: vitest", «В тестах `any` допустим») is a configuration fact, not something
#: the environment reported. A subject gives SUBJECT_WEIGHT, and only with its reporting verb close after it.
LABEL_WEIGHT = 0.6
LABEL_NUMBER_WEIGHT = 0.2
SUBJECT_WEIGHT = 0.3
#: The subject is among the line's first words ("November bank statement lists"); its verb follows within a few
#: characters ("The PDF contract (page 3) states").
SUBJECT_WORDS = 4
SUBJECT_VERB_GAP = 24
#: An env cue of at least this weight is a reporting verb or a stronger phrase (tool names and units weigh less).
VERB_WEIGHT = 0.4
#: Patterns of the environment and instruction checks, compiled when a line first needs them (the hook classifies
#: one line per process, most often one with a marker, which never gets here).
_re = functools.cache(re.compile)
_DIGIT = r"(?<![\w\-./])\d"  # a number standing alone, not one inside a name ("stg-eu-1", "Q4")
#: A quoted literal, as the folded text writes every double quote: what a source displayed ("готово", "delivered").
_QUOTED = r'"[^"\n]{1,80}"'
#: A place opening the line, and up to two modifiers before its source noun ("in the lease PDF").
_LOCATIVE = r"(?:in|on|at|inside|в|во|на)\s+(?:the\s+|this\s+|our\s+|my\s+)?((?:[\w\-]+\s+){0,2})"
_WORD = r"\w[\w\-]*"
_FIRST_WORD = re.compile(r"[`\s]*([\w.\-/]+)")
#: A condition clause, to its comma: what it names is supposed, not reported ("if the deploy passed").
_CONDITION = r"(?<!\w)(?:if|unless|whenever|если|в случае)(?!\w)[^,;.!?]*"
_CLAUSE_BREAK = r"[,;.!?]\s"  # the verb of another clause has another subject


def _env_score(nfc: str, f: str, hits: dict) -> tuple[float, list[str]]:
    score = 0.0
    cues: list[str] = []
    sources = hits["env_source"]
    m = _LABEL.match(f)
    label = m.end(1) if m else None  # the label ends where its colon stands
    if label is not None and len(f[:label].split()) > 6:
        label = None  # a colon late in a sentence closes no label
    label_end = -1
    topic = -1  # where the label or place that names the source ends
    if label is not None and any(h.end <= label for h in sources):
        label_end = topic = label
        score += LABEL_WEIGHT
        cues.append(f"source label {_q(nfc[: label + 1])}")
    elif label is None and (sources or hits["env_subject"]):
        loc = _re(_LOCATIVE).match(f)
        src = next((h for h in sources if loc.start(1) <= h.start <= loc.end(1)), None) if loc else None
        if src is not None:
            topic = src.end
            score += LABEL_WEIGHT
            cues.append(f"read in {_q(nfc[src.start:src.end])}")
        elif (first := _FIRST_WORD.match(f)) and _re(_DIGIT).search(f, first.end()) and any(
                h.start == first.start(1) and h.end == first.end(1) for h in sources):
            score += SUBJECT_WEIGHT  # a tool or source, then a value: "HTTP 500 from /api", "pytest 3 failed"
            cues.append(f"starts with {_q(first.group(1))}")
        else:
            words = [w.end() for w, _ in zip(_re(_WORD).finditer(f), range(SUBJECT_WORDS))]
            for src in sorted(sources + hits["env_subject"], key=lambda h: h.start):
                if not words or src.end > words[-1]:
                    break
                verb = next((h for h in hits["env"] if h.weight >= VERB_WEIGHT
                             and src.end <= h.start <= src.end + SUBJECT_VERB_GAP
                             and not _re(_CLAUSE_BREAK).search(f, src.end, h.start)), None)
                if verb is not None:
                    score += SUBJECT_WEIGHT
                    cues.append(f"source {_q(nfc[src.start:src.end])} as the subject")
                    break
    if topic >= 0:
        if _re(_DIGIT).search(f, topic + 1):
            score += LABEL_NUMBER_WEIGHT
            cues.append("a measured value")
        elif _re(_QUOTED).search(f, topic + 1):
            score += LABEL_NUMBER_WEIGHT
            cues.append("a quoted value")
        elif label_end < 0:
            score -= LABEL_WEIGHT / 2  # a place with no value: only half a cue
    conditions = [m.span() for m in _re(_CONDITION).finditer(f)]
    for h in hits["env"]:
        if h.end <= label_end and h.weight <= 0.3:
            continue  # a source noun or tool inside the label is the label itself
        if any(a <= h.start < b for a, b in conditions):
            continue  # "…, if the deploy passed": a condition reports nothing
        score += h.weight
        cues.append(_q(nfc[h.start:h.end]))
    return round(score, 2), cues




def _clause_imperative(f: str):
    """An imperative opening the main clause after a leading place phrase: the agent's own rule about that place,
    not a report from it (the line-start imperatives are in ``hits``)."""
    loc = _re(_LOCATIVE).match(f)  # a leading place phrase closed by a comma: its main clause follows
    m = _re(_LEAD_CLAUSE).match(f, loc.start()) if loc else None
    if m is None:
        return None
    hit = next(iter(lx.scan(f[m.end():], ("imperative",))["imperative"]), None)
    if hit is None or hit.start:
        return None
    return lx.Hit(hit.start + m.end(), hit.end + m.end(), hit.lang, hit.phrase, hit.weight)


#: The colon that closes a marker phrase ("User said:", "Decided with the user (Nov 3):") and the blanks after it.
_COLON = LazyRe(r"(?:[^:\n]|(?<=\d):(?=\d)){0,60}?:(?!\d)\s*")


def _payload_start(f: str, marker_end: int) -> int:
    """Where the marker's payload starts: after a colon that closes the marker phrase, else right after it."""
    m = _COLON.match(f, marker_end)
    if m is None:
        return marker_end
    end = m.end()
    if not _SENTENCE_END.search(f, marker_end, end):
        return end
    return marker_end


def _orig_span(text: str, body: str, scope: str) -> str:
    """The scope as it is written in the line (NFD input gives an NFD scope; it must be a substring)."""
    if scope in text:
        return scope
    for form in ("NFD", "NFKC", "NFKD"):
        alt = unicodedata.normalize(form, scope)
        if alt in text:
            return alt
    return scope


# -- scope ----------------------------------------------------------------------------------------------------
_TOKEN = LazyRe(r"\d+(?::\d+)+|\w[\w\-+./'`]*\w|\w|[^\w\s]")
_BREAKS = frozenset(".;!?:()|[]{}-")
_ARTICLES = frozenset({"the", "a", "an"})
_RU_CONT = ("а", "я", "ы", "и", "ов", "ев", "ей", "ого", "его", "их", "ых", "ия", "ии", "ой")
_RU_VERB = ("ет", "ит", "ем", "им", "ют", "ят", "ут", "ат", "ли", "ло", "ть", "ться")
_NUMERIC = LazyRe(r"^[\dvq][\d.x+]*$")
_SENTENCE_END = LazyRe(r"[.;!?]\s")
_CLOCK = LazyRe(r"\d+:\d")
_CYRILLIC = LazyRe(r"[\u0400-\u04ff]")
_LATIN_NAME = LazyRe(r"^[a-z][\w\-.]*$")
#: Capitals with a plural "s" ("PRs", "VMs", "MRы" aside) name common things, not a brand: "on PRs" is a place.
_ACRONYM_PLURAL = LazyRe(r"^[A-Z]{2,}s$")


#: A token is a plain tuple ``(start, end, text, is_word)`` (scope finding makes thousands of them in a lint run).
_Tok = tuple[int, int, str, bool]


def _tokens(f: str, start: int) -> list[_Tok]:
    return [(m.start(), m.end(), t, t[:1].isalnum() or t[:1] == "_")
            for m in _TOKEN.finditer(f, start) for t in (m.group(),)]


@functools.cache
def _openings() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Scope openings indexed by their first word, longest first."""
    index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    sw = lx.scope_words()
    for kind, table in (("temporal", sw.temporal), ("strong", sw.strong), ("weak", sw.weak), ("dated", sw.dated),
                        ("restricted", sw.restricted)):
        for phrase in table:
            index.setdefault(phrase[0], []).append((kind, phrase))
    for entries in index.values():
        entries.sort(key=lambda e: (-len(e[1]), _KINDS.index(e[0])))
    return index


_KINDS = ("temporal", "strong", "weak", "dated", "restricted")


def _opening(toks: list[_Tok], i: int):
    """(kind, length) when a scope opening starts at token i; kind is temporal, strong, weak or restricted (a
    dated opening before a date is temporal, before anything else none; «только» before a noun in the dative
    plural opens a restriction)."""
    t = toks[i][2]
    entries = _openings().get(t)
    if not entries:
        if t in lx.scope_words().only and i + 1 < len(toks) and _audience(toks, i + 1):
            return "strong", 1
        return None
    for kind, phrase in entries:
        n = len(phrase)
        if i + n <= len(toks) and all(toks[i + k][2] == phrase[k] for k in range(1, n)):
            if kind == "dated":
                if i + n < len(toks) and _date_word(toks[i + n][2]):
                    return "temporal", n
                continue
            return kind, n
    return None


def _measure(toks: list[_Tok], j: int) -> bool:
    """A bare number and then a word that names no time («до 3000 ₽», «до 10 человек»): an amount, not a date
    («до 15 января», «до 5 числа», «до 2027 года», «до 18:00» are dates)."""
    if j >= len(toks) or not toks[j][2].isdigit():
        return False
    if j + 1 >= len(toks):
        return False
    nxt = toks[j + 1][2]
    return nxt not in _BREAKS and nxt != "," and not lx.is_time_head(nxt) and not _NUMERIC.match(nxt)


def _range_dash(toks: list[_Tok], k: int) -> bool:
    """Token ``k`` is the dash of a range between two dates or times ("Dec 18 – Jan 4", "9:00-12:00"): part of the
    period, not a break."""
    return toks[k][2] == "-" and 0 < k < len(toks) - 1 and _date_word(toks[k - 1][2]) and _date_word(toks[k + 1][2])


def _date_word(t: str) -> bool:
    """A token that starts a date or a period: a number, a month, a quarter, a weekday."""
    return bool(_NUMERIC.match(t)) or lx.is_time_head(t) or lx.is_schedule_head(t)


def _audience(toks: list[_Tok], k: int) -> bool:
    """A Russian noun in the dative plural, perhaps after adjectives («подписчикам», «постоянным покупателям»):
    whom a restriction is for."""
    end = _ru_noun(toks, k)
    t = toks[end - 1] if end > k else toks[k]
    return t[3] and len(t[2]) > 4 and _russian(t) and t[2].endswith(lx.scope_words().audience_endings)


class _Phrase:
    """One scope phrase of a payload (internal; a plain slotted class: no dataclass machinery at import)."""

    __slots__ = ("start", "open_at", "end", "kind", "only", "valid")

    def __init__(self, start: int, open_at: int, end: int, kind: str, only: bool, valid: bool) -> None:
        self.start = start  # token index (an "only" before the opening included)
        self.open_at = open_at
        self.end = end  # exclusive token index
        self.kind = kind
        self.only = only
        self.valid = valid


def _phrases(nfc: str, toks: list[_Tok]) -> list[_Phrase]:
    out: list[_Phrase] = []
    i = 0
    n = len(toks)
    while i < n:
        op = _opening(toks, i) if toks[i][3] else None
        if not op:
            i += 1
            continue
        kind, length = op
        t0 = toks[i][2]
        j = i + length
        if _russian(toks[i]) and not _clause(toks, i, length):
            j = _ru_phrase_end(nfc, toks, j)
        else:
            while j < n:
                t = toks[j][2]
                if (t in _BREAKS or t == ",") and not _range_dash(toks, j):
                    break
                if kind == "temporal" and j > i + length and t in _EN_SUBJECTS:
                    break  # "during the freeze we ship nothing": a subject pronoun opens the main clause
                if kind != "temporal" and toks[j][3] and _opening(toks, j):
                    break
                if kind not in ("temporal", "restricted") and t in lx.scope_words().only and j + 1 < n \
                        and toks[j + 1][3] and _opening(toks, j + 1):
                    break  # "only" opens the next phrase (a restricted one needs it: "to staff only from May")
                j += 1
        j = _parenthetical_end(toks, j)
        only_words = lx.scope_words().only
        lead_only = i > 0 and toks[i - 1][2] in only_words
        trail_only = j - 1 > i and toks[j - 1][2] in only_words
        valid = True
        if kind == "temporal" and _russian(toks[i]) and _measure(toks, i + length):
            valid = False  # "до 3000 ₽ каждому": a cap on the option, not a time
        elif kind == "restricted" and not (lead_only or trail_only):
            valid = False  # "switch to Postgres": the option's target
        elif kind == "weak":
            head = toks[i + length] if i + length < j else None
            if head is None:
                valid = False
            else:
                orig = nfc[head[0]:head[1]]
                if lx.is_schedule_head(head[2]) or _CLOCK.match(head[2]):
                    valid = False
                elif orig[:1].isupper() and not _ACRONYM_PLURAL.match(orig):
                    # A brand names the option ("in Cloudflare R2"); a place name right after a scope phrase
                    # says where its noun is ("for partners in Japan", «для клиентов из Сибири»).
                    valid = bool(out) and out[-1].end == i and out[-1].valid and out[-1].kind == "strong"
                    kind = "place" if valid else kind
        if i + length >= j:
            valid = False  # an opening with nothing after it
        out.append(_Phrase(i - 1 if lead_only else i, i, j, kind, lead_only or trail_only or t0 in only_words,
                           valid))
        i = j if j > i else i + 1
    return out


def _chain_end(phrases: list[_Phrase], first: int, toks: list[_Tok]) -> int:
    end = phrases[first].end
    for p in phrases[first + 1:]:
        gap = [t[2] for t in toks[end:p.start]]
        if gap in ([], [","]) and (p.valid or p.kind == "temporal"):
            end = p.end
        else:
            break
    return end


def _trim(nfc: str, f: str, s: int, e: int) -> str:
    text = nfc[s:e]
    folded = f[s:e]
    while text and (text[-1] in " \t.,;:!" or (folded[-1] in "\"'" and folded.count(folded[-1]) % 2 == 1)):
        folded = folded[:-1]
        text = text[:-1]
    return text.strip()


def find_scope(nfc: str, f: str | None = None, start: int = 0) -> str | None:
    """The scope phrase of a decision whose payload starts at ``start`` of the NFC text ``nfc`` (or None)."""
    f = fold(nfc) if f is None else f
    toks = _tokens(f, start)
    while toks and not toks[0][3]:
        toks = toks[1:]
    if not toks:
        return None
    lead = _leading_scope(nfc, f, toks)
    if lead:
        return lead
    phrases = _phrases(nfc, toks)
    if not phrases:
        return None
    candidates: list[int] = []
    only = next((k for k, p in enumerate(phrases) if p.only and p.valid), None)
    if only is not None:
        candidates.append(only)
    temporal = next((k for k, p in enumerate(phrases) if p.kind == "temporal" and p.valid), None)
    if temporal is not None:
        k = temporal
        if k > 0:
            prev = phrases[k - 1]
            gap = [t[2] for t in toks[prev.end:phrases[k].start]]
            quantity = prev.open_at + 1 < len(toks) and _NUMERIC.match(toks[prev.open_at + 1][2])
            if gap in ([], [","]) and prev.valid and prev.kind in ("strong", "weak", "restricted", "place") \
                    and not quantity:  # "within 4 hours between March and May": the option's measure
                k -= 1
                if phrases[k].kind == "place":
                    k -= 1  # "for partners in Japan until …"
        candidates.append(k)
    if not candidates:
        strong = [k for k, p in enumerate(phrases) if p.kind == "strong" and p.valid]
        weak = [k for k, p in enumerate(phrases) if p.kind in ("weak", "place", "restricted") and p.valid]
        if strong:
            candidates.append(strong[-1])
        elif weak:
            candidates.append(weak[-1])
    if not candidates:
        return None
    first = min(candidates)
    end = _chain_end(phrases, first, toks)
    return _trim(nfc, f, toks[phrases[first].start][0], toks[end - 1][1]) or None


def _leading_scope(nfc: str, f: str, toks: list[_Tok]) -> str | None:
    """A scope that opens the payload ("for December, …", «до релиза 3.0 новые фичи…»)."""
    i = 1 if toks[0][2] in lx.scope_words().only else 0
    op = _opening(toks, i)
    if not op:
        return None
    kind, length = op
    j = i + length
    if j >= len(toks) or (kind == "restricted" and i == 0):
        return None  # "to" with no "only" before it names the option's target
    if kind == "weak":
        head = toks[j]
        if nfc[head[0]:head[1]][:1].isupper() and not lx.is_time_head(head[2]):
            return None
    russian = _russian(toks[i])
    clause = _clause(toks, i, length)
    end = None
    if clause or not russian:
        # Up to a comma when one closes the phrase within a few words (a Russian noun phrase ends by its grammar).
        for k in range(j, min(len(toks), j + 8)):
            if toks[k][2] in _BREAKS and not _range_dash(toks, k):
                break
            if toks[k][2] == ",":
                end = k
                break
        if end is None and clause:
            return None
    if end is None:
        end = _ru_phrase_end(nfc, toks, j) if russian else _en_phrase_end(toks, j)
    if end <= j:
        return None
    end = _chain_after(nfc, toks, _parenthetical_end(toks, end))
    return _trim(nfc, f, toks[0][0], toks[end - 1][1])


def _chain_after(nfc: str, toks: list[_Tok], end: int) -> int:
    """The end of the scope phrases that follow a leading scope directly ("для тестовых стендов до конца января")."""
    while end < len(toks):
        k = end + 1 if toks[end][2] == "," else end
        if k >= len(toks) or not toks[k][3] or not _opening(toks, k):
            return end
        nxt = _phrases(nfc, toks[k:])
        if not nxt or nxt[0].open_at != 0 or not (nxt[0].valid or nxt[0].kind == "temporal"):
            return end
        if toks[k][2] in lx.scope_words().conjunctions and k != end:
            return end  # a clause after a comma starts the decision's own clause
        end = k + nxt[0].end
    return end


def _russian(tok: _Tok) -> bool:
    return bool(_CYRILLIC.match(tok[2]))


def _clause(toks: list[_Tok], i: int, length: int) -> bool:
    """The opening starts a clause (``until``/``while``/``пока``…): it runs to the comma, not to a noun's end.
    Every English time opening reads as a clause ("until the sync server exists")."""
    return toks[i + length - 1][2] in lx.scope_words().conjunctions or (
        not _russian(toks[i]) and _opening(toks, i)[0] == "temporal")


def _parenthetical_end(toks: list[_Tok], end: int) -> int:
    """A short parenthetical right after a scope phrase qualifies it ("the code freeze (Dec 14 – Jan 4)")."""
    if end < len(toks) and toks[end][2] == "(":
        for k in range(end + 1, min(len(toks), end + 12)):
            if toks[k][2] == ")":
                return k + 1
            if toks[k][2] in "(;":
                break
    return end


def _ru_phrase_end(nfc: str, toks: list[_Tok], j: int) -> int:
    """The end of the Russian noun phrase opened before token ``j``: determiners and adjectives, the head noun (or a
    date: a number and a month), then at most one genitive noun (``до конца декабря``), names (a number, a Latin
    word, a capitalized word, a quoted name or a code span: ``в пакете ingest``, ``для клиента «Альфа»``) and one
    attached phrase (``до переезда в новый офис``). What follows -- the decision's subject, verb or option -- is not
    part of it."""
    n = len(toks)
    if j < n and toks[j][2] in _QUOTES:
        return _ru_names(nfc, toks, j)[0]  # a name alone: "только в `scripts/`", "для «Ромашки»"
    k = _ru_noun(toks, j, nfc)
    if k <= j:
        return j
    if _NUMERIC.match(toks[j][2]):
        if k < n and lx.is_time_head(toks[k][2]):
            k += 1  # "до 15 января"
        if k + 1 < n and toks[k][2] in lx.scope_words().range_to and _NUMERIC.match(toks[k + 1][2]):
            k += 2  # "с 1 по 15 декабря", "с 20 декабря по 10 января"
            if k < n and lx.is_time_head(toks[k][2]):
                k += 1
    if k + 1 < n and toks[k][2] in lx.scope_words().comparatives and _NUMERIC.match(toks[k + 1][2]):
        k += 2  # "для заказов дороже 5000 ₽": a measure of the noun
        if k < n and ((not toks[k][3] and toks[k][2] not in _BREAKS and toks[k][2] != ",")
                      or (toks[k][3] and len(toks[k][2]) <= 3 and _russian(toks[k]))):
            k += 1  # its unit or currency sign ("₽", "кг", "руб")
        return k
    k, closed = _ru_names(nfc, toks, k)
    if closed or lx.is_time_head(toks[k - 1][2]):
        return k  # "для клиента «Альфа»", "на этой неделе"
    if k + 1 < n and toks[k][3] and _russian(toks[k]) and toks[k + 1][2] in _QUOTES \
            and not toks[k][2].endswith(_RU_VERB):
        return _ru_names(nfc, toks, k + 1)[0]  # a noun with its name in any case: "для демо клиенту «Ромашка»"
    if k < n and toks[k][3] and _russian(toks[k]) and _ru_genitive(toks, k):
        g = _ru_noun(toks, k, nfc)
        if not (g < n and toks[g][2].endswith(_RU_THIRD_PERSON)):  # "в филиалах касса закрывается": a subject
            k, closed = _ru_names(nfc, toks, g)
            if closed:
                return k
    if k + 1 < n and toks[k][2] in lx.scope_words().attached and (toks[k + 1][3] or toks[k + 1][2] in _QUOTES):
        inner = _ru_noun(toks, k + 1, nfc) if toks[k + 1][3] else k + 1
        if _NUMERIC.match(toks[k + 1][2]) and inner < n and lx.is_time_head(toks[inner][2]):
            inner += 1  # a number and its time word: "за 2026 год", "с 5 декабря"
        k = _ru_names(nfc, toks, inner)[0]
    return k


_QUOTES = frozenset({'"', "'", "`"})
#: English subject pronouns: after the words of a time phrase, one starts the decision's own clause.
_EN_SUBJECTS = frozenset({"i", "we", "you", "they", "he", "she"})
_RU_AND = frozenset({"и", "или"})
#: Third-person verb endings: the word before such a verb is its subject, not a genitive («касса закрывается»).
_RU_THIRD_PERSON = ("ется", "ится", "ются", "ятся", "ает", "яет", "ует", "еет", "ают", "яют", "уют")
_RU_GEN_ADJ = ("ого", "его", "ой", "ей", "их", "ых")


def _ru_adjective(t: str) -> bool:
    return t.endswith(lx.scope_words().adjective_endings) or t in lx.scope_words().determiners or t == "свой"


def _ru_noun(toks: list[_Tok], j: int, nfc: str = "") -> int:
    """The end of a noun with the adjectives and determiners before it (``новый кластер``, ``этой неделе``); a
    capitalized word is a name, not an adjective (``из Китая``)."""
    if j >= len(toks):
        return j
    h = j
    while h + 1 < len(toks) and toks[h][3] and toks[h + 1][3] and _ru_adjective(toks[h][2]) \
            and not toks[h + 1][2].endswith(_RU_VERB) and not nfc[toks[h][0]:toks[h][0] + 1].isupper():
        if toks[h + 1][2] in _RU_AND and h + 2 < len(toks) and (_ru_adjective(toks[h + 2][2]) or "-" in toks[h + 2][2]):
            h += 1  # "в московском и питерском офисах", "в тестовом и демо-окружениях"
        h += 1
    return h + 1 if toks[h][3] else h


def _ru_genitive(toks: list[_Tok], k: int) -> bool:
    """Token ``k`` starts a genitive noun phrase that qualifies the noun before it (``конца декабря``, ``выхода
    версии 4.0``): genitive adjectives, then a noun with a genitive ending that is not a verb."""
    while k + 1 < len(toks) and toks[k][3] and toks[k][2].endswith(_RU_GEN_ADJ) and toks[k + 1][3]:
        k += 1
    t = toks[k][2]
    if t in lx.scope_words().attached or t in _openings():
        return False  # a preposition («для», «на»), however it ends, opens a phrase of its own
    return toks[k][3] and len(t) > 2 and t.endswith(_RU_CONT) and not t.endswith(_RU_VERB)


def _ru_names(nfc: str, toks: list[_Tok], k: int) -> tuple[int, bool]:
    """Names right after a noun: numbers, Latin words, capitalized words, or one quoted name or code span, which
    closes the noun phrase. (end, closed)."""
    while k < len(toks):
        t = toks[k][2]
        if t in _QUOTES:
            close = next((m for m in range(k + 1, min(len(toks), k + 8)) if toks[m][2] == t), None)
            return (k, False) if close is None else (close + 1, True)
        if _NUMERIC.match(t) or _LATIN_NAME.match(t) or (toks[k][3] and nfc[toks[k][0]:toks[k][0] + 1].isupper()):
            k += 1
            continue
        break
    return k, False


def _en_phrase_end(toks: list[_Tok], j: int) -> int:
    k = j
    while k < len(toks) and toks[k][2] in _ARTICLES:
        k += 1
    k += 1
    while k < len(toks):
        t = toks[k][2]
        if t in _BREAKS or t == "," or t in lx.scope_words().clause_subjects or (toks[k][3] and _opening(toks, k)):
            break
        k += 1
    return k


def _instruction(f: str, start: int) -> bool:
    """The user's payload is a request: it opens with an imperative, perhaps after a leading scope phrase and its
    comma ("ping me only for blockers", "until Friday, reply only to clients"), not with the chosen thing ("SQLite
    only for prototype A")."""
    tail = f[start:].lstrip(" \"'«„“`")
    m = _re(_LEAD_CLAUSE).match(tail)
    for at in (0, m.end()) if m else (0,):
        clause = tail[at:]
        if _re(_ADDRESSED).match(clause):
            return True
        hit = next(iter(lx.scan(clause, ("imperative",))["imperative"]), None)
        if hit is not None and hit.start == 0:
            return True
    return False


#: A leading phrase closed by a comma before the main clause ("until the end of the sprint, ").
_LEAD_CLAUSE = r"[^,.;:!?]{1,80},\s*"
#: A verb addressed to the agent: a word and "me"/"us" ("ping me", "send us"), or a Russian imperative
#: ("присылайте", "используй", "пиши мне"; a bare "-и" is as often a plural noun: «логи»).
_ADDRESSED = (r"[a-z]+ (?:me|us)(?!\w)|[а-я]{2,}(?:ай|яй|уй|ей|йте|ите)(?:сь|ся)?(?!\w)"
              r"|[а-я]{2,}и (?:мне|нам)(?!\w)")


def _restrictive_scope(nfc: str, f: str, start: int) -> str | None:
    """An "only for …" / «только для …» restriction inside a user's words (which makes them a DECISION)."""
    tail = f[start:] if start else f
    if not any(map(tail.__contains__, lx.scope_words().only)):
        return None  # a restriction needs one of these words as a token of the payload: most directives have none
    toks = _tokens(f, start)
    for p in _phrases(nfc, toks):
        if p.only and p.valid and p.kind == "strong":
            return _trim(nfc, f, toks[p.start][0], toks[p.end - 1][1]) or None
    return None
