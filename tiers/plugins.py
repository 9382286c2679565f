"""The one way cuticle builds a pluggy plugin manager: every spec of :mod:`tiers.hookspecs`, the plugins passed in,
and the installed entry points of group ``cuticle`` (read with :func:`importlib.metadata.entry_points`).

Each entry point is loaded on its own: one that fails to import or to register is returned as a
:class:`PluginFailure` (lint reports it as ``CU001``; the judge and personality log it) instead of stopping the run.
Rules, personality and the judge all call :func:`new_plugin_manager`, so a plugin that implements several hooks is
loaded the same way for each of them.
"""

from __future__ import annotations

from .record import dataclass

from .errors import PluginError

__all__ = ["GROUP", "PluginFailure", "installed_entry_points", "new_plugin_manager", "other_entry_points"]

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


def other_entry_points(own: frozenset[str] = frozenset({"cuticle"})) -> list:
    """The installed entry points of group ``cuticle`` whose distribution is not named in ``own``.

    ``importlib.metadata`` (and the email, zipfile and socket modules it imports) costs a hook call more than the
    rest of its check, to find out in the common case that no other distribution is installed. So it is asked only
    when :func:`_others_may_declare` sees a distribution that could answer; that look is a superset of what
    ``importlib.metadata`` searches (see there), so it never hides a plugin."""
    if not _others_may_declare(own):
        return []
    return [ep for ep in installed_entry_points() if getattr(getattr(ep, "dist", None), "name", None) not in own]


def _others_may_declare(own: frozenset[str]) -> bool:
    """False only when no distribution ``importlib.metadata`` can find declares an entry point of group ``cuticle``,
    except those named in ``own``: it finds distributions through the finders of ``sys.meta_path`` (only the
    standard path finder is understood here; any other one that can list distributions answers True), as
    ``*.dist-info`` / ``*.egg-info`` directories of the ``sys.path`` directories (a zip file or an ``.egg`` on the
    path answers True), each with its entry points in ``entry_points.txt`` and its name in the ``Name:`` header of
    ``METADATA`` or ``PKG-INFO``. Anything unreadable answers True."""
    import os
    import sys

    for finder in sys.meta_path:
        standard = (getattr(finder, "__name__", "") == "PathFinder"
                    and getattr(finder, "__module__", "") == "_frozen_importlib_external")
        if getattr(finder, "find_distributions", None) is not None and not standard:
            return True
    for entry in sys.path:
        if not isinstance(entry, str):
            return True
        entry = entry or "."
        if entry.endswith(".egg"):
            return True
        try:
            names = os.listdir(entry)
        except NotADirectoryError:
            return True  # a zip file on the path
        except OSError:
            continue  # a missing directory holds no distribution
        for name in names:
            low = name.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry, name, "entry_points.txt"), "rb") as fh:
                    declared = fh.read()
            except (FileNotFoundError, NotADirectoryError):
                continue  # no entry points (or an .egg-info file: PKG-INFO alone)
            except OSError:
                return True
            if GROUP.encode() in declared and _dist_name(os.path.join(entry, name)) not in own:
                return True
    return False


def _dist_name(path: str) -> str | None:
    """The ``Name:`` header of a distribution's metadata (None when it cannot be read)."""
    import os

    for meta in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(path, meta), "rb") as fh:
                head = fh.read(64 * 1024)
        except FileNotFoundError:
            continue
        except OSError:
            return None
        for line in head.decode("utf-8", "replace").splitlines():
            if not line.strip():
                break  # the end of the headers
            if line.lower().startswith("name:"):
                return line[5:].strip()
        return None
    return None


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
            import logging  # only to report a broken plugin: the hook path never imports it

            logging.getLogger(__name__).warning("cuticle plugin %s failed to load: %s", ep.name, exc)
            failures.append(PluginFailure(ep.name, getattr(ep, "value", "?"), f"{type(exc).__name__}: {exc}"))
    return pm, failures
