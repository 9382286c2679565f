"""The pluggy face of governance: the hook implementations the `governance` entry point provides."""

from __future__ import annotations

from typing import Any

from tiers.hookspecs import hookimpl


def _context(context: Any) -> tuple[Any, Any]:
    """(workspace, policy_path) from whatever context the caller passes: a Workspace, a dict or an object."""
    if context is None:
        return None, None
    if hasattr(context, "memory_globs") and hasattr(context, "root"):
        return context, None
    if isinstance(context, dict):
        return context.get("workspace") or context.get("ws"), context.get("policy_path")
    return (getattr(context, "workspace", None) or getattr(context, "ws", None),
            getattr(context, "policy_path", None))


@hookimpl
def cuticle_tool_call_verdict(call: Any, context: Any) -> Any:
    """Vote on a tool call: invariants, then the deny-first policy. Never abstains on a shell or file call."""
    from rules.model import Decision, Verdict

    from .evaluate import evaluate_call

    ws, policy_path = _context(context)
    ev = evaluate_call(call, ws, policy_path=policy_path)
    return Verdict(Decision.ALLOW if ev.decision == "allow" else Decision.DENY, ev.rule, ev.reason, ev.action,
                   ev.scope, ev.mode)


@hookimpl
def cuticle_register_rules() -> list[Any]:
    """Governance adds no lint rules of its own (policy files are checked by `cuticle validate`)."""
    return []
