"""One hook call, end to end: parse, normalize, find the workspace, decide, answer in the host's dialect, log.

`cuticle hook` and `cuticle serve` both call ``handle``. It never raises: every failure becomes a fail-open
answer (one line on stderr, logged to events.jsonl where a workspace is known), except that the governance layer
fails closed when `[gate] fail_closed_policy = true`.
"""

from __future__ import annotations

import json
import os
import time

from . import answer
from .answer import Reply
from .hosts import HOSTS
from .payload import CONTEXT, END, POST, PRE, PROMPT, START, Request, normalize

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

def detect_host(payload: Any) -> str | None:
    """Best-effort host detection for ``cuticle hook auto`` (each host module says what its payloads look like)."""
    from .hosts import detect

    return detect(payload)


def _project_env(host: str) -> str:
    """The environment variable ``host`` sets to the project directory ("" for none or an unknown host)."""
    from .hosts import get

    try:
        return get(host).project_env
    except KeyError:
        return ""


def handle(host: str, event_arg: str | None, data: bytes | str, *, env: dict | None = None,
           cwd: str | None = None) -> Reply:
    """Answer one hook call. Never raises."""
    t0 = time.perf_counter()
    env = os.environ if env is None else env
    host = (host or "").strip().lower()
    payload: Any = None
    ws = None
    req: Request | None = None
    try:
        from .intake import PayloadError, decode

        try:
            payload = decode(data)
        except PayloadError as exc:
            ws = _quiet_workspace(None, env, cwd, host)
            return _bad_input(host, event_arg, None, ws, str(exc), t0)
        if host == "auto":
            host = detect_host(payload) or ""
        if host not in HOSTS:
            ws = _quiet_workspace(payload, env, cwd, host)
            return _fail_open(host, event_arg, ws, f"unknown host {host!r}; expected one of {', '.join(HOSTS)}", t0)
        from tiers.errors import CuticleError

        try:
            req = normalize(host, event_arg, payload)
        except CuticleError as exc:
            ws = _quiet_workspace(payload, env, cwd, host)
            return _bad_input(host, event_arg, payload, ws, f"unreadable payload: {exc}", t0)
        if req.event is None:
            ws = _quiet_workspace(payload, env, cwd, host)
            if not (req.host_event or event_arg):
                return _no_event(host, ws, t0)
            return _fail_open(host, req.host_event, ws, f"unknown event {req.host_event or event_arg!r} for {host}", t0)
        if any("\x00" in p for p in _op_paths(req)):
            ws = _quiet_workspace(payload, env, cwd, host)
            return _bad_input(host, req.host_event or event_arg, payload, ws, "a file path holds a NUL byte", t0)
        ws = _workspace(req, env, cwd)
        if req.ops:
            ws, problem = _judge_paths(req, ws, env)
            if problem:
                reply = _deny(req, ws, {"kind": KIND_INPUT, "reason": "two-workspaces", "message": problem},
                              short="cuticle blocked a write across workspaces")
                log_event(ws, {"host": host, "event": req.host_event, "decision": "block", "error": problem,
                               "ms": _ms(t0)}, create=False)
                return reply
        if ws is None:
            return answer.noop(req.host, req.host_event)  # nothing installed here: no checks, no state
        ws.secure_state()
        config_error = ws.config_or_defaults()
        reply, record = _dispatch(req, ws)
        record.update(host=host, event=req.host_event, session=req.session_id, ms=_ms(t0))
        if config_error:
            record["config_error"] = config_error
            reply = _with_config_note(req, reply, config_error)
        if record.pop("_log", True) or config_error:
            log_event(ws, record, create=record.pop("_create", True))
        return reply
    except Exception as exc:  # noqa: BLE001 - the hook fails open on its own bugs, loudly, but never for a write
        message = f"internal error: {type(exc).__name__}: {exc}"  # it could not check (docs/bad-input.md)
        try:
            unchecked = req is not None and req.event == PRE and _touches_protected(req, ws)
        except Exception:  # noqa: BLE001 - paths too odd to judge: a write among them is refused
            unchecked = req is not None and req.event == PRE and bool(req.ops)
        if unchecked:
            return _unchecked_write(host, req.host_event or event_arg, ws, message, t0)
        return _fail_open(host, req.host_event if req else event_arg, ws, message, t0)


