"""OpenClaw: a plugin (`gate/openclaw/`) loaded from `~/.openclaw/openclaw.json` forwards ``{hook, event, ctx}``;
answers are ``{block, blockReason}``, ``{params}`` and ``prependSystemContext`` / a bootstrap file (verified inside
OpenClaw 2026.9.6's own plugin loader and hook runner, see docs/hosts.md).

Tools that write or type without the write path's shape are mapped here:

- ``file_write`` (bytes to a paired node by absolute path, ``contentBase64``) is a whole-file write of the decoded
  text; a rewrite is encoded back. A copy from the media store (``sourceMediaId``) has no content to check.
- ``process`` (``write`` / ``paste`` / ``send-keys`` into a running ``exec`` session) and ``terminal``
  (``input`` into an operator's terminal) type text into a shell: that text is governed as a shell command.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from ..answer import Reply, dump
from ..payload import POST, PRE, PROMPT, Request, canonical_event, fill_tool, load_json_arg
from .base import Host, _body, failure_of, parse_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PLUGIN_DIR = Path(__file__).resolve().parent.parent / "openclaw"

#: turns the host starts itself, whose prompt is not the user's words (hosts.md §13.7)
_SYSTEM_TRIGGERS = frozenset({"memory", "memory-flush", "memoryflush", "flush", "heartbeat", "cron"})
#: process actions that send text to the running session
_TYPING_ACTIONS = frozenset({"write", "paste", "send-keys", "submit"})
#: named send-keys tokens that type a character
_NAMED_KEYS = {"enter": "\n", "return": "\n", "kpenter": "\n", "c-m": "\n", "c-j": "\n", "space": " ", "tab": "\t",
               "c-i": "\t"}
#: the hook time limit init gives the plugin (the plugin's own, 4500 ms by default, ends before it: index.js)
HOOK_TIMEOUT_MS = 5000


class OpenClaw(Host):
    name = "openclaw"
    project_env = "OPENCLAW_WORKSPACE"
    can_rewrite = True
    pre_event = "before_tool_call"
    post_event = "after_tool_call"
    edit_keys = ("oldText", "newText")
    lf_edits = True
    rewrites_patches = True
    #: what the plugin registers (index.js), for init's report and doctor
    hooks = ("before_tool_call", "after_tool_call", "llm_input", "session_start", "session_end", "before_reset",
             "before_prompt_build", "agent:bootstrap", "command:new")

    def detects(self, payload: dict) -> bool:
        return ("event" in payload and "ctx" in payload) or payload.get("type") == "agent"

    def event_name(self, event_arg: str | None, payload: dict) -> str:
        if payload.get("type") and payload.get("action") and "context" in payload:  # internal hook event
            return f"{payload['type']}:{payload['action']}"
        hook = payload.get("hook")
        return str(hook) if hook else (event_arg or "")

    def normalize(self, event_arg: str | None, payload: dict) -> Request:
        hook = self.event_name(event_arg, payload)
        if payload.get("type") and payload.get("action") and "context" in payload:  # internal hook event
            event, ctx = payload.get("context") or {}, payload.get("context") or {}
        else:
            event, ctx = payload.get("event") or {}, payload.get("ctx") or {}
        if not isinstance(event, dict) or not isinstance(ctx, dict):
            raise parse_error("openclaw payload: 'event' and 'ctx' must be objects")
        req = Request(host=self.name, event=canonical_event(str(hook)), host_event=str(hook), raw=payload)
        req.session_id = str(ctx.get("sessionId") or event.get("sessionId") or ctx.get("sessionKey") or "")
        ws = payload.get("workspaceDir") or ctx.get("workspaceDir") or event.get("workspaceDir")
        req.workspace_hint = ws if isinstance(ws, str) else None
        req.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        if req.event == PROMPT:
            prompt = event.get("prompt")
            req.prompt = prompt if isinstance(prompt, str) else None
            trigger = str(ctx.get("trigger") or "").lower()
            if trigger in _SYSTEM_TRIGGERS or (req.prompt and req.prompt.lstrip().startswith("Write any lasting notes to memory/")):
                req.prompt = None  # a system-generated turn: not the user's words
            return req
        if req.event not in (PRE, POST):
            return req
        req.tool = str(event.get("toolName") or ctx.get("toolName") or "")
        req.args_key = "params"
        params = load_json_arg(event.get("params") or {}, "params")
        if not isinstance(params, dict):
            raise parse_error("openclaw params must be an object")
        req.args = params
        call_id = event.get("toolCallId") or ctx.get("toolCallId")
        req.call_id = call_id[:200] if isinstance(call_id, str) else ""
        if req.event == POST:
            req.tool_error = _after_tool_error(event)
        _map_tool(req)
        return req

    # -- answers -------------------------------------------------------------------------------------

    def noop(self, host_event: str = "", diagnostic: str = "") -> Reply:
        return Reply(dump({}), super().noop(host_event, diagnostic).stderr)

    def deny(self, event: str, reason: str, short: str) -> Reply:
        return Reply(dump({"block": True, "blockReason": reason}), "", 0)

    def rewrite(self, args: dict, note: str, permission_mode: str | None, auto_allow: Any) -> Reply:
        if isinstance(args.get("contentBase64"), str) and isinstance(args.get("content"), str):  # file_write
            text = args["content"]
            args = {k: v for k, v in args.items() if k != "content"}
            args["contentBase64"] = base64.b64encode(text.encode("utf-8")).decode("ascii")
        return Reply(dump({"params": args}))

    def context(self, event: str, text: str, path: str | None) -> Reply:
        body: dict = {"prependSystemContext": text}
        if path:
            body["bootstrapFile"] = {"name": "PERSONALITY.md", "path": path, "content": text, "missing": False}
        return Reply(dump(body))

    def post_note(self, host_event: str, text: str) -> Reply:
        return self.noop(host_event)  # after_tool_call's return value is ignored

    # -- install -------------------------------------------------------------------------------------

    def config_path(self, root: Path) -> Path:
        return Path(os.environ.get("OPENCLAW_CONFIG_PATH") or "~/.openclaw/openclaw.json").expanduser()

    def merge(self, data: dict, command: str, root: Path) -> tuple[dict, list[str]]:
        """``data`` with the plugin folder loaded and its entry enabled, with the hook policy it needs."""
        import json
        import shlex

        plugin_dir, argv, workspace = PLUGIN_DIR, shlex.split(command), root
        out = json.loads(json.dumps(data))
        changes: list[str] = []
        plugins = out.setdefault("plugins", {})
        load = plugins.setdefault("load", {})
        paths = load.setdefault("paths", [])
        if str(plugin_dir) not in paths:
            paths.append(str(plugin_dir))
            changes.append(f"plugins.load.paths += {plugin_dir}")
        entries = plugins.setdefault("entries", {})
        want = {
            "enabled": True,
            "config": {"command": argv, "workspace": str(workspace), "mode": "enforce"},
            # non-bundled plugins get llm_input and before_prompt_build only with these (hosts-verified §1.1)
            "hooks": {"allowConversationAccess": True, "allowPromptInjection": True, "timeoutMs": HOOK_TIMEOUT_MS},
        }
        cur = entries.get("cuticle")
        if cur != want:
            merged = dict(cur) if isinstance(cur, dict) else {}
            merged.update(want)
            entries["cuticle"] = merged
            changes.append("plugins.entries.cuticle " + ("updated" if cur else "added"))
        return out, changes

    def next_steps(self, root: Path) -> list[str]:
        return ["`openclaw gateway restart`, then `openclaw plugins inspect cuticle --runtime --json` "
                f"(status loaded, {len(self.hooks)} hooks)"]

    @staticmethod
    def entry_of(data: dict) -> dict | None:
        entry = ((data.get("plugins") or {}).get("entries") or {}).get("cuticle")
        return entry if isinstance(entry, dict) else None

    def installed_for(self, data: dict, root: Path) -> bool:
        """The OpenClaw config loads cuticle for the workspace ``root``."""
        entry = self.entry_of(data)
        ws = ((entry or {}).get("config") or {}).get("workspace")
        return bool(entry and entry.get("enabled") and isinstance(ws, str)
                    and Path(os.path.expanduser(ws)).resolve() == root)

    def has_ours(self, data: Any) -> bool:
        return isinstance(data, dict) and self.entry_of(data) is not None

    def installed_command(self, data: dict) -> str | None:
        import shlex

        argv = ((self.entry_of(data) or {}).get("config") or {}).get("command")
        if isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv):
            return shlex.join(argv)
        return None

    def installed_workspace(self, data: dict) -> str | None:
        ws = ((self.entry_of(data) or {}).get("config") or {}).get("workspace")
        return ws if isinstance(ws, str) else None

    # -- doctor --------------------------------------------------------------------------------------

    def hook_argv(self, data: dict, path: Path) -> tuple[list[str] | None, list[tuple[str, str, str]]]:
        import shlex

        checks: list[tuple[str, str, str]] = []
        plugins = data.get("plugins") if isinstance(data.get("plugins"), dict) else {}
        paths = (plugins.get("load") or {}).get("paths") or []
        entry = self.entry_of(data)
        if not entry or not entry.get("enabled"):
            return None, [("openclaw:plugin", "fail", f"{path}: plugins.entries.cuticle is missing or disabled; "
                                                      "run `cuticle init openclaw`")]
        if not any(Path(os.path.expanduser(p)).resolve() == PLUGIN_DIR for p in paths if isinstance(p, str)):
            checks.append(("openclaw:plugin", "warn", f"{path}: the plugin folder {PLUGIN_DIR} is not in "
                                                      "plugins.load.paths (fine if it was installed with "
                                                      "`openclaw plugins install`)"))
        else:
            checks.append(("openclaw:plugin", "ok", f"plugin loaded from {PLUGIN_DIR}"))
        for f in ("package.json", "openclaw.plugin.json", "index.js"):
            if not (PLUGIN_DIR / f).is_file():
                return None, checks + [("openclaw:files", "fail", f"{PLUGIN_DIR / f} is missing from the package")]
        hooks = entry.get("hooks") if isinstance(entry.get("hooks"), dict) else {}
        if not hooks.get("allowConversationAccess"):
            checks.append(("openclaw:provenance", "warn", "hooks.allowConversationAccess is off: llm_input (the "
                                                          "user's words, for provenance) is not delivered"))
        if not hooks.get("allowPromptInjection"):
            checks.append(("openclaw:context", "warn", "hooks.allowPromptInjection is off: before_prompt_build "
                                                       "cannot deliver PERSONALITY.md"))
        cmd = (entry.get("config") or {}).get("command") or ["cuticle"]
        try:
            argv = [str(a) for a in cmd] if isinstance(cmd, list) else shlex.split(str(cmd))
        except ValueError as exc:
            return None, checks + [("openclaw:command", "fail", f"{cmd!r} does not parse as a command: {exc}")]
        return argv + ["hook", "openclaw", "before_tool_call"], checks

    def write_payload(self, path: str, content: str, cwd: str) -> dict:
        return {"hook": "before_tool_call", "workspaceDir": cwd,
                "event": {"toolName": "write", "params": {"path": path, "content": content}},
                "ctx": {"sessionId": "cuticle-doctor", "toolName": "write"}}

    def is_block(self, stdout: str, code: int) -> bool:
        return _body(stdout).get("block") is True


def _after_tool_error(event: dict) -> str | None:
    """OpenClaw fires after_tool_call for every tool end, blocked calls included: ``error`` then carries the
    block reason, and a blocked result says ``details.status: "blocked"``."""
    failed = failure_of(event, ("result",))
    if failed:
        return failed
    result = event.get("result")
    details = result.get("details") if isinstance(result, dict) else None
    if isinstance(details, dict) and details.get("status") in ("blocked", "error", "failed"):
        return f"the tool result's status is {details['status']}"
    return None


def _map_tool(req: Request) -> None:
    name = req.tool.lower()
    if name == "file_write":
        encoded = req.args.get("contentBase64")
        if isinstance(encoded, str):
            try:
                text = base64.b64decode(encoded, validate=True).decode("utf-8", errors="replace")
            except (binascii.Error, ValueError):
                raise parse_error("file_write: contentBase64 is not base64") from None
            req.args = {**req.args, "content": text}
            req.tool = "write"
            fill_tool(req)
            req.tool = "file_write"
            return
    if name in ("process", "terminal"):
        typed = _typed_text(req.args) if name == "terminal" or str(req.args.get("action")) in _TYPING_ACTIONS else None
        req.tool_kind = "shell"
        req.command = typed
        return
    fill_tool(req)


def _typed_text(args: dict) -> str | None:
    """The text a ``process`` / ``terminal`` call types into the shell."""
    for key in ("data", "text", "literal"):
        if isinstance(args.get(key), str):
            return args[key]
    keys = args.get("keys")
    if isinstance(keys, list) and all(isinstance(k, str) for k in keys):
        # single characters spell text; named keys type their character, or nothing (C-c, Up)
        return "".join(k if len(k) == 1 else _NAMED_KEYS.get(k.lower(), "") for k in keys)
    hexes = args.get("hex")
    if isinstance(hexes, list) and all(isinstance(h, str) for h in hexes):
        try:
            return bytes(int(h, 16) for h in hexes).decode("utf-8", errors="replace")
        except ValueError:
            return None
    return None


HOST = OpenClaw()
