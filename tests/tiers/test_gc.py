"""Garbage collection across simulated sessions: TTL boundary, idempotent ends, restore, crashes, concurrency."""

from __future__ import annotations

import multiprocessing
import os
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiers import gc
from tiers.errors import ConfigError, UsageError
from tiers.model import Tier
from tiers.session import current_session, end_session
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace


def stamped(ws: Workspace, text: str, tier: Tier, *, session: int | None = None, ttl: int | None = None,
            state: str | None = None, scope: str | None = None) -> str:
    s = make_stamp(text, tier, current_session(ws) if session is None else session, ws.key, ttl=ttl, state=state,
                   scope=scope)
    return apply_stamp(text, s)


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path)
    w.ensure_state()
    return w


def _write(ws: Workspace, text: str, name: str = "MEMORY.md") -> Path:
    p = ws.root / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text.encode("utf-8"))
    return p


def test_hypothesis_lives_exactly_its_ttl_across_sessions(ws):
    hyp = stamped(ws, "- Probably the cache is cold on Mondays.", Tier.HYPOTHESIS, ttl=3)  # live in 1..3
    keep = "- User said: never deploy on Fridays."
    path = _write(ws, f"# Notes\n{keep}\n{hyp}\n")
    for sid in ("a", "b"):
        end_session(ws, sid)
        assert gc.collect(ws).removed == []  # sessions 2 and 3: still live
    end_session(ws, "b")  # the end event arrives twice: no extra session
    assert current_session(ws) == 3
    assert gc.collect(ws).removed == []
    end_session(ws, "c")  # session 4: expired
    report = gc.collect(ws)
    assert [r.text for r in report.removed] == [hyp]
    assert path.read_text(encoding="utf-8") == f"# Notes\n{keep}\n"
    assert gc.collect(ws).removed == []  # idempotent


# -- DECISIONs whose scope ended (tiers.expiry: the bound arbitration stops applying them at) ----------------------
DATED = "- Decided with the user: SQLite for the demo only until Dec 6."
SESSION_BOUND = "- Decided with the user: for this session, use the mock payment API."


def test_a_decision_is_collected_the_day_after_its_date_bound_and_can_be_restored(ws):
    line = stamped(ws, DATED, Tier.DECISION, scope="for the demo only until Dec 6")
    path = _write(ws, f"# Decisions\n{line}\n- last\n")
    assert gc.collect(ws, today=date(2026, 12, 6)).removed == []  # the bound's own day: still binding
    report = gc.collect(ws, today=date(2026, 12, 7))
    assert [(r.text, r.tier) for r in report.removed] == [(line, "DECISION")]
    assert "date bound 2026-12-06 passed" in report.removed[0].reason
    assert path.read_text(encoding="utf-8") == "# Decisions\n- last\n"
    assert [r["id"] for r in gc.archive_records(ws)] == [report.removed[0].id]
    gc.restore(ws, report.removed[0].id)
    assert path.read_text(encoding="utf-8").splitlines()[1].startswith(DATED + " <!--cu:C")


def test_a_session_bound_decision_is_collected_once_its_session_is_over(ws):
    line = stamped(ws, SESSION_BOUND, Tier.DECISION, session=1, scope="for this session")
    path = _write(ws, f"{line}\n")
    assert gc.collect(ws).removed == []  # session 1: its own session
    end_session(ws, "s1")
    report = gc.collect(ws)
    assert [r.text for r in report.removed] == [line]
    assert "session bound passed (stamped in session 1, now session 2)" in report.removed[0].reason
    assert path.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize(("text", "tier", "scope"), [
    ("- Decided with the user: use Postgres for the API.", Tier.DECISION, None),
    ("- Decided with the user: SQLite until the migration finishes.", Tier.DECISION, "until the migration finishes"),
    ("- User said: no deploys until Dec 6.", Tier.DIRECTIVE, None),
    ("- User said: for this session, answer in English.", Tier.DIRECTIVE, None),
], ids=["no bound", "an event bound", "a directive naming a date", "a directive naming the session"])
def test_a_line_without_a_passed_bound_stays(ws, text, tier, scope):
    line = stamped(ws, text, tier, session=1, scope=scope)
    path = _write(ws, f"{line}\n")
    end_session(ws, "s1")
    assert gc.collect(ws, today=date(2027, 6, 1)).removed == []
    assert path.read_text(encoding="utf-8") == f"{line}\n"


