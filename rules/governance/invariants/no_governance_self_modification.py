"""no-governance-self-modification: writes to the policy, .cuticle/ or a host's hook settings; any read of the stamp key or server token.

## What it denies
Denies every write, delete, move, link or in-place edit of cuticle's own files: the policy (`chitin.yaml` or
the configured path), everything under `.cuticle/`, and the hosts' hook settings (`.claude/settings*.json`,
`.codex/`, `.gemini/settings.json`, `.cursor/hooks.json`, `.github/hooks/`, `.git/hooks/`, `.git/config` and
`~/.gitconfig` (git runs commands from them), OpenClaw's config and extensions, and the MCP server lists
`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.gemini/mcp.json`: each entry is a command the host starts;
Gemini CLI extensions and `~/.claude/plugins/`), and the hosts' agent, command and skill files
(`.claude/agents|commands|skills/`, `.github/agents|prompts|skills/`, `.gemini/agents|commands|skills/`,
`.agents/skills/`, the same under `~/`: their frontmatter can declare hooks, tool permissions and MCP servers, so
the shell writes none of them and a file tool only one whose declarations stay as they were, `pack_write`),
by any command, through any spelling the effect model resolves (globs, braces, variables,
substitutions, `cd` chains, functions, aliases, interpreter code, archives and patches; `git clean` deletes what
`git clean -n` lists with the same flags, ignored files included with `-x`/`-X`, so it reaches `.cuticle/key`;
git work-tree updates write what git would change from the other commits). Settings that make git run other
hooks or load settings cuticle cannot see (`core.hooksPath`, `include.path`, `GIT_CONFIG_GLOBAL=FILE`,
`GIT_EXEC_PATH`) are denied too.
Also denies any read of
the stamp key (`.cuticle/key`) or the local server's token (`.cuticle/serve.json`) by any command, whole-tree
readers that would include them (`tar -c .`, `cp -r .`, `grep -r . .`) unless they exclude `.cuticle`, and links
to them.

## How it is checked
Writes, deletes and links are effects the walker (`rules/governance/analyze`) resolves to paths and
`protected_write` / `unknown_target` (`_targets.py`) judge; `state_secret_read` below judges every word a command
reads (a substitution whose output is known, such as `$(echo … | base64 -d)`, is that output; a name decoded only
at run time is `hidden_name`; a glob in interpreter code is matched as the shell matches it), `tree_read` and `state_dir_read` the commands that read a whole directory.

## Why
An agent that can change the policy or the hooks can turn the gate off; one that can read the key can forge
stamps that make its own lines look like the user's.

## Example
```sh
cd .cuticle && sort key                   # denied: a read of the key
tar -czf /tmp/ws.tgz --exclude=.cuticle .   # allowed
```
"""

from __future__ import annotations

from ..paths import STATE_SECRETS, _pattern_regex, is_pattern
from . import Invariant, Violation

INVARIANT = Invariant("no-governance-self-modification", "writes to the policy, .cuticle/ or a host's hook settings; any read of the stamp key or server token", __doc__)

#: what every denied write of this invariant tells the agent
FIX = ("the policy, cuticle's state and hook settings are changed only by the user (cuticle init / editing the file "
       "by hand)")


def state_secret_read(env, ref, text: str, how: str, cwd_hint: str | None, segment: int = -1) -> Violation | None:
    """A shell read of the stamp key or the server token: ``ref`` is one (``cat .cuticle/key``), or ``text`` is
    a pattern that names one of them and not every file (``cat .cu*/ke?``; a ``find`` listing counts, it lists
    them all). ``cwd_hint``: the working directory a pattern outside the workspace is relative to."""
    if env.is_state_secret(ref):
        shown = ref.display
    elif is_pattern(text) and ref.scope in ("ws", "unknown"):
        pattern = ref.abs if ref.scope == "ws" and ref.abs else ref.display
        rx = _pattern_regex(pattern, None if ref.scope == "ws" else cwd_hint)
        if rx is None or (rx.match(env.root + "/zz-cuticle-probe/unrelated.txt") and "$(find)" not in text):
            return None  # matches anything: no more the key than any other file (a find lists them all)
        hits = [x for x in (env.root + "/" + s for s in STATE_SECRETS) if rx.match(x)]
        if not hits:
            return None
        shown = f"{text} (= {hits[0][len(env.root) + 1:]})"
    else:
        return None
    return Violation(INVARIANT.id, f"{how} reads {shown}, cuticle's stamp key or server token; with it an agent "
                     "could forge stamps or answers, so only cuticle itself reads it", segment)


def hidden_name(tool: str, segment: int = -1) -> Violation:
    """``tool`` is handed a name decoded only when it runs (``cat $(base64 -d < n)``): a name hidden on purpose
    counts as the stamp key."""
    return Violation(INVARIANT.id, f"{tool} is handed a name that is decoded only when it runs, which may be "
                     "cuticle's stamp key or server token; name the file literally", segment)


