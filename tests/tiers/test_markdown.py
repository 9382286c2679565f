"""The Markdown line model: golden line kinds, byte-exact round trips and line replacement."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers.errors import ParseError, UsageError
from tiers.markdown import KINDS, memory_lines, parse_document

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = sorted(FIXTURES.glob("*.md"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_line_kinds_match_golden_file(path: Path) -> None:
    expected = [tuple(row.split(" ", 1)) for row in path.with_suffix(".kinds").read_text().splitlines()]
    doc = parse_document(path.read_bytes())
    assert [(str(line.number), line.kind) for line in doc.lines] == expected


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_fixture_round_trips_in_every_line_ending(path: Path) -> None:
    data = path.read_bytes()
    for eol in (b"\r\n", b"\r"):
        variant = data.replace(b"\n", eol)
        doc = parse_document(variant)
        assert doc.render() == variant
        assert [line.kind for line in doc.lines] == [line.kind for line in parse_document(data).lines]


def test_only_paragraph_and_list_content_is_memory() -> None:
    doc = parse_document((FIXTURES / "structure.md").read_bytes())
    assert [line.number for line in doc.memory_lines()] == [7, 8, 30]
    assert {line.kind for line in doc.lines} <= set(KINDS)


def test_line_properties_split_stamp_and_markup() -> None:
    line = parse_document(b"- [x] **Rule (from user):** no emojis <!--cu:Dabcde@1#abcdef-->\n").lines[0]
    assert line.content == "- [x] **Rule (from user):** no emojis"
    assert line.body == "Rule (from user): no emojis"
    assert line.stamp is not None and line.stamp.id == "abcde"
    assert line.stamp_error is None
    bad = parse_document("- x <!-- cu:Q -->").lines[0]
    assert bad.stamp is None and "tier letter" in bad.stamp_error


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"no newline", b"a\r\nb\rc\nd", b"\xef\xbb\xbf# BOM\n- x\n", b"- caf\xe9 latin-1\n",
     b"\xff\xfe\x00binary-ish\n", b"---\nunclosed: front matter\n", b"\n\n\n", b"- x\x00y\n"],
    ids=["empty", "newline", "no-final-eol", "mixed-eol", "bom", "latin1", "utf16-bom", "unclosed-frontmatter",
         "blank-lines", "nul"],
)
def test_render_gives_back_the_exact_bytes(data: bytes) -> None:
    assert parse_document(data).render() == data


def test_non_utf8_input_is_flagged_and_kept() -> None:
    doc = parse_document(b"- caf\xe9\n")
    assert doc.encoding == "utf-8+surrogateescape"
    assert doc.lines[0].is_memory
    assert doc.render() == b"- caf\xe9\n"


def test_bom_is_remembered_not_shown() -> None:
    doc = parse_document(b"\xef\xbb\xbf- x\n")
    assert doc.bom and doc.lines[0].text == "- x"


def test_with_texts_replaces_text_and_keeps_eols() -> None:
    doc = parse_document(b"# T\r\n- a\r\n- b")
    new = doc.with_texts({2: "- a <!--cu:Habcd@1~3#abcdef-->", 3: "- B"})
    assert new.render() == b"# T\r\n- a <!--cu:Habcd@1~3#abcdef-->\r\n- B"
    assert new.lines[1].stamp is not None
    assert doc.render() == b"# T\r\n- a\r\n- b"  # the original is unchanged


def test_with_texts_none_deletes_a_line() -> None:
    doc = parse_document(b"- a\n- b\n- c\n")
    assert doc.with_texts({2: None}).render() == b"- a\n- c\n"
    assert parse_document(b"- a\n- b").with_texts({2: None}).render() == b"- a"


def test_with_texts_reparses_structure() -> None:
    doc = parse_document(b"- a\n")
    assert doc.with_texts({1: "# now a heading"}).lines[0].kind == "heading"


@pytest.mark.parametrize(
    ("texts", "message"),
    [({5: "x"}, "outside"), ({1: "a\nb"}, "line break"), ({0: "x"}, "outside")],
    ids=["past-end", "newline", "zero"],
)
def test_with_texts_rejects_bad_edits(texts: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_document(b"- a\n").with_texts(texts)


def test_front_matter_metadata_and_errors() -> None:
    assert parse_document(b"---\ntitle: x\n---\n- a\n").metadata == {"title": "x"}
    assert parse_document(b"- a\n").metadata == {}
    with pytest.raises(ParseError, match="line 1: front matter"):
        _ = parse_document(b"---\n: [unclosed\n---\n").metadata


def test_parse_document_rejects_non_text() -> None:
    with pytest.raises(UsageError):
        parse_document(42)  # type: ignore[arg-type]


def test_memory_lines_helper() -> None:
    assert [line.text for line in memory_lines("# H\n\n- a\n\n```\n- b\n```\n")] == ["- a"]


def test_classify_does_not_import_markdown_it() -> None:
    code = "import sys, tiers.classify; tiers.classify.classify('- x'); print('markdown_it' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


_LINEY = st.lists(
    st.sampled_from(["", "- a", "# h", "```", "~~~", "| a | b |", "|---|---|", "---", "> q", "<div>", "    code",
                     "1. x", "- [ ] t", "text", "<!--cu:Dabcde@1#abcdef-->", "===", "***"]) | st.text(max_size=12),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(_LINEY, st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(), st.booleans())
def test_markdownish_text_round_trips(lines: list[str], eol: str, final: bool, bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + (eol.join(lines) + (eol if final else "")).encode("utf-8",
                                                                                               "surrogatepass")
    doc = parse_document(data)
    assert doc.render() == data
    assert all(line.kind in KINDS for line in doc.lines)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_round_trip(data: bytes) -> None:
    assert parse_document(data).render() == data


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_round_trips(text: str) -> None:
    doc = parse_document(text)
    assert doc.text == text
    assert doc.render() == text.encode("utf-8", "surrogateescape")


_FRAGMENTS = ["- ", "* ", "+ ", "1. ", "2) ", "# ", "## ", "####### ", "#", "", "  ", "    ", "\t", "> ", "- [ ] ",
              "- [x] ", "[x]: /u", "---", "***", "- - -", "===", "```", "~~~", "<div>", "<!-- c -->", "| a | b |",
              "|---|---|", ":--|", "\\", "_ _ _", "- 1.", "-", "1.", "10. ", "\u00a0", "[ ] "]
_WORDS = ["text", "User said: x", "Пользователь", "a|b", "`code`", "<!--cu:Dabcde@1#abcdef-->", "", "  tail", "#tag",
          "*em*", "2026 plans", "- x", "**Name:** Alex", "__init__ runs", "**bold**", "** x", "***", "__", "**_x_**",
          "**", "__ __ __"]


def _kinds(text: str, fast: bool) -> list[str]:
    """The line kinds of ``text`` as parsed, or (``fast=False``) as markdown-it alone gives them."""
    import tiers.markdown as md

    with pytest.MonkeyPatch.context() as mp:
        if not fast:
            mp.setattr(md, "_fast_kinds", lambda texts: None)  # every file to markdown-it
        return [line.kind for line in md._parse_cached.__wrapped__(text, False, "utf-8").lines]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_FRAGMENTS), st.sampled_from(_WORDS)), max_size=12))
def test_fast_path_agrees_with_markdown_it(pairs) -> None:
    text = "\n".join(a + b for a, b in pairs)
    assert _kinds(text, True) == _kinds(text, False)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_fast_path_agrees_on_fixtures(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _kinds(text, True) == _kinds(text, False)


def test_fast_path_is_taken_for_a_plain_memory_file() -> None:
    import tiers.markdown as md

    text = "# Memory\n\n- User said: a\n- [ ] maybe b\n1. c\nplain paragraph\n"
    assert md._fast_kinds(text.splitlines()) == ["heading", "blank", "memory", "memory", "memory", "memory"]
    assert md._fast_kinds(["- a", "```", "x", "```"]) is None
    assert md._fast_kinds(["- **Name:** Alex", "**Decision (with user):** SQLite", "__init__ runs twice"]) == \
        ["memory", "memory", "memory"]
    assert md._fast_kinds(["***"]) is None and md._fast_kinds(["- ** x"]) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \n\t<-", max_size=40))
def test_the_lf_split_is_the_general_split(text):
    from tiers.markdown import _split, _split_any

    assert _split(text) == _split_any(text)
