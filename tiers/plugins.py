"""The one way cuticle builds a pluggy plugin manager: every spec of :mod:`tiers.hookspecs`, the plugins passed in,
and the installed entry points of group ``cuticle`` (read with :func:`importlib.metadata.entry_points`).

Each entry point is loaded on its own: one that fails to import or to register is returned as a
:class:`PluginFailure` (lint reports it as ``CU001``; the judge and personality log it) instead of stopping the run.
Rules, personality and the judge all call :func:`new_plugin_manager`, so a plugin that implements several hooks is
loaded the same way for each of them.
"""

from __future__ import annotations

import logging
from .record import dataclass

from .errors import PluginError

log = logging.getLogger(__name__)

__all__ = ["GROUP", "PluginFailure", "installed_entry_points", "new_plugin_manager"]

#: the entry-point group every plugin is installed under (tiers.hookspecs.PROJECT is the pluggy project name;
#: hookspecs is imported only when a manager is built, since it imports pluggy)
GROUP = "cuticle"


@dataclass(frozen=True, slots=True)
class PluginFailure:
    """A plugin that could not be used: its entry-point name, what it points at, and why."""

    plugin: str
    target: str
    reason: str

    def to_error(self) -> PluginError:
        return PluginError(f"plugin {self.plugin!r} ({self.target}): {self.reason}")


def installed_entry_points() -> list:
    """Every installed entry point of group ``cuticle``, sorted by name (the first distribution of a name wins)."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=GROUP), key=lambda ep: ep.name)


def new_plugin_manager(plugins=(), *, entry_points=None) -> tuple:
    """``(manager, failures)``: a fresh pluggy PluginManager with every hook spec, ``plugins`` registered first,
    then each entry point that loads (``entry_points`` replaces the installed ones; ``()`` loads none)."""
    import pluggy

    from . import hookspecs

    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for plugin in plugins:
        pm.register(plugin)
    failures: list[PluginFailure] = []
    for ep in installed_entry_points() if entry_points is None else entry_points:
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            pm.register(ep.load(), name=ep.name)
        except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, never fatal
            log.warning("cuticle plugin %s failed to load: %s", ep.name, exc)
            failures.append(PluginFailure(ep.name, getattr(ep, "value", "?"), f"{type(exc).__name__}: {exc}"))
    return pm, failures
