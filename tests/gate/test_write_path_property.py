"""The write path's promise, as a property: for any memory file and any whole-file write, edit or patch, the
gate's result keeps every line of the proposal in order, and every line the proposal kept from disk keeps its
exact bytes; the only changes are the stamps cuticle owns (added, restored, or an inner stamp dropped)."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.edits import Edit, apply_edits
from gate.patch import Hunk, PatchOp, apply_hunks
from gate.payload import FileOp
from gate.writepath import Planner
from tiers import stamps
from tiers.workspace import Workspace

_word = st.sampled_from(["cache", "deploy", "notes", "shard", "Redis", "staging", "кот", "тест", "queue", "ok"])
_text = st.lists(_word, min_size=1, max_size=5).map(" ".join)
_SHAPES = ["- {t}.", "- Maybe {t} is stale.", "## {t}", "| {t} | x |", "{t}", "<!-- {t} -->", "> {t}", "1. {t}",
           "- [ ] {t}", "    {t}", "```", ""]


def _line(shape: str, t: str, n: int, key: bytes, stamp: bool) -> str:
    text = shape.format(t=f"{t} {n}") if "{t}" in shape else shape
    if stamp and text.startswith("- "):
        return stamps.apply_stamp(text, stamps.make_stamp(text, "H", 1, key, ttl=3))
    return text


@st.composite
def _file(draw, key: bytes) -> list[str]:
    n = draw(st.integers(1, 10))
    return [_line(draw(st.sampled_from(_SHAPES)), draw(_text), i, key, draw(st.booleans())) for i in range(n)]


_STAMP = re.compile(r"[ \t]*<!--[ \t]*cu:(?:(?!-->)[^\n])*-->")


def _key(line: str) -> str:
    """A line without any closed cuticle stamp (spelled out here, not the code under test's own split)."""
    return _STAMP.sub("", line).rstrip()


def _ws() -> Workspace:
    root = Path(tempfile.mkdtemp(prefix="cuticle-prop-"))
    (root / ".cuticle").mkdir()
    return Workspace(root)


_WS = _ws()
_KEY = _WS.key


def _check(old: list[str], proposal: str, plan) -> None:
    if plan.action == "block":
        assert plan.stamped is None and plan.errors
        return
    assert plan.action == "allow"
    out = (plan.stamped.decode("utf-8") if plan.stamped is not None else proposal).split("\n")
    prop = proposal.split("\n")
    assert len(out) == len(prop)  # nothing dropped or added
    assert [_key(x) for x in out] == [_key(x) for x in prop]  # nothing reordered or altered but stamps
    on_disk = {_key(x): x for x in old if _key(x).strip()}
    for a, p in zip(out, prop):
        if a != p:  # the gate changed this line: only its stamp
            assert _key(a) == _key(p)
        if _key(p) in on_disk and _key(p) == _key(on_disk[_key(p)]) and p in old:
            assert a == p  # a line kept byte-identical from disk stays so


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_write_edit_or_patch_keeps_every_existing_line(data) -> None:
    old = data.draw(_file(_KEY))
    # unique, so that "the line from disk" is one line
    seen: set[str] = set()
    old = [x for x in old if not (_key(x) in seen or seen.add(_key(x)))]
    disk = "\n".join(old) + "\n"
    (_WS.root / "MEMORY.md").write_text(disk, encoding="utf-8")
    planner = Planner(_WS, "", cwd=str(_WS.root), host="claude")
    added = data.draw(st.lists(_text.map(lambda t: f"- Maybe {t} broke."), max_size=3, unique=True))
    kind = data.draw(st.sampled_from(["write", "edit", "patch"]))
    if kind == "write":
        kept = [x for x in old if data.draw(st.booleans())]
        for a in added:
            kept.insert(data.draw(st.integers(0, len(kept))), a)
        if data.draw(st.booleans()):  # the agent tampers with a stamp, or appends text after one
            i = data.draw(st.integers(0, max(0, len(kept) - 1)))
            if kept and "<!--cu:" in kept[i]:
                kept[i] = kept[i].replace("<!--cu:H", "<!--cu:D") if data.draw(st.booleans()) else kept[i] + " more"
        proposal = "\n".join(kept) + "\n"
        plan = planner.plan(FileOp("MEMORY.md", "write", content=proposal))[0]
    else:
        a = data.draw(st.integers(0, len(old) - 1))
        b = data.draw(st.integers(a + 1, len(old)))
        span = old[a:b]
        if kind == "edit":
            old_s = "\n".join(span) + "\n"
            new_s = "\n".join([*added, *span[: data.draw(st.integers(0, len(span)))]]) + "\n"
            try:
                proposal = apply_edits(disk, (Edit(old_s, new_s),))
            except Exception:  # noqa: BLE001 - a span that is not unique: the host's tool fails too
                return
            plan = planner.plan(FileOp("MEMORY.md", "edit", edits=(Edit(old_s, new_s),)))[0]
        else:
            lines = ([(" ", old[a - 1])] if a else []) + [("-", x) for x in span] + [("+", x) for x in added]
            op = PatchOp("update", "MEMORY.md", hunks=(Hunk(None, tuple(lines)),))
            try:
                proposal = apply_hunks(disk, op.hunks, path="MEMORY.md")
            except Exception:  # noqa: BLE001
                return
            plan = planner.plan(FileOp("MEMORY.md", "patch", patch=op))[0]
        if plan.action == "block" and any(e.get("reason") in ("edit-does-not-apply", "patch-does-not-apply")
                                          for e in plan.errors):
            return
    _check(old, proposal, plan)


def teardown_module() -> None:
    shutil.rmtree(_WS.root, ignore_errors=True)
