"""The workspace config: parsed once per config text, the parse reused across processes through the cache."""

from __future__ import annotations

import json

import pytest

from tiers.errors import ConfigError
from tiers.workspace import Workspace, glob_match


def make(tmp_path, text: str) -> Workspace:
    (tmp_path / ".cuticle").mkdir(exist_ok=True)
    (tmp_path / ".cuticle" / "key").write_text("ab" * 32 + "\n", encoding="ascii")  # as `cuticle init` leaves it
    (tmp_path / ".cuticle" / "config.toml").write_text(text, encoding="utf-8")
    return Workspace(tmp_path)


def test_config_parse_is_cached_and_follows_every_edit(tmp_path):
    assert make(tmp_path, "[tiers]\nhypothesis_ttl = 5\n").section("tiers") == {"hypothesis_ttl": 5}
    cache = tmp_path / ".cuticle" / "cache" / "config.json"
    assert json.loads(cache.read_text(encoding="utf-8"))["config"] == {"tiers": {"hypothesis_ttl": 5}}
    # the next process reuses the parse only for the identical text
    assert Workspace(tmp_path).section("tiers") == {"hypothesis_ttl": 5}
    assert make(tmp_path, "[tiers]\nhypothesis_ttl = 6\n").section("tiers") == {"hypothesis_ttl": 6}
    assert make(tmp_path, "[tiers]\nhypothesis_ttl = 6 \n").section("tiers") == {"hypothesis_ttl": 6}


def test_a_broken_or_stale_cache_is_ignored(tmp_path):
    make(tmp_path, "[gate]\nuser_guard = false\n").config
    cache = tmp_path / ".cuticle" / "cache" / "config.json"
    cache.write_text("{not json", encoding="utf-8")
    assert Workspace(tmp_path).section("gate") == {"user_guard": False}
    cache.write_text(json.dumps({"toml": "[gate]\n", "config": {"gate": {"user_guard": True}}}), encoding="utf-8")
    assert Workspace(tmp_path).section("gate") == {"user_guard": False}


def test_editing_only_the_derived_cache_changes_nothing(tmp_path):
    make(tmp_path, "[gate]\nuser_guard = [\"USER.md\"]\n").config
    cache = tmp_path / ".cuticle" / "cache" / "config.json"
    forged = json.loads(cache.read_text(encoding="utf-8"))
    forged["config"] = {"gate": {"user_guard": False}}  # same text, other parse, the old (now wrong) mac
    cache.write_text(json.dumps(forged), encoding="utf-8")
    assert Workspace(tmp_path).section("gate") == {"user_guard": ["USER.md"]}
    del forged["mac"]
    cache.write_text(json.dumps(forged), encoding="utf-8")
    assert Workspace(tmp_path).section("gate") == {"user_guard": ["USER.md"]}


def test_a_workspace_without_a_key_parses_without_a_cache(tmp_path):
    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 5\n", encoding="utf-8")
    assert Workspace(tmp_path).section("tiers") == {"hypothesis_ttl": 5}
    assert not (tmp_path / ".cuticle" / "cache").exists()
    assert not (tmp_path / ".cuticle" / "key").exists()


def test_the_hook_replaces_an_invalid_config_by_the_defaults_and_says_why(tmp_path):
    ws = make(tmp_path, "[gate\nuser_guard = false\n")
    error = ws.config_or_defaults()
    assert error is not None and "invalid TOML" in error and "\n" not in error
    assert ws.config == {} and ws.section("gate") == {}
    ws = make(tmp_path, "[memory]\nglobs = 3\n")
    assert "globs must be a list" in ws.config_or_defaults()
    assert ws.memory_globs == ("MEMORY.md", "memory.md", "USER.md", "memory/**/*.md")


def test_an_unreadable_config_is_a_config_error(tmp_path):
    ws = make(tmp_path, "")
    (tmp_path / ".cuticle" / "config.toml").write_bytes(b"[gate]\nuser_guard = \"\xff\"\n")
    assert "cannot read config" in ws.config_or_defaults()


def test_invalid_toml_is_an_error_every_time(tmp_path):
    for _ in range(2):
        with pytest.raises(ConfigError, match="invalid TOML"):
            make(tmp_path, "[gate\n").config
    assert not (tmp_path / ".cuticle" / "cache" / "config.json").exists()


def test_values_json_cannot_hold_are_parsed_without_a_cache(tmp_path):
    ws = make(tmp_path, "[tiers]\nsince = 2026-11-30\n")
    assert str(ws.section("tiers")["since"]) == "2026-11-30"
    assert not (tmp_path / ".cuticle" / "cache" / "config.json").exists()


def test_a_read_only_state_dir_still_gives_the_config(tmp_path):
    ws = make(tmp_path, "[tiers]\nhypothesis_ttl = 4\n")
    (tmp_path / ".cuticle" / "cache").write_text("not a directory", encoding="utf-8")  # cache cannot be written
    assert ws.section("tiers") == {"hypothesis_ttl": 4}


@pytest.mark.parametrize(("path", "globs", "expected"), [
    ("MEMORY.md", ("MEMORY.md",), True),
    ("sub/MEMORY.md", ("MEMORY.md",), False),
    ("MEMORY.md.bak", ("MEMORY.md",), False),
    ("memory.md", ("MEMORY.md",), False),
    ("memory/2026-12-01.md", ("memory/**/*.md",), True),
    ("memory/a/b/c.md", ("memory/**/*.md",), True),
    ("memory.md", ("memory/**/*.md",), False),
    ("notes/a.md", ("notes/*.md",), True),
    ("notes/x/a.md", ("notes/*.md",), False),
    ("day1.md", ("day?.md",), True),
    ("day10.md", ("day?.md",), False),
    ("a+b.md", ("a+b.md",), True),
    ("aab.md", ("a+b.md",), False),
    ("x/USER.md", ("MEMORY.md", "**/USER.md"), True),
    ("MEMORY.md", (), False),
], ids=["literal", "literal elsewhere", "literal prefix", "literal case", "double star", "double star deep",
        "double star not a file", "star", "star one level", "question mark", "question mark one char",
        "regex characters are literal", "regex characters do not match", "any of several", "no globs"])
def test_glob_match_reads_globs_as_paths(path, globs, expected):
    assert glob_match(path, globs) is expected
