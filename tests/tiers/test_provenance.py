"""Verified provenance: the user's own words of this turn make a DIRECTIVE; phrasing alone never does."""

from __future__ import annotations

import json

import pytest

from tiers.errors import UsageError
from tiers.model import Tier
from tiers.provenance import (MAX_PROMPTS, classify_with_provenance, current_prompt, provenance_share,
                              record_prompt)
from tiers.workspace import Workspace


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path)
    record_prompt(w, "s1", "Never deploy on Fridays. Use Redis for staging until March. "
                           "Пиши мне только в Telegram, почту я не читаю.")
    return w


@pytest.mark.parametrize(("line", "tier", "scope"), [
    ("- Never deploy on Fridays.", Tier.DIRECTIVE, None),
    ("- Redis for staging until March.", Tier.DECISION, "for staging until March"),
    ("- Писать пользователю только в Telegram.", Tier.DIRECTIVE, None),
], ids=["en-directive", "en-decision", "ru-directive"])
def test_the_users_own_words_become_verified(ws, line, tier, scope):
    cls = classify_with_provenance(ws, "s1", line)
    assert cls.tier is tier and cls.verified
    assert cls.scope == scope
    assert 0.76 <= cls.confidence <= 1.0
    assert cls.reasons[0].startswith("verified")


@pytest.mark.parametrize("line", [
    "- Probably never deploy on Fridays.",          # hedged
    "- Вероятно, пользователю удобнее Telegram.",     # hedged, RU
    "- Deploys on Fridays are fine.",               # the user's words, opposite polarity
    "- Use Redis everywhere.",                      # the user's words, scope dropped / universal added
    "- User said: always use Kubernetes.",          # a marker the prompt does not back
    "- Kubernetes upgrade planned for next week.",  # unrelated
], ids=["hedge", "hedge-ru", "flipped", "generalized", "forged-marker", "unrelated"])
def test_phrasing_cannot_talk_a_line_into_verified(ws, line):
    assert not classify_with_provenance(ws, "s1", line).verified


def test_an_observation_stays_an_observation(tmp_path):
    w = Workspace(tmp_path)
    record_prompt(w, "s", "pytest tests/api passed 42 tests")
    cls = classify_with_provenance(w, "s", "- `pytest tests/api` passed: 42 tests.")
    assert cls.tier is Tier.OBSERVATION and not cls.verified


def test_only_the_current_turn_of_the_same_session_counts(ws):
    record_prompt(ws, "s1", "What is the weather like?")
    assert not classify_with_provenance(ws, "s1", "- Never deploy on Fridays.").verified
    assert not classify_with_provenance(ws, "other", "- Never deploy on Fridays.").verified
    assert not classify_with_provenance(ws, None, "- Never deploy on Fridays.").verified


def test_prompts_are_bounded_per_session_and_stored_atomically(tmp_path):
    w = Workspace(tmp_path)
    for i in range(MAX_PROMPTS + 5):
        record_prompt(w, "s", f"prompt {i}")
    data = json.loads((tmp_path / ".cuticle" / "prompts.json").read_text(encoding="utf-8"))
    assert len(data["s"]) == MAX_PROMPTS
    assert current_prompt(w, "s") == f"prompt {MAX_PROMPTS + 4}"
    assert not list((tmp_path / ".cuticle").glob("*.tmp"))


@pytest.mark.parametrize(("sid", "prompt"), [("", "x"), ("s", None), (None, "x")], ids=["no-id", "no-text", "none"])
def test_record_prompt_rejects_bad_input(tmp_path, sid, prompt):
    with pytest.raises(UsageError):
        record_prompt(Workspace(tmp_path), sid, prompt)


def test_share_counts_content_words_only():
    share, matched = provenance_share("- User said: never deploy on Fridays.", "never deploy on fridays please")
    assert share == 1.0 and matched == 3
    assert provenance_share("- ", "anything") == (0.0, 0)


