"""The pluggy plugin manager: loads rule families and policy plugins from the `cuticle` entry-point group.

Our own families (``rules.memory.plugin``, ``rules.governance``) are entry points exactly like a third party's, so
they go through the same path. Each entry point is loaded on its own: one that fails to import, crashes while
registering rules, or returns something that is not a :class:`~rules.engine.Rule` is recorded as a
:class:`PluginFailure` (reported as a ``CU001`` finding by lint) instead of stopping the run.
"""

from __future__ import annotations

import threading
from tiers.record import dataclass, field

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

from tiers.plugins import GROUP, PluginFailure
from tiers.plugins import new_plugin_manager as _new_manager

__all__ = ["GROUP", "PluginFailure", "Registry", "collect_rules", "get_plugin_manager", "load_registry",
           "new_plugin_manager", "plugin_failures"]


@dataclass
class Registry:
    """The rules of every loaded plugin, keyed by code, and the plugins that failed."""

    rules: dict[str, Any] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    plugins: list[str] = field(default_factory=list)

    def failure_findings(self) -> list[Any]:
        from .model import INTERNAL_RULES, Finding, Severity

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


def new_plugin_manager(entry_points: list[Any] | None = None) -> tuple[Any, list[PluginFailure]]:
    """A fresh plugin manager with every installed `cuticle` plugin that loads (``entry_points`` replaces the
    installed ones: tests pass their own); failures are returned."""
    return _new_manager(entry_points=entry_points)


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
    from .model import INTERNAL_DOCS, Rule

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


# -- tool-call votes of other plugins ------------------------------------------------------------------------
_verdict_manager: Any = None


def _third_party_manager() -> Any:
    """A plugin manager of the installed `cuticle` entry points that other distributions provide (cuticle's own
    governance decides first, in rules.governance; its lint rules are not needed to vote), made once per process;
    False when there are none."""
    global _verdict_manager
    with _lock:
        if _verdict_manager is None:
            from tiers.plugins import other_entry_points

            eps = other_entry_points(frozenset({"cuticle"}))
            if eps:
                _verdict_manager, failures = _new_manager(entry_points=eps)
                _verdict_manager.cuticle_failures = failures
            else:
                _verdict_manager = False  # no other plugin installed: no pluggy import on the hook path
        return _verdict_manager


def plugin_verdicts(call: Any, context: Any, pm: Any = None) -> list[tuple[str, Any]]:
    """``(plugin, Verdict)`` for every vote other plugins cast on ``call`` (``pm``: their manager; default the
    installed third-party plugins). Abstentions are left out. In the policy layer a plugin that crashes, or that
    answers something other than a ``rules.model.Verdict``, votes deny; so does a plugin that failed to load."""
    from .model import Decision, Verdict

    pm = _third_party_manager() if pm is None else pm
    if pm is False:
        return []
    votes: list[tuple[str, Any]] = [
        (f.plugin, Verdict(Decision.DENY, "plugin-error", f"the cuticle plugin {f.plugin!r} failed to load "
                           f"({f.reason}); fix or uninstall it", scope="invariant"))
        for f in getattr(pm, "cuticle_failures", ())]
    for impl in pm.hook.cuticle_tool_call_verdict.get_hookimpls():
        name = pm.get_name(impl.plugin) or repr(impl.plugin)
        try:
            got = impl.function(call=call, context=context)
        except Exception as exc:  # noqa: BLE001 - a crashing policy plugin is a deny, never a silent allow
            got = Verdict(Decision.DENY, "plugin-error", f"the cuticle plugin {name!r} crashed on this call "
                          f"({type(exc).__name__}); fix or uninstall it", scope="invariant")
        if got is None:
            continue
        if not isinstance(got, Verdict):
            got = Verdict(Decision.DENY, "plugin-error", f"the cuticle plugin {name!r} answered "
                          f"{type(got).__name__}, not a rules.model.Verdict", scope="invariant")
        votes.append((name, got))
    return votes


def overruled(ev: Any, call: Any, context: Any, mask: Any, pm: Any = None) -> Any:
    """``ev`` (a governance Evaluation) with the other plugins' votes applied: deny wins, so an allowed call that
    any plugin denies in ``enforce`` mode becomes a deny naming that plugin (``mask`` is applied to its reason).
    A denied call stays denied. Returns ``ev`` itself when nothing changes."""
    from tiers.record import replace

    if ev.decision != "allow":
        return ev
    for name, v in plugin_verdicts(call, context, pm):
        if v.decision.value == "deny" and v.mode == "enforce":
            return replace(ev, decision="deny", rule=f"{name}:{v.rule}", scope=v.scope,
                           reason=mask(f"{v.reason} (plugin {name})"))
    return ev
