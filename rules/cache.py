"""The lint result cache: a rule's findings on a file, kept until the file or anything else they depend on changes.

A re-lint of an unchanged workspace (a pre-commit run, an editor's lint-on-save, CI on a cached checkout) then
only reads the files, checks digests and prints. The cache lives in ``.cuticle/cache/lint.json`` and is used
only when the workspace's ``.cuticle/`` directory exists (as the arbitration cache is); ``cuticle lint
--no-cache`` ignores it.

What a cached result is valid for, all of which must match or the rule runs again:

- the environment: cuticle's rule and tier code and data (size and modification time of every file of the
  ``rules`` and ``tiers`` packages), the Python version, and the workspace config file's bytes (the `[lint]`
  table's rules, severities and options, and every other section a rule may read);
- the file: its path and a digest of its bytes;
- the rule's options and severity override as the run applies them (a config may also come from Python);
- the rule's own inputs beyond the file: each rule declares them (``Rule.inputs``: a function of the run that
  returns a digest of the workspace state it reads, e.g. the constraint index for CU201 or the stamp key for
  CU102). A rule that declares nothing, every third-party rule by default, is never cached.

A result is cached only when it can be rebuilt exactly: every fix edits the linted file itself, and no fix
replacement text holds a secret (the cache keeps no secret that the lint output would mask; the text each edit
expects is the file's own line, taken again from the file on reuse). A crashed rule is never cached.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .model import Applicability, Edit, Finding, Fix, Rule, Severity

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

VERSION = 1
NAME = "lint.json"
#: Files kept at most (entries of files not linted for a while are dropped first).
MAX_FILES = 20_000


def file_only(run: Any) -> str:
    """``Rule.inputs`` of a rule whose findings depend on the linted file (bytes, path) and its options only."""
    return ""


def digest(*parts: bytes | str) -> str:
    """A short hex digest of ``parts`` (each length-prefixed, so no two sequences of parts collide by joining)."""
    from hashlib import blake2b  # hashlib loads OpenSSL: not on the gate's import path

    h = blake2b(digest_size=16)
    for p in parts:
        b = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _code_digest() -> str:
    """Size and modification time of every file the rules and tiers packages are made of (code and data)."""
    import os

    parts: list[str] = [sys.version]
    here = Path(__file__).resolve().parent
    for top in (str(here), str(here.parent / "tiers")):
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith((".py", ".json", ".toml", ".txt")):
                    try:
                        st = os.stat(os.path.join(folder, name))
                    except OSError:
                        continue
                    rel = os.path.relpath(os.path.join(folder, name), os.path.dirname(top))
                    parts.append(f"{rel}:{st.st_size}:{st.st_mtime_ns}")
    return digest(*parts)


def _config_bytes(ws: Any) -> bytes:
    try:
        return ws.config_path.read_bytes()
    except OSError:
        return b""


class LintCache:
    """The cache of one workspace for one lint run: look up, record, save (see the module docstring)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.path = ws.state_path("cache", NAME)
        self.env = digest(_code_digest(), _config_bytes(ws))
        self.files: dict[str, dict[str, Any]] = {}
        self.dirty = False
        self._inputs: dict[str, str | None] = {}
        self._recorded: set[str] = set()
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return
        if (isinstance(loaded, dict) and loaded.get("v") == VERSION and loaded.get("env") == self.env
                and isinstance(loaded.get("files"), dict)):
            self.files = loaded["files"]

    @classmethod
    def open(cls, ws: Any) -> LintCache | None:
        """The workspace's cache, or None where there is none to keep (no workspace or no ``.cuticle/``)."""
        if ws is None or not ws.state_dir.is_dir():
            return None
        return cls(ws)

    def inputs(self, rule: Rule, run: Any) -> str | None:
        """The digest of what ``rule`` reads beyond the file, once per run; None: the rule is not cached."""
        code = rule.code
        if code not in self._inputs:
            value = None
            fn: Callable[[Any], str] | None = rule.inputs
            if fn is not None:
                try:
                    # options and a severity override may come from a config given in Python, not the file
                    value = digest(code, repr(sorted(run.config.options_of(rule).items())),
                                   repr(run.config.severity.get(code)), str(fn(run)))
                except Exception:  # noqa: BLE001 - a rule whose inputs cannot be read is simply run
                    value = None
            self._inputs[code] = value
        return self._inputs[code]

    def settled(self, rel: str, rules: list[Rule]) -> bool:
        """Whether every cacheable rule of ``rules`` has a result for ``rel`` as it is now (unless a rule's inputs
        changed since: that is known only once they are computed). A parallel lint does not count such files."""
        entry = self.files.get(rel)
        if entry is None:
            return False
        try:
            data = (self.ws.root / rel).read_bytes()
        except OSError:
            return False
        return entry.get("sha") == digest(data) and all(r.code in entry["rules"] for r in rules if r.inputs)

    def get(self, rel: str, sha: str, rule: Rule, inputs: str, lines: list[Any]) -> list[Finding] | None:
        """The cached findings of ``rule`` on file ``rel`` (bytes digest ``sha``), or None on a miss."""
        entry = self.files.get(rel)
        if entry is None or entry.get("sha") != sha:
            return None
        got = entry["rules"].get(rule.code)
        if got is None or got[0] != inputs:
            return None
        try:
            return [_finding_from(rule, rel, rec, lines) for rec in got[1]]
        except (KeyError, IndexError, TypeError, ValueError):
            return None

    def put(self, rel: str, sha: str, rule: Rule, inputs: str, found: list[Finding], lines: list[Any]) -> None:
        """Record ``rule``'s findings on ``rel``, unless one of them cannot be rebuilt exactly from the cache."""
        records = []
        for f in found:
            rec = _record(f, rel, lines)
            if rec is None:
                return
            records.append(rec)
        entry = self.files.get(rel)
        if entry is None or entry.get("sha") != sha:
            entry = self.files[rel] = {"sha": sha, "rules": {}}
        entry["rules"][rule.code] = [inputs, records]
        self._recorded.add(rel)
        self.dirty = True

    def recorded(self) -> dict[str, dict[str, Any]]:
        """The entries :meth:`put` changed in this process (what a forked process sends back)."""
        return {rel: self.files[rel] for rel in self._recorded if rel in self.files}

    def merge(self, other: dict[str, dict[str, Any]]) -> None:
        """Take the entries another process recorded (a parallel lint's shares)."""
        if other:
            self.files.update(other)
            self.dirty = True

    def forget_missing(self) -> None:
        """Drop the entries of files that no longer exist, and the oldest beyond :data:`MAX_FILES`."""
        root = self.ws.root
        gone = [rel for rel in self.files if not (root / rel).is_file()]
        for rel in gone:
            del self.files[rel]
        for rel in list(self.files)[: max(0, len(self.files) - MAX_FILES)]:
            del self.files[rel]
        self.dirty = self.dirty or bool(gone)

    def save(self) -> None:
        """Write the cache atomically when it changed; a failure only costs the next run its speed."""
        if not self.dirty:
            return
        from tiers.fsutil import atomic_write

        self.forget_missing()
        data = {"v": VERSION, "env": self.env, "files": self.files}
        try:
            atomic_write(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
            self.dirty = False
        except OSError as exc:
            import logging

            logging.getLogger(__name__).warning("lint cache not saved: %s", exc)


def _record(f: Finding, rel: str, lines: list[Any]) -> list | None:
    """A finding as JSON data, or None when it cannot be rebuilt exactly (see the module docstring)."""
    fix = None
    if f.fix is not None:
        if f.path != rel:
            return None
        from tiers.secrets import mask_secrets

        edits = []
        for e in f.fix.edits:
            if not 1 <= e.line <= len(lines) or lines[e.line - 1].text != e.expect:
                return None
            if e.text is not None and mask_secrets(e.text) != e.text:
                return None
            edits.append([e.line, e.text, e.archive])
        fix = [f.fix.description, f.fix.applicability.value, edits]
    return [f.severity.value, f.line, f.column, f.message, f.fingerprint, fix,
            None if f.path == rel else f.path]


def _finding_from(rule: Rule, rel: str, rec: list, lines: list[Any]) -> Finding:
    severity, line, column, message, fingerprint, fix, path = rec
    fx = None
    if fix is not None:
        description, applicability, edits = fix
        out = []
        for n, text, archive in edits:
            n = int(n)
            if not 1 <= n <= len(lines):
                raise ValueError(f"edit of line {n} outside the file")
            out.append(Edit(n, text, lines[n - 1].text, bool(archive)))
        fx = Fix(description, tuple(out), Applicability(applicability))
    return Finding(rule.code, rule.name, Severity(severity), path or rel, int(line), int(column), message, fx,
                   fingerprint)
