"""Turn one host hook payload into one internal record: host, event, session, cwd, tool and file operations.

Every host sends the same four things under different names (hosts.md §0, §10): each host's module under
``gate/hosts/`` reads its own spellings into a ``Request``; this module holds the record, the event names and what
all hosts share (tool kinds, edit and patch arguments). Everything after it works on ``Request`` and ``FileOp``.
"""

from __future__ import annotations

import json

from tiers.errors import ParseError
from tiers.record import dataclass, field

from .edits import Edit

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

# Canonical events.
PROMPT, PRE, POST, START, END, CONTEXT = "prompt", "pre_tool", "post_tool", "session_start", "session_end", "context"
EVENTS = (PROMPT, PRE, POST, START, END, CONTEXT)

#: Host event names (lower-cased, without '_', '-', ':') -> canonical event.
_EVENT_ALIASES: dict[str, str] = {
    # before a tool runs
    "pretooluse": PRE, "beforetool": PRE, "beforetoolcall": PRE, "beforeshellexecution": PRE,
    "beforemcpexecution": PRE, "pre": PRE, "pretool": PRE,
    # after it ran
    "posttooluse": POST, "aftertool": POST, "aftertoolcall": POST, "afterfileedit": POST,
    "aftershellexecution": POST, "post": POST, "posttool": POST,
    # the user's prompt (provenance)
    "userpromptsubmit": PROMPT, "userpromptsubmitted": PROMPT, "beforeagent": PROMPT, "beforesubmitprompt": PROMPT,
    "llminput": PROMPT, "prompt": PROMPT,
    # sessions
    "sessionstart": START, "start": START, "sessionend": END, "end": END, "beforereset": END,
    # context injection without advancing the session (OpenClaw)
    "agentbootstrap": CONTEXT, "beforepromptbuild": CONTEXT, "bootstrap": CONTEXT, "context": CONTEXT,
}

_PATH_KEYS = ("file_path", "path", "filePath", "filepath", "target_file", "notebook_path", "file")
_CONTENT_KEYS = ("content", "file_text", "contents", "fileText")
_OLD_KEYS = ("old_string", "oldText", "old_str", "old_text", "oldString")
_NEW_KEYS = ("new_string", "newText", "new_str", "new_text", "newString")
_PATCH_KEYS = ("input", "command", "patch")
_CMD_KEYS = ("command", "cmd", "script")
#: a shell tool's own working directory (OpenClaw ``exec`` and Codex ``shell``: workdir; Gemini: dir_path, directory)
_WORKDIR_KEYS = ("workdir", "dir_path", "directory", "working_directory", "cwd")

_WRITE_TOOLS = {"write", "write_file", "create", "create_file", "writefile", "tabwrite"}
_EDIT_TOOLS = {"edit", "multiedit", "replace", "str_replace", "strreplace", "edit_file", "str_replace_editor",
               "search_replace"}
_SHELL_TOOLS = {"bash", "shell", "exec", "run_shell_command", "terminal", "run_terminal_cmd", "local_shell"}
_PATCH_TOOLS = {"apply_patch", "applypatch"}
_PATCH_BEGIN = "*** Begin Patch"  # = gate.patch.BEGIN, repeated so calls without a patch skip that import
_FACT_TOOLS = {"save_memory"}
#: tools that delete the file they name (Cursor's Delete / delete_file; names unverified, so the usual spellings)
_DELETE_TOOLS = {"delete", "delete_file", "deletefile", "remove_file", "removefile"}


def canonical_event(name: str | None) -> str | None:
    if not name or not isinstance(name, str):
        return None
    return _EVENT_ALIASES.get(name.lower().replace("_", "").replace("-", "").replace(":", ""))


@dataclass(frozen=True, slots=True)
class FileOp:
    """One file the tool call touches. ``kind``: write | edit | patch | delete | move (``move_to`` set)."""

    path: str
    kind: str
    content: str | None = None
    edits: tuple[Edit, ...] = ()
    patch: Any = None  # gate.patch.PatchOp for kind "patch"
    move_to: str | None = None