def _unchecked_write(host: str, event: str | None, ws, message: str, t0: float) -> Reply:
    """A before-tool write to a memory, guarded or state file that crashed a check: refused, not let through
    unchecked (``check-failed``); logged as "check-failed"."""
    from tiers.secrets import mask_json

    message = mask_json(message)
    return _refuse(host, ws, t0, {"event": event, "decision": "check-failed", "action": "block", "error": message},
                   "check-failed", f"cuticle could not check this write ({message}); the call is refused",
                   "retry; if it fails again, report the bug (`.cuticle/events.jsonl` has the error)",
                   short="cuticle could not check this write")


def _refuse(host: str, ws, t0: float, record: dict, reason: str, message: str, resolve: str, *, short: str) -> Reply:
    """The before-tool refusal of a call cuticle could not check (unread, unnamed, crashed): logged with
    ``record``, answered with a ``cuticle.input`` reason."""
    log_event(ws, {"host": host, **record, "ms": _ms(t0)}, create=False)
    body = json.dumps({"kind": KIND_INPUT, "reason": reason, "message": message, "resolve": resolve},
                      ensure_ascii=False)
    return answer.deny(host, PRE, body, short=short)


def late_answer(host: str, event_arg: str | None, data: bytes | str, budget: float, *, env: dict | None = None,
                cwd: str | None = None) -> Reply:
    """The cheaper check for a call whose full check did not finish within ``budget`` seconds: judged by its
    paths alone. A before-tool call that writes a memory file, a guarded file or cuticle's state, or runs a shell
    command, is refused (it could not be checked in time); any other call proceeds. Logged as "late"."""
    t0 = time.perf_counter()
    env = os.environ if env is None else env
    host = (host or "").strip().lower()
    ws = None
    try:
        from .intake import decode

        payload = decode(data)
        if host == "auto":
            host = detect_host(payload) or ""
        req = normalize(host, event_arg, payload) if host in HOSTS else None
        ws = _quiet_workspace(payload, env, cwd, host)
    except Exception:  # noqa: BLE001 - the full check would have refused what cannot be read
        req = None
    event = req.event if req is not None else _event_of(event_arg)
    if event is None and not (event_arg or (req.host_event if req is not None else None)):
        event, req = PRE, None  # no event named anywhere: refused as a before-tool call that cannot be read
    message = f"the check did not finish within {budget:g} s (the host's hook timeout)"
    if host in HOSTS and event == PRE and (req is None or req.command or req.tool_kind == "shell"
                                           or _touches_protected(req, ws)):
        log_event(ws, {"host": host, "event": event_arg, "decision": "late", "action": "block", "error": message,
                       "ms": _ms(t0)}, create=False)
        return answer.deny(host, PRE, json.dumps({
            "kind": KIND_INPUT, "reason": "too-slow", "message": f"{message}; the call is refused",
            "resolve": "split the change into smaller writes (or a shorter command) and retry"}),
            short="cuticle could not check this tool call in time")
    log_event(ws, {"host": host, "event": event_arg, "decision": "late", "action": "allow", "error": message,
                   "ms": _ms(t0)}, create=False)
    return answer.noop(host, event_arg or "", diagnostic=f"cuticle: {message}; the call touches no memory file "
                                                          "and proceeds")


def _event_of(event_arg: str | None) -> str | None:
    from .payload import canonical_event

    return canonical_event(event_arg)


def _touches_protected(req: Request, ws) -> bool:
    if not req.ops:
        return False
    if ws is None:
        return False
    from tiers.hostfiles import is_pack_path
    from tiers.workspace import is_self_path

    base = req.cwd or str(ws.root)
    for path in _op_paths(req):
        full = os.path.normpath(os.path.join(base, os.path.expanduser(path)))
        rel = os.path.relpath(full, ws.root).replace(os.sep, "/")
        if rel.startswith("../") or rel == "..":
            if _home_protected(full):
                return True
            continue
        try:
            if ws.is_memory_file(rel) or ws.is_guarded_file(rel) or is_self_path(rel) or is_pack_path(rel):
                return True
        except Exception:  # noqa: BLE001 - a broken config: treat every path as protected
            return True
    return False


