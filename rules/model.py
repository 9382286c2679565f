"""The values of the rules layer: lint rules and what they produce (rules, problems, findings, fixes), and the
tool-call side (a normalized tool call and a plugin's verdict on it).

Every module of the layer imports its types from here, so none imports the engine back; ``rules.engine``
re-exports the lint values for plugins (``from rules.engine import Problem, Rule, Severity``).
"""

from __future__ import annotations

import enum
import functools
import re
import sys
import types
from collections.abc import Callable, Iterable, Mapping

from tiers.errors import ConfigError
from tiers.record import dataclass, field

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

    from .engine import FileContext, RunContext


class Decision(enum.Enum):
    ALLOW = "allow"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call from any host, normalized by the gate before any rule sees it.

    ``tool`` is the host's own tool name (``Bash``, ``run_shell_command``, ``exec``, ``Write``…); ``kind`` is the
    gate's normalization: ``shell``, ``write``, ``edit``, ``read``, ``patch``, ``fetch``, ``mcp`` or ``other``.
    ``command`` is set for shell calls, ``paths`` for file calls (workspace-relative where possible).
    """

    tool: str
    kind: str
    command: str | None = None
    paths: tuple[str, ...] = ()
    host: str = ""
    cwd: str = ""
    arguments: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One plugin's vote on a tool call. ``None`` from a hook means the plugin abstains."""

    decision: Decision
    rule: str
    reason: str
    action: str = ""
    #: "invariant" verdicts cannot be overridden by policy allows; "policy" verdicts come from the policy file.
    scope: str = "policy"
    #: "enforce", "monitor" (log, do not block) or "off".
    mode: str = "enforce"


# ----------------------------------------------------------------------------------------------------------
# Lint rules and their results

_CODE_RE = r"^[A-Z]{2,4}[0-9]{3}$"
_NAME_RE = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"


class Severity(enum.Enum):
    """How bad a finding is. Only ``error`` findings make ``cuticle lint`` exit 1 and the gate block."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {Severity.ERROR: 2, Severity.WARNING: 1, Severity.INFO: 0}[self]

    @classmethod
    def parse(cls, value: Any) -> Severity:
        if isinstance(value, Severity):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise ValueError(f"unknown severity {value!r}; expected error, warning or info") from None


class Applicability(enum.Enum):
    """Whether a fix may be applied by ``--fix`` (safe) or only with ``--unsafe-fixes``."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace one line's text (without its end-of-line), or delete the line when ``text`` is None.

    ``expect`` is the line's text when the fix was computed: a fix whose lines changed since is skipped, so a
    fix never touches a line it does not own. ``archive`` sends a deleted line to the GC archive first.
    """

    line: int
    text: str | None
    expect: str
    archive: bool = False

    def to_json(self, mask: Callable[[str], str] = lambda s: s) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "delete": self.text is None}
        if self.text is not None:
            out["text"] = mask(self.text)
        if self.archive:
            out["archive"] = True
        return out


@dataclass(frozen=True, slots=True)
class Fix:
    """A fix as data: a description, its applicability, and the line edits it makes in one file."""

    description: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE

    @property
    def lines(self) -> frozenset[int]:
        return frozenset(e.line for e in self.edits)

    def to_json(self, mask: Callable[[str], str] = lambda s: s) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "description": mask(self.description),
            "edits": [e.to_json(mask) for e in self.edits],
        }


@dataclass(frozen=True, slots=True)
class Problem:
    """What a rule's ``check()`` yields: a message at a 1-based line and column, maybe with a fix.

    ``severity`` overrides the rule's default for this one problem (e.g. "near the limit" vs "over it");
    a severity set in the configuration wins over both. ``path`` is set only by workspace-wide rules that
    report on a file other than the one being checked.
    """

    message: str
    line: int = 1
    column: int = 1
    fix: Fix | None = None
    severity: Severity | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One reported problem, as every output format and the gate see it."""

    code: str
    name: str
    severity: Severity
    path: str
    line: int
    column: int
    message: str
    fix: Fix | None = None
    fingerprint: str = ""

    def to_json(self) -> dict[str, Any]:
        from tiers.secrets import mask_secrets

        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "fingerprint": self.fingerprint,
        }
        if self.fix is not None:
            out["fix"] = self.fix.to_json(mask_secrets)
        return out

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)


