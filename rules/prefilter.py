"""Literal prefilters for regular expressions: substrings without which a pattern cannot match.

``required_literals(pattern)`` reads a pattern's syntax tree and returns strings of which every match must
contain at least one (``None`` when no such set is known, e.g. for ``\\w+``). A caller tests ``any(s in text
for s in literals)`` first and compiles and runs the pattern only when that holds, so lines that cannot match
cost a few substring tests instead of a regex scan, and a pattern no line needs is never compiled.

The analysis is conservative: it only ever answers with strings a match must contain. Zero-width assertions
(``\\b``, lookarounds) are treated as matching nothing, optional parts as possibly absent, and any pattern or
group with IGNORECASE gets no prefilter.
"""

from __future__ import annotations

import re
from re import _constants as C  # noqa: N812 - the stdlib's own opcode names
from re import _parser

#: An exact set grows as a cross product of alternatives; above this size it stops being tracked.
_MAX_EXACT = 64
#: Character classes up to this size are expanded into single-character alternatives.
_MAX_CLASS = 12

#: (exact strings the node matches, or None; sets of which a match must contain one string each, best first)
Info = tuple["frozenset[str] | None", "tuple[frozenset[str], ...]"]
#: How many required sets a pattern keeps: a line must contain a string of each, so two rarely-together words
#: ("user" and "outdated") prune far more than either alone.
_MAX_SETS = 3


def required_literals(pattern: str, flags: int = 0) -> tuple[tuple[tuple[str, ...], ...], ...] | None:
    """When ``pattern`` can match: alternatives (one per top-level ``|`` branch), each a tuple of sets of which a
    match through that branch contains a string of every set. None when no prefilter is known."""
    if flags & re.IGNORECASE:
        return None
    tree = _parser.parse(pattern, flags)
    if tree.state.flags & re.IGNORECASE:
        return None
    items = list(tree)
    branches = items[0][1][1] if len(items) == 1 and items[0][0] is C.BRANCH else [tree]
    alts = []
    for branch in branches:
        exact, conj = _seq(branch)
        sets = _choose([exact, *conj])
        if not sets:
            return None
        alts.append(tuple(tuple(sorted(x)) for x in sorted(sets, key=lambda x: (len(x), sorted(x)))))
    # alternatives of one set each are one set: (a) or (b) is (a or b), checked in one pass
    single = sorted({lit for alt in alts if len(alt) == 1 for lit in alt[0]})
    multi = [alt for alt in alts if len(alt) > 1]
    merged = ([((*_minimal_sorted(single),),)] if single else []) + multi
    return tuple(dict.fromkeys(merged))


def _minimal_sorted(items: list[str]) -> list[str]:
    return sorted(_minimal(frozenset(items)))


def possible(literals: tuple[tuple[tuple[str, ...], ...], ...] | None, text: str) -> bool:
    """Whether ``text`` can hold a match: some alternative has a string of each of its sets in ``text``."""
    if literals is None:
        return True
    for conj in literals:
        for group in conj:
            for lit in group:
                if lit in text:
                    break
            else:
                break  # this alternative is impossible
        else:
            return True
    return False


def _usable(s: frozenset[str] | None) -> bool:
    return s is not None and bool(s) and "" not in s


def _score(s: frozenset[str]) -> tuple[int, int, int]:
    """Prefer sets whose shortest string is longer (up to 5 characters: rarer), then fewer strings (cheaper)."""
    shortest = min(len(x) for x in s)
    return (min(shortest, 5), -len(s), shortest)


def _minimal(s: frozenset[str]) -> frozenset[str]:
    """Drop strings that contain another member: the shorter one is present whenever the longer one is."""
    keep: list[str] = []
    for x in sorted(s, key=len):
        if not any(k in x for k in keep):
            keep.append(x)
    return frozenset(keep)


def _overlaps(a: frozenset[str], b: frozenset[str]) -> bool:
    return any(x in y or y in x for x in a for y in b)