def _home_protected(full: str) -> bool:
    """``full`` is a host's hook settings or agent, command or skill file under the user's home (as written or
    with its directory's links resolved)."""
    from rules.governance.paths import HOME_SELF_GLOBS
    from tiers.hostfiles import home_display, is_home_pack_path
    from tiers.workspace import glob_match

    try:
        real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    except (OSError, ValueError):
        return True
    for candidate in dict.fromkeys((full, real)):
        home = home_display(candidate)
        if home is not None and (is_home_pack_path(home) or glob_match(home.lower(), HOME_SELF_GLOBS)):
            return True
    return False


#: the kind of a refusal that comes from the input itself (unreadable payload, a write across workspaces)
KIND_INPUT = "cuticle.input/v1"


def log_event(ws, record: dict, *, create: bool = True) -> None:
    from .events import log_event as log

    log(ws, record, create=create)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)


def _fail_open(host: str, event: str | None, ws, message: str, t0: float) -> Reply:
    from tiers.secrets import mask_json

    message = mask_json(message)
    line = f"cuticle: {message}; letting the call proceed (fail-open)"
    log_event(ws, {"host": host, "event": event, "decision": "fail-open", "error": message, "ms": _ms(t0)},
              create=False)
    return answer.noop(host, event or "", diagnostic=line)


#: why a call that names no event is refused (docs/bad-input.md, ``no-event``)
NO_EVENT = ("configuration error: the hook command names no event and the payload names none, so cuticle cannot "
            "tell a tool call it must check from any other event; refused (`cuticle init` installs the hook "
            "with its event: re-run it)")


def _no_event(host: str, ws, t0: float) -> Reply:
    """A call whose event neither the hook's argument nor the payload names: a configuration error (a hand-made
    hook command), answered as the refusal of a before-tool call, so a write it carries is never let through."""
    return _refuse(host, ws, t0, {"event": None, "decision": "block", "config_error": NO_EVENT}, "no-event",
                   NO_EVENT, "re-run `cuticle init` (or add the event name to the hook command)",
                   short="cuticle: the hook names no event (configuration error)")


def _bad_input(host: str, event_arg: str | None, payload: Any, ws, message: str, t0: float) -> Reply:
    """A payload cuticle cannot read: a before-tool call is refused (nothing unchecked gets through), any other
    event is answered as a no-op; both say why on stderr and in the log (docs/bad-input.md)."""
    from tiers.secrets import mask_json
    from .payload import canonical_event

    message = mask_json(message)
    if host not in HOSTS:
        return _fail_open(host, event_arg, ws, message, t0)
    hev = None
    if isinstance(payload, dict):
        from .hosts import get

        try:
            hev = get(host).event_name(event_arg, payload) or None
        except Exception:  # noqa: BLE001 - a payload too odd to name its event: the hook's argument decides
            hev = None
    event = canonical_event(hev or event_arg)
    shown = event_arg or hev
    if not shown:  # no event named anywhere: it may be a tool call, so it is refused as one would be
        message = f"{message}; {NO_EVENT}"
    if event == PRE or not shown:
        return _refuse(host, ws, t0, {"event": shown, "decision": "block", "error": message}, "bad-input", message,
                       "cuticle could not read this tool call, so it cannot check it; retry it",
                       short="cuticle could not read this tool call")
    log_event(ws, {"host": host, "event": shown, "decision": "ignored", "error": message, "ms": _ms(t0)},
              create=False)
    return answer.noop(host, shown or "", diagnostic=f"cuticle: {message}; nothing to check, the call proceeds")


def _deny(req: Request, ws, reason: dict, *, short: str) -> Reply:
    """The before-tool refusal: the reason (JSON) masked of secrets, with any configuration error attached."""
    from tiers.secrets import mask_json

    reason = mask_json(reason)
    if ws is not None and ws.config_error:
        reason = {**reason, "config_error": ws.config_error}
    return answer.deny(req.host, PRE, json.dumps(reason, ensure_ascii=False), short=short)


