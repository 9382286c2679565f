"""The rule engine: rule records, configuration from `[lint]`, running rules on files, findings, and fixes.

A rule is a frozen :class:`Rule` record whose ``check(ctx)`` is a pure generator of :class:`Problem` values.
The engine turns problems into :class:`Finding` values (adding code, name, severity, path and a stable
fingerprint), isolates a crashing rule (it becomes a ``CU000`` finding), applies suppressions, and applies
fixes (:class:`Fix`, lists of line :class:`Edit` values) through one function, :func:`apply_fixes`.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from tiers.errors import ConfigError, UsageError, WorkspaceError
from tiers.record import dataclass, field, replace

from .model import (INTERNAL_DOCS, INTERNAL_RULES, Applicability, Edit, Finding, Fix, Problem, Rule, Severity,
                    _bare, _finding, fingerprint, resolve_selector, rule)

# The lint values live in rules.model (so no helper of the engine imports the engine back); they are re-exported
# here because plugins write ``from rules.engine import Problem, Rule, Severity`` (docs/plugins.md).
__all__ = ["INTERNAL_DOCS", "INTERNAL_RULES", "PARALLEL_MIN_BYTES", "Applicability", "Edit", "FileContext", "Finding",
           "Fix", "FixReport", "LintConfig", "LintResult", "Problem", "Rule", "RunContext", "Severity", "apply_fixes",
           "find_rule", "fingerprint", "iter_rules", "lint_and_fix", "lint_paths", "load_config", "resolve_selector",
           "rule", "run_rules", "scan_new_lines", "select_fixes"]

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


class _Log:
    """``logging.getLogger(__name__)`` on first use: the gate's scan should not import logging to log nothing."""

    def __getattr__(self, name: str) -> Any:
        import logging

        return getattr(logging.getLogger(__name__), name)


log = _Log()


# ----------------------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True, slots=True)
class LintConfig:
    """The validated `[lint]` table: which rules run, at which severity, with which options.

    ``select``/``ignore`` hold rule codes, code prefixes (``CU3``) or names; ``severity`` and ``options`` are
    keyed by code or name in the file and by code here.
    """

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    source: str = "[lint]"

    KEYS = ("select", "ignore", "extend-select", "severity", "options")

    @classmethod
    def from_table(cls, table: Mapping[str, Any] | None, rules: Mapping[str, Rule], source: str = "[lint]"
                   ) -> LintConfig:
        """Validate a `[lint]` table against the registered rules; unknown keys, codes or options are errors."""
        table = dict(table or {})
        unknown = sorted(set(table) - set(cls.KEYS))
        if unknown:
            raise ConfigError(f"{source}: unknown key(s) {', '.join(unknown)}; expected one of {', '.join(cls.KEYS)}")
        by_name = {r.name: r.code for r in rules.values()}

        def selectors(key: str) -> tuple[str, ...]:
            value = table.get(key, [])
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{source}: {key} must be a list of rule codes or names")
            for v in value:
                resolve_selector(v, rules, by_name, source=f"{source} {key}")
            return tuple(value)

        select = selectors("select") + selectors("extend-select")
        ignore = selectors("ignore")
        severity: dict[str, Severity] = {}
        sev_table = table.get("severity", {})
        if not isinstance(sev_table, Mapping):
            raise ConfigError(f"{source}: severity must be a table of rule = \"error|warning|info\"")
        for key, value in sev_table.items():
            code = _one_rule(key, rules, by_name, f"{source} severity")
            try:
                severity[code] = Severity.parse(value)
            except ValueError as exc:
                raise ConfigError(f"{source} severity.{key}: {exc}") from None
        options: dict[str, dict[str, Any]] = {}
        opt_table = table.get("options", {})
        if not isinstance(opt_table, Mapping):
            raise ConfigError(f"{source}: options must be a table of tables, one per rule")
        for key, value in opt_table.items():
            code = _one_rule(key, rules, by_name, f"{source} options")
            if not isinstance(value, Mapping):
                raise ConfigError(f"{source} options.{key}: must be a table")
            known = rules[code].options
            for opt, val in value.items():
                if opt not in known:
                    hint = ", ".join(sorted(known)) or "none"
                    raise ConfigError(f"{source} options.{key}: unknown option {opt!r} (known: {hint})")
                default = known[opt]
                if default is not None and not _same_type(default, val):
                    raise ConfigError(f"{source} options.{key}.{opt}: expected {type(default).__name__}, "
                                      f"got {type(val).__name__}")
            options[code] = dict(value)
        return cls(select=select, ignore=ignore, severity=severity, options=options, source=source)

    def merged(self, *, select: Iterable[str] = (), ignore: Iterable[str] = (), rules: Mapping[str, Rule]
               ) -> LintConfig:
        """This config with command-line ``--select``/``--ignore`` applied (select replaces, ignore adds)."""
        by_name = {r.name: r.code for r in rules.values()}
        select = tuple(s for s in select if s)
        ignore = tuple(s for s in ignore if s)
        for s in (*select, *ignore):
            try:
                resolve_selector(s, rules, by_name, source="command line")
            except ConfigError as exc:
                raise UsageError(str(exc)) from None
        return replace(self, select=select or self.select, ignore=self.ignore + ignore)

    def enabled(self, rules: Mapping[str, Rule]) -> list[Rule]:
        by_name = {r.name: r.code for r in rules.values()}
        chosen: set[str] = set()
        if self.select:
            for s in self.select:
                chosen |= resolve_selector(s, rules, by_name)
        else:
            chosen = set(rules)
        for s in self.ignore:
            chosen -= resolve_selector(s, rules, by_name)
        return [rules[c] for c in sorted(chosen)]

    def severity_of(self, rule: Rule, problem: Problem | None = None) -> Severity:
        if rule.code in self.severity:
            return self.severity[rule.code]
        if problem is not None and problem.severity is not None:
            return problem.severity
        return rule.severity

    def options_of(self, rule: Rule) -> dict[str, Any]:
        return {**rule.options, **self.options.get(rule.code, {})}


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(default))