def _choose(sets) -> tuple[frozenset[str], ...]:
    """Up to _MAX_SETS of the best required sets, skipping sets that overlap a chosen one (they add little)."""
    good = sorted({_minimal(s) for s in sets if _usable(s)}, key=lambda s: (_score(s), sorted(s)), reverse=True)
    chosen: list[frozenset[str]] = []
    for s in good:
        if len(chosen) == _MAX_SETS:
            break
        if not any(_overlaps(s, c) for c in chosen):
            chosen.append(s)
    return tuple(chosen)


def _seq(items) -> Info:
    """A concatenation: exact strings while they stay few, and the sets a match must contain."""
    run: frozenset[str] | None = frozenset({""})
    reqs: list[frozenset[str] | None] = []
    all_exact = True
    lit = ""  # the literal text since the last point with alternatives: a cheap single-string candidate
    for op, av in items:
        exact, conj = _node(op, av)
        reqs.append(exact)
        reqs.extend(conj)
        if exact is not None and len(exact) == 1:
            lit += next(iter(exact))
        else:
            reqs.append(frozenset({lit}))
            lit = ""
        if exact is not None and run is not None and len(run) * len(exact) <= _MAX_EXACT:
            run = frozenset(a + b for a in run for b in exact)
            continue
        all_exact = False
        reqs.append(run)
        run = exact if exact is not None else frozenset({""})
    reqs.append(run)
    reqs.append(frozenset({lit}))
    return (run if all_exact else None), _choose(reqs)


def _node(op, av) -> Info:
    if op is C.LITERAL:
        return frozenset({chr(av)}), ()
    if op is C.IN:
        chars: set[str] = set()
        for iop, iav in av:
            if iop is C.LITERAL:
                chars.add(chr(iav))
            elif iop is C.RANGE and iav[1] - iav[0] < _MAX_CLASS:
                chars.update(chr(c) for c in range(iav[0], iav[1] + 1))
            else:  # NEGATE, CATEGORY, big ranges
                return None, ()
        return (frozenset(chars), ()) if 0 < len(chars) <= _MAX_CLASS else (None, ())
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return frozenset({""}), ()
    if op is C.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        if add_flags & re.IGNORECASE:
            return None, ()
        return _seq(sub)
    if op is getattr(C, "ATOMIC_GROUP", None):
        return _seq(av)
    if op is C.BRANCH:
        infos = [_seq(sub) for sub in av[1]]
        exact: frozenset[str] | None = None
        if all(e is not None for e, _ in infos):
            union = frozenset().union(*(e for e, _ in infos))
            if len(union) <= _MAX_EXACT:
                exact = union
        # (A1 and A2) or (B1 and B2) implies (A1 or B1) and (A2 or B2): pair the alternatives' sets by rank
        lists = [_choose([e, *c]) for e, c in infos]
        depth = min(len(x) for x in lists)
        return exact, tuple(frozenset().union(*(x[j] for x in lists)) for j in range(depth))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT)):
        lo, hi, sub = av
        exact, conj = _seq(sub)
        if lo == 0:
            if hi == 1 and exact is not None:
                return exact | {""}, ()
            return None, ()
        if lo == hi == 1:
            return exact, conj
        return None, _choose([exact, *conj])
    return None, ()  # ANY, NOT_LITERAL, CATEGORY, group references: anything may match


def render_gates(sources: dict[str, tuple[str, int]]) -> str:
    """A gate table as JSON text: ``{key: required_literals(pattern, flags)}`` (JSON parses in C: no compile)."""
    import json

    table = {key: required_literals(pattern, flags) for key, (pattern, flags) in sorted(sources.items())}
    body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in table.items())
    return "{\n" + body + "\n}\n"


def main() -> int:
    """Regenerate rules/poisoning_gates.json from the patterns of rules/poisoning.py."""
    from pathlib import Path

    from . import poisoning

    target = Path(__file__).with_name("poisoning_gates.json")
    target.write_text(render_gates(poisoning.gate_sources()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
