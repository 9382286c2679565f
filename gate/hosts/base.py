"""What every host adapter knows, with the defaults most hosts share.

A host is one subclass of ``Host`` in its own module under ``gate/hosts/``. It says, in one place:

- **events**: the hooks it installs (``specs``) and how its payloads spell the event, session, cwd, tool and
  arguments (``normalize``);
- **answers**: how it is told to let a call through, block it, rewrite its arguments, add context (``noop``,
  ``deny``, ``rewrite``, ``context``, ``post_note``);
- **install**: which file ``cuticle init`` edits and what one hook entry looks like there (``config_path``,
  ``entry``, ``commands_of``, ``prepare``);
- **doctor**: a canary payload in its own shape, how to read a block, and its own extra checks (``write_payload``,
  ``is_block``, ``check``).

Everything outside ``gate/hosts/`` asks the host object; nothing else branches on a host's name.
"""

from __future__ import annotations

import json
from pathlib import Path

from tiers.record import dataclass

from ..answer import Reply, dump
from ..payload import POST, PRE, PROMPT, START, Request, canonical_event, fill_tool, load_json_arg

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class HookSpec:
    """One hook ``cuticle init`` installs."""

    event: str
    matcher: str | None = None  # "A|B|C" (None: no matcher, the host runs the hook for everything)
    timeout: int | None = None  # in the host's own unit (seconds; Gemini: milliseconds)


