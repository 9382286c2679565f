"""The poisoning detector's machinery: normalization, the stem prefilter, the guards (negation, report, quote,
the user's own words), frames, and :func:`detect` (the vocabulary is rules.poisoning.patterns)."""

from __future__ import annotations

import functools
import re
import unicodedata

from tiers.record import dataclass
from tiers.lazy import LazyRe

from ..unicode import reveal

KINDS = ("trust-source", "exfiltration", "run-command", "disable-safety", "instruction-override",
         "override-user", "base64-payload", "html-comment", "link-payload", "persistence")


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    start: int
    end: int
    evidence: str
    strong: bool = True


from .families import FAMILIES, family_matches
from .patterns import (
    NET_TOOL_WORDS,
    _AI,
    FRAME_GATES,
    _EXFIL_STEMS,
    _STEMS,
    _P,
    _TRUST_STEMS,
    _aux,
    _compiled,
)


def normalize(text: str) -> str:
    """Matching form: NFKC (folds fullwidth/compat letters), casefold, ё→е, typographic quotes kept."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'").replace("‘", "'")


def _blank(text: str, signals: list[Signal]) -> str:
    """``text`` with the spans of ``signals`` replaced by spaces."""
    for s in signals:
        text = text[:s.start] + " " * (s.end - s.start) + text[s.end:]
    return text


def _clause_before(text: str, start: int) -> str:
    cut = max(text.rfind(c, 0, start) for c in ".;!?:—")
    return text[cut + 1:start]


def _clause_after(text: str, end: int) -> str:
    cuts = [i for i in (text.find(c, end) for c in ".;!?") if i >= 0]
    return text[end:min(cuts)] if cuts else text[end:]


def _negated(text: str, start: int) -> bool:
    """A negation before the act in its clause ("never disable …"), or a prohibition after it ("отключать его
    нельзя", "bypassing the hook is not allowed")."""
    aux = _aux()
    if aux["neg"].search(_clause_before(text, start)):
        return True
    return aux["forbidden"].match(text, start) is not None


def _mentioned(text: str, start: int, end: int) -> bool:
    """A quoted attack phrase in a line that reports or discusses it."""
    aux = _aux()
    if not aux["report"].search(aux["url"].sub(" ", text)):  # "evil.example.sh" is a host, not an example
        return False
    if any(q.start() <= start and end <= q.end() + 3 for q in aux["quoted"].finditer(text)):
        return True
    spans = [q for q in aux["code_span"].finditer(text) if q.start() <= start and end <= q.end() + 3]
    return bool(spans) and not aux["run_order"].search(aux["code_span"].sub(" ", text))


_LEET = str.maketrans("013457@$", "oieastas")


def _deobfuscated(text: str) -> str:
    """``text`` (normalized) with the spellings that hide a word from a pattern but not from a reader undone:
    combining marks dropped ("i\u0336gnore"), digits and signs standing for letters inside a word that has letters
    ("1gn0re", "pr1nt"), and a word spelled out in single letters ("i g n o r e") joined up."""
    aux = _aux()
    # left over after NFKC: marks no letter composes with ("й" stays); ASCII holds none (their class is large to build)
    out = text if text.isascii() else aux["combining"].sub("", text)
    out = aux["leet_word"].sub(lambda m: m.group(0).translate(_LEET), out)
    out = _fold_mixed_script(out)
    return aux["spaced_word"].sub(lambda m: m.group(0).replace(" ", ""), out)


#: Letters that look alike across scripts (lower case: the text is casefolded), to Latin and to Cyrillic.
_TO_LATIN = str.maketrans({"а": "a", "с": "c", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "ӏ": "l", "о": "o",
                           "р": "p", "ԛ": "q", "ѕ": "s", "у": "y", "х": "x", "ԝ": "w", "α": "a", "ε": "e", "ι": "i",
                           "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x"})
_TO_CYRILLIC = str.maketrans({"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "k": "к",
                              "b": "ь", "m": "м", "h": "н", "t": "т"})
_LATIN = frozenset("abcdefghijklmnopqrstuvwxyz")
_SCRIPT_SEAM = LazyRe(r"[a-z][\u0370-\u03ff\u0400-\u04ff]|[\u0370-\u03ff\u0400-\u04ff][a-z]")
#: A word with a Latin letter next to a Cyrillic or Greek one (every word mixing the scripts has such a pair).
_MIXED_WORD = LazyRe(r"\w*(?:[a-z][\u0370-\u03ff\u0400-\u04ff]|[\u0370-\u03ff\u0400-\u04ff][a-z])\w*")


def _fold_mixed_script(text: str) -> str:
    """A word that mixes Latin letters with Cyrillic or Greek ones ("ignоre" with a Cyrillic о, «игнoрируй» with a
    Latin o) is read in the script most of its letters are in, when every other letter has a look-alike there; a
    word whose odd letters look like nothing in that script is left as written."""
    if text.isascii() or not _SCRIPT_SEAM.search(text):
        return text

    def fold(m: re.Match) -> str:
        word = m.group(0)
        latin = sum(c in _LATIN for c in word)
        if not word.isalpha():
            return word  # "svc12х", "api_ключ": digits and underscores join words, not one spelled word
        to_latin = latin * 2 >= len(word)
        folded = word.translate(_TO_LATIN if to_latin else _TO_CYRILLIC)
        odd = (c for c in folded if (c in _LATIN) != to_latin)
        return word if any(True for _ in odd) else folded

    return _MIXED_WORD.sub(fold, text)


def _b64_commands(text: str) -> list[Signal]:
    # a base64 token is a run of 20+ non-space characters: a line without such a word has none
    if len(text) < 20 or max(map(len, text.split()), default=0) < 20:
        return []
    import base64
    import binascii

    out = []
    for m in _aux()["b64_token"].finditer(text):
        tok = m.group(0)
        try:
            raw = base64.b64decode(tok + "=" * (-len(tok) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        try:
            decoded = raw.decode("ascii")
        except UnicodeDecodeError:
            continue
        if sum(c.isprintable() for c in decoded) < 0.95 * len(decoded):
            continue
        if _aux()["shellish"].search(decoded) or any(sig.strong for sig in _scan_plain(normalize(decoded))):
            out.append(Signal("base64-payload", m.start(), m.end(), f"base64 that decodes to {decoded[:60]!r}"))
    return out


@functools.lru_cache(maxsize=1)
def _stem_groups() -> tuple[dict[str, frozenset[str]], tuple[tuple[str, str], ...]]:
    """(word stem -> the groups it opens, (other stem, group) pairs): a stem made of word characters can occur
    only inside one word of a line, so words are looked up one by one; the others ("turn off", ".md", ">") are
    searched for in the whole line."""
    groups = {**_STEMS, "exfiltration": _EXFIL_STEMS, "trust-source": _TRUST_STEMS,
              "base64": ("base64", "atob", "frombase64", "b64decode"),
              **{"frame:" + g: stems for g, stems in FRAME_GATES.items()}}
    words: dict[str, set[str]] = {}
    other: list[tuple[str, str]] = []
    for name, stems in groups.items():
        for st in stems:
            # (the compiled pattern's own methods: re.fullmatch looks the pattern up again for each of ~950 stems)
            if _WORD_RUN.fullmatch(st):
                words.setdefault(st, set()).add(name)
            elif (anchor := max(_WORD_RUN.findall(st), key=len, default="")):
                # "turn off" can occur only in a line with a word holding "turn": test it only then
                words.setdefault(anchor, set()).add(_ANCHOR + st + _ANCHOR + name)
            else:
                other.append((st, name))
    return {k: frozenset(v) for k, v in words.items()}, tuple(other)


_ANCHOR = "\0"  # marks a non-word stem ("turn off", ".md") reached through its longest word run


@functools.lru_cache(maxsize=1)
def _stem_lengths() -> tuple[int, ...]:
    return tuple(sorted({len(st) for st in _stem_groups()[0]}))


@functools.lru_cache(maxsize=65536)
def _word_groups(word: str) -> frozenset[str]:
    """The groups whose word stems occur in ``word`` (memory files repeat their words). The word's substrings of
    each stem length are looked up in the stem table: about a hundred hash lookups for a word instead of a
    substring test per stem (there are several hundred stems)."""
    stems = _stem_groups()[0]
    n = len(word)
    found = {st for k in _stem_lengths() if k <= n for i in range(n - k + 1) if (st := word[i:i + k]) in stems}
    return frozenset().union(*(stems[st] for st in found))


def _present(text: str) -> frozenset[str]:
    """The detector kinds and frame groups one of whose stems occurs in ``text``: a kind's patterns and a group's
    frames run only then. Stems are what every match of their patterns contains, so a line without any of them
    cannot match, and most memory lines hold none."""
    found = set().union(*map(_word_groups, set(_WORD_RUN.findall(text))))
    anchored = [g for g in found if g[0] == _ANCHOR]
    for g in anchored:
        found.discard(g)
        _, st, name = g.split(_ANCHOR)
        if name not in found and st in text:
            found.add(name)
    found.update(name for st, name in _stem_groups()[1] if name not in found and st in text)
    return frozenset(found)


_WORD_RUN = re.compile(r"\w+")


def _plan(present: frozenset[str]) -> tuple[str, ...]:
    """The detector kinds of ``_P`` whose patterns run on a text with these kinds present, in ``_P`` order: a fake
    notice counts only beside a disable-safety signal."""
    return tuple(kind for kind in _P
                 if _P[kind] and not (kind in _STEMS and kind not in present)
                 and not (kind == "fake-authority" and "disable-safety" not in present))


class _Facts:
    """Line-wide facts computed at most once per text, and only when a candidate signal needs them."""

    __slots__ = ("text", "_discussed", "_attributed", "_lenient", "_dest")

    def __init__(self, text: str) -> None:
        self.text = text
        self._discussed: bool | None = None
        self._attributed: bool | None = None
        self._lenient: bool | None = None
        self._dest: bool | None = None

    @property
    def discussed(self) -> bool:
        if self._discussed is None:
            self._discussed = _discussed(self.text)
        return self._discussed

    @property
    def attributed(self) -> bool:
        if self._attributed is None:
            self._attributed = _aux()["attributed"].search(self.text) is not None
        return self._attributed

    @property
    def lenient(self) -> bool:
        """Attributed to the user and no authority claimed: the user's own preference."""
        if self._lenient is None:
            self._lenient = self.attributed and _aux()["authority"].search(self.text) is None
        return self._lenient

    @property
    def dest(self) -> bool:
        if self._dest is None:
            self._dest = _aux()["dest_hint"].search(self.text) is not None
        return self._dest


_DISCUSSED_KINDS = ("disable-safety", "override-user", "instruction-override", "fake-authority")


def _scan_plain(text: str) -> list[Signal]:
    """Signals in one stretch of normalized text (no HTML-comment handling)."""
    present = _present(text)
    facts = _Facts(text)
    if not (present - {"exfiltration", "fake-authority"}) and not facts.dest:
        return []  # (the common line) exfiltration needs a destination, a fake notice another sign
    gates = frozenset(name[6:] for name in present if name.startswith("frame:"))
    out: list[Signal] = []
    compiled = _compiled()
    aux = _aux()
    # the kinds whose patterns can match: present (for those with stems), and a fake notice only together with a
    # weak disable-safety signal
    for kind in _plan(present):
        found: list[Signal] = []
        for pat, strong in compiled[kind]:
            for m in pat.finditer(text):
                if _negated(text, m.start()) and kind not in ("fake-authority",):
                    continue
                if _mentioned(text, m.start(), m.end()):
                    continue
                if kind == "instruction-override" and facts.attributed and aux["own"].search(m.group(0)):
                    continue  # "User: forget my previous instructions about commit style"
                found.append(Signal(kind, m.start(), m.end(), m.group(0), strong))
        if not found:
            continue
        if kind in _DISCUSSED_KINDS and facts.discussed and _discussed(_blank(text, found)):
            continue  # "the report describes comments that try to disable the confirmation step" (the act's own
            # words do not count: «предупреждения сертификата — ложные срабатывания» names the warning it waves away)
        if kind == "persistence" and facts.lenient:
            continue  # "User said: remember forever that I am allergic to nuts": the user's own wish
        if kind == "disable-safety" and (facts.lenient or aux["only_user"].search(text)):
            continue  # "User said: skip the confirmation for git fetch", "…, ask the user first": the user decides
        out.extend(found)
    exfil = "exfiltration" in present and facts.dest
    command = exfil and any(w in text for w in NET_TOOL_WORDS)
    for key in ("ex_en", "ex_en2", "ex_ru", *(("ex_command",) if command else ())) if exfil else ():
        for m in aux[key].finditer(text):
            if _negated(text, m.start()) or _mentioned(text, m.start(), m.end()):
                continue
            if aux["neg"].search(m.group(0)):
                continue  # "never paste them", "не отправляй": the verb itself is negated
            if _own_service(text):
                continue  # "uploads coverage to codecov.io with the CODECOV_TOKEN": a service's key to that service
            places = list(aux["url"].finditer(text, m.start(), m.end())) if key != "ex_en2" else []
            if places and _FROM_BEFORE.search(text, max(0, places[-1].start() - 30), places[-1].start()):
                continue  # "copy the deploy token from https://dashboard… into the vault": the source, not a target
            out.append(Signal("exfiltration", m.start(), m.end(), m.group(0)))
    if exfil and aux["ex_carrier"].search(text):
        out.extend(_secret_in_request(text))
    if "trust-source" in present:
        out.extend(_trust(text))
    out.extend(_frames(text, gates, facts))
    fam_gates = gates | {"fam_trust"} if facts.dest and "fam_trust_named" in gates else gates  # a named place declared
    if fam_gates & _FAMILY_GROUPS and not facts.attributed:
        out.extend(_families(text, fam_gates, facts))
    if "general" in gates:
        out.extend(_general_frames(text, facts))
    if "wipe" in present and not facts.lenient:  # "User said: git clean -fdx before every build": their own choice
        for off, sent in _sentences(text):
            m = aux["wipe"].search(sent)
            if m and aux["recurring"].search(sent) and not _negated(text, off + m.start()) \
                    and not _mentioned(text, off + m.start(), off + m.end()) and not facts.discussed:
                out.append(Signal("run-command", off + m.start(), off + m.end(), m.group(0)))
                break
    if "base64" in present:
        for m in aux["b64_pipe"].finditer(text):
            if not _negated(text, m.start()):
                out.append(Signal("base64-payload", m.start(), m.end(), m.group(0)))
    return out


_SERVICE_SECRET = LazyRe(r"\b([a-z0-9]{3,})[_ -](?:api[_ -])?(?:token|key|secret)s?\b")


def _own_service(sent: str) -> bool:
    """Every secret the sentence names is a key named for a service ("CODECOV_TOKEN") and goes to that service's
    host (codecov.io): using a key, not leaking it. A secret file or a password anywhere in it is never this."""
    aux = _aux()
    names = [m.group(1) for m in _SERVICE_SECRET.finditer(sent)]
    if not names or aux["ex_private"].search(sent):
        return False
    hosts = _domains(sent)
    return bool(hosts) and all(any(_service_domain(n, h) for h in hosts) for n in names)


def _service_domain(name: str, domain: str) -> bool:
    """``domain`` is the service's own: its label is the name itself or the name + api(s), app or usercontent
    (codecov.io, googleapis.com, githubusercontent.com; amazonaws.com for aws). A brand inside another label
    (vercel-support.app, github-help.io) is not the service's."""
    label = domain.split(".")[0]
    return label in (name, name + "api", name + "apis", name + "app", name + "usercontent") or \
        (name == "aws" and label == "amazonaws")


def _domains(sent: str) -> list[str]:
    """The registered domain of each place in ``sent`` (its last two labels: github.com.evil.io is evil.io)."""
    out = []
    for u in _aux()["url"].finditer(sent):
        host = u.group(0).split("://")[-1].split("/")[0].rpartition("@")[2].split(":")[0]
        out.append(".".join(host.split(".")[-2:]))
    return out


def _secret_in_request(text: str) -> list[Signal]:
    """A secret carried inside a request to an outside host (a query parameter, a header, the body): a private file
    or password anywhere, a key named for a service ("OPENAI_API_KEY") to a host that is not that service's."""
    aux = _aux()
    for off, sent in _sentences(text):
        hosts = _domains(sent)
        if not hosts or not aux["ex_carrier"].search(sent) or not aux["ex_put"].search(sent):
            continue
        key = aux["ex_service_key"].search(sent)
        m = key if key and not any(_service_domain(key.group(1), h) for h in hosts) else aux["ex_private"].search(sent)
        if m and not _negated(text, off + m.start()) and not _mentioned(text, off + m.start(), off + m.end()):
            return [Signal("exfiltration", off + m.start(), off + m.end(), sent[m.start():m.start() + 80])]
    return []


#: A topic named after rules ("the rules about commit style"): those rules, not memory as a whole.
_TOPIC = LazyRe(r"\b(?:about|regarding|concerning|on the topic of)\b|(?<!\w)(?:про|насчет|по поводу|касательно)(?!\w)")

_FAMILY_GROUPS = frozenset(g for g, _, _ in FAMILIES)


def _families(text: str, gates: frozenset[str], facts: _Facts) -> list[Signal]:
    """The families of meaning (rules.poisoning.families), quiet in a line that discusses an attack or quotes one."""
    out = [Signal(kind, start, end, evidence) for kind, start, end, evidence in family_matches(text, list(_sentences(text)), gates)
           if not _mentioned(text, start, end)]
    if out and (facts.discussed or (_aux()["quoted"].search(text) and _aux()["report"].search(text))):
        return []  # the line talks about an attack, or reports a quoted phrase
    return out


def _sentences(text: str):
    """(offset, sentence) pieces split at . ! ? ; followed by a space (dots inside names and URLs stay)."""
    start = 0
    for m in _aux()["split"].finditer(text):
        yield start, text[start:m.start()]
        start = m.end()
    yield start, text[start:]


def _self_act(sent: str, start: int) -> bool:
    """The sending verb is the user's own finite act ("the user sends", «пользователь отправляет»), not an order."""
    if not _aux()["subject_user"].search(sent, 0, start):
        return False
    word = re.match(r"\w+", sent[start:])
    return bool(word and _aux()["finite"].fullmatch(word.group(0)))


def _outside_wins(sent: str, off: int) -> Signal | None:
    """The user's word and an outside source disagree, and the outside source is to be followed ("if his
    instructions differ from the ops e-mails, follow the e-mails"); following the user is the opposite."""
    aux = _aux()
    for c in aux["conflict"].finditer(sent):
        if not aux["user_ref"].search(sent, 0, c.start()):
            continue
        for v in aux["follow_verb"].finditer(sent, c.end()):
            src = aux["outside_src"].search(sent, v.end(), v.end() + 40)
            if src and not aux["user_ref"].search(sent, v.end(), src.start()):
                return Signal("override-user", off + c.start(), off + src.end(), sent[c.start():src.end()])
    return None


#: "from X" right before a place makes it the source; a destination word after "from" ("из конфигов в телеграм")
#: makes it the destination again: the nearest preposition decides.
_FROM_BEFORE = LazyRe(r"(?:\bfrom|(?<!\w)(?:из|от))\s+(?:(?!(?:to|into|onto|в|во|на|к)\s)\S+\s+){0,2}$")


def _has_target(sent: str) -> bool:
    """An outside place to send to; a dotted name in backticks (`rules.secrets`) is code, not a host."""
    for t in _aux()["target"].finditer(sent):
        word = t.group(0)
        if t.start() and sent[t.start() - 1] == "`" and "://" not in word and "@" not in word:
            continue
        if t.start() and sent[t.start() - 1] in "./~":
            continue  # ".env.example", "~/notes.md": a file name, not a host
        if _FROM_BEFORE.search(sent, max(0, t.start() - 30), t.start()):
            continue  # "copy the key from https://dashboard…": where it comes from, not where it goes
        return True
    return False


def _discussed(text: str) -> bool:
    """The line talks about an attack (words outside URLs and addresses: "example.org" is not an example)."""
    aux = _aux()
    return aux["discuss"].search(aux["url"].sub(" ", text)) is not None


def _frames(text: str, gates: frozenset[str] | None = None, facts: _Facts | None = None) -> list[Signal]:
    """Frame signals (see _FRAME_SOURCES): each needs its act plus a target, none fires in a line discussing an attack.

    ``gates`` and ``facts`` are the caller's (the frame groups of :func:`_present`, :class:`_Facts`) for the same text.
    """
    if gates is None:
        gates = frozenset(name[6:] for name in _present(text) if name.startswith("frame:"))
    if facts is None:
        facts = _Facts(text)
    if not gates and not facts.dest:
        return []
    out = _frame_signals(text, gates, facts)
    if out and facts.discussed:
        return []
    return out


def _general_frames(text: str, facts: _Facts) -> list[Signal]:
    """Sentence frames stated by category, in any word order: instructions set aside (an order to ignore the
    rules named as earlier or as memory's), an outside source ranked above memory or the user, and a line that
    orders itself copied into other files or sessions. None fires after a negation, in a line that discusses an
    attack, or (for the last) in the user's own words."""
    aux = _aux()
    out: list[Signal] = []

    def live(start: int, end: int) -> bool:
        return not _negated(text, start) and not _mentioned(text, start, end)

    ignore = aux["ignore_verb"].search(text) is not None
    rank = aux["precedence"].search(text) is not None
    persist = not facts.attributed and aux["spread"].search(text) is not None
    if not (ignore or rank or persist):
        return out  # (the common line) none of the three acts is named
    for off, sent in _sentences(text):
        for v in aux["ignore_verb"].finditer(sent) if ignore else ():
            obj = aux["rule_obj"].search(sent, v.end(), v.end() + 60)
            if obj is None or aux["scoped"].match(sent, obj.end()):
                continue  # "ignore the rules about commit style": one topic, not memory as a whole
            prior = aux["prior"].search(sent, v.end()) or aux["mem_ref"].search(sent, obj.end(), obj.end() + 40)
            if prior and not (facts.attributed and aux["own"].search(sent)) and live(off + v.start(), off + obj.end()):
                out.append(Signal("instruction-override", off + v.start(), off + obj.end(), sent[v.start():obj.end()]))
                break
        for p in aux["precedence"].finditer(sent) if rank else ():
            src = aux["outside_src"].search(sent, 0, p.start())
            ref = aux["mem_ref"].search(sent, p.end())
            if src and ref and live(off + p.start(), off + p.end()):
                out.append(Signal("instruction-override", off + src.start(), off + ref.end(), sent[src.start():ref.end()]))
                break
        if persist:
            verb = aux["copy_verb"].search(sent)
            if verb and aux["self_ref"].search(sent) and aux["spread"].search(sent) \
                    and live(off + verb.start(), off + verb.end()):
                out.append(Signal("persistence", off + verb.start(), off + len(sent), sent[verb.start():verb.start() + 80]))
    if out and facts.discussed:
        return []
    return out


#: Markdown links and images: the URL between the parentheses.
_LINK = LazyRe(r"!?\[[^\]\n]{0,200}\]\(\s*<?((?:\{\{[^}\n]{0,80}\}\}|[^)\s>])+)")  # a {{placeholder}} may hold spaces
#: Schemes that run code or carry a document instead of pointing somewhere.
_ACTIVE_SCHEME = LazyRe(r"(?:javascript|vbscript|data)\s*:", re.IGNORECASE)
#: A template placeholder in a URL that names something private: the agent fills it in when it renders the link.
_PLACEHOLDER = LazyRe(r"(?:\{\{[^}]{0,60}\}\}|\$\{[^}]{0,60}\}|\$\([^)]{0,60}\)|%[a-z_]{2,30}%|<[a-z_ ]{2,30}>)")
_PRIVATE = LazyRe(r"env|key|token|secret|pass|cookie|session|ssh|credential|user|memory|history|conversation|"
                  r"chat|prompt|email|contact|ключ|токен|парол|секрет|пользовател|памят")


#: A single-brace placeholder ({GITHUB_TOKEN}) counts only when it names a secret: {owner}/{repo} are URL templates.
_BARE_PLACEHOLDER = LazyRe(r"(?<!\{)\{[a-z_][\w.-]{1,60}\}(?!\})")
_SECRET_NAME = LazyRe(r"token|key|secret|pass|cookie|credential|session|env")


def _link_payloads(text: str) -> list[Signal]:
    """Links whose target is a payload: an active scheme (``javascript:``, ``data:``), a placeholder the agent
    would fill with private data (an exfiltrating image), or an encoded query that holds an instruction."""
    if "](" not in text and "://" not in text:
        return []
    from urllib.parse import unquote_plus

    out: list[Signal] = []
    for m in _LINK.finditer(text):
        url = m.group(1)
        if _mentioned(text, m.start(), m.end()):
            continue
        if _ACTIVE_SCHEME.match(url):
            out.append(Signal("link-payload", m.start(), m.end(), m.group(0)[:120]))
            continue
        holes = [h.group(0) for h in _PLACEHOLDER.finditer(url)]
        bare = [h.group(0) for h in _BARE_PLACEHOLDER.finditer(url)]  # {GITHUB_TOKEN}; {user} is a path template
        if any(_PRIVATE.search(h) for h in holes) or any(_SECRET_NAME.search(h) for h in bare):
            out.append(Signal("link-payload", m.start(), m.end(), m.group(0)[:120]))
    for u in _aux()["url"].finditer(text):
        query = u.group(0).partition("?")[2] or u.group(0).partition("#")[2]
        decoded = unquote_plus(query)
        if decoded == query or len(decoded.split()) < 3 or _mentioned(text, u.start(), u.end()):
            continue
        inner = [s for s in _scan_plain(normalize(decoded)) if s.strong]
        if inner:
            out.append(Signal("link-payload", u.start(), u.end(), f"a link whose query reads {decoded[:60]!r}"))
    return out


#: (frame, kind, strong, the frame groups of FRAME_GATES that must all be present)
_SENTENCE_FRAMES = (("rules_voided", "instruction-override", True, frozenset({"override"})),
                    ("only_this", "instruction-override", False, frozenset({"override"})),
                    ("user_void", "override-user", True, frozenset({"user"})),
                    ("user_anyway", "override-user", True, frozenset({"user"})),
                    ("user_dismissed", "override-user", True, frozenset({"user", "dismiss"})),
                    ("conceal", "override-user", True, frozenset({"conceal"})))


def _frame_signals(text: str, gates: frozenset[str], facts: _Facts) -> list[Signal]:
    aux = _aux()
    exfil = facts.dest
    out: list[Signal] = []

    def live(start: int, end: int) -> bool:
        return not _negated(text, start) and not _mentioned(text, start, end)

    if "safety" in gates and not facts.lenient:  # "User said: don't ask me before tests": the user's own preference
        for m in aux["no_ask"].finditer(text):
            if m.group(0).startswith(("без", "without")) and aux["neg"].search(_clause_after(text, m.end())):
                continue  # «без его ревью ничего не мержим»: a prohibition, not a waiver
            if live(m.start(), m.end()) and not aux["only_user"].search(text):
                out.append(Signal("disable-safety", m.start(), m.end(), m.group(0)))
    # the per-sentence frames, each only when its patterns can match somewhere in the line
    safety = ("safety" in gates and aux["safety_obj"].search(text)
              and (aux["off_act"].search(text) or aux["off_state"].search(text)) and not facts.lenient)
    keys = [(key, kind, strong) for key, kind, strong, need in _SENTENCE_FRAMES
            if need <= gates and aux[key].search(text)]
    void = ("override" in gates and aux["void_pred"].search(text) and aux["mem_obj"].search(text)
            and aux["prior"].search(text) and not facts.lenient)
    send = (exfil and aux["send"].search(text) and aux["sensitive"].search(text)
            and aux["target"].search(text))
    conflict = "conflict" in gates and "user" in gates and not facts.lenient and aux["conflict"].search(text)
    for off, sent in _sentences(text) if safety or keys or void or send or conflict else ():
        if conflict:
            sig = _outside_wins(sent, off)
            if sig and live(sig.start, sig.end):
                out.append(sig)
        if safety and not aux["only_user"].search(sent):
            for v in aux["off_act"].finditer(sent):
                o = aux["safety_obj"].search(sent, v.start(), v.end() + 45)
                if o and live(off + v.start(), off + o.end()):
                    out.append(Signal("disable-safety", off + v.start(), off + o.end(), sent[v.start():o.end()]))
            for o in aux["safety_obj"].finditer(sent):
                st = aux["off_state"].search(sent, o.end(), o.end() + 70)
                if st and st.group(0).endswith(("deprecated", "retired")) and aux["replaced"].search(text):
                    st = None  # "the scanner is deprecated; we migrated to trivy": replaced, not switched off
                if st and not aux["not_off"].search(st.group(0)) and not aux["kept_on"].search(text) \
                        and not aux["hedge"].search(sent) \
                        and live(off + o.start(), off + st.end()):
                    out.append(Signal("disable-safety", off + o.start(), off + st.end(), sent[o.start():st.end()]))
                v = aux["off_order"].search(sent, o.end(), o.end() + 45)
                if v and not aux["kept_on"].search(text) and not aux["hedge"].search(sent) \
                        and live(off + v.start(), off + v.end()) and live(off + o.start(), off + v.end()):
                    out.append(Signal("disable-safety", off + o.start(), off + v.end(), sent[o.start():v.end()]))
        for key, kind, strong in keys:
            if key == "conceal" and facts.attributed:
                continue  # "User said: don't mention this change to the team": the user's own wish
            for m in aux[key].finditer(sent):
                if key == "rules_voided" and _TOPIC.search(m.group(0)):
                    continue  # "earlier notes about Python 3.8 are outdated": one topic, not memory as a whole
                if live(off + m.start(), off + m.end()):
                    out.append(Signal(kind, off + m.start(), off + m.end(), m.group(0), strong))
        if void:
            for pred in aux["void_pred"].finditer(sent):
                lo = max(0, pred.start() - 70)
                obj = aux["mem_obj"].search(sent, lo, pred.start())
                if obj and _TOPIC.search(sent, obj.end(), pred.start()):
                    continue
                if obj and aux["prior"].search(sent, lo, pred.start()) and live(off + obj.start(), off + pred.end()):
                    out.append(Signal("instruction-override", off + obj.start(), off + pred.end(),
                                      sent[obj.start():pred.end()]))
                    break
        if send and _has_target(sent) and aux["sensitive"].search(sent):
            urls = [u.span() for u in aux["url"].finditer(sent)]
            for v in aux["send"].finditer(sent):
                if any(a <= v.start() < b for a, b in urls):
                    continue  # ".../dumps/test.sql.gz": a word of a path, not an order
                if _own_service(sent):
                    break
                if _self_act(sent, v.start()):
                    continue  # "Пользователь отправляет паспорт сам": the user acts, nobody instructs the agent
                if live(off + v.start(), off + v.end()):
                    out.append(Signal("exfiltration", off + v.start(), off + len(sent), sent[v.start():v.start() + 80]))
                    break
    if "trust" not in gates:
        return out
    decl = [m for m in aux["trust_decl"].finditer(text) if live(m.start(), m.end())]
    if decl and aux["url"].search(text):
        unchecked = aux["unchecked"].search(text)
        acts = [m for m in aux["trust_act"].finditer(text) if live(m.start(), m.end())]
        internal = aux["internal_strict"].search(text)
        if acts and (unchecked or not (internal or facts.attributed)):
            first = min(decl[0].start(), acts[0].start())
            out.append(Signal("trust-source", first, max(decl[0].end(), acts[0].end()), text[first:first + 80]))
    return out


#: The words without which trust_approved and trust_same cannot match (cheaper than running them on every line).
_TRUST_CUES = (("trust_approved", ("approv", "vetted", "listed", "signed off", "одобрен", "проверен",
                                   "доверен", "согласован")),
               ("trust_same", ("same", "equal", "equivalent", "тот же", "такой же", "такую же", "ту же", "равн")))


def _trust(text: str) -> list[Signal]:
    aux = _aux()
    out: list[Signal] = []
    for m in aux["trust_strong"].finditer(text):
        if not _negated(text, m.start()) and not _mentioned(text, m.start(), m.end()):
            out.append(Signal("trust-source", m.start(), m.end(), m.group(0)))
    for key, cues in _TRUST_CUES:
        if any(c in text for c in cues):
            for m in aux[key].finditer(text):
                if not _negated(text, m.start()) and not _mentioned(text, m.start(), m.end()):
                    out.append(Signal("trust-source", m.start(), m.end(), m.group(0)))
    words = list(aux["trust_word"].finditer(text))
    if not words:
        return out
    urls = [u for u in aux["url"].finditer(text)]
    if not urls:
        return out
    for m in words:
        if _negated(text, m.start()) or _mentioned(text, m.start(), m.end()):
            continue
        # "our internal registry is trusted" narrows trust to the user's own infrastructure
        near = [u for u in urls if abs(u.start() - m.start()) < 120]
        if not near:
            continue
        if aux["internal"].search(text[max(0, m.start() - 60):m.end() + 60]) and not aux["trust_strong"].search(text):
            continue
        if aux["attributed"].search(text) and not aux["trust_strong"].search(text):
            continue  # "Пользователь считает X надёжным источником": the user's own judgement
        word = aux["predicate"].sub("", m.group(0))  # evidence is the trust word itself ("trusted", not "as the trusted")
        out.append(Signal("trust-source", m.end() - len(word), m.end(), word))
    return out


def detect(line: str) -> list[Signal]:
    """Poisoning signals in one memory line (raw text, stamp already removed), strongest evidence first.

    A line is poisoned when any strong signal fires, or two weak ones (e.g. "don't ask for confirmation" plus
    a fake system notice). Offsets refer to the normalized, revealed text.
    """
    raw = reveal(line)
    text = normalize(raw)
    aux = _aux()
    signals: list[Signal] = []
    outside = text
    for m in aux["html"].finditer(text) if "<!--" in text else ():  # (every match opens with "<!--")
        inner = m.group(1).strip()
        if not inner or inner.startswith(("cu:", "cuticle:")) or re.match(r"^cu[:\s]", inner):
            continue
        if m.start() and text[m.start() - 1] in "'\"`«“" and _discussed(text[:m.start()] + text[m.end():]):
            outside = outside[:m.start()] + " " * (m.end() - m.start()) + outside[m.end():]
            continue  # "Added a fixture: '<!-- note to the AI: … -->' must be flagged": a quoted example
        inner_signals = _scan_plain(inner)
        tag = aux["todo_tag"].match(inner)
        body = inner[tag.end():].lstrip() if tag else inner  # "TODO: assistant, …" addresses the agent too
        addressed = (aux["agent_address"].search(body) or aux["you_imperative"].search(body)
                     or aux["to_ai"].search(body))
        to_agent = re.fullmatch(_AI, tag.group(1)) if tag and tag.group(1) else \
            (aux["agent_address"].search(body) or aux["to_ai"].search(body))
        if tag and not inner_signals and not to_agent:
            outside = outside[:m.start()] + " " * (m.end() - m.start()) + outside[m.end():]
            continue  # "<!-- TODO(user): add the Q1 plan -->", "<!-- TODO: add the numbers -->": a note to whoever edits
        addressed = addressed or (aux["agent_address"].search(inner) or aux["you_imperative"].search(inner)
                                  or aux["to_ai"].search(inner))
        if inner_signals or addressed:
            signals.append(Signal("html-comment", m.start(), m.end(), m.group(0)[:120]))
        outside = outside[:m.start()] + " " * (m.end() - m.start()) + outside[m.end():]
    signals.extend(_scan_plain(outside))
    signals.extend(_link_payloads(outside))
    if len(raw) == len(text):  # offsets agree (no length-changing case folding): decode the original casing
        signals.extend(_b64_commands(raw))
    else:
        signals.extend(_b64_commands(unicodedata.normalize("NFKC", raw)))
    strong = [s for s in signals if s.strong]
    if not strong:
        plain = _deobfuscated(outside)
        if plain != outside:  # spelled to slip past the patterns: judged as the reader reads it
            strong = [s for s in _scan_plain(plain) if s.strong]
    if strong:
        return sorted(strong, key=lambda s: (KINDS.index(s.kind) if s.kind in KINDS else 99, s.start))
    weak = [s for s in signals if not s.strong]
    if len({s.kind for s in weak}) >= 2:
        kind = next((s.kind for s in weak if s.kind != "fake-authority"), weak[0].kind)
        first = min(weak, key=lambda s: s.start)
        return [Signal(kind if kind in KINDS else "disable-safety", first.start, max(s.end for s in weak),
                       "; ".join(s.evidence for s in weak))]
    return []


def is_poisoned(line: str) -> bool:
    return bool(detect(line))


__all__ = ["KINDS", "Signal", "detect", "is_poisoned", "normalize"]
