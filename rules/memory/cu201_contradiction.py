"""CU201 contradiction: a memory line contradicts an active user DIRECTIVE or in-scope DECISION.

## What it does
Runs cuticle's arbitration (the same check the gate applies to new lines) on every memory line that is not
itself a DIRECTIVE or DECISION, against the constraints of all memory files: polarity flips, generalizing a
scoped decision, a hypothesis overriding a directive, a different value for the same slot, paraphrases and
translations (EN/RU). Lines contradicting a constraint in the same file and in other files are both reported.

## Why is this bad
The agent reads both lines every session and may follow the wrong one; the user's rule loses to a guess.

## Example
```markdown
- User said: never deploy on Fridays.
- Deploying on Friday afternoons is fine.
```

## Fix safety
No fix: decide which line is right (usually the user's) and delete the other, or ask the user.
"""

from __future__ import annotations

from rules.model import Problem, Severity, rule
from tiers.record import dataclass, field


def _index(ctx):
    return prepare(ctx.run)


def prepare(run):
    """The constraint index of the whole workspace, built once per run (before forking, in a parallel lint)."""
    cache = run.cache
    if "CU201.index" not in cache and run.ws is not None:
        from tiers.arbitrate import ConstraintIndex

        warmed = run.map is not None and run.jobs > 1
        if warmed:
            _warm(run)

        # Indexing classifies every line of every memory file: keep those classifications for this run, so the
        # lines checked below are not classified a second time (a pure function of the text: same tiers).
        cache["CU201.classified"] = classified = {}
        try:
            cache["CU201.index"] = index = ConstraintIndex.from_workspace(run.ws, classified=classified)
            if warmed and len(index):
                # the comparisons load, and the constraints are shaped, before the lint processes fork, not once
                # in each (~25 ms of patterns, ~0.1 ms a constraint)
                import tiers.arbitration.compare  # noqa: F401
                import tiers.arbitration.scope  # noqa: F401

                index.shape_constraints()
        finally:
            if warmed:  # what indexing did not take (lines already memoized here) is dropped
                from tiers.classify import seed_classifications
                from tiers.concepts import seed_analyses

                seed_classifications(())
                seed_analyses(())
    return cache.get("CU201.index")


def _tiers(ctx):
    """(line, tier, scope) of the file's lines to check: not blank, no broken stamp, not a D/C line."""
    from tiers.classify import classify
    from tiers.model import Tier

    out = []
    classified = None
    for line in ctx.memory_lines:
        if not line.body.strip() or line.stamp_error:
            continue
        if line.stamp is not None:
            if line.stamp.state is not None:
                continue
            tier, scope = line.stamp.tier, line.stamp.scope
        else:
            if classified is None:
                _index(ctx)  # built before the first check anyway; it classifies this file's lines
                classified = ctx.run.cache.get("CU201.classified", {})
            c = classified.get(line.content) or classify(line.content)
            tier, scope = c.tier, c.scope
        if tier in (Tier.DIRECTIVE, Tier.DECISION):
            continue
        out.append((line, tier, scope))
    return out


def _warm(run) -> None:
    """Classify every memory line, and analyse the constraints among them, in ``run.jobs`` processes, and keep
    the results in this process's memos: indexing then finds them all there (the processes that lint the files
    afterwards inherit them). The memos hold pure functions of the text, so the index is the same either way."""
    from tiers.classify import seed_classifications
    from tiers.concepts import seed_analyses

    from rules.parallel import balance

    from tiers.arbitrate import indexed_on_disk

    sizes = []
    for path in run.ws.memory_files():
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if not indexed_on_disk(run.ws, run.ws.relpath(path), data):  # else indexing reads it from .cuticle/cache
            sizes.append((len(data), str(path)))
    if not sizes:
        return
    results = run.map(_warm_files, balance(sizes, run.jobs))
    seed_classifications(pair for classified, _ in results for pair in classified)
    seed_analyses(pair for _, analysed in results for pair in analysed)


