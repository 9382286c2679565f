"""The seventh round of fast paths in the concept analysis equals the straightforward code it replaces.

Each fast path is compared with the plain form it stands for, on generated lines that reach its odd corners
(code spans, non-plain characters, a "+", chunks with closing marks, one-chunk lines) and on a memo that is warm.
test_concepts_speed_equivalence.py compares whole analyses with the code as first written.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import concepts as c
from tiers.text import normalize

from test_concepts_speed_equivalence import LINES, WORDS

ODD = st.lists(st.sampled_from(list("ab1: .,-+`'/(*)@ _=\u00e9\u0436\u2014\u1c80\u00a0") + ["s ", "http://", "ed ",
                                                                                         "user", "default"]),
               max_size=30).map("".join)


def _plain_line_tokens(norm: str) -> tuple:
    """What _line_tokens stands for: tokenize, then each token's _token_info and kind bits."""
    lx = c.lexicon()
    toks = c.tokenize(norm)
    infos = [c._token_info(t.text, lx, {}) for t in toks]
    flags = [info[0] | c._kind_bits(t.kind, info[0]) for t, info in zip(toks, infos)]
    line_flags = 0
    for f in flags:
        line_flags |= f
    return ([t.text for t in toks], [t.kind for t in toks], [t.code for t in toks], infos, flags, line_flags)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(LINES, ODD))
def test_line_tokens_equal_tokenize_with_token_infos(text: str) -> None:
    norm = normalize(text)
    lx = c.lexicon()
    memos = c._line_memos(lx)
    expected = _plain_line_tokens(norm)
    assert c._line_tokens(norm, memos, lx) == expected
    assert c._line_tokens(norm, memos, lx) == expected  # from the chunk records stored by the first call


def test_line_tokens_of_code_spans_and_edges() -> None:
    lx = c.lexicon()
    for text in ["`main`", "use `git push` on main.", "a ` b ` c", "``", "x`y z`", "- a -", ":", "a:", "12:30",
                 "1.", "v2!", "ok, then", "`a b", "a+b c", "call +7 999 123-45-67", "tab\there"]:
        norm = normalize(text)
        assert c._line_tokens(norm, c._line_memos(lx), lx) == _plain_line_tokens(norm), text


def _second_matches_plainly(entry: tuple, nxt: str) -> tuple:
    return tuple(item for item in entry[2]
                 if (nxt.startswith(item[0][0][0]) if item[0][0][1] else nxt == item[0][0][0]))


def test_second_element_index_finds_the_patterns_a_next_token_can_continue() -> None:
    lx = c.lexicon()
    nexts = sorted({w.lower() for w in WORDS} | {"said", "asked", "the", "user", "пользователя", "сказал", "a", ""})
    seen = 0
    for exact, prefix in ((lx.marker, lx.marker_prefix), (lx.content, lx.content_prefix)):
        for first in list(exact)[:400] + list(prefix)[:200]:
            entry = c._scan_entry(first, exact, prefix)
            if entry is None or not entry[2]:
                continue
            seconds = {item[0][0][0] for item in entry[2]}
            for nxt in nexts + sorted(seconds) + [s + "x" for s in seconds]:
                assert c._second_matches(entry, nxt) == _second_matches_plainly(entry, nxt), (first, nxt)
                seen += 1
    assert seen > 1000


@settings(max_examples=1500, deadline=None)
@given(st.one_of(LINES, ODD))
def test_keyed_prefilters_pass_every_match(text: str) -> None:
    for t in (text, normalize(text), text.strip().strip("*_ ")):
        assert c._holds_keyed_need(t) == any(w in t for w in c._KEYED_NEEDS)
        assert c._holds_name_need(t) == any(w in t for w in c._NAME_NEEDS)
        if ":" in t and c._PROVENANCE_LABEL.match(t):
            assert c._may_be_provenance_label(t)
        if c._LABEL_VALUE.match(t):
            assert c._may_be_label_value(t)


def test_keyed_prefilters_on_labels() -> None:
    for t in ["default editor: vs code", "editor = vim", "default branch name - main", "a b c: d",
              "a-b c\u00a0d : e", "x \u2014 y", "user said: x", "per user: x: y", "the svc1 team meets at 9:30",
              "decided with the user: use x for y", "пользователь сказал: отчеты до 10:00", "a:b:c"]:
        if ":" in t and c._PROVENANCE_LABEL.match(t):
            assert c._may_be_provenance_label(t), t
        if c._LABEL_VALUE.match(t):
            assert c._may_be_label_value(t), t
    assert not c._may_be_label_value("the svc275 team meets on friday at 9549:30")
    assert not c._may_be_provenance_label("the svc275 team meets on friday at 9549:30")


def _num_keys_plainly(concept_at, span_end, kind) -> dict:
    keys: dict[int, str] = {}
    for kk, ids in concept_at:
        cands = None
        for j in range(kk, span_end.get(kk, kk + 1)):
            if j not in keys:
                if cands is None:
                    cands = [x for x in ids if kind.get(x) not in {"generic", "qualifier"}]
                if cands:
                    keys[j] = min(cands)
    return keys


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(1, 3),
                          st.sets(st.sampled_from(["A", "B", "G", "Q", "w:x", "w:y"]), min_size=1, max_size=3)),
                max_size=6))
def test_number_keys_equal_the_plain_loop(spans) -> None:
    kind = {"A": "action", "B": "object", "G": "generic", "Q": "qualifier"}
    concept_at = sorted(((s, ids) for s, _, ids in spans), key=lambda x: x[0])
    span_end = {s: s + n for s, n, _ in spans if n > 1}
    assert c._num_keys(concept_at, span_end, kind) == _num_keys_plainly(concept_at, span_end, kind)


def test_clause_finish_equals_the_plain_weights() -> None:
    for line in ["User said: never deploy svc260 on Friday.", "HTTP is fine without HTTPS (for now), even on main",
                 "Пользователь сказал: отчёты по svc218 присылай до 3658:00.", "no tabs; spaces only"]:
        c._analyze_cached.cache_clear()
        for cl in c.analyze(line).clauses:
            lx = c.lexicon()
            wmap = {}
            for x in cl.signs:
                w = lx.weight(x) * (1.0 if x in cl.direct else c.BROADER_FACTOR) * (0.5 if x in cl.soft else 1.0)
                wmap[x] = w
            content = tuple(x for x in cl.signs if lx.kind.get(x) not in ("generic", "slot"))
            cov_w = {x: wmap[x] * (1.5 if x in cl.antonymic else 1.0) for x in content}
            assert (cl.wmap, cl.content, cl.cov_w, cl.content_total) == (wmap, content, cov_w, sum(cov_w.values()))
