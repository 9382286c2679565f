"""CU103 expired-hypothesis: a HYPOTHESIS whose TTL ran out is still in the file.

## What it does
Compares each HYPOTHESIS stamp's expiry (`~N`, the last session it is live in) with the workspace's current
session counter. Lines past their expiry that are still active are reported.

## Why is this bad
Hypotheses are the agent's own guesses; they are kept for a few sessions only. An expired one keeps steering
the agent as if it were still relevant. GC normally removes them at session end; this catches files GC has not
seen (edited by hand, restored from git, or a host without session events).

## Example
```markdown
- Probably the CI cache is stale. <!--cu:Habcde@2~4#mmmmmm-->
```
with the workspace in session 7.

## Fix safety
Safe: the line is moved into cuticle's GC archive (recoverable with `cuticle gc --restore ID`), exactly as
session-end GC would do. No other line is touched. Only lines whose stamp passes the keyed check get the fix
(GC never removes what cuticle did not stamp).
"""

from __future__ import annotations

from rules.model import Applicability, Edit, Fix, Problem, Severity, rule


def _current_session(ws):
    from tiers.session import current_session

    return current_session(ws)


def _inputs(run) -> str:
    """What the verdicts depend on beyond the file: the current session and the stamp key."""
    from rules.memory.cu102_tampered_stamp import stamp_key_digest

    return f"{_current_session(run.ws) if run.ws is not None else 0}:{stamp_key_digest(run)}"


@rule("CU103", "expired-hypothesis", "Hypothesis past its expiry is still present", Severity.WARNING,
      fix=Applicability.SAFE, inputs=_inputs)
def check(ctx):
    from tiers.model import Tier

    candidates = [line for line in ctx.stamp_lines if line.stamp is not None and line.stamp.tier is Tier.HYPOTHESIS
                  and line.stamp.expires is not None and line.stamp.state is None]
    if not candidates or ctx.ws is None:
        return
    now = _current_session(ctx.ws)
    key = ctx.ws.key if ctx.ws.state_path("key").exists() else None
    from tiers.stamps import verify_stamp

    for line in candidates:
        if line.stamp.expires >= now:
            continue
        if key is None or not verify_stamp(line.stamp, line.content, key):
            # GC only removes what cuticle stamped; a stamp that fails the keyed check is CU102's finding
            yield Problem(f"{ctx.path}:{line.number}: hypothesis expired after session {line.stamp.expires} (now "
                          f"{now}) but its stamp cannot be verified, so GC will not remove it; delete the line "
                          f"by hand", line.number)
            continue
        fix = Fix("move the expired hypothesis into the GC archive",
                  (Edit(line.number, None, line.text, archive=True),), Applicability.SAFE)
        yield Problem(f"{ctx.path}:{line.number}: hypothesis expired after session {line.stamp.expires} (now "
                      f"{now}) but is still here; run `cuticle gc` or `cuticle lint --fix` to archive it",
                      line.number, fix=fix)