def _with_config_note(req: Request, reply: Reply, error: str) -> Reply:
    """Tell the user (stderr) and, where the host shows the model something, the model about a broken config."""
    from tiers.secrets import mask_json

    note = (f"cuticle: configuration error: {mask_json(error)}; checking with the default configuration "
            f"(every check on) until it is fixed")
    if req.event == POST and not reply.stdout.strip():
        r = answer.post_note(req.host, req.host_event, note)
        return Reply(r.stdout, reply.stderr + note + "\n", reply.exit_code or r.exit_code)
    return Reply(reply.stdout, reply.stderr + note + "\n", reply.exit_code)


def _installed_for(payload: Any, env, cwd: str | None, host: str, extra: tuple[str | None, ...] = ()):
    """The protected workspace of a call (docs/gate.md, "Which workspace protects a path"), or None."""
    from tiers.workspace import Workspace, find_installed

    from .client import host_project, project_dirs

    project = host_project(payload, env, host)
    dirs = project_dirs(payload, env, host, cwd)
    for d in extra:
        if d and d not in dirs:
            dirs.insert(len(dirs) - 1, d)
    for d in dirs:
        root = find_installed(d, project)
        if root is not None:
            return Workspace(root)
    return None


def _quiet_workspace(payload: Any, env, cwd: str | None, host: str):
    try:
        return _installed_for(payload, env, cwd, host)
    except Exception:  # noqa: BLE001
        return None


def _workspace(req: Request, env, cwd: str | None):
    return _installed_for(req.raw, env, cwd, req.host, (req.workspace_hint, req.cwd))


def _op_paths(req: Request) -> list[str]:
    out: list[str] = []
    for op in req.ops:
        out.append(op.path)
        if op.move_to:
            out.append(op.move_to)
        patch = getattr(op, "patch", None)
        for attr in ("path", "move_to"):
            v = getattr(patch, attr, None)
            if isinstance(v, str) and v:
                out.append(v)
    return [p for p in out if isinstance(p, str) and p]


def _judge_paths(req: Request, ws, env):
    """(workspace, problem): a file path is judged by the protected workspace that contains it, whatever the
    tool's cwd says; a call writing into two protected workspaces is refused (problem set)."""
    from tiers.workspace import Workspace, find_installed

    from .client import host_project

    project = host_project(req.raw, env, req.host)
    base = req.cwd or (str(ws.root) if ws is not None else None) or os.getcwd()
    roots: set = set()
    for path in _op_paths(req):
        try:
            p = os.path.expanduser(path)
            full = os.path.normpath(os.path.join(base, p))
            real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
        except (OSError, ValueError, TypeError):
            continue
        for candidate in {full, real}:
            root = find_installed(os.path.dirname(candidate), project)
            if root is not None:
                roots.add(root)
    if not roots:
        return ws, None
    if len(roots) > 1:
        return ws, ("one tool call writes into " + " and ".join(sorted(f"{r.name}/" for r in roots))
                    + ", two cuticle workspaces; write to each in its own call")
    (root,) = roots
    if ws is not None and ws.root == root:
        return ws, None
    return Workspace(root), None


# -- dispatch ------------------------------------------------------------------------------------------


def _ensure_session_id(req: Request, ws) -> None:
    """Hosts that send no session id (Copilot's sessionStart, some Cursor builds): a session id is made at session
    start from the host and the payload's timestamp, kept in `.cuticle/`, used by the events that follow, and
    dropped at session end, so the session counter still advances once per real session."""
    if req.session_id:
        return
    path = ws.state_path(f"anonymous-session-{req.host}")
    if req.event == START:
        stamp = req.raw.get("timestamp") if isinstance(req.raw, dict) else None
        sid = f"{req.host}-{stamp if isinstance(stamp, (int, str)) and stamp else int(time.time() * 1000)}"
        try:
            from tiers.fsutil import atomic_write

            atomic_write(path, sid.encode("utf-8", "surrogatepass"))
        except OSError:
            pass
        req.session_id = sid
        return
    try:
        req.session_id = path.read_text(encoding="utf-8").strip()
    except OSError:
        req.session_id = ""
    if not req.session_id and req.event in (END, PROMPT):
        req.session_id = f"{req.host}-anonymous"


