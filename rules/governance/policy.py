"""The deny-first policy: a ``chitin.yaml``-compatible YAML file, strictly validated, cached by mtime.

Evaluation order: any matching ``deny`` rule wins, then any matching ``allow`` rule, then the default deny.
Invariants are not rules: the policy can only set their mode (``invariantModes``: enforce, monitor or off).
Validation is strict — unknown keys, bad globs, empty lists, unknown actions and modes are errors reported as
``file:line: message`` (lines from PyYAML's node marks). PyYAML is imported only when a policy file other than
the built-in starter has to be parsed.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import re
from pathlib import Path

from tiers.errors import ConfigError
from tiers.record import dataclass, field
from tiers.workspace import glob_match, glob_set, glob_source, glob_to_regex

from .analyze import INVARIANTS, TYPES, Effect, Options
from .canon import _sha256  # hashlib's SHA-256, imported once in canon

HERE = Path(__file__).resolve().parent
#: the starter policy `cuticle init` writes (a chitin.yaml-compatible file)
STARTER_POLICY = HERE / "starter.yaml"
_STARTER_JSON = HERE / "starter.json"

MODES = ("enforce", "monitor")
INVARIANT_MODES = ("enforce", "monitor", "off")
ACTIONS = (*TYPES, "*")
TOP_KEYS = ("mode", "rules", "invariantModes", "protectedBranches", "allowedDeletePaths", "allowedHosts",
            "protectedPaths", "id", "name", "description")
RULE_KEYS = ("id", "action", "effect", "reason", "target", "branches", "suggestion", "description")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    actions: tuple[str, ...]
    effect: str
    reason: str = ""
    targets: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    suggestion: str = ""
    line: int = 0

    def matches(self, eff: Effect) -> bool:
        if "*" not in self.actions and eff.type not in self.actions:
            return False
        if self.targets:
            if not eff.target or eff.kind not in ("path", "host"):
                return False
            pos = [t for t in self.targets if not t.startswith("!")]
            neg = [t[1:] for t in self.targets if t.startswith("!")]
            if pos and not any(target_match(eff.target, g, eff.kind) for g in pos):
                return False
            if any(target_match(eff.target, g, eff.kind) for g in neg):
                return False
        if self.branches:
            if eff.kind != "branch" or not eff.target:
                return False
            if not glob_match(eff.target, self.branches):
                return False
        return True

    def to_dict(self) -> dict:
        return {"id": self.id, "actions": list(self.actions), "effect": self.effect, "reason": self.reason,
                "targets": list(self.targets), "branches": list(self.branches), "suggestion": self.suggestion,
                "line": self.line}


@dataclass(frozen=True, slots=True)
class Policy:
    path: str
    mode: str = "enforce"
    rules: tuple[Rule, ...] = ()
    invariant_modes: dict = field(default_factory=dict)
    protected_branches: tuple[str, ...] = ("main", "master")
    delete_allowed: tuple[str, ...] = ("build", "dist", "out", "tmp")
    allowed_hosts: tuple[str, ...] | None = None
    protected_paths: tuple[str, ...] = ()
    #: how this policy came about: "file" (a valid policy file), "starter" (no workspace: the built-in starter),
    #: "missing" (the workspace has no policy file: the built-in starter, reported as such) or "invalid" (the
    #: file could not be read or validated: the fail-safe policy, see :func:`fail_safe_policy`)
    status: str = "file"
    #: the policy file's first problem when ``status`` is "invalid"
    error: str = ""

    def mode_for(self, rule_id: str) -> str:
        return self.invariant_modes.get(rule_id, self.mode)

    def options(self) -> Options:
        hit = _OPTIONS.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        hosts = self.allowed_hosts
        if hosts is not None and "*" in hosts:
            hosts = None
        opts = Options(self.protected_branches, self.delete_allowed, hosts)
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        _OPTIONS[id(self)] = (self, opts)
        return opts

    def match(self, eff: Effect) -> tuple[Rule | None, str]:
        """The deciding rule for one effect: first matching deny, else first matching allow, else default deny."""
        hit = _PLANS.get(id(self))
        if hit is None or hit[0] is not self:
            _plan(self)
            hit = _PLANS[id(self)]
        plan = hit[1]
        entry = plan.get(eff.type) or plan["*"]
        target = eff.target
        if not target or eff.kind not in _TARGET_KINDS:
            return entry[2]  # only rules without targets or branches can match: decided when the plan was built
        # the answer is a pure function of (type, kind, target) under this policy: each one is worked out once
        # (the glob alternations cost microseconds, and the same paths, hosts and branches recur)
        memo = hit[3]
        key = (eff.type, eff.kind, target)
        got = memo.get(key)
        if got is None:
            got = _match_target(entry, eff.kind, target)
            if len(memo) < 4096:
                memo[key] = got
        return got

    def to_dict(self) -> dict:
        return {"mode": self.mode, "rules": [r.to_dict() for r in self.rules],
                "invariantModes": dict(self.invariant_modes), "protectedBranches": list(self.protected_branches),
                "allowedDeletePaths": list(self.delete_allowed),
                "allowedHosts": None if self.allowed_hosts is None else list(self.allowed_hosts),
                "protectedPaths": list(self.protected_paths)}

    @classmethod
    def from_dict(cls, path: str, d: dict, status: str = "file") -> Policy:
        rules = tuple(Rule(r["id"], tuple(r["actions"]), r["effect"], r.get("reason", ""), tuple(r.get("targets", ())),
                           tuple(r.get("branches", ())), r.get("suggestion", ""), r.get("line", 0)) for r in d["rules"])
        hosts = d.get("allowedHosts")
        return cls(path, d.get("mode", "enforce"), rules, dict(d.get("invariantModes", {})),
                   tuple(d.get("protectedBranches", ("main", "master"))),
                   tuple(d.get("allowedDeletePaths", ("build", "dist", "out", "tmp"))),
                   None if hosts is None else tuple(hosts), tuple(d.get("protectedPaths", ())), status)


@functools.lru_cache(maxsize=8192)
def target_match(target: str, glob: str, kind: str) -> bool:
    """Glob semantics: a pattern without ``/`` matches the last path component (or a host); otherwise the whole
    path (workspace-relative, ``~/…`` or absolute); ``**`` spans directories."""
    if kind == "host":
        return fnmatch.fnmatchcase(target.lower(), glob.lower())
    if "/" not in glob.rstrip("/"):
        base = target.rstrip("/").rsplit("/", 1)[-1]
        return bool(glob_to_regex(glob.rstrip("/")).match(base))
    return bool(glob_to_regex(glob).match(target)) or bool(glob_to_regex(glob.rstrip("/") + "/**").match(target))


_TARGET_KINDS = frozenset({"path", "host", "branch"})


def _match_target(entry: tuple, kind: str, target: str) -> tuple[Rule | None, str]:
    """:meth:`Policy.match` for an effect with a target of one of ``_TARGET_KINDS``, given its type's plan entry."""
    skip = entry[3]  # no deny rule's positive glob matches this path: none of them can hit it
    if skip is None or kind != "path" or skip(target):
        for m in entry[0]:
            if m.hits(kind, target):
                return m.rule, "deny"
    for m in entry[4]:  # the allow rules before the first unconditional one
        if m.hits(kind, target):
            return m.rule, "allow"
    if entry[5] is not None:  # an allow rule without targets or branches hits every effect
        return entry[5], "allow"
    return None, "deny"


