"""Operations: Chitin's reinforce / merge / similar vectors, the collision shield, once-per-session, soft archive."""

from __future__ import annotations

import pytest
from personality_data import NOW, make, ws  # noqa: F401 - fixtures

from personality import ops, store
from personality.model import InsightType
from personality.similarity import find_similar
from personality.store import InsightsFile
from tiers.errors import UsageError


def add(ws, type_, claim, conf, **kw):
    force = kw.pop("force", False)
    return ops.contribute(ws, ops.draft(type=type_, claim=claim, confidence=conf, **kw), force=force, now=NOW)


# -- reinforce (§14.5) -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, sequence",
    [
        (0.8, [0.81, 0.8195]),
        (0.85, [0.8574999999999999, 0.864625]),
        (0.99, [0.9904999999999999]),
        (0.0, [0.05]),
        (1.0, [1.0]),
    ],
    ids=["0.8", "0.85", "0.99", "0.0", "1.0"],
)
def test_reinforce_formula_matches_chitin_bit_for_bit(start, sequence):
    c = start
    for expected in sequence:
        c = ops.reinforced_confidence(c)
        assert c == expected


def test_reinforce_twenty_times_from_half():
    expected = [0.525, 0.54875, 0.571313, 0.592747, 0.61311, 0.632454, 0.650831, 0.66829, 0.684875, 0.700632,
                0.7156, 0.72982, 0.743329, 0.756163, 0.768354, 0.779937, 0.79094, 0.801393, 0.811323, 0.820757]
    c, seen = 0.5, []
    for _ in range(20):
        c = ops.reinforced_confidence(c)
        seen.append(round(c, 6))
    assert seen == expected


def test_reinforce_updates_count_and_timestamps_once_per_session(ws):
    ins = add(ws, "skill", "TDD: red, green, refactor", 0.85).insight
    first = ops.reinforce(ws, ins.id, session="s1", now=NOW)
    assert first.reinforced and first.insight.confidence == 0.8574999999999999
    assert first.insight.reinforcement_count == 1
    assert first.insight.last_retrieved_at == first.insight.updated_at == "2026-11-30 08:27:14"
    again = ops.reinforce(ws, ins.id, session="s1", now=NOW)
    assert not again.reinforced and again.insight.reinforcement_count == 1
    other = ops.reinforce(ws, ins.id, session="s2", now=NOW)
    assert other.reinforced and other.insight.confidence == 0.864625
    assert store.load(ws).insights[0].reinforcement_count == 2


def test_reinforce_session_from_environment(ws, monkeypatch):
    ins = add(ws, "skill", "Use ruff", 0.5).insight
    monkeypatch.setenv("CUTICLE_SESSION_ID", "env-session")
    assert ops.reinforce(ws, ins.id).session == "id:env-session"
    assert not ops.reinforce(ws, ins.id).reinforced


def test_reinforce_by_id_prefix_and_unknown_id(ws):
    ins = add(ws, "skill", "Use ruff", 0.5).insight
    assert ops.reinforce(ws, ins.id[:8], session="a").reinforced
    with pytest.raises(UsageError, match="no insight with id 'nope'"):
        ops.reinforce(ws, "nope", session="a")


# -- merge (§14.6) ---------------------------------------------------------------------------------------------
def test_merge_matches_chitin_and_archives_the_source(ws):
    tgt = add(ws, "behavioral", "Execute first on clear tasks", 0.8, tags=["boss", "efficiency"],
              reasoning="Original reasoning").insight
    src = add(ws, "behavioral", "Act quickly, narrate minimally", 0.9, tags=["communication", "efficiency"],
              reasoning="Additional reasoning").insight
    for s in ("a", "b"):
        ops.reinforce(ws, tgt.id, session=s)
    ops.reinforce(ws, src.id, session="a")
    merged, source = ops.merge(ws, src.id, tgt.id, now=NOW)
    assert merged.claim == "Execute first on clear tasks"
    assert merged.confidence == 0.905
    assert merged.tags == ("boss", "efficiency", "communication")
    assert merged.reinforcement_count == 3
    assert merged.reasoning == "Original reasoning; Additional reasoning"
    assert source.archived and source.merged_into == tgt.id
    restored = ops.restore(ws, src.id)
    assert not restored.archived and restored.merged_into is None


@pytest.mark.parametrize(
    "case, message",
    [("self", "Cannot merge an insight with itself"), ("types", "cannot merge a skill into a behavioral")],
    ids=["self", "different-types"],
)
def test_merge_refusals(ws, case, message):
    a = add(ws, "behavioral", "Execute first", 0.8).insight
    b = add(ws, "skill", "Use pytest fixtures", 0.8).insight
    before = (ws.root / "INSIGHTS.md").read_bytes()
    with pytest.raises(UsageError, match=message):
        ops.merge(ws, a.id if case == "self" else b.id, a.id)
    assert (ws.root / "INSIGHTS.md").read_bytes() == before


