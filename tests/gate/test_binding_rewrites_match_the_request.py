"""A prompt that names a binding rule and asks to change it authorizes only the change it asks for (issue #16).

When the prompt states the new rule ("change the deploy rule to Thursdays"), the new wording is arbitrated against
the prompt as a constraint: one that contradicts what the user said is refused (``binding-rewrite-not-asked``).
When the prompt only asks to drop it ("forget the Friday rule"), removal is what it authorizes: a new binding rule
in its place, or words added to the kept rule, are refused. EN and RU, in every host's edit shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import prompt
from test_a_statement_is_judged_whole import SHAPES, _send

OTHER = "- Staging runs on Redis."
EN = "- User said: never deploy on Fridays."
RU = "- Пользователь сказал: никогда не деплоить по пятницам."

#: (name, rule on disk, prompt, new text of the rule's line, allowed?)
CASES = [
    ("en-stated-contradicted", EN, "change the deploy rule to Thursdays", "- User said: never deploy on Thursdays.", False),
    ("en-stated-other-day", EN, "change the deploy rule to Thursdays", "- User said: deploy on Mondays.", False),
    ("en-stated-followed", EN, "change the deploy rule to Thursdays", "- User said: deploy only on Thursdays.", True),
    ("en-stated-in-their-words", EN, "change the deploy rule: never deploy on Thursdays",
     "- User said: never deploy on Thursdays.", True),
    ("en-drop-then-new-rule", EN, "forget the Friday rule", "- User said: deploy on Fridays only for hotfixes.", False),
    ("en-drop-then-extended", EN, "fix the Friday rule", EN + "\n  But not always.", False),
    ("en-drop-then-appended", EN, "fix the Friday rule", EN[:-1] + ", не всегда.", False),
    ("en-drop-removed", EN, "forget the Friday rule", "", True),
    ("en-drop-then-a-note", EN, "forget the Friday rule", "- Deploy windows are discussed on Mondays.", True),
    ("ru-stated-contradicted", RU, "измени правило про деплой: никогда не деплоить по четвергам",
     "- Пользователь сказал: деплоить по четвергам можно.", False),
    ("ru-stated-followed", RU, "измени правило про деплой: никогда не деплоить по четвергам",
     "- Пользователь сказал: никогда не деплоить по четвергам.", True),
    ("ru-drop-then-new-rule", RU, "забудь правило про пятницы", "- Пользователь сказал: деплоить по пятницам можно.",
     False),
    ("ru-drop-then-extended", RU, "исправь правило про пятницы", RU + "\n  Но не всегда.", False),
    ("ru-drop-removed", RU, "забудь правило про пятницы", "", True),
]


def _workspace(tmp_path: Path, rule: str) -> Path:
    root = tmp_path / "ws"
    root.mkdir(parents=True)
    install(root)
    (root / "MEMORY.md").write_text(f"# Memory\n\n{rule}\n{OTHER}\n", encoding="utf-8")
    return root


def _say(shape: str, ws: Path, text: str) -> None:
    """The user's prompt of this turn, reported by the host of ``shape`` (Copilot's payloads carry no session id:
    its session start names the session its prompt and edits belong to)."""
    if shape != "copilot-edit":
        prompt(ws, text)
        return
    import json

    from gate.handler import handle

    for event, extra in (("sessionStart", {"source": "new"}), ("userPromptSubmitted", {"prompt": text})):
        handle("copilot", event, json.dumps({"timestamp": 1, "cwd": str(ws), **extra}).encode(), env={}, cwd=str(ws))


def _edit(shape: str, ws: Path, rule: str, new: str):
    return _send(shape, ws, rule, new)  # new == "": the rule's line is emptied (removed)


@pytest.mark.parametrize("shape", SHAPES)
def test_an_authorized_rewrite_must_match_what_the_user_asked(tmp_path: Path, shape: str) -> None:
    wrong = []
    for name, rule, said, new, allowed in CASES:
        ws = _workspace(tmp_path / name, rule)
        _say(shape, ws, said)
        before = (ws / "MEMORY.md").read_text(encoding="utf-8")
        blocked, out = _edit(shape, ws, rule, new)
        if allowed and blocked:
            wrong.append(f"{name}: refused")
        if not allowed and not (blocked and "binding-" in out):
            wrong.append(f"{name}: let through")
        if blocked:
            assert (ws / "MEMORY.md").read_text(encoding="utf-8") == before
    assert not wrong, wrong


def test_the_refusal_names_what_the_user_asked(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, EN)
    prompt(ws, "forget the Friday rule")
    blocked, out = _send("claude-edit", ws, EN, "- User said: deploy on Fridays only for hotfixes.")
    assert blocked and "binding-rewrite-not-asked" in out
    assert "forget the Friday rule" in out and "drop it" in out and "hotfixes" in out
    ws = _workspace(tmp_path / "stated", EN)
    prompt(ws, "change the deploy rule to Thursdays")
    blocked, out = _send("claude-edit", ws, EN, "- User said: deploy on Mondays.")
    assert blocked and "binding-rewrite-not-asked" in out and "change the deploy rule to Thursdays" in out


def test_without_a_prompt_a_rewrite_is_refused_as_before(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, EN)
    blocked, out = _send("claude-edit", ws, EN, "- User said: deploy only on Thursdays.")
    assert blocked and "binding-line-removed" in out