def _dispatch(req: Request, ws) -> tuple[Reply, dict]:
    if req.event in (START, END, PROMPT, PRE, POST):
        _ensure_session_id(req, ws)
    if req.event == PROMPT:
        return _prompt(req, ws)
    if req.event == START:
        return _session_start(req, ws)
    if req.event == END:
        return _session_end(req, ws)
    if req.event == CONTEXT:
        return _context(req, ws)
    if req.event == PRE:
        return _pre_tool(req, ws)
    if req.event == POST:
        return _post_tool(req, ws)
    return answer.noop(req.host, req.host_event), {"decision": "ignored"}


def _prompt(req: Request, ws) -> tuple[Reply, dict]:
    rec: dict = {"decision": "recorded" if req.prompt else "ignored"}
    if req.prompt:
        from tiers.provenance import record_prompt

        record_prompt(ws, req.session_id, req.prompt)
    rec["_log"] = False  # prompts are the user's words; the provenance store keeps them, the log does not
    return answer.noop(req.host, req.host_event), rec


def _personality(ws) -> str | None:
    from personality import session_start

    return session_start(ws)


def _session_start(req: Request, ws) -> tuple[Reply, dict]:
    rec: dict = {"decision": "session-start"}
    notes: list[str] = []
    _advance_session(ws, req, "start_session", rec, notes)
    rec.update(_run_gc(ws, notes))
    text = None
    try:
        text = _personality(ws)
    except Exception as exc:  # noqa: BLE001
        notes.append(f"personality: {type(exc).__name__}: {exc}")
    if req.prompt:
        from tiers.provenance import record_prompt

        record_prompt(ws, req.session_id, req.prompt)
    if notes:
        rec["errors"] = notes
    rec["context_chars"] = len(text or "")
    diag = _session_diag("start", notes, rec)
    if ws.config_error:  # the model is told at the start of the session, not only when something is refused
        from tiers.secrets import mask_json

        text = (f"cuticle: the workspace configuration is broken ({mask_json(ws.config_error)}); every memory check runs "
                f"with the defaults until the user fixes .cuticle/config.toml.\n\n" + (text or ""))
    r = answer.context(req.host, req.host_event, text or "", path=str(ws.root / "PERSONALITY.md"))
    return Reply(r.stdout, r.stderr + diag, r.exit_code), rec


def _advance_session(ws, req: Request, which: str, rec: dict, notes: list[str]) -> None:
    """Register (``start_session``) or close (``end_session``) the host's session; a failure is a note, because
    one failing session step must not stop GC, rendering or the host's own answer."""
    from tiers import session

    try:
        rec["session_number"] = getattr(session, which)(ws, req.session_id or "anonymous")
    except Exception as exc:  # noqa: BLE001
        notes.append(f"session: {type(exc).__name__}: {exc}")


def _run_gc(ws, notes: list[str]) -> dict:
    """The session's GC: the number of lines removed and, as ``gc_errors``, every file it left and why (a second
    hard link, a host still writing: ``cuticle gc``'s one line per file). The event log masks them like every
    record; `cuticle doctor` shows the last session's (docs/gate.md, "Session end")."""
    from tiers.gc import collect

    try:
        report = collect(ws)
    except Exception as exc:  # noqa: BLE001
        notes.append(f"gc: {type(exc).__name__}: {exc}")
        return {}
    rec: dict = {"gc_removed": len(report.removed)}
    if report.errors:
        rec["gc_errors"] = list(report.errors)
    return rec


def _session_diag(which: str, notes: list[str], rec: dict) -> str:
    """The session step's lines for the host's stderr, secrets masked: its failures and the files GC left."""
    lines = notes + [f"gc left {why}; not collected" for why in rec.get("gc_errors", ())]
    if not lines:
        return ""
    from tiers.secrets import mask_secrets

    return "".join(f"cuticle: session {which}: {mask_secrets(n)}\n" for n in lines)


