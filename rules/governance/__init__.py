"""Governance of the agent's other tool calls: shell canonicalization, six action types, deny-first policy,
invariants and self-protection (the `governance` rule family, loaded through the `cuticle` entry point).

Public names resolve lazily so the hook imports only what a decision needs (no PyYAML for the starter policy,
no pluggy unless a plugin manager asks for the hook implementations).
"""

from __future__ import annotations

import importlib
from typing import Any

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
    "evaluate_command": "evaluate",
    "load_policy": "policy",
    "load_policy_file": "policy",
    "log_decision": "evaluate",
    "mask": "masking",
    "parse": "shell",
    "starter_policy": "policy",
    "validate_policy_file": "policy",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rules.governance' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
