"""The constraint index: every active DIRECTIVE and in-scope DECISION line of a workspace, by concept id.

A check looks only at the constraints a new line could be about: those sharing its rarer concepts, best scored
first (``ConstraintIndex.candidates``). Files are indexed once per content (in memory for the process, on disk
in ``.cuticle/cache`` across processes, see ``cache``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..concepts import Analysis, blake2b, lexicon
from ..model import Tier
from ..record import dataclass, field
from . import cache
from .records import Constraint
from .typed import CLOCK_SLOTS, DIGIT, LETTER_ID

#: Minimum weighted share of a constraint's concepts a candidate must touch to be "about" it.
RELATED_MIN = 0.4
#: Candidates examined per check, best-scored first.
MAX_CANDIDATES = 16
#: Candidates scoring below this share of the best one are not examined.
RELATIVE_FLOOR = 0.4
#: A concept held by more constraints of a file than this only adds to candidates a rarer one found.
POSTING_CAP = 256


def _log():
    import logging

    return logging.getLogger("tiers.arbitrate")


@dataclass(slots=True)
class FileIndex:
    """The constraints of one memory file and their index keys (concept ids)."""

    constraints: list[Constraint]
    keys: list[frozenset[str]]
    postings: dict[str, list[int]] = field(default_factory=dict)
    #: per constraint: the smallest content weight of its clauses (coverage upper bounds divide by it)
    minw: list[float] = field(default_factory=list)
    #: the live OBSERVATION and HYPOTHESIS lines cuticle stamped (what a new line may retire, see lifecycle)
    facts: list[Constraint] = field(default_factory=list)
    #: index key -> positions in ``facts``, built on first need
    fact_postings: dict[str, list[int]] | None = None
    #: (frequent key, frequent key) -> the last constraints holding both (``top``), built on first need
    inter: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    #: index key -> the set of positions in ``postings[key]``, built on first need (``top``)
    members: dict[str, frozenset[int]] = field(default_factory=dict)

    def facts_about(self, keys: frozenset[str]) -> list[Constraint]:
        """The facts sharing an index key with a line."""
        if self.fact_postings is None:
            self.fact_postings = {}
            for i, f in enumerate(self.facts):
                for key in f.analysis.index_keys:
                    self.fact_postings.setdefault(key, []).append(i)
        hits = sorted({i for key in keys for i in self.fact_postings.get(key, ())})
        return [self.facts[i] for i in hits]

    @classmethod
    def build(cls, constraints: list[Constraint], akeys: dict | None = None, facts: list[Constraint] | None = None
              ) -> FileIndex:
        """Index ``constraints``; ``akeys`` (content -> [sorted index keys, minw]) spares re-analysing lines."""
        keys, minw = [], []
        for c in constraints:
            hit = _akeys_get(akeys, c.content) if akeys is not None else None
            if hit is None:
                a = c.analysis
                k = a.index_keys | typed_slots(a.text, [s for s, _, _ in a.values])
                totals = [cl.content_total for cl in a.clauses if not cl.exception and cl.content_total > 0]
                mw = min(totals) if totals else 1.0
                if akeys is not None:
                    akeys[c.content] = [sorted(k), mw]
            else:
                k, mw = hit
            keys.append(k)
            minw.append(mw)
        return cls.of(constraints, keys, minw, facts or [])

    @classmethod
    def of(cls, constraints: list[Constraint], keys: list[frozenset[str]], minw: list[float],
           facts: list[Constraint] | None = None) -> FileIndex:
        postings: dict[str, list[int]] = {}
        for i, k in enumerate(keys):
            for key in k:
                postings.setdefault(key, []).append(i)
        return cls(constraints, keys, postings, minw, list(facts or []))

    @classmethod
    def from_record(cls, rec: dict) -> FileIndex | None:
        """The index stored by ``to_record``, or None when the record is malformed."""
        try:
            cons = [Constraint(Tier.from_code(t), i, f, int(n), c, sc, at, bool(st), ses)
                    for t, i, f, n, c, sc, at, st, ses in rec["constraints"]]
            keys = [frozenset(k) for k in rec["keys"]]
            minw = [float(x) for x in rec["minw"]]
            facts = [Constraint(Tier.from_code(t), i, f, int(n), c, sc, at, bool(st), ses)
                     for t, i, f, n, c, sc, at, st, ses in rec.get("facts", ())]
        except (KeyError, TypeError, ValueError):
            return None
        if not (len(cons) == len(keys) == len(minw)):
            return None
        return cls.of(cons, keys, minw, facts)

    def to_record(self, sha: str) -> dict:
        return {
            "sha": sha,
            "constraints": [[c.tier.value, c.id, c.file, c.line, c.content, c.scope, c.recorded_at, c.stamped,
                             c.session] for c in self.constraints],
            "keys": [sorted(k) for k in self.keys],
            "minw": [round(x, 4) for x in self.minw],
            "facts": [[c.tier.value, c.id, c.file, c.line, c.content, c.scope, c.recorded_at, c.stamped, c.session]
                      for c in self.facts],
        }

    def holding(self, key: str) -> frozenset[int]:
        """The constraints holding an index key, as a set."""
        got = self.members.get(key)
        if got is None:
            got = self.members[key] = frozenset(self.postings.get(key, ()))
        return got

    def cells(self, keys: Iterable[str], kw: dict[str, float]) -> list[list]:
        """This file's scorings of a line's index keys, as cells ``[score, set of constraint numbers]``. A rare
        shared concept weighs more; a frequent one (over POSTING_CAP constraints) only adds to constraints a rarer
        one found, or, with two of them, to the last constraints holding both.

        A constraint's score is the sum of the weights of the keys it holds, added in key order. Constraints that
        hold the same of the keys scored so far share one score: they are kept as one cell, split with set
        operations as keys are added, so the work is per cell and not per constraint (a weekday or a number is
        held by hundreds of a file's constraints). Each constraint's sum is the same float as added one by one."""
        total = max(len(self.constraints), 1)
        cells: list[list] = []
        scored: set[int] = set()
        common: list[tuple[str, list[int]]] = []
        for key in sorted(keys):  # a fixed order: float sums, and so ties, never depend on the hash seed
            post = self.postings.get(key)
            if not post:
                continue
            if len(post) > POSTING_CAP:
                common.append((key, post))
                continue
            w = kw[key] * (1.0 + 1.0 / (1.0 + len(post) / total * 10))
            held = self.holding(key)
            _add(cells, held, w)
            new = held - scored
            if new:
                cells.append([0.0 + w, set(new)])
                scored |= new
        if common:
            for key, _ in common:
                _add(cells, self.holding(key), kw[key] * 0.5)
            if len(common) >= 2:
                common.sort(key=lambda kp: len(kp[1]))
                pair = (common[0][0], common[1][0])
                tail = self.inter.get(pair)
                if tail is None:  # the last constraints holding both, once per file and pair
                    tail = self.inter[pair] = sorted(set(common[0][1]) & set(common[1][1]))[-POSTING_CAP:]
                new = set(tail) - scored
                if new:
                    v0 = kw[common[0][0]] * 0.5 + kw[common[1][0]] * 0.5
                    rest: list[list] = [[0, new]]  # v0 + the sum of the other frequent keys held (from int 0)
                    for key, _ in common[2:]:
                        _add(rest, self.holding(key), kw[key] * 0.5)
                    cells.extend([v0 + part, members] for part, members in rest)
            elif not cells:
                cells.append([kw[common[0][0]] * 0.5, set(common[0][1][-POSTING_CAP:])])
        return cells


def _add(cells: list[list], held: frozenset[int], w: float) -> None:
    """Add ``w`` to the score of the positions in ``held``, splitting the cells that hold it only in part."""
    for cell in cells[:]:  # cells split off here are appended after the copy: they hold the key already
        both = cell[1] & held
        if not both:
            continue
        if len(both) == len(cell[1]):
            cell[0] += w
        else:
            cell[1] -= both
            cells.append([cell[0] + w, both])


def _akeys_get(akeys: dict, content: str) -> tuple[frozenset[str], float] | None:
    """A cached (index keys, minw) of one constraint's content, or None when absent or malformed."""
    rec = akeys.get(content)
    if not (isinstance(rec, list) and len(rec) == 2 and isinstance(rec[0], list)
            and isinstance(rec[1], (int, float)) and not isinstance(rec[1], bool)):
        return None
    if not all(isinstance(x, str) for x in rec[0]):
        return None
    return frozenset(rec[0]), float(rec[1])


#: file indexes of this process, by (kind, path or name, content identity, key)
FILE_CACHE: dict[tuple, FileIndex] = {}
_FILE_CACHE_MAX = 64


def _remember(key: tuple, fi: FileIndex) -> None:
    if len(FILE_CACHE) >= _FILE_CACHE_MAX:
        FILE_CACHE.pop(next(iter(FILE_CACHE)))
    FILE_CACHE[key] = fi


def _mtime_iso(path: Path) -> str | None:
    try:
        ts = path.stat().st_mtime
    except OSError:
        return None
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def constraints_from_text(rel: str, data: bytes | str, *, key: bytes | None = None,
                          recorded_at: str | None = None, line_cache: dict | None = None,
                          classified: dict | None = None, facts: list | None = None) -> list[Constraint]:
    """The active constraints of one memory file's content (stamped D/C lines, unstamped lines classified).

    A stamp counts only when it verifies under the workspace key; without a key nothing here was stamped by
    cuticle, so stamps are ignored and the line is classified like any unstamped line.
    ``line_cache`` (content -> [tier code, scope]) spares re-classifying lines seen before.
    ``classified`` (line content -> LineTier) receives the tier and scope of every unstamped line here, so a
    caller that needs the tier of the other lines too (CU201) does not classify them again.
    ``facts`` (a list) receives the live OBSERVATION and HYPOTHESIS lines cuticle stamped.
    """
    from ..classify import classify
    from ..markdown import parse_document
    from ..stamps import verify_stamp

    out: list[Constraint] = []
    doc = parse_document(data)
    for ln in doc.memory_lines():
        content = ln.content
        if not content.strip():
            continue
        stamp = ln.stamp
        if stamp is not None and key is not None and verify_stamp(stamp, content, key):
            if stamp.state is not None:
                continue
            if stamp.tier not in (Tier.DIRECTIVE, Tier.DECISION):
                if facts is not None:
                    facts.append(Constraint(stamp.tier, stamp.id, rel, ln.number, content.strip(), stamp.scope,
                                            recorded_at, True, stamp.session))
                continue
            out.append(Constraint(stamp.tier, stamp.id, rel, ln.number, content.strip(), stamp.scope, recorded_at,
                                  True, stamp.session))
            continue
        body = content.strip()
        # an entry that is not [tier code, scope] (a table of an earlier version, or one this code did not write)
        # is classified again
        hit = line_cache.get(body) if line_cache is not None else None
        tier = _cached_tier(hit)
        if tier is None:
            cls = classify(content)
            tier, scope = cls.tier, cls.scope
            if line_cache is not None:
                line_cache[body] = [tier.value, scope]
        else:
            scope = hit[1]
        if classified is not None:
            classified[content] = LineTier(tier, scope)
        if tier is not Tier.DIRECTIVE and tier is not Tier.DECISION:
            continue
        out.append(Constraint(tier, f"{rel}#L{ln.number}", rel, ln.number, body, scope, recorded_at, False))
    return out


@dataclass(frozen=True, slots=True)
class LineTier:
    """The tier and scope indexing found for a memory line (classified, or read from ``.cuticle/cache``)."""

    tier: Tier
    scope: str | None


def _cached_tier(hit) -> Tier | None:
    """The tier of a line table entry ([tier code, scope]), None for anything else (an entry of an earlier version,
    a table this code did not write)."""
    if type(hit) is not list or len(hit) != 2 or not (hit[1] is None or type(hit[1]) is str):
        return None
    return _TIER_CODES.get(hit[0]) if type(hit[0]) is str else None


#: tier letter -> Tier (a lookup per cached line: a gate that re-indexes a large file reads thousands of them)
_TIER_CODES = {t.value: t for t in Tier}


def _tiers_from_table(data: bytes, table: dict | None, classified: dict) -> None:
    """Give ``classified`` the tiers the disk cache's line table holds for the lines of a file indexed before,
    so a lint that reads the file's constraints from ``.cuticle/cache`` does not classify its other lines again."""
    if not table:
        return
    from ..markdown import parse_document

    for ln in parse_document(data).memory_lines():
        hit = table.get(ln.content.strip())
        tier = _cached_tier(hit)
        if tier is not None:
            classified[ln.content] = LineTier(tier, hit[1])


def _build_cached(disk: dict | None, akeys: dict | None, constraints: list[Constraint],
                  facts: list[Constraint] | None = None) -> FileIndex:
    n = len(akeys) if akeys is not None else 0
    fi = FileIndex.build(constraints, akeys, facts)
    if akeys is not None and len(akeys) != n:
        disk["_akeys_dirty"] = disk["_dirty"] = True
    return fi


#: Scorings remembered per index (by the analysis' keys); a lint pass over a large workspace repeats many.
_MEMO_MAX = 8192


class ConstraintIndex:
    """Active constraints of a workspace, indexed by concept id so a check does not scan every line."""

    def __init__(self, files: Iterable[FileIndex] = (), *, judge=None, judge_threshold: float = 0.8) -> None:
        self._files = list(files)
        #: optional semantic judge for the grey zone (tiers.judge); None unless the workspace enables one
        self.judge = judge
        self.judge_threshold = judge_threshold
        self._memo: dict[tuple, list[Constraint]] = {}
        self._key_files: dict[str, list[int]] | None = None
        #: the workspace's current session (a DECISION bound to its session stops binding after it), if known
        self.session: int | None = None

    def __len__(self) -> int:
        return sum(len(f.constraints) for f in self._files)

    @property
    def constraints(self) -> list[Constraint]:
        return [c for f in self._files for c in f.constraints]

    @classmethod
    def from_constraints(cls, constraints: Iterable[Constraint]) -> ConstraintIndex:
        return cls([FileIndex.build(list(constraints))])

    @classmethod
    def from_lines(cls, lines: Iterable[str], *, file: str = "MEMORY.md") -> ConstraintIndex:
        """An index over the given memory lines as if they were one file (tests, benchmarks, evaluation)."""
        return cls.from_texts({file: "\n".join(lines) + "\n"})

    @classmethod
    def from_texts(cls, texts: Mapping[str, str | bytes], *, key: bytes | None = None,
                   line_cache: dict | None = None, akeys: dict | None = None, _disk: dict | None = None
                   ) -> ConstraintIndex:
        """An index over file contents given as text (workspace-relative path -> content).

        ``akeys`` (constraint content -> [index keys, minw]) spares re-analysing lines indexed before.
        """
        files = []
        for rel, data in texts.items():
            digest = blake2b(data.encode("utf-8") if isinstance(data, str) else bytes(data),
                             digest_size=16).hexdigest()
            ck = ("text", rel, digest, key)
            fi = FILE_CACHE.get(ck)
            if fi is None:
                facts: list[Constraint] = []
                fi = _build_cached(_disk, akeys, constraints_from_text(rel, data, key=key, line_cache=line_cache,
                                                                       facts=facts), facts)
                _remember(ck, fi)
            files.append(fi)
        return cls(files)

    @classmethod
    def from_workspace(cls, ws, overrides: Mapping[str, str | bytes] | None = None, *,
                       persist: bool = True, save: bool | None = None,
                       classified: dict | None = None) -> ConstraintIndex:
        """All memory files of ``ws``; ``overrides`` (workspace-relative path -> content) replace files' content.

        With ``persist`` (and an existing ``.cuticle/``), constraints and line classifications are read from
        ``.cuticle/cache/`` keyed by content hash, so later processes skip unchanged files; ``save`` (default:
        ``persist``) writes what was indexed anew back there. ``classified`` (a dict) receives the classifications
        made while indexing (see constraints_from_text), and for a file read from ``.cuticle/cache`` the tiers its
        line table holds.
        """
        from ..fsutil import read_bytes_checked

        save = persist if save is None else save and persist
        overrides = dict(overrides or {})
        key = None
        if ws.state_path("key").exists():
            try:
                key = ws.key
            except Exception as exc:  # noqa: BLE001 - an unreadable key means stamps are checked by content only
                _log().warning("stamp key unreadable (%s); treating stamps as unverified", exc)
        files: list[FileIndex] = []
        for path in ws.memory_files():
            rel = ws.relpath(path)
            if rel in overrides:
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            ck = ("file", str(path), st.st_mtime_ns, st.st_size, st.st_ino, key)
            fi = FILE_CACHE.get(ck)
            if fi is None:
                try:
                    data = read_bytes_checked(path)
                except Exception as exc:  # noqa: BLE001 - one unreadable file must not disable arbitration
                    _log().warning("%s: skipped for arbitration (%s)", rel, exc)
                    continue
                disk = cache.disk_cache(ws) if persist else None
                sha = blake2b(data + (key or b""), digest_size=16).hexdigest()
                rec = disk["files"].get(rel) if disk else None
                if rec and rec.get("sha") == sha:
                    fi = FileIndex.from_record(rec)
                    if fi is not None and classified is not None:
                        _tiers_from_table(data, cache.lines_table(ws, disk), classified)
                if fi is None:
                    facts = []
                    fi = _build_cached(disk, cache.akeys_table(ws, disk),
                                       constraints_from_text(rel, data, key=key, recorded_at=_mtime_iso(path),
                                                             line_cache=cache.lines_table(ws, disk),
                                                             classified=classified, facts=facts), facts)
                    if disk is not None:
                        disk["files"][rel] = fi.to_record(sha)
                        disk["_dirty"] = True
                _remember(ck, fi)
            files.append(fi)
        judge, threshold = None, 0.8
        if ws.section("tiers").get("judge"):
            from ..judge import judge_from_config

            judge, threshold = judge_from_config(ws)
        if overrides:
            disk = cache.disk_cache(ws) if persist else None
            files.extend(cls.from_texts(overrides, key=key, line_cache=cache.lines_table(ws, disk),
                                        akeys=cache.akeys_table(ws, disk), _disk=disk)._files)
            if disk is not None:
                disk["_dirty"] = True
        if save and str(ws.root) in cache.DISK:
            cache.save_disk_cache(ws, cache.DISK[str(ws.root)])
        index = cls(files, judge=judge, judge_threshold=threshold)
        try:
            from ..session import current_session

            index.session = current_session(ws)
        except Exception:  # noqa: BLE001 - without a session, session bounds are not applied
            index.session = None
        return index

    def shape_constraints(self) -> None:
        """Compute the structural values (``structure.shape``) of every constraint now. A parallel lint calls this
        before forking: each process would otherwise shape the constraints its lines meet, most of them, again
        (~0.1 ms a line; 0.4 s of CPU per process on a 10,000-line workspace). The memo holds a pure function of
        the text: the same values either way."""
        from .structure import shape

        for c in self.constraints:
            shape(c.analysis.text)

    def facts_about(self, a: Analysis) -> list[Constraint]:
        """The live stamped OBSERVATION and HYPOTHESIS lines sharing an index key with ``a``."""
        keys = a.index_keys
        return [f for fi in self._files for f in fi.facts_about(keys)]

    def candidates(self, a: Analysis, limit: int = MAX_CANDIDATES) -> list[Constraint]:
        """Constraints sharing concepts with ``a``, best first (rare shared concepts weigh more), ties by file then
        line. Skipped: those scoring under RELATIVE_FLOOR of the best, and those whose shared concepts cannot reach
        the relatedness a check needs (unless a DECISION, or sharing a value slot or the slot of a typed value
        ``typed_slots`` finds, or ``a`` is "indifferent"). The result depends only on ``a``'s index keys,
        value slots, typed slots and ``indiff``, so it is remembered by them."""
        value_slots = frozenset([s if not s.startswith("NUM:") else "NUM" for s, _, _ in a.values])
        typed = typed_slots(a.text, value_slots)
        keys = a.index_keys | typed
        value_slots |= typed
        sig = (keys, value_slots, a.indiff, limit)
        hit = self._memo.get(sig)
        if hit is None:
            if len(self._memo) >= _MEMO_MAX:
                self._memo.clear()
            hit = self._memo[sig] = self._select(keys, value_slots, a.indiff, limit)
        return list(hit)

    def _select(self, keys: frozenset[str], value_slots: frozenset[str], indiff: bool,
                limit: int) -> list[Constraint]:
        lx = lexicon()
        kw = {k: lx.weight(k) for k in keys}
        if self._key_files is None:  # index key -> the files holding it
            self._key_files = {}
            for fnum, f in enumerate(self._files):
                for key in f.postings:
                    self._key_files.setdefault(key, []).append(fnum)
        # each file's cells of one score, best first, ties by file; a file's constraints rank by position within a
        # score, and only its best ``per_file`` of them are examined
        per_file = limit * 3
        groups: list[tuple[float, int, list[set[int]]]] = []
        for fnum in sorted({n for key in keys for n in self._key_files.get(key, ())}):
            by_score: dict[float, list[set[int]]] = {}
            for sc, members in self._files[fnum].cells(keys, kw):
                by_score.setdefault(sc, []).append(members)
            groups.extend((-sc, fnum, parts) for sc, parts in by_score.items())
        groups.sort(key=lambda g: (g[0], g[1]))
        ranked = [0] * len(self._files)
        bound = RELATED_MIN * 0.75
        out: list[Constraint] = []
        floor = None
        for neg, fnum, parts in groups:
            sc = -neg
            if floor is not None and sc < floor:
                break
            room = per_file - ranked[fnum]
            if room <= 0:
                continue
            positions = sorted(parts[0] if len(parts) == 1 else set().union(*parts))
            del positions[room:]
            ranked[fnum] += len(positions)
            f = self._files[fnum]
            for i in positions:  # (one score: the floor, set at most at this score, cannot stop them)
                cons = f.constraints[i]
                fk = f.keys[i]
                if not indiff and cons.tier is not Tier.DECISION and not (fk & value_slots):
                    if math.fsum(kw[x] for x in fk & keys) / f.minw[i] < bound:
                        continue  # an upper bound of the relatedness this candidate could reach
                if floor is None:
                    floor = sc * RELATIVE_FLOOR
                out.append(cons)
                if len(out) == limit:
                    return out
        return out


def typed_slots(text: str, value_slots: Iterable[str] = ()) -> frozenset[str]:
    """The slots of the typed values of a line, for retrieval. From the shape: "REGION" for a cloud region,
    "DESIGNATOR:<noun stem>" for a designator ("gate B" -> "DESIGNATOR:gate"; a masked number -> "DESIGNATOR:#");
    from the concept values (``value_slots``): "CLOCK" for a clock time or a part of the day."""
    out = set()
    if DIGIT.search(text) or LETTER_ID.search(text):  # a line with neither holds no region or designator
        from .structure import shape

        sh = shape(text)
        out.update("DESIGNATOR:" + noun for noun, _ in sh.designators)
        if sh.regions:
            out.add("REGION")
    if not CLOCK_SLOTS.isdisjoint(value_slots):
        out.add("CLOCK")
    return frozenset(out)
