"""Every extension point cuticle offers, as pluggy hook specifications of project ``cuticle`` (docs/plugins.md).

One module for all of them, in the lowest layer, so that rules, personality and the judge (tiers) read the same
specs and a plugin that implements a hook once serves every caller. A plugin is any module or object with
``@hookimpl`` functions, installed as an entry point of group ``cuticle``:

- ``cuticle_register_rules`` — lint rules (rules' engine, `cuticle lint`);
- ``cuticle_tool_call_verdict`` — a vote on an agent's tool call (governance, `cuticle evaluate`);
- ``cuticle_embed`` — text embeddings (personality retrieval, the judge's relatedness ranking);
- ``cuticle_judge_conflict`` — a semantic second opinion on a memory line (the judge, warm server only).
"""

from __future__ import annotations

import pluggy

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

PROJECT = "cuticle"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def cuticle_register_rules() -> list[Any]:
    """Return the lint rules this plugin provides (a list of ``rules.engine.Rule``; the engine concatenates all
    lists).

    Called once per plugin manager, the first time rules are needed. Return an empty list to add none. A rule
    whose code or name another plugin already uses is reported (``CU001``) and skipped.
    """


@hookspec
def cuticle_tool_call_verdict(call: Any, context: Any) -> Any:
    """Vote on one tool call (a ``rules.model.ToolCall``) in a policy ``context``.

    Return a ``rules.model.Verdict``, or ``None`` to abstain. Every plugin votes; deny wins at the same scope
    (never ``firstresult``). Called by `cuticle evaluate` and by the gate for the agent's non-memory tool calls.
    """


@hookspec(firstresult=True)
def cuticle_embed(texts: list[str]) -> Any:
    """Return one embedding vector per text (a list of float sequences of equal length), or ``None``.

    The first plugin that returns a value wins; ``None`` means "no provider here" and the caller falls back to
    lexical relevance. Called by personality retrieval (``[personality] embedder = "plugin"``) and the collision
    shield, and by the judge to rank which directives a line is about (never to decide a contradiction).
    """


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
