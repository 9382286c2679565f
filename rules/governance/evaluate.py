"""One decision for one tool call from any host: invariants first, then the deny-first policy.

``evaluate_call`` types the call (shell commands segment by segment; file reads, writes, edits and patches by
path; web fetches, MCP tools and everything else by tool name), checks the invariants the policy cannot
override, then matches every effect against the policy. The most severe enforced finding decides. Everything it
returns is secret-masked. ``log_decision`` appends the decision to ``.cuticle/events.jsonl``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from tiers.record import dataclass, field

from .analyze import INVARIANTS, RANK, Analysis, Effect, action_of, analyze_command
from .invariants import no_governance_self_modification, no_ide_socket_access, no_network_egress, no_secret_write
from tiers.secrets import mask_json, mask_secrets, secret_values
from .paths import PACK_WHAT, Env
from .policy import _PLANS, _TARGET_KINDS, Policy, _plain, effective_policy

SHELL_TOOLS = frozenset({"bash", "run_shell_command", "exec", "shell", "terminal", "beforeshellexecution",
                         "execute_command", "run_command", "run_terminal_cmd", "command", "sh", "process",
                         "local_shell", "container.exec", "shell_command", "monitor"})
WRITE_TOOLS = frozenset({"write", "edit", "multiedit", "notebookedit", "write_file", "create", "replace",
                         "str_replace", "strreplace", "str_replace_editor", "tabwrite", "save_memory", "edit_file",
                         "create_file", "write_to_file", "insert", "afterfileedit", "todowrite", "update_topic",
                         "delete_file", "move_file", "rename_file"})
PATCH_TOOLS = frozenset({"apply_patch", "patch", "applypatch"})
READ_TOOLS = frozenset({"read", "read_file", "read_many_files", "view", "glob", "grep", "ls", "list_directory",
                        "search_file_content", "notebookread", "beforereadfile", "list_dir", "find_files",
                        "codebase_search", "file_search", "search_files", "memory_search", "memory_get"})
NET_TOOLS = frozenset({"webfetch", "websearch", "web_fetch", "web_search", "google_web_search", "fetch",
                       "beforemcpexecution", "browser", "http_request", "ollama_web_fetch", "ollama_web_search"})
_KIND_MAP = {"shell": "shell", "write": "write", "edit": "write", "read": "read", "patch": "patch",
             "fetch": "net", "mcp": "net"}


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    scope: str  # "invariant" or "policy"
    mode: str
    reason: str
    target: str = ""

    def to_json(self) -> dict:
        out = {"rule": self.rule, "scope": self.scope, "mode": self.mode, "reason": self.reason}
        if self.target:
            out["target"] = self.target
        return out


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The decision on one tool call. Every string is already secret-masked."""

    decision: str  # "allow" | "deny"
    action: str  # read | write | exec | git | net | dangerous
    rule: str
    reason: str
    mode: str = "enforce"
    scope: str = "policy"
    tool: str = ""
    command: str | None = None
    segment_objs: tuple = field(default=(), compare=False, repr=False)
    findings: tuple[Finding, ...] = ()
    policy: str = "<starter>"
    paths: tuple[str, ...] = ()
    effects: tuple = field(default=(), compare=False)
    #: the secret values the call held (never shown): every derived string is masked against them too
    secret: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def allowed(self) -> bool:
        return self.decision == "allow"

    @property
    def segments(self) -> list[dict]:
        """The unwrapped segments as JSON (canonical form, digest, action, effects), secret-masked."""
        out = [s.to_json() for s in self.segment_objs]
        return mask_json(out, self.secret) if self.secret else out

    def to_json(self) -> dict:
        out = {"decision": self.decision, "action": self.action, "rule": self.rule, "reason": self.reason,
               "mode": self.mode, "scope": self.scope, "tool": self.tool, "policy": self.policy}
        if self.command is not None:
            out["command"] = self.command
        if self.paths:
            out["paths"] = list(self.paths)
        out["segments"] = self.segments
        out["findings"] = [f.to_json() for f in self.findings]
        return out


