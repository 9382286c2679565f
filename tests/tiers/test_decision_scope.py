"""The DECISION scope finder on a fixture table (EN and RU): the scope is every restriction and never the option."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiers.classify import classify, find_scope
from tiers.model import Tier

FIXTURE = Path(__file__).parent / "fixtures" / "decision_scopes.tsv"


def _cases() -> list[tuple[str, str, str | None]]:
    out = []
    for raw in FIXTURE.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        case_id, line, scope = raw.split("\t")
        out.append((case_id, line, None if scope == "-" else scope))
    return out


CASES = _cases()


@pytest.mark.parametrize(("line", "scope"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_decision_scope_is_every_restriction_and_not_the_option(line: str, scope: str | None) -> None:
    result = classify(line)
    assert result.tier is Tier.DECISION
    assert result.scope == scope


def test_fixture_table_covers_both_languages() -> None:
    ids = [c[0] for c in CASES]
    assert sum(i.startswith("en-") for i in ids) >= 8 and sum(i.startswith("ru-") for i in ids) >= 16


@pytest.mark.parametrize("payload", ["", "для", "для ", "до (", "в «", "на `x", "для )", "в рамках", "(((", "«»"],
                         ids=["empty", "opening-alone", "opening-blank", "open-paren", "open-quote", "open-code",
                              "close-paren", "two-word-opening", "parens", "empty-quote"])
def test_truncated_payload_gives_no_scope_and_never_raises(payload: str) -> None:
    assert find_scope(payload) is None


def test_unclosed_parenthetical_stays_outside_the_scope() -> None:
    assert find_scope("до конца марта (если успеем релизы") == "до конца марта"