def _one_rule(key: str, rules: Mapping[str, Rule], by_name: Mapping[str, str], source: str) -> str:
    if key.upper() in rules:
        return key.upper()
    if key.lower() in by_name:
        return by_name[key.lower()]
    raise ConfigError(f"{source}: unknown rule {key!r}; run `cuticle rules` for the list")


# ----------------------------------------------------------------------------------------------------------
# Contexts handed to rules


class RunContext:
    """State shared by all files of one lint run: the workspace, a cache for workspace-wide indexes."""

    def __init__(self, ws: Any, config: LintConfig) -> None:
        self.ws = ws
        self.config = config
        self.cache: dict[str, Any] = {}
        #: In a parallel lint, ``map(fn, items)`` computes ``[fn(item) ...]`` in that many processes (results are
        #: pickled back): a rule's ``prepare`` may use it to split its own workspace-wide work. None otherwise.
        self.map: Callable[[Callable[[Any], Any], list[Any]], list[Any]] | None = None
        #: How many processes a parallel lint runs (1: this one only).
        self.jobs = 1
        #: The lint result cache (:mod:`rules.cache`) of this run, None when results are not cached.
        self.results: Any = None
        self._docs: dict[str, Any] = {}

    def document(self, rel_path: str) -> Any | None:
        """The parsed Document of another workspace file (None when unreadable), cached for the run."""
        if rel_path not in self._docs:
            from .document import parse

            try:
                from tiers.fsutil import read_bytes_checked

                self._docs[rel_path] = parse(read_bytes_checked(self.ws.root / rel_path))
            except (WorkspaceError, OSError):
                self._docs[rel_path] = None
        return self._docs[rel_path]

    def remember(self, rel_path: str, doc: Any) -> None:
        self._docs[rel_path] = doc


