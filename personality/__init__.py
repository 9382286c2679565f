"""Personality: the Markdown insights file, Chitin-compatible operations, retrieval and PERSONALITY.md rendering.

Public names resolve lazily (PEP 562) so ``import personality`` costs nothing on the hook path.
"""

from __future__ import annotations

from tiers.lazy import lazy_exports

#: public name -> (submodule, attribute). Names never shadow a submodule (``personality.retrieve`` is a module).
_EXPORTS: dict[str, tuple[str, str]] = {
    "Insight": ("model", "Insight"),
    "InsightType": ("model", "InsightType"),
    "InsightsFile": ("store", "InsightsFile"),
    "Provenance": ("model", "Provenance"),
    "archive": ("ops", "archive"),
    "check_insights": ("store", "check"),
    "contribute": ("ops", "contribute"),
    "detect_conflicts": ("tension", "detect_conflicts"),
    "detect_context": ("retrieve", "detect_context"),
    "draft": ("ops", "draft"),
    "embed_all": ("embeddings", "embed_all"),
    "embed_status": ("embeddings", "status"),
    "estimate_tokens": ("render", "estimate_tokens"),
    "export_json": ("ops", "export_json"),
    "find_similar": ("similarity", "find_similar"),
    "hashed_embed": ("similarity", "hashed_embed"),
    "import_json": ("ops", "import_json"),
    "load": ("store", "load"),
    "marshal": ("render", "marshal"),
    "merge": ("ops", "merge"),
    "parse_insights": ("store", "parse"),
    "pending": ("reflect", "pending"),
    "queue_reflection": ("reflect", "queue_reflection"),
    "rank": ("retrieve", "retrieve"),
    "read_chitin_database": ("chitin", "read_database"),
    "reinforce": ("ops", "reinforce"),
    "render_insights": ("store", "render"),
    "render_workspace": ("api", "render_workspace"),
    "restore": ("ops", "restore"),
    "retrieve_workspace": ("api", "retrieve_workspace"),
    "session_start": ("api", "session_start"),
    "settings": ("config", "settings"),
    "stats": ("ops", "stats"),
    "stem": ("text", "stem"),
    "tension_between": ("tension", "tension"),
    "update": ("ops", "update"),
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
