"""Which invariant a change to a path breaks: the judgments three invariants share, because the path decides which.

A write, delete or link effect on a memory file breaks ``no-memory-write-via-shell``, on the policy, ``.cuticle/``
or a hook setting ``no-governance-self-modification`` (``Env.protected`` says which), on a credential file
``no-secret-write``. Each invariant's own module holds its documentation and its fix text; this module only routes
an effect to the invariant that owns its path.
"""

from __future__ import annotations


from ..paths import PACK_FIX, PACK_WHAT
from . import Violation
from . import no_governance_self_modification as _gov
from . import no_memory_write_via_shell as _mem
from . import no_secret_write as _cred

#: invariant id -> what its denials tell the agent to do instead
FIXES: dict[str, str] = {_gov.INVARIANT.id: _gov.FIX, _mem.INVARIANT.id: _mem.FIX, _cred.INVARIANT.id: _cred.FIX}


def protected_write(env, ref, how: str, verb: str = "writes", segment: int = -1) -> Violation | None:
    """``how`` (a redirection, ``tee``, ``rm``…) ``verb`` (writes, deletes…) ``ref``, a memory file or one of
    cuticle's own files."""
    hit = env.protected(ref)
    if not hit:
        return None
    inv, what = hit
    return Violation(inv, f"{how} {verb} {what}; " + (PACK_FIX if what.endswith(f"({PACK_WHAT})") else FIXES[inv]),
                     segment)


def link_to(env, tool: str, targets, segment: int = -1) -> Violation | None:
    """``tool`` (``ln``, ``cp -l``/``-s``) makes a link to a file ``targets`` name (the link's target as it
    resolves and as the command's directory names it): a second, unguarded name for a protected file, cuticle's
    key or token, or a credential file."""
    hit = None
    for sref in targets:
        hit = env.protected(sref)
        if hit is None and env.is_state_secret(sref):
            hit = (_gov.INVARIANT.id, f"{sref.display} (cuticle's stamp key or token)")
        if hit or env.is_secret(sref):
            break
    else:
        return None
    if hit:
        return Violation(hit[0], f"{tool} links to {hit[1]}: whatever is written through the link changes it, and "
                         "reads through it are reads of it; copy the content instead (cp without -l/-s), or link an "
                         "ordinary file", segment)
    return Violation(_cred.INVARIANT.id, f"{tool} links to the credential file {sref.display}; " + _cred.FIX, segment)


def unknown_stash(env, ref, how: str, cwd_hint: str | None, segment: int = -1) -> Violation | None:
    """``git stash pop/apply`` (``how``) of a stash whose files could not be listed: it may write any tracked
    file (``ref``: the repository's ``$(…)``), so it counts as every protected path in reach."""
    v = unknown_target(env, ref, how, "writes", cwd_hint)
    if v is None:
        return None
    return Violation(v.invariant, f"{how} writes whatever the stash holds, which cuticle cannot see and may include "
                     "memory or cuticle's files; list it with `git stash show --name-only` and restore the other files "
                     "with `git checkout stash@{0} -- FILE`", segment)


def unknown_update(env, how: str, why: str, tracked: str | None, ref, cwd_hint: str | None,
                   segment: int = -1) -> Violation | None:
    """``how`` updates the work tree from commits whose files cannot be listed now (``why``): it may write any file
    the repository tracks. ``tracked``: the first protected path the repository tracks ("" none: nothing to deny;
    None: git could not list them, so every protected path in reach of ``ref``, the work tree's ``$(…)``, counts)."""
    if tracked == "":
        return None
    if tracked is None:
        v = unknown_target(env, ref, how, "writes", cwd_hint)
        if v is None:
            return None
        inv, what = v.invariant, "memory or cuticle's files"
    else:
        found = env.protected(env.norm(tracked, env.root))
        if found is None:
            return None
        inv, what = found
    return Violation(inv, f"{how} writes files cuticle cannot list before it runs ({why}), and the repository "
                     f"tracks {what}; fetch first (`git fetch`), list what would change with `git diff --name-only "
                     "HEAD...REV`, and update from a commit that leaves them alone, or ask the user to run it",
                     segment)


def unknown_program_arg(env, ref, head: str, segment: int = -1) -> Violation | None:
    """``head``, a program only known when it runs (``"$EDITOR"``), is handed ``ref``, a protected or credential
    file: it may change it."""
    hit = env.protected(ref)
    if hit:
        inv, what = hit
        return Violation(inv, f"{head} is a program only known when it runs, and it is handed {what}; it may change "
                         "it. " + FIXES[inv], segment)
    if env.is_credential(ref):
        return Violation(_cred.INVARIANT.id, f"{head} is a program only known when it runs, and it is handed the "
                         f"credential file {ref.display}; " + _cred.FIX, segment)
    return None


def unknown_target(env, ref, how: str, verb: str, cwd_hint: str | None, instead: str = "",
                   segment: int = -1) -> Violation | None:
    """A target known only as a pattern (a variable from the environment, a substitution, a glob, interpreter code
    that computes a path) counts as every protected path it could name: the violation of the first one.

    A pattern of glob characters only is expanded against the disk now, as the shell will (no match: the word stays
    literal); any other is matched against the protected paths in reach (``Env.reach``). ``instead``: what the
    reason offers instead (by default, naming the target literally)."""
    pattern = ref.abs if ref.scope == "ws" and ref.abs else ref.display
    if ref.scope != "unknown" and "$" not in pattern and "`" not in pattern and "(…)" not in pattern:
        import glob  # only a command with a glob target expands it

        hit = None
        for found in sorted(glob.glob(pattern))[:500]:
            fref = env.norm(found, None)
            if env.protected(fref) or env.is_credential(fref) or env.is_state_secret(fref):
                hit = fref.display
                break
    else:
        hit = env.reach(pattern, None if ref.scope == "ws" else cwd_hint)
    if hit is None:
        return None
    found = env.protected(env.norm(hit, env.root))
    inv, what = found if found else (_cred.INVARIANT.id, f"{hit} (a credential file)")
    shown = ref.display.replace("$(…)", "$(...)")
    return Violation(inv, f"{how} {verb} {shown}, which is only known when it runs and may be {what}; "
                     + (instead or "name the target literally (a path outside memory files, cuticle's files and "
                        "credentials is allowed)")
                     + ("; " + FIXES[inv] if inv == _mem.INVARIANT.id else ""), segment)
