"""INSIGHTS.md: exact round trips, tolerance for hand edits, clear file:line errors on broken entries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from personality_data import CHITIN_SET, insights, make, seeded, text_values, ws  # noqa: F401 - fixtures

from personality import store
from personality.model import Insight, InsightType, Provenance
from personality.store import InsightsFile, parse, render
from tiers.errors import ParseError


def test_chitin_set_round_trips_exactly():
    doc = InsightsFile(CHITIN_SET)
    assert parse(render(doc)) == doc
    assert render(parse(render(doc))) == render(doc)


@pytest.mark.parametrize(
    "claim",
    [
        "plain claim",
        "  leading and trailing spaces  ",
        "two\nlines",
        '"starts with a quote"',
        "",
        "ends with a backslash \\",
        "Я использую сухой юмор умеренно — ёжик «ёлочки»",
        "emoji 🦞 and CJK 漢字",
        "tab\tinside",
        "line\u2028separator",
        "# looks like a heading",
        "## looks like an entry heading",
        "- field: looks like a field",
        "<!-- html comment -->",
        "trailing CR\r",
        "nul \x00 and escape \x1b",
    ],
    ids=[
        "plain", "spaces", "newline", "quote", "empty", "backslash", "russian", "emoji", "tab", "u2028",
        "heading", "entry-heading", "field-like", "comment", "cr", "control",
    ],
)
def test_any_string_value_round_trips(claim, ws):
    ins = make("abc1", "behavioral", "x", 0.5, context=claim, reasoning=claim, tags=(claim,) if claim else ())
    doc = InsightsFile((ins,))
    assert parse(render(doc)) == doc
    store.save(ws.root / "INSIGHTS.md", doc)  # and through a real file (no NUL bytes ever reach the disk)
    assert store.load(ws) == doc


def test_tags_with_commas_use_a_json_array():
    ins = make("abc1", "skill", "c", 0.5, tags=("a,b", "c"))
    text = render(InsightsFile((ins,)))
    assert '- tags: ["a,b", "c"]' in text
    assert parse(text).insights[0].tags == ("a,b", "c")


def test_exact_floats_are_kept():
    ins = make("abc1", "skill", "c", 0.8574999999999999)
    text = render(InsightsFile((ins,)))
    assert "- confidence: 0.8574999999999999" in text
    assert parse(text).insights[0].confidence == 0.8574999999999999


HAND_EDITED = """\
# My insights

Some notes the human keeps here.

## hand-1

* Claim:   Always run the tests before pushing
- TYPE: skill


- confidence: 0.9
+ tags: testing ,  git,,
- reinforcementCount: 3
- createdAt: 2026-01-02T03:04:05Z
- provenance: Directive