_PLANS: dict[int, tuple] = {}


def _alternation(patterns: list[str]):
    """One compiled regex matching when any of ``patterns`` (each anchored with ``\\Z``) matches; None if none."""
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p})" for p in dict.fromkeys(patterns))).match


class _Globs:
    """A list of target globs with :func:`target_match` semantics, as one regex per kind (basename, whole path,
    host), each compiled the first time an effect of its kind asks (a hook call asks about one or two)."""

    __slots__ = ("globs", "_path", "_host")

    def __init__(self, globs: tuple[str, ...]) -> None:
        self.globs = globs
        self._path: tuple | None = None
        self._host: tuple | None = None

    def path_hit(self, base: str, target: str) -> bool:
        """Some glob matches the path ``target`` (``base``: its last component)."""
        if self._path is None:
            bases: list[str] = []
            paths: list[str] = []
            for g in self.globs:
                if "/" not in g.rstrip("/"):
                    bases.append(g.rstrip("/"))
                else:
                    paths.append(g)
                    paths.append(g.rstrip("/") + "/**")
            # sets of globs: a regex is compiled only when a path could match one of its wildcard globs
            self._path = (glob_set(tuple(bases)), glob_set(tuple(paths)))
        pb, pp = self._path
        return pb.match(base) or pp.match(target)

    def host_hit(self, low: str) -> bool:
        """Some glob matches the (lower-cased) host ``low``."""
        if self._host is None:
            self._host = (_alternation([fnmatch.translate(g.lower()) for g in self.globs]),)
        ph = self._host[0]
        return ph is not None and bool(ph(low))