def tool_kind(call) -> str:
    """shell, write, patch, read, net or exec for a ToolCall (the gate's ``kind`` first, then the tool name)."""
    kind = _KIND_MAP.get((call.kind or "").lower())
    if kind:
        return kind
    name = (call.tool or "").lower()
    if name.startswith("mcp__") or name.startswith("mcp_") or name.startswith("mcp."):
        return "net"
    if name in SHELL_TOOLS:
        return "shell"
    if name in PATCH_TOOLS:
        return "patch"
    if name in WRITE_TOOLS:
        return "write"
    if name in READ_TOOLS:
        return "read"
    if name in NET_TOOLS:
        return "net"
    if call.command:
        return "shell"
    return "exec"


def patch_paths(text: str) -> list[tuple[str, str]]:
    """(operation, path) for every file an ``apply_patch`` touches: add, update, delete, move (the new path)."""
    out = []
    for line in (text or "").splitlines():
        for prefix, op in (("*** Add File:", "add"), ("*** Update File:", "update"), ("*** Delete File:", "delete"),
                           ("*** Move to:", "move")):
            if line.startswith(prefix):
                path = line[len(prefix):].strip()
                if path:
                    out.append((op, path))
    return out


def _call_paths(call) -> list[str]:
    paths = [p for p in call.paths if p]
    args = call.arguments or {}
    for key in ("file_path", "path", "notebook_path", "filePath", "target_file", "filename", "absolute_path",
                "dir_path", "directory"):
        v = args.get(key)
        if isinstance(v, str) and v and v not in paths:
            paths.append(v)
    for key in ("paths", "file_paths", "derivedPaths"):
        v = args.get(key)
        if isinstance(v, list):
            paths.extend(p for p in v if isinstance(p, str) and p and p not in paths)
    return paths


def _git_branch(repo: str) -> str | None:
    """The checked-out branch of the repository containing ``repo``, read from ``.git/HEAD`` (no subprocess)."""
    return _git_branch_path(repo)


