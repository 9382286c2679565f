"""awk programs: the files they print to (``print > f``), computed where the target is a literal or a variable
set from one, unknown otherwise.
"""

from __future__ import annotations

import re

from tiers.record import field
from tiers.lazy import LazyRe

from ..canon import tool_name
from ..paths import DEVICES, PathRef
from .model import Effect, RANK, _flow
from .tools import INTERPRETERS, SHELLS

def _h_awk(w: Walker, tool, argv, cwd, stdin, effects, taints):
    """awk: the program's output redirections (``print > EXPR``, ``>>``, ``| "cmd"``), ``system()`` and
    ``"cmd" | getline`` are what it writes and runs. EXPR is evaluated as far as it is known: string literals,
    variables set by ``-v``, by an operand ``name=value`` or by a literal assignment in the program, ``FILENAME``
    (the input files), concatenations and parentheses; an unknown part (a field, ``NR``) stands for anything, so
    ``print > ("build/split-" NR ".txt")`` reaches only ``build/split-*.txt``."""
    from ..content import read_text

    args = argv[1:]
    values: dict[str, list[str | None]] = {}
    program: str | None = None
    program_file = False
    inplace = False
    files: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-v", "--assign") or a.startswith(("-v", "--assign=")):
            assign = nxt if a in ("-v", "--assign") else a[2:] if a.startswith("-v") else a.split("=", 1)[1]
            name, eq, value = assign.partition("=")
            if eq:
                values.setdefault(name, []).append(value)
            i += 2 if a in ("-v", "--assign") else 1
            continue
        if a in ("-f", "--file", "-E", "--exec") or a.startswith(("--file=", "--exec=")):
            path = nxt if "=" not in a else a.split("=", 1)[1]
            ref = w.env.norm(path, cwd)
            effects.append(Effect("read", ref.display, "path"))
            text = w.stream_text(args, i + (0 if "=" in a else 1), stdin) if path else None
            if text is None:
                text = read_text(ref.abs) if ref.abs and ref.scope != "unknown" else None
            elif text == "\x00unknown":
                text = None
            program = (program or "") + "\n" + (text if text is not None else "\x00unknown")
            program_file = True
            i += 1 if "=" in a else 2
            continue
        if a in ("-i", "--include"):
            inplace = inplace or nxt == "inplace"
            i += 2
            continue
        if a in ("-F", "--field-separator"):
            i += 2
            continue
        i += 1
    rest = args[i:]
    if not program_file:
        program, rest = (rest[0], rest[1:]) if rest else ("", [])
    for a in rest:
        name, eq, value = a.partition("=")
        if eq and name.replace("_", "a").isalnum() and not name[0].isdigit():
            values.setdefault(name, []).append(value)  # an operand `name=value` assigns, it is not a file
        else:
            files.append(a)
    assert program is not None
    if "\x00unknown" in program:  # a program file that cannot be read: what it writes is unknown
        w.cwd_hint = cwd
        w.reach_check(PathRef("unknown", "$(…)"), f"{tool} -f", "writes")
        return "write", None
    for m in _AWK_ASSIGN.finditer(program):
        name, lit = m.group(1), m.group(2)
        values.setdefault(name, []).append(_awk_string(lit) if lit is not None else None)
    typ = "read"
    for how, expr in _awk_outputs(program):
        targets = _awk_eval(expr, values, files)
        if how == "|" or how == "getline" or how == "system":
            for t in targets:
                head = t.split(None, 1)[0] if t.split() else ""
                if "$(…)" in t or (how == "|" and tool_name(head) in SHELLS | INTERPRETERS):
                    # a command only known when it runs, or a shell fed the printed text: it may write anything
                    w.cwd_hint = cwd
                    w.reach_check(PathRef("unknown", "$(…)"), f"{tool} {how}", "runs a command that writes")
                else:
                    start = len(w.out.segments)
                    w.run_text(t, cwd, f"{tool} {how}", ";")
                    for seg in w.out.segments[start:]:
                        if RANK[seg.type] > RANK[typ]:
                            typ = seg.type
            if RANK[typ] < RANK["exec"]:
                typ = "exec"
            continue
        for t in targets:
            if t in DEVICES or t.startswith("/dev/fd/") or t in ("/dev/stdout", "/dev/stderr", "-"):
                continue
            w.cwd_hint = cwd
            effects.append(w.write_effect(w.env.norm(t, cwd), f"{tool} print {how}"))
            if RANK[typ] < RANK["write"]:
                typ = "write"
    if inplace:
        for ref in w.paths(files, cwd):
            effects.append(w.write_effect(ref, f"{tool} -i inplace"))
        return "write", None
    for ref in w.paths(files, cwd):
        effects.append(Effect("read", ref.display, "path"))
    if typ != "read":
        return typ, None
    return "read", _flow(stdin.taint if stdin else None)


