"""The persistent side of the constraint index and the shipped lexicon tables: same results with or without them,
robust to corruption."""

from __future__ import annotations

import json
import marshal
from pathlib import Path

import pytest

from tiers import arbitrate as arb
from tiers import concepts
from tiers.arbitration import cache
from tiers.concepts import scan, tables
from tiers.concepts.analysis import _analyze_cached
from tiers.workspace import Workspace

DIRECTIVES = [
    "- User said: never deploy the billing service on Fridays.",
    "- User said: always ask before deleting the logs bucket.",
    "- Decided with the user: use Postgres for the orders service.",
    "- Пользователь сказал: никогда не трогать кластер по выходным.",
    "- User said: the default timezone is Europe/Moscow.",
    "- User said: do not push to the main branch without review.",
]
CANDIDATES = [
    "Deploying the billing service on Fridays is fine.",
    "Delete the logs bucket without asking.",
    "Use MySQL for the orders service.",
    "По выходным можно трогать кластер.",
    "The default timezone is UTC.",
    "The team meets on Mondays.",
]


def _fresh_process() -> None:
    """Forget everything a process caches in memory, as a new hook process would start."""
    arb._FILE_CACHE.clear()
    arb._DISK.clear()
    _analyze_cached.cache_clear()


def _ws(root: Path, lines: list[str]) -> Workspace:
    (root / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    ws = Workspace(root)
    ws.ensure_state()
    return ws


def _decisions(index: arb.ConstraintIndex) -> list[dict]:
    from tiers.classify import classify

    out = []
    for text in CANDIDATES:
        cls = classify(text)
        out.append(arb.arbitrate(index, text, cls.tier, file="MEMORY.md", scope=cls.scope).to_json())
    return out


def _reference(ws: Workspace) -> list[dict]:
    _fresh_process()
    return _decisions(arb.ConstraintIndex.from_workspace(ws, persist=False))


def _cache_file(ws: Workspace) -> Path:
    return ws.state_path("cache", "arbitrate.json")


def _keys_file(ws: Workspace) -> Path:
    return ws.state_path("cache", "arbitrate-keys.json")


def test_results_equal_with_and_without_cache(workspace: Path) -> None:
    ws = _ws(workspace, DIRECTIVES)
    expected = _reference(ws)
    _fresh_process()
    first = _decisions(arb.ConstraintIndex.from_workspace(ws))  # writes the cache
    assert _cache_file(ws).is_file()
    _fresh_process()
    second = _decisions(arb.ConstraintIndex.from_workspace(ws))  # reads it
    assert first == expected
    assert second == expected
    assert any(d["decision"] == "block" for d in expected)


@pytest.mark.parametrize("payload", [
    b"{not json",
    b"\xff\xfe\x00garbage",
    b"[]",
    json.dumps({"v": cache._CACHE_VERSION, "lx": "x", "files": [], "lines": 3, "akeys": "no"}).encode(),
], ids=["truncated-json", "binary", "wrong-type", "wrong-tables"])
@pytest.mark.parametrize("which", ["index", "keys", "both"])
def test_corrupt_cache_file_is_ignored(workspace: Path, payload: bytes, which: str) -> None:
    ws = _ws(workspace, DIRECTIVES)
    expected = _reference(ws)
    _cache_file(ws).parent.mkdir(parents=True, exist_ok=True)
    for f in {"index": [_cache_file(ws)], "keys": [_keys_file(ws)], "both": [_cache_file(ws), _keys_file(ws)]}[which]:
        f.write_bytes(payload)
    _fresh_process()
    assert _decisions(arb.ConstraintIndex.from_workspace(ws)) == expected
    # ... and rebuilt as valid caches
    assert json.loads(_cache_file(ws).read_text(encoding="utf-8"))["v"] == cache._CACHE_VERSION
    assert json.loads(_keys_file(ws).read_text(encoding="utf-8"))["akeys"]


def test_malformed_line_entries_are_reanalysed(workspace: Path) -> None:
    ws = _ws(workspace, DIRECTIVES)
    expected = _reference(ws)
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)
    data = json.loads(_keys_file(ws).read_text(encoding="utf-8"))
    assert data["akeys"], "constraints' index keys are cached per line"
    for i, k in enumerate(data["akeys"]):
        data["akeys"][k] = [["ok", 3], "x"] if i % 2 else None
    _keys_file(ws).write_text(json.dumps(data), encoding="utf-8")
    _cache_file(ws).unlink()
    _fresh_process()
    assert _decisions(arb.ConstraintIndex.from_workspace(ws)) == expected


