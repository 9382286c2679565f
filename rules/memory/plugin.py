"""The memory rules' pluggy hook implementation: what the ``cuticle`` entry point ``memory`` names."""

from __future__ import annotations

from tiers.hookspecs import hookimpl

from . import all_rules


@hookimpl
def cuticle_register_rules() -> list:
    return all_rules()
