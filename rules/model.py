"""Values of the tool-call side of the rules layer: a normalized tool call and a plugin's verdict on it."""

from __future__ import annotations

import enum

from tiers.record import dataclass, field

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


class Decision(enum.Enum):
    ALLOW = "allow"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call from any host, normalized by the gate before any rule sees it.

    ``tool`` is the host's own tool name (``Bash``, ``run_shell_command``, ``exec``, ``Write``…); ``kind`` is the
    gate's normalization: ``shell``, ``write``, ``edit``, ``read``, ``patch``, ``fetch``, ``mcp`` or ``other``.
    ``command`` is set for shell calls, ``paths`` for file calls (workspace-relative where possible).
    """

    tool: str
    kind: str
    command: str | None = None
    paths: tuple[str, ...] = ()
    host: str = ""
    cwd: str = ""
    arguments: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One plugin's vote on a tool call. ``None`` from a hook means the plugin abstains."""

    decision: Decision
    rule: str
    reason: str
    action: str = ""
    #: "invariant" verdicts cannot be overridden by policy allows; "policy" verdicts come from the policy file.
    scope: str = "policy"
    #: "enforce", "monitor" (log, do not block) or "off".
    mode: str = "enforce"
