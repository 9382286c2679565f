"""The embedding-provider hook as personality sees it (mirrors ``rules.hookspecs.cuticle_embed``).

personality may import only ``tiers``, so it declares the same hook (project ``cuticle``, name ``cuticle_embed``,
``firstresult``) itself; a plugin that implements ``cuticle_embed`` once is called by both the rule engine and
personality. Keep the two specs identical (the lead may move the spec down into ``tiers`` later).
"""

from __future__ import annotations


import pluggy

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

PROJECT = "cuticle"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(firstresult=True)
def cuticle_embed(texts: list[str]) -> Any:
    """Return one embedding vector per text (a list of float sequences of equal length), or ``None``.

    The first plugin that returns a value wins; ``None`` means "no provider here" and the caller falls back to
    lexical relevance only. Called by personality retrieval (``[personality] embedder = "plugin"``) with the
    query and the insights' texts, and by the collision shield.
    """
