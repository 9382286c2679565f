"""Built-in invariants, one per module: what each denies, why, and an example.

Invariants are not policy rules: they run whatever the policy file says, also when it is missing or invalid; a
policy can only set one to ``monitor`` or ``off`` (``invariantModes``). Each module is the invariant's identity and
documentation (the registry the policy validator and the docs read) and its decision logic: functions that judge
one effect or fact the effect model (the ``rules/governance/analyze`` package) found as it walked a command (a
write to a resolved path, a recursive delete, an upload, a push to a branch, tainted text run as code) and return
a :class:`Violation` or None, with the reason the agent sees (``segment``: the index of the segment the effect
belongs to, which the walker passes; -1 is the whole call). The walker resolves paths, working directories and
data flow and reports what the functions return; it decides nothing itself. ``_targets`` routes a change to a
path to the invariant that owns the path (memory files, cuticle's own files, credentials). Each invariant's "How
it is checked" section says where its effects come from.
"""

from __future__ import annotations

from importlib import import_module

from tiers.record import dataclass


@dataclass(frozen=True, slots=True)
class Invariant:
    """One built-in invariant: its id (kebab-case), a one-line summary and its Markdown docs."""

    id: str
    summary: str
    docs: str


@dataclass(frozen=True, slots=True)
class Violation:
    """One invariant a tool call breaks: the invariant's id, the reason the model sees, and the segment (-1: the
    whole call)."""

    invariant: str
    reason: str
    segment: int = -1


#: the modules, in the order the docs list them
MODULES: tuple[str, ...] = (
    "no_recursive_delete",
    "no_permission_escalation",
    "no_network_egress",
    "no_ide_socket_access",
    "no_destructive_sql",
    "script_execution_tracking",
    "no_force_push",
    "no_protected_branch",
    "no_governance_self_modification",
    "no_memory_write_via_shell",
    "no_secret_write",
    "no_infra_destroy",
    "no_gate_control",
)


def all_invariants() -> dict[str, Invariant]:
    """Every invariant by id, read from its module."""
    out = {}
    for name in MODULES:
        inv = import_module(f"{__name__}.{name}").INVARIANT
        out[inv.id] = inv
    return out


__all__ = ["MODULES", "Invariant", "Violation", "all_invariants"]
