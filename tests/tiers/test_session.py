"""The session counter: once per distinct session id, idempotent ends, start-only hosts."""

from __future__ import annotations

import json

import pytest

from tiers.errors import UsageError
from tiers.session import current_session, end_session, session_state, start_session
from tiers.workspace import Workspace


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path)


def test_a_new_workspace_is_in_session_one_and_reading_writes_nothing(ws, tmp_path):
    assert current_session(ws) == 1
    assert not (tmp_path / ".cuticle").exists()


def test_end_advances_once_per_distinct_session(ws):
    assert start_session(ws, "a") == 1
    assert end_session(ws, "a") == 2
    assert end_session(ws, "a") == 2  # the host sent the end event twice
    assert start_session(ws, "b") == 2
    assert start_session(ws, "b") == 2
    assert end_session(ws, "b") == 3
    assert current_session(ws) == 3


def test_start_only_host_advances_at_the_next_distinct_start(ws):
    assert start_session(ws, "s1") == 1
    assert start_session(ws, "s1") == 1
    assert start_session(ws, "s2") == 2
    assert start_session(ws, "s3") == 3
    state = session_state(ws)
    assert state["sessions"]["s1"]["ended"] == "implicit"


def test_end_without_start_counts_the_session_once(ws):
    assert end_session(ws, "x") == 2
    assert end_session(ws, "x") == 2
    assert start_session(ws, "x") == 1  # its number is remembered


def test_late_end_of_an_older_session_does_not_advance_again(ws):
    start_session(ws, "a")
    start_session(ws, "b")  # implicit end of a -> counter 2
    assert end_session(ws, "a") == 2
    assert end_session(ws, "b") == 3


@pytest.mark.parametrize("bad", ["", "   ", "x" * 300, None, 5], ids=["empty", "blank", "long", "none", "int"])
def test_bad_session_ids_are_usage_errors(ws, bad):
    with pytest.raises(UsageError):
        start_session(ws, bad)


def test_corrupt_state_is_survived(ws, tmp_path):
    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "session.json").write_text("{not json", encoding="utf-8")
    assert current_session(ws) == 1
    assert end_session(ws, "a") == 2
    assert json.loads((tmp_path / ".cuticle" / "session.json").read_text())["counter"] == 2
