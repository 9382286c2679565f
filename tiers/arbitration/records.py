"""The named records of arbitration: a constraint of the workspace, a conflict with one, the decision for a line."""

from __future__ import annotations

from ..concepts import Analysis, analyze
from ..model import Tier
from ..record import dataclass

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class Constraint:
    """One active DIRECTIVE or DECISION line of the workspace memory."""

    tier: Tier
    id: str
    file: str
    line: int
    content: str
    scope: str | None
    recorded_at: str | None
    stamped: bool
    session: int | None = None

    @property
    def analysis(self) -> Analysis:
        return analyze(self.content)

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": self.tier.name,
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "content": self.content,
            "scope": self.scope,
            "recorded_at": self.recorded_at,
        }


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why a candidate collides with one constraint."""

    constraint: Constraint
    kind: str
    reason: str
    resolution: str
    strength: float = 1.0


@dataclass(frozen=True, slots=True)
class Arbitration:
    """The decision for one candidate line."""

    decision: str  # "allow" | "block"
    tier: Tier
    content: str
    file: str
    error: dict[str, Any] | None = None
    supersedes: tuple[Constraint, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    #: lower-tier lines this one retires (lifecycle.Retired: an older observation superseded, a hypothesis
    #: contradicted); the write path marks them and GC archives them
    retires: tuple = ()

    @property
    def blocked(self) -> bool:
        return self.decision == "block"

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "tier": self.tier.name,
            "file": self.file,
            "content": self.content,
            "error": self.error,
            "supersedes": [c.to_json() for c in self.supersedes],
            "retires": [dict(r.line.to_json(), state=r.state) for r in self.retires],
        }


def conflict_error(cand_tier: Tier, content: str, conflict: Conflict) -> dict[str, Any]:
    """The EpistemicConflictError JSON object for a block (plain JSON: it travels inside hosts' reason strings)."""
    return {
        "error": "EpistemicConflictError",
        "attempted": {"tier": cand_tier.name, "content": content},
        "conflicts_with": conflict.constraint.to_json(),
        "kind": conflict.kind,
        "reason": conflict.reason,
        "resolution": conflict.resolution,
    }


def explain(kind: str, cand_tier: Tier, cons: Constraint, detail: str) -> tuple[str, str]:
    """(reason, resolution) of a conflict of ``kind`` with ``cons``, for the agent reading the block."""
    tname = cons.tier.name
    if kind == "scope-generalization":
        return (
            f'Attempting to generalize a scoped DECISION ("{cons.scope}") into an unscoped or wider claim'
            + (f": {detail}." if detail else "."),
            f'Ask the user, or narrow the line to the decision\'s scope ("{cons.scope}").',
        )
    if kind == "value-substitution":
        return (
            f"The line gives a different value ({detail}) for something the {tname} already fixed.",
            f"Keep the value the user gave in {cons.file}:{cons.line}, or ask the user; "
            "only a new instruction from the user can change it.",
        )
    if kind == "lower-tier-over-directive":
        return (
            f"A {cand_tier.name} (the agent's own inference) cannot override a {tname}: {detail}.",
            f"Drop the inference, or ask the user whether {cons.file}:{cons.line} still applies; "
            "only the user can amend it.",
        )
    if kind == "unverified-amendment":
        return (
            f"The line claims to change a {tname}, but it does not come from the user's own words in this turn.",
            "Quote the user's current prompt verbatim, or ask the user to confirm the change.",
        )
    return (
        f"The line contradicts the {tname}: {detail}.",
        f"Do not store it. Ask the user; if they change their mind, their new instruction supersedes "
        f"{cons.file}:{cons.line}. Or rewrite the line so it agrees with the constraint.",
    )