def _session_end(req: Request, ws) -> tuple[Reply, dict]:
    rec: dict = {"decision": "session-end"}
    notes: list[str] = []
    _advance_session(ws, req, "end_session", rec, notes)
    rec.update(_run_gc(ws, notes))
    # Chitin reflects on what a session taught at reset/new-session time; `cuticle reflect` lists the queue
    try:
        from personality import queue_reflection

        queue_reflection(ws, req.session_id or None, _end_reason(req))
        rec["reflection_queued"] = True
    except Exception as exc:  # noqa: BLE001
        notes.append(f"reflection: {type(exc).__name__}: {exc}")
    if notes:
        rec["errors"] = notes
    try:
        ws.state_path(f"anonymous-session-{req.host}").unlink()
    except OSError:
        pass
    diag = _session_diag("end", notes, rec)
    r = answer.noop(req.host, req.host_event)
    return Reply(r.stdout, r.stderr + diag, r.exit_code), rec


def _end_reason(req: Request) -> str:
    """Why the session ended, as the host says it (Claude `reason`, OpenClaw `before_reset`), else "session_end"."""
    raw = req.raw if isinstance(req.raw, dict) else {}
    event = raw.get("event") if isinstance(raw.get("event"), dict) else {}
    reason = raw.get("reason") or event.get("reason")
    if isinstance(reason, str) and reason.strip():
        return reason.strip()[:64]
    return "reset" if "reset" in (req.host_event or "").lower() else "session_end"


def _context(req: Request, ws) -> tuple[Reply, dict]:
    path = ws.root / "PERSONALITY.md"
    text = None
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else _personality(ws)
    except (OSError, UnicodeDecodeError):
        text = None
    return answer.context(req.host, req.host_event, text or "", path=str(path)), {
        "decision": "context", "context_chars": len(text or ""), "_log": False}


# -- tool calls ----------------------------------------------------------------------------------------


def _reason(errors: list[dict]) -> dict:
    if len(errors) == 1:
        return errors[0]
    return {"kind": "cuticle.blocks/v1", "count": len(errors), "errors": errors}


def _self_writes(req: Request, ws) -> list[dict]:
    """Refusals for file ops that write cuticle's state (any `.cuticle/`, at any depth) or a host's hook
    settings inside the workspace: only the user changes those, and an agent that could would switch the gate off
    (a decoy `.cuticle/`, `user_guard = false`, hooks removed from `.claude/settings.json`). A host's agent,
    command or skill file may be written, but not so that what it declares to the host changes (``packfiles``)."""
    from tiers.workspace import is_self_path

    base = req.cwd or str(ws.root)
    out: list[dict] = []
    for path in _op_paths(req):
        try:
            full = os.path.normpath(os.path.join(base, os.path.expanduser(path)))
            real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
        except (OSError, ValueError, TypeError):
            continue
        for candidate in (full, real):
            try:
                rel = os.path.relpath(candidate, ws.root)
            except ValueError:
                continue
            if rel == ".." or rel.startswith("../") or rel == ".":
                continue
            rel = rel.replace(os.sep, "/")
            if is_self_path(rel):
                out.append({"kind": "cuticle.block/v1", "reason": "cuticle-state", "file": rel,
                            "message": f"{rel} is cuticle's state or a host's hook settings; only the user changes it",
                            "resolve": "ask the user to change cuticle's configuration or the host's hook settings"})
                break
    from .packfiles import pack_refusals

    return out + pack_refusals(req, ws)