# -- similar (§14.4) -------------------------------------------------------------------------------------------
STORE = (
    make("a", "behavioral", "On clear tasks, execute first and narrate minimally", 0.8),
    make("b", "behavioral", "Execute tasks quickly, narrate only when needed", 0.8),
    make("c", "skill", "TDD means writing tests first", 0.8),
)


@pytest.mark.parametrize(
    "query, threshold, items, expected",
    [
        ("On clear tasks, execute first, narrate minimally", 0.2, STORE, [("a", 0.8571428571428571), ("b", 0.3)]),
        ("Execute tasks quickly", 0, STORE, [("b", 0.42857142857142855), ("a", 0.25), ("c", 0)]),
        ("Boss prefers direct communication", 0.5, STORE[2:], []),
        ("a on is", 0.2, STORE, []),
    ],
    ids=["close", "threshold-0", "none", "no-tokens"],
)
def test_similar_matches_chitin(query, threshold, items, expected):
    got = [(s.insight.id, s.similarity) for s in find_similar(items, query, threshold)]
    assert got == expected


def test_similar_is_unicode_aware():
    items = (make("r", "personality", "Я использую сухой юмор умеренно", 0.8),)
    assert find_similar(items, "сухой юмор", 0.2)[0].similarity == 0.5  # 2 of 4 words (Chitin: no tokens)


# -- collision shield ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "existing, new, action",
    [
        ("Boss values directness. Skip the preamble.", "Boss values directness; skip the preamble", "reinforced"),
        ("Always run the tests before pushing", "always run the tests before pushing!", "reinforced"),
        ("Always run the tests before pushing", "Never run the tests before pushing", "blocked"),
        ("Always run the tests before pushing", "Run the linter before committing", "added"),
        ("Всегда запускай тесты перед пушем", "Всегда запускай тесты перед пушем.", "reinforced"),
    ],
    ids=["punctuation", "case", "negated", "different", "russian"],
)
def test_collision_shield(ws, existing, new, action):
    first = add(ws, "behavioral", existing, 0.8).insight
    result = ops.contribute(ws, ops.draft(type="behavioral", claim=new, confidence=0.8), session="s1", now=NOW)
    assert result.action == action
    if action == "reinforced":
        assert result.insight.id == first.id and result.insight.reinforcement_count == 1
        assert result.similarity >= 0.92
        assert len(store.load(ws).insights) == 1
        again = ops.contribute(ws, ops.draft(type="behavioral", claim=new, confidence=0.8), session="s1")
        assert again.action == "duplicate" and store.load(ws).insights[0].reinforcement_count == 1


def test_collision_threshold_is_configurable(ws):
    add(ws, "behavioral", "Boss values directness. Skip the preamble.", 0.8)
    res = ops.contribute(ws, ops.draft(type="behavioral", claim="Boss values directness", confidence=0.8),
                         threshold=0.5)
    assert res.action == "reinforced"
    (ws.state_dir / "config.toml").write_text("[personality]\ncollision_threshold = 1.0\n")
    from tiers.workspace import Workspace

    ws2 = Workspace(ws.root)
    res2 = ops.contribute(ws2, ops.draft(type="behavioral", claim="Boss values directness!!", confidence=0.8))
    assert res2.action == "added"


def test_trigger_shield_respects_avoid(ws):
    add(ws, "trigger", "skip it", 0.9, condition="tempted to praise", avoid=True)
    res = add(ws, "trigger", "skip it", 0.9, condition="tempted to praise", avoid=False)
    assert res.action == "added"


# -- conflicts on contribute -----------------------------------------------------------------------------------
def test_contradiction_blocks_without_force_and_writes_nothing(ws):
    add(ws, "relational", "Boss values directness and brevity", 0.9)
    before = (ws.root / "INSIGHTS.md").read_bytes()
    res = add(ws, "relational", "Boss prefers detailed verbose explanations", 0.8)
    assert res.action == "blocked" and res.conflicts[0].tension == 0.7058823529411764
    assert (ws.root / "INSIGHTS.md").read_bytes() == before
    forced = add(ws, "relational", "Boss prefers detailed verbose explanations", 0.8, force=True)
    assert forced.action == "added" and forced.conflicts


def test_overlap_without_tension_only_warns(ws):
    add(ws, "relational", "Boss values directness and efficiency, skip the preamble", 0.9)
    res = ops.contribute(ws, ops.draft(type="relational", claim="Boss values directness and efficiency",
                                       confidence=0.8), shield=False)
    assert res.action == "added"
    assert res.conflicts[0].reason == "high word overlap with different emphasis"


