"""The hooks of the optional semantic layer: the conflict judge and the embedding provider it ranks directives with.

``cuticle_embed`` is the same hook (project ``cuticle``, same name, ``firstresult``) that ``rules.hookspecs`` and
``personality.hookspecs`` declare; tiers may import neither, so the judge's plugin manager reads it from here. A
plugin that implements ``cuticle_embed`` once serves all three.
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "cuticle"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(firstresult=True)
def cuticle_judge_conflict(candidate: str, constraint: str, context: dict) -> Any:
    """Judge whether ``candidate`` (a new memory line) contradicts ``constraint`` (an active user DIRECTIVE or
    DECISION line).

    Return ``{"conflict": bool, "confidence": float in [0, 1], "reason": str}``, or ``None`` to abstain. A judge
    may add ``"tier"`` (a tier name) to demote the candidate; a tier that is not lower than ``context["tier"]``
    is ignored: a judge never promotes a line. ``context`` carries ``tier`` (the candidate's),
    ``constraint_tier``, ``scope`` (of the constraint) and ``relatedness`` (lexical or embedding score). Called
    only in the warm server, only for lines the structural rules allowed although they are related to the
    constraint, at most three per line; the first plugin that answers wins. Must not leave the machine.
    """


@hookspec(firstresult=True)
def cuticle_embed(texts: list[str]) -> Any:
    """Return one embedding vector per text (a list of float sequences of equal length), or ``None``.

    The first plugin that returns a value wins; ``None`` means "no provider here". The judge uses it only to
    rank which directives a line is about (across wording and language), never to decide a contradiction.
    """
