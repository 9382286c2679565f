"""cuticle's own command line and the package managers that install or remove it: the effects the
``no-gate-control`` invariant judges (a host-side subcommand run from the agent's shell, a change of the cuticle
distribution).
"""

from __future__ import annotations

from tiers.lazy import LazyRe

from ..invariants import no_gate_control


def _dynamic(word: str) -> bool:
    return "$" in word or "…" in word or "`" in word


def cuticle_args(w, how: str, args) -> None:
    """``how`` (the console script, ``python -m gate``) run with ``args``."""
    words = [a for a in args if a not in ("-q", "--quiet")]
    sub = next((a for a in words if not a.startswith("-")), None)
    w.report(no_gate_control.host_command(how, words, dynamic=sub is not None and _dynamic(sub), segment=w.at))


def _h_cuticle(w, tool, argv, cwd, stdin, effects, taints):
    cuticle_args(w, "cuticle", argv[1:])
    return "exec", None


#: package-manager subcommands that change what is installed, by tool (None: the tool's first operand)
_CHANGES = {"install": "installs", "uninstall": "uninstalls", "remove": "uninstalls", "upgrade": "upgrades",
            "reinstall": "reinstalls", "update": "upgrades", "inject": "installs"}
#: options of pip/pipx/uv that take a value (their value is not a requirement)
_VALUED = frozenset({"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "-i",
                     "--index-url", "--extra-index-url", "--python", "-p", "--prefix", "--root", "--src",
                     "--cache-dir", "-f", "--find-links", "--pip-args", "--suffix", "--spec"})


def package_args(w, how: str, args) -> None:
    """``how`` (``pip``, ``uv pip``, ``pipx``…) with ``args``: a change of the cuticle distribution."""
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in _VALUED else 1  # global options before the subcommand
    if k >= len(args):
        return
    sub = args[k]
    if how.endswith("uv") and sub in ("pip", "tool"):
        package_args(w, f"{how} {sub}", args[k + 1:])
        return
    verb = _CHANGES.get(sub)
    if verb is None:
        return
    rest = args[k + 1:]
    j = 0
    while j < len(rest):
        a = rest[j]
        if a.startswith("-"):
            j += 2 if a in _VALUED and "=" not in a else 1
            continue
        if no_gate_control.names_distribution(a) or _dynamic(a):
            if not _dynamic(a) or verb == "uninstalls":
                w.report(no_gate_control.package_change(how, verb, segment=w.at))
                return
        j += 1


def _h_package(w, tool, argv, cwd, stdin, effects, taints):
    package_args(w, tool, argv[1:])
    return "exec", None


def code_imports_gate(code: str) -> bool:
    """Python code that imports cuticle's ``gate`` package (``import gate``, ``from gate.handler import …``,
    ``__import__('gate')``, ``importlib.import_module('gate.x')``, ``runpy.run_module('gate')``)."""
    return bool(_GATE_IMPORT.search(code))


_GATE_IMPORT = LazyRe(r"(?:^|[;\n\s(])(?:from\s+gate(?:\.\w+)*\s+import\b|import\s+(?:[\w.]+\s*,\s*)*gate\b(?!\w))|"
                      r"(?:__import__|import_module|run_module)\s*\(\s*['\"]gate(?:['\".])")
