"""Matching the lexicon's pattern tables against a line's tokens."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed

from .memos import _PATTERN_MEMO
from .tables import _decode_entries
from .words import DAY_GROUPS

if TYPE_CHECKING:
    from .tables import Lexicon
    from .tokens import Token


def _entries(table: dict, key: str) -> list:
    """The (pattern, ids) entries of ``table`` for a first token, decoded from the shipped form on first use."""
    lst = table.get(key)
    if lst.__class__ is str:
        lst = table[key] = _decode_entries(lst)
    return lst


def _patterns_for(t: str, exact: dict, prefix: dict, memo: dict) -> list:
    """Every pattern whose first element can match token text ``t``: exact ones, then prefixes longest first."""
    cands = memo.get(t)
    if cands is None:
        cands = list(_entries(exact, t) or ())
        get = prefix.get
        for n in range(min(len(t), prefix.longest), 1, -1):  # no longer prefix is a key: a long token is linear
            lst = get(t[:n])  # _entries(prefix, t[:n]), without a call for each prefix that has none
            if lst:
                cands.extend(_entries(prefix, t[:n]) if lst.__class__ is str else lst)
        if len(memo) >= 100_000:
            memo.clear()
        memo[t] = cands
    return cands


def _match_at(tokens: list[Token], i: int, exact: dict, prefix: dict, skip_code: bool) -> tuple[int, set[str]]:
    """Longest pattern starting at token i: (length, ids). Exact first elements beat prefix ones of equal length."""
    tok = tokens[i]
    if tok.kind == "punct" or (skip_code and tok.code):
        return 0, set()
    best_len, best_ids, best_exact = 0, set(), False
    memo = _PATTERN_MEMO.get(id(prefix))
    if memo is None or memo[0] is not prefix:
        memo = _PATTERN_MEMO[id(prefix)] = (prefix, {})
    cands = _patterns_for(tok.text, exact, prefix, memo[1])
    for pat, ids in cands:
        n = len(pat)
        if i + n > len(tokens):
            continue
        ok = True
        for k, (el, is_prefix) in enumerate(pat):
            tk = tokens[i + k]
            if tk.kind == "punct" or (skip_code and tk.code):
                ok = False
                break
            if is_prefix:
                if not tk.text.startswith(el):
                    ok = False
                    break
            elif tk.text != el:
                ok = False
                break
        if not ok:
            continue
        is_exact = not pat[-1][1]
        if n > best_len or (n == best_len and is_exact and not best_exact):
            best_len, best_ids, best_exact = n, set(ids), is_exact
        elif n == best_len and is_exact == best_exact:
            best_ids |= set(ids)
    return best_len, best_ids


def _scan(tokens: list[Token], exact: dict, prefix: dict, skip_code: bool) -> list[tuple[int, int, set[str]]]:
    out = []
    i = 0
    memo = _PATTERN_MEMO.get(id(prefix))
    if memo is None or memo[0] is not prefix:
        memo = _PATTERN_MEMO[id(prefix)] = (prefix, {})
    known = memo[1]
    while i < len(tokens):
        if not known.get(tokens[i].text, True):
            i += 1  # no pattern starts with this token (most words): nothing to try
            continue
        n, ids = _match_at(tokens, i, exact, prefix, skip_code)
        if n:
            out.append((i, i + n, ids))
            i += n
        else:
            i += 1
    return out


def _scan_entry(t: str, exact: dict, prefix: dict):
    """The patterns that can start at a token with text ``t``, prepared for _scan_starts: None when there are none,
    else (length, ids) of the best one-token pattern (each of them matches wherever ``t`` stands: its only element
    is ``t`` or a prefix of it) and the longer patterns as (later elements, ids, length, exact). Built with the
    selection rule of _match_at, in its candidate order."""
    cands = _patterns_for(t, exact, prefix, {})
    if not cands:
        return None
    best_len, best_ids, best_exact = 0, set(), False
    multi = []
    by_second: dict[str, list] = {}
    prefix_second = []
    for pat, ids in cands:
        is_exact = not pat[-1][1]
        if len(pat) > 1:
            item = (pat[1:], ids, len(pat), is_exact, len(multi))
            multi.append(item)
            second, second_is_prefix = pat[1]
            if second_is_prefix:
                prefix_second.append(item)
            else:
                by_second.setdefault(second, []).append(item)
        elif best_len == 0 or (is_exact and not best_exact):
            best_len, best_ids, best_exact = 1, set(ids), is_exact
        elif is_exact == best_exact:
            best_ids |= set(ids)
    return (best_len, best_ids, tuple(multi), {k: tuple(v) for k, v in by_second.items()}, tuple(prefix_second))


def _order(item: tuple) -> int:
    return item[4]


def _second_matches(entry: tuple, nxt: str) -> tuple:
    """The longer patterns of a _scan_entry whose second element matches the token text ``nxt`` (equal to it, or
    a prefix of it), in the entry's candidate order: no other can match where ``nxt`` follows."""
    got = entry[3].get(nxt, ())
    if entry[4]:
        more = tuple(item for item in entry[4] if nxt.startswith(item[0][0][0]))
        if more:
            got = tuple(sorted(got + more, key=_order)) if got else more
    return got


