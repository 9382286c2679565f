"""The pluggy hook specifications of project ``cuticle``: how rule families and third-party plugins plug in."""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "cuticle"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def cuticle_register_rules() -> list[Any]:
    """Return the lint rules this plugin provides (a list of rule objects; the engine concatenates all lists).

    Called once per plugin manager, the first time rules are needed. Return an empty list to add none.
    """


@hookspec
def cuticle_tool_call_verdict(call: Any, context: Any) -> Any:
    """Vote on one tool call (a ``rules.model.ToolCall``) in a policy ``context``.

    Return a ``rules.model.Verdict``, or ``None`` to abstain. Every plugin votes; deny wins at the same scope
    (never ``firstresult``). Called by the gate for every tool call it sees and by ``cuticle evaluate``.
    """


@hookspec(firstresult=True)
def cuticle_embed(texts: list[str]) -> Any:
    """Return one embedding vector per text (a list of float sequences of equal length), or ``None``.

    The first plugin that returns a value wins. Used by personality retrieval and similarity when configured.
    """
