"""Records made by calling their builder twin (session 7) are ordinary frozen records."""

from __future__ import annotations

import pytest

from rules.governance.analyze import Effect, Violation, _effect, _violation
from rules.governance.evaluate import Finding, _finding
from tiers import record


@pytest.mark.parametrize("built, cls", [
    (_effect("write", ".env", "path"), Effect), (_effect("read"), Effect),
    (_violation("no-force-push", "forces a push", 2), Violation), (_violation("x", ""), Violation),
    (_finding("r", "policy", "enforce", "why", "t"), Finding), (_finding("r", "invariant", "monitor", ""), Finding),
], ids=lambda v: type(v).__name__ if not isinstance(v, type) else v.__name__)
def test_a_record_built_through_its_twin_equals_one_built_by_the_constructor(built, cls):
    assert type(built) is cls
    copy = cls(**{f.name: getattr(built, f.name) for f in record.fields(cls)})
    assert built == copy and hash(built) == hash(copy) and repr(built) == repr(copy)
    with pytest.raises(AttributeError):
        built.__setattr__(record.fields(cls)[0].name, None)
