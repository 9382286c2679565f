"""The memos of the concept analysis: what depends on a token text or a concept id alone, computed once."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed


if TYPE_CHECKING:
    from .tables import Lexicon


#: id(owner) -> (owner, memo): for each prefix table, token text -> candidate patterns; for the owners of _memo(),
#: their memos. The owner is kept so an id is never reused.
_PATTERN_MEMO: dict[int, tuple[dict, dict]] = {}


# ---------------------------------------------------------------------------------------------------------------
# The per-line analysis. A line has ~10 tokens, most of them ordinary words that only the pattern scan and the
# concept loop care about. So what depends on a token's text alone (its flags, pattern candidates, stem, date
# shapes) or on a concept id alone (kind, parents, antonym) is computed once per distinct text or id, and each
# per-token stage visits only the tokens whose flags say it can do something.
# ---------------------------------------------------------------------------------------------------------------

def _memo(owner: object) -> dict:
    """The content memo belonging to ``owner`` (a lexicon table, or the function whose results it holds).

    All of them live in _PATTERN_MEMO, which the lint benchmark's forget_memos() clears with the rest."""
    got = _PATTERN_MEMO.get(id(owner))
    if got is None or got[0] is not owner:
        got = _PATTERN_MEMO[id(owner)] = (owner, {})
    elif len(got[1]) >= 100_000:
        got[1].clear()
    return got[1]


def _line_memos(lx: Lexicon) -> tuple[dict, dict, dict, dict, dict, dict, dict, dict, dict]:
    """The memos of the per-line analysis, fetched once per line: chunk tokens, text infos, concept infos, lexical
    ids, marker and content pattern entries, then the chunk records of _line_tokens (by chunk, by chunk in its
    context) and each concept's _weight_and_content, all tied to the lexicon they were built from."""
    got = _PATTERN_MEMO.get(id(lx))
    if got is None or got[0] is not lx:
        got = _PATTERN_MEMO[id(lx)] = (lx, ({}, {}, {}, {}, {}, {}, {}, {}, {}))
    memos = got[1]
    if max(map(len, memos)) >= 100_000:
        for m in memos:
            if len(m) >= 100_000:
                m.clear()
    return memos