def _warm_files(paths: list[str]) -> tuple[list, list]:
    """(line content, classification) of every memory line of ``paths``, and (content, analysis) of the
    DIRECTIVE and DECISION lines among them, keyed as indexing asks for them."""
    from tiers.classify import classify
    from tiers.concepts import analyze
    from tiers.fsutil import read_bytes_checked
    from tiers.markdown import parse_document
    from tiers.model import Tier

    classified, analysed = [], []
    for path in paths:
        try:
            doc = parse_document(read_bytes_checked(path))
        except Exception:  # noqa: BLE001 - unreadable here: indexing reports or skips it as usual
            continue
        for ln in doc.memory_lines():
            content = ln.content
            if not content.strip():
                continue
            c = classify(content)
            classified.append((content, c))
            if c.tier in (Tier.DIRECTIVE, Tier.DECISION):
                body = content.strip()
                analysed.append((body, analyze(body)))
    return classified, analysed


def _inputs(run) -> str:
    """What a file's findings depend on beyond the file: every constraint of the workspace (content, place,
    tier, scope, stamp) and the semantic judge, if one is configured. Not the constraints' recorded_at (their
    file's modification time): no check or message uses it, and every append to a file would change it."""
    index = prepare(run)
    if index is None:
        return "no index"
    from rules.cache import digest

    rows = [(c.tier.value, c.id, c.file, c.line, c.content, c.scope, c.stamped, c.session)
            for c in index.constraints]
    judge = index.judge
    return digest(repr(rows), "" if judge is None else f"{type(judge).__qualname__}:{index.judge_threshold}")


@rule("CU201", "contradiction", "Line contradicts a user directive or in-scope decision", Severity.WARNING,
      prepare=prepare, inputs=_inputs)
def check(ctx):
    if ctx.ws is None:
        return
    try:
        from tiers.arbitrate import arbitrate
    except ImportError:  # arbitration is not available in this build
        return
    yield from _problems(ctx, arbitrate)  # the engine runs rules with the cyclic collector paused


def _problems(ctx, arbitrate):
    index = _index(ctx)
    decisions = _decisions(ctx.run, index)
    for line, tier, scope in _tiers(ctx):
        result = decisions.decide(arbitrate, index, line.content, tier, scope, ctx.path)
        if result.decision != "block" or not result.conflicts:
            continue
        cf = result.conflicts[0]
        c = cf.constraint
        text = " ".join(c.content.split())
        shown = text if len(text) <= 80 else text[:77] + "..."
        scope = f" (scope: {c.scope})" if c.scope else ""
        yield Problem(f"{ctx.path}:{line.number}: {tier.name} line contradicts the {c.tier.name} at {c.file}:{c.line} "
                      f"'{shown}'{scope}: {cf.reason.rstrip('.')}; delete this line or ask the user which is right",
                      line.number)


@dataclass(slots=True)
class _Decisions:
    """The arbitrations of one lint run, shared by all its files: a line repeated in the workspace is decided once.

    A decision depends on the line's content, tier and scope, and on its file only where a constraint has the same
    content (arbitration skips a line restating itself in its own file): those lines, and lines holding a comment
    that arbitration's own stamp split may read differently, are decided once per file."""

    restated: frozenset[str]
    done: dict[tuple, object] = field(default_factory=dict)

    def decide(self, arbitrate, index, content: str, tier, scope: str | None, path: str):
        body = content.strip()
        key = (content, tier, scope, path if body in self.restated or "<!--" in body else None)
        result = self.done.get(key)
        if result is None:
            result = self.done[key] = arbitrate(index, content, tier, file=path, scope=scope)
        return result


def _decisions(run, index) -> _Decisions:
    got = run.cache.get("CU201.decided")
    if got is None:
        got = run.cache["CU201.decided"] = _Decisions(frozenset(c.content for c in index.constraints))
    return got
