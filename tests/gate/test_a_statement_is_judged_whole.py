"""A memory line is judged as the statement it belongs to: the whole changed line, old against new, as one edit.

Appending words to an active DIRECTIVE or in-scope DECISION — on its own line ("… не всегда"), before or after its
stamp, or on a continuation line of its list item (indented, lazy, after a hard break) — rewrites that binding line,
which needs the user's verified words of this turn; every host's edit shape is refused the same way. A new statement
spread over continuation lines is arbitrated as the whole it reads as, so cutting a contradiction in two does not
carry it through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_helpers import install
from hostsim import prompt

from tiers import stamps
from tiers.workspace import Workspace

FRIDAY = "- User said: never deploy on Fridays."
RU_TESTS = "- Пользователь сказал: всегда запускай тесты перед коммитом."
DECISION = "- Decided with the user: Redis for staging until the January load test."
OTHER = "- Staging runs on Redis."

#: binding line kinds: (name, text, stamped)
BINDING = [("en-directive", FRIDAY, False), ("en-directive-stamped", FRIDAY, True),
           ("ru-directive", RU_TESTS, False), ("ru-directive-stamped", RU_TESTS, True),
           ("scoped-decision", DECISION, False)]

#: how the words are appended: (name, function of the full line on disk and its stamp-free content -> new text)
APPENDS = {
    "same-line-ru": lambda full, content, stamp: full + " не всегда",
    "same-line-en": lambda full, content, stamp: full + " X is fine.",
    "before-the-stamp": lambda full, content, stamp: content.rstrip() + " But not always." + (" " + stamp if stamp else ""),
    "indented-continuation": lambda full, content, stamp: full + "\n  But not always.",
    "lazy-continuation": lambda full, content, stamp: full + "\nне всегда.",
    "after-a-hard-break": lambda full, content, stamp: full + "  \n  Unless it is urgent.",
    "after-a-backslash-break": lambda full, content, stamp: full + "\\\n  X is fine.",
}


def _patch(old: str, new: str) -> str:
    body = "\n".join(["-" + old] + ["+" + x for x in new.split("\n")])
    return f"*** Begin Patch\n*** Update File: MEMORY.md\n@@\n{body}\n*** End Patch"


def _call(shape: str, ws: Path, old: str, new: str) -> tuple[str, dict, str | None]:
    """(host, payload, event argument) of an edit replacing ``old`` by ``new`` in MEMORY.md, in ``shape``."""
    path, cwd = str(ws / "MEMORY.md"), str(ws)
    claude = {"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse"}
    if shape == "claude-edit":
        return "claude", {**claude, "tool_name": "Edit",
                          "tool_input": {"file_path": path, "old_string": old, "new_string": new}}, None
    if shape == "claude-multiedit":
        return "claude", {**claude, "tool_name": "MultiEdit",
                          "tool_input": {"file_path": path, "edits": [{"old_string": old, "new_string": new}]}}, None
    if shape == "claude-write":
        text = (ws / "MEMORY.md").read_text(encoding="utf-8").replace(old, new, 1)
        return "claude", {**claude, "tool_name": "Write", "tool_input": {"file_path": path, "content": text}}, None
    openclaw = {"hook": "before_tool_call", "workspaceDir": cwd, "ctx": {"sessionId": "s1"}}
    if shape == "openclaw-edit":
        return "openclaw", {**openclaw, "event": {"toolName": "edit", "params": {
            "path": "MEMORY.md", "edits": [{"oldText": old, "newText": new}]}}}, None
    if shape == "openclaw-apply-patch":
        return "openclaw", {**openclaw, "event": {"toolName": "apply_patch", "params": {"input": _patch(old, new)}}}, None
    if shape == "codex-apply-patch":
        return "codex", {**claude, "model": "m", "turn_id": "t", "tool_name": "apply_patch",
                         "tool_input": {"command": _patch(old, new)}}, None
    if shape == "gemini-replace":
        return "gemini", {"session_id": "s1", "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": "t",
                          "tool_name": "replace", "tool_input": {"file_path": path, "old_string": old,
                                                                 "new_string": new}}, None
    if shape == "copilot-edit":
        return "copilot", {"timestamp": 1, "cwd": cwd, "toolName": "edit",
                           "toolArgs": json.dumps({"path": path, "old_str": old, "new_str": new})}, "preToolUse"
    assert shape == "cursor-strreplace"
    return "cursor", {"hook_event_name": "preToolUse", "conversation_id": "s1", "workspace_roots": [cwd],
                      "tool_name": "StrReplace", "tool_input": {"file_path": path, "old_string": old,
                                                                "new_string": new}}, None


SHAPES = ["claude-edit", "claude-multiedit", "claude-write", "openclaw-edit", "openclaw-apply-patch",
          "codex-apply-patch", "gemini-replace", "copilot-edit", "cursor-strreplace"]


def _workspace(tmp_path: Path, text: str, stamped: bool) -> tuple[Path, str]:
    root = tmp_path / "ws"
    root.mkdir(parents=True)
    install(root)
    line = text
    if stamped:
        line = stamps.apply_stamp(text, stamps.make_stamp(text, "D", 1, Workspace(root).key, verified=True))
    (root / "MEMORY.md").write_text(f"# Memory\n\n{line}\n{OTHER}\n", encoding="utf-8")
    return root, line


def _send(shape: str, ws: Path, old: str, new: str):
    from gate.doctor import is_block
    from gate.handler import handle

    host, payload, event = _call(shape, ws, old, new)
    reply = handle(host, event, json.dumps(payload).encode(), env={}, cwd=str(ws))
    return is_block(host, reply.stdout, reply.exit_code), reply.stdout + reply.stderr


@pytest.mark.parametrize("shape", SHAPES)
def test_appending_words_to_a_binding_line_is_refused_in_every_host(tmp_path: Path, shape: str) -> None:
    through = []
    for n, (kind, text, stamped) in enumerate(BINDING):
        for name, append in APPENDS.items():
            ws, line = _workspace(tmp_path / f"{n}-{name}", text, stamped)
            content, stamp, _ = stamps.split_stamp(line)
            new = append(line, content, stamps.render_stamp(stamp) if stamp else "")
            blocked, out = _send(shape, ws, line, new)
            if not blocked or "binding-line-removed" not in out:
                through.append((kind, name, out[:160]))
    assert not through, through


def test_the_refusal_names_the_binding_line_and_how_to_go_on(tmp_path: Path) -> None:
    ws, line = _workspace(tmp_path, FRIDAY, False)
    blocked, out = _send("claude-edit", ws, line, line + "\n  But not always.")
    assert blocked and "binding-line-removed" in out and "Fridays" in out and "user" in out


def test_the_users_words_this_turn_let_the_binding_line_be_extended(tmp_path: Path) -> None:
    ws, line = _workspace(tmp_path, FRIDAY, False)
    prompt(ws, "change the Friday rule: hotfixes may go out on Fridays")
    blocked, out = _send("claude-edit", ws, line, line + "\n  Hotfixes may go out on Fridays.")
    assert not blocked, out


@pytest.mark.parametrize("new", [
    f"{OTHER}\n  Checked on Monday.",  # a continuation of a line that binds nothing
    f"{OTHER}\n- Prod runs on Postgres.",  # a new list item
], ids=["continuing-a-plain-line", "a-new-item"])
def test_changing_a_statement_without_a_binding_line_needs_no_permission(tmp_path: Path, new: str) -> None:
    ws, _ = _workspace(tmp_path, FRIDAY, False)
    blocked, out = _send("claude-edit", ws, OTHER, new)
    assert not blocked, out


def test_a_new_sentence_after_a_binding_sentence_in_a_plain_paragraph_is_its_own_statement(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    install(root)
    (root / "MEMORY.md").write_text("# Memory\n\nUser said: never deploy on Fridays.\nStaging runs on Redis.\n",
                                    encoding="utf-8")
    blocked, out = _send("claude-edit", root, "Staging runs on Redis.", "Staging runs on Redis.\nProd runs on Postgres.")
    assert not blocked, out


def test_a_plain_paragraph_line_that_continues_an_unfinished_sentence_belongs_to_it(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    install(root)
    (root / "MEMORY.md").write_text("# Memory\n\nUser said: never deploy on Fridays\n", encoding="utf-8")
    blocked, out = _send("claude-edit", root, "on Fridays\n", "on Fridays\nunless it is urgent.\n")
    assert blocked and "binding-line-removed" in out


def test_removing_the_continuation_of_a_binding_line_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    install(root)
    (root / "MEMORY.md").write_text("# Memory\n\n- User said: never deploy\n  on Fridays or weekends.\n",
                                    encoding="utf-8")
    blocked, out = _send("claude-edit", root, "\n  on Fridays or weekends.", "")
    assert blocked and "binding-line-removed" in out


@pytest.mark.parametrize("shape", ["claude-edit", "openclaw-apply-patch", "codex-apply-patch", "gemini-replace"])
def test_a_contradiction_cut_over_continuation_lines_is_judged_whole(tmp_path: Path, shape: str) -> None:
    flip = "- Deploying on Fridays is fine for every service."
    words = flip.split()
    through = []
    for k in range(2, len(words)):
        ws, _ = _workspace(tmp_path / str(k), FRIDAY, False)
        new = " ".join(words[:k]) + "\n  " + " ".join(words[k:])
        blocked, out = _send(shape, ws, OTHER, f"{OTHER}\n{new}")
        if not blocked:
            through.append(new)
    assert not through, through


DOCUMENT = """# Memory

