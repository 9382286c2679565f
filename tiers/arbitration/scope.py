"""Scoped DECISIONs: a candidate that restates a decision's choice without its scope, or for a wider one."""

from __future__ import annotations

from ..concepts import Analysis, analyze, lexicon
from .compare import _w

#: Share of a scoped decision's choice a candidate must restate to generalize it.
CHOICE_MIN = 0.5
#: At most this share of a restatement may be new material before it counts as a different claim.
NOVEL_MAX = 0.34
KIND_VALUE = 1.6
ENV_SCOPE = frozenset({"PROD", "STAGING", "PREVIEW", "LOCAL_DEV", "MAIN_BRANCH", "FEATURE_BRANCH", "MOBILE_APP",
                       "WEB", "BACKEND", "DESKTOP_APP", "PROTOTYPE"})


def _scope_choices(k: Analysis, scope: str) -> tuple[Analysis, set[str], list[tuple[dict[str, float], float]],
                                                       frozenset[str], frozenset[str]]:
    """What a scoped decision chooses, clause by clause (its own content minus the scope): (the scope's analysis,
    its concept ids, [(choice -> weight, total weight)], every choice key, the values of the "v:" keys).
    Depends on the constraint only."""
    lx = lexicon()
    scope_a = analyze(scope)
    scope_ids = {x for cl in scope_a.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    choices = []
    for kc in k.clauses:
        if kc.exception:
            continue
        ch: dict[str, float] = {}
        for x in kc.direct:
            if x in scope_ids or lx.kind.get(x) in {"generic"} or x in {"BEFORE_X", "AFTER_X", "MONTH", "QUARTER"}:
                continue
            ch[x] = _w(x)
        for slot, v, sg in kc.values:
            if sg > 0 and slot not in {"DAY", "DATE", "TIME", "MONTH_V", "DOM", "DAYPART"}:
                ch["v:" + v] = KIND_VALUE
        if not ch:
            continue
        choices.append((ch, sum(ch.values())))
    keys = frozenset(x for ch, _ in choices for x in ch)
    return scope_a, scope_ids, choices, keys, frozenset([x[2:] for x in keys if x.startswith("v:")])


def scope_generalization(c: Analysis, k: Analysis, scope: str) -> bool:
    """Whether ``c`` restates the choice of the scoped decision ``k`` without ``scope`` or beyond it."""
    lx = lexicon()
    scope_a, scope_ids, choices, _, _ = _scope_choices(k, scope)
    c_vals = {v for _, v, sg in c.values if sg > 0}
    choice: dict[str, float] = {}
    best = 0.0
    for ch, total in choices:
        got = sum(w for x, w in ch.items() if x in c.concepts or (x.startswith("v:") and x[2:] in c_vals))
        cov = got / total
        if cov > best:
            best, choice = cov, ch
    if best < CHOICE_MIN:
        return False
    # The choice itself must be named: a tool, a value, a name, not only generic actions.
    if not any((x in c.concepts and (lx.kind.get(x) in {"value", "object"} or x.startswith("w:")))
               or (x.startswith("v:") and x[2:] in c_vals) for x in choice):
        return False
    c_ids = {x for cl in c.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    if c.universal:
        return True
    scope_when = {(s, v) for s, v, sg in scope_a.values if sg > 0 and s in {"MONTH_V", "DATE", "DAY", "DOM"}}
    if scope_when and scope_when & {(s, v) for s, v, sg in c.values if sg > 0}:
        return False  # "until the end of January" kept as "in January"
    env_scope = scope_ids & ENV_SCOPE
    env_c = {x for x in c_ids if x in ENV_SCOPE}
    if env_scope and env_c and not (env_c & env_scope):
        return True  # "Docker Compose only for local development" -> "production runs on Docker Compose"
    if scope_ids:
        sw = sum(_w(x) for x in scope_ids)
        kept = sum(_w(x) for x in scope_ids if x in c.concepts)
        if kept / sw > 0.5 or (scope_ids & c_ids & ENV_SCOPE):
            return False
    novel = [x for x in c_ids if x not in choice and x not in scope_ids and not lx.slot_of.get(x)]
    return len(novel) / max(len(c_ids), 1) <= NOVEL_MAX


