"""Reader for the Markdown rule-fixture files in tests/rules/fixtures/ (one file per rule, many cases).

A case is a `## title` section with optional `key: value` lines (path, session, fix, config, select, escaped)
and fenced blocks with four tildes: `~~~~markdown input` (the file under test), `~~~~markdown file=PATH`
(other workspace files), `~~~~text expected` (one `LINE:COL CODE [message part]` per finding; empty means
clean) and `~~~~markdown fixed` (the file after `--fix`; with `fix: unsafe`, after `--unsafe-fixes`).
Inside inputs, `{{stamp T key=value...}}` (session, scope, ttl, expires=none, verified=yes|no) is replaced by a
valid stamp for the line and `{{forged T}}` by one made with a different key; with `escaped: true`, `\\uXXXX` and `\\UXXXXXXXX` escapes are decoded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^~~~~(?P<info>[^\n]*)\n(?P<body>.*?)^~~~~\s*$", re.S | re.M)
META = re.compile(r"^(?P<key>[a-z_]+):\s*(?P<value>.+?)\s*$", re.M)
EXPECT = re.compile(r"^(?P<line>\d+):(?P<col>\d+)\s+(?P<code>[A-Z]{2,4}\d{3})(?:\s+(?P<msg>.+))?$")


@dataclass
class Case:
    rule: str
    title: str
    source: str
    input: str
    path: str = "MEMORY.md"
    files: dict[str, str] = field(default_factory=dict)
    expected: list[tuple[int, int, str, str | None]] = field(default_factory=list)
    fixed: str | None = None
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.rule}-{re.sub(r'[^a-z0-9]+', '-', self.title.lower()).strip('-')}"


def _unescape(text: str) -> str:
    return re.sub(r"\\U([0-9a-fA-F]{8})|\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def _sections(text: str) -> list[str]:
    """The `## title` sections, split only outside `~~~~` fences (inputs may hold `## ` headings themselves)."""
    sections: list[list[str]] = []
    fenced = False
    for line in text.splitlines(keepends=True):
        if line.startswith("~~~~"):
            fenced = not fenced if line.strip() == "~~~~" or not fenced else fenced
        if not fenced and line.startswith("## "):
            sections.append([line[3:]])
        elif sections:
            sections[-1].append(line)
    return ["".join(s) for s in sections]


def load(path: Path) -> list[Case]:
    text = path.read_text(encoding="utf-8")
    head = re.match(r"#\s+(?P<code>[A-Z]{2,4}\d{3})\b", text)
    assert head, f"{path.name}: must start with '# CODE name'"
    rule = head.group("code")
    cases = []
    for section in _sections(text):
        title, _, rest = section.partition("\n")
        blocks = list(FENCE.finditer(rest))
        preamble = rest[: blocks[0].start()] if blocks else rest
        meta = {m.group("key"): m.group("value") for m in META.finditer(preamble)}
        escaped = meta.get("escaped") == "true"
        case = Case(rule=rule, title=title.strip(), source=path.name, input="", path=meta.get("path", "MEMORY.md"),
                    meta=meta)
        seen_input = False
        for b in blocks:
            info = b.group("info").split()
            body = b.group("body")
            if escaped:
                body = _unescape(body)
            if "input" in info:
                case.input = body
                seen_input = True
            elif "expected" in info:
                for raw in body.splitlines():
                    if not raw.strip():
                        continue
                    m = EXPECT.match(raw.strip())
                    assert m, f"{path.name} [{title}]: bad expected line {raw!r}"
                    case.expected.append((int(m.group("line")), int(m.group("col")), m.group("code"), m.group("msg")))
            elif "fixed" in info:
                case.fixed = body
            else:
                f = next((i.split("=", 1)[1] for i in info if i.startswith("file=")), None)
                assert f, f"{path.name} [{title}]: block needs input, expected, fixed or file=PATH"
                case.files[f] = body
        assert seen_input, f"{path.name} [{title}]: no input block"
        cases.append(case)
    return cases


def config_of(case: Case) -> dict | None:
    raw = case.meta.get("config")
    return json.loads(raw) if raw else None