@dataclass
class FileContext:
    """What a rule's ``check()`` gets: one file (path, bytes, parsed Document) plus options and the run."""

    path: str
    data: bytes
    doc: Any
    options: dict[str, Any]
    run: RunContext
    #: "lint" for files on disk, "gate" for lines about to be written (scan_new_lines).
    mode: str = "lint"

    @property
    def ws(self) -> Any:
        return self.run.ws

    @property
    def lines(self) -> list[Any]:
        return self.doc.lines

    @functools.cached_property
    def memory_lines(self) -> list[Any]:
        """The file's memory lines (paragraph and list-item content), computed once for all rules."""
        return self._memory[0]

    @functools.cached_property
    def memory_bodies(self) -> list[str]:
        """``line.body`` of each of :attr:`memory_lines` (same order), computed once for all rules."""
        return self._memory[1]

    @functools.cached_property
    def _memory(self) -> tuple[list[Any], list[str]]:
        # Line.is_memory is ``kind == "memory" and bool(body)``: the body is computed once here and kept
        lines: list[Any] = []
        bodies: list[str] = []
        for line in self.doc.lines:
            if line.kind == "memory":
                body = line.body
                if body:
                    lines.append(line)
                    bodies.append(body)
        return lines, bodies

    @functools.cached_property
    def memory_keys(self) -> list[str]:
        """:func:`rules.document.normalized_content` of each of :attr:`memory_lines` (same order), once per file."""
        from .document import normalized_bodies

        keys = normalized_bodies([line.text for line in self.memory_lines], self.memory_bodies)
        self._keys = dict(zip((line.text for line in self.memory_lines), keys))
        return keys

    def normalized(self, text: str) -> str:
        """:func:`rules.document.normalized_content` of one of this file's line texts (reusing :attr:`memory_keys`)."""
        keys = self.__dict__.get("_keys")
        if keys is not None:
            key = keys.get(text)
            if key is not None:
                return key
        from .document import normalized_content

        return normalized_content(text)

    @functools.cached_property
    def memory_numbers(self) -> frozenset[int]:
        return frozenset(line.number for line in self.memory_lines)

    @functools.cached_property
    def stamp_lines(self) -> list[Any]:
        """The lines that may carry a stamp or a malformed one: only a line holding ``<!--`` can (see
        :func:`tiers.stamps.split_stamp`), so the stamp rules skip the others without parsing them."""
        return [line for line in self.doc.lines if "<!--" in line.text]

    @functools.cached_property
    def unicode_lines(self) -> list[Any]:
        """The lines :func:`rules.unicode.scan` may report on: every other line is printable ASCII."""
        return [line for line in self.doc.lines if not (line.text.isascii() and line.text.isprintable())]

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


# ----------------------------------------------------------------------------------------------------------
# Running rules


@dataclass(frozen=True, slots=True)
class LintResult:
    """Findings of a run (sorted), the files linted, and the rules that ran."""

    findings: tuple[Finding, ...]
    files: tuple[str, ...]
    rules: tuple[Rule, ...]
    fixed: int = 0
    #: with --fix: the files left as they were, and why (a fix asked for and not made is a result to act on)
    not_fixed: tuple[NotFixed, ...] = ()

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)

    @property
    def exit_code(self) -> int:
        return 1 if self.errors or self.not_fixed else 0

    def summary(self) -> dict[str, int]:
        return {
            "files": len(self.files),
            "findings": len(self.findings),
            "errors": self.errors,
            "warnings": self.warnings,
            "info": len(self.findings) - self.errors - self.warnings,
            "fixed": self.fixed,
        }

    def to_json(self) -> dict[str, Any]:
        out = {"version": 1, "summary": self.summary(), "findings": [f.to_json() for f in self.findings]}
        if self.not_fixed:
            out["not_fixed"] = [n.to_json() for n in self.not_fixed]
        return out


def run_rules(ctx: FileContext, rules: Iterable[Rule], config: LintConfig) -> list[Finding]:
    """Run rules on one file. A crashing rule becomes a CU000 finding; the others still run."""
    out: list[Finding] = []
    seen: dict[tuple[str, str, str], int] = {}
    crash = INTERNAL_RULES[0]
    for r in rules:
        ctx.options = config.options_of(r)
        try:
            problems = list(r.check(ctx))
        except Exception as exc:  # noqa: BLE001 - isolate the rule, report it, keep going
            log.exception("rule %s crashed on %s", r.code, ctx.path)
            out.append(_finding(crash, Problem(
                f"{ctx.path}: rule {r.code} ({r.name}) crashed: {type(exc).__name__}: {exc}; "
                f"its checks did not run (ignore it with --ignore {r.code} and report the bug)"),
                ctx.path, Severity.ERROR, ctx.doc, seen))
            continue
        for p in problems:
            out.append(_finding(r, p, ctx.path, config.severity_of(r, p), ctx.doc, seen, ctx.normalized))
    return out