def key_path_built(lang: str, segment: int = -1) -> Violation:
    """Inline ``lang`` code joins ``.cuticle`` and ``key`` / ``serve.json`` into the path of a state secret."""
    return Violation(INVARIANT.id, f"{lang} code builds the path of cuticle's stamp key or server token; only "
                     "cuticle itself reads them", segment)


def hooks_path(segment: int = -1) -> Violation:
    """``git config core.hooksPath …`` points git at other hooks than the installed ones."""
    return Violation(INVARIANT.id, "git config core.hooksPath redirects git hooks; hooks are cuticle's, leave them "
                     "alone", segment)


def unseen_programs(how: str, what: str, segment: int = -1) -> Violation:
    """``how`` makes git run programs cuticle cannot see (``what``): hooks copied from a template directory
    (``git init/clone --template``), commands from an exec path (``git --exec-path=DIR``), a command-valued setting
    whose value is only known when it runs (``git --config-env=core.fsmonitor=VAR``)."""
    return Violation(INVARIANT.id, f"{how} makes git run {what}, which cuticle cannot see before they run; leave "
                     "it out, or ask the user", segment)


def config_include(key: str, segment: int = -1) -> Violation:
    """``git config include.path FILE``: git then loads settings cuticle cannot see, any of which may be a command
    git runs (``core.fsmonitor``) or a hooks path."""
    return Violation(INVARIANT.id, f"git config {key} makes git load settings from another file, which may hold "
                     "commands git runs or a hooks path; set the settings you need directly", segment)


def state_dir_read(tool: str, display: str, segment: int = -1) -> Violation:
    """``tool`` reads what is inside the ``.cuticle`` directory (``display``), the key and the token with it."""
    return Violation(INVARIANT.id, f"{tool} reads {display}/, which holds cuticle's stamp key and server token; "
                     "only cuticle itself reads them", segment)


def tree_read(tool: str, display: str, segment: int = -1) -> Violation:
    """``tool`` reads every file under ``display``, a directory holding ``.cuticle/`` (an archive, a recursive
    copy, a grep whose pattern matches the key's hex)."""
    return Violation(INVARIANT.id, f"{tool} reads everything under {display}, cuticle's stamp key and server token "
                     "included; exclude them (--exclude=.cuticle / --exclude-dir=.cuticle) or name the files you need",
                     segment)


def file_tool_write(tool: str, op: str, what: str) -> Violation:
    """A file tool (``Write``, ``Edit``, ``apply_patch``…) that writes, deletes or moves onto ``what``, one of
    cuticle's own files. (Shell commands are checked by the effect model as it walks them.)"""
    verb = {"delete": "deletes", "move": "moves a file onto"}.get(op, "writes")
    return Violation(INVARIANT.id, f"{tool} {verb} {what}; the policy, cuticle's state and hook settings are "
                     "changed only by the user")


def pack_write(call, op: str, ref, what: str) -> Violation | None:
    """A file tool's write of ``ref``, a host's agent, command or skill file: a whole-file write (``content``)
    that changes what the file declares to the host (``tiers.hostfiles.changed_controls``) or a delete of one
    that declares something. Edits and patches are compared by the gate, which applies them as the host would."""
    from tiers.hostfiles import changed_controls

    args = call.arguments if isinstance(call.arguments, dict) else {}
    new = args.get("content", args.get("file_text"))
    if op != "delete" and not isinstance(new, str):
        return None
    old = ""
    if ref.abs:
        try:
            with open(ref.abs, encoding="utf-8", errors="surrogateescape") as fh:
                old = fh.read()
        except (OSError, ValueError):
            old = ""
    changed = changed_controls(old, "" if op == "delete" else new, ref.rel or ref.display)
    if not changed:
        return None
    verb = "deletes" if op == "delete" else "writes"
    return Violation(INVARIANT.id, f"{call.tool} {verb} {what}, and changes what it declares to the host "
                     f"({'; '.join(changed)[:120]}); hooks, tool permissions, MCP servers and commands run on load are "
                     "the user's to set: write the file without them, or ask the user")


def state_secret_touch(effects, tool: str) -> Violation | None:
    """The first effect of a call, by any tool, on the stamp key or the server token (a path ending in
    ``.cuticle/key`` or ``.cuticle/serve.json``, wherever the workspace is)."""
    for eff in effects:
        if eff.kind != "path" or not eff.target:
            continue
        target = eff.target.rstrip("/").lower()
        if ".cuticle/" in target and any(target == s or target.endswith("/" + s) for s in STATE_SECRETS):
            verb = "reads" if eff.type == "read" else "touches"
            return Violation(INVARIANT.id, f"{tool} {verb} {eff.target}, cuticle's stamp key or server token; with "
                             "it an agent could forge stamps or answers, so only cuticle itself reads it")
    return None
