"""Verified provenance: a memory line built from the user's own words of this turn is the user's, not a guess.

Hosts report each user prompt (``record_prompt``); cuticle keeps the last few per session in
``.cuticle/prompts.json`` (bounded, atomic, locked). ``classify_with_provenance`` classifies a line by its markers
and then checks it against the *current* prompt of its session — the most recent one recorded. The rule
(docs/arbitration.md):

- content words are the line's and the prompt's word tokens (normalized, ё = е) minus stopwords and minus
  provenance markers ("user said", «пользователь сказал»), compared by stem (English suffixes stripped, Russian
  words cut to 6 letters; two stems also match when they share their first 5 letters, at least 4);
- the line qualifies when at least ``LINE_SHARE`` (60 %) of its content words occur in the prompt, with at least
  ``MIN_MATCHED`` (2) matched words; then it becomes DIRECTIVE, or DECISION when it carries a scope, with
  ``verified=True`` and confidence 0.76 + 0.24 * share;
- the line must keep the polarity and modality of the prompt region it copies most (negation parity, the signs of
  shared concepts and the presence of permission, relaxation and indifference words): "never deploy on Fridays" does not verify
  "deploys on Fridays are fine", and universal words ("everywhere", «везде») must be the user's too; when that
  prompt clause has a scope, the line must keep a scope;
- a hedged line (by the classifier's hedge lexicon or the arbitration lexicon) never qualifies, and neither does
  an OBSERVATION (environment output stays environment output) nor a line whose stamp-free text is empty.

It cannot be forged by phrasing: the words a line needs are the user's actual prompt, which the agent does not
write. Markers in the line ("User said:") neither help nor hurt the check.
"""

from __future__ import annotations

import json
from .record import replace

from .errors import UsageError
from .fsutil import atomic_write, file_lock, read_json_object, utc_now
from .model import Classification, Tier

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

    from .line import Line

__all__ = ["classify_with_prompt", "classify_with_provenance", "content_stems", "current_prompt", "provenance_share",
           "record_prompt"]


def _log():
    """This module's logger, imported on the rare warning path (logging costs milliseconds at hook start)."""
    import logging

    return logging.getLogger(__name__)


STATE_NAME = "prompts.json"
#: Prompts kept per session, sessions kept per workspace, characters kept per prompt.
MAX_PROMPTS = 8
MAX_SESSIONS = 32
MAX_CHARS = 20_000
LINE_SHARE = 0.6
MIN_MATCHED = 2

_MARKER_WORDS = frozenset(
    """user said asked says per the decided agreed with пользователь пользователя сказал сказала просьба решили
    решено договорились с попросил попросила говорит his him her them their его ему ей ней нему юзер""".split()
)


def _load(path) -> dict[str, Any]:
    data = read_json_object(path)
    if data is None and path.exists():
        _log().warning("%s unreadable; starting a new prompt record", path)
    return data or {}