def _pre_tool(req: Request, ws) -> tuple[Reply, dict]:
    if req.tool_kind == "fact":
        return _fact(req, ws)
    if not req.ops:
        return _govern(req, ws, ())
    refused = _self_writes(req, ws)
    if refused:
        return _deny(req, ws, _reason(refused), short="cuticle blocked a write to its own state"), {
            "tool": req.tool, "decision": "block", "files": [e["file"] for e in refused]}
    from .writepath import Planner

    planner = Planner(ws, req.session_id, cwd=req.cwd, host=req.host)
    plans_by_op = [(op, planner.plan(op)) for op in req.ops]
    plans = [p for _, ps in plans_by_op for p in ps]
    rec: dict = {"tool": req.tool, "files": [p.to_json() for p in plans if p.action != "pass" or p.rel]}
    if planner.diagnostics:
        rec["errors"] = planner.diagnostics
        reply, rec2 = _pre_tool_decide(req, ws, plans, plans_by_op, planner, rec)
        diag = "".join(f"cuticle: {d}\n" for d in planner.diagnostics)
        return Reply(reply.stdout, reply.stderr + diag, reply.exit_code), rec2
    return _pre_tool_decide(req, ws, plans, plans_by_op, planner, rec)


def _pre_tool_decide(req: Request, ws, plans, plans_by_op, planner, rec: dict) -> tuple[Reply, dict]:
    from .aftertool import save_snapshot

    blocked = [e for p in plans if p.action == "block" for e in p.errors]
    if blocked:
        from .aftertool import drop_snapshot

        for p in plans:  # an older call's snapshot must not stand in for this blocked one after the tool
            if p.rel:
                drop_snapshot(ws, p.rel)
        rec["decision"] = "block"
        return _deny(req, ws, _reason(blocked), short="cuticle blocked a memory write"), rec
    passing = [p for p in plans if p.action == "pass"]
    if passing:
        reply, grec = _govern(req, ws, tuple(p.rel or p.path for p in passing), log=False)
        logged_by_policy = grec.pop("_log", True) is False
        if grec.get("decision") == "deny":
            rec.update(grec)
            rec["_log"] = not logged_by_policy
            return reply, rec
        rec["policy"] = grec.get("policy", grec.get("note"))
    memory = [p for p in plans if p.action == "allow" and p.rel]
    if not memory:
        rec["decision"] = "allow"
        rec["_create"] = False
        return answer.noop(req.host, req.host_event), rec
    call_id = req.call_id
    for p in memory:
        save_snapshot(ws, p.rel, p.old, req.session_id, supersede=p.supersede, call_id=call_id)
    _supersede_elsewhere(ws, memory, planner, rec)
    rec["decision"] = "allow"
    if answer.can_rewrite(req.host) and any(p.stamped is not None for p in memory):
        from .rewrite import rewritten_args

        args = rewritten_args(req, plans_by_op)
        if args is not None:
            n = sum(1 for p in memory for x in p.new_lines if not x.structural)
            rec["rewrite"] = True
            note = f"cuticle: stamped {n} new memory line(s)"
            return answer.rewrite(req.host, args, note=note, permission_mode=req.permission_mode,
                                  auto_allow=ws.section("gate").get("claude_auto_allow", "auto")), rec
    rec["rewrite"] = False
    return answer.noop(req.host, req.host_event), rec


def _supersede_elsewhere(ws, plans, planner, rec: dict) -> None:
    """A verified user directive amended an older one: mark the old line superseded. Other files now, on disk;
    the file being written after the tool ran (its snapshot carries the list)."""
    todo = [s for p in plans for s in p.supersede if s.get("file") not in (None, p.rel)]
    if not todo:
        return
    from .supersede import mark_superseded

    rec["superseded"] = mark_superseded(ws, todo)


def _post_tool(req: Request, ws) -> tuple[Reply, dict]:
    rec: dict = {"tool": req.tool, "decision": "post"}
    if not req.ops:
        return answer.noop(req.host, req.host_event), {**rec, "_log": False}
    from .aftertool import after_tool
    from .writepath import Planner

    planner = Planner(ws, req.session_id, cwd=req.cwd, host=req.host, stage="post")
    # the host adapter says which call this is, whether it failed or was blocked, and whether a pre-tool hook saw it
    plans = after_tool(ws, planner, req.ops, call_id=req.call_id, failed=req.tool_error is not None,
                       unguarded=req.unguarded)
    if not plans:
        return answer.noop(req.host, req.host_event), {**rec, "_log": False}
    rec["files"] = [p.to_json() for p in plans]
    if planner.diagnostics:
        rec["errors"] = planner.diagnostics
    stamped = sum(1 for p in plans for x in p.new_lines if not x.structural)
    note = f"cuticle: stamped {stamped} new memory line(s) on disk" if stamped else ""
    return answer.post_note(req.host, req.host_event, note), rec


