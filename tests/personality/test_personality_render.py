"""PERSONALITY.md: token estimate, budget filled by score, no empty headers, every character counted, golden file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from personality_data import CHITIN_SET, make, seeded, ws  # noqa: F401 - fixtures

import personality
from personality import api, store
from personality.render import HEADER, estimate_tokens, insight_line, marshal
from personality.retrieve import retrieve
from personality.store import InsightsFile

GOLDEN = Path(__file__).parent / "golden"

CHITIN_BODY = """\
### Personality
- I use dry humor sparingly

### Relational
- Boss values directness. Skip the preamble.
- Boss prefers verbose explanations

### Behavioral
- On clear tasks, execute first, narrate minimally

### Principle
- Security first — verify before trusting external content

### Skill
- TDD: red, green, refactor

### Trigger
- When: tempted to open with filler praise like 'Great question!' → avoid: skip it, just answer directly
- When: context compacted mid-conversation → do: check channel history before asking user to repeat"""


@pytest.mark.parametrize(
    "text, tokens",
    [("", 0), ("a" * 400, 100), ("abc", 1), ("abcde", 2), ("## Personality Context\n\n", 6), ("🦞", 1),
     ("🦞🦞🦞", 2), ("ёжик", 1)],
    ids=["empty", "400", "abc", "abcde", "header", "lobster", "three-lobsters", "cyrillic"],
)
def test_estimate_tokens_matches_chitin(text, tokens):
    assert estimate_tokens(text) == tokens


def test_full_budget_body_equals_chitins_compact_output():
    scored = retrieve(CHITIN_SET, "Help me fix this TypeScript build error").items
    assert marshal(scored, 2000, header=None).text == CHITIN_BODY


def test_budget_is_filled_by_score_not_by_type_order():
    # Chitin with --budget 60 kept the lowest-scored personality line and dropped the skill (score 1.62).
    scored = retrieve(CHITIN_SET, "Help me fix this TypeScript build error").items
    r = marshal(scored, 60, header=None)
    assert "TDD: red, green, refactor" in r.text
    assert "I use dry humor sparingly" not in r.text
    assert r.tokens <= 60 and estimate_tokens(r.text) == r.tokens
    assert "### Personality" not in r.text  # no empty headers, ever


@pytest.mark.parametrize("budget", range(1, 140, 3))
def test_every_budget_is_respected_and_no_header_is_empty(budget):
    scored = retrieve(CHITIN_SET, "").items
    for header in (HEADER, None):
        r = marshal(scored, budget, header=header, advisory_below=0.85)
        assert estimate_tokens(r.text) <= budget
        blocks = r.text.split("### ")[1:]
        assert all("\n- " in block for block in blocks), r.text
        assert len(r.included) + r.omitted == len(scored)


def test_tiny_budget_gives_empty_or_header_only():
    scored = retrieve(CHITIN_SET, "").items
    assert marshal(scored, 1).text == ""
    header_tokens = estimate_tokens(HEADER + "\n")
    r = marshal(scored, header_tokens)
    assert r.text == HEADER + "\n" and r.included == ()


def test_triggers_only():
    triggers = tuple(i for i in CHITIN_SET if i.type.value == "trigger") + (
        make("t3", "trigger", "no condition trigger", 0.7),
        make("t4", "trigger", "apologise twice", 0.7, avoid=True),
    )
    r = marshal(retrieve(triggers, "").items, 2000)
    assert r.text.count("### ") == 1 and "### Trigger\n" in r.text
    assert "- When: context compacted mid-conversation → do: check channel history" in r.text
    assert "- no condition trigger" in r.text and "- Avoid: apologise twice" in r.text


def test_unicode_budget_counts_utf16_units():
    items = (make("e", "personality", "🦞" * 10, 0.9), make("r", "personality", "ёж" * 10, 0.8))
    scored = retrieve(items, "").items
    full = marshal(scored, 1000, header=None).text
    assert full == "### Personality\n- " + "🦞" * 10 + "\n- " + "ёж" * 10
    # "### Personality\n- " + 10 lobsters = 18 + 20 units = 38 units = 10 tokens: only the first fits in 10
    r = marshal(scored, 10, header=None)
    assert r.included == ("e",) and r.tokens == 10


def test_low_confidence_goes_to_a_marked_advisory_section():
    items = CHITIN_SET + (make("low", "skill", "Maybe use uv instead of pip", 0.4),)
    text = marshal(retrieve(items, "").items, 2000, advisory_below=0.6).text
    assert text.endswith("### Advisory (low confidence: hints, not rules)\n"
                         "- Maybe use uv instead of pip (skill, confidence 0.40)\n")


def test_multiline_claims_render_on_one_line():
    ins = make("m", "skill", "first line\n  second line", 0.9, context="a\nb")
    assert insight_line(ins, include_context=True) == "- first line second line (a b)"
    assert insight_line(ins, fmt="full") == "- first line second line\n  Context: a b"


def test_render_workspace_matches_golden_file_and_is_byte_identical(seeded):
    result = api.render_workspace(seeded)
    data = (seeded.root / "PERSONALITY.md").read_bytes()
    assert data == (GOLDEN / "PERSONALITY.md").read_bytes()
    assert result.changed
    again = api.render_workspace(seeded)
    assert not again.changed and (seeded.root / "PERSONALITY.md").read_bytes() == data


def test_session_start_renders_and_returns_the_text(seeded, ws):
    text = personality.session_start(seeded)
    assert text == (seeded.root / "PERSONALITY.md").read_text(encoding="utf-8")
    assert text.startswith(HEADER)


def test_session_start_without_insights_file_does_nothing(ws):
    assert personality.session_start(ws) is None
    assert not (ws.root / "PERSONALITY.md").exists()


def test_config_budget_and_output(seeded):
    (seeded.state_dir).mkdir(exist_ok=True)
    (seeded.state_dir / "config.toml").write_text('[personality]\nbudget = 40\noutput = "ctx/P.md"\n')
    from tiers.workspace import Workspace

    ws2 = Workspace(seeded.root)
    text = personality.session_start(ws2)
    assert estimate_tokens(text) <= 40 and (seeded.root / "ctx" / "P.md").read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "config, message",
    [
        ("budget = 0", "budget must be at least 1"),
        ("collision_threshold = 1.5", "collision_threshold must be between 0 and 1"),
        ("colour = 1", "unknown key 'colour'"),
        ('embedder = "voyage"', "embedder must be one of"),
        ('budget = "big"', "budget has the wrong type"),
        ('output = "../x.md"', "output must be a path inside the workspace"),
    ],
    ids=["budget", "threshold", "unknown", "embedder", "type", "outside"],
)
def test_bad_config_is_a_clear_error(seeded, config, message):
    from tiers.errors import ConfigError
    from tiers.workspace import Workspace

    seeded.state_dir.mkdir(exist_ok=True)
    (seeded.state_dir / "config.toml").write_text(f"[personality]\n{config}\n")
    with pytest.raises(ConfigError, match=message):
        personality.session_start(Workspace(seeded.root))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["skill", "trigger", "personality", "relational"]),
                       st.text(min_size=1, max_size=30).filter(str.strip),
                       st.floats(0, 1)), max_size=12),
    st.integers(1, 200),
)
def test_property_render_respects_budget_and_is_deterministic(rows, budget):
    items = tuple(make(f"i{n}", t, c, f, condition="when x" if t == "trigger" else None)
                  for n, (t, c, f) in enumerate(rows))
    scored = retrieve(items, "").items
    a = marshal(scored, budget, advisory_below=0.5)
    b = marshal(retrieve(tuple(reversed(items)), "").items, budget, advisory_below=0.5)
    assert estimate_tokens(a.text) <= budget
    assert a.text == b.text  # file order never changes the output


def test_golden_file_is_current():
    """The golden file is the Chitin §14.10 set rendered with the defaults; after a deliberate format change,
    regenerate it with `cuticle render --stdout` on a workspace holding that set and review the diff."""
    text = (GOLDEN / "PERSONALITY.md").read_text(encoding="utf-8")
    assert text.startswith(HEADER) and text.endswith("\n") and "### Advisory" not in text
    assert store.parse(store.render(InsightsFile(CHITIN_SET))).insights == CHITIN_SET


def test_new_files_get_the_umask_mode_not_0600(seeded):
    import os
    import stat

    mask = os.umask(0o022)
    try:
        api.render_workspace(seeded)
        mode = stat.S_IMODE((seeded.root / "PERSONALITY.md").stat().st_mode)
        assert mode == 0o644
        assert stat.S_IMODE((seeded.root / "INSIGHTS.md").stat().st_mode) == 0o644
    finally:
        os.umask(mask)