class _RuleMatcher:
    """One rule of a plan with its target globs and branches as alternations (:class:`_Globs`, compiled on first
    use): one regex per kind instead of one :func:`target_match` call per glob (``Rule.matches`` is the reference;
    a hypothesis test checks they agree)."""

    __slots__ = ("rule", "targets", "has_pos", "pos", "neg", "_branches")

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.targets = bool(rule.targets)
        pos = tuple(t for t in rule.targets if not t.startswith("!"))
        self.has_pos = bool(pos)
        self.pos = _Globs(pos)
        self.neg = _Globs(tuple(t[1:] for t in rule.targets if t.startswith("!")))
        self._branches: tuple | None = None

    def hits(self, kind: str, target: str) -> bool:
        """``rule.matches(eff)`` for an effect with a target, the rule's action already checked."""
        if self.targets:
            if kind == "path":
                base = target.rstrip("/").rsplit("/", 1)[-1]
                if self.has_pos and not self.pos.path_hit(base, target):
                    return False
                if self.neg.globs and self.neg.path_hit(base, target):
                    return False
            elif kind == "host":
                low = target.lower()
                if self.has_pos and not self.pos.host_hit(low):
                    return False
                if self.neg.globs and self.neg.host_hit(low):
                    return False
            else:
                return False
        if self.rule.branches:
            if kind != "branch":
                return False
            if self._branches is None:
                self._branches = (_alternation([glob_source(b) for b in self.rule.branches]),)
            if not self._branches[0](target):
                return False
        return True


def _deny_path_gate(deny: list) -> object:
    """For path effects: a test that is false when no deny rule can hit the path, because each of them hits a path
    only through one of its positive globs (or never: a rule with branches); None when some rule may hit a path
    without one (no targets, or negative targets only), so every rule must be asked."""
    globs: list[str] = []
    for m in deny:
        if m.rule.branches and not m.targets:
            continue  # hits() refuses every path
        if not m.targets or not m.has_pos:
            return None
        globs.extend(g for g in m.rule.targets if not g.startswith("!"))
    if not deny:
        return None
    every = _Globs(tuple(globs))

    def gate(target: str) -> bool:
        return every.path_hit(target.rstrip("/").rsplit("/", 1)[-1], target)
    return gate


def _plan(policy: Policy) -> dict:
    """Per action type: (deny rules, allow rules) that name the type, each as a compiled :class:`_RuleMatcher`,
    the decision for an effect without a target (only rules without targets or branches match it), the deny
    rules' path gate, the allow rules before the first one without targets or branches, and that rule (or None)."""
    hit = _PLANS.get(id(policy))
    if hit is not None and hit[0] is policy:
        return hit[1]
    matchers = {id(rule): _RuleMatcher(rule) for rule in policy.rules}
    plan = {}
    for typ in (*TYPES, "*"):
        deny, allow = [], []
        for rule in policy.rules:
            if "*" in rule.actions or typ in rule.actions:
                (deny if rule.effect == "deny" else allow if rule.effect == "allow" else []).append(
                    matchers[id(rule)])
        plain = next(((m.rule, "deny") for m in deny if not m.rule.targets and not m.rule.branches), None) or next(
            ((m.rule, "allow") for m in allow if not m.rule.targets and not m.rule.branches), (None, "deny"))
        head = next((k for k, m in enumerate(allow) if not m.targets and not m.rule.branches), len(allow))
        plan[typ] = (tuple(deny), tuple(allow), plain, _deny_path_gate(deny), tuple(allow[:head]),
                     allow[head].rule if head < len(allow) else None)
    if len(_PLANS) > 64:
        _PLANS.clear()
    # the decisions for target-less effects by type, for decide()'s inlined first step of match()
    plain = {typ: entry[2] for typ, entry in plan.items()}
    # and Policy.match's memo of targeted effects: (type, kind, target) -> (rule, effect)
    _PLANS[id(policy)] = (policy, plan, plain, {})
    return plan


def _plain(policy: Policy) -> dict:
    """Per action type (and "*"): the (rule, effect) deciding an effect without a target (see :func:`_plan`)."""
    _plan(policy)
    return _PLANS[id(policy)][2]