def load_config(ws: Any, rules: Mapping[str, Rule], config: Any = None) -> LintConfig:
    """The LintConfig for a run: ``config`` given as a LintConfig or a `[lint]`-shaped dict, else the workspace's."""
    if isinstance(config, LintConfig):
        return config
    if config is not None:
        return LintConfig.from_table(config, rules, source="[lint]")
    source = f"{ws.config_path.relative_to(ws.root).as_posix()} [lint]" if ws is not None else "[lint]"
    return LintConfig.from_table(ws.section("lint") if ws is not None else {}, rules, source=source)


def _expand_paths(ws: Any, paths: Iterable[str | os.PathLike[str]] | None) -> tuple[list[str], list[Finding]]:
    if paths is None:
        return [ws.relpath(p) for p in ws.memory_files()], []
    rels: list[str] = []
    bad: list[Finding] = []
    unreadable = INTERNAL_RULES[2]
    for raw in paths:
        p = Path(raw)
        if not p.is_absolute():
            p = Path.cwd() / p
        try:
            rel = ws.relpath(p)
        except WorkspaceError as exc:
            bad.append(Finding(unreadable.code, unreadable.name, Severity.ERROR, str(raw), 1, 1,
                               f"{_bare(str(exc), str(p))}; lint files inside the workspace or pass --workspace"))
            continue
        if p.is_dir():
            prefix = "" if rel in ("", ".") else rel + "/"
            rels.extend(r for r in (ws.relpath(m) for m in ws.memory_files()) if r.startswith(prefix))
        elif not p.exists():
            bad.append(Finding(unreadable.code, unreadable.name, Severity.ERROR, rel, 1, 1, "no such file"))
        else:
            rels.append(rel)
    return sorted(dict.fromkeys(rels)), bad


def _scoped_files(ws: Any, scoped: list[Rule]) -> set[str]:
    """Existing files claimed by rules with their own ``files`` globs (e.g. the insights file)."""
    from tiers.workspace import glob_match

    out: set[str] = set()
    for r in scoped:
        for glob in r.files:
            for p in ws.root.glob(glob):
                if not p.is_file():
                    continue
                try:
                    rel = ws.relpath(p)
                except WorkspaceError:
                    continue
                if glob_match(rel, r.files):
                    out.add(rel)
    return out


def _rules_for(rel: str, enabled: list[Rule], scoped: list[Rule]) -> list[Rule]:
    """A file claimed by scoped rules is linted by those only; every other file by the memory rules."""
    if scoped:
        from tiers.workspace import glob_match

        own = [r for r in scoped if glob_match(rel, r.files)]
        if own:
            return own
    return [r for r in enabled if not r.files]


