"""Chitin export JSON in and out: lossless round trips, whole-input validation, nothing written on bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from personality_data import CHITIN_SET, NOW, ids, insights, seeded, ws  # noqa: F401 - fixtures

from personality import ops, store
from personality.chitin import js_dumps, js_number
from personality.store import InsightsFile
from tiers.errors import ParseError, UsageError

#: Exactly what `chitin export` prints (§2): newest first, 2-space indentation, undefined fields left out.
CHITIN_EXPORT = """\
[
  {
    "id": "d5dd0a45-c496-4112-86b4-01b27726e2cf",
    "type": "trigger",
    "claim": "skip it, just answer directly",
    "confidence": 0.95,
    "tags": [
      "communication",
      "style"
    ],
    "provenance": "reflection",
    "condition": "tempted to open with filler praise like 'Great question!'",
    "avoid": true,
    "createdAt": "2026-11-30 08:27:20",
    "updatedAt": "2026-11-30 08:27:20",
    "reinforcementCount": 0
  },
  {
    "id": "fa34557f-ce17-4c6b-91df-6546c1020cd0",
    "type": "behavioral",
    "claim": "On clear tasks, execute first, narrate minimally",
    "reasoning": "Boss moved on",
    "context": "Simple tasks",
    "limitations": "Ambiguous tasks",
    "confidence": 0.8574999999999999,
    "tags": [],
    "source": "carapace:abc",
    "provenance": "directive",
    "avoid": false,
    "createdAt": "2026-11-30 08:27:14",
    "updatedAt": "2026-11-30 08:27:18",
    "reinforcementCount": 1,
    "lastRetrievedAt": "2026-11-30 08:27:18"
  },
  {
    "id": "0b7e1c2a-5d3f-4e8a-9c1b-2a3d4e5f6a7b",
    "type": "personality",
    "claim": "Я использую сухой юмор умеренно 🦞",
    "confidence": 1,
    "tags": [
      "юмор"
    ],
    "avoid": false,
    "createdAt": "2026-11-30 08:27:10",
    "updatedAt": "2026-11-30 08:27:10",
    "reinforcementCount": 0
  }
]
"""


def test_import_then_export_is_byte_identical(ws):
    result = ops.import_json(ws, CHITIN_EXPORT, "export.json")
    assert len(result.imported) == 3 and result.written
    assert ops.export_json(store.load(ws)) == CHITIN_EXPORT


def test_every_field_survives_the_markdown_file(ws):
    ops.import_json(ws, CHITIN_EXPORT, "export.json")
    trigger = store.load(ws).insights[0]
    assert trigger.condition.startswith("tempted") and trigger.avoid and trigger.provenance.value == "reflection"
    text = (ws.root / "INSIGHTS.md").read_text(encoding="utf-8")
    assert "## d5dd0a45-c496-4112-86b4-01b27726e2cf\n- type: trigger\n" in text
    assert "- last-retrieved: 2026-11-30 08:27:18" in text


def test_export_import_round_trip_of_the_chitin_set(ws, tmp_path):
    text = ops.export_json(InsightsFile(CHITIN_SET))
    other = ws.root.parent / "other"
    other.mkdir()
    from tiers.workspace import Workspace

    ws2 = Workspace(other)
    ops.import_json(ws2, text, "x.json")
    assert store.load(ws2).insights == CHITIN_SET
    assert ops.export_json(store.load(ws2)) == text


def test_unknown_keys_and_archived_insights_round_trip(ws):
    data = json.loads(CHITIN_EXPORT)
    data[0]["embeddingModel"] = {"provider": "voyage", "dims": [1024]}
    data[1]["archivedAt"] = "2026-11-30 09:00:00"
    text = js_dumps(data) + "\n"
    ops.import_json(ws, text, "x.json")
    assert ops.export_json(store.load(ws), include_archived=True) == text
    # archived insights stay out of a plain export (Chitin has no archived state to receive them)
    assert [i["id"] for i in json.loads(ops.export_json(store.load(ws)))] == [data[0]["id"], data[2]["id"]]


def test_seed_style_records_get_ids_timestamps_and_defaults(ws, ids):
    seed = [{"type": "skill", "claim": "TDD: red, green, refactor", "tags": ["coding"]}, {"type": "behavioral", "claim": "x", "confidence": 0.8}]
    result = ops.import_json(ws, json.dumps(seed), "seed.json", now=NOW, id_factory=ids)
    a, b = store.load(ws).insights
    assert a.id == "10000000-0000-4000-8000-000000000001" and a.confidence == 0.5  # Chitin's import default
    assert a.created_at == a.updated_at == "2026-11-30 08:27:14" and a.reinforcement_count == 0
    assert b.confidence == 0.8 and len(result.imported) == 2


def test_a_single_object_is_wrapped(ws):
    ops.import_json(ws, json.dumps({"type": "skill", "claim": "one", "confidence": 0.7}), "one.json")
    assert [i.claim for i in store.load(ws).insights] == ["one"]


BAD = [
    ('[{"type": "bogus", "claim": "x"}]', "bad.json: item 1: unknown insight type 'bogus'"),
    ('[{"type": "skill", "claim": "x", "confidence": 1.2}]', "bad.json: item 1: confidence 1.2 is out of range"),
    ('[{"type": "skill", "claim": "x", "confidence": "0.9"}]', "bad.json: item 1: confidence must be a JSON number"),
    ('[{"type": "skill"}]', "bad.json: item 1: missing 'claim'"),
    ('[{"claim": "x"}]', "bad.json: item 1: missing 'type'"),
    ('[{"type": "skill", "claim": "x", "provenance": "rumor"}]', "bad.json: item 1: unknown provenance 'rumor'"),
    ('[{"type": "skill", "claim": "x", "tags": "a,b"}]', "bad.json: item 1: tags must be a list of strings"),
    ('[{"type": "skill", "claim": "x", "avoid": 1}]', "bad.json: item 1: 'avoid' must be true or false"),
    ('[{"type": "skill", "claim": "x", "createdAt": "yesterday"}]', "bad.json: item 1: invalid createdAt"),
    ('[{"type": "skill", "claim": "x", "id": "has space"}]', "bad.json: item 1: invalid insight id"),
    ('[{"type": "skill", "claim": "x", "id": "a1"}, {"type": "skill", "claim": "y", "id": "a1"}]',
     "bad.json: item 2: id a1 repeats item 1"),
    ('[{"type": "skill", "claim": "x\\ud800"}]', "bad.json: item 1: claim contains an unpaired surrogate"),
    ("[1]", "bad.json: item 1: expected a JSON object"),
    ('"text"', "bad.json: expected a JSON array"),
    ("[{", "bad.json:1:3: invalid JSON"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m.split(": ", 2)[-1][:40] for _, m in BAD])
def test_bad_import_is_rejected_whole_and_writes_nothing(seeded, text, message):
    path = seeded.root / "INSIGHTS.md"
    before = path.read_bytes()
    good_first = '[{"type": "skill", "claim": "fine", "confidence": 0.5}, ' + text.lstrip("[") if text.startswith("[{") else text
    with pytest.raises((UsageError, ParseError)) as info:
        ops.import_json(seeded, text, "bad.json")
    assert str(info.value).startswith(message), str(info.value)
    assert path.read_bytes() == before
    if good_first != text:  # a good record before the bad one is not imported either (no partial import)
        with pytest.raises((UsageError, ParseError)):
            ops.import_json(seeded, good_first, "bad.json")
        assert path.read_bytes() == before


def test_existing_ids_need_merge_or_replace(ws):
    ops.import_json(ws, CHITIN_EXPORT, "e.json")
    before = (ws.root / "INSIGHTS.md").read_bytes()
    with pytest.raises(UsageError, match="already in INSIGHTS.md; use --merge"):
        ops.import_json(ws, CHITIN_EXPORT, "e.json")
    assert (ws.root / "INSIGHTS.md").read_bytes() == before
    merged = ops.import_json(ws, CHITIN_EXPORT, "e.json", merge=True)
    assert merged.imported == () and len(merged.skipped) == 3
    changed = json.loads(CHITIN_EXPORT)
    changed[0]["claim"] = "a new response"
    replaced = ops.import_json(ws, js_dumps(changed), "e.json", replace=True)
    assert len(replaced.replaced) == 3
    assert store.load(ws).insights[0].claim == "a new response"
    assert len(store.load(ws).insights) == 3


def test_merge_skips_duplicate_claims_including_inside_the_input(ws):
    items = [{"type": "skill", "claim": "Run the tests"}, {"type": "skill", "claim": "run  the TESTS"}]
    result = ops.import_json(ws, json.dumps(items), "d.json", merge=True)
    assert len(result.imported) == 1 and result.skipped == ("run  the TESTS",)


def test_dry_run_writes_nothing(ws):
    result = ops.import_json(ws, CHITIN_EXPORT, "e.json", dry_run=True)
    assert len(result.imported) == 3 and not result.written
    assert not (ws.root / "INSIGHTS.md").exists()


@pytest.mark.parametrize(
    "value, text",
    [(1.0, "1"), (0.0, "0"), (0.95, "0.95"), (0.8574999999999999, "0.8574999999999999"), (1e-05, "0.00001"),
     (1e-07, "1e-7"), (3, "3")],
    ids=["one", "zero", "plain", "long", "small", "tiny", "int"],
)
def test_numbers_are_formatted_like_javascript(value, text):
    assert js_number(value) == text


@settings(max_examples=150, deadline=None)
@given(st.lists(insights(), max_size=6, unique_by=lambda i: i.id))
def test_property_export_import_export_is_identity(items):
    import tempfile

    from tiers.workspace import Workspace

    items = [i.with_changes(created_at=i.created_at or "2026-01-01 00:00:00",
                            updated_at=i.updated_at or "2026-01-01 00:00:00") for i in items]
    text = ops.export_json(InsightsFile(tuple(items)), include_archived=True)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(tmp)
        ops.import_json(ws, text, "x.json")
        assert store.load(ws).insights == tuple(items)
        assert ops.export_json(store.load(ws), include_archived=True) == text


_json = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["id", "type", "claim", "confidence", "tags", "avoid", "createdAt", "provenance",
                         "reinforcementCount", "condition", "x"]), inner, max_size=6),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(_json)
def test_property_import_of_any_json_raises_only_our_errors(value):
    import tempfile

    from tiers.errors import CuticleError
    from tiers.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        try:
            ops.import_json(Workspace(tmp), json.dumps(value), "any.json")
        except CuticleError:
            pass
