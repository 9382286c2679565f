"""Inline suppressions as HTML comments, and the unused/unknown-suppression findings (CU901, CU902).

Forms, by code, name or code prefix; no selector means every rule:

    <!-- cuticle: disable-next-line CU301 -->      the next line
    <!-- cuticle: disable-line near-duplicate -->  the line the comment is on
    <!-- cuticle: disable CU2 -->  ...  <!-- cuticle: enable CU2 -->   a block (to the end if never enabled)
    <!-- cuticle: disable-file CU401 -->           the whole file
"""

from __future__ import annotations

import re
from typing import Any

from tiers.record import dataclass, field

from .document import DIRECTIVE_RE

KINDS = ("disable-next-line", "disable-line", "disable", "enable", "disable-file")
#: Codes a suppression can never hide: engine failures and the suppression rules themselves.
UNSUPPRESSIBLE = {"CU000", "CU001", "CU002", "CU901", "CU902"}


@dataclass
class Directive:
    line: int
    column: int
    kind: str
    raw: str
    selectors: tuple[str, ...]
    #: selector -> the codes it names (None: all rules); filled by resolve()
    codes: dict[str, set[str] | None] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    first: int = 0
    last: int = 0
    whole_line: bool = False

    def covers(self, line: int) -> bool:
        return self.first <= line <= self.last


def parse_directives(doc: Any) -> list[Directive]:
    """Every `cuticle:` comment outside fenced code, in file order (unknown kinds kept for CU902)."""
    out: list[Directive] = []
    for line in doc.lines:
        if line.kind == "fence" or "cuticle" not in line.text:
            continue
        for m in DIRECTIVE_RE.finditer(line.text):
            args = tuple(a for a in re.split(r"[\s,]+", m.group("args").strip()) if a)
            whole = line.text.strip() == m.group(0)
            out.append(Directive(line.number, m.start() + 1, m.group("kind").lower(), m.group(0), args,
                                 whole_line=whole))
    return out


def _resolve(directives: list[Directive], rules: dict[str, Any], problems: list[tuple[Directive, str]]) -> None:
    from tiers.errors import ConfigError

    from .model import resolve_selector

    by_name = {r.name: r.code for r in rules.values()}
    for d in directives:
        if d.kind not in KINDS:
            problems.append((d, f"unknown suppression {d.kind or '(empty)'!r} in {d.raw!r}; "
                                f"use one of {', '.join(KINDS)}"))
            continue
        if not d.selectors:
            d.codes["*"] = None
        for s in d.selectors:
            try:
                d.codes[s] = resolve_selector(s, rules, by_name)
            except ConfigError:
                problems.append((d, f"suppression names unknown rule {s!r}; run `cuticle rules` for the codes"))


def _spans(directives: list[Directive], n_lines: int) -> list[Directive]:
    active: list[Directive] = []
    open_blocks: list[Directive] = []
    for d in directives:
        if d.kind == "disable-next-line":
            d.first = d.last = d.line + 1
            active.append(d)
        elif d.kind == "disable-line":
            d.first = d.last = d.line
            active.append(d)
        elif d.kind == "disable-file":
            d.first, d.last = 1, n_lines
            active.append(d)
        elif d.kind == "disable":
            d.first, d.last = d.line + 1, n_lines
            open_blocks.append(d)
            active.append(d)
        elif d.kind == "enable":
            closing = set(s.upper() for s in d.selectors)
            for b in list(open_blocks):
                if not closing or closing & set(s.upper() for s in b.selectors) or not b.selectors:
                    b.last = d.line - 1
                    open_blocks.remove(b)
    return active


def apply_suppressions(ctx: Any, findings: list[Any], rules: dict[str, Any], cfg: Any,
                       enabled: list[Any]) -> list[Any]:
    """Drop suppressed findings; add CU901 (unused) and CU902 (unknown) findings where those rules run."""
    from .model import Applicability, Edit, Fix, Problem, _finding

    directives = parse_directives(ctx.doc)
    if not directives:
        return findings
    problems: list[tuple[Directive, str]] = []
    _resolve(directives, rules, problems)
    active = _spans([d for d in directives if d.codes], len(ctx.doc.lines))
    kept: list[Any] = []
    for f in findings:
        hidden = False
        if f.code not in UNSUPPRESSIBLE:
            for d in active:
                if not d.covers(f.line):
                    continue
                for sel, codes in d.codes.items():
                    if codes is None or f.code in codes:
                        d.used.add(sel)
                        hidden = True
        if not hidden:
            kept.append(f)
    enabled_codes = {r.code for r in enabled}
    seen: dict = {}
    unknown_rule = rules.get("CU902")
    if unknown_rule is not None and "CU902" in enabled_codes:
        for d, msg in problems:
            kept.append(_finding(unknown_rule, Problem(f"{ctx.path}:{d.line}: {msg}", d.line, d.column),
                                 ctx.path, cfg.severity_of(unknown_rule), ctx.doc, seen))
    unused_rule = rules.get("CU901")
    if unused_rule is not None and "CU901" in enabled_codes:
        enabled_all = enabled_codes
        for d in active:
            unused = [s for s, codes in d.codes.items()
                      if s not in d.used and (codes is None or codes & enabled_all)]
            if not unused:
                continue
            what = "all rules" if unused == ["*"] else ", ".join(unused)
            fix = None
            if len(unused) == len(d.codes):
                text = ctx.doc.lines[d.line - 1].text
                new = None if d.whole_line else (text[: d.column - 1].rstrip() + text[d.column - 1 + len(d.raw):])
                fix = Fix(f"remove the unused suppression {d.raw}",
                          (Edit(d.line, new, text),), Applicability.SAFE)
            kept.append(_finding(unused_rule, Problem(
                f"{ctx.path}:{d.line}: suppression of {what} is unused (nothing to suppress on the lines it "
                f"covers); remove it", d.line, d.column, fix=fix), ctx.path, cfg.severity_of(unused_rule),
                ctx.doc, seen))
    return kept
