"""The eighth round of fast paths in the concept analysis equals the straightforward code it replaces.

Each fast path is compared with the plain form it stands for, on generated lines that reach its odd corners.
test_concepts_speed_equivalence.py compares whole analyses with the code as first written.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import concepts as c
from tiers.record import fields
from tiers.text import normalize

from test_concepts_speed7 import ODD
from test_concepts_speed_equivalence import LINES


def _field_values(record: object) -> dict:
    return {f.name: getattr(record, f.name) for f in fields(record)}


def test_new_clause_sets_every_field_as_the_generated_init_does() -> None:
    for start, end, exception in ((0, 1, False), (3, 9, True)):
        fast, plain = c._new_clause(start, end, exception), c.Clause(start, end, exception=exception)
        assert _field_values(fast) == _field_values(plain)
        assert fast == plain and repr(fast) == repr(plain)
        for name, value in _field_values(fast).items():
            assert type(value) is type(getattr(plain, name)), name
    one, two = c._new_clause(0, 1, False), c._new_clause(0, 1, False)
    for f in fields(one):  # no container is shared between clauses
        value = getattr(one, f.name)
        if isinstance(value, (set, dict, list)):
            assert value is not getattr(two, f.name), f.name


def test_new_analysis_sets_every_field_as_the_generated_init_does() -> None:
    args = dict(text="x", clauses=[c._new_clause(0, 1, False)], concepts=frozenset({"A"}), markers=frozenset(),
                values=[("TZ", "utc", 1)], hedged=False, report=True, mention=False, universal=True, indiff=False)
    fast, plain = c._new_analysis(*args.values()), c.Analysis(**args)
    assert _field_values(fast) == _field_values(plain)
    assert fast == plain and repr(fast) == repr(plain)
    assert fast.fx is None


@settings(max_examples=1500, deadline=None)
@given(st.one_of(LINES, ODD))
def test_only_punctuation_tokens_have_punctuation_texts(text: str) -> None:
    # _token_info gives a text of _PUNCT_TEXTS no pattern entry, which stands for _scan_starts' old test of the
    # token's kind: the two must pick the same tokens.
    for tok in c.tokenize(normalize(text)):
        assert (tok.kind == "punct") == (tok.text in c._PUNCT_TEXTS), tok


def test_no_pattern_of_the_lexicon_starts_with_a_punctuation_text() -> None:
    lx = c.lexicon()
    for exact, prefix in ((lx.marker, lx.marker_prefix), (lx.content, lx.content_prefix)):
        for t in c._PUNCT_TEXTS:
            assert c._scan_entry(t, exact, prefix) is None, t
            assert c._token_info(t, lx, {})[4:] == (None, None)


def _split_plainly(texts: list[str], kinds: list[str], codes: list[bool]) -> list:
    """_split_lists over every token (not only its candidates)."""
    return c._split_lists(texts, kinds, codes, list(range(len(texts))))


@settings(max_examples=1500, deadline=None)
@given(st.one_of(LINES, ODD))
def test_split_lists_gives_no_empty_clause(text: str) -> None:
    toks = c.tokenize(normalize(text))
    texts, kinds, codes = [t.text for t in toks], [t.kind for t in toks], [t.code for t in toks]
    bounds = _split_plainly(texts, kinds, codes)
    assert all(e > s for s, e, _ in bounds)
    assert [b[:2] for b in bounds] == sorted(b[:2] for b in bounds)


def test_flags_tested_per_token_are_small_ints() -> None:
    for mask in (c._F_MARKER, c._F_CONTENT, c._K_LEXICAL, c._SPLIT_ROLE, c._VALUE_ROLE, c._F_CONT):
        assert 0 < mask < 256
    bits = [getattr(c, n) for n in dir(c) if n.startswith(("_F_", "_K_")) and isinstance(getattr(c, n), int)]
    assert len(bits) == len(set(bits)) and all(b & (b - 1) == 0 for b in bits)


CLOCK_PARTS = st.text(alphabet="0123456789", min_size=0, max_size=5)


@settings(max_examples=2000, deadline=None)
@given(CLOCK_PARTS, st.sampled_from([":", ";", "::", ":x", ""]), CLOCK_PARTS,
       st.sampled_from(["", ".", ",", ";", ":", "!", "?", "%", "x"]), st.sampled_from(["first", "middle", "last", "only"]))
def test_clock_chunks_tokenize_as_the_pattern_does(head: str, colon: str, tail: str, closing: str, where: str) -> None:
    chunk = head + colon + tail + closing
    if not chunk:
        return
    lx = c.lexicon()
    ctx = {"first": chunk + " ", "middle": " " + chunk + " ", "last": " " + chunk, "only": chunk}[where]
    fast = c._fast_chunk(chunk, {}, lx)
    if fast is not c._IN_CONTEXT:
        assert fast == c._chunk_record(c._chunk_tokens(ctx), {}, lx), ctx
    core = chunk[:-1] if chunk[-1:] in c._CLOSING else chunk
    toks = c._clock_tokens(core)
    if toks is not None and chunk[-1:] != ":":
        assert toks + (((chunk[-1], "punct"),) if core is not chunk else ()) == c._chunk_tokens(ctx), ctx


def test_clock_chunks_of_the_workspace_shapes() -> None:
    lx = c.lexicon()
    for chunk in ["22:00.", "3658:00.", "764:00.", "5:30", "12:345", "1:2", "00:00,", "12:30:", "12:30!", "٣:٣٠"]:
        for ctx in (chunk, " " + chunk, chunk + " ", " " + chunk + " "):
            fast = c._fast_chunk(chunk, {}, lx)
            if fast is not c._IN_CONTEXT:
                assert fast == c._chunk_record(c._chunk_tokens(ctx), {}, lx), ctx
    assert c._fast_chunk("3658:00.", {}, lx) is not c._IN_CONTEXT
    assert c._fast_chunk("12:30:", {}, lx) is c._IN_CONTEXT


LABEL_TEXTS = st.lists(st.sampled_from(["user", "пользовател", "decided", "agreed", "решили", "решено", "просьба",
                                        "decision", "договорились", "said", "ь", "x", " ", "  ", ":", ": ", "\t",
                                        "\x1c", "\x85", "\xa0", "\u1680", "\u180e", "\u2028", "\u3000", "é", "\u1c80",
                                        "a" * 15, "b" * 7]),
                       min_size=1, max_size=14).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(LABEL_TEXTS, LINES, ODD))
def test_provenance_label_end_is_where_the_pattern_match_ends(text: str) -> None:
    for t in (text, normalize(text), text + ": x", "user said:" + text):
        if ":" in t:
            assert t[c._provenance_label_end(t):] == c._PROVENANCE_LABEL.sub("", t, count=1), repr(t)


def test_provenance_label_bounds() -> None:
    for pad_before in (0, 39, 40, 41):
        for pad_after in (0, 19, 20, 21):
            t = "x" * pad_before + "user" + "y" * pad_after + ":  value"
            assert t[c._provenance_label_end(t):] == c._PROVENANCE_LABEL.sub("", t, count=1), t
    assert c._provenance_label_end("user said:value") == 0  # no blank after the colon
    assert c._provenance_label_end("user said: value") == len("user said: ")


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_may_have_upper_of_ascii_text_is_any_upper_case_letter(text: str) -> None:
    assert c._may_have_upper(text) == any(map(str.isupper, text))


MONTH_WORDS = ["jan", "march", "15", "3", "10th", "мая", "января", "report.jan", "notes.dec", "every", "month", "on",
               "the", "31", "2024", "may", "июнь", "deploy", "v2", "12:30", ",", "sept", "ежемесячно"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(MONTH_WORDS), min_size=1, max_size=8).map(" ".join))
def test_lines_with_months_and_numbers_equal_the_reference(text: str) -> None:
    # the MONTH gate (_F_MONTH_ID, an extension naming MONTH) rules out _near_month_at's search only where it
    # would find nothing
    from test_concepts_speed_equivalence import _same

    _same(text)