def _fact(req: Request, ws) -> tuple[Reply, dict]:
    """Gemini `save_memory {fact}`: the fact lands in GEMINI.md (outside the workspace's memory files), so it is
    checked — security scan and arbitration against the workspace's constraints — but not stamped."""
    fact = req.args.get("fact")
    rec: dict = {"tool": req.tool, "decision": "allow"}
    if not isinstance(fact, str) or not fact.strip():
        return answer.noop(req.host, req.host_event), rec
    from .writepath import Planner, _err

    planner = Planner(ws, req.session_id, cwd=req.cwd, host=req.host)
    errors: list[dict] = []
    from rules.engine import scan_new_lines
    from tiers.arbitrate import arbitrate

    for f in scan_new_lines(ws, "GEMINI.md", [fact]) or ():
        errors.append(_err("security", "GEMINI.md", f"{f.code} {f.message}"))
    cls = planner._classify(fact)
    if not errors:
        result = arbitrate(planner.index(), fact, cls.tier, file="GEMINI.md", scope=cls.scope,
                           verified=bool(cls.verified))
        if result.decision == "block":
            errors.append(dict(result.error or {}))
    if errors:
        rec["decision"] = "block"
        return _deny(req, ws, _reason(errors), short="cuticle blocked a memory fact"), rec
    return answer.noop(req.host, req.host_event), rec


_KIND_OF_CALL = {"shell": "shell", "write": "write", "edit": "edit", "patch": "patch", "delete": "other", "other": "other",
                 "": "other"}


def _govern(req: Request, ws, paths: tuple[str, ...], *, log: bool = True) -> tuple[Reply, dict]:
    """Shell and other tool calls: the governance layer decides; a deny reaches the model."""
    cfg = ws.section("gate")
    fail_closed = bool(cfg.get("fail_closed_policy", False))
    rec: dict = {"tool": req.tool, "kind": req.tool_kind}
    from rules import governance as gov
    from rules.model import ToolCall

    call = ToolCall(tool=req.tool, kind=_KIND_OF_CALL.get(req.tool_kind, "other"), command=req.command,
                    paths=paths, host=req.host, cwd=req.cwd or str(ws.root), arguments=req.args)
    try:
        ev = gov.evaluate_call(call, ws)
        from rules.plugins import overruled
        from tiers.secrets import mask_secrets

        ev = overruled(ev, call, ws, mask_secrets)  # other plugins' cuticle_tool_call_verdict votes: deny wins
    except Exception as exc:  # noqa: BLE001 - the policy layer's failure mode is configurable
        if not fail_closed:
            raise
        rec["decision"] = "deny"
        reason = {"kind": "cuticle.policy/v1", "decision": "deny", "rule": "fail-closed",
                  "reason": f"policy evaluation failed ({type(exc).__name__}) and fail_closed_policy is set"}
        return _deny(req, ws, reason, short="cuticle policy denied this tool call"), rec
    decision = getattr(ev, "decision", "allow")
    decision = getattr(decision, "value", decision)
    rec["decision"] = decision
    rec["policy"] = ev.to_json() if hasattr(ev, "to_json") else {"decision": decision}
    logger = getattr(gov, "log_decision", None)
    if logger is not None:
        try:
            logger(ws, ev, req.host, session=req.session_id)
            rec["_log"] = False  # governance wrote the decision to events.jsonl itself
        except Exception:  # noqa: BLE001 - the decision stands; the gate's own log line records it instead
            pass
    if decision == "deny":
        full = rec["policy"]
        brief = {k: full[k] for k in ("decision", "action", "rule", "reason", "scope", "tool", "command", "paths",
                                     "policy") if full.get(k) not in (None, "", [], ())}
        return _deny(req, ws, {"kind": "cuticle.policy/v1", **brief}, short="cuticle policy denied this tool call"), rec
    if not log:
        rec["_log"] = False
    return answer.noop(req.host, req.host_event), rec