class Host:
    """The defaults: Claude Code's dialect (hook_event_name / tool_name / tool_input, hookSpecificOutput)."""

    name = ""
    #: the project file ``cuticle init`` edits, relative to the workspace (None: the host keeps it elsewhere)
    config_file: str | None = None
    #: the environment variable the host sets to the project directory
    project_env = ""
    specs: tuple[HookSpec, ...] = ()
    #: the before-tool answer can replace the tool's arguments (else: stamped on disk after the tool ran)
    can_rewrite = False
    #: the before-tool event (hosts with one name; Cursor has several)
    pre_event = "PreToolUse"
    post_event = "PostToolUse"
    #: the key names a rewritten edit uses when the call itself named none (old text, new text)
    edit_keys = ("old_string", "new_string")
    #: the host's own memory files (workspace-relative globs): `cuticle init` adds them to `[memory] globs`
    memory_globs: tuple[str, ...] = ()
    #: a rewritten edit's text keeps LF line ends (the host's edit tool normalises them)
    lf_edits = False
    #: an ``apply_patch`` call can be rewritten with stamped lines
    rewrites_patches = False

    # -- events --------------------------------------------------------------------------------------

    def detects(self, payload: dict) -> bool:
        """This payload looks like one of this host's (``cuticle hook auto``)."""
        return False

    def event_name(self, event_arg: str | None, payload: dict) -> str:
        """The host's name of this event: from the payload where the host sends one, else the hook's argument."""
        name = payload.get("hook_event_name")
        return name if isinstance(name, str) and name else (event_arg or "")

    def normalize(self, event_arg: str | None, payload: dict) -> Request:
        host_event = self.event_name(event_arg, payload)
        req = Request(host=self.name, event=canonical_event(host_event), host_event=str(host_event), raw=payload)
        req.session_id = str(payload.get("session_id") or payload.get("sessionId") or payload.get("conversation_id") or "")
        req.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots and isinstance(roots[0], str):
            req.workspace_hint = roots[0]
        mode = payload.get("permission_mode")
        req.permission_mode = mode if isinstance(mode, str) else None
        prompt = payload.get("prompt")
        if req.event == PROMPT and isinstance(prompt, str):
            req.prompt = prompt
        if req.event not in (PRE, POST):
            if req.event == START and isinstance(payload.get("initialPrompt"), str):
                req.prompt = payload["initialPrompt"]
            return req
        args = self.tool_args(req, payload)
        if not isinstance(args, dict):
            raise parse_error(f"{req.args_key or 'tool arguments'} must be a JSON object")
        req.args = args
        req.call_id = self.call_id(payload)
        if req.event == POST:
            req.tool_error = self.tool_error(payload)
            req.unguarded = self.unguarded(req.host_event)
        fill_tool(req)
        return req

    def tool_args(self, req: Request, payload: dict) -> Any:
        """Set ``req.tool`` / ``req.args_key`` and return the tool's arguments."""
        req.tool = str(payload.get("tool_name") or "")
        req.args_key = "tool_input"
        return load_json_arg(payload.get("tool_input") or {}, "tool_input")

    def call_id(self, payload: dict) -> str:
        """The host's id of this tool call (Claude and Codex ``tool_use_id``), or ""."""
        for key in ("tool_use_id", "tool_call_id"):
            v = payload.get(key)
            if isinstance(v, str) and v:
                return v[:200]
        return ""

    def tool_error(self, payload: dict) -> str | None:
        """After a tool: the host's word that the call failed or was blocked (nothing of it to stamp), else None."""
        return failure_of(payload, ("tool_response", "tool_result"))

    def unguarded(self, host_event: str) -> bool:
        """This after-tool event has no pre-tool hook before it (so no snapshot of the file before the call)."""
        return False

    # -- answers -------------------------------------------------------------------------------------

    def noop(self, host_event: str = "", diagnostic: str = "") -> Reply:
        return Reply("", _line(diagnostic))

    def deny(self, event: str, reason: str, short: str) -> Reply:
        if event == POST:
            return Reply(dump({"decision": "block", "reason": reason}), reason + "\n", 0)
        body = {"hookSpecificOutput": {"hookEventName": self.pre_event, "permissionDecision": "deny",
                                       "permissionDecisionReason": reason}}
        # both channels: exit 2 makes the host block and feed stderr to the model even if it ignores the JSON
        return Reply(dump(body), reason + "\n", 2)

    def rewrite(self, args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> Reply:
        raise ValueError(f"host {self.name} cannot rewrite tool arguments")

    def context(self, event: str, text: str, path: str | None) -> Reply:
        return Reply(dump({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}))

    def post_note(self, host_event: str, text: str) -> Reply:
        return Reply(dump({"hookSpecificOutput": {"hookEventName": self.post_event, "additionalContext": text}}))

    # -- install -------------------------------------------------------------------------------------

    def config_path(self, root: Path) -> Path:
        return root / self.config_file

    def entry(self, spec: HookSpec, command: str) -> dict:
        hook: dict = {"type": "command", "command": command}
        if spec.timeout:
            hook["timeout"] = spec.timeout
        e: dict = {"hooks": [hook]}
        if spec.matcher:
            e = {"matcher": spec.matcher, **e}
        return e

    def commands_of(self, entry: Any) -> list[str]:
        if not isinstance(entry, dict):
            return []
        return [h.get("command") for h in entry.get("hooks", []) if isinstance(h, dict) and isinstance(h.get("command"), str)]

    def is_ours(self, command: Any) -> bool:
        """``command`` is a cuticle hook command for this host."""
        if not isinstance(command, str):
            return False
        return f" hook {self.name}" in command and ("cuticle" in command or "-m gate" in command)

    def merge(self, data: dict, command: str, root: Path) -> tuple[dict, list[str]]:
        """``data`` (the host's config) with cuticle's entries installed; the list says what changed. Other hooks
        are kept and cuticle's own entries are replaced in place, so running it twice changes nothing."""
        from tiers.errors import ConfigError

        out = json.loads(json.dumps(data))  # deep copy
        changes = self.prepare(out)
        hooks = out.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise ConfigError(f"'hooks' in the {self.name} config is not an object; fix it by hand")
        by_event: dict[str, list[HookSpec]] = {}
        for spec in self.specs:
            by_event.setdefault(spec.event, []).append(spec)
        for event, wanted in by_event.items():
            entries = hooks.setdefault(event, [])
            if not isinstance(entries, list):
                raise ConfigError(f"hooks.{event} in the {self.name} config is not a list; fix it by hand")
            ours = [i for i, e in enumerate(entries) if any(self.is_ours(c) for c in self.commands_of(e))]
            new_entries = [self.entry(s, f"{command} hook {self.name} {s.event}") for s in wanted]
            if [entries[i] for i in ours] == new_entries:
                continue
            hooks[event] = [e for i, e in enumerate(entries) if i not in ours] + new_entries
            changes.append(f"hooks.{event}: {'updated' if ours else 'added'} cuticle "
                           f"entr{'y' if len(new_entries) == 1 else 'ies'}")
        return out, changes

    def installed(self, data: dict) -> dict[str, list[tuple[str | None, str]]]:
        """event -> [(matcher, command)] of cuticle's entries in this host's config."""
        out: dict[str, list[tuple[str | None, str]]] = {}
        hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
        for event, entries in hooks.items():
            if not isinstance(entries, list):
                continue
            for e in entries:
                for c in self.commands_of(e):
                    if self.is_ours(c):
                        out.setdefault(event, []).append((e.get("matcher") if isinstance(e, dict) else None, c))
        return out

    def installed_for(self, data: dict, root: Path) -> bool:
        """The config ``data`` has cuticle's hooks (a project file belongs to its workspace)."""
        return bool(self.installed(data))

    def has_ours(self, data: Any) -> bool:
        """Whether the config ``data`` holds any entry of cuticle's (what `cuticle uninstall` removes)."""
        return isinstance(data, dict) and bool(self.installed(data))

    def installed_command(self, data: dict) -> str | None:
        """The base command `init` installed (``cuticle``, a path, ``python -m gate``), read back from ``data``."""
        for entries in self.installed(data).values():
            for _matcher, command in entries:
                if f" hook {self.name}" in command:
                    return command[: command.index(f" hook {self.name}")]
        return None

    def installed_workspace(self, data: dict) -> str | None:
        """The workspace a user-wide config names for cuticle (None: the config is the project's own)."""
        return None

    def uninstall_extras(self, root: Path, *, dry_run: bool = False) -> list[str]:
        """Undo what ``install_extras`` set, where it is still as init left it; the list says what (would) change."""
        return []

    def hook_argv(self, data: dict, path: Path) -> tuple[list[str] | None, list[tuple[str, str, str]]]:
        """(the installed before-tool command as argv, the checks of every installed hook against ``specs``)."""
        import shlex

        found = self.installed(data)
        checks: list[tuple[str, str, str]] = []
        pre: str | None = None
        for spec in self.specs:
            entries = found.get(spec.event, [])
            name = f"{self.name}:{spec.event}"
            if not entries:
                checks.append((name, "fail", f"{path.name}: no cuticle hook for {spec.event}; run `cuticle init {self.name}`"))
                continue
            if spec.matcher:
                want = set(spec.matcher.split("|"))
                have: set[str] = set()
                for m, _c in entries:
                    have |= set(m.split("|")) if m else want  # no matcher = every tool
                missing = want - have
                if missing:
                    checks.append((name, "fail", f"{path.name}: {spec.event} matcher misses "
                                                 f"{', '.join(sorted(missing))}; re-run `cuticle init {self.name}`"))
                    continue
            checks.append((name, "ok", f"{spec.event}: {entries[0][1]}"))
            if pre is None and spec.event == self.pre_event:
                pre = entries[0][1]
        if pre is None:
            return None, checks
        try:
            return shlex.split(pre), checks
        except ValueError as exc:
            return None, checks + [(f"{self.name}:command", "fail", f"{pre!r} does not parse as a command: {exc}")]

    def prepare(self, data: dict) -> list[str]:
        """Host-wide settings besides the hooks, set in ``data`` (a copy); the list says what changed."""
        return []

    def install_extras(self, root: Path) -> list[str]:
        """Host settings outside its hook file that `cuticle init` writes (merged, backed up); what changed."""
        return []

    def next_steps(self, root: Path) -> list[str]:
        """What the user still has to do in the host after ``cuticle init`` (printed by init, checked by doctor)."""
        return []

    # -- doctor --------------------------------------------------------------------------------------

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        """A before-tool whole-file write of ``path`` in this host's own shape (the canary)."""
        return {"session_id": "cuticle-doctor", "cwd": cwd, "hook_event_name": self.pre_event, "tool_name": "Write",
                "tool_input": {"file_path": path, "content": content}, "permission_mode": "default"}

    def is_block(self, stdout: str, code: int) -> bool:
        """Did this answer block the tool call?"""
        return code == 2 or (_body(stdout).get("hookSpecificOutput") or {}).get("permissionDecision") == "deny"

    def check(self, root: Path, data: dict) -> list[tuple[str, str, str]]:
        """Host-specific doctor checks on the installed configuration: (name, ok|warn|fail, detail)."""
        return []


def failure_of(d: dict, result_keys: tuple[str, ...]) -> str | None:
    """An ``error`` in ``d``, or a result under one of ``result_keys`` that reports an error or ``success: false``."""
    err = d.get("error")
    if err not in (None, "", False):
        return str(err.get("message") or err) if isinstance(err, dict) else str(err)
    for key in result_keys:
        r = d.get(key)
        if not isinstance(r, dict):
            continue
        if r.get("error") not in (None, "", False):
            return str(r["error"])
        if r.get("success") is False or r.get("is_error") is True or r.get("isError") is True:
            return f"the tool's {key} reports a failure"
    return None


def parse_error(message: str) -> Exception:
    from tiers.errors import ParseError

    return ParseError(message)


def _line(diagnostic: str) -> str:
    return (diagnostic.rstrip("\n") + "\n") if diagnostic else ""


def _body(stdout: str) -> dict:
    try:
        body = json.loads(stdout) if stdout.strip() else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
