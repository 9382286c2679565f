"""The effect model's records: action types and their order, Effect, Segment, Analysis, the stdout Flow and the
policy Options the invariants read.
"""

from __future__ import annotations

from tiers.record import dataclass, field
from ..canon import canonicalize
from ..invariants import Violation, all_invariants

RANK = {"read": 0, "exec": 1, "write": 2, "net": 3, "git": 4, "dangerous": 5}
TYPES = tuple(RANK)
#: "the most dangerous segment" of a command line, in the order the action types are defined (a test run whose
#: output ``tee`` logs to a file is an exec; RANK orders the effects inside one segment: code that writes a file
#: is a write)
SEGMENT_ORDER = {"read": 0, "write": 1, "exec": 2, "git": 3, "net": 4, "dangerous": 5}


def action_of(analysis: "Analysis") -> str:
    """The action type of a command: its most dangerous segment (SEGMENT_ORDER), or effect of a file tool."""
    best = "read"
    for seg in analysis.segments:
        if SEGMENT_ORDER[seg.type] > SEGMENT_ORDER[best]:
            best = seg.type
    for eff in analysis.effects:
        if SEGMENT_ORDER[eff.type] > SEGMENT_ORDER[best]:
            best = eff.type
    return best

#: the built-in invariants (id -> summary), read from their modules under rules/governance/invariants/
INVARIANTS: dict[str, str] = {inv.id: inv.summary for inv in all_invariants().values()}


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a segment does, for policy matching: ``type`` and its ``target`` (path, host or branch)."""

    type: str
    target: str = ""
    kind: str = ""  # "path", "host", "branch" or ""

    def to_json(self) -> dict:
        out = {"type": self.type}
        if self.target:
            out["target"] = self.target
            out["kind"] = self.kind
        return out


#: one shared (immutable) target-less effect per type
_PLAIN_EFFECTS = {t: Effect(t) for t in TYPES}
_PLAIN_TUPLES = {t: (e,) for t, e in _PLAIN_EFFECTS.items()}
_new = object.__new__
@dataclass(slots=True)
class Segment:
    """One unwrapped simple command (its canonical form is computed on first use)."""

    op: str
    argv: tuple[str, ...]
    sudo: bool
    type: str
    effects: tuple[Effect, ...]
    via: str = ""
    wrappers: tuple[str, ...] = ()
    _canonical: Canonical | None = None

    @property
    def canonical(self) -> Canonical:
        if self._canonical is None:
            self._canonical = canonicalize(self.argv, sudo=self.sudo)  # it only reads argv: the tuple will do
        return self._canonical

    @property
    def raw(self) -> str:
        return " ".join(self.argv)

    def to_json(self) -> dict:
        out = {"op": self.op, "command": self.raw, "action": self.type, **self.canonical.to_json(),
               "effects": [e.to_json() for e in self.effects]}
        if self.via:
            out["via"] = self.via
        if self.wrappers:
            out["wrappers"] = list(self.wrappers)
        return out


@dataclass(slots=True)
class Analysis:
    segments: list[Segment] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    #: effects of the call that belong to no shell segment (file tools)
    effects: list[Effect] = field(default_factory=list)
    #: the result depends on state outside the command (the checked-out git branch): do not memoize it
    volatile: bool = False

    @property
    def action(self) -> str:
        return action_of(self)

    def all_effects(self):
        for seg in self.segments:
            yield from seg.effects
        yield from self.effects


@dataclass(slots=True)
class Flow:
    """What a command writes to its stdout, as far as it matters: tainted (fetched/decoded) or literal text."""

    taint: str | None = None
    text: str | None = None
    #: the stream carries the contents of a credential or protected file
    secret: bool = False
    #: path patterns the stream lists, one per item (``find``, ``ls``, ``grep -l`` output) for ``xargs``
    names: tuple[str, ...] | None = None


#: the flow of a command whose output carries nothing of interest (shared: flows are never changed once returned)
_NO_FLOW = Flow()


def _flow(taint: str | None = None, text: str | None = None, secret: bool = False) -> Flow:
    """A ``Flow`` built slot by slot (no generated ``__init__`` frame)."""
    f = _new(Flow)
    f.taint = taint
    f.text = text
    f.secret = secret
    f.names = None
    return f


def _names_flow(names) -> Flow:
    f = _flow()
    f.names = tuple(names)
    return f


@dataclass(slots=True)
class Options:
    """The policy knobs invariants use."""

    protected_branches: tuple[str, ...] = ("main", "master")
    delete_allowed: tuple[str, ...] = ("build", "dist", "out", "tmp")
    allowed_hosts: tuple[str, ...] | None = None  # None: any host
