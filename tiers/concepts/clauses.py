"""Splitting a line's tokens into clauses (punctuation and boundary words)."""

from __future__ import annotations

from .words import _BOUNDARY_FIRST, _BOUNDARY_WORDS, _DASH_STOP, _EXCEPTION_WORDS, _SPLIT_PUNCT


#: a negation that opens a noun list ("no A, B or C", «никаких A, B и C», "avoid A, B and C", «нельзя A, B и C»):
#: the commas after it split no clause, so the denial covers every item
_LIST_NEGATION = frozenset({"no", "without", "никаких", "никакого", "никакой", "без", "ни", "avoid", "avoids",
                            "avoiding", "never", "not", "don't", "nothing", "except", "excluding", "нельзя", "не",
                            "избегать", "избегай", "кроме"})


#: negations that, right after a dash, open a clause of their own however short ("I'm vegetarian — no meat")
_DASH_NEGATION = frozenset({"no", "not", "never", "nothing", "не", "нет", "никаких", "никакого", "никакой", "никогда",
                            "ничего", "без"})
_LIST_AND = frozenset({"or", "and", "nor", "или", "и", "ни"})
_LIST_STOP = frozenset({"not", "no", "never", "n't", "не", "нет", "никогда", "is", "are", "was", "were"})


def _list_goes_on(texts: list[str], kinds: list[str], j: int) -> bool:
    """The words after a comma are more items of a list: a conjunction within a few words before the next mark
    other than a comma, and no negation or verb of being of their own ("crab or lobster dishes", not "Anna can't stand it")."""
    seen_and = False
    for k in range(j, min(j + 12, len(texts))):
        if kinds[k] == "punct":
            if texts[k] == "," and k - j < 6:
                continue  # "A, B, C and D": more items before the conjunction
            break
        if texts[k] in _LIST_STOP:
            return False
        seen_and |= texts[k] in _LIST_AND
    return seen_and


def _split_lists(texts: list[str], kinds: list[str], codes: list[bool],
                 cands: list[int]) -> list[tuple[int, int, bool]]:
    """Clause bounds (start, end, exception) of a token list. ``cands``: in order, the tokens that can end or start
    a clause (a punctuation mark of _SPLIT_PUNCT, a word of _BOUNDARY_FIRST); no other token does anything."""
    bounds: list[tuple[int, int, bool]] = []
    start = 0
    exception = False
    n = len(texts)
    skip_to = 0  # after a boundary of several words
    in_list = False  # inside a denied list: its next comma goes on with it
    for i in cands:
        if i < skip_to:
            continue
        t = texts[i]
        if kinds[i] == "punct" and t in _SPLIT_PUNCT:
            if t == ":" and i <= 3:
                continue
            if t == "," and (in_list or any(i - k >= start and texts[i - k] in _LIST_NEGATION for k in (2, 3))) \
                    and _list_goes_on(texts, kinds, i + 1):
                in_list = True
                continue  # "no shrimp, crab or lobster", «без сахара, мёда и сиропа»: a denied list goes on
            if t == "-":
                j = i + 1
                while j < n and not (kinds[j] == "punct" and texts[j] in _DASH_STOP):
                    j += 1
                if j - i - 1 <= 3 and not (i + 1 < n and texts[i + 1] in _DASH_NEGATION):
                    continue  # "X — Y" with a short Y is a copula («Кэш — Redis»), not a new clause; a Y that
                    # opens with its own negation ("vegetarian — no meat recipes") is one
            if i > start:  # an empty clause is dropped
                bounds.append((start, i, exception))
            start, exception, in_list = i + 1, False, False
            continue
        if kinds[i] == "word" and not codes[i] and t in _BOUNDARY_FIRST:
            hit = None
            for L in (3, 2, 1):
                key = tuple(texts[i:i + L])
                if len(key) == L and key in _BOUNDARY_WORDS:
                    hit = key
                    break
            if hit and i > start:
                bounds.append((start, i, exception))
                start, exception, in_list = i, hit in _EXCEPTION_WORDS, False
                skip_to = i + len(hit)
                continue
            if hit and i == start and hit in _EXCEPTION_WORDS:
                exception = True
    if n > start:
        bounds.append((start, n, exception))
    return bounds
