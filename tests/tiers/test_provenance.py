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