## hand-2
- type: trigger
- claim: "check the channel history"
- condition: context compacted
- avoid: no
- confidence: 1
"""


def test_hand_edited_file_parses_with_reordered_fields_and_blank_lines():
    doc = parse(HAND_EDITED)
    a, b = doc.insights
    assert a == Insight(
        id="hand-1", type=InsightType.SKILL, claim="Always run the tests before pushing", confidence=0.9,
        tags=("testing", "git"), provenance=Provenance.DIRECTIVE, reinforcement_count=3,
        created_at="2026-01-02T03:04:05Z",
    )
    assert b.type is InsightType.TRIGGER and b.condition == "context compacted" and b.avoid is False
    assert doc.preamble == "# My insights\n\nSome notes the human keeps here."
    assert doc.lines == {"hand-1": 5, "hand-2": 17}
    # normalised on the next write, and stable from then on
    again = render(doc)
    assert parse(again) == doc
    assert again.startswith("# My insights\n\nSome notes the human keeps here.\n\n## hand-1\n- type: skill\n")


def test_crlf_and_bom_are_tolerated():
    text = "\ufeff" + render(InsightsFile(CHITIN_SET[:2])).replace("\n", "\r\n")
    assert parse(text).insights == CHITIN_SET[:2]


def test_empty_file_and_preamble_only():
    assert parse("").insights == ()
    doc = parse("# Insights\n\n")
    assert doc.insights == () and doc.preamble == "# Insights"
    assert render(InsightsFile((), "")) == ""


BROKEN = [
    ("## a1\n- type: behavioral\n- claim: x\n- confidence: 1.5\n", "F.md:4: confidence 1.5 is out of range"),
    ("## a1\n- type: behavioral\n- claim: x\n- confidence: abc\n", "F.md:4: invalid confidence 'abc'"),
    ("## a1\n- type: behavioral\n- claim: x\n- confidence: nan\n", "F.md:4: invalid confidence"),
    ("## a1\n- type: feeling\n- claim: x\n- confidence: 0.5\n", "F.md:2: unknown insight type 'feeling'"),
    ("## a1\n- type: skill\n- confidence: 0.5\n", "F.md:1: insight 'a1' has no claim"),
    ("## a1\n- type: skill\n- claim: x\n", "F.md:1: insight 'a1' has no confidence"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- colour: red\n", "F.md:5: unknown field 'colour'"),
    ("## a1\n- type: skill\n- claim: x\n- claim: y\n- confidence: 0.5\n", "F.md:4: field 'claim' given twice"),
    ("## a1\n- type: skill\nfree text here\n", "F.md:3: unexpected text 'free text here' inside insight 'a1'"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n## a1\n", "F.md:5: duplicate insight id 'a1'"),
    ("## a b\n", "F.md:1: malformed entry heading"),
    ("## a1\n- type: skill\n- claim: \"unterminated\n- confidence: 0.5\n", "F.md:3: claim: value starts with '\"'"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- avoid: maybe\n", "F.md:5: avoid: expected true or false"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- created: yesterday\n", "F.md:5: invalid created"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- updated: 2026-13-45 10:00:00\n", "F.md:5: invalid updated"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- reinforcements: -1\n", "F.md:5: invalid reinforcement"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- provenance: rumor\n", "F.md:5: unknown provenance"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: 0.5\n- tags: [1, 2]\n", "F.md:5: tags must be a list of strings"),
    ("## a1\n- type: skill\n- claim:   \n- confidence: 0.5\n", "F.md:3: claim must not be empty"),
    ("## a1\n- type: skill\n- claim: x\n- confidence: true\n", "F.md:4: invalid confidence"),
]


@pytest.mark.parametrize("text, message", BROKEN, ids=[m.split(": ", 1)[1][:40] for _, m in BROKEN])
def test_broken_entries_name_file_and_line(text, message):
    with pytest.raises(ParseError) as info:
        parse(text, "F.md")
    assert str(info.value).startswith(message), str(info.value)


def test_save_is_atomic_and_load_missing_is_empty(ws):
    assert store.load(ws) == InsightsFile()
    path = ws.root / "INSIGHTS.md"
    store.save(path, InsightsFile(CHITIN_SET))
    assert store.load(ws).insights == CHITIN_SET
    assert not [p for p in ws.root.iterdir() if p.name.endswith(".tmp")]


def test_editing_writes_nothing_when_an_operation_fails(seeded):
    path = seeded.root / "INSIGHTS.md"
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        with store.editing(seeded) as box:
            box[0] = InsightsFile(())
            raise RuntimeError("boom")
    assert path.read_bytes() == before


def test_non_utf8_file_is_a_clear_error(ws):
    (ws.root / "INSIGHTS.md").write_bytes(b"## a1\n- claim: \xff\n")
    with pytest.raises(ParseError, match="INSIGHTS.md: not UTF-8"):
        store.load(ws)


# -- properties ------------------------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.lists(insights(), max_size=5, unique_by=lambda i: i.id), text_values)
def test_property_parse_render_round_trip(items, preamble_text):
    preamble = "\n".join(l for l in preamble_text.splitlines() if not l.startswith("## ")).rstrip()
    preamble = "\n".join(line.rstrip("\r") for line in preamble.split("\n")).rstrip()
    doc = InsightsFile(tuple(items), preamble if preamble.strip() else "")
    text = render(doc)
    back = parse(text)
    assert back.insights == doc.insights
    assert render(back) == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_property_parser_raises_only_parse_errors(text):
    try:
        parse(text)
    except ParseError:
        pass


def test_public_names_resolve_and_never_shadow_submodules():
    import importlib

    import personality

    for name in personality.__all__:
        assert getattr(personality, name) is not None
        assert importlib.util.find_spec(f"personality.{name}") is None, f"{name} shadows a submodule"
    assert personality.parse_insights is parse and personality.render_insights is render


def test_check_reports_every_broken_entry_with_its_line():
    from personality.store import check

    text = (
        "# Insights\n\n"
        "## a1\n- type: skill\n- claim: ok\n- confidence: 0.5\n\n"
        "## a2\n- type: feeling\n- claim: x\n- confidence: 0.5\n\n"
        "## a3\n- type: skill\n- claim: y\n- confidence: 2\n\n"
        "## a1\n- type: skill\n- claim: z\n- confidence: 0.5\n"
    )
    assert check(text, "F.md") == [
        "F.md:9: unknown insight type 'feeling'; expected one of behavioral, personality, relational, principle, "
        "skill, trigger",
        "F.md:16: confidence 2 is out of range; expected a number between 0 and 1",
        "F.md:18: duplicate insight id 'a1' (first at line 3); give one of them a new id or merge them",
    ]
    assert check(render(InsightsFile(CHITIN_SET))) == []


@pytest.mark.parametrize(("raw", "tags"), [
    ("[style]", ("style",)),
    ("[style, tone ]", ("style", "tone")),
    ("[]", ()),
], ids=["one-bracketed-plain-tag", "several-bracketed-plain-tags", "empty-list"])
def test_hand_written_bracketed_tags_are_read_as_plain_tags(raw, tags):
    from personality.store import _parse_tags

    assert _parse_tags(raw, "INSIGHTS.md:7: ") == tags


def test_bracketed_tags_with_a_broken_quote_are_still_an_error():
    from personality.store import _parse_tags
    from tiers.errors import ParseError

    with pytest.raises(ParseError, match="not a valid JSON array"):
        _parse_tags('["style, tone]', "INSIGHTS.md:7: ")