# -- loading -----------------------------------------------------------------------------------------------
_CACHE: dict[tuple, Policy] = {}
_OPTIONS: dict[int, tuple] = {}


def load_policy_file(path: str | os.PathLike[str]) -> Policy:
    """Load and validate a policy file; ConfigError (all problems, one ``file:line: message`` per line)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read policy ({exc.strerror or exc})") from exc
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read policy ({exc.strerror or exc})") from exc
    policy = _from_bytes(data, str(path))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = policy
    return policy


def _from_bytes(data: bytes, display: str) -> Policy:
    if data == _starter_bytes():
        return Policy.from_dict(display, _starter_dict())
    digest = _sha256(data).hexdigest()
    cache = Path(display).resolve().parent / ".cuticle" / "policy-cache.json"
    try:  # the parsed form of this exact file, saved by an earlier process (no PyYAML import needed)
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("sha256") == digest:
            return Policy.from_dict(display, cached["policy"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{display}:1: policy is not UTF-8 ({exc.reason}); save it as UTF-8") from exc
    policy, errors = parse_policy(text, display)
    if errors:
        raise ConfigError("\n".join(errors))
    assert policy is not None
    if cache.parent.is_dir():
        try:
            from tiers.fsutil import atomic_write
            payload = {"sha256": digest, "policy": policy.to_dict()}
            atomic_write(cache, (json.dumps(payload, sort_keys=True) + "\n").encode("utf-8"))
        except OSError:
            pass  # a cache that cannot be written only costs the next process a YAML parse
    return policy


_STARTER: dict = {}


def _starter_bytes() -> bytes:
    if "bytes" not in _STARTER:
        _STARTER["bytes"] = STARTER_POLICY.read_bytes()
    return _STARTER["bytes"]


def _starter_dict() -> dict:
    """The parsed starter policy, from the precompiled JSON when it matches the YAML (no PyYAML import)."""
    if "dict" not in _STARTER:
        digest = _sha256(_starter_bytes()).hexdigest()
        d = None
        try:
            cached = json.loads(_STARTER_JSON.read_text(encoding="utf-8"))
            if cached.get("sha256") == digest:
                d = cached["policy"]
        except (OSError, ValueError, KeyError):
            d = None
        if d is None:
            policy, errors = parse_policy(_starter_bytes().decode("utf-8"), str(STARTER_POLICY))
            if errors or policy is None:  # pragma: no cover - the shipped starter is tested
                raise ConfigError("\n".join(errors))
            d = policy.to_dict()
        _STARTER["dict"] = d
    return _STARTER["dict"]


def starter_policy() -> Policy:
    if "policy" not in _STARTER:
        _STARTER["policy"] = Policy.from_dict("<starter>", _starter_dict(), status="starter")
    return _STARTER["policy"]


def dump_starter_json() -> str:
    """The precompiled form of ``starter.yaml`` (regenerate ``starter.json`` with it after editing the YAML)."""
    policy, errors = parse_policy(_starter_bytes().decode("utf-8"), str(STARTER_POLICY))
    if errors or policy is None:
        raise ConfigError("\n".join(errors))
    return json.dumps({"sha256": _sha256(_starter_bytes()).hexdigest(), "policy": policy.to_dict()},
                      indent=1, sort_keys=True) + "\n"


_CHITIN_AT: dict = {}  # id(workspace) -> (workspace, root, path string of its chitin.yaml); existence never cached


def policy_location(ws) -> Path | None:
    """The policy file of a workspace: ``[policy] path`` in ``.cuticle/config.toml``, else ``chitin.yaml`` at the
    root; None when there is none (the starter policy applies)."""
    if ws is None:
        return None
    if not ws.config.get("policy"):
        root = ws.root
        hit = _CHITIN_AT.get(id(ws))  # (workspace, its root, path): no Path hashing per call
        if hit is not None and hit[0] is ws and hit[1] is root:
            p = hit[2]
        else:
            if len(_CHITIN_AT) > 64:
                _CHITIN_AT.clear()
            p = os.path.join(str(root), "chitin.yaml")
            _CHITIN_AT[id(ws)] = (ws, root, p)
        # os.access first: a missing file costs no exception (os.path.isfile raises and catches one inside)
        return Path(p) if os.access(p, os.F_OK) and os.path.isfile(p) else None
    section = ws.section("policy")
    unknown = sorted(set(section) - {"path"})
    if unknown:
        raise ConfigError(f"{ws.config_path}: [policy] unknown key {unknown[0]!r}; allowed keys: path")
    configured = section.get("path")
    if configured is not None:
        if not isinstance(configured, str) or not configured:
            raise ConfigError(f"{ws.config_path}: [policy] path must be a non-empty string")
        p = Path(configured)
        p = p if p.is_absolute() else ws.root / p
        if not p.is_file():
            raise ConfigError(f"{ws.config_path}: [policy] path {configured} does not exist; create it with "
                              "cuticle init or fix the path")
        return p
    p = ws.root / "chitin.yaml"
    return p if p.is_file() else None


def load_policy(ws=None, policy_path=None) -> Policy:
    """The policy that applies: an explicit file, else the workspace's, else the starter policy.

    Raises ConfigError when the file is unreadable or invalid (``cuticle validate`` wants the errors); the hook
    path uses :func:`effective_policy`, which never raises."""
    if policy_path is not None:
        return load_policy_file(policy_path)
    loc = policy_location(ws)
    if loc is None:
        return starter_policy() if ws is None else missing_policy()
    return load_policy_file(loc)


_FAIL_SAFE: dict[str, Policy] = {}


def fail_safe_policy(error: str) -> Policy:
    """What applies while the policy file is invalid or unreadable: read-only actions are allowed, every other
    action is denied with the policy error in the reason, and every invariant runs in enforce mode with the
    built-in options (protected branches main/master, deletes under build/ dist/ out/ tmp/, any host).

    The invariants never depend on the file, so a typo in ``chitin.yaml`` can never turn them off; denying the
    rest is what "fail safe" means when the user's rules cannot be known."""
    first = error.strip().splitlines()[0] if error.strip() else "the policy could not be loaded"
    hit = _FAIL_SAFE.get(first)
    if hit is not None:
        return hit
    reason = (f"the policy is invalid ({first}); until it is fixed (`cuticle validate`, `cuticle doctor`) only "
              "read-only actions are allowed")
    # deny-first: the deny rule names every action type but read, so the read rule decides reads
    rules = (Rule("policy-error", tuple(t for t in TYPES if t != "read"), "deny", reason),
             Rule("policy-error-read", ("read",), "allow", "read-only actions stay allowed while the policy is "
                                                          f"invalid ({first})"))
    policy = Policy("<fail-safe>", "enforce", rules, {}, status="invalid", error=first)
    if len(_FAIL_SAFE) > 16:
        _FAIL_SAFE.clear()
    _FAIL_SAFE[first] = policy
    return policy