def _table_spans(texts: list[str], kinds: list[str], codes: list[bool], infos: list[tuple], flag: int, slot: int,
                 skip_code: bool) -> list[tuple[int, int, set[str]]]:
    """``_scan`` of one pattern table (marker: ``_F_MARKER``, slot 4; content: ``_F_CONTENT``, slot 5) over the
    parallel token lists and their ``_token_info``s, visiting only the tokens where one of its patterns can start."""
    starts = [k for k, info in enumerate(infos) if info[0] & flag and kinds[k] != "punct"]
    return _scan_starts(texts, kinds, codes, infos, slot, starts, skip_code)


def _scan_starts(texts: list[str], kinds: list[str], codes: list[bool], infos: list[tuple], slot: int,
                 starts, skip_code: bool) -> list[tuple[int, int, set[str]]]:
    """``_scan`` over parallel token lists, with each text's candidates prepared once (_scan_entry, kept at
    ``infos[k][slot]``). ``starts``: in order, the tokens whose entry is not None (no pattern starts elsewhere), no
    punctuation mark among them (_token_info gives those no entry); ``skip_code`` may be False when no token is in
    a code span.

    A longer pattern that matches always beats the one-token ones, so these decide only when none does. The
    returned id sets may be shared between lines: callers never change them."""
    out = []
    n_tok = len(texts)
    i = 0
    for i0 in starts:
        if i0 < i or (skip_code and codes[i0]):
            continue
        i = i0
        entry = infos[i][slot]
        if entry[2] and i + 1 < n_tok:
            multi = _second_matches(entry, texts[i + 1]) if entry[4] else entry[3].get(texts[i + 1], ())
            if multi:
                best_len = 0
                best_ids: set[str] = set()
                best_exact = False
                for rest, ids, n, is_exact, _ in multi:
                    if i + n > n_tok:
                        continue
                    k = i
                    for el, is_prefix in rest:
                        k += 1
                        if kinds[k] == "punct" or (skip_code and codes[k]) or \
                                (not texts[k].startswith(el) if is_prefix else texts[k] != el):
                            break
                    else:
                        if n > best_len or (n == best_len and is_exact and not best_exact):
                            best_len, best_ids, best_exact = n, set(ids), is_exact
                        elif n == best_len and is_exact == best_exact:
                            best_ids |= set(ids)
                if best_len:
                    out.append((i, i + best_len, best_ids))
                    i += best_len
                    continue
        if entry[0]:  # no longer pattern matched: the best one-token one, if any
            out.append((i, i + 1, entry[1]))
        i += 1
    return out


def _cid_info(lx: Lexicon, cid: str) -> tuple:
    """(kind, ((id, canonical id, flip) for the id and each of its parents), slot, is a day, kind for clause
    merging, the first link of that chain, the others) of a concept id."""
    chain = tuple((c, *lx.canon(c)) for c in (cid, *lx.expand(cid)))
    return (lx.kind.get(cid), chain, lx.slot_of.get(cid), cid in DAY_GROUPS,
            lx.kind.get(cid, "lexical" if cid.startswith("w:") else "object"), chain[0], chain[1:])
