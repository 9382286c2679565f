"""The `cuticle` command: one entry point, thin subcommands over the library packages.

Only the named subcommand's module is imported, so `cuticle hook …` (run on every agent write) pays for
nothing else. Exit codes are one table for every subcommand (docs/cli.md):

    0  success: allowed, clean, or only warnings
    1  a result the caller must act on: a write blocked, a command denied, error-severity findings
    2  usage or configuration error (bad arguments, invalid config or policy, unreadable input)
    3  internal error (a bug in cuticle; hooks fail open instead and exit per their host's dialect)
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs start-up time on the hook path
if TYPE_CHECKING:  # argparse is imported only when a command line needs a parser
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn


__version__ = "0.1.0"

#: subcommand -> (module under gate.commands, one-line help). Order is the order of `cuticle --help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "the 60-second tour: every surface run on a copy of a workspace"),
    # memory model
    "classify": ("classify", "classify memory lines into tiers"),
    "stamp": ("classify", "show or verify the stamps of memory files"),
    "arbitrate": ("arbitrate", "decide whether a new memory line conflicts with the user's directives"),
    "gc": ("gc", "collect expired hypotheses and decisions and superseded lines (recoverable)"),
    "session": ("gc", "show or advance the workspace session counter"),
    "review": ("review", "review blocked, archived, unverified and expiring lines one at a time"),
    # gate
    "hook": ("hook", "answer one host hook call read from stdin"),
    "serve": ("serve", "serve hook requests from a long-lived local process"),
    "init": ("init", "set up a workspace and install the hook into a host"),
    "uninstall": ("uninstall", "remove what init added to a host's configuration (memory untouched)"),
    "doctor": ("doctor", "check the installation and run a canary write"),
    # linter
    "lint": ("lint", "lint memory files"),
    "rules": ("lint", "list every rule"),
    "rule": ("lint", "print the documentation of one rule"),
    # governance
    "evaluate": ("govern", "explain the policy decision for a tool call without running it"),
    "validate": ("govern", "validate a policy file"),
    "canon": ("govern", "canonicalize a shell command"),
    # personality
    "contribute": ("personality", "add an insight (conflict check, collision shield)"),
    "get": ("personality", "show one insight"),
    "update": ("personality", "change fields of an insight"),
    "reinforce": ("personality", "reinforce an insight"),
    "archive": ("personality", "archive an insight (soft, restorable)"),
    "restore": ("personality", "restore an archived insight"),
    "list": ("personality", "list insights"),
    "stats": ("personality", "insight statistics"),
    "similar": ("personality", "find insights similar to a claim"),
    "merge": ("personality", "merge two insights"),
    "retrieve": ("personality", "retrieve the insights relevant to a query"),
    "render": ("personality", "render PERSONALITY.md within a token budget"),
    "export": ("personality", "export insights as Chitin-compatible JSON"),
    "import": ("personality", "import insights from Chitin JSON or Chitin's SQLite database"),
    "reflect": ("personality", "the pending-reflection queue"),
    "embed": ("personality", "compute the configured embedder's vectors for every insight"),
    "embed-status": ("personality", "show the configured embedder and how many insights have vectors"),
}


def _load(name: str):
    module, _ = COMMANDS[name]
    # __import__ rather than importlib.import_module: the importlib package (and warnings) is not loaded yet
    return __import__(f"gate.commands.{module}", fromlist=["run"])


def _build_parser(only: str | None) -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="cuticle",
        description="A Markdown-file-native memory gate and linter for AI agents.",
        epilog="Exit codes: 0 ok, 1 blocked/denied/error findings, 2 usage or config error, 3 internal error.",
    )
    parser.add_argument("--version", action="version", version=f"cuticle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.subcommands = {}  # name -> its configured parser (the docs tests read every option from it)
    for name, (_, help_text) in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        parser.subcommands[name] = p
        p.add_argument("--quiet", "-q", action="store_true",
                       help="print results only: no summaries, hints or progress")
        try:
            _load(name).configure(p, name)
        except ModuleNotFoundError as exc:
            if not exc.name or not exc.name.startswith("gate.commands"):
                raise
    return parser


def load_site() -> None:
    """Finish the interpreter's start-up when it was run without ``site`` (the installed hook command,
    ``gate/cuticle_hook.py``): the environment's site-packages and their ``.pth`` files, and the directory that
    holds cuticle (a user or editable install keeps it outside the environment's own site-packages). Does nothing
    in an interpreter that ran ``site`` itself, and nothing the second time."""
    if not sys.flags.no_site or "site" in sys.modules:
        return
    import os
    import site

    site.main()
    site.addsitedir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _hook_args(argv: list[str]) -> _HookArgs | None:
    """``hook HOST [EVENT] [--no-server]`` parsed without building a parser (the hook runs on every agent write;
    argparse and its help machinery are a measurable part of a cold call). Anything else returns None and goes
    through argparse, which owns the errors and the help text."""
    if not argv or argv[0] != "hook":
        return None
    rest = argv[1:]
    no_server = "--no-server" in rest
    words = [a for a in rest if a != "--no-server"]
    if not 1 <= len(words) <= 2 or any(w.startswith("-") for w in words):
        return None
    return _HookArgs(words[0], words[1] if len(words) == 2 else None, no_server)


class _HookArgs:
    """The parsed ``hook`` command line (what argparse would give the command's ``run``)."""

    command = "hook"

    def __init__(self, host: str, event: str | None, no_server: bool) -> None:
        self.host, self.event, self.no_server = host, event, no_server


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _hook_args(argv)
    if args is None:
        load_site()  # argparse's errors and help may name any subcommand's options
        first = next((a for a in argv if not a.startswith("-")), None)
        only = first if first in COMMANDS else None
        parser = _build_parser(only)
        args = parser.parse_args(argv)
        if not args.command:
            parser.print_help()
            return 0
    if args.command != "hook":
        load_site()  # the hook loads it only when it answers in-process (gate.commands.hook)
    if getattr(args, "quiet", False):
        from gate.commands import _common

        _common.QUIET = True
    try:
        module = _load(args.command)
    except ModuleNotFoundError:
        print(f"cuticle: '{args.command}' is not available in this build", file=sys.stderr)
        return 2
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the CLI is the one place that turns bugs into exit codes
        from tiers.errors import CuticleError  # imported when needed: a forwarded hook call never loads tiers

        from tiers.secrets import mask_secrets  # an error message never repeats a secret it quotes

        if isinstance(exc, CuticleError):
            print(f"cuticle: {mask_secrets(str(exc))}", file=sys.stderr)
            return exc.exit_code
        print(f"cuticle: internal error: {type(exc).__name__}: {mask_secrets(str(exc))}", file=sys.stderr)
        return 3


def console() -> NoReturn:
    """The ``cuticle`` program: :func:`main`, then a quick exit.

    A lint or classification of a large workspace leaves hundreds of thousands of objects alive (parsed lines,
    classifications, analyses, the constraint index); an ordinary interpreter exit frees them one by one and runs
    a last cyclic collection over them, a third of a cold 10,000-line lint's time (benchmarks/lint_speed.py) for
    memory the operating system takes back anyway. Every command has written and closed its files by the time
    ``main`` returns (rewrites are atomic ``with`` blocks; children and servers are joined in ``finally``), so once
    standard output and error are flushed the process ends with ``os._exit``. ``main`` itself returns normally,
    for callers in Python (the tests).

    For the same reason the cyclic garbage collector is off for the whole of a short-lived command (reference
    counting still frees what a command drops, and cuticle makes almost no cycles): its full collections would
    walk those objects again and again for nothing to free. ``cuticle serve`` lives for hours and keeps it on."""
    import os

    first = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
    if first != "serve":
        import gc

        gc.disable()
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``cuticle lint | head``): what it read is all it wanted
        pass
    except OSError:
        code = code or 3
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
