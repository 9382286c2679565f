"""The pluggy plugin manager: loads rule families and policy plugins from the `cuticle` entry-point group.

Our own families (``rules.memory.plugin``, ``rules.governance``) are entry points exactly like a third party's, so
they go through the same path. Each entry point is loaded on its own: one that fails to import, crashes while
registering rules, or returns something that is not a :class:`~rules.engine.Rule` is recorded as a
:class:`PluginFailure` (reported as a ``CU001`` finding by lint) instead of stopping the run.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from tiers.errors import PluginError
from tiers.record import dataclass, field

log = logging.getLogger(__name__)

GROUP = "cuticle"


@dataclass(frozen=True, slots=True)
class PluginFailure:
    """A plugin that could not be used: its entry-point name, what it points at, and why."""

    plugin: str
    target: str
    reason: str

    def to_error(self) -> PluginError:
        return PluginError(f"plugin {self.plugin!r} ({self.target}): {self.reason}")


@dataclass
class Registry:
    """The rules of every loaded plugin, keyed by code, and the plugins that failed."""

    rules: dict[str, Any] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    plugins: list[str] = field(default_factory=list)

    def failure_findings(self) -> list[Any]:
        from .engine import INTERNAL_RULES, Finding, Severity

        r = INTERNAL_RULES[1]
        return [
            Finding(r.code, r.name, Severity.ERROR, f"<plugin:{f.plugin}>", 1, 1,
                    f"plugin {f.plugin!r} ({f.target}) failed: {f.reason}; its rules did not run "
                    f"(reinstall or uninstall it)")
            for f in self.failures
        ]


_lock = threading.Lock()
_manager: Any = None
_manager_failures: list[PluginFailure] = []
_registry: Registry | None = None


def _entry_points() -> list[Any]:
    """Every installed `cuticle` entry point, sorted by name.

    Read straight from the ``entry_points.txt`` of the distributions on ``sys.path`` (:func:`_scan_entry_points`):
    importing :mod:`importlib.metadata` and building a Distribution per installed package costs tens of
    milliseconds per `cuticle lint`. Anything the direct read does not handle (a zip archive on ``sys.path``, a
    custom distribution finder) falls back to :func:`importlib.metadata.entry_points`.
    """
    eps = _scan_entry_points()
    if eps is None:
        from importlib.metadata import entry_points

        eps = list(entry_points(group=GROUP))
    return sorted(eps, key=lambda ep: ep.name)


class _EntryPoint:
    """The part of :class:`importlib.metadata.EntryPoint` the manager uses: name, value, group and load()."""

    __slots__ = ("name", "value", "group")

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name = name
        self.value = value
        self.group = group

    def load(self) -> Any:
        """Import the module and resolve ``module:attr.attr`` exactly as importlib.metadata does."""
        import functools
        import importlib
        import re

        match = re.match(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$", self.value)
        module = importlib.import_module(match.group("module"))  # type: ignore[union-attr]
        attrs = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attrs, module)

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _scan_entry_points(group: str = GROUP) -> list[_EntryPoint] | None:
    """The ``group`` entry points of the distributions on ``sys.path``, exactly as
    ``importlib.metadata.entry_points(group=...)`` lists them (path order; per directory, distributions grouped by
    normalized name in directory order; the first distribution of a name wins). None when something only
    importlib.metadata reads is present: another distribution finder, a zip or egg on the path, an unusual
    dist-info name, or an entry_points.txt importlib.metadata would reject."""
    import os
    import re
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return None
    seen: set[str] = set()
    out: list[_EntryPoint] = []
    for entry in sys.path:
        root = entry or "."
        if os.path.basename(root).lower().endswith(".egg"):
            return None
        try:
            children = os.listdir(root)
        except NotADirectoryError:
            return None  # a zip archive
        except OSError:
            continue  # missing directories and path-hook placeholders hold no distributions
        by_name: dict[str, list[str]] = {}
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                by_name.setdefault(re.sub(r"[-_.]+", "_", low.rpartition(".")[0].partition("-")[0]), []).append(child)
        for child in (c for group_children in by_name.values() for c in group_children):
            stem, ext = os.path.splitext(child)
            if ext not in (".dist-info", ".egg-info"):
                return None  # importlib.metadata would name it from its METADATA
            key = stem.partition("-")[0]
            if key in seen:
                continue
            seen.add(key)
            try:
                with open(os.path.join(root, child, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError):
                continue  # no entry points (or an .egg-info file, not a directory)
            eps = _parse_entry_points(text, group)
            if eps is None:
                return None
            out.extend(eps)
    return out


def _parse_entry_points(text: str, group: str) -> list[_EntryPoint] | None:
    """The ``[group]`` entries of an entry_points.txt, read as importlib.metadata reads it (stripped lines, ``#``
    comments, ``[section]``, ``name = value``); None for a line it would reject."""
    out: list[_EntryPoint] = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        if "=" not in line:
            return None
        if section == group:
            name, value = line.split("=", 1)
            out.append(_EntryPoint(name.strip(), value.strip(), group))
    return out


def new_plugin_manager(entry_points: list[Any] | None = None) -> tuple[Any, list[PluginFailure]]:
    """A fresh pluggy PluginManager with every `cuticle` entry point that loads; failures are returned.

    ``entry_points`` replaces the installed ones (tests pass their own).
    """
    import pluggy

    from . import hookspecs

    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    failures: list[PluginFailure] = []
    for ep in _entry_points() if entry_points is None else entry_points:
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, never fatal
            log.warning("cuticle plugin %s failed to load: %s", ep.name, exc)
            failures.append(PluginFailure(ep.name, getattr(ep, "value", "?"), f"{type(exc).__name__}: {exc}"))
    return pm, failures


def get_plugin_manager() -> Any:
    """The process-wide plugin manager (created on first use). Policy code calls its hooks, e.g.
    ``get_plugin_manager().hook.cuticle_tool_call_verdict(call=..., context=...)``."""
    global _manager, _manager_failures
    with _lock:
        if _manager is None:
            _manager, _manager_failures = new_plugin_manager()
        return _manager


def plugin_failures() -> list[PluginFailure]:
    """Plugins that failed to load into the process-wide manager."""
    get_plugin_manager()
    return list(_manager_failures)


def collect_rules(pm: Any, failures: list[PluginFailure] | None = None) -> Registry:
    """Call every plugin's ``cuticle_register_rules`` on its own and validate what it returns."""
    from .engine import INTERNAL_DOCS, Rule

    reg = Registry(failures=list(failures or []))
    owners: dict[str, str] = {code: "cuticle" for code in INTERNAL_DOCS}
    names: dict[str, str] = {}
    for impl in pm.hook.cuticle_register_rules.get_hookimpls():
        plugin = pm.get_name(impl.plugin) or repr(impl.plugin)
        reg.plugins.append(plugin)
        try:
            got = impl.function()
        except Exception as exc:  # noqa: BLE001 - isolate the plugin
            reg.failures.append(PluginFailure(plugin, "cuticle_register_rules",
                                              f"crashed: {type(exc).__name__}: {exc}"))
            continue
        if got is None:
            continue
        if not isinstance(got, (list, tuple)):
            reg.failures.append(PluginFailure(plugin, "cuticle_register_rules",
                                              f"returned {type(got).__name__}, expected a list of rules"))
            continue
        for item in got:
            if not isinstance(item, Rule):
                reg.failures.append(PluginFailure(plugin, "cuticle_register_rules",
                                                  f"returned {type(item).__name__}, not a rules.engine.Rule"))
                continue
            if item.code in owners:
                reg.failures.append(PluginFailure(plugin, item.code,
                                                  f"rule code {item.code} is already used by {owners[item.code]}"))
                continue
            if item.name in names:
                reg.failures.append(PluginFailure(plugin, item.code,
                                                  f"rule name {item.name!r} is already used by {names[item.name]}"))
                continue
            owners[item.code] = plugin
            names[item.name] = item.code
            if not item.plugin:
                object.__setattr__(item, "plugin", plugin)
            reg.rules[item.code] = item
    return reg


def load_registry(*, refresh: bool = False) -> Registry:
    """The rules of all installed plugins (cached for the process; ``refresh`` reloads)."""
    global _registry, _manager, _manager_failures
    with _lock:
        if refresh:
            _registry = None
            _manager = None
        if _registry is not None:
            return _registry
    pm = get_plugin_manager()
    reg = collect_rules(pm, _manager_failures)
    with _lock:
        _registry = reg
    return reg