- User said: never deploy
  on Fridays or weekends.
- Staging runs on Redis.
lazily continued
1) numbered item
> - quoted item
>   quoted continuation

User said: keep replies short
unless asked. A second sentence.
**Name:** Alex
**Zone:** UTC

```
- code, not memory
```
Plain line one.
Plain line two
goes on here.
"""


def test_statements_are_list_items_with_their_continuations_and_sentences_of_paragraphs() -> None:
    from gate.statements import statement_groups
    from tiers.markdown import parse_document

    lines = parse_document(DOCUMENT).lines
    texts = [[lines[j].text.strip() for j in g] for g in statement_groups(lines)]
    assert texts == [
        ["- User said: never deploy", "on Fridays or weekends."],
        ["- Staging runs on Redis.", "lazily continued"],
        ["1) numbered item"],
        ["> - quoted item", ">   quoted continuation"],
        ["User said: keep replies short", "unless asked. A second sentence."],
        ["**Name:** Alex"],
        ["**Zone:** UTC"],
        ["Plain line one."],
        ["Plain line two", "goes on here."],
    ]


def test_the_statements_around_some_lines_are_those_of_the_whole_document() -> None:
    from gate.statements import statement_groups
    from tiers.markdown import parse_document

    lines = parse_document(DOCUMENT).lines
    whole = statement_groups(lines)
    for j in range(len(lines)):
        assert statement_groups(lines, {j}) == [g for g in whole if j in g], j