def lint_paths(ws: Any, paths: Iterable[str | os.PathLike[str]] | None = None, *, config: Any = None,
               select: Iterable[str] = (), ignore: Iterable[str] = (),
               only_lines: Mapping[str, set[int]] | None = None, jobs: int | None = 1,
               cache: bool = True) -> LintResult:
    """Lint memory files of a workspace (all of them when ``paths`` is None).

    ``config`` overrides the workspace's `[lint]` table; ``select``/``ignore`` come from the command line.
    ``only_lines`` (diff mode) keeps, per path, only findings on those lines. ``jobs`` is the number of
    processes to lint files in (None or 0: one per CPU, when the files are large enough to be worth it); the
    findings are the same whatever it is. Raises ConfigError for an invalid configuration; every problem with
    the files themselves is a finding.
    ``cache``: reuse and keep results in the workspace's lint result cache (:mod:`rules.cache`; only
    where ``.cuticle/`` exists), same findings either way.
    """
    from .plugins import load_registry

    registry = load_registry()
    rules = registry.rules
    cfg = load_config(ws, rules, config)
    if select or ignore:
        cfg = cfg.merged(select=select, ignore=ignore, rules=rules)
    enabled = cfg.enabled(rules)
    files, findings = _expand_paths(ws, paths)
    scoped = [r for r in enabled if r.files]
    if paths is None and scoped:
        files = sorted(set(files) | _scoped_files(ws, scoped))
    if only_lines is not None:
        files = [f for f in files if f in only_lines]
    findings.extend(registry.failure_findings())
    run = RunContext(ws, cfg)
    if cache and any(r.inputs is not None for r in enabled):
        from .cache import LintCache

        run.results = LintCache.open(ws)
    plan = [(rel, _rules_for(rel, enabled, scoped)) for rel in files]
    shares = _shares(ws, plan, jobs, run.results)
    with _collector_paused():
        if len(shares) > 1:
            from . import parallel

            done = parallel.lint_shares(shares, run, lambda share: _lint_files(share, run, rules, cfg, only_lines))
        else:
            done = [_lint_files(plan, run, rules, cfg, only_lines)]
    for found, recorded in done:
        findings.extend(found)
        if run.results is not None:
            run.results.merge(recorded)
    if run.results is not None:
        run.results.save()
    findings.sort(key=Finding.sort_key)
    return LintResult(findings=tuple(findings), files=tuple(files), rules=tuple(enabled))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while files are linted, back as it was afterwards.

    A lint keeps tens of thousands of parsed lines, classifications and analyses alive for the whole run, and
    makes almost no reference cycles: with the collector on, each full collection walks all of them again, ~20%
    of a 10,000-line lint's CPU time (benchmarks/lint_speed.py), for nothing to free (peak memory is the same
    with it off). Forked lint processes inherit the setting."""
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _lint_files(plan: list[tuple[str, list[Rule]]], run: RunContext, rules: Mapping[str, Rule], cfg: LintConfig,
                only_lines: Mapping[str, set[int]] | None) -> tuple[list[Finding], dict[str, Any]]:
    """Findings of each (file, its rules) of ``plan``, suppressions applied, and the lint result cache entries
    recorded meanwhile (a forked process hands them back with its findings)."""
    from tiers.fsutil import read_bytes_checked

    from .document import parse
    from .suppress import apply_suppressions

    findings: list[Finding] = []
    unreadable = INTERNAL_RULES[2]
    for rel, own in plan:
        try:
            data = read_bytes_checked(run.ws.root / rel)
        except WorkspaceError as exc:
            findings.append(Finding(unreadable.code, unreadable.name, Severity.ERROR, rel, 1, 1,
                                    _bare(str(exc), str(run.ws.root / rel))))
            continue
        doc = parse(data)
        if doc.encoding != "utf-8":  # e.g. a Latin-1 file of an old editor: its text is not what hosts will read
            findings.append(Finding(unreadable.code, unreadable.name, Severity.ERROR, rel, *_bad_byte(data),
                                    "not valid UTF-8 text, so no rule checked it; save it as UTF-8 "
                                    "(e.g. `iconv -f latin1 -t utf-8`)"))
            continue
        run.remember(rel, doc)
        ctx = FileContext(path=rel, data=data, doc=doc, options={}, run=run)
        found = run_rules(ctx, own, cfg) if run.results is None else _run_cached(ctx, own, cfg, run.results)
        found = apply_suppressions(ctx, found, rules, cfg, own)
        if only_lines is not None:
            keep = only_lines.get(rel, set())
            found = [f for f in found if f.line in keep]
        findings.extend(found)
    return findings, run.results.recorded() if run.results is not None else {}


def _bad_byte(data: bytes) -> tuple[int, int]:
    """(line, column) of the first byte of ``data`` that is not UTF-8 (after a BOM)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        return head.count(b"\n") + 1, exc.start - (head.rfind(b"\n") + 1) + 1
    return 1, 1


def _run_cached(ctx: FileContext, rules: Iterable[Rule], config: LintConfig, results: Any) -> list[Finding]:
    """:func:`run_rules` with each rule's findings taken from, or else kept in, the lint result cache."""
    from .cache import digest

    sha = digest(ctx.data)
    lines = ctx.doc.lines
    crash = INTERNAL_RULES[0].code
    out: list[Finding] = []
    for r in rules:
        inputs = results.inputs(r, ctx.run)
        found = results.get(ctx.path, sha, r, inputs, lines) if inputs is not None else None
        if found is None:
            found = run_rules(ctx, (r,), config)
            if inputs is not None and not any(f.code == crash for f in found):
                results.put(ctx.path, sha, r, inputs, found, lines)
        out.extend(found)
    return out


#: Below this many bytes of files to lint, a second process costs more than it saves (forking, building the
#: workspace-wide indexes first, and collecting the findings take ~10-30 ms).
PARALLEL_MIN_BYTES = 128 * 1024