def test_an_unstamped_or_forged_decision_past_its_bound_is_never_touched(ws):
    forged = apply_stamp(DATED, make_stamp(DATED, Tier.DECISION, 1, b"x" * 32, scope="until Dec 6"))
    text = f"{DATED}\n{forged}\n"
    path = _write(ws, text)
    assert gc.collect(ws, today=date(2027, 1, 1)).removed == []
    assert path.read_text(encoding="utf-8") == text


def test_superseded_and_contradicted_lines_are_collected_but_live_ones_stay(ws):
    live_d = stamped(ws, "- User said: use pnpm.", Tier.DIRECTIVE)
    sup = stamped(ws, "- User said: use yarn.", Tier.DIRECTIVE, state="superseded")
    con = stamped(ws, "- The API returns XML.", Tier.OBSERVATION, state="contradicted")
    path = _write(ws, "\n".join([live_d, sup, con]) + "\n")
    report = gc.collect(ws)
    assert sorted(r.reason for r in report.removed) == ["contradicted", "superseded"]
    assert path.read_text(encoding="utf-8") == live_d + "\n"


def test_dry_run_changes_nothing(ws):
    hyp = stamped(ws, "- Maybe X.", Tier.HYPOTHESIS, session=1, ttl=1)
    path = _write(ws, f"{hyp}\n")
    end_session(ws, "a")
    before = path.read_bytes()
    report = gc.collect(ws, dry_run=True)
    assert len(report.removed) == 1 and report.dry_run
    assert path.read_bytes() == before
    assert not ws.state_path(gc.ARCHIVE_NAME).exists()


def test_unstamped_forged_and_malformed_lines_are_never_touched(ws):
    forged = apply_stamp("- Maybe Y.", make_stamp("- Maybe Y.", Tier.HYPOTHESIS, 1, b"x" * 32, ttl=1))
    text = ("- Maybe Z (no stamp).\n" + forged + "\n- Bad <!--cu:Q-->\n```\n" +
            stamped(ws, "- in code", Tier.HYPOTHESIS, ttl=1) + "\n```\n")
    path = _write(ws, text)
    for sid in "abc":
        end_session(ws, sid)
    assert gc.collect(ws).removed == []
    assert path.read_text(encoding="utf-8") == text


def test_workspace_without_key_is_not_collected(tmp_path):
    w = Workspace(tmp_path)
    (tmp_path / "MEMORY.md").write_text("- x <!--cu:Habcde@1~1#abcdef-->\n", encoding="utf-8")
    assert gc.collect(w).removed == []
    assert not (tmp_path / ".cuticle" / "key").exists()


@pytest.mark.parametrize(("prefix", "eol", "tail"), [
    ("", "\n", "\n"), ("", "\r\n", "\r\n"), ("\ufeff", "\n", ""), ("---\ntitle: x\n---\n", "\n", "\n"),
], ids=["lf", "crlf", "bom-no-final-newline", "frontmatter"])
def test_rewrite_preserves_every_other_byte(ws, prefix, eol, tail):
    hyp = stamped(ws, "- Maybe X.", Tier.HYPOTHESIS, session=1, ttl=1)
    keep = ["# Title", "", "- User said: never deploy on Fridays.", "  - nested detail", "| a | b |", "|---|---|"]
    lines = keep[:3] + [hyp] + keep[3:]
    path = _write(ws, prefix + eol.join(lines) + tail)
    end_session(ws, "a")
    assert len(gc.collect(ws).removed) == 1
    assert path.read_bytes() == (prefix + eol.join(keep) + tail).encode("utf-8")


