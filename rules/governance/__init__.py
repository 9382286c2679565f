"""Governance of the agent's other tool calls: shell canonicalization, six action types, deny-first policy,
invariants and self-protection (the `governance` rule family, loaded through the `cuticle` entry point).

Public names resolve lazily so the hook imports only what a decision needs (no PyYAML for the starter policy,
no pluggy unless a plugin manager asks for the hook implementations).
"""

from __future__ import annotations

from tiers.lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "INVARIANTS": "analyze",
    "STARTER_POLICY": "policy",
    "Analysis": "analyze",
    "Canonical": "canon",
    "Evaluation": "evaluate",
    "Finding": "evaluate",
    "Policy": "policy",
    "analyze_command": "analyze",
    "canonicalize": "canon",
    "cuticle_register_rules": "plugin",
    "cuticle_tool_call_verdict": "plugin",
    "evaluate_call": "evaluate",
    "effective_policy": "policy",
    "evaluate_command": "evaluate",
    "fail_safe_policy": "policy",
    "load_policy": "policy",
    "load_policy_file": "policy",
    "log_decision": "evaluate",
    "parse": "shell",
    "policy_status": "policy",
    "starter_policy": "policy",
    "validate_policy_file": "policy",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