@dataclass(slots=True)
class Request:
    """One normalized hook call."""

    host: str
    event: str | None
    host_event: str
    session_id: str = ""
    cwd: str | None = None
    tool: str = ""
    tool_kind: str = ""  # write | edit | patch | delete | shell | fact | other | "" (no tool)
    ops: list[FileOp] = field(default_factory=list)
    command: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    args_key: str = ""  # where the arguments were: tool_input | toolArgs | params | (top level)
    args_was_string: bool = False
    prompt: str | None = None
    workspace_hint: str | None = None
    permission_mode: str | None = None
    patch_key: str | None = None
    #: the host's id of this tool call ("" when it sends none): pairs the after-tool event with its pre-tool snapshot
    call_id: str = ""
    #: after a tool: the host said the call failed or was blocked (its text), so nothing of it is on disk to stamp
    tool_error: str | None = None
    #: an after-tool event that no pre-tool hook precedes (Cursor's afterFileEdit): there is no snapshot to diff
    unguarded: bool = False
    raw: dict[str, Any] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def _first(d: dict, keys: tuple[str, ...], what: str = "argument") -> Any:
    """The value under the first of ``keys`` that ``d`` holds. Hosts read these spellings in their own order (a
    tool may take ``path`` before ``file_path``), so arguments that give one thing under two spellings with
    different values are refused: the gate would check one and the host might act on the other."""
    found = None
    for k in keys:
        v = d.get(k)
        if v is None:
            continue
        if found is None:
            found = (k, v)
        elif v != found[1]:
            raise ParseError(f"the tool arguments give the {what} twice, differently ({found[0]!r} and {k!r}); "
                             f"give it once")
    return None if found is None else found[1]


def load_json_arg(value: Any, what: str) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ParseError(f"{what} is a string that is not JSON ({exc.msg} at {exc.pos})") from exc
    return value


def _edit_from(d: dict, n: int) -> Edit | None:
    old, new = _first(d, _OLD_KEYS, "old text"), _first(d, _NEW_KEYS, "new text")
    if old is None and new is None:
        return None
    if not isinstance(old, str) or not isinstance(new, str):
        raise ParseError(f"edit {n}: old and new text must both be strings")
    replace_all = bool(d.get("replace_all") or d.get("replaceAll") or d.get("allow_multiple"))
    count = d.get("expected_replacements")
    count = count if isinstance(count, int) and not isinstance(count, bool) and count > 1 else None
    return Edit(old, new, replace_all and count is None, count)


def _search_replace(text: str) -> list[Edit]:
    """A fork's SEARCH/REPLACE ``patch`` argument: <<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks."""
    edits: list[Edit] = []
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith("<<<<<<<") and "SEARCH" in lines[i]:
            j = i + 1
            old: list[str] = []
            while j < len(lines) and lines[j].strip() != "=======":
                old.append(lines[j])
                j += 1
            k = j + 1
            new: list[str] = []
            while k < len(lines) and not (lines[k].strip().startswith(">>>>>>>") and "REPLACE" in lines[k]):
                new.append(lines[k])
                k += 1
            if j >= len(lines) or k >= len(lines):
                raise ParseError("SEARCH/REPLACE block is not closed")
            edits.append(Edit("\n".join(old), "\n".join(new)))
            i = k + 1
        else:
            i += 1
    return edits


def extract_edits(args: dict) -> list[Edit]:
    """Every edit variant (hosts.md §10.2): ``edits`` as array / JSON string / one object, top-level pairs."""
    out: list[Edit] = []
    raw = args.get("edits")
    if raw is not None:
        raw = load_json_arg(raw, "edits")
        items = [raw] if isinstance(raw, dict) else raw
        if not isinstance(items, list):
            raise ParseError("edits must be an array, an object or a JSON string of either")
        for n, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise ParseError(f"edit {n} is not an object")
            e = _edit_from(item, n)
            if e is None:
                raise ParseError(f"edit {n} has no old/new text")
            out.append(e)
    top = _edit_from(args, len(out) + 1)
    if top is not None:
        out.append(top)
    sr = args.get("patch")
    if isinstance(sr, str) and "SEARCH" in sr and "REPLACE" in sr:
        out.extend(_search_replace(sr))
    return out