def test_restore_puts_the_line_back_where_it_was_and_live_again(ws):
    hyp = stamped(ws, "- Maybe the cache is cold.", Tier.HYPOTHESIS, session=1, ttl=1)
    original = f"# A\n- first\n{hyp}\n- last\n"
    path = _write(ws, original)
    end_session(ws, "a")
    removed = gc.collect(ws).removed[0]
    rec = gc.restore(ws, removed.id)
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[2].startswith("- Maybe the cache is cold.")
    assert text.splitlines()[0:2] == ["# A", "- first"] and text.endswith("- last\n")
    assert not rec["already_present"]
    assert gc.collect(ws).removed == []  # re-stamped with a fresh TTL
    with pytest.raises(UsageError):
        gc.restore(ws, removed.id)  # already restored
    with pytest.raises(UsageError):
        gc.restore(ws, "nosuch")


def test_restore_after_a_crash_between_archive_and_rewrite_does_not_duplicate(ws, monkeypatch):
    hyp = stamped(ws, "- Maybe W.", Tier.HYPOTHESIS, session=1, ttl=1)
    path = _write(ws, f"- a\n{hyp}\n")
    end_session(ws, "a")

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    report = gc.collect(ws)
    monkeypatch.undo()
    assert report.errors and path.read_text(encoding="utf-8") == f"- a\n{hyp}\n"
    rid = gc.archive_records(ws)[0]["id"]
    assert gc.restore(ws, rid)["already_present"]
    assert path.read_text(encoding="utf-8").count("Maybe W") == 1


def test_crash_in_the_middle_of_a_rewrite_leaves_old_or_new_never_partial(ws, monkeypatch):
    hyp = stamped(ws, "- Maybe V.", Tier.HYPOTHESIS, session=1, ttl=1)
    body = "".join(f"- line {i}\n" for i in range(200))
    path = _write(ws, body + hyp + "\n" + body)
    old = path.read_bytes()
    end_session(ws, "a")
    real_fsync = os.fsync

    def crash(fd):
        real_fsync(fd)
        raise KeyboardInterrupt("power cut after the temp file was written")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(KeyboardInterrupt):
        gc.collect(ws)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert not list(path.parent.glob(".MEMORY.md.*.tmp"))
    gc.collect(ws)
    assert path.read_bytes() == (body + body).encode("utf-8")


def _gc_worker(root: str, q) -> None:
    try:
        q.put(len(gc.collect(Workspace(root)).removed))
    except Exception as exc:  # pragma: no cover - reported to the parent
        q.put(repr(exc))


def test_two_gc_processes_at_once_remove_each_line_once(ws):
    hyps = [stamped(ws, f"- Maybe guess {i}.", Tier.HYPOTHESIS, session=1, ttl=1) for i in range(30)]
    keep = [f"- User said: rule {i}." for i in range(30)]
    lines = [x for pair in zip(keep, hyps) for x in pair]
    path = _write(ws, "\n".join(lines) + "\n")
    end_session(ws, "a")
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    procs = [ctx.Process(target=_gc_worker, args=(str(ws.root), q)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    results = sorted(q.get(timeout=5) for _ in procs)
    assert results == [0, 30]
    assert path.read_text(encoding="utf-8") == "\n".join(keep) + "\n"
    assert len(gc.archive_records(ws)) == 30


def test_mark_state_retires_a_line_for_the_next_gc(ws):
    path = _write(ws, "- User said: never deploy on Fridays.\n- other\n")
    assert gc.mark_state(ws, "MEMORY.md", 1, "- User said: never deploy on Fridays.", "superseded")
    assert not gc.mark_state(ws, "MEMORY.md", 2, "- something else", "superseded")  # the line moved
    report = gc.collect(ws)
    assert [r.reason for r in report.removed] == ["superseded"]
    assert path.read_text(encoding="utf-8") == "- other\n"
    with pytest.raises(UsageError):
        gc.mark_state(ws, "MEMORY.md", 1, "- other", "forgotten")


@pytest.mark.parametrize("value", [0, -1, "3", 2.5, True], ids=["zero", "neg", "str", "float", "bool"])
def test_hypothesis_ttl_is_validated(tmp_path, value):
    (tmp_path / ".cuticle").mkdir()
    v = f'"{value}"' if isinstance(value, str) else str(value).lower()
    (tmp_path / ".cuticle" / "config.toml").write_text(f"[tiers]\nhypothesis_ttl = {v}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="hypothesis_ttl"):
        gc.hypothesis_ttl(Workspace(tmp_path))


_line = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"),
                min_size=1, max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line, max_size=12), eol=st.sampled_from(["\n", "\r\n"]), final=st.booleans(),
       where=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=3))
