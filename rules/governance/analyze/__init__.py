"""From a parsed command to what it does: unwrapped segments, action types, effects and invariant violations.

Every simple command is looked through (sudo, env, timeout, nohup, nice, command, exec, xargs, find -exec,
``sh -c``, eval, interpreters' ``-c``/``-e`` code that shells out) and typed read / write / exec / git / net /
dangerous. Each segment carries its effects (``write`` of a path, ``net`` to a host, ``git`` on a branch…) for the
policy, and as it goes the walker hands each effect to the invariant that judges it (``rules/governance/invariants``:
recursive deletes outside allowed dirs, permission escalation, egress, IDE sockets, destructive SQL, dynamic script
execution, force pushes and protected branches, and writes to memory, the policy, cuticle's state or hook settings)
and records the violations they return.

The package is split along what each part decides: ``model`` (the records), ``tools`` (the tool vocabulary),
``walker`` (the walk itself), ``wrappers``, ``handlers`` (tool -> handler), ``files``, ``find``, ``git``,
``archives``, ``awk``, ``interp`` (interpreter one-liners and nested shells), ``net``, ``sql``, ``reads`` (tree
readers and the stamp key), ``text`` (echo/printf values) and ``words`` (argument helpers).
"""

from __future__ import annotations

from .model import Analysis, Effect, Flow, INVARIANTS, Options, RANK, SEGMENT_ORDER, Segment, TYPES, action_of
from .walker import Walker, analyze_command

__all__ = ["INVARIANTS", "RANK", "SEGMENT_ORDER", "TYPES", "Analysis", "Effect", "Flow", "Options", "Segment",
           "Walker", "action_of", "analyze_command"]
