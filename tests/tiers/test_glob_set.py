"""A set of globs matched as one (``tiers.workspace.GlobSet``): the same answers as the globs one by one, and no
regex compiled for a path no wildcard glob could match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers.workspace import SELF_GLOBS, GlobSet, glob_to_regex

_PIECES = ["a", "b", ".", "/", "md", "*", "**", "**/", "?", "[", "x.md"]


def _one_by_one(path: str, globs: tuple[str, ...]) -> bool:
    return any(glob_to_regex(g).match(path) is not None for g in globs)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join), max_size=5).map(tuple),
       st.lists(st.sampled_from(["a", "b", ".", "/", "md", "x", "["]), max_size=8).map("".join))
def test_a_glob_set_answers_as_its_globs_do_one_by_one(globs, path):
    assert GlobSet(globs).match(path) == _one_by_one(path, globs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join), min_size=1, max_size=5)
       .map(tuple), st.lists(st.sampled_from(["a", "b", "/", "md", "x"]), max_size=8).map("".join))
def test_once_compiled_the_set_still_answers_the_same(globs, path):
    warm = GlobSet(globs)
    warm.match("a" * 3)  # may or may not compile; then force the compile
    if warm._regex is not None:
        warm._regex.on()
    assert warm.match(path) == _one_by_one(path, globs)


@pytest.mark.parametrize(("path", "expected"), [
    ("MEMORY.md", False), ("src/app.py", False), (".cuticle/config.toml", True), ("sub/.cuticle/key", True),
    ("chitin.yaml", True), (".claude/settings.local.json", True), (".git/hooks/pre-commit", True),
    (".gitignore", False),
], ids=lambda x: x if isinstance(x, str) else None)
def test_the_self_globs_protect_cuticles_state_and_the_hook_settings(path, expected):
    assert GlobSet(SELF_GLOBS).match(path) is expected
    assert _one_by_one(path, SELF_GLOBS) is expected


def test_a_path_no_wildcard_glob_could_match_compiles_nothing():
    globs = ("MEMORY.md", "memory/**/*.md", ".claude/memory/**/*.md", "*.pem")
    cold = GlobSet(globs)
    assert cold.match("MEMORY.md") and not cold.match("src/app.py") and not cold.match("README.md")
    assert not cold._regex.compiled  # the literal runs ruled every wildcard glob out
    assert cold.match("memory/2026/notes.md")
    assert cold._regex.compiled
    assert cold.match("server.pem") and not cold.match("server.pem.bak")
