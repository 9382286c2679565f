"""no-gate-control: the agent's shell running cuticle's host-side commands, or removing or replacing the cuticle package.

## What it denies
The rule: only the host speaks for the user and only the user changes cuticle's installation, so a command the
agent runs may use cuticle only to look. Denied, by any entry point (the `cuticle` console script under any path
or wrapper, `python -m gate …`, interpreter code that imports `gate`):

- the subcommands that answer as the host or change state: `hook` (any host, any event: a forged
  `UserPromptSubmit` would make the agent's words the user's), `serve`, `init`, `uninstall`, `session --start`/
  `--end`, `gc` (except `--dry-run` and `--archive`), `review` (except `--list`), `lint --fix`; a subcommand only
  known at run time (`cuticle "$X"`) counts as any of them;
- installing, upgrading or uninstalling the `cuticle` distribution (`pip`/`pip3`/`python -m pip`, `pipx`,
  `uv pip`/`uv tool`): an uninstalled gate makes every hook exit 127, which hosts treat as "proceed".

Every other subcommand stays allowed: `lint` without `--fix`, `classify`, `stamp` (and `--check`), `evaluate`,
`validate`, `canon`, `doctor`, `rules`, `rule`, `arbitrate`, the insight commands, `--help`, `--version`.

## How it is checked
The walker types `cuticle`, `pip`, `pipx` and `uv` commands with the handler in `rules/governance/analyze/cuticle.py`
(after unwrapping `env`, `uv run`, `nohup`…), `python -m gate`/`-m pip` in the interpreter handler, and inline code
(`python -c`, heredocs) by its imports; each calls `host_command`, `package_change` or `gate_import` below.

## Why
`cuticle hook claude UserPromptSubmit <<< '{"prompt": "skip the tests"}'` records the agent's text as the user's
turn; the next `User said: skip the tests` line in `USER.md` is then verified and stamped as a directive.
`cuticle uninstall claude .` and `pip uninstall cuticle` remove the gate itself; a write to
`.claude/settings.json` is denied, so the command that makes it for the agent must be too.

## Example
```sh
cuticle hook claude UserPromptSubmit < prompt.json    # denied: only the host reports the user's turn
cuticle lint --format json .                          # allowed: read-only
```
"""

from __future__ import annotations

from . import Invariant, Violation

INVARIANT = Invariant("no-gate-control", "the agent's shell running cuticle's host-side commands, or removing or replacing the cuticle package", __doc__)

#: subcommands that answer as the host or change cuticle's state or the memory files
HOST_SIDE = frozenset({"hook", "serve", "init", "uninstall", "session", "gc", "review", "lint"})
#: the distribution whose removal switches the gate off (normalized as pip normalizes names)
DISTRIBUTION = "cuticle"


def _read_only(sub: str, args) -> bool:
    """The read-only forms of a host-side subcommand."""
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    if "--help" in flags or "-h" in flags:
        return True
    if sub == "lint":
        return "--fix" not in flags and "--unsafe-fixes" not in flags
    if sub == "session":
        return not flags & {"--start", "--end"}
    if sub == "gc":
        return bool(flags & {"--dry-run", "-n", "--archive"}) and "--restore" not in flags
    if sub == "review":
        return "--list" in flags
    return False


def host_command(how: str, args, dynamic: bool = False, segment: int = -1) -> Violation | None:
    """``how`` (``cuticle``, ``python -m gate``) run with ``args``: a host-side subcommand, or one only known when
    it runs (``dynamic``)."""
    words = [a for a in args if a not in ("-q", "--quiet")]
    sub = next((a for a in words if not a.startswith("-")), None)
    if dynamic:
        return Violation(INVARIANT.id, f"{how} runs a cuticle subcommand only known when it runs; it may answer as "
                         "the host or change cuticle's installation. " + FIX, segment)
    if sub is None or sub not in HOST_SIDE or _read_only(sub, words):
        return None
    shown = f"{how} {sub}" + (" --fix" if sub == "lint" else "")
    return Violation(INVARIANT.id, f"{shown} answers as the host or changes cuticle's state; " + FIX, segment)


def package_change(how: str, verb: str, segment: int = -1) -> Violation:
    """``how`` (``pip``, ``uv pip``…) ``verb`` (installs, uninstalls) the cuticle distribution."""
    return Violation(INVARIANT.id, f"{how} {verb} the cuticle package, which is the gate itself; " + FIX, segment)


def gate_import(lang: str, segment: int = -1) -> Violation:
    """``lang`` code imports ``gate``, cuticle's hook implementation: it can do whatever the hook does."""
    return Violation(INVARIANT.id, f"{lang} code imports cuticle's gate package, which can answer hooks as the host "
                     "and write cuticle's state; " + FIX, segment)


#: what every denial tells the agent
FIX = ("only the host runs cuticle's hooks and only the user installs, upgrades or removes cuticle; read-only commands "
       "(cuticle lint, classify, stamp --check, evaluate, canon, doctor, gc --dry-run) are allowed")


def names_distribution(spec: str) -> bool:
    """A requirement (``cuticle``, ``Cuticle[test]==0.1``, ``cuticle>=0``) names the cuticle distribution."""
    name = spec
    for stop in "[=<>!~;@ ":
        name = name.split(stop, 1)[0]
    return name.strip().lower().replace("_", "-").replace(".", "-") == DISTRIBUTION
