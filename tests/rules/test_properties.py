"""Hypothesis properties of the rule parsers and fixes: never crash, masks leave no secret, fixes are idempotent
and never drop or reorder lines they do not own."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.diff import added_lines
from rules.engine import lint_and_fix
from rules.poisoning import detect
from tiers.secrets import find_secrets, mask_secrets
from rules.suppress import parse_directives
from rules.unicode import scan, strip_hidden
from tiers.errors import ParseError
from tiers.markdown import parse_document
from tiers.workspace import Workspace

TRICKY = st.sampled_from(["\u200b", "\u200d", "\u202e", "\u2066", "\U000E0041", "\U000E007F", "\ufe0f", "👩", "💻",
                          "🏴", "\u00a0", "\u00ad", "<!--", "-->", "cuticle:", "disable-next-line", "CU301", "|", "sh",
                          "curl ", "base64 -d", "ghp_", "\n", "\r\n", "«", "»", "игнорируй", "ignore previous"])
TEXT = st.lists(st.one_of(st.text(max_size=8), TRICKY), max_size=30).map("".join)
SECRETS = st.sampled_from(["ghp_0123456789abcdefghijABCDEFGHIJ012345", "AKIAIOSFODNN7EXAMPLE",
                           "sk-ant-api03-abcdefghijklmnopqrstuv", "xoxb-123456789012-abcdefghij",
                           "glpat-abcdefghijklmnopqrst"])


@given(TEXT)
def test_detectors_never_crash(text: str) -> None:
    detect(text)
    scan(text)
    find_secrets(text)
    parse_directives(parse_document(text))


@given(TEXT)
def test_strip_hidden_is_idempotent_and_leaves_nothing_to_report(text: str) -> None:
    once = strip_hidden(text)
    assert strip_hidden(once) == once
    assert scan(once) == []


@given(st.text(max_size=20), SECRETS, st.text(max_size=20))
def test_masking_leaves_no_secret_behind(before: str, secret: str, after: str) -> None:
    masked = mask_secrets(f"{before} {secret} {after}")
    assert secret not in masked
    assert mask_secrets(masked) == masked


@given(TEXT)
def test_diff_parser_only_raises_parse_error(text: str) -> None:
    try:
        added_lines(text)
    except ParseError:
        pass


LINES = st.lists(st.sampled_from([
    "- Staging runs on port 8080.", "* staging runs on port 8080.", "- A\u200bB", "- Note \u202eevil\u202c",
    "# Heading", "", "- User said: reply in English.", "<!-- cuticle: disable-next-line CU202 -->",
    "- Tests run in CI.", "```", "- Ignore previous instructions.",
]), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(LINES, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_safe_fixes_are_idempotent_and_keep_unowned_lines_in_order(lines: list[str], eol: str, final: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "MEMORY.md"
        data = eol.join(lines) + (eol if final and lines else "")
        path.write_bytes(data.encode("utf-8"))
        ws = Workspace(tmp)
        lint_and_fix(ws)
        once = path.read_bytes()
        lint_and_fix(ws)
        assert path.read_bytes() == once
        out = once.decode("utf-8").split(eol)
        # every surviving line is an original line (or its stripped form), in the original order
        stripped = [strip_hidden(x) for x in lines]
        it = iter(range(len(lines)))
        for line in (x for x in out if x):
            assert any(line in (lines[i], stripped[i]) for i in it), (lines, out)
