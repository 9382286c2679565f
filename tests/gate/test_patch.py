"""The apply_patch grammar: parsing, applying hunks, rendering, and never crashing on garbage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.patch import PatchOp, apply_hunks, parse_patch, render_patch, replacement_hunk
from tiers.errors import ParseError

ADD = "*** Begin Patch\n*** Add File: memory/notes.md\n+- fact\n+- other\n*** End Patch"
UPDATE = "*** Begin Patch\n*** Update File: MEMORY.md\n@@\n-- a\n+- b\n*** End Patch"
MOVE = "*** Begin Patch\n*** Update File: notes.md\n*** Move to: MEMORY.md\n@@\n x\n+- y\n*** End Patch"
DELETE = "*** Begin Patch\n*** Delete File: MEMORY.md\n*** End Patch"
MULTI = ("*** Begin Patch\n*** Add File: a.md\n+one\n*** Update File: MEMORY.md\n@@ # Memory\n- old\n+ new\n"
         "*** Delete File: c.md\n*** End Patch")


@pytest.mark.parametrize(
    "text, kinds, paths",
    [
        (ADD, ["add"], ["memory/notes.md"]),
        (UPDATE, ["update"], ["MEMORY.md"]),
        (MOVE, ["update"], ["MEMORY.md"]),
        (DELETE, ["delete"], ["MEMORY.md"]),
        (MULTI, ["add", "update", "delete"], ["a.md", "MEMORY.md", "c.md"]),
        ("apply_patch <<'EOF'\n" + ADD + "\nEOF\n", ["add"], ["memory/notes.md"]),
        (UPDATE.replace("\n", "\r\n"), ["update"], ["MEMORY.md"]),
    ],
    ids=["add", "update", "move", "delete", "several-files", "heredoc-wrapper", "crlf"],
)
def test_parse_patch_reads_every_operation(text, kinds, paths):
    ops = parse_patch(text)
    assert [o.kind for o in ops] == kinds
    assert [o.target for o in ops] == paths


def test_added_file_lines_lose_their_plus():
    (op,) = parse_patch(ADD)
    assert op.add_lines == ("- fact", "- other")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "Begin Patch"),
        ("*** Begin Patch\n*** Add File: a\n+x", "End Patch"),
        ("*** Begin Patch\n*** End Patch", "no file operations"),
        ("*** Begin Patch\n*** Add File: a\nx\n*** End Patch", "must start with '+'"),
        ("*** Begin Patch\n*** Frobnicate: a\n*** End Patch", "expected '*** Add File:'"),
        ("*** Begin Patch\n*** Update File: a\n*** End Patch", "no hunks"),
        ("*** Begin Patch\n*** Update File: a\n@@\n?x\n*** End Patch", "must start with"),
        ("*** Begin Patch\n*** Add File:   \n*** End Patch", "missing file path"),
    ],
    ids=["empty", "no-end", "no-ops", "add-without-plus", "unknown-op", "update-no-hunks", "bad-hunk-line", "no-path"],
)
def test_malformed_patches_raise_parse_error_with_a_line(text, fragment):
    with pytest.raises(ParseError) as info:
        parse_patch(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "original, patch, expected",
    [
        ("- a\n", UPDATE, "- b\n"),
        ("# Memory\n- a\n", "*** Begin Patch\n*** Update File: M\n@@\n # Memory\n+- new\n*** End Patch", "# Memory\n- new\n- a\n"),
        ("- a\n- b\n", "*** Begin Patch\n*** Update File: M\n@@\n+- c\n*** End Patch", "- a\n- b\n- c\n"),
        ("x\n- a\ny\n- a\n", "*** Begin Patch\n*** Update File: M\n@@ y\n-- a\n+- z\n*** End Patch", "x\n- a\ny\n- z\n"),
        ("- a  \n", "*** Begin Patch\n*** Update File: M\n@@\n-- a\n+- b\n*** End Patch", "- b\n"),
        ("- a\r\n- b\r\n", "*** Begin Patch\n*** Update File: M\n@@\n-- b\n*** End Patch", "- a\r\n"),
    ],
    ids=["replace", "insert-after-context", "pure-append", "anchor-selects-second", "trailing-space-tolerated", "crlf-file"],
)
def test_apply_hunks_produces_the_file_the_host_would_write(original, patch, expected):
    (op,) = parse_patch(patch)
    assert apply_hunks(original, op.hunks) == expected


def test_apply_hunks_with_missing_context_raises_parse_error():
    (op,) = parse_patch(UPDATE)
    with pytest.raises(ParseError, match="not found"):
        apply_hunks("- something else\n", op.hunks, path="MEMORY.md")


def test_render_round_trips_through_the_parser():
    ops = parse_patch(MULTI) + [PatchOp("update", "m.md", hunks=(replacement_hunk(["- a"], ["- a <!-- s -->"]),))]
    assert parse_patch(render_patch(ops)) == ops


_line = st.text(alphabet=st.sampled_from(list("ab +-*@ \n:Ep")), max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(_line, max_size=12), st.booleans())
def test_parser_never_crashes_with_anything_but_parse_error(lines, framed):
    text = "\n".join(lines)
    if framed:
        text = "*** Begin Patch\n" + text + "\n*** End Patch"
    try:
        ops = parse_patch(text)
    except ParseError:
        return
    for op in ops:
        try:
            apply_hunks("a\n- b\n\n+c\n", op.hunks)
        except ParseError:
            pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab- ")), max_size=6), min_size=1, max_size=8),
       st.lists(st.text(alphabet=st.sampled_from(list("cd- ")), max_size=6), max_size=4))
def test_add_file_render_parse_is_lossless(lines, more):
    op = PatchOp("add", "memory/x.md", add_lines=tuple(lines + more))
    assert parse_patch(render_patch([op])) == [op]
