"""The write path in-process: line alignment, rewriting edits, and the property that existing lines survive."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.edits import apply_edits
from gate.payload import FileOp, extract_edits
from gate.rewrite import edit_pair, line_span
from gate.statements import align, plain_texts
from gate.writepath import Planner
from tiers import markdown, stamps
from tiers.workspace import Workspace


def _lines(text: str) -> list[str]:
    return [ln.text for ln in markdown.parse_document(text).lines]


def _reference_align(old: list[str], new: list[str]) -> tuple[dict[int, int], list[int]]:
    """The alignment spelled out item by item (the write path's version finds prefix and suffix with list
    comparisons in C): the two must agree on every input."""
    import difflib

    ok = [stamps.split_stamp(t)[0].rstrip() for t in old]
    nk = [stamps.split_stamp(t)[0].rstrip() for t in new]
    keep: dict[int, int] = {}
    p = 0
    while p < len(ok) and p < len(nk) and ok[p] == nk[p]:
        keep[p] = p
        p += 1
    s = 0
    while s < len(ok) - p and s < len(nk) - p and ok[len(ok) - 1 - s] == nk[len(nk) - 1 - s]:
        keep[len(nk) - 1 - s] = len(ok) - 1 - s
        s += 1
    o_mid, n_mid = ok[p:len(ok) - s], nk[p:len(nk) - s]
    used = set(keep.values())
    if o_mid and n_mid:
        for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, o_mid, n_mid, autojunk=False).get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    keep[p + j1 + k] = p + i1 + k
                    used.add(p + i1 + k)
    spare: dict[str, list[int]] = {}
    for i in range(len(ok)):
        if i not in used and ok[i].strip():
            spare.setdefault(ok[i], []).append(i)
    fresh = []
    for j in range(len(nk)):
        if j in keep:
            continue
        if spare.get(nk[j]):
            keep[j] = spare[nk[j]].pop(0)
        else:
            fresh.append(j)
    return keep, fresh


_LINE = st.sampled_from(["- a", "- b", "- c", "", "- a <!--cu:H s1 x-->", "- b  ", "# h", "- d"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, max_size=30), st.lists(_LINE, max_size=30))
def test_align_agrees_with_the_item_by_item_reference(old, new):
    assert align(old, new) == _reference_align(old, new)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=40), st.lists(_LINE, max_size=5), st.integers(min_value=0, max_value=40))
def test_align_of_an_insertion_keeps_every_old_line(old, inserted, at):
    at = min(at, len(old))
    new = old[:at] + inserted + old[at:]
    keep, fresh = align(old, new)
    assert keep == _reference_align(old, new)[0]
    assert len(keep) + len(fresh) == len(new)
    assert sorted(keep.values()) == sorted(set(keep.values()))


@pytest.mark.parametrize(
    "old, new, fresh",
    [
        ("- a\n- b\n", "- a\n- b\n- c\n", [2]),
        ("- a\n- b\n", "- c\n- a\n- b\n", [0]),
        ("- a\n- b\n", "- b\n- a\n", []),
        ("- a\n- b\n", "- a\n- x\n", [1]),
        ("- a\n- a\n", "- a\n- a\n- a\n", [2]),
        ("", "- a\n", [0]),
    ],
    ids=["append", "prepend", "reorder-keeps-all", "replace", "duplicates-counted", "new-file"],
)
def test_align_finds_exactly_the_new_lines(old, new, fresh):
    keep, got = align(_lines(old), _lines(new))
    assert got == fresh
    assert len(keep) + len(got) == len(_lines(new))


@pytest.mark.parametrize(
    "old, new",
    [
        ("- a\n- b\n- c\n", "- a\n- b\n- B\n- c\n"),
        ("- a\n- b\n- a\n- b\n", "- a\n- b\n- a\n- b\n- z\n"),
        ("x\n", "x\ny\n"),
        ("- a\r\n- b\r\n", "- a\r\n- new\r\n- b\r\n"),
        ("- same\n- same\n", "- same\n- other\n"),
    ],
    ids=["middle-insert", "repeated-blocks", "append-after-only-line", "crlf", "duplicate-lines"],
)
def test_edit_pair_is_unique_and_reproduces_the_new_text(old, new):
    pair = edit_pair(old, new, lf=False)
    assert pair is not None
    o, n = pair
    assert o and old.count(o) == 1
    assert old.replace(o, n, 1) == new


def test_line_span_needs_an_anchor_in_an_empty_file():
    assert line_span("", "- a\n") is None


def _ws() -> Workspace:
    root = Path(tempfile.mkdtemp(prefix="cuticle-wp-"))
    (root / ".cuticle").mkdir()
    return Workspace(root)


def _content(line_text: str) -> str:
    return stamps.split_stamp(line_text)[0].rstrip()


_bullet = st.text(alphabet=st.sampled_from(list("abcdeкот ")), min_size=1, max_size=12).map(lambda s: "- " + s.strip() + "x")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(old=st.lists(_bullet, min_size=1, max_size=8, unique=True), data=st.data())
def test_the_gate_never_drops_or_reorders_existing_lines(old, data):
    """Whatever the agent proposes, the gate's output keeps the proposal's line order, and every line that was
    on disk keeps its exact text (stamp included)."""
    ws = _ws()
    try:
        key = ws.key
        disk_lines = [stamps.apply_stamp(x, stamps.make_stamp(x, "H", 1, key, ttl=3)) for x in old]
        disk = "# M\n\n" + "\n".join(disk_lines) + "\n"
        (ws.root / "MEMORY.md").write_text(disk, encoding="utf-8")
        kept = data.draw(st.permutations(disk_lines))
        kept = kept[: data.draw(st.integers(0, len(kept)))]
        tampered = [x.replace("<!--cu:H", "<!--cu:D") if data.draw(st.booleans()) else x for x in kept]
        added = data.draw(st.lists(_bullet.filter(lambda b: b not in old), max_size=3, unique=True))
        proposal = list(tampered)
        for a in added:
            proposal.insert(data.draw(st.integers(0, len(proposal))), a)
        text = "# M\n\n" + "\n".join(proposal) + "\n"
        plan = Planner(ws, "s1", cwd=str(ws.root), host="claude", stage="post").plan(FileOp("MEMORY.md", "write", content=text))[0]
        assert plan.action == "allow"
        out = (plan.stamped or text.encode()).decode().split("\n")
        assert [_content(x) for x in out] == [_content(x) for x in text.split("\n")]
        by_content = {_content(x): x for x in disk_lines}
        for line in out:
            if _content(line) in by_content:
                assert line == by_content[_content(line)]
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)


def test_rewritten_edit_applies_to_the_file_and_gives_the_stamped_result():
    ws = _ws()
    try:
        (ws.root / "MEMORY.md").write_text("# M\n\n- a\n- b\n", encoding="utf-8")
        op = FileOp("MEMORY.md", "edit", edits=tuple(extract_edits({"old_string": "- a", "new_string": "- a\n- maybe c"})))
        plan = Planner(ws, "s1", cwd=str(ws.root), host="claude").plan(op)[0]
        old, new = plan.old.decode(), plan.stamped.decode()
        o, n = edit_pair(old, new, lf=False)
        assert apply_edits(old, extract_edits({"old_string": o, "new_string": n})) == new
        assert new.split("\n")[3].startswith("- maybe c <!--cu:H")
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["- a", "# h", "", "```", "x <!--cu:Habcd@1#abcdef-->", "| a |", "---", "- [ ] t"]),
                max_size=12), st.sampled_from(["\n", "\r\n"]), st.booleans(), st.data())
def test_fast_render_equals_with_texts_render(lines, eol, bom, data):
    from gate.writepath import _render

    raw = ("\ufeff" if bom else "") + eol.join(lines) + (eol if data.draw(st.booleans()) else "")
    doc = markdown.parse_document(raw.encode("utf-8"))
    numbers = [ln.number for ln in doc.lines]
    chosen = data.draw(st.lists(st.sampled_from(numbers), unique=True)) if numbers else []
    changes = {n: f"- changed {n}" for n in chosen}
    assert _render(doc, changes) == doc.with_texts(changes).render()


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"\x00", b"")), st.booleans())
def test_plain_line_split_matches_the_markdown_model(data, bom):
    data = (b"\xef\xbb\xbf" if bom else b"") + data
    assert plain_texts(data, markdown) == [ln.text for ln in markdown.parse_document(data).lines]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \n\r\t\ufeff<!-", max_size=40))
def test_plain_lines_split_exactly_like_the_markdown_model(text):
    data = text.encode("utf-8")
    assert plain_texts(data, markdown) == [ln.text for ln in markdown.parse_document(data).lines]


def test_snapshot_names_are_distinct_and_safe(tmp_path):
    from gate.aftertool import snapshot_path

    ws = Workspace(tmp_path)
    rels = ["MEMORY.md", "memory/2026-11-30.md", "memory%2F2026-11-30.md", "memory/заметки.md", "a b.md",
            "memory/" + "x" * 300 + ".md"]
    paths = [snapshot_path(ws, rel) for rel in rels]
    assert len(set(paths)) == len(rels)
    for p in paths:
        assert p.parent == tmp_path / ".cuticle" / "pending"
        assert "/" not in p.name and len(p.name.encode("utf-8")) <= 255
