"""script-execution-tracking: downloaded, decoded or computed code executed.

## What it denies
Denies downloaded or decoded content run as code: `curl … | sh`, `bash <(curl …)`, `eval "$(… | base64 -d)"`,
a file downloaded earlier in the same command and then run, `python3 -c "exec(base64.b64decode(…))"`, hex- or
`pack`-decoded code (`bytes.fromhex`, `perl -e 'eval pack "H*", …'`), and a command name that comes from such
content. An unknown program named by a variable (`"$EDITOR" notes.txt`, `$PYTHON -m pytest`) is not one of
these: it is an ordinary exec.

## How it is checked
The walker (`rules/governance/analyze`) follows taint (fetched or decoded output) through pipes, variables and
files written earlier in the command; the functions below give the denial where tainted text becomes code, and
for a call too large or too deeply nested to inspect.

## Why
Code that nobody read, fetched or unpacked at run time, is the usual way a prompt injection becomes an action.

## Example
```sh
echo ZWNobyB4 | base64 -d | sh   # denied
$PYTHON -m pytest                # allowed
```
"""

from __future__ import annotations

from . import Invariant, Violation

INVARIANT = Invariant("script-execution-tracking", "downloaded, decoded or computed code executed", __doc__)


def tainted_script(via: str, taint: str, segment: int = -1) -> Violation:
    """``via`` (``sh -c``, ``eval``, ``bash``…) runs a script whose text was fetched or decoded (``taint``)."""
    return Violation(INVARIANT.id, f"{via} runs {taint}ed content as a script; save it to a file, review it, then "
                     "run it", segment)


def tainted_source(how: str, taint: str, segment: int = -1) -> Violation:
    """``source <(curl …)`` / ``. <(… | base64 -d)``: the current shell runs fetched or decoded text."""
    return Violation(INVARIANT.id, f"{how} runs a script straight from {taint}ed content; download it, review it, "
                     "then run it", segment)


def tainted_stdin(how: str, taint: str, segment: int = -1) -> Violation:
    """``source /dev/stdin`` with fetched or decoded text on stdin."""
    return Violation(INVARIANT.id, f"{how} runs {taint}ed stdin", segment)


def downloaded_run(display: str, segment: int = -1) -> Violation:
    """The command runs ``display``, a file this same command line downloaded (``curl -o x.sh … && sh x.sh``)."""
    return Violation(INVARIANT.id, f"runs {display}, which this command just downloaded; review the file first",
                     segment)


def script_from_stream(tool: str, segment: int = -1) -> Violation:
    """A shell runs its script from a process substitution or ``/dev/stdin`` that carries fetched or decoded text
    (``bash <(curl …)``)."""
    return Violation(INVARIANT.id, f"{tool} runs a script straight from the network or a decoder; download it, "
                     "review it, then run it", segment)


def piped_into(tool: str, taint: str, segment: int = -1) -> Violation:
    """Fetched or decoded text is piped into a shell or interpreter that runs it (``curl … | sh``)."""
    return Violation(INVARIANT.id, f"pipes {taint}ed content into {tool}; download to a file, review it, then run it",
                     segment)


def code_from_network(tool: str, segment: int = -1) -> Violation:
    """An interpreter runs a program file that is a process substitution of fetched text (``python <(curl …)``)."""
    return Violation(INVARIANT.id, f"{tool} runs code straight from the network; download it, review it, then run "
                     "it", segment)


def tainted_code(tool: str, taint: str, segment: int = -1) -> Violation:
    """An interpreter's inline code (``-c``, ``-e``) is fetched or decoded text."""
    return Violation(INVARIANT.id, f"{tool} runs {taint}ed code; save it, review it, then run it", segment)


def code_fetches_and_runs(lang: str, segment: int = -1) -> Violation:
    """Inline ``lang`` code that both fetches content and executes code (``exec(urlopen(…).read())``)."""
    return Violation(INVARIANT.id, f"{lang} code fetches content and executes it; download it, review it, then run "
                     "it", segment)


def code_decodes_and_runs(lang: str, segment: int = -1) -> Violation:
    """Inline ``lang`` code that both decodes a payload and executes code (``exec(base64.b64decode(…))``)."""
    return Violation(INVARIANT.id, f"{lang} code decodes a payload and executes it", segment)


def tainted_command_name(taint: str, segment: int = -1) -> Violation:
    """The name of the command to run comes from fetched or decoded content (``$(curl …) args``)."""
    return Violation(INVARIANT.id, f"runs a command whose name comes from {taint}ed content; download or decode to "
                     "a file, review it, then run it", segment)


def too_many_commands(limit: int, segment: int = -1) -> Violation:
    """More than ``limit`` commands in one call: what is past the limit is not inspected, so the call is denied."""
    return Violation(INVARIANT.id, f"more than {limit} commands in one call; cuticle cannot inspect them all. "
                     "Split the work into smaller commands", segment)


def too_deep(segment: int = -1) -> Violation:
    """Substitutions and nested shells deeper than the walker follows: the innermost ones are not inspected."""
    return Violation(INVARIANT.id, "commands nested too deeply to inspect; run them directly", segment)
