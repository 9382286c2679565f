"""Rules: pluggy hookspecs, the rule engine, and the rule families (memory lint, shell canon, policy, invariants)."""

__all__: list[str] = []
