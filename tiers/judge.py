"""An optional local semantic judge for arbitration's grey zone, plugged in through a pluggy hook.

The lexical and concept layers decide every line on their own. A plugin may add a second opinion for lines the
local layer let through although they are related to a constraint (for example a small local NLI or embedding
model shipped inside a wheel). It is **off by default**: only ``[tiers] judge = true`` in ``.cuticle/config.toml``
loads plugins, from the entry-point group ``cuticle.judge``. cuticle itself ships no model and never downloads
one; a judge must work offline. A judge can only add blocks (never lift a local block), and any error in it is
logged and ignored (fail-open), so a broken plugin cannot lose the user's memory or stall the gate.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from .errors import ConfigError

__all__ = ["ENTRY_POINT_GROUP", "JudgeSpec", "Verdict", "judge_from_config", "load_judge"]

log = logging.getLogger(__name__)

PROJECT = "cuticle"
ENTRY_POINT_GROUP = "cuticle.judge"
DEFAULT_THRESHOLD = 0.8

#: (candidate line, constraint line, context) -> {"conflict": bool, "confidence": float, "reason": str} | None
Verdict = dict[str, Any]


def _spec_class():
    import pluggy

    hookspec = pluggy.HookspecMarker(PROJECT)

    class JudgeSpec:
        """Hook specifications of the optional arbitration judge."""

        @hookspec(firstresult=True)
        def cuticle_judge_conflict(self, candidate: str, constraint: str, context: dict) -> Verdict | None:
            """Judge whether ``candidate`` (a new memory line) contradicts ``constraint`` (an active user
            DIRECTIVE or DECISION line).

            Return ``{"conflict": bool, "confidence": float in [0, 1], "reason": str}``, or ``None`` to abstain.
            ``context`` carries ``tier`` (the candidate's), ``constraint_tier``, ``scope`` (of the constraint)
            and ``relatedness`` (the local layer's coverage score). Called only for lines the local layer
            allowed although they are related to the constraint, at most three per line; the first plugin
            that answers wins. Must not use the network.
            """

    return JudgeSpec


def __getattr__(name: str):
    if name == "JudgeSpec":
        return _spec_class()
    raise AttributeError(name)


def load_judge(plugins: list[Any] | None = None, *, entry_points: bool = True) -> Callable | None:
    """A callable ``judge(candidate, constraint, context) -> Verdict | None`` over the registered plugins."""
    import pluggy

    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(_spec_class())
    for plugin in plugins or ():
        pm.register(plugin)
    if entry_points:
        try:
            pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, not fatal
            log.warning("judge plugins not loaded: %s", exc)
    if not pm.get_plugins():
        return None

    def judge(candidate: str, constraint: str, context: dict) -> Verdict | None:
        return pm.hook.cuticle_judge_conflict(candidate=candidate, constraint=constraint, context=context)

    return judge


def judge_from_config(ws) -> tuple[Callable | None, float]:
    """The judge the workspace enables (``[tiers] judge = true``) and its confidence threshold; (None, t) if off."""
    section = ws.section("tiers")
    enabled = section.get("judge", False)
    threshold = section.get("judge_threshold", DEFAULT_THRESHOLD)
    if not isinstance(enabled, bool):
        raise ConfigError(f"{ws.config_path}: [tiers] judge must be true or false, not {enabled!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
        raise ConfigError(f"{ws.config_path}: [tiers] judge_threshold must be a number in (0, 1], not {threshold!r}")
    if not enabled:
        return None, float(threshold)
    return load_judge(), float(threshold)