def test_gc_never_changes_a_line_it_did_not_stamp(tmp_path_factory, lines, eol, final, where):
    root = tmp_path_factory.mktemp("prop")
    ws = Workspace(root)
    ws.ensure_state()
    mixed = list(lines)
    expired = []
    for n, pos in enumerate(sorted(where, reverse=True)):
        line = stamped(ws, f"- Maybe guess {n}.", Tier.HYPOTHESIS, session=1, ttl=1)
        expired.append(line)
        mixed.insert(min(pos, len(mixed)), line)
    path = root / "MEMORY.md"
    data = eol.join(mixed) + (eol if final else "")
    path.write_bytes(data.encode("utf-8"))

    def split(text: str) -> list[str]:
        parts = text.split(eol)
        return parts[:-1] if parts and parts[-1] == "" else parts

    mixed = split(data)
    (root / ".cuticle" / "session.json").write_text('{"counter": 5, "sessions": {}}', encoding="utf-8")
    gc.collect(ws)
    got = split(path.read_bytes().decode("utf-8"))
    # `got` is `mixed` with some of the stamped lines left out: every other line unchanged and in order.
    it = iter(mixed)
    for line in got:
        for orig in it:
            if orig == line:
                break
            assert orig in expired, f"GC dropped a line it did not stamp: {orig!r}"
        else:
            raise AssertionError(f"GC produced a line that was not there: {line!r}")
    rest = list(it)
    assert all(orig in expired for orig in rest)


@settings(max_examples=300, deadline=None)
@given(tier=st.sampled_from(list(Tier)), session=st.integers(1, 10**6), ttl=st.none() | st.integers(1, 50),
       state=st.sampled_from([None, "superseded", "contradicted"]), current=st.integers(1, 10**6 + 60),
       scope=st.none() | st.text(alphabet="ab !~|#-", max_size=8)
       | st.sampled_from(["for this session", "until 2026-01-15", "до 06.12.2026", "until Dec 6"]),
       content=st.sampled_from(["- a line", "- a line for this session", "- a line until 2020-02-02"]))
def test_the_file_prefilter_never_hides_a_candidate(tier, session, ttl, state, current, scope, content):
    from tiers.stamps import make_stamp, render_stamp

    stamp = make_stamp(content, tier, session, b"k" * 32, scope=scope or None,
                       ttl=ttl if tier is Tier.HYPOTHESIS else None, state=state)
    if gc.removal_reason(stamp, current, content, date(2026, 12, 1)) is not None:
        assert gc._CANDIDATE.search((content + " " + render_stamp(stamp)).encode("utf-8"))


def test_files_without_candidate_stamps_are_not_parsed(ws, monkeypatch):
    _write(ws, "\n".join([stamped(ws, "- User said: use uv.", Tier.DIRECTIVE),
                          stamped(ws, "- CI takes 4 minutes.", Tier.OBSERVATION), "- unstamped"]) + "\n")
    import tiers.markdown

    def boom(data):
        raise AssertionError("parsed a file that cannot hold a GC candidate")

    monkeypatch.setattr(tiers.markdown, "parse_document", boom)
    report = gc.collect(ws)
    assert report.removed == [] and report.errors == []