def _file_ops(tool_kind: str, args: dict) -> tuple[str, list[FileOp], str | None]:
    """(refined tool kind, file ops, key holding a patch) from the tool arguments."""
    for key in _PATCH_KEYS:
        # the marker test of gate.patch.looks_like_patch, inline: most calls carry no patch and skip that import
        text = args.get(key)
        if isinstance(text, str) and _PATCH_BEGIN in text[:2000]:
            from .patch import parse_patch

            try:
                parsed = parse_patch(args[key])
            except ParseError:
                if tool_kind == "shell":
                    break  # a shell command that merely mentions the marker is still a shell command
                raise
            ops = [FileOp(op.path, "patch", patch=op, move_to=op.move_to) for op in parsed]
            return "patch", ops, key
    if tool_kind == "shell":
        return "shell", [], None
    path = _first(args, _PATH_KEYS, "file path")
    if not isinstance(path, str) or not path:
        return tool_kind, [], None
    if tool_kind == "delete":
        return "delete", [FileOp(path, "delete")], None
    content = _first(args, _CONTENT_KEYS, "file content")
    if tool_kind == "write" or (tool_kind in ("", "other") and isinstance(content, str)):
        if not isinstance(content, str):
            raise ParseError(f"{path}: write without string content")
        return "write", [FileOp(path, "write", content=content)], None
    edits = extract_edits(args)
    if edits or tool_kind == "edit":
        if isinstance(content, str) and not edits:
            return "write", [FileOp(path, "write", content=content)], None
        return "edit", [FileOp(path, "edit", edits=tuple(edits))], None
    return tool_kind, [], None


def tool_kind_of(name: str) -> str:
    n = (name or "").lower()
    if n in _PATCH_TOOLS:
        return "patch"
    if n in _WRITE_TOOLS:
        return "write"
    if n in _EDIT_TOOLS:
        return "edit"
    if n in _SHELL_TOOLS:
        return "shell"
    if n in _DELETE_TOOLS:
        return "delete"
    if n in _FACT_TOOLS:
        return "fact"
    return "other" if n else ""


def _command_of(args: dict) -> str | None:
    cmd = _first(args, _CMD_KEYS, "command")
    if isinstance(cmd, list) and all(isinstance(x, str) for x in cmd):
        # Codex `shell` sends argv, often ["bash", "-lc", "<script>"]; the script is what runs.
        if len(cmd) >= 3 and cmd[-2] in ("-c", "-lc", "-ic") and cmd[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh"):
            return cmd[-1]
        import shlex

        return shlex.join(cmd)
    return cmd if isinstance(cmd, str) else None


def normalize(host: str, event_arg: str | None, payload: Any) -> Request:
    """The Request for one payload, read by the host's adapter (gate/hosts/). Raises ParseError when the payload
    is not a JSON object or has bad shapes, KeyError for an unknown host."""
    if not isinstance(payload, dict):
        raise ParseError("hook payload must be a JSON object")
    from .hosts import get

    return get(host).normalize(event_arg, payload)


def fill_tool(req: Request) -> None:
    """Set the tool kind, file ops and shell command of ``req`` from its tool name and arguments."""
    kind = tool_kind_of(req.tool)
    if kind == "fact":
        req.tool_kind = "fact"
        return
    kind, ops, patch_key = _file_ops(kind, req.args)
    req.tool_kind, req.ops, req.patch_key = kind, ops, patch_key
    if kind == "shell":
        req.command = _command_of(req.args)
        workdir = _first(req.args, _WORKDIR_KEYS, "working directory")
        if isinstance(workdir, str) and workdir.strip():  # the tool runs the command there, not in the host's cwd
            import os

            base = req.cwd or req.workspace_hint
            wd = os.path.expanduser(workdir)
            req.cwd = os.path.normpath(os.path.join(base, wd) if base else wd)
