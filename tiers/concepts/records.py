"""The records of a concept analysis: a line's clauses and the line's analysis."""

from __future__ import annotations

import math
TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed

from ..record import dataclass, field
from .memos import _line_memos
from .tables import BROADER_FACTOR, lexicon

if TYPE_CHECKING:
    from .tables import Lexicon


def _weight_and_content(lx: Lexicon, cid: str) -> tuple[float, bool, float]:
    """A concept's weight, whether it counts as clause content (not generic, not a slot name), and its weight as a
    broader concept (times BROADER_FACTOR)."""
    w = lx.weight(cid)
    return w, lx.kind.get(cid) not in ("generic", "slot"), w * BROADER_FACTOR


@dataclass(slots=True)
class Clause:
    """One clause: its concepts with signs (+1 asserted, -1 denied), force, markers and values."""

    start: int
    end: int
    signs: dict[str, int] = field(default_factory=dict)  # canonical concept -> sign (0 when mixed)
    direct: set[str] = field(default_factory=set)  # concepts named by the words themselves (canonical)
    raw: set[str] = field(default_factory=set)  # concepts as matched, before antonym folding
    antonymic: set[str] = field(default_factory=set)  # canonical ids reached through an antonym
    markers: set[str] = field(default_factory=set)
    force: str = "assert"  # oblige | permit | relax | prohibit | indiff | assert
    exception: bool = False
    only_targets: set[str] = field(default_factory=set)
    has_only: bool = False
    negated_direct: set[str] = field(default_factory=set)
    local_neg: set[str] = field(default_factory=set)  # denied by "without"/«без» only: the focus of the clause
    soft: set[str] = field(default_factory=set)  # named before the clause's negation: context more than core
    #: a prohibition's setting: what it names after a preposition of place or occasion, after the thing or act it
    #: rules out ("no alcohol *at team events*", «никакого алкоголя *на корпоративе*»): where the rule applies
    setting: frozenset[str] = frozenset()
    values: list[tuple[str, str, int]] = field(default_factory=list)  # (slot, value, sign)
    #: concept -> weight in this clause (parents reached through [broader] and context words count for less)
    wmap: dict[str, float] = field(default_factory=dict)
    #: the content concepts (not generic, not slot names) and their total weight
    content: tuple[str, ...] = ()
    content_total: float = 0.0
    cov_w: dict[str, float] = field(default_factory=dict)

    def finish(self, memo: dict | None = None) -> None:
        """Weights and content of the clause; ``memo``: concept -> _weight_and_content (the lexicon's line memo,
        when the caller holds it)."""
        if memo is None:
            memo = _line_memos(lexicon())[8]
        direct, soft, wmap = self.direct, self.soft, self.wmap
        # For coverage, one of a pair of opposites is the evaluative core of the clause and weighs more (x1.5; the
        # others x1.0, which leaves a float as it is).
        antonymic = self.antonymic
        cov_w = {}  # keyed by the content concepts, in order
        for c in self.signs:
            got = memo.get(c)
            if got is None:
                got = memo[c] = _weight_and_content(lexicon(), c)
            w = got[0] if c in direct else got[2]
            if soft and c in soft:
                w *= 0.5
            wmap[c] = w
            if got[1]:
                cov_w[c] = w * 1.5 if antonymic and c in antonymic else w
        self.content = tuple(cov_w)
        self.cov_w = cov_w
        self.content_total = math.fsum(cov_w.values())  # exact: the same whatever the set order


@dataclass(slots=True)
class Analysis:
    """A memory line seen by the arbitration layer."""

    text: str
    clauses: list[Clause]
    concepts: frozenset[str]  # every canonical concept of the line (incl. broader and slot ids)
    markers: frozenset[str]
    values: list[tuple[str, str, int]]
    hedged: bool
    report: bool
    mention: bool
    universal: bool
    indiff: bool

    @property
    def index_keys(self) -> frozenset[str]:
        lx = lexicon()
        return frozenset(c for c in self.concepts if lx.kind.get(c) != "generic")


_object_new = object.__new__


def _new_clause(start: int, end: int, exception: bool) -> Clause:
    """``Clause(start, end, exception=exception)``, every field set here (the generated ``__init__`` costs a line
    more: keyword handling and a call per default factory)."""
    cl = _object_new(Clause)
    cl.start = start
    cl.end = end
    cl.signs = {}
    cl.direct = set()
    cl.raw = set()
    cl.antonymic = set()
    cl.markers = set()
    cl.force = "assert"
    cl.exception = exception
    cl.only_targets = set()
    cl.has_only = False
    cl.negated_direct = set()
    cl.local_neg = set()
    cl.soft = set()
    cl.setting = frozenset()
    cl.values = []
    cl.wmap = {}
    cl.content = ()
    cl.content_total = 0.0
    cl.cov_w = {}
    return cl


def _new_analysis(text: str, clauses: list[Clause], concepts: frozenset[str], markers: frozenset[str],
                  values: list, hedged: bool, report: bool, mention: bool, universal: bool, indiff: bool) -> Analysis:
    """``Analysis(...)`` of these fields, set without the generated ``__init__``."""
    a = _object_new(Analysis)
    a.text = text
    a.clauses = clauses
    a.concepts = concepts
    a.markers = markers
    a.values = values
    a.hedged = hedged
    a.report = report
    a.mention = mention
    a.universal = universal
    a.indiff = indiff
    return a