@dataclass(frozen=True, slots=True)
class Rule:
    """A lint rule: identity, defaults, documentation, and the pure ``check(ctx)`` generator.

    ``docs`` is Markdown (What it does / Why is this bad / Example / Fix safety), usually the rule module's
    docstring. ``fix`` says which fixes the rule can offer (None: none). ``security`` marks the rules the gate
    runs on every memory write (:func:`scan_new_lines`).
    """

    code: str
    name: str
    summary: str
    severity: Severity
    check: Callable[[FileContext], Iterable[Problem]]
    docs: str = ""
    options: Mapping[str, Any] = field(default_factory=lambda: types.MappingProxyType({}))
    fix: Applicability | None = None
    security: bool = False
    plugin: str = ""
    #: Workspace-relative globs of the files this rule lints *instead of* memory files (e.g. ``INSIGHTS.md``);
    #: empty for memory rules. A file matched here is linted by these rules only.
    files: tuple[str, ...] = ()
    #: Optional ``prepare(run)``: builds workspace-wide state in ``run.cache`` that ``check`` would otherwise
    #: build on its first file. A parallel lint calls it once before forking, so processes share the result.
    prepare: Callable[[RunContext], None] | None = None
    #: What the rule's findings on a file depend on beyond the file's bytes, path and the rule's options, for the
    #: lint result cache (:mod:`rules.cache`): a function of the run returning a digest of the workspace state
    #: the rule reads (``rules.cache.file_only`` when there is none). None: never cached (the default, so a
    #: plugin's rule is cached only when it says what it reads).
    inputs: Callable[[RunContext], str] | None = None

    def __post_init__(self) -> None:
        if not re.match(_CODE_RE, self.code):
            raise ValueError(f"rule code {self.code!r} must look like CU101 (letters then three digits)")
        if not re.match(_NAME_RE, self.name):
            raise ValueError(f"rule name {self.name!r} must be kebab-case")
        if not isinstance(self.options, types.MappingProxyType):
            object.__setattr__(self, "options", types.MappingProxyType(dict(self.options)))

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "summary": self.summary,
            "severity": self.severity.value,
            "fix": self.fix.value if self.fix else None,
            "security": self.security,
            "options": dict(self.options),
            "plugin": self.plugin,
        }


def rule(
    code: str,
    name: str,
    summary: str,
    severity: Severity,
    *,
    options: Mapping[str, Any] | None = None,
    fix: Applicability | None = None,
    security: bool = False,
    files: tuple[str, ...] = (),
    prepare: Callable[[RunContext], None] | None = None,
    inputs: Callable[[RunContext], str] | None = None,
) -> Callable[[Callable[[FileContext], Iterable[Problem]]], Callable[[FileContext], Iterable[Problem]]]:
    """Decorator declaring a module's rule: sets the module's ``RULE`` record (docs = module docstring) and
    returns ``check`` unchanged, so rule modules stay plain functions that tests can call."""

    def wrap(check: Callable[[FileContext], Iterable[Problem]]) -> Callable[[FileContext], Iterable[Problem]]:
        module = sys.modules.get(check.__module__)
        docs = (module.__doc__ or "").strip() if module else ""
        record = Rule(
            code=code,
            name=name,
            summary=summary,
            severity=severity,
            check=check,
            docs=docs,
            options=options or {},
            fix=fix,
            security=security,
            files=tuple(files),
            prepare=prepare,
            inputs=inputs,
        )
        if module is not None:
            module.RULE = record  # type: ignore[attr-defined]
        check.rule = record  # type: ignore[attr-defined]
        return check

    return wrap


# ----------------------------------------------------------------------------------------------------------
# Engine-made findings: documented like rules so `cuticle rule CU000` explains them.

INTERNAL_DOCS = {
    "CU000": (
        "rule-crashed",
        "A rule raised an exception",
        "## What it does\nReports a rule that crashed on a file instead of letting the crash stop the run.\n\n"
        "## Why is this bad\nA crashed rule checked nothing; the file may hold problems it would have found.\n\n"
        "## Example\n`MEMORY.md:1:1: CU000 rule CU201 crashed: KeyError: 'x'`\n\n"
        "## Fix safety\nNo fix. Report the bug; `--ignore` the rule meanwhile.",
    ),
    "CU001": (
        "plugin-error",
        "A plugin could not be loaded or returned invalid rules",
        "## What it does\nReports a `cuticle` entry-point plugin that failed to import, crashed while registering "
        "rules, or returned something that is not a rule.\n\n## Why is this bad\nIts rules did not run.\n\n"
        "## Example\n`<plugin:acme>:1:1: CU001 plugin 'acme' failed to load: ModuleNotFoundError`\n\n"
        "## Fix safety\nNo fix. Reinstall or remove the plugin.",
    ),
    "CU002": (
        "unreadable-file",
        "A file could not be read as a memory file",
        "## What it does\nReports a path that is missing, binary, too large or outside the workspace.\n\n"
        "## Why is this bad\nNothing in it was checked.\n\n## Example\n"
        "`memory/big.md:1:1: CU002 4194305 bytes is over the limit`\n\n## Fix safety\nNo fix.",
    ),
}