def _git_branch_path(repo: str, single: bool = False) -> str | None:
    """The branch ``.git/HEAD`` (or a ``gitdir:`` file's HEAD) names, at ``repo`` or above (``single``: look at
    ``repo`` itself only); None for a detached HEAD, no repository or an unreadable one."""
    p = Path(repo)
    for d in ((p,) if single else (p, *p.parents)):
        git = d / ".git"
        try:
            if git.is_dir():
                head = (git / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
            elif git.is_file():
                ref = git.read_text(encoding="utf-8", errors="replace").strip()
                if not ref.startswith("gitdir:"):
                    return None
                gd = Path(ref[7:].strip())
                gd = gd if gd.is_absolute() else d / gd
                head = (gd / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
            else:
                continue
        except OSError:
            return None
        if head.startswith("ref: refs/heads/"):
            return head[len("ref: refs/heads/"):]
        return None
    return None



_ENV_CACHE: dict[tuple, Env] = {}
#: memoized shell decisions per environment (a long-lived process such as `cuticle serve` sees repeats)
_MEMO_SIZE = 2048
_MEMO: dict[tuple, tuple] = {}


_ENV_FAST: dict[tuple, tuple] = {}


def build_env(ws, policy: Policy, root: str, imports: frozenset[str] = frozenset()) -> Env:
    """The protected-path environment of ``ws`` under ``policy``; ``imports``: the files the workspace's memory
    files import (``Workspace.memory_imports``), memory files too."""
    fast_key = (root, id(ws.config) if ws is not None else 0, id(policy), imports)
    hit = _ENV_FAST.get(fast_key)
    if hit is not None and hit[0] is policy and hit[1] is (ws.config if ws is not None else None):
        return hit[2]
    env = _build_env(ws, policy, root, imports)
    if len(_ENV_FAST) > 32:
        _ENV_FAST.clear()
    _ENV_FAST[fast_key] = (policy, ws.config if ws is not None else None, env)
    return env


def _build_env(ws, policy: Policy, root: str, imports: frozenset[str]) -> Env:
    mem = guarded = None
    rels: list[str] = []
    if ws is not None:
        mem = (*ws.memory_globs, *sorted(imports))
        guarded = ws.guarded_globs
        section = ws.section("policy")
        configured = section.get("path")
        if isinstance(configured, str) and configured and not os.path.isabs(configured):
            rels.append(Path(configured).as_posix())
    if policy.path and policy.path not in ("<starter>", "<fail-safe>"):
        rel = os.path.relpath(os.path.abspath(policy.path), os.path.abspath(root))
        rels.append(rel if not rel.startswith("..") else policy.path)
    key = (root, mem, guarded, tuple(rels), policy.protected_paths)
    env = _ENV_CACHE.get(key)
    if env is None:
        env = Env.build(root, memory_globs=mem, guarded_globs=guarded, policy_rels=tuple(rels),
                        extra=policy.protected_paths)
        if len(_ENV_CACHE) > 32:
            _ENV_CACHE.clear()
        _ENV_CACHE[key] = env
    return env


def analyze_call(call, env: Env, policy: Policy, kind: str | None = None) -> tuple[str, Analysis]:
    """Type one tool call and collect its effects and invariant violations (``kind``: ``tool_kind(call)``
    when the caller has it already)."""
    if kind is None:
        kind = tool_kind(call)
    root = env.root
    cwd = root
    if call.cwd:
        c = call.cwd if os.path.isabs(call.cwd) else os.path.join(root, call.cwd)
        cwd = os.path.normpath(c)
    opts = policy.options()
    if kind == "shell":
        command = call.command
        if command is None:
            args = call.arguments or {}
            command = args.get("command") or args.get("cmd") or ""
            if isinstance(command, list):
                command = " ".join(str(c) for c in command)
        return kind, analyze_command(str(command), env, opts, cwd=cwd, git_branch=_git_branch)
    out = Analysis()
    if kind in ("write", "patch"):
        items: list[tuple[str, str]] = [("write", p) for p in _call_paths(call)]
        if kind == "patch":
            args = call.arguments or {}
            text = args.get("input") or args.get("command") or args.get("patch") or call.command or ""
            items.extend(patch_paths(str(text)))
        seen = set()
        for op, p in items:
            ref = env.norm(p, cwd)
            if (op, ref.display) in seen:
                continue
            seen.add((op, ref.display))
            hit = env.protected(ref)
            if hit and hit[1].endswith(f"({PACK_WHAT})"):
                # an agent, command or skill file: judged by what the write makes it declare (the gate computes
                # edits and patches, gate/packfiles.py; here a whole-file write's content is compared)
                v = no_governance_self_modification.pack_write(call, op, ref, hit[1])
                if v is not None:
                    out.violations.append(v)
            elif hit and hit[0] == "no-governance-self-modification":
                out.violations.append(no_governance_self_modification.file_tool_write(call.tool, op, hit[1]))
            elif not hit:  # one protected set for every tool: a credential file the shell may not write
                v = no_secret_write.credential_write(env, ref, call.tool)
                if v is not None:
                    out.violations.append(v)
            out.effects.append(Effect("write", ref.display, "path"))
        if not items:
            out.effects.append(Effect("write"))
        return kind, out
    if kind == "read":
        for p in _call_paths(call):
            ref = env.norm(p, cwd)
            v = no_ide_socket_access.file_tool_read(call.tool, p, ref.display)
            if v is not None:
                out.violations.append(v)
            out.effects.append(Effect("read", ref.display, "path"))
        if not out.effects:
            out.effects.append(Effect("read"))
        return kind, out
    if kind == "net":
        from .analyze.net import _URL
        args = call.arguments or {}
        url = args.get("url") or args.get("uri") or ""
        hosts = [m.group(2).lower() for m in _URL.finditer(str(url))] if url and "://" in str(url) else []
        name = call.tool or ""
        if name.lower().startswith("mcp"):
            server = name.split("__")[1] if name.count("__") >= 2 else name
            out.effects.append(Effect("net", server, "host"))
        for host in hosts:
            out.effects.append(Effect("net", host, "host"))
            v = no_network_egress.host_violation(call.tool, host, opts.allowed_hosts, "fetches from")
            if v is not None:
                out.violations.append(v)
        if not out.effects:
            out.effects.append(Effect("net"))
        return kind, out
    out.effects.append(Effect("exec", call.tool or "", ""))
    return kind, out


def decide(analysis: Analysis, policy: Policy, effects=None) -> tuple[str, str, str, str, str, list[Finding]]:
    """(decision, rule, reason, mode, scope, findings) for an analysis under a policy (``effects``: the
    analysis's effects when the caller has collected them already)."""
    findings: list[Finding] = []
    violations = analysis.violations
    seen: set[tuple[str, str]] | None = set() if violations else None  # made when a finding may repeat
    if violations:
        modes, default = policy.invariant_modes, policy.mode
        for v in violations:
            mode = modes.get(v.invariant, default)
            key = (v.invariant, v.reason)
            if mode == "off" or key in seen:
                continue
            seen.add(key)
            findings.append(Finding(v.invariant, "invariant", mode, v.reason))
    if effects is None:
        segs = analysis.segments  # _effects_of, its common case inline
        effects = segs[0].effects if len(segs) == 1 and not analysis.effects else _effects_of(analysis)
    allow_rule = None
    best = -1
    # Policy.match's first step inlined: an effect without a target is decided by the plan's entry for its type
    # and its memo of targeted effects, looked up here first (a hit needs no call)
    if type(policy) is Policy:
        hit = _PLANS.get(id(policy))
        if hit is None or hit[0] is not policy:
            _plain(policy)
            hit = _PLANS[id(policy)]
        plain, memo = hit[2], hit[3]
        plain_star = plain["*"]
    else:
        plain = memo = None
    for eff in effects:
        if plain is not None and (not eff.target or eff.kind not in _TARGET_KINDS):
            rule, effect = plain.get(eff.type) or plain_star
        else:
            got = memo.get((eff.type, eff.kind, eff.target)) if memo is not None else None
            rule, effect = got if got is not None else policy.match(eff)
        if effect == "deny":
            rid = rule.id if rule else "default-deny"
            reason = (rule.reason if rule and rule.reason else
                      f"{eff.type} of {eff.target} is denied by the policy" if rule else
                      f"no policy rule allows {eff.type}" + (f" of {eff.target}" if eff.target else "") +
                      "; add an allow rule to the policy or ask the user")
            if rule and eff.target:
                reason = f"{reason} ({eff.type} {eff.target})"
            if rule and rule.suggestion:
                reason = f"{reason} Try: {rule.suggestion}"
            if seen is None:
                seen = set()
            if (rid, reason) not in seen:
                seen.add((rid, reason))
                findings.append(Finding(rid, "policy", policy.mode_for(rid), reason, eff.target))
        elif rule is not None:
            rank = RANK[eff.type]
            if rank > best:
                best = rank
                allow_rule = rule
    if findings:
        for f in findings:
            if f.mode == "enforce":
                return "deny", f.rule, f.reason, "enforce", f.scope, findings
        f = findings[0]
        return "allow", f.rule, f"monitor: would deny: {f.reason}", "monitor", f.scope, findings
    if allow_rule is not None:
        reason = allow_rule.reason or f"allowed by rule {allow_rule.id}"
        return "allow", allow_rule.id, reason, policy.mode, "policy", findings
    return "allow", "empty", "nothing to run", policy.mode, "policy", findings


#: cuticle's own secrets: the stamp key (whoever reads it can forge stamps) and the local server's token


def _effects_of(analysis) -> tuple:
    """All effects of an analysis as one tuple (a lone segment's tuple as is)."""
    segs = analysis.segments
    if len(segs) == 1 and not analysis.effects:
        return segs[0].effects
    out: list = []
    for seg in segs:
        out.extend(seg.effects)
    out.extend(analysis.effects)
    return tuple(out)


def evaluate_call(call, ws=None, *, policy_path=None) -> Evaluation:
    """Evaluate one ``rules.model.ToolCall`` in workspace ``ws`` (None: the call's cwd is the root).

    Never fails open: an invalid or unreadable policy gives the fail-safe policy (invariants enforced, reads
    allowed, everything else denied, the policy error in every deny reason); any failure inside the analysis is
    a deny (a crashing rule in the policy layer counts as deny). Raises ConfigError only for an invalid
    workspace config (``.cuticle/config.toml``).
    """
    policy = effective_policy(ws, policy_path)
    if ws is not None:
        root = str(ws.root)
        config = ws.config
        imports = ws.memory_imports()  # files a CLAUDE.md imports are memory for the shell too
    else:
        root = os.path.abspath(call.cwd) if call.cwd else os.getcwd()
        config = None
        imports = frozenset()
    memo_key = None
    call_kind = tool_kind(call)
    command = call.command
    if command is not None and call_kind == "shell":  # a shell decision depends on the command only
        memo_key = (root, call.tool, call.kind, command, call.cwd, call.paths, id(policy), id(config), imports)
        hit = _MEMO.get(memo_key)
        if hit is not None and hit[0] is policy and hit[2] is config:
            return hit[1]
    env = build_env(ws, policy, root, imports)
    volatile = True
    try:
        kind, analysis = analyze_call(call, env, policy, call_kind)
        volatile = analysis.volatile
        effects = _effects_of(analysis)
        guard = False
        for eff in effects:
            if eff.kind == "path" and "uticle/" in eff.target.lower():
                guard = True
                break
        if guard:
            v = no_governance_self_modification.state_secret_touch(effects, call.tool)
            if v is not None:
                analysis.violations.append(v)
        decision, rule, reason, mode, scope, findings = decide(analysis, policy, effects)
        action = action_of(analysis)
        segments = tuple(analysis.segments)
    except RecursionError:
        decision, rule, reason, mode, scope, findings = ("deny", "internal-error", "the command is too deeply "
                                                         "nested to evaluate; simplify it", "enforce", "invariant", [])
        action, segments, effects, kind = "exec", (), (), call_kind
    except Exception as exc:  # noqa: BLE001 - in the policy layer a crash is a deny, never a silent allow
        decision, rule, reason, mode, scope, findings = (
            "deny", "internal-error", f"cuticle could not evaluate this call ({type(exc).__name__}); "
            "run it another way or ask the user", "enforce", "invariant", [])
        action, segments, effects, kind = "exec", (), (), call_kind
    if policy.error and decision == "deny" and rule != "policy-error":
        reason = f"{reason} (the policy is invalid too: {policy.error}; only read-only actions are allowed)"
    if kind == "shell":
        if command is None:
            command = str((call.arguments or {}).get("command", ""))
        paths = ()
        raw = command
    else:
        command = None
        paths = tuple(_call_paths(call))
        raw = " ".join(["", *paths]) if paths else ""
    secret = secret_values(raw)
    if secret:
        done = {}  # each distinct text masked once (the decision's reason is also a finding's)

        def masked_text(text):
            out = done.get(text)
            if out is None:
                out = done[text] = mask_secrets(text, secret)
            return out
        # a shell call's raw text is its command; other calls have no command
        command = masked_text(command) if command is not None else None
        paths = tuple(masked_text(p) for p in paths)
        reason = masked_text(reason)
        findings = [Finding(f.rule, f.scope, f.mode, masked_text(f.reason), masked_text(f.target)) for f in findings]
    ev = Evaluation(decision, action, rule, reason, mode, scope, call.tool, command, segments, tuple(findings),
                    "<starter>" if policy.status == "starter" else _policy_display(policy, root), paths, effects,
                    secret)
    if memo_key is not None and not volatile:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.pop(next(iter(_MEMO)))
        _MEMO[memo_key] = (policy, ev, config)
    return ev


def _policy_display(policy: Policy, root: str) -> str:
    if policy.status == "missing":
        return "<starter> (no policy file)"
    if policy.status == "invalid":
        return f"<fail-safe> ({policy.error})"
    if policy.path in ("", "<starter>"):
        return "<starter>"
    try:
        return Path(policy.path).resolve().relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError):
        return policy.path


def evaluate_command(command: str, ws=None, *, tool: str = "Bash", policy_path=None, cwd: str = "") -> Evaluation:
    """Shortcut: evaluate a shell command as if the agent ran it through ``tool``."""
    from rules.model import ToolCall
    return evaluate_call(ToolCall(tool=tool, kind="shell", command=command, cwd=cwd), ws, policy_path=policy_path)


def log_decision(ws, evaluation: Evaluation, host: str = "", *, session: str = "") -> dict:
    """Append one decision to ``.cuticle/events.jsonl`` (secrets masked) and return the record."""
    from tiers.fsutil import append_jsonl
    record = {
        "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "event": "tool_call",
        "host": host,
        "tool": evaluation.tool,
        "decision": evaluation.decision,
        "action": evaluation.action,
        "rule": evaluation.rule,
        "reason": evaluation.reason,
        "mode": evaluation.mode,
        "scope": evaluation.scope,
        "policy": evaluation.policy,
    }
    if session:
        record["session"] = session
    if evaluation.command is not None:
        record["command"] = evaluation.command
        record["digests"] = [s.get("digest", "") for s in evaluation.segments]
    if evaluation.paths:
        record["paths"] = list(evaluation.paths)
    record = mask_json(record, evaluation.secret)
    append_jsonl(ws.state_path("events.jsonl"), record)
    return record


__all__ = ["Evaluation", "Finding", "INVARIANTS", "analyze_call", "decide", "evaluate_call", "evaluate_command",
           "log_decision", "patch_paths", "tool_kind"]
