"""PEP 562 lazy exports, shared by every package's ``__init__``: a public name imports its module on first use."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
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