def missing_policy() -> Policy:
    """The starter policy, marked as standing in for a workspace policy file that does not exist."""
    if "missing" not in _STARTER:
        _STARTER["missing"] = Policy.from_dict("<starter>", _starter_dict(), status="missing")
    return _STARTER["missing"]


def effective_policy(ws=None, policy_path=None) -> Policy:
    """:func:`load_policy`, except that an unreadable or invalid workspace policy gives :func:`fail_safe_policy`
    (with the error) instead of raising: the hook must keep every invariant running whatever the file says. An
    explicit ``policy_path`` (``cuticle evaluate --policy FILE``) still raises ConfigError: the caller asked for
    that file and gets its errors."""
    if policy_path is not None:
        return load_policy_file(policy_path)
    try:
        return load_policy(ws, policy_path)
    except ConfigError as exc:
        return fail_safe_policy(str(exc))
    except OSError as exc:
        return fail_safe_policy(f"cannot read the policy ({exc.strerror or exc})")


def policy_status(ws) -> tuple[str, str]:
    """("ok" | "missing" | "invalid", one-line detail) for `cuticle doctor`."""
    try:
        loc = policy_location(ws)
    except ConfigError as exc:
        return "invalid", str(exc).splitlines()[0]
    if loc is None:
        return "missing", ("no chitin.yaml: the built-in starter policy applies; run `cuticle init` to write it "
                           "where you can read and change it")
    try:
        load_policy_file(loc)
    except ConfigError as exc:
        return "invalid", (f"{str(exc).splitlines()[0]} — until it is fixed every invariant still runs and only "
                           "read-only actions are allowed")
    try:
        shown = loc.resolve().relative_to(Path(ws.root).resolve()).as_posix()
    except ValueError:
        shown = str(loc)
    return "ok", f"{shown} is valid"