def _shares(ws: Any, plan: list[tuple[str, list[Rule]]], jobs: int | None, results: Any = None
            ) -> list[list[tuple[str, list[Rule]]]]:
    """``plan`` split into at most ``jobs`` shares of about equal size in bytes (one share: lint in-process).

    Files whose results the lint result cache ``results`` already holds count as empty: re-linting an unchanged
    workspace stays in one process."""
    if jobs is not None and jobs < 0:
        raise UsageError(f"--jobs {jobs}: must be 0 (one per CPU) or a positive number")
    if jobs == 1 or len(plan) < 2 or not hasattr(os, "fork"):
        return [plan]
    sizes = []
    for rel, own in plan:
        try:
            sizes.append(0 if results is not None and results.settled(rel, own) else os.stat(ws.root / rel).st_size)
        except OSError:
            sizes.append(0)
    if not jobs:  # automatic: only for enough work, one process per CPU this process may run on
        if sum(sizes) < PARALLEL_MIN_BYTES:
            return [plan]
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    jobs = min(jobs, len(plan))
    if jobs < 2:
        return [plan]
    from .parallel import balance

    return balance(list(zip(sizes, plan)), jobs)


def scan_new_lines(ws: Any, rel_path: str, lines: list[str]) -> list[Finding]:
    """The gate's check: error-severity security rules (secrets, poisoning, invisible/bidi) on new lines.

    ``lines`` are the lines about to be written (no EOLs needed); finding line numbers index into them
    (1-based). Suppression comments are ignored here: an agent cannot suppress its own write. Built-in
    security rules only (no entry-point scan) so the hook stays fast. An invalid `[lint]` table falls back
    to the defaults: a broken config must not switch the gate off.
    """
    from .document import parse
    from .memory import security_rules

    security = security_rules()
    rules = {r.code: r for r in security}
    try:
        cfg = load_config(ws, rules, None) if ws is not None else LintConfig()
    except ConfigError as exc:
        log.warning("scan_new_lines: %s; using default lint settings", exc)
        cfg = LintConfig()
    except Exception:  # noqa: BLE001 - a config table naming non-security rules is fine for the gate
        cfg = LintConfig()
    enabled = [r for r in security if cfg.severity_of(r) is Severity.ERROR]
    text = "\n".join(line.rstrip("\r\n") for line in lines)
    data = text.encode("utf-8")
    doc = parse(data)
    ctx = FileContext(path=rel_path, data=data, doc=doc, options={}, run=RunContext(ws, cfg), mode="gate")
    return [f for f in run_rules(ctx, enabled, cfg) if f.severity is Severity.ERROR]


# ----------------------------------------------------------------------------------------------------------
# Fixes


@dataclass(frozen=True, slots=True)
class NotFixed:
    """A file whose fixes were not made because it could not be rewritten safely (a second hard link, a host
    writing it, a link out of the workspace), with the one-line reason."""

    path: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class FixReport:
    """What :func:`apply_fixes` changed: files rewritten and fixes applied, skipped (overlap, stale, unsafe), and
    the files left as they were with the reason."""

    applied: tuple[Finding, ...]
    skipped: tuple[Finding, ...]
    files: tuple[str, ...]
    not_fixed: tuple[NotFixed, ...] = ()


def select_fixes(findings: Iterable[Finding], *, unsafe: bool = False) -> dict[str, list[Finding]]:
    """Fixable findings per file, safe ones only unless ``unsafe``; one fix per line (first wins)."""
    per_file: dict[str, list[Finding]] = {}
    for f in findings:
        if f.fix is None or not f.fix.edits:
            continue
        if f.fix.applicability is Applicability.UNSAFE and not unsafe:
            continue
        per_file.setdefault(f.path, []).append(f)
    return per_file


