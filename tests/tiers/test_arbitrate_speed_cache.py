"""The persistent per-line analysis cache of arbitration: same results with or without it, robust to corruption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tiers import arbitrate as arb
from tiers.concepts import _analyze_cached
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
    json.dumps({"v": arb._CACHE_VERSION, "lx": "x", "files": [], "lines": 3, "akeys": "no"}).encode(),
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
    assert json.loads(_cache_file(ws).read_text(encoding="utf-8"))["v"] == arb._CACHE_VERSION
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
    real = arb.analyze

    def counting(text: str):
        seen.append(text)
        return real(text)

    _fresh_process()
    monkeypatch.setattr(arb, "analyze", counting)
    index = arb.ConstraintIndex.from_workspace(ws)
    assert seen == [changed[7]]
    seen.clear()
    monkeypatch.setattr(arb, "analyze", real)
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


# ------------------------------------------------------------------ the built lexicon tables, cached beside bytecode
def _lexicon_state(lx) -> dict:
    return {k: v for k, v in vars(lx).items() if k != "_wcache"}


@pytest.fixture
def lexicon_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from tiers import concepts

    path = tmp_path / "__pycache__" / "concepts-lexicon.test.marshal"
    path.parent.mkdir()
    monkeypatch.setattr(concepts, "_lexicon_cache_path", lambda data: path)
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    concepts.lexicon.cache_clear()
    yield path
    concepts.lexicon.cache_clear()


def _built_lexicon():
    import tomllib

    from tiers import concepts

    return concepts.Lexicon(tomllib.loads(concepts.DATA.read_text(encoding="utf-8")))


def test_lexicon_cache_round_trips(lexicon_cache: Path) -> None:
    from tiers import concepts

    first = concepts.lexicon()
    assert lexicon_cache.is_file()
    concepts.lexicon.cache_clear()
    second = concepts.lexicon()
    assert second is not first
    assert _lexicon_state(second) == _lexicon_state(_built_lexicon())
    assert second.weight("DEPLOY") == first.weight("DEPLOY")


@pytest.mark.parametrize("payload", [b"", b"\x00garbage", b"\xfb\x00\x00", __import__("marshal").dumps([1, 2]),
                                     __import__("marshal").dumps({"kind": {}})],
                         ids=["empty", "garbage", "truncated", "wrong-type", "missing-tables"])
def test_corrupt_lexicon_cache_is_rebuilt(lexicon_cache: Path, payload: bytes) -> None:
    from tiers import concepts

    lexicon_cache.write_bytes(payload)
    lx = concepts.lexicon()
    assert _lexicon_state(lx) == _lexicon_state(_built_lexicon())
    assert lexicon_cache.read_bytes() != payload  # rewritten with the good tables


def test_lexicon_cache_not_written_without_bytecode(lexicon_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tiers import concepts

    monkeypatch.setattr("sys.dont_write_bytecode", True)
    concepts.lexicon()
    assert not lexicon_cache.exists()


def test_lexicon_cache_path_follows_the_data() -> None:
    from tiers import concepts

    a = concepts._lexicon_cache_path(b"[action]\n")
    b = concepts._lexicon_cache_path(b"[object]\n")
    if a is None:
        pytest.skip("bytecode goes to a pycache prefix here")
    assert a != b and a.parent.name == "__pycache__"