# -- validation ----------------------------------------------------------------------------------------------
def validate_policy_file(path: str | os.PathLike[str]) -> list[str]:
    """Every problem of a policy file as ``file:line: message`` (empty when valid)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        return [f"{path}:1: cannot read policy ({exc.strerror or exc})"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"{path}:1: policy is not UTF-8 ({exc.reason}); save it as UTF-8"]
    return parse_policy(text, str(path))[1]


def parse_policy(text: str, display: str) -> tuple[Policy | None, list[str]]:
    """Parse and validate policy YAML text; returns (policy or None, errors)."""
    import yaml

    errors: list[str] = []
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        # the context mark ("while scanning a simple key") points at the offending line; the problem mark often
        # points past it
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, [f"{display}:{line}: invalid YAML: {problem}; fix the syntax"]
    if node is None:
        return None, [f"{display}:1: the policy is empty; start from `cuticle init` or the starter policy"]
    v = _Validator(display, errors)
    top = v.mapping(node, "the policy", TOP_KEYS)
    if top is None:
        return None, errors
    mode = "enforce"
    if "mode" in top:
        mode = v.choice(top["mode"], "mode", MODES, hint="monitor warns without blocking")
    rules: list[Rule] = []
    seen_ids: dict[str, int] = {}
    if "rules" not in top:
        errors.append(f"{display}:{node.start_mark.line + 1}: the policy has no rules; add at least one rule "
                      "(e.g. `- action: \"*\"` / `effect: allow` at the end)")
    else:
        items = v.seq(top["rules"], "rules")
        for idx, rnode in enumerate(items or ()):
            rule = v.rule(rnode, idx)
            if rule is None:
                continue
            if rule.id in seen_ids:
                errors.append(f"{display}:{rule.line}: rules[{idx}]: duplicate id {rule.id!r} (first on line "
                              f"{seen_ids[rule.id]}); ids must be unique")
            seen_ids.setdefault(rule.id, rule.line)
            rules.append(rule)
    inv_modes: dict[str, str] = {}
    if "invariantModes" in top:
        m = v.mapping(top["invariantModes"], "invariantModes", None)
        for key, vnode in (m or {}).items():
            if key not in INVARIANTS and key not in seen_ids:
                known = ", ".join(sorted(INVARIANTS))
                errors.append(f"{display}:{vnode.start_mark.line + 1}: invariantModes: unknown invariant or rule id "
                              f"{key!r}; known invariants: {known}")
                continue
            val = v.choice(vnode, f"invariantModes.{key}", INVARIANT_MODES)
            if val:
                inv_modes[key] = val
    def lst(key, default, check_rel=False):
        if key not in top:
            return default
        items = v.strings(top[key], key, glob=True)
        if check_rel:
            for s, n in items:
                if s.startswith("/") or s.startswith("~") or ".." in s.split("/"):
                    errors.append(f"{display}:{n.start_mark.line + 1}: {key}: {s!r} must be a path inside the "
                                  "workspace (relative, no '..')")
        return tuple(s for s, _ in items)
    branches = lst("protectedBranches", ("main", "master"))
    deletes = lst("allowedDeletePaths", ("build", "dist", "out", "tmp"), check_rel=True)
    hosts = lst("allowedHosts", None)
    protected = lst("protectedPaths", ())
    for key in ("id", "name", "description"):
        if key in top:
            v.scalar(top[key], key)
    if errors:
        return None, sorted(errors, key=_line_of)
    return Policy(display, mode or "enforce", tuple(rules), inv_modes, branches, deletes, hosts, protected), []


class _Validator:
    def __init__(self, display: str, errors: list[str]) -> None:
        self.display = display
        self.errors = errors

    def err(self, node, msg: str) -> None:
        self.errors.append(f"{self.display}:{node.start_mark.line + 1}: {msg}")

    def mapping(self, node, where: str, allowed):
        import yaml
        if not isinstance(node, yaml.MappingNode):
            self.err(node, f"{where} must be a mapping (key: value lines)")
            return None
        out: dict = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                self.err(knode, f"{where}: keys must be plain strings")
                continue
            key = knode.value
            if key in out:
                self.err(knode, f"{where}: duplicate key {key!r}; keep one")
                continue
            if allowed is not None and key not in allowed:
                close = _closest(key, allowed)
                hint = f" (did you mean {close!r}?)" if close else ""
                self.err(knode, f"{where}: unknown key {key!r}{hint}; allowed keys: {', '.join(sorted(allowed))}")
                continue
            out[key] = vnode
        return out

    def scalar(self, node, where: str) -> str | None:
        import yaml
        if not isinstance(node, yaml.ScalarNode):
            self.err(node, f"{where} must be a single value")
            return None
        return node.value

    def choice(self, node, where: str, options, hint: str = "") -> str | None:
        val = self.scalar(node, where)
        if val is None:
            return None
        if val not in options:
            extra = f" ({hint})" if hint else ""
            self.err(node, f"{where}: {val!r} is not one of {', '.join(options)}{extra}")
            return None
        return val

    def seq(self, node, where: str):
        import yaml
        if not isinstance(node, yaml.SequenceNode):
            self.err(node, f"{where} must be a list")
            return None
        if not node.value:
            self.err(node, f"{where} is an empty list; remove the key or add entries")
            return None
        return node.value

    def strings(self, node, where: str, *, glob: bool = False) -> list[tuple[str, object]]:
        import yaml
        if isinstance(node, yaml.ScalarNode):
            items = [node]
        else:
            items = self.seq(node, where) or []
        out = []
        for item in items:
            val = self.scalar(item, where)
            if val is None:
                continue
            if not val.strip():
                self.err(item, f"{where}: empty entry (it would match everything); remove it")
                continue
            if glob:
                problem = glob_error(val)
                if problem:
                    self.err(item, f"{where}: bad glob {val!r}: {problem}")
                    continue
            out.append((val, item))
        return out

    def rule(self, node, idx: int) -> Rule | None:
        where = f"rules[{idx}]"
        m = self.mapping(node, where, RULE_KEYS)
        if m is None:
            return None
        line = node.start_mark.line + 1
        before = len(self.errors)
        actions: list[str] = []
        if "action" not in m:
            self.err(node, f"{where}: missing 'action' (one of {', '.join(ACTIONS)})")
        else:
            for val, item in self.strings(m["action"], f"{where}.action"):
                if val not in ACTIONS:
                    close = _closest(val, ACTIONS)
                    hint = f" (did you mean {close!r}?)" if close else ""
                    self.err(item, f"{where}.action: unknown action {val!r}{hint}; actions are "
                                   f"{', '.join(ACTIONS)}")
                else:
                    actions.append(val)
        effect = None
        if "effect" not in m:
            self.err(node, f"{where}: missing 'effect' (allow or deny)")
        else:
            effect = self.choice(m["effect"], f"{where}.effect", ("allow", "deny"),
                                 hint="use invariantModes for monitor")
        reason = self.scalar(m["reason"], f"{where}.reason") if "reason" in m else ""
        suggestion = self.scalar(m["suggestion"], f"{where}.suggestion") if "suggestion" in m else ""
        rid = self.scalar(m["id"], f"{where}.id") if "id" in m else None
        targets = tuple(s for s, _ in self.strings(m["target"], f"{where}.target", glob=True)) if "target" in m else ()
        branches = tuple(s for s, _ in self.strings(m["branches"], f"{where}.branches", glob=True)) \
            if "branches" in m else ()
        if len(self.errors) > before or effect is None:
            return None
        return Rule(rid or f"rule-{idx + 1}", tuple(actions), effect, reason or "", targets, branches,
                    suggestion or "", line)


def _line_of(msg: str) -> int:
    head = msg.split(": ", 1)[0]
    tail = head.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def glob_error(g: str) -> str | None:
    """Why a target glob is malformed, or None."""
    body = g[1:] if g.startswith("!") else g
    if not body:
        return "an exclusion needs a pattern after '!'"
    if any(c in body for c in "\x00\n\r"):
        return "control characters are not allowed"
    depth = 0
    for c in body:
        if c == "[":
            depth += 1
        elif c == "]":
            if depth == 0:
                return "unbalanced ']'"
            depth -= 1
    if depth:
        return "unclosed '['; escape it or close the bracket"
    if body.count("{") != body.count("}"):
        return "unbalanced braces"
    for part in body.split("/"):
        if "**" in part and part != "**":
            return "'**' must be a whole path segment (e.g. 'a/**/b')"
    if "***" in body:
        return "'***' is not a glob"
    return None


def _closest(word: str, options) -> str | None:
    import difflib
    hits = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return hits[0] if hits else None
