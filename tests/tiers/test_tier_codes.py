"""A tier from its stamp letter or its name, as stamps, caches and command lines spell it."""

from __future__ import annotations

import pytest

from tiers.model import Tier


@pytest.mark.parametrize(("code", "tier"), [
    ("D", Tier.DIRECTIVE), ("O", Tier.OBSERVATION), ("C", Tier.DECISION), ("H", Tier.HYPOTHESIS),
    ("d", Tier.DIRECTIVE), (" h ", Tier.HYPOTHESIS), ("DECISION", Tier.DECISION), ("observation", Tier.OBSERVATION),
], ids=lambda x: repr(x) if isinstance(x, str) else x.name)
def test_a_tier_is_named_by_its_letter_or_its_name(code: str, tier: Tier) -> None:
    assert Tier.from_code(code) is tier


@pytest.mark.parametrize("code", ["", "X", "DIR", "DD", "directives", "Д"], ids=repr)
def test_an_unknown_tier_code_is_a_value_error(code: str) -> None:
    with pytest.raises(ValueError, match="unknown tier"):
        Tier.from_code(code)