@pytest.mark.parametrize(("prompt", "line", "verified"), [
    ("From now on use pnpm for every install, never npm.", "- Use pnpm for every install, never npm.", True),
    ("From now on use pnpm for every install, never npm.", "- Use npm for every install, never pnpm.", False),
    ("From now on use pnpm for every install, never npm.", "- Probably use pnpm for every install, never npm.",
     False),
    ("From now on use pnpm for every install, never npm.", "- Use pnpm for every install, npm is fine too.", False),
    ("Отныне ставь зависимости только через pnpm, никогда не через npm.",
     "- Ставить зависимости только через pnpm, никогда не через npm.", True),
    ("Отныне ставь зависимости только через pnpm, никогда не через npm.",
     "- Ставить зависимости только через npm, никогда не через pnpm.", False),
    ("Отныне ставь зависимости только через pnpm, никогда не через npm.",
     "- Наверное, ставить зависимости только через pnpm, никогда не через npm.", False),
    ("Отныне ставь зависимости только через pnpm, никогда не через npm.",
     "- Ставить зависимости через pnpm, но через npm тоже можно.", False),
], ids=["a copied two-clause sentence verifies", "swapped values do not verify",
        "a hedged copy does not verify", "a copy that adds a permission does not verify",
        "a copied two-clause russian sentence verifies", "swapped russian values do not verify",
        "a hedged russian copy does not verify", "a russian copy that adds a permission does not verify"])
def test_the_whole_copied_sentence_decides_polarity(tmp_path, prompt, line, verified):
    w = Workspace(tmp_path)
    record_prompt(w, "s", prompt)
    cls = classify_with_provenance(w, "s", line)
    assert cls.verified is verified
    if verified:
        assert cls.tier is Tier.DIRECTIVE and cls.scope is None  # "for every install" widens; it is no scope


_GATE_LINES = [
    "- Never deploy on Fridays.",                       # the user's own words this turn: verified
    "- Redis for staging until March.",                 # verified, with a scope
    "- Писать пользователю только в Telegram.",          # verified, RU
    "- User said: no emojis in commit messages.",       # a marker, not in the prompt
    "- Probably never deploy on Fridays.",              # hedged: never verified
    "- `pytest` reported 3 failures in the api module.",  # an observation
    "- Кажется, CI падает из-за таймаута.",               # hedged, RU
]


def test_the_gate_and_classify_workspace_give_the_same_tier_for_the_same_line_and_prompt(tmp_path, capsys):
    import re

    from gate.cli import main
    from gate.handler import handle

    state = tmp_path / ".cuticle"  # installed as `cuticle init` leaves it: a key and a config
    state.mkdir()
    (state / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    (state / "config.toml").write_text("", encoding="utf-8")
    ws = Workspace(tmp_path)
    record_prompt(ws, "s1", "Never deploy on Fridays. Use Redis for staging until March. "
                            "Пиши мне только в Telegram, почту я не читаю.")
    memory = tmp_path / "MEMORY.md"
    payload = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(memory), "content": "\n".join(_GATE_LINES) + "\n"}}
    reply = handle("claude", "PreToolUse", json.dumps(payload), env={}, cwd=str(tmp_path))
    stamped = json.loads(reply.stdout)["hookSpecificOutput"]["updatedInput"]["content"]
    gate_tiers = re.findall(r"<!--\s*cu:([DOCH])", stamped)
    assert len(gate_tiers) == len(_GATE_LINES)
    memory.write_text(stamped, encoding="utf-8")

    capsys.readouterr()
    assert main(["classify", "--workspace", str(tmp_path), "--session", "s1", "--json"]) == 0
    out = capsys.readouterr().out
    rows = [json.loads(line) for line in out.splitlines() if line.strip()] if not out.lstrip().startswith("[") \
        else json.loads(out)
    listed = [Tier[r["tier"]].value for r in rows]
    assert listed == gate_tiers
    assert gate_tiers[:3] == ["D", "C", "D"] and gate_tiers[4] == "H"


def test_classify_workspace_without_a_session_reads_markers_only(tmp_path, capsys):
    from gate.cli import main

    ws = Workspace(tmp_path)
    record_prompt(ws, "s1", "Never deploy on Fridays.")
    (tmp_path / "MEMORY.md").write_text("- Never deploy on Fridays.\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["classify", "--workspace", str(tmp_path), "--json"]) == 0
    assert '"HYPOTHESIS"' in capsys.readouterr().out