def test_only_changed_lines_are_reanalysed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = DIRECTIVES + [f"- User said: never restart the worker {i} at night." for i in range(20)]
    ws = _ws(workspace, lines)
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)

    changed = list(lines)
    changed[7] = "- User said: never restart the scheduler during the freeze."
    (workspace / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(changed) + "\n", encoding="utf-8")
    expected = _reference(ws)

    seen: list[str] = []
    from tiers.arbitration import records

    real = records.analyze

    def counting(text: str):
        seen.append(text)
        return real(text)

    _fresh_process()
    monkeypatch.setattr(records, "analyze", counting)
    index = arb.ConstraintIndex.from_workspace(ws)
    assert seen == [changed[7]]
    seen.clear()
    monkeypatch.setattr(records, "analyze", real)
    assert _decisions(index) == expected


def test_lexicon_change_invalidates_cached_keys(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _ws(workspace, DIRECTIVES)
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)
    for f in (_cache_file(ws), _keys_file(ws)):
        data = json.loads(f.read_text(encoding="utf-8"))
        data["lx"] = "stale"
        for k in data.get("akeys", {}):
            data["akeys"][k] = [["BOGUS"], 1.0]
        for rec in data.get("files", {}).values():
            rec["keys"] = [["BOGUS"] for _ in rec["keys"]]
        f.write_text(json.dumps(data), encoding="utf-8")
    _fresh_process()
    index = arb.ConstraintIndex.from_workspace(ws)
    assert all("BOGUS" not in k for f in index._files for k in f.keys)


def test_no_cache_written_without_state_dir(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("\n".join(DIRECTIVES) + "\n", encoding="utf-8")
    ws = Workspace(tmp_path)
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws, {"MEMORY.md": DIRECTIVES[0] + "\n"})
    assert not ws.state_dir.exists()


# ------------------------------------------------------------------ the built lexicon tables shipped as JSON
def _decoded(lx) -> dict:
    """Every table of a lexicon as plain values (pattern tables decoded, lists as tuples)."""
    out = {}
    for k in tables._LEXICON_FIELDS:
        table = getattr(lx, k)
        if k in tables._PATTERN_TABLES:
            table = {first: scan._entries(table, first) for first in table}
        if k == "broader":
            table = {c: tuple(p) for c, p in table.items()}
        out[k] = table
    return out


def _built_lexicon():
    import tomllib

    return tables.Lexicon(tomllib.loads(tables.DATA.read_text(encoding="utf-8")))


@pytest.fixture
def fresh_lexicon():
    tables.lexicon.cache_clear()
    yield
    tables.lexicon.cache_clear()


def test_shipped_lexicon_tables_match_the_toml(fresh_lexicon) -> None:
    """Fails after an edit of concepts.toml or of the pattern reader: run `python -m tiers.concepts --build`."""
    shipped = tables._load_built(tables.DATA.read_bytes())
    assert shipped is not None, "tiers/data/concepts.built.marshal is stale: run python -m tiers.concepts --build"
    assert _decoded(shipped) == _decoded(_built_lexicon())
    assert tables.lexicon().weight("DEPLOY") == _built_lexicon().weight("DEPLOY")


@pytest.mark.parametrize("payload", [b"", b"\x00garbage", b"[1, 2]", marshal.dumps([1, 2]),
                                     marshal.dumps({"digest": "x", "tables": {}}), marshal.dumps({"digest": None}),
                                     tables.BUILT.read_bytes()[:1000]],
                         ids=["empty", "garbage", "json", "wrong-type", "stale", "missing-tables", "truncated"])
def test_bad_shipped_tables_fall_back_to_the_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lexicon,
                                                  payload: bytes) -> None:
    bad = tmp_path / "concepts.built.marshal"
    bad.write_bytes(payload)
    monkeypatch.setattr(tables, "BUILT", bad)
    assert tables._load_built(tables.DATA.read_bytes()) is None
    assert _decoded(tables.lexicon()) == _decoded(_built_lexicon())


def test_shipped_tables_follow_the_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lexicon) -> None:
    out = tables.write_built(tmp_path / "built.json")
    monkeypatch.setattr(tables, "BUILT", out)
    assert tables._load_built(tables.DATA.read_bytes()) is not None
    assert tables._load_built(tables.DATA.read_bytes() + b"\n# edited\n") is None


def test_pattern_entries_round_trip() -> None:
    lx = _built_lexicon()
    for table in tables._PATTERN_TABLES:
        for entries in getattr(lx, table).values():
            assert tables._decode_entries(tables._encode_entries(entries)) == entries


def test_unchanged_memory_does_not_read_line_classifications(workspace: Path) -> None:
    ws = _ws(workspace, DIRECTIVES)
    expected = _reference(ws)
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)
    lines_file = ws.state_path("cache", "arbitrate-lines.json")
    assert json.loads(lines_file.read_text(encoding="utf-8"))["lines"], "line classifications are cached"
    lines_file.write_bytes(b"{corrupt")
    _fresh_process()
    index = arb.ConstraintIndex.from_workspace(ws)
    assert "_lines" not in arb._DISK[str(ws.root)]  # the index came from arbitrate.json alone
    assert _decisions(index) == expected
    # an edit re-indexes the file: the corrupt table is ignored and rebuilt
    (workspace / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(DIRECTIVES[:3]) + "\n", encoding="utf-8")
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)
    assert json.loads(lines_file.read_text(encoding="utf-8"))["lines"]