# -- update, archive -------------------------------------------------------------------------------------------
def test_update_every_field_including_condition_and_avoid(ws):
    ins = add(ws, "trigger", "check history", 0.9, condition="context compacted").insight
    new = ops.update(ws, ins.id, {"condition": "thread lost", "avoid": True, "confidence": "0.7", "tags": ["x"],
                                  "provenance": "correction", "context": "chats"})
    assert (new.condition, new.avoid, new.confidence, new.tags, new.provenance.value, new.context) == (
        "thread lost", True, 0.7, ("x",), "correction", "chats")
    cleared = ops.update(ws, ins.id, {"context": "", "provenance": ""})
    assert cleared.context is None and cleared.provenance is None
    with pytest.raises(UsageError, match="triggers only"):
        ops.update(ws, ins.id, {"type": "skill"})
    with pytest.raises(UsageError, match="out of range"):
        ops.update(ws, ins.id, {"confidence": 2})
    assert store.load(ws).insights[0] == cleared


def test_archive_is_soft_and_restorable(ws):
    ins = add(ws, "skill", "Use pytest", 0.9).insight
    archived = ops.archive(ws, ins.id, now=NOW)
    doc = store.load(ws)
    assert doc.insights[0].archived_at == "2026-11-30 08:27:14" and doc.active() == []
    assert "- archived: 2026-11-30 08:27:14" in (ws.root / "INSIGHTS.md").read_text()
    with pytest.raises(UsageError, match="already archived"):
        ops.archive(ws, ins.id)
    assert ops.restore(ws, ins.id).archived_at is None
    assert archived.id == ins.id


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"type": "feeling", "claim": "x", "confidence": 0.5}, "unknown insight type 'feeling'"),
        ({"type": "skill", "claim": "x", "confidence": "abc"}, "invalid confidence 'abc'"),
        ({"type": "skill", "claim": "x", "confidence": -0.1}, "out of range"),
        ({"type": "skill", "claim": "  ", "confidence": 0.5}, "claim must not be empty"),
        ({"type": "skill", "claim": "x", "confidence": 0.5, "avoid": True}, "--avoid applies to triggers only"),
        ({"type": "skill", "claim": "x", "confidence": 0.5, "provenance": "rumor"}, "unknown provenance"),
    ],
    ids=["type", "confidence-text", "confidence-range", "empty-claim", "avoid-non-trigger", "provenance"],
)
def test_bad_contributions_are_refused(ws, fields, message):
    with pytest.raises(UsageError, match=message):
        ops.draft(**fields)
    assert not (ws.root / "INSIGHTS.md").exists()


def test_stats_lists_every_type_and_archived(ws):
    store.save(ws.root / "INSIGHTS.md", InsightsFile((
        make("a", "trigger", "t", 0.5), make("b", "skill", "s", 1.0), make("c", "skill", "x", 0.1,
                                                                            archived_at="2026-11-30 08:27:14"),
    )))
    s = ops.stats(store.load(ws))
    assert s["total"] == 2 and s["archived"] == 1 and s["averageConfidence"] == 0.75
    assert s["byType"] == {t.value: (1 if t in (InsightType.TRIGGER, InsightType.SKILL) else 0) for t in InsightType}


def test_list_filters(ws):
    store.save(ws.root / "INSIGHTS.md", InsightsFile((
        make("a", "trigger", "t", 0.5, tags=("Chat",)), make("b", "skill", "s", 0.9, provenance="directive"),
        make("c", "skill", "x", 0.95, archived_at="2026-11-30 08:27:14"),
    )))
    doc = store.load(ws)
    assert [i.id for i in ops.select(doc, types=["skill"])] == ["b"]
    assert [i.id for i in ops.select(doc, tags=["chat"])] == ["a"]
    assert [i.id for i in ops.select(doc, min_confidence=0.6, archived="all")] == ["b", "c"]
    assert [i.id for i in ops.select(doc, archived="only")] == ["c"]
    assert [i.id for i in ops.select(doc, provenance="directive")] == ["b"]


def test_reinforce_falls_back_to_the_workspace_session_counter(ws, monkeypatch):
    from tiers import session

    monkeypatch.delenv("CUTICLE_SESSION_ID", raising=False)
    ins = add(ws, "skill", "Use ruff", 0.5).insight
    first = ops.reinforce(ws, ins.id)
    assert first.reinforced and first.session == f"n:{session.current_session(ws)}"
    assert not ops.reinforce(ws, ins.id).reinforced
    session.start_session(ws, "host-1")
    session.end_session(ws, "host-1")  # the counter advances: a new session may reinforce again
    assert ops.reinforce(ws, ins.id).reinforced


def _contribute_many(root: str, worker: int) -> None:
    from tiers.workspace import Workspace

    w = Workspace(root)
    for n in range(8):
        ops.contribute(w, ops.draft(type="skill", claim=f"worker {worker} lesson {n} zq{worker}x{n}", confidence=0.5),
                       shield=False)


def test_concurrent_contributions_are_all_kept(ws):
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_contribute_many, args=(str(ws.root), w)) for w in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert all(p.exitcode == 0 for p in procs)
    claims = {i.claim for i in store.load(ws).insights}
    assert claims == {f"worker {w} lesson {n} zq{w}x{n}" for w in range(3) for n in range(8)}
