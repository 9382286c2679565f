"""The memory lint rules, one rule per module, registered through the `cuticle` entry point like any plugin.

The entry point is ``rules.memory.plugin`` (the hook implementation); this package itself imports no pluggy, so
the gate's security scan can load its four rules without the plugin machinery."""

from __future__ import annotations

import importlib

#: Rule modules in code order. A code is never reused: retire a rule by keeping its module and record.
MODULES: tuple[str, ...] = (
    "cu101_malformed_stamp",
    "cu102_tampered_stamp",
    "cu103_expired_hypothesis",
    "cu104_unscoped_decision",
    "cu105_hypothesis_without_expiry",
    "cu106_unverified_user_line",
    "cu107_unverified_directive",
    "cu201_contradiction",
    "cu202_duplicate_line",
    "cu203_near_duplicate",
    "cu301_secret",
    "cu302_memory_poisoning",
    "cu303_invisible_character",
    "cu304_bidi_control",
    "cu401_host_capacity",
    "cu402_daily_note_name",
    "cu403_invalid_frontmatter",
    "cu404_invalid_insights",
    "cu901_unused_suppression",
    "cu902_unknown_suppression",
)
#: The rules the gate runs on every memory write (error severity by default).
SECURITY_MODULES: tuple[str, ...] = (
    "cu301_secret",
    "cu302_memory_poisoning",
    "cu303_invisible_character",
    "cu304_bidi_control",
)


def _load(names: tuple[str, ...]) -> list:
    return [importlib.import_module(f"{__name__}.{n}").RULE for n in names]


def all_rules() -> list:
    """Every memory rule record, in code order."""
    return _load(MODULES)


def security_rules() -> list:
    """The gate's security rules only (imports four modules, not all of them)."""
    return _load(SECURITY_MODULES)
