"""Splitting a line's tokens into clauses (punctuation and boundary words)."""

from __future__ import annotations

from .words import _BOUNDARY_FIRST, _BOUNDARY_WORDS, _DASH_STOP, _EXCEPTION_WORDS, _SPLIT_PUNCT


def _split_lists(texts: list[str], kinds: list[str], codes: list[bool],
                 cands: list[int]) -> list[tuple[int, int, bool]]:
    """Clause bounds (start, end, exception) of a token list. ``cands``: in order, the tokens that can end or start
    a clause (a punctuation mark of _SPLIT_PUNCT, a word of _BOUNDARY_FIRST); no other token does anything."""
    bounds: list[tuple[int, int, bool]] = []
    start = 0
    exception = False
    n = len(texts)
    skip_to = 0  # after a boundary of several words
    for i in cands:
        if i < skip_to:
            continue
        t = texts[i]
        if kinds[i] == "punct" and t in _SPLIT_PUNCT:
            if t == ":" and i <= 3:
                continue
            if t == "-":
                j = i + 1
                while j < n and not (kinds[j] == "punct" and texts[j] in _DASH_STOP):
                    j += 1
                if j - i - 1 <= 3:
                    continue  # "X — Y" with a short Y is a copula («Кэш — Redis»), not a new clause
            if i > start:  # an empty clause is dropped
                bounds.append((start, i, exception))
            start, exception = i + 1, False
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
                start, exception = i, hit in _EXCEPTION_WORDS
                skip_to = i + len(hit)
                continue
            if hit and i == start and hit in _EXCEPTION_WORDS:
                exception = True
    if n > start:
        bounds.append((start, n, exception))
    return bounds