def record_prompt(ws, session_id: str, prompt: str) -> None:
    """Remember ``prompt`` as the current user turn of ``session_id`` (bounded; atomic under a lock)."""
    if not isinstance(session_id, str) or not session_id.strip():
        raise UsageError("record_prompt() needs a non-empty session id")
    if not isinstance(prompt, str):
        raise UsageError("record_prompt() needs the prompt text as a string")
    sid = session_id.strip()[:256]
    path = ws.state_path(STATE_NAME)
    ws.ensure_state()
    with file_lock(path):
        data = _load(path)
        entries = data.get(sid) if isinstance(data.get(sid), list) else []
        entries.append({"at": utc_now(), "text": prompt[:MAX_CHARS]})
        data[sid] = entries[-MAX_PROMPTS:]
        if len(data) > MAX_SESSIONS:
            order = sorted(data, key=lambda s: (data[s][-1].get("at", "") if data[s] else ""))
            for old in order[: len(data) - MAX_SESSIONS]:
                del data[old]
        atomic_write(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def current_prompt(ws, session_id: str | None) -> str | None:
    """The most recent prompt recorded for ``session_id`` (the current turn), or None."""
    if not session_id:
        return None
    entries = _load(ws.state_path(STATE_NAME)).get(session_id.strip())
    if not isinstance(entries, list) or not entries:
        return None
    text = entries[-1].get("text") if isinstance(entries[-1], dict) else None
    return text if isinstance(text, str) else None


def content_stems(text: str | Line) -> list[str]:
    """Stems of the content words of a prepared line (its normalized words) or of a text (markup stripped)."""
    from .concepts.words import _STOP, _stem
    from .text import strip_markup, words
    from .line import Line

    out = []
    for w in text.words() if isinstance(text, Line) else words(strip_markup(text)):
        if w in _STOP or w in _MARKER_WORDS or len(w) < 2 or w.startswith(("пользовател", "user")):
            continue
        out.append(_stem(w))
    return out


def provenance_share(line: str | Line, prompt: str) -> tuple[float, int]:
    """(share of the line's content words found in the prompt, number matched)."""
    line_stems = content_stems(line)
    if not line_stems:
        return 0.0, 0
    prompt_stems = set(content_stems(prompt))
    matched = sum(1 for s in line_stems if _stem_in(s, prompt_stems))
    return matched / len(line_stems), matched


def _stem_in(stem: str, pool: set[str]) -> bool:
    """Exact stem, or a shared prefix of at least 4 characters covering the shorter stem up to 5 (inflection)."""
    if stem in pool:
        return True
    if len(stem) < 4:
        return False
    need = min(5, len(stem))
    return any(len(p) >= 4 and p[:need] == stem[:need] for p in pool)


_POLARITY = ("PERMIT", "RELAX", "INDIFF", "UNIVERSAL")


def _signature(text: str | Line) -> tuple:
    from .concepts import analyze

    a = analyze(text)
    neg = sum(1 for cl in a.clauses for _ in [0] if cl.force == "prohibit") % 2
    return (neg, *(m in a.markers for m in _POLARITY))


def _regions(prompt: str) -> list[str]:
    """Candidate source regions of a prompt: each sentence, and each contiguous run of its comma/conjunction parts.

    A line may copy one clause of a sentence ("write only in Telegram, I don't read mail") or the whole sentence
    ("use pnpm for every install, never npm"); comparing against a single comma fragment would lose the second
    half of the latter.
    """
    import re

    out: list[str] = []
    for sent in re.split(r"[.!?;\n]+", prompt):
        if not sent.strip():
            continue
        parts = [p for p in re.split(r",|\s(?=(?:and|but|и|но|а)\s)", sent) if p and p.strip()]
        if len(parts) > 12:
            parts = parts[:12]
        for i in range(len(parts)):
            for j in range(i + 1, len(parts) + 1):
                out.append(",".join(parts[i:j]))
    return out


def _signs(text: str | Line) -> dict[str, set[int]]:
    """Content concept -> the signs it carries in ``text`` (slots and generic words left out)."""
    from .concepts import analyze, lexicon

    lx = lexicon()
    out: dict[str, set[int]] = {}
    for cl in analyze(text).clauses:
        if cl.exception:
            continue
        for c in cl.direct:
            sg = cl.signs.get(c, 0)
            if sg and lx.kind.get(c) not in ("generic", "slot"):
                out.setdefault(c, set()).add(sg)
    return out


def _same_polarity(line: Line, prompt: str) -> bool:
    """The line keeps the polarity and modality of the prompt region it copies ("never X" is not "X is fine").

    The region is the sentence part the line copies most: the contiguous run of clauses with the most matched
    words, the shortest such run on a tie. Its negation parity and modality words must be the line's, and every
    concept both name must keep its sign ("use npm, never pnpm" does not copy "use pnpm, never npm").
    """
    line_stems = content_stems(line)
    best, best_key = None, None
    for region in _regions(prompt):
        stems = content_stems(region)
        pool = set(stems)
        n = sum(1 for st in line_stems if _stem_in(st, pool))
        if not n:
            continue
        key = (n, -len(stems))
        if best_key is None or key > best_key:
            best, best_key = region, key
    if best is None or _signature(line) != _signature(best):
        return False
    region_signs = _signs(best)
    for c, sg in _signs(line).items():
        if c in region_signs and not (sg <= region_signs[c]):
            return False
    # Dropping the user's scope ("Redis for staging until March" -> "use Redis") is not the user's words either.
    try:
        import unicodedata

        from .classify import find_scope

        if find_scope(unicodedata.normalize("NFC", best.strip())) and not find_scope(line.nfc, line.folded):
            return False
    except Exception:  # noqa: BLE001 - scope detection is best effort here
        pass
    return True


def classify_with_provenance(ws, session_id: str | None, text: str) -> Classification:
    """Classify ``text``; upgrade it to a verified DIRECTIVE/DECISION when it is the user's own words this turn."""
    return classify_with_prompt(text, current_prompt(ws, session_id))


def classify_with_prompt(text: str, prompt: str | None) -> Classification:
    """Classify ``text``; upgrade it to a verified DIRECTIVE/DECISION when it is ``prompt``'s own words (the
    user's turn, read once by a caller that classifies many lines)."""
    from .classify import classify
    from .line import prepare

    line = prepare(text)  # classify, analyze, the share and the scope all read this one prepared line
    base = classify(line)
    if not prompt:
        return base
    # only now: the concept analyser is a large import, and most writes have no prompt of this turn on record
    from .concepts import analyze

    hedged = any(r.startswith("hedged") for r in base.reasons) or analyze(line).hedged
    if hedged or base.tier is Tier.OBSERVATION:
        return base
    share, matched = provenance_share(line, prompt)
    if share < LINE_SHARE or matched < MIN_MATCHED:
        return base
    if not _same_polarity(line, prompt):
        return base
    scope = base.scope
    if scope is None:
        try:
            from .classify import find_scope

            scope = find_scope(line.nfc, line.folded)
        except Exception:  # noqa: BLE001 - scope detection is best effort here
            scope = None
        if scope and analyze(scope).universal:
            scope = None  # "for every install", «везде» widens a rule; it is not a scope
    tier = Tier.DECISION if scope else Tier.DIRECTIVE
    reason = f"verified: {share:.0%} of the line's words are the user's own from this turn ({matched} words)"
    return replace(base, tier=tier, scope=scope, confidence=round(0.76 + 0.24 * share, 3),
                   reasons=(reason, *base.reasons), verified=True)
