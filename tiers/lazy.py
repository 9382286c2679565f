"""Things made on first use: PEP 562 lazy exports for every package's ``__init__`` (a public name imports its module
on first use) and :class:`LazyRe`, the one lazy-pattern type (a regex compiled when a line first needs it)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_exports(package: str, namespace: dict[str, Any],
                 exports: Mapping[str, str | tuple[str, str]]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: each name maps to a submodule (``"stamps"``) or to a submodule
    and attribute (``("ops", "import_json")``); a resolved value is cached in the package's ``namespace``."""

    def __getattr__(name: str) -> Any:
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = (target, name) if isinstance(target, str) else target
        # __import__ rather than importlib.import_module: the hook's client imports `tiers` before importlib
        value = getattr(__import__(f"{package}.{module}", fromlist=[attr]), attr)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__


#: the pattern methods a LazyRe keeps in its own slots once compiled (read without a __getattr__ call)
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyRe:
    """A ``re.Pattern`` stand-in that compiles itself the first time it is used: the one lazy-pattern type.

    Each hook call is a fresh process and most calls need few of the project's patterns, so a module-level pattern
    is a LazyRe and costs nothing until a line needs it. ``expand`` (optional) rewrites the source just before it
    is compiled (the concept analysis spells out ``\\p{Lu}`` there). ``re`` itself is imported on first use: the
    hook's forwarding client imports ``tiers`` and must not pay for it."""

    __slots__ = ("_args", "_expand", "_re", *_METHODS)

    def __init__(self, pattern: str | bytes, flags: int = 0, *, expand: Callable[[str], str] | None = None) -> None:
        self._args = (pattern, flags)
        self._expand = expand
        self._re = None

    def on(self) -> re.Pattern:
        """The compiled pattern (compiled now if it was not yet)."""
        rx = self._re
        if rx is None:
            import re

            pattern, flags = self._args
            rx = re.compile(self._expand(pattern) if self._expand is not None else pattern, flags)
            for method in _METHODS:
                setattr(self, method, getattr(rx, method))
            self._re = rx
        return rx

    @property
    def compiled(self) -> bool:
        """Whether the pattern has been compiled (in this process)."""
        return self._re is not None

    def __getattr__(self, name: str) -> Any:
        # called only for a name without a value: a method before the first use, or an attribute the slots lack
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.on(), name)

    def __repr__(self) -> str:
        return f"LazyRe({self._args[0]!r}, {self._args[1]!r})"
