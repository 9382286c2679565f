"""Values shared by every layer: the four epistemic tiers and a classification result."""

from __future__ import annotations

import enum
from .record import dataclass


class Tier(enum.Enum):
    """The four epistemic tiers, strongest first. The value is the one-letter code used in stamps."""

    DIRECTIVE = "D"
    OBSERVATION = "O"
    DECISION = "C"
    HYPOTHESIS = "H"

    @property
    def rank(self) -> int:
        """Authority: DIRECTIVE 3 > DECISION 2 > OBSERVATION 1 > HYPOTHESIS 0."""
        return _RANK[self]

    @classmethod
    def from_code(cls, code: str) -> Tier:
        """Accept a letter (``D``) or a name (``DIRECTIVE``/``directive``)."""
        # one dict lookup: the arbitration cache turns every cached constraint's code back into a Tier
        tier = _BY_CODE.get(code) or _BY_CODE.get(code.strip().upper())
        if tier is None:
            raise ValueError(f"unknown tier {code!r}; expected D, O, C, H or a tier name")
        return tier


_RANK = {Tier.DIRECTIVE: 3, Tier.DECISION: 2, Tier.OBSERVATION: 1, Tier.HYPOTHESIS: 0}
#: each tier by its letter and by its name (upper case)
_BY_CODE = {key: tier for tier in Tier for key in (tier.value, tier.name)}


@dataclass(frozen=True, slots=True)
class Classification:
    """The tier of one memory line, how sure we are, the DECISION scope and why."""

    tier: Tier
    confidence: float
    scope: str | None = None
    reasons: tuple[str, ...] = ()
    #: True when the tier comes from the user's own prompt (verified provenance), not from markers.
    verified: bool = False

    def to_json(self) -> dict:
        return {
            "tier": self.tier.name,
            "confidence": round(self.confidence, 3),
            "scope": self.scope,
            "reasons": list(self.reasons),
            "verified": self.verified,
        }