def test_cache_digests_are_hashlib_blake2b() -> None:
    import hashlib

    for data in (b"", b"- User said: never deploy on Fridays.\n", "пятница".encode()):
        assert concepts.blake2b(data, digest_size=16).hexdigest() == hashlib.blake2b(data, digest_size=16).hexdigest()


def test_classifier_change_invalidates_cached_line_classifications(workspace: Path) -> None:
    # the line cache holds each line's tier and DECISION scope: a cache written by another classifier
    # (another digest) must not hand its scopes to this one
    line = "- Решили с пользователем: до конца декабря созвоны по средам."
    ws = _ws(workspace, [line])
    _fresh_process()
    arb.ConstraintIndex.from_workspace(ws)
    for name in ("arbitrate.json", "arbitrate-lines.json"):
        f = ws.state_path("cache", name)
        data = json.loads(f.read_text(encoding="utf-8"))
        data["lx"] = "stale"
        for key in data.get("lines", {}):
            data["lines"][key] = ["C", "до конца декабря созвоны"]
        f.write_text(json.dumps(data), encoding="utf-8")
    (workspace / "MEMORY.md").write_text("# Memory\n\n" + line + "\n\n- Notes.\n", encoding="utf-8")
    _fresh_process()
    index = arb.ConstraintIndex.from_workspace(ws)
    assert [c.scope for c in index.constraints if "созвоны" in c.content] == ["до конца декабря"]



def _sources_tree(root: Path) -> Path:
    """A copy of the shape ``cache.sources_digest`` reads: data, concept, arbitration and classifier sources."""
    for rel in ("data/concepts.toml", "concepts/analysis.py", "arbitration/index.py", "data/markers/en.txt",
                "text.py", "stamps.py", "classify.py", "lexicon.py", "line.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"# {rel}\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("change", ["edit", "touch", "add", "remove"], ids=lambda c: c)
def test_any_change_to_an_analysis_source_changes_the_cache_digest(tmp_path: Path, change: str) -> None:
    import os

    root = _sources_tree(tmp_path)
    before = cache.sources_digest(str(root))
    assert cache.sources_digest(str(root)) == before  # a pure function of the sources
    target = root / "data" / "markers" / "en.txt"
    if change == "edit":
        st = target.stat()
        target.write_text("# data/markers/en.TXT\n", encoding="utf-8")  # the same size: the time tells
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    elif change == "touch":
        st = target.stat()
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    elif change == "add":
        (root / "data" / "markers" / "de.txt").write_text("[user]\n", encoding="utf-8")
    else:
        (root / "concepts" / "analysis.py").unlink()
    assert cache.sources_digest(str(root)) != before


def test_files_that_are_no_sources_leave_the_cache_digest_alone(tmp_path: Path) -> None:
    root = _sources_tree(tmp_path)
    before = cache.sources_digest(str(root))
    (root / "concepts" / "notes.txt").write_text("not code\n", encoding="utf-8")
    (root / "gc.py").write_text("# not an analysis source\n", encoding="utf-8")
    assert cache.sources_digest(str(root)) == before


def test_a_missing_source_directory_still_gives_a_digest(tmp_path: Path) -> None:
    assert len(cache.sources_digest(str(tmp_path / "absent"))) == 24


def test_a_lookup_decodes_only_the_part_of_its_first_character(fresh_lexicon) -> None:
    lx = tables.lexicon()
    table = tables.PatternTable.from_state(lx.content.state())
    assert all(part.__class__ is bytes for part in table._parts.values())
    assert table.get("deploy") == lx.content.get("deploy")
    assert table.get("zzzz-no-such-token") is None and table.get("") is None
    decoded = {first for first, part in table._parts.items() if part.__class__ is not bytes}
    assert decoded <= {"d", "z", ""}
    assert dict(table.items()) == dict(lx.content.items())
    assert table.longest == max(map(len, lx.content))


@pytest.mark.parametrize("state", [None, [], {"parts": {}}, {"longest": 3}, {"longest": "3", "parts": {}}],
                         ids=["none", "list", "no-longest", "no-parts", "bad-longest"])
def test_a_malformed_pattern_table_is_no_table(state) -> None:
    assert tables.PatternTable.from_state(state) is None


def test_shipped_tables_with_a_malformed_pattern_table_fall_back_to_the_toml(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lexicon) -> None:
    built = marshal.loads(tables.BUILT.read_bytes())
    built["tables"]["content_prefix"] = {"parts": "not a dict", "longest": 9}
    bad = tmp_path / "concepts.built.marshal"
    bad.write_bytes(marshal.dumps(built))
    monkeypatch.setattr(tables, "BUILT", bad)
    assert tables._load_built(tables.DATA.read_bytes()) is None
    assert _decoded(tables.lexicon()) == _decoded(_built_lexicon())