def _internal_rule(code: str) -> Rule:
    name, summary, docs = INTERNAL_DOCS[code]
    return Rule(code=code, name=name, summary=summary, severity=Severity.ERROR, check=lambda ctx: (), docs=docs,
                plugin="cuticle")


INTERNAL_RULES: tuple[Rule, ...] = tuple(_internal_rule(c) for c in sorted(INTERNAL_DOCS))


def resolve_selector(selector: str, rules: Mapping[str, Rule], by_name: Mapping[str, str] | None = None,
                     *, source: str = "") -> set[str]:
    """The codes a selector names: an exact code, a code prefix (``CU3``), a rule name, or ``ALL``."""
    by_name = by_name if by_name is not None else {r.name: r.code for r in rules.values()}
    s = selector.strip()
    if s.upper() == "ALL":
        return set(rules)
    if s.upper() in rules:
        return {s.upper()}
    if s.lower() in by_name:
        return {by_name[s.lower()]}
    if re.fullmatch(r"[A-Za-z]{2,4}[0-9]{0,2}", s):
        hits = {c for c in rules if c.startswith(s.upper())}
        if hits:
            return hits
    where = f"{source}: " if source else ""
    raise ConfigError(f"{where}unknown rule {selector!r}; run `cuticle rules` for the list")


def fingerprint(code: str, path: str, line_text: str, occurrence: int = 0) -> str:
    """Stable across line moves: code, path and the normalized content of the line (stamp removed)."""
    from .document import normalized_content

    return _fingerprint(code, path, normalized_content(line_text), occurrence)


def _fingerprint(code: str, path: str, normalized: str, occurrence: int) -> str:
    # sha256 of code, path, the line and the occurrence: the line's part is hashed once per line, so a line with
    # thousands of findings (one per hidden character) costs linear time, not one pass over the line per finding
    digest = _line_digest(code, path, normalized).copy()
    digest.update(f"\x00{occurrence}".encode("ascii"))
    return digest.hexdigest()[:32]


@functools.lru_cache(maxsize=256)
def _line_digest(code: str, path: str, normalized: str):
    import hashlib

    return hashlib.sha256(f"{code}\x00{path}\x00{normalized}".encode("utf-8"))


def _bare(message: str, path: str) -> str:
    """``message`` without a leading ``path:``, ``path:line:`` or ``path:line:col:``: rules write messages that
    read on their own, and every output prints a finding's location once, from its fields."""
    prefix = f"{path}:"
    if not message.startswith(prefix):
        return message
    rest = message[len(prefix):]
    for _ in range(2):  # line, then column
        head, sep, tail = rest.partition(":")
        if not (sep and head.isdigit()):
            break
        rest = tail
    return rest.lstrip() or message


def _finding(rule: Rule, problem: Problem, path: str, severity: Severity, doc: Any,
             seen: dict[tuple[str, str, str], int], normalized: Callable[[str], str] | None = None) -> Finding:
    """``normalized`` is :func:`rules.document.normalized_content` or a memo of it (FileContext.normalized)."""
    from tiers.secrets import mask_secrets

    line_text = ""
    if doc is not None and 1 <= problem.line <= len(doc.lines):
        line_text = doc.lines[problem.line - 1].text
    key = (rule.code, problem.path or path, line_text)
    occurrence = seen.get(key, 0)
    seen[key] = occurrence + 1
    if normalized is None:
        from .document import normalized_content as normalized
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=severity,
        path=problem.path or path,
        line=max(1, problem.line),
        column=max(1, problem.column),
        message=mask_secrets(_bare(problem.message, problem.path or path)),
        fix=problem.fix,
        fingerprint=_fingerprint(rule.code, problem.path or path, normalized(line_text), occurrence),
    )
