"""One parametrized runner over every Markdown rule-fixture file: input, expected findings, fixed output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fixture_format import Case, config_of, load
from rules.engine import apply_fixes, lint_and_fix, lint_paths
from tiers.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures"
CASES: list[Case] = [c for p in sorted(FIXTURES.glob("*.md")) for c in load(p)]
STAMP = re.compile(r"\s*\{\{(?P<kind>stamp|forged)\s+(?P<tier>[DOCH])(?P<args>[^}]*)\}\}")


def _stamp_lines(text: str, key: bytes) -> str:
    from tiers.model import Tier
    from tiers.stamps import apply_stamp, make_stamp

    out = []
    for line in text.split("\n"):
        m = STAMP.search(line)
        if not m:
            out.append(line)
            continue
        content = line[: m.start()]
        args = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group("args")))
        args = {k: v.strip('"') for k, v in args.items()}
        use_key = key if m.group("kind") == "stamp" else b"not-the-workspace-key-" + key[:8]
        st = make_stamp(content, Tier(m.group("tier")), int(args.get("session", 1)), use_key,
                        scope=args.get("scope"), ttl=int(args["ttl"]) if "ttl" in args else None,
                        verified={"yes": True, "no": False}.get(args.get("verified", "")))
        if "expires" in args:
            from tiers.record import replace
            st = replace(st, expires=None) if args["expires"] == "none" else st
        out.append(apply_stamp(content, st))
    return "\n".join(out)


def _setup(case: Case, root: Path, monkeypatch) -> Workspace:
    ws = Workspace(root)
    needs_key = "{{" in case.input or any("{{" in t for t in case.files.values()) or case.meta.get("key") == "true"
    key = ws.key if needs_key else b""
    for rel, text in {case.path: case.input, **case.files}.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(_stamp_lines(text, key).encode("utf-8"))
    if "session" in case.meta:
        import rules.memory.cu103_expired_hypothesis as cu103

        monkeypatch.setattr(cu103, "_current_session", lambda ws: int(case.meta["session"]))
    return ws


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_fixture(case: Case, tmp_path: Path, monkeypatch) -> None:
    if "requires" in case.meta:
        pytest.importorskip(case.meta["requires"])
    ws = _setup(case, tmp_path, monkeypatch)
    select = case.meta.get("select", case.rule).split(",")
    result = lint_paths(ws, [tmp_path / case.path], config=config_of(case) or {}, select=select)
    got = [(f.line, f.column, f.code) for f in result.findings if f.path == case.path]
    want = [(line, col, code) for line, col, code, _ in case.expected]
    assert got == want, "\n".join(f.message for f in result.findings)
    for (line, col, code, part), f in zip(case.expected, [f for f in result.findings if f.path == case.path]):
        if part:
            assert part in f.message, f.message
    if case.fixed is not None:
        unsafe = case.meta.get("fix") == "unsafe"
        lint_and_fix(ws, [tmp_path / case.path], unsafe=unsafe, config=config_of(case) or {}, select=select)
        after = (tmp_path / case.path).read_bytes().decode("utf-8")
        assert after == _stamp_lines(case.fixed, ws.key if "{{" in case.fixed else b"")
        if "archive" in case.meta:
            from tiers.fsutil import read_jsonl

            records = read_jsonl(ws.state_path("gc-archive.jsonl"))
            assert records and all(r["file"] == case.path and r["tier"] == "HYPOTHESIS" for r in records)


@pytest.mark.parametrize("case", [c for c in CASES if c.fixed is not None],
                         ids=[c.id for c in CASES if c.fixed is not None])
def test_fixes_are_idempotent(case: Case, tmp_path: Path, monkeypatch) -> None:
    if "requires" in case.meta:
        pytest.importorskip(case.meta["requires"])
    ws = _setup(case, tmp_path, monkeypatch)
    select = case.meta.get("select", case.rule).split(",")
    unsafe = case.meta.get("fix") == "unsafe"
    lint_and_fix(ws, [tmp_path / case.path], unsafe=unsafe, config=config_of(case) or {}, select=select)
    once = (tmp_path / case.path).read_bytes()
    result = lint_paths(ws, [tmp_path / case.path], config=config_of(case) or {}, select=select)
    report = apply_fixes(ws, result.findings, unsafe=unsafe)
    assert not report.applied
    assert (tmp_path / case.path).read_bytes() == once