#: `name = "literal"` or `name = <something else>` in an awk program (not `==`, `<=`, `>=`, `!=`)
_AWK_ASSIGN = LazyRe(r"(?<![=!<>\w$])([A-Za-z_]\w*)\s*=(?!=)\s*(\"(?:[^\"\\]|\\.)*\")?")
_AWK_STMT_END = frozenset(";}\n")


def _awk_string(lit: str) -> str:
    return lit[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _awk_outputs(program: str) -> list[tuple[str, str]]:
    """The output targets of an awk program: (``>``, ``>>`` or ``|``, target expression) of each ``print`` /
    ``printf`` redirection, (``getline``, command) for ``cmd | getline``, (``system``, command) for
    ``system(cmd)``. Strings and parenthesized arguments are skipped (``print (a > b)`` compares)."""
    out: list[tuple[str, str]] = []
    n = len(program)
    i = 0
    in_print = False
    depth = 0
    stmt_start = 0
    while i < n:
        c = program[i]
        if c == '"':
            j = i + 1
            while j < n and program[j] != '"':
                j += 2 if program[j] == "\\" else 1
            i = j + 1
            continue
        if c == "/" and not in_print:  # a regex literal /…/ (division needs an operand before it)
            prev = program[stmt_start:i].rstrip()[-1:]
            if not prev or prev in "({;,!~&|":
                j = program.find("/", i + 1)
                if j > 0:
                    i = j + 1
                    continue
        if c in _AWK_STMT_END and depth == 0:
            in_print = False
            stmt_start = i + 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c.isalpha() and (i == 0 or not (program[i - 1].isalnum() or program[i - 1] in "_$")):
            j = i
            while j < n and (program[j].isalnum() or program[j] == "_"):
                j += 1
            word = program[i:j]
            if word in ("print", "printf") and depth == 0:
                in_print = True
            elif word == "system":
                k = j
                while k < n and program[k] == " ":
                    k += 1
                if k < n and program[k] == "(":
                    out.append(("system", _awk_balanced(program, k)))
            elif word == "getline":
                before = program[stmt_start:i].rstrip()
                if before.endswith("|"):
                    out.append(("getline", before[:-1]))
            i = j
            continue
        elif in_print and depth == 0 and c in ">|":
            how = ">>" if program.startswith(">>", i) else c
            j = i + len(how)
            k = j
            d = 0
            while k < n and not (program[k] in _AWK_STMT_END and d == 0):
                if program[k] == '"':
                    k += 1
                    while k < n and program[k] != '"':
                        k += 2 if program[k] == "\\" else 1
                elif program[k] == "(":
                    d += 1
                elif program[k] == ")":
                    d -= 1
                k += 1
            out.append((how, program[j:k].strip()))
            in_print = False
            i = k
            continue
        i += 1
    return out


def _awk_balanced(program: str, k: int) -> str:
    """The text inside the parentheses opening at ``k``."""
    d = 0
    j = k
    while j < len(program):
        if program[j] == "(":
            d += 1
        elif program[j] == ")":
            d -= 1
            if d == 0:
                return program[k + 1:j]
        elif program[j] == '"':
            j += 1
            while j < len(program) and program[j] != '"':
                j += 2 if program[j] == "\\" else 1
        j += 1
    return program[k + 1:]


_AWK_TOKEN = LazyRe(r'\s*(?:("(?:[^"\\]|\\.)*")|([A-Za-z_]\w*)(?!\s*[\[(])|(\()|(\))|(\$\w+)|(\d+(?:\.\d+)?)|(\S))')


def _awk_eval(expr: str, values: dict[str, list[str | None]], files: list[str]) -> list[str]:
    """The texts an awk expression may have (string concatenation), an unknown part as ``$(…)``: literals,
    numbers, known variables (each value they are given), ``FILENAME`` (each input file), parentheses; a field
    (``$1``) is an unknown part; any operator, array element or call makes the whole value unknown."""
    outs = [""]
    pos = 0
    depth = 0
    unknown = False
    while pos < len(expr):
        m = _AWK_TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        lit, name, opening, closing, field, number, other = m.groups()
        if opening or closing:
            depth += 1 if opening else -1
            continue
        if other is not None:
            return ["$(…)"]  # an operator, an array element (ENVIRON["F"]), a call: a computed value
        if number is not None:
            piece = [number]
        elif field is not None:
            piece = ["$(…)"]  # a field of the input ($1, $NF)
            unknown = True
        elif lit is not None:
            piece = [_awk_string(lit)]
        elif name == "FILENAME" and files:
            piece = list(files)
        elif name is not None and name in values and None not in values[name] and len(values[name]) <= 8:
            piece = [v for v in values[name] if v is not None]
        else:
            piece = ["$(…)"]
            unknown = True
        outs = [o + p for o in outs for p in piece][:16]
    if unknown:
        outs = [re.sub(r"(?:\$\(…\))+", "$(…)", o) for o in outs]
    return outs or ["$(…)"]
