"""The ``[personality]`` table of ``.cuticle/config.toml``, validated (unknown keys are errors)."""

from __future__ import annotations

from tiers.errors import ConfigError
from tiers.record import dataclass, fields

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

EMBEDDERS = ("none", "hashed", "plugin")


@dataclass(frozen=True, slots=True)
class Settings:
    file: str = "INSIGHTS.md"
    output: str = "PERSONALITY.md"
    budget: int = 2000
    #: collision shield: a new insight this similar to an existing one reinforces it instead
    collision_threshold: float = 0.92
    #: insights below this confidence render in the advisory section
    advisory_below: float = 0.6
    decay: bool = False
    #: "none" (lexical only), "hashed" (built-in character n-gram vectors) or "plugin" (a cuticle_embed hook)
    embedder: str = "none"
    max_results: int = 0  # 0 = no cap; the budget decides
    #: weight of lexical relevance: score multiplier is 1 + weight * (normalised BM25 of the query)
    relevance_weight: float = 2.0


_TYPES: dict[str, type | tuple[type, ...]] = {
    "file": str,
    "output": str,
    "budget": int,
    "collision_threshold": (int, float),
    "advisory_below": (int, float),
    "decay": bool,
    "embedder": str,
    "max_results": int,
    "relevance_weight": (int, float),
}


def settings(ws: Any) -> Settings:
    """Validated settings of a workspace (defaults for what the config leaves out)."""
    table = ws.section("personality")
    where = f"{ws.config_path}: [personality]"
    unknown = sorted(set(table) - set(_TYPES))
    if unknown:
        raise ConfigError(f"{where} unknown key {unknown[0]!r}; known keys: {', '.join(sorted(_TYPES))}")
    for key, value in table.items():
        expected = _TYPES[key]
        if isinstance(value, bool) and expected is not bool:
            raise ConfigError(f"{where} {key} must be a number or string, not a boolean")
        if not isinstance(value, expected):
            raise ConfigError(f"{where} {key} has the wrong type ({type(value).__name__})")
    default = {f.name: f.default for f in fields(Settings)}
    s = Settings(**{k: (float(v) if isinstance(default[k], float) else v) for k, v in table.items()})
    if s.budget < 1:
        raise ConfigError(f"{where} budget must be at least 1 token")
    for key in ("collision_threshold", "advisory_below"):
        if not 0.0 <= getattr(s, key) <= 1.0:
            raise ConfigError(f"{where} {key} must be between 0 and 1")
    if s.embedder not in EMBEDDERS:
        raise ConfigError(f"{where} embedder must be one of {', '.join(EMBEDDERS)}")
    if s.max_results < 0 or s.relevance_weight < 0:
        raise ConfigError(f"{where} max_results and relevance_weight must not be negative")
    for key in ("file", "output"):
        value = getattr(s, key)
        if not value or value.startswith("/") or ".." in value.split("/"):
            raise ConfigError(f"{where} {key} must be a path inside the workspace")
    return s
