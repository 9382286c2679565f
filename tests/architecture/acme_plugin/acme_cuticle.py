"""acme_cuticle: a third-party plugin for cuticle, implementing every extension point (docs/plugins.md).

- a lint rule, ACM001: a memory line that still says TODO;
- a tool-call vote: deny `terraform apply` (Acme applies only from CI);
- an embedder: two-dimensional vectors, "infrastructure" vs everything else;
- a judge: a line that prefers tabs contradicts a directive about spaces.
"""

from rules.engine import Problem, Rule, Severity
from rules.model import Decision, Verdict
from tiers.hookspecs import hookimpl


def check_todo(ctx):
    """Pure generator over the file's lines: one problem per memory line that still holds a TODO."""
    for line in ctx.lines:
        if line.is_memory and "TODO" in line.text:
            yield Problem("TODO left in memory; resolve it or move it to a task list", line.number,
                          line.text.index("TODO") + 1)


@hookimpl
def cuticle_register_rules():
    return [Rule("ACM001", "todo-in-memory", "A memory line still says TODO", Severity.WARNING, check_todo,
                 docs="## What it does\nFlags TODO markers left in memory.")]


@hookimpl
def cuticle_tool_call_verdict(call, context):
    if call.kind == "shell" and call.command and "terraform apply" in call.command:
        return Verdict(Decision.DENY, "acme-apply-from-ci", "Acme applies Terraform only from CI; open a pull request")
    return None  # abstain: cuticle's own governance decides everything else


@hookimpl
def cuticle_embed(texts):
    infra = ("terraform", "deploy", "server")
    return [[1.0, 0.0] if any(w in t.lower() for w in infra) else [0.0, 1.0] for t in texts]


@hookimpl
def cuticle_judge_conflict(candidate, constraint, context):
    if "tabs" in candidate.lower() and "spaces" in constraint.lower():
        return {"conflict": True, "confidence": 0.95, "reason": "tabs vs the user's spaces"}
    return None