def apply_fixes(ws: Any, findings: Iterable[Finding], *, unsafe: bool = False) -> FixReport:
    """Apply the fixes of ``findings`` to their files, atomically, never over a host's concurrent write.

    A fix is skipped when one of its lines was already claimed by another fix of this pass or no longer
    holds the text the fix expects. Lines no fix names are written back byte for byte. A file a host changed
    while it was being fixed (or one that looks half-written) is left as it is and its fixes are skipped
    (``tiers.gc.rewrite_memory``: re-checked before and after the rename, temp files in the state directory).
    """
    from tiers.errors import WorkspaceError
    from tiers.gc import rewrite_memory

    from .document import parse, render_lines

    applied: list[Finding] = []
    skipped: list[Finding] = []
    files: list[str] = []
    not_fixed: list[NotFixed] = []
    per_file = select_fixes(findings, unsafe=unsafe)
    if per_file:
        from tiers.fsutil import clean_scratch, memory_state_paths

        clean_scratch(memory_state_paths(ws.state_dir, "x")[1])  # what a killed run left
    for rel, items in sorted(per_file.items()):
        took: list[Finding] = []
        left: list[Finding] = []

        def change(seen, rel=rel, items=items, took=took, left=left):
            took.clear()
            left.clear()
            doc = parse(seen.data)
            claimed: set[int] = set()
            texts: dict[int, str | None] = {}
            archive: list[int] = []
            for f in items:
                assert f.fix is not None
                ok = not (f.fix.lines & claimed) and all(
                    1 <= e.line <= len(doc.lines) and doc.lines[e.line - 1].text == e.expect for e in f.fix.edits)
                if not ok:
                    left.append(f)
                    continue
                claimed |= f.fix.lines
                for e in f.fix.edits:
                    texts[e.line] = e.text
                    if e.text is None and e.archive:
                        archive.append(e.line)
                took.append(f)
            if not texts:
                return None
            if archive:
                _archive(ws, rel, doc, archive)
            return render_lines(doc, texts)

        try:
            written = rewrite_memory(ws, rel, change)
        except WorkspaceError as exc:  # a host is writing it, a second hard link: its fixes wait, with the reason
            skipped.extend(items)
            not_fixed.append(NotFixed(rel, " ".join(str(exc).split())))
            continue
        skipped.extend(left)
        applied.extend(took)
        if written is not None:
            files.append(rel)
    return FixReport(applied=tuple(applied), skipped=tuple(skipped), files=tuple(files), not_fixed=tuple(not_fixed))


def _archive(ws: Any, rel: str, doc: Any, numbers: list[int]) -> None:
    """Send the lines a fix deletes to the GC archive first (tiers.gc's own records, so `cuticle gc --restore ID`
    brings one back like a line GC removed); a crash before the rewrite leaves the line in place and a record
    the next run does not repeat."""
    from tiers.gc import archive_once, removal_reason, removal_records
    from tiers.session import current_session

    current = current_session(ws)
    reasons = {n: (doc.lines[n - 1].stamp and removal_reason(doc.lines[n - 1].stamp, current))
               or "removed by cuticle lint --fix" for n in numbers}
    archive_once(ws, removal_records(ws, rel, doc, reasons, current, by="cuticle lint --fix (CU103)")[1])


def lint_and_fix(ws: Any, paths: Iterable[str | os.PathLike[str]] | None = None, *, unsafe: bool = False,
                 max_passes: int = 5, **kwargs: Any) -> LintResult:
    """Lint, apply fixes, re-lint until nothing more is fixable (at most ``max_passes``); the last lint wins."""
    paths = list(paths) if paths is not None else None
    fixed = 0
    not_fixed: dict[str, NotFixed] = {}
    result = lint_paths(ws, paths, **kwargs)
    for _ in range(max_passes):
        report = apply_fixes(ws, result.findings, unsafe=unsafe)
        not_fixed.update((n.path, n) for n in report.not_fixed)
        if not report.applied:
            break
        fixed += len(report.applied)
        result = lint_paths(ws, paths, **kwargs)
    return replace(result, fixed=fixed, not_fixed=tuple(not_fixed.values()))


def iter_rules() -> Iterator[Rule]:
    """Every registered rule (plugins included) plus the engine's own codes, sorted by code."""
    from .plugins import load_registry

    yield from sorted([*load_registry().rules.values(), *INTERNAL_RULES], key=lambda r: r.code)


def find_rule(code_or_name: str) -> Rule:
    """The rule with this code or name; UsageError when there is none."""
    key = code_or_name.strip()
    for r in iter_rules():
        if r.code == key.upper() or r.name == key.lower():
            return r
    raise UsageError(f"unknown rule {code_or_name!r}; run `cuticle rules` for the list")
