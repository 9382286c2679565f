"""Conflict arbitration: may a new memory line stand beside the user's active directives and decisions?

The active constraints of a workspace are the DIRECTIVE lines and the in-scope DECISION lines of *all* its memory
files (a directive in ``USER.md`` binds writes to ``MEMORY.md`` and daily notes), stamped or not: lines written
before cuticle was installed are classified on the fly, never stamped here. They are indexed by concept id so a
check looks only at the constraints a new line could be about.

A candidate line is blocked when it, against a constraint it is about:
- flips its polarity (permits what it forbids, relaxes what it requires, asserts the opposite, bypasses a
  required approval, declares the matter indifferent) — ``polarity-flip``, or ``lower-tier-over-directive`` when
  a hedged or observation-based line does it;
- gives a different value to the same slot (timezone, name, tool, URL, date, time, version, branch) —
  ``value-substitution``;
- restates a scoped DECISION without its scope or with a universal quantifier — ``scope-generalization``.
Mentions (reminders, TODOs, quotes, "the user's rule") and reports of past events pass. A new DIRECTIVE with
verified user provenance amends what it contradicts: it is allowed and returns the superseded constraints.

See docs/arbitration.md for the rules and their thresholds.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping
from pathlib import Path

from .concepts import DAY_GROUPS, Analysis, Clause, analyze, blake2b, lexicon
from .model import Tier
from .record import dataclass, field
from .stamps import split_stamp
from .text import strip_markup

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Arbitration", "Constraint", "ConstraintIndex", "Conflict", "arbitrate", "conflict_error"]



def _log():
    """This module's logger (logging is imported on first use: the hook path rarely logs)."""
    import logging

    return logging.getLogger(__name__)


#: Minimum weighted share of a constraint's concepts a candidate must touch to be "about" it.
RELATED_MIN = 0.4
#: Minimum shared weight between a candidate clause and a constraint clause for a polarity comparison.
OVERLAP_MIN = 1.3
#: Share of a scoped decision's choice a candidate must restate to generalize it.
CHOICE_MIN = 0.5
#: At most this share of a restatement may be new material before it counts as a different claim.
NOVEL_MAX = 0.34
#: Candidates examined per check, best-scored first; postings longer than this are intersected, not scanned.
MAX_CANDIDATES = 16
#: Candidates scoring below this share of the best one are not examined.
RELATIVE_FLOOR = 0.4
POSTING_CAP = 256

KIND_VALUE = 1.6
_CONFLICT_FORCES = {"permit", "relax", "assert", "oblige", "prohibit", "indiff"}
_PERMISSIVE = frozenset({"permit", "relax", "indiff"})
_ENV_SCOPE = {"PROD", "STAGING", "PREVIEW", "LOCAL_DEV", "MAIN_BRANCH", "FEATURE_BRANCH", "MOBILE_APP", "WEB",
              "BACKEND", "DESKTOP_APP", "PROTOTYPE"}


@dataclass(frozen=True, slots=True)
class Constraint:
    """One active DIRECTIVE or DECISION line of the workspace memory."""

    tier: Tier
    id: str
    file: str
    line: int
    content: str
    scope: str | None
    recorded_at: str | None
    stamped: bool
    session: int | None = None

    @property
    def analysis(self) -> Analysis:
        return analyze(self.content)

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": self.tier.name,
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "content": self.content,
            "scope": self.scope,
            "recorded_at": self.recorded_at,
        }


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why a candidate collides with one constraint."""

    constraint: Constraint
    kind: str
    reason: str
    resolution: str
    strength: float = 1.0


@dataclass(frozen=True, slots=True)
class Arbitration:
    """The decision for one candidate line."""

    decision: str  # "allow" | "block"
    tier: Tier
    content: str
    file: str
    error: dict[str, Any] | None = None
    supersedes: tuple[Constraint, ...] = ()
    conflicts: tuple[Conflict, ...] = ()

    @property
    def blocked(self) -> bool:
        return self.decision == "block"

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "tier": self.tier.name,
            "file": self.file,
            "content": self.content,
            "error": self.error,
            "supersedes": [c.to_json() for c in self.supersedes],
        }


# ---------------------------------------------------------------------------------------------------- the index
@dataclass(slots=True)
class _FileIndex:
    constraints: list[Constraint]
    keys: list[frozenset[str]]
    postings: dict[str, list[int]] = field(default_factory=dict)
    #: per constraint: the smallest content weight of its clauses (coverage upper bounds divide by it)
    minw: list[float] = field(default_factory=list)
    #: (key, key) -> the constraints both frequent concepts share (the tail scanned), computed once per file
    inter: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    #: postings (and tails) as integer bit sets, built on first use (see ConstraintIndex._file_streams)
    bits: dict[object, int] = field(default_factory=dict)
    #: (file number, the line's keys this file holds, n_top, POSTING_CAP) -> (heap streams, deferred boundary);
    #: a file's streams depend on nothing else, and lines naming other files' rare words share them
    streams: dict[tuple, tuple] = field(default_factory=dict)

    @classmethod
    def build(cls, constraints: list[Constraint], akeys: dict | None = None) -> _FileIndex:
        """Index ``constraints``; ``akeys`` (content -> [sorted index keys, minw]) spares re-analysing lines."""
        keys = []
        minw = []
        postings: dict[str, list[int]] = {}
        for i, c in enumerate(constraints):
            hit = _akeys_get(akeys, c.content) if akeys is not None else None
            if hit is None:
                a = c.analysis
                k = a.index_keys
                totals = [cl.content_total for cl in a.clauses if not cl.exception and cl.content_total > 0]
                mw = min(totals) if totals else 1.0
                if akeys is not None:
                    akeys[c.content] = [sorted(k), mw]
            else:
                k, mw = hit
            keys.append(k)
            minw.append(mw)
            for key in k:
                postings.setdefault(key, []).append(i)
        return cls(constraints, keys, postings, minw)


def _akeys_get(akeys: dict, content: str) -> tuple[frozenset[str], float] | None:
    """A cached (index keys, minw) of one constraint's content, or None when absent or malformed."""
    rec = akeys.get(content)
    if not (isinstance(rec, list) and len(rec) == 2 and isinstance(rec[0], list)
            and isinstance(rec[1], (int, float)) and not isinstance(rec[1], bool)):
        return None
    if not all(isinstance(x, str) for x in rec[0]):
        return None
    return frozenset(rec[0]), float(rec[1])


_FILE_CACHE: dict[tuple, _FileIndex] = {}
_FILE_CACHE_MAX = 64


def _mtime_iso(path: Path) -> str | None:
    try:
        ts = path.stat().st_mtime
    except OSError:
        return None
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


_TIER_CODES = {t.value: t for t in Tier}


def _tier_from_code(code: str) -> Tier:
    """``Tier.from_code`` with the one-letter codes of our own caches looked up directly."""
    return _TIER_CODES.get(code) or Tier.from_code(code)


def constraints_from_text(rel: str, data: bytes | str, *, key: bytes | None = None,
                          recorded_at: str | None = None, line_cache: dict | None = None,
                          classified: dict | None = None) -> list[Constraint]:
    """The active constraints of one memory file's content (stamped D/C lines, unstamped lines classified).

    A stamp counts only when it verifies under the workspace key; without a key nothing here was stamped by
    cuticle, so stamps are ignored and the line is classified like any unstamped line.
    ``line_cache`` (content -> [tier code, scope] or None) spares re-classifying lines seen before.
    ``classified`` (line content -> Classification) receives the classification of every line classified here, so
    a caller that needs the tier of the other lines too (CU201) does not classify them again.
    """
    from .classify import classify
    from .markdown import parse_document
    from .stamps import verify_stamp

    out: list[Constraint] = []
    doc = parse_document(data)
    for ln in doc.memory_lines():
        content = ln.content
        if not content.strip():
            continue
        stamp = ln.stamp
        if stamp is not None and key is not None and verify_stamp(stamp, content, key):
            if stamp.state is not None or stamp.tier not in (Tier.DIRECTIVE, Tier.DECISION):
                continue
            out.append(Constraint(stamp.tier, stamp.id, rel, ln.number, content.strip(), stamp.scope, recorded_at,
                                  True, stamp.session))
            continue
        body = content.strip()
        hit = line_cache.get(body, False) if line_cache is not None else False
        if hit is False:
            cls = classify(content)
            if classified is not None:
                classified[content] = cls
            hit = [cls.tier.value, cls.scope] if cls.tier in (Tier.DIRECTIVE, Tier.DECISION) else None
            if line_cache is not None:
                line_cache[body] = hit
        if hit is None:
            continue
        out.append(Constraint(_tier_from_code(hit[0]), f"{rel}#L{ln.number}", rel, ln.number, body, hit[1],
                              recorded_at, False))
    return out


# A persistent cache in .cuticle/cache/ so a fresh gate process does not re-classify unchanged memory, and a
# changed file re-analyses only its changed lines (arbitrate-keys.json: content -> [index keys, minw], valid for
# one "lx" digest of the lexicon and code; read only when a file must be re-indexed).
_CACHE_VERSION = 3
_LINE_CACHE_MAX = 50_000
_DISK: dict[str, dict] = {}


@functools.lru_cache(maxsize=1)
def _analysis_digest() -> str:
    """Digest of the lexicon data and the code an analysis depends on (cached index keys are valid for it)."""
    h = blake2b(digest_size=12)
    here = Path(__file__).parent
    for p in (here / "data" / "concepts.toml", here / "concepts.py", here / "text.py", here / "stamps.py",
              Path(__file__)):
        try:
            h.update(p.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()


def _disk_cache(ws) -> dict:
    path = ws.state_path("cache", "arbitrate.json")
    root = str(ws.root)
    cached = _DISK.get(root)
    if cached is not None:
        return cached
    lx = _analysis_digest()
    data: dict = {"v": _CACHE_VERSION, "lx": lx, "files": {}}
    try:
        import json

        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict) and loaded.get("v") == _CACHE_VERSION:
            data = {k: v for k, v in loaded.items() if not k.startswith("_")}
            if not isinstance(data.get("files"), dict):
                data["files"] = {}
            if data.get("lx") != lx:
                # The lexicon or the analysis code changed: cached index keys are stale.
                data["lx"], data["files"] = lx, {}
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    data["_dirty"] = False
    _DISK[root] = data
    return data


def indexed_on_disk(ws, rel: str, data: bytes) -> bool:
    """Whether ``.cuticle/cache`` holds the constraints of file ``rel`` as these bytes make them (indexing then
    takes them from there and classifies none of the file's lines)."""
    key = b""
    if ws.state_path("key").exists():
        try:
            key = ws.key
        except Exception:  # noqa: BLE001 - indexing will treat the key as absent and re-index the file
            return False
    rec = _disk_cache(ws)["files"].get(rel)
    return bool(rec) and rec.get("sha") == blake2b(data + key, digest_size=16).hexdigest()


def _save_disk_cache(ws, data: dict) -> None:
    if not data.get("_dirty") or not ws.state_dir.is_dir():
        return
    import json

    from .fsutil import atomic_write

    lines = data.get("_lines")
    akeys = data.get("_akeys")
    tables = [t for t in (lines, akeys if data.get("_akeys_dirty") else None) if t is not None]
    for table in tables:
        if len(table) > _LINE_CACHE_MAX:
            for k in list(table)[: len(table) - _LINE_CACHE_MAX]:
                del table[k]
    out = {k: v for k, v in data.items() if not k.startswith("_")}
    try:
        atomic_write(ws.state_path("cache", "arbitrate.json"),
                     json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        data["_dirty"] = False
        if lines is not None:
            atomic_write(ws.state_path("cache", "arbitrate-lines.json"),
                         json.dumps({"v": _CACHE_VERSION, "lines": lines}, ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8"))
        if akeys is not None and data.get("_akeys_dirty"):
            atomic_write(ws.state_path("cache", "arbitrate-keys.json"),
                         json.dumps({"v": _CACHE_VERSION, "lx": data["lx"], "akeys": akeys}, ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8"))
            data["_akeys_dirty"] = False
    except OSError as exc:
        _log().warning("arbitration cache not saved: %s", exc)


def _lines_table(ws, disk: dict | None) -> dict | None:
    """The per-line classifications of the disk cache, in their own file: read only when a file must be
    re-indexed (a fresh hook process over unchanged memory does not parse them). {} when absent or corrupt."""
    if disk is None:
        return None
    table = disk.get("_lines")
    if table is None:
        table = {}
        try:
            import json

            loaded = json.loads(ws.state_path("cache", "arbitrate-lines.json").read_text(encoding="utf-8"))
            if (isinstance(loaded, dict) and loaded.get("v") == _CACHE_VERSION
                    and isinstance(loaded.get("lines"), dict)):
                table = loaded["lines"]
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        disk["_lines"] = table
    return table


def _akeys_table(ws, disk: dict | None) -> dict | None:
    """The per-line index keys of the disk cache (loaded on first need; {} when absent, stale or corrupt)."""
    if disk is None:
        return None
    table = disk.get("_akeys")
    if table is None:
        table = {}
        try:
            import json

            loaded = json.loads(ws.state_path("cache", "arbitrate-keys.json").read_text(encoding="utf-8"))
            if (isinstance(loaded, dict) and loaded.get("v") == _CACHE_VERSION and loaded.get("lx") == disk["lx"]
                    and isinstance(loaded.get("akeys"), dict)):
                table = loaded["akeys"]
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        disk["_akeys"] = table
    return table


def _build_cached(disk: dict | None, akeys: dict | None, constraints: list[Constraint]) -> _FileIndex:
    n = len(akeys) if akeys is not None else 0
    fi = _FileIndex.build(constraints, akeys)
    if akeys is not None and len(akeys) != n:
        disk["_akeys_dirty"] = disk["_dirty"] = True
    return fi


def _file_index_from_record(rec: dict) -> _FileIndex | None:
    try:
        cons = [Constraint(_TIER_CODES.get(t) or Tier.from_code(t), i, f, int(n), c, sc, at, bool(st), ses)
                for t, i, f, n, c, sc, at, st, ses in rec["constraints"]]
        keys = [frozenset(k) for k in rec["keys"]]
        minw = [float(x) for x in rec["minw"]]
    except (KeyError, TypeError, ValueError):
        return None
    if not (len(cons) == len(keys) == len(minw)):
        return None
    postings: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        for key in k:
            postings.setdefault(key, []).append(i)
    return _FileIndex(cons, keys, postings, minw)


def _file_index_record(sha: str, fi: _FileIndex) -> dict:
    return {
        "sha": sha,
        "constraints": [[c.tier.value, c.id, c.file, c.line, c.content, c.scope, c.recorded_at, c.stamped,
                         c.session] for c in fi.constraints],
        "keys": [sorted(k) for k in fi.keys],
        "minw": [round(x, 4) for x in fi.minw],
    }


_first_item = operator.itemgetter(0)
_second = operator.itemgetter(1)


def _split_groups(groups: list[tuple[float, int, int]], b: int, w: float) -> list[tuple[float, int, int]]:
    """Score groups (score, first key, constraints as bits) split by one key's bits ``b``: the part holding the
    key gains ``w``, the rest keeps its score; order kept (the holding part first)."""
    nxt = []
    for sc, first, g in groups:
        inter = g & b
        if inter:
            nxt.append((sc + w, first, inter))
            if inter != g:
                nxt.append((sc, first, g ^ inter))
        else:
            nxt.append((sc, first, g))
    return nxt

#: Scorings remembered per index (by the analysis' keys); a lint pass over a large workspace repeats many.
_MEMO_MAX = 8192


class ConstraintIndex:
    """Active constraints of a workspace, indexed by concept id so a check does not scan every line."""

    def __init__(self, files: Iterable[_FileIndex] = (), *, judge=None, judge_threshold: float = 0.8) -> None:
        self._files = list(files)
        #: optional semantic judge for the grey zone (tiers.judge); None unless the workspace enables one
        self.judge = judge
        self.judge_threshold = judge_threshold

    def __len__(self) -> int:
        return sum(len(f.constraints) for f in self._files)

    @property
    def constraints(self) -> list[Constraint]:
        return [c for f in self._files for c in f.constraints]

    @classmethod
    def from_constraints(cls, constraints: Iterable[Constraint]) -> ConstraintIndex:
        return cls([_FileIndex.build(list(constraints))])

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
            fi = _FILE_CACHE.get(ck)
            if fi is None:
                fi = _build_cached(_disk, akeys, constraints_from_text(rel, data, key=key, line_cache=line_cache))
                _remember(ck, fi)
            files.append(fi)
        return cls(files)

    @classmethod
    def from_workspace(cls, ws, overrides: Mapping[str, str | bytes] | None = None, *,
                       persist: bool = True, classified: dict | None = None) -> ConstraintIndex:
        """All memory files of ``ws``; ``overrides`` (workspace-relative path -> content) replace files' content.

        With ``persist`` (and an existing ``.cuticle/``), constraints and line classifications are cached in
        ``.cuticle/cache/arbitrate.json`` keyed by content hash, so later processes skip unchanged files.
        ``classified`` (a dict) receives the classifications made while indexing (see constraints_from_text).
        """
        from .fsutil import read_bytes_checked

        overrides = dict(overrides or {})
        key = None
        key_path = ws.state_path("key")
        if key_path.exists():
            try:
                key = ws.key
            except Exception as exc:  # noqa: BLE001 - an unreadable key means stamps are checked by content only
                _log().warning("stamp key unreadable (%s); treating stamps as unverified", exc)
        files: list[_FileIndex] = []
        seen = set()
        for path in ws.memory_files():
            rel = ws.relpath(path)
            seen.add(rel)
            if rel in overrides:
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            ck = ("file", str(path), st.st_mtime_ns, st.st_size, st.st_ino, key)
            fi = _FILE_CACHE.get(ck)
            if fi is None:
                try:
                    data = read_bytes_checked(path)
                except Exception as exc:  # noqa: BLE001 - one unreadable file must not disable arbitration
                    _log().warning("%s: skipped for arbitration (%s)", rel, exc)
                    continue
                disk = _disk_cache(ws) if persist else None
                sha = blake2b(data + (key or b""), digest_size=16).hexdigest()
                rec = disk["files"].get(rel) if disk else None
                if rec and rec.get("sha") == sha:
                    fi = _file_index_from_record(rec)
                if fi is None:
                    lines = _lines_table(ws, disk)
                    fi = _build_cached(disk, _akeys_table(ws, disk),
                                       constraints_from_text(rel, data, key=key, recorded_at=_mtime_iso(path),
                                                             line_cache=lines, classified=classified))
                    if disk is not None:
                        disk["files"][rel] = _file_index_record(sha, fi)
                        disk["_dirty"] = True
                _remember(ck, fi)
            files.append(fi)
        judge, threshold = None, 0.8
        if ws.section("tiers").get("judge"):
            from .judge import judge_from_config

            judge, threshold = judge_from_config(ws)
        if overrides:
            disk = _disk_cache(ws) if persist else None
            files.extend(cls.from_texts(overrides, key=key, line_cache=_lines_table(ws, disk),
                                        akeys=_akeys_table(ws, disk), _disk=disk)._files)
            if disk is not None:
                disk["_dirty"] = True
        if persist and str(ws.root) in _DISK:
            _save_disk_cache(ws, _DISK[str(ws.root)])
        return cls(files, judge=judge, judge_threshold=threshold)

    def candidates(self, a: Analysis, limit: int = MAX_CANDIDATES) -> list[Constraint]:
        """Constraints sharing concepts with ``a``, best first (rare shared concepts weigh more).

        The result depends only on ``a``'s index keys (in iteration order, which fixes the order of the score
        sums), its value slots and ``indiff``: lines with the same ones (a lint pass sees many) share one scoring.
        """
        return list(self._candidates_of(a, limit))

    def _candidates_of(self, a: Analysis, limit: int = MAX_CANDIDATES) -> list[Constraint]:
        """``candidates(a, limit)`` as kept in the memo (``arbitrate`` only reads it: no copy)."""
        return self._scoring(a, limit)[0]

    def _scoring(self, a: Analysis, limit: int = MAX_CANDIDATES) -> list:
        """The memo entry of ``a``'s scoring: [its candidates, ``arbitrate``'s plan of them (``_plan``) or None
        before the first check]. Both depend only on what the scoring depends on."""
        keys = a.index_keys
        value_slots = frozenset([s if not s.startswith("NUM:") else "NUM" for s, _, _ in a.values])
        sig = (tuple(keys), value_slots, a.indiff, limit)
        memo = self.__dict__.setdefault("_memo", {})
        hit = memo.get(sig)
        if hit is None:
            hit = [self._candidates(keys, value_slots, a.indiff, limit), None]
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            memo[sig] = hit
        return hit

    def _candidates(self, keys: frozenset[str], value_slots: frozenset[str], indiff: bool,
                    limit: int) -> list[Constraint]:
        """The result of ``_candidates_reference``, without scoring constraint by constraint.

        A file's score of a constraint depends only on which of the line's keys it holds (its *pattern*), and the
        file's best ``n_top`` are the best-scored patterns' constraints, ties going to the earlier inserted
        (first key of the pattern, then index). Patterns come from intersecting the keys' postings as integer bit
        sets; their constraints are then walked lazily, best first, as ``_walk`` needs them. A file where a
        frequent key adds the intersection tail is scored constraint by constraint as before.
        """
        lx = lexicon()
        kw = {k: lx.weight(k) for k in keys}
        n_top = limit * 3
        heap: list[tuple[float, int, int, int]] = []
        deferred: dict[int, tuple] = {}
        cap = POSTING_CAP
        # _file_streams skips the keys without a posting in a file: its streams are a function of the others
        # (the line's keys each file holds, in key order, found from the files holding each key)
        key_files = self.__dict__.get("_key_files")
        if key_files is None:
            key_files = self._key_files = {}
            for fnum, f in enumerate(self._files):
                for key, post in f.postings.items():
                    if post:
                        key_files.setdefault(key, []).append(fnum)
        by_file: dict[int, list[str]] = {}
        for key in keys:
            for fnum in key_files.get(key, ()):
                got = by_file.get(fnum)
                if got is None:
                    by_file[fnum] = [key]
                else:
                    got.append(key)
        files = self._files
        for fnum in sorted(by_file):
            f = files[fnum]
            held = tuple(by_file[fnum])
            mk = (fnum, held, n_top, cap)
            hit = f.streams.get(mk)
            if hit is None:
                boundary: dict[int, tuple] = {}
                streams = self._file_streams(fnum, f, held, kw, n_top, boundary)
                hit = (streams, boundary.get(fnum))
                if len(f.streams) >= _MEMO_MAX:
                    f.streams.clear()
                f.streams[mk] = hit
            heap.extend(hit[0])
            if hit[1] is not None:
                deferred[fnum] = hit[1]
        return self._walk(heap, keys, kw, value_slots, indiff, limit, RELATED_MIN * 0.75, deferred)

    def _file_streams(self, fnum: int, f: _FileIndex, keys: Iterable[str], kw: dict[str, float], n_top: int,
                      deferred: dict | None = None) -> list[tuple[float, int, int, int]]:
        """One file's best ``n_top`` (the members of ``_file_top``) as heap streams for ``_walk``.

        With ``deferred`` (a dict), the score level where the cut at ``n_top`` falls is not cut here: it becomes
        one marker stream (rest -1) at that score and the level's least index, and ``deferred[fnum]`` receives what
        ``_admit_level`` needs to cut it when ``_walk`` reaches the marker (most walks stop long before)."""
        postings = f.postings
        total = max(len(f.constraints), 1)
        rare: list[tuple[str, float]] = []
        common: list[tuple[str, float]] = []
        for key in keys:
            post = postings.get(key)
            if not post:
                continue
            if len(post) > POSTING_CAP:
                common.append((key, kw[key] * 0.5))
            else:
                rare.append((key, kw[key] * (1.0 + 1.0 / (1.0 + len(post) / total * 10))))
        if not rare and not common:
            return []
        # Patterns: split the constraints holding any rare key by each key in turn (rare keys in key order,
        # then the frequent one, which only adds to constraints a rare key scored). A group is (score so far,
        # first key, constraints as bits); its score is summed in the reference's order (0.0 + w == w).
        bits = f.bits
        groups: list[tuple[float, int, int]] = []
        union = 0
        n_rare = len(rare)
        for j, (key, w) in enumerate(rare + common):
            b = bits.get(key)
            if b is None:
                b = bits[key] = _bitset(postings[key])
            nxt = _split_groups(groups, b, w)
            if j < n_rare:
                new = b & ~union
                if new:  # constraints this key scores first
                    nxt.append((w, j, new))
                    union |= new
            groups = nxt
        count = union.bit_count()
        tail: list[int] = []
        if len(common) >= 2:
            # The intersection tail of the two rarest frequent keys: the constraints no rare key scored, inserted
            # after all others in the tail's order, scored both halves then the other frequent keys they hold.
            posts = sorted([(key, postings[key]) for key, _ in common], key=lambda kp: len(kp[1]))
            pair = (posts[0][0], posts[1][0])
            tail = f.inter.get(pair)
            if tail is None:
                inter = set(posts[0][1])
                for _, post in posts[1:2]:
                    inter &= set(post)
                tail = f.inter[pair] = list(inter)[-POSTING_CAP:]
            tk = ("tail", pair, POSTING_CAP)
            tb = bits.get(tk)
            if tb is None:
                tb = bits[tk] = _bitset(tail)
            tb &= ~union
            if tb:
                tgroups = [(kw[pair[0]] * 0.5 + kw[pair[1]] * 0.5, n_rare + len(common), tb)]
                for key, _ in posts[2:]:
                    tgroups = _split_groups(tgroups, bits[key], kw[key] * 0.5)
                groups = groups + tgroups
                count += tb.bit_count()
        elif not union:
            # one frequent key and no rare one: the end of its posting, in order
            key, w = common[0]
            tk = ("end", key, POSTING_CAP)
            tb = bits.get(tk)
            if tb is None:
                tb = bits[tk] = _bitset(postings[key][-POSTING_CAP:])
            groups = [(w, 0, tb)]
            count = tb.bit_count()
        out = []
        if count > n_top:
            groups, boundary = self._levels(groups, n_top, n_rare + len(common), tail)
            if boundary is not None:
                if deferred is None:
                    groups = groups + self._admit_level(*boundary)
                else:
                    level = boundary[0]
                    least = min((g & -g).bit_length() for _, _, g in level) - 1
                    out.append((-level[0][0], fnum, least, -1))
                    deferred[fnum] = boundary
        for sc, _, g in groups:
            low = g & -g
            out.append((-sc, fnum, low.bit_length() - 1, g ^ low))
        return out

    @classmethod
    def _admit(cls, groups: list[tuple[float, int, int]], n_top: int, tail_first: int = -1, tail: list[int] = ()
               ) -> list[tuple[float, int, int]]:
        """The groups' constraints among a file's best ``n_top``: best score first, then earlier inserted
        (a group's constraints are inserted at its first key, in index order; tail groups, ``first ==
        tail_first``, last, in the order of ``tail``)."""
        out, boundary = cls._levels(groups, n_top, tail_first, tail)
        return out + cls._admit_level(*boundary) if boundary is not None else out

    @staticmethod
    def _levels(groups: list[tuple[float, int, int]], n_top: int, tail_first: int = -1, tail: list[int] = ()
                ) -> tuple[list[tuple[float, int, int]], tuple | None]:
        """``_admit`` up to the score level where the cut falls: (the groups of the levels above it, whole;
        the arguments of ``_admit_level`` for that level, or None when no level is cut)."""
        groups.sort(key=_neg_first)
        out = []
        left = n_top
        k = 0
        while k < len(groups) and left > 0:
            sc = groups[k][0]
            level = []
            while k < len(groups) and groups[k][0] == sc:
                level.append(groups[k])
                k += 1
            n = sum(g.bit_count() for _, _, g in level)
            if n <= left:
                out.extend(level)
                left -= n
                continue
            return out, (level, left, tail_first, tail)
        return out, None

    @staticmethod
    def _admit_level(level: list[tuple[float, int, int]], left: int, tail_first: int, tail: list[int]
                     ) -> list[tuple[float, int, int]]:
        """The boundary score level's admitted groups: the ``left`` earliest inserted, by first key, then index."""
        by_first: dict[int, int] = {}
        for _, first, g in level:
            by_first[first] = by_first.get(first, 0) | g
        got: dict[int, int] = {}
        for first in sorted(by_first):
            g = by_first[first]
            c = g.bit_count()
            if c > left:
                g = _first_bits(g, tail, left) if first == tail_first else _lowest_bits(g, left)
                c = left
            got[first] = g
            left -= c
            if not left:
                break
        out = []
        for sc2, first, g in level:
            keep = g & got.get(first, 0)
            if keep:
                out.append((sc2, first, keep))
        return out

    def _walk(self, heap: list[tuple[float, int, int, int]], keys: frozenset[str], kw: dict[str, float],
              value_slots: frozenset[str], indiff: bool, limit: int, bound: float, deferred: dict | None = None
              ) -> list[Constraint]:
        """Best score first, ties by file then line; in that order, skip hopeless constraints until ``limit`` are
        kept or the scores fall under the floor set by the best one kept. Each heap item (-score, file number,
        index, more indexes of that score and file as bits) stands for its index then, lazily, the others in index
        order, so the order is that of sorting every (score, file, index) without building the list.

        An item with rest -1 is a file's cut score level (``deferred[file number]``), keyed by the least index of
        the whole level: the level's admitted constraints are among its indexes, so none of them sorts before the
        marker, and they are pushed in its place when it comes up."""
        heapify, heappop, heappush, heapreplace = _heapq()
        heapify(heap)
        files = self._files
        out: list[Constraint] = []
        floor = None
        while heap:
            neg, fnum, i, rest = heap[0]
            if rest:
                if rest < 0:
                    heappop(heap)
                    for _, _, g in self._admit_level(*deferred[fnum]):
                        low = g & -g
                        heappush(heap, (neg, fnum, low.bit_length() - 1, g ^ low))
                    continue
                low = rest & -rest
                heapreplace(heap, (neg, fnum, low.bit_length() - 1, rest ^ low))
            else:
                heappop(heap)
            sc = -neg
            if floor is not None and sc < floor:
                break
            f = files[fnum]
            cons = f.constraints[i]
            fk = f.keys[i]
            if not indiff and cons.tier is not Tier.DECISION and not (fk & value_slots):
                # Upper bound of the coverage this candidate could reach.
                shared_w = sum(map(kw.__getitem__, fk & keys))
                if shared_w / f.minw[i] < bound:
                    continue
            if floor is None:
                floor = sc * RELATIVE_FLOOR
            out.append(cons)
            if len(out) == limit:
                break
        return out

    def _candidates_reference(self, keys: frozenset[str], value_slots: frozenset[str], indiff: bool,
                              limit: int) -> list[Constraint]:
        """The candidates scored constraint by constraint in every file (what ``_candidates`` must return)."""
        lx = lexicon()
        kw = {k: lx.weight(k) for k in keys}
        scored: list[tuple[float, int, int]] = []
        for fnum, f in enumerate(self._files):
            scored.extend(self._file_top(fnum, f, keys, kw, limit * 3))
        return self._select(scored, keys, kw, value_slots, indiff, limit, RELATED_MIN * 0.75)

    @staticmethod
    def _file_top(fnum: int, f: _FileIndex, keys: frozenset[str], kw: dict[str, float], n_top: int
                  ) -> list[tuple[float, int, int]]:
        """One file's best ``n_top`` scorings as (-score, file number, constraint number)."""
        total = max(len(f.constraints), 1)
        score: dict[int, float] = {}
        common: list[tuple[str, list[int]]] = []
        for key in keys:
            post = f.postings.get(key)
            if not post:
                continue
            if len(post) > POSTING_CAP:
                common.append((key, post))
                continue
            w = kw[key] * (1.0 + 1.0 / (1.0 + len(post) / total * 10))
            if not score:
                score = dict.fromkeys(post, w)  # == 0.0 + w for each, in the same order
                continue
            get = score.get
            for i in post:
                score[i] = get(i, 0.0) + w
        if common:
            # Frequent concepts: only add to candidates already found, or intersect two of them.
            fkeys = f.keys
            for key, post in common:
                w = kw[key] * 0.5
                for i in list(score):
                    if key in fkeys[i]:
                        score[i] += w
            if len(common) >= 2:
                common.sort(key=lambda kp: len(kp[1]))
                pair = (common[0][0], common[1][0])
                tail = f.inter.get(pair)
                if tail is None:
                    inter = set(common[0][1])
                    for _, post in common[1:2]:
                        inter &= set(post)
                    tail = f.inter[pair] = list(inter)[-POSTING_CAP:]
                # Each of them holds the two keys intersected; the sum runs in ``common`` order as before.
                both = kw[common[0][0]] * 0.5 + kw[common[1][0]] * 0.5
                rest = [(k, kw[k] * 0.5) for k, _ in common[2:]]
                for i in tail:
                    if i not in score:
                        v = both
                        if rest:
                            fk = fkeys[i]
                            for k, w in rest:
                                if k in fk:
                                    v += w
                        score[i] = v
            elif not score:
                for i in common[0][1][-POSTING_CAP:]:
                    score[i] = kw[common[0][0]] * 0.5
        # The best ``n_top``, earlier-scored first among equals (what heapq.nlargest gives, in C).
        top = sorted(score.items(), key=_second, reverse=True)[:n_top] if len(score) > n_top else score.items()
        return [(-sc, fnum, i) for i, sc in top]

    def _select(self, scored: list[tuple[float, int, int]], keys: frozenset[str], kw: dict[str, float],
                value_slots: frozenset[str], indiff: bool, limit: int, bound: float) -> list[Constraint]:
        """``_walk`` over plain (-score, file number, index) scorings (the reference path)."""
        return self._walk([(neg, fnum, i, 0) for neg, fnum, i in scored], keys, kw, value_slots, indiff, limit,
                          bound)


_HEAPQ: list = []


def _heapq() -> list:
    """heapq's functions, imported on first use (an import statement per walk was ~10% of it)."""
    if not _HEAPQ:
        from heapq import heapify, heappop, heappush, heapreplace

        _HEAPQ.extend((heapify, heappop, heappush, heapreplace))
    return _HEAPQ


def _neg_first(t: tuple) -> float:
    return -t[0]


def _lowest_bits(g: int, n: int) -> int:
    """The ``n`` lowest set bits of ``g`` (0 < n < g.bit_count())."""
    lo, hi = n, g.bit_length()  # the answer is g & ((1 << p) - 1) for the least p holding n set bits
    while lo < hi:
        mid = (lo + hi) // 2
        if (g & ((1 << mid) - 1)).bit_count() >= n:
            hi = mid
        else:
            lo = mid + 1
    return g & ((1 << lo) - 1)


def _bitset(indexes: list[int]) -> int:
    """The indexes as the set bits of an integer (one conversion, not one big-integer operation per index)."""
    if not indexes:
        return 0
    buf = bytearray((max(indexes) >> 3) + 1)
    for i in indexes:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


def _first_bits(g: int, order: list[int], n: int) -> int:
    """The first ``n`` set bits of ``g`` in the order of ``order`` (which lists every set bit)."""
    out = 0
    for i in order:
        if g >> i & 1:
            out |= 1 << i
            n -= 1
            if not n:
                break
    return out


def _remember(key: tuple, fi: _FileIndex) -> None:
    if len(_FILE_CACHE) >= _FILE_CACHE_MAX:
        _FILE_CACHE.pop(next(iter(_FILE_CACHE)))
    _FILE_CACHE[key] = fi


# ------------------------------------------------------------------------------------------------ comparisons
def _w(cid: str, cl: Clause | None = None) -> float:
    if cl is not None:
        w = cl.wmap.get(cid)
        if w is not None:
            return w
    return lexicon().weight(cid)


def _content_ids(cl: Clause) -> tuple[str, ...]:
    return cl.content


def _coverage(k_cl: Clause, c: Analysis) -> float:
    total = k_cl.content_total
    if total <= 0:
        return 0.0
    concepts = c.concepts
    wmap = k_cl.cov_w
    return sum(wmap[x] for x in k_cl.content if x in concepts) / total


def _c_coverage(c: Analysis, k: Analysis) -> float:
    """Share of the candidate's own content that the constraint talks about."""
    ids = {x for cl in c.clauses for x in _content_ids(cl) if x in cl.direct}
    total = sum(_w(x) for x in ids)
    return sum(_w(x) for x in ids if x in k.concepts) / total if total else 0.0


def _relatedness(k: Analysis, c: Analysis) -> float:
    best = 0.0
    for kc in k.clauses:
        if kc.exception:
            continue
        best = max(best, _coverage(kc, c))
    return best


class _Fx:
    """What the checks need of one analysis, computed once for it (a constraint meets many lines in a lint pass,
    a line meets up to ``MAX_CANDIDATES`` constraints): slot sets, values by slot, the clauses' comparable concepts.
    Each set is exactly what the plain code tests, so a skip based on it is the outcome the plain code reaches.
    Most pairs end at the relatedness test: the rest is computed on first need, in stages, each for the role that
    needs it (most lines of a lint are only candidates, most constraints are never one): ``related`` for the
    relatedness of a constraint, ``line`` for a candidate's tests in ``_may_conflict``, ``full`` for the checks
    before the polarity, ``c_flips``/``k_flips`` for the test of a possible flip, ``clauses`` for the polarity
    loop."""

    __slots__ = ("slots", "content_all", "rel_cl", "rel_memo", "done", "vals", "pos_slots", "pos_all", "pos_time",
                 "acts", "win", "th_slots", "elig_k", "c_vals", "scopes", "split", "inferred",
                 "pol_cl", "neg_objects", "rules", "c_flip", "neg_gate", "k_flip", "gate_required", "subst_slots")

    def __init__(self, a: Analysis) -> None:
        self.slots = frozenset(map(_first_item, a.values))  # a.values holds every clause's values
        self.rel_cl: list | None = None  # with content_all and rel_memo, on first need (``related``)
        self.pos_slots: frozenset[str] | None = None  # with pos_all, pos_time and c_vals (``line``)
        self.done = False
        self.inferred: bool | None = None  # _inferred(a), on first need (its memo of texts is smaller than a lint)
        self.pol_cl: list | None = None  # with elig_k, on first need (``clauses``)
        self.c_flip: list | None = None  # with neg_gate, on first need (``c_flips``)
        self.k_flip: list | None = None  # with gate_required, on first need (``k_flips``)

    def related(self, a: Analysis) -> _Fx:
        """What ``_relatedness_fx`` needs of the analysis as a constraint."""
        self.rel_cl = [(cl.content, cl.cov_w, cl.content_total) for cl in a.clauses if not cl.exception]
        self.content_all = frozenset([x for cl in a.clauses if not cl.exception for x in cl.content])
        #: the content concepts a line holds -> the relatedness (``_relatedness_fx``)
        self.rel_memo: dict[frozenset[str], float] = {}
        return self

    def line(self, a: Analysis) -> _Fx:
        """The slots and values of the analysis as a candidate: the slots its clauses (not exceptions) give a
        positive value, less MONTH_V (``pos_slots``), every slot and value with a positive sign."""
        self.pos_slots = frozenset([s for cl in a.clauses if not cl.exception for s, _, sg in cl.values
                                    if sg > 0 and s != "MONTH_V"])
        self.pos_all = frozenset([s for s, _, sg in a.values if sg > 0])
        self.pos_time = "TIME" in self.pos_all
        self.c_vals = frozenset([v for _, v, sg in a.values if sg > 0])
        return self

    def full(self, a: Analysis) -> _Fx:
        if self.done:
            return self
        if self.pos_slots is None:
            self.line(a)
        kind = lexicon().kind
        self.vals = _values(a)
        self.acts = frozenset([x for kc in a.clauses for x in kc.direct
                               if kind.get(x) == "action" and x not in _LIGHT])
        self.win = any(not cl.exception and cl.force == "prohibit" and any(s == "TIME" for s, _, _ in cl.values)
                       for cl in a.clauses)
        self.th_slots = frozenset([s for cl in a.clauses if not cl.exception and cl.force == "prohibit"
                                   and ("ABOVE" in cl.raw) != ("BELOW" in cl.raw)
                                   for s, _, _ in cl.values if s.startswith("NUM:")])
        # the slots in which _substitution could find a value of this analysis as a constraint replaced: one with a
        # positive value, or a value it rules out (denied in a slot compared as a value) as a clause's object
        # ("NAME": any denied one); MONTH_V is never compared
        slot_values = _slot_values(lexicon())
        subst = []
        for slot, lst in self.vals.items():
            if slot == "MONTH_V":
                continue
            if any(sg > 0 for _, sg, _ in lst) or (slot == "NAME" and any(sg < 0 for _, sg, _ in lst)) or (
                    (slot in slot_values or slot in _SHAPE_SLOTS)
                    and any(sg < 0 and _value_is_object(cl, v) for v, sg, cl in lst)):
                subst.append(slot)
        self.subst_slots = frozenset(subst)
        self.scopes: dict[str, tuple] = {}
        #: slot -> (positive (value, clause) pairs, negated values) of ``vals`` (``_substitution``, on first need)
        self.split: dict[str, tuple[list, list, bool]] = {}
        #: (slot, value) -> the clauses denying ``value`` as their object (``_substitution``, on first need)
        self.neg_objects: dict[tuple[str, str], list[Clause]] = {}
        #: id of a clause -> _clause_rules of it (on first need; the clauses live as long as the analysis)
        self.rules: dict[int, tuple] = {}
        self.done = True
        return self

    def clauses(self, a: Analysis) -> _Fx:
        """The clauses' comparable concepts ``_polarity``'s loop compares (most pairs never reach it)."""
        if self.pol_cl is not None:
            return self
        kind = lexicon().kind
        # _shared's concepts of each clause, in its signs' order: concept -> (weight, reached through an antonym)
        elig = [{x: (_w(x, cl), x in cl.antonymic) for x, sg in cl.signs.items()
                 if sg and kind.get(x) not in {"generic", "slot"}} for cl in a.clauses]
        self.elig_k = [(cl, e) for cl, e in zip(a.clauses, elig) if not cl.exception]
        # _polarity's clauses of this analysis as a candidate: (clause, comparable concepts) of those its
        # loop does not skip whatever the constraint (not exceptions; a conflicting force; no report of a fact)
        self.pol_cl = [(cl, e) for cl, e in zip(a.clauses, elig)
                       if not cl.exception and cl.force in _CONFLICT_FORCES
                       and not (a.report and cl.force not in _PERMISSIVE)]
        return self

    def flips(self, a: Analysis) -> _Fx:
        """What ``_flip_possible`` tests, in both roles (``c_flips`` and ``k_flips``)."""
        return self.c_flips(a).k_flips(a)

    def c_flips(self, a: Analysis) -> _Fx:
        """What ``_flip_possible`` tests of the analysis as a candidate: per clause of ``pol_cl`` (permissive
        force, its comparable concepts with their signs, those of them that are not qualifiers, its signs),
        leaving out the clauses lacking either kind of concept; and whether a clause denies an approval gate."""
        kind = lexicon().kind
        c_flip = []
        report = a.report
        for cl in a.clauses:
            if cl.exception:
                continue
            permissive = cl.force in _PERMISSIVE
            if cl.force not in _CONFLICT_FORCES or (report and not permissive):
                continue
            signed, nq = [], []
            for x, sg in cl.signs.items():
                if sg:
                    kd = kind.get(x)
                    if kd != "generic" and kd != "slot":
                        signed.append((x, sg > 0))
                        if kd != "qualifier":
                            nq.append(x)
            if nq:  # nq is part of signed: a clause without it shares nothing the loop can flip
                c_flip.append((permissive, frozenset(signed), frozenset(nq), cl.signs))
        self.c_flip = c_flip
        self.neg_gate = any(cl.signs.get("GATE", 0) < 0 for cl in a.clauses)
        return self

    def k_flips(self, a: Analysis) -> _Fx:
        """What ``_flip_possible`` tests of the analysis as a constraint: per clause it compares (its comparable
        concepts with the opposite signs, its comparable concepts, its actions); and whether its gates all
        require."""
        kind = lexicon().kind
        k_flip = []
        for cl in a.clauses:
            if cl.exception:
                continue
            flipped, comparable = [], []
            for x, sg in cl.signs.items():
                if sg:
                    kd = kind.get(x)
                    if kd != "generic" and kd != "slot":
                        flipped.append((x, sg < 0))
                        comparable.append(x)
            if not comparable:
                continue  # nothing shared with any clause
            k_flip.append((frozenset(flipped), frozenset(comparable), _clause_actions(cl, kind)))
        self.k_flip = k_flip
        gates = [cl.signs["GATE"] for cl in a.clauses if not cl.exception and cl.signs.get("GATE")]
        self.gate_required = bool(gates) and all(sg > 0 for sg in gates)
        return self


def _fx(a: Analysis) -> _Fx:
    fx = a.fx
    if fx is None:
        fx = a.fx = _Fx(a)
    return fx


def _relatedness_fx(kx: _Fx, c: Analysis) -> float:
    """``_relatedness(k, c)`` from the constraint's features (``related`` stage built: ``_kfx``).

    It depends on the line only through which of the constraint's content concepts it holds: the value is kept
    by that set (a constraint meets many lines sharing the same few of its words)."""
    concepts = c.concepts
    shared = kx.content_all & concepts
    if not shared:
        return 0.0  # every coverage is 0
    best = kx.rel_memo.get(shared)
    if best is not None:
        return best
    best = 0.0
    for content, wmap, total in kx.rel_cl:  # _coverage, clause by clause
        if total <= 0:
            continue  # coverage 0.0 never beats best
        cov = sum([wmap[x] for x in content if x in concepts]) / total
        if cov > best:
            best = cov
    kx.rel_memo[shared] = best
    return best


def _kfx(k: Analysis) -> _Fx:
    """``_fx(k)`` of an analysis in the constraint's role (its ``related`` stage built)."""
    kx = _fx(k)
    if kx.rel_cl is None:
        kx.related(k)
    return kx


def _flip_possible(cx: _Fx, kx: _Fx) -> bool:
    """Whether ``_polarity``'s loop over the candidate's clauses could return a flip (``cx``, ``kx``: the flips
    stage of the candidate's and the constraint's features). False only when the loop returns None.

    Each clause ``cc`` of the loop is compared with one constraint clause ``kc`` (its best overlap, a clause that is
    not an exception) and returns only when none of the loop's skips applies and the clauses share a comparable
    concept with opposite signs: ``dropped`` holds such concepts, and ``conflict`` needs one (with the positive
    weights of the lexicon, ``agree`` is never negative: without a disagreeing concept ``dis`` is 0 and no
    antonym disagrees). Two of the skips depend on the pair alone: sharing only qualifiers, and a constraint's
    action the clause does not name while its force is not permissive. So a flip needs some pair of clauses
    sharing a concept with opposite signs and one that is not a qualifier, and escaping the action skip; the
    clauses holding no comparable concept (any pair shares nothing) or no non-qualifier are left out of the
    stage."""
    k_flip = kx.k_flip
    for permissive, signed, nq, signs in cx.c_flip:
        for flipped, comparable, actions in k_flip:
            if signed.isdisjoint(flipped) or nq.isdisjoint(comparable):
                continue
            if permissive or not actions or not actions.isdisjoint(signs):
                return True
    return False


def _best_clause_fx(ce: dict, kx: _Fx) -> tuple[Clause | None, float, dict | None]:
    """``_best_clause(cc, k)`` from the features (``ce``: the candidate clause's comparable concepts), and the best
    clause's comparable concepts."""
    best, best_ov, best_e = None, 0.0, None
    if not ce:
        return best, best_ov, best_e  # nothing shared with any clause: every overlap is 0
    for kc, ke in kx.elig_k:
        if ke.keys().isdisjoint(ce):
            continue  # overlap 0 never beats best_ov + 1e-9
        ws = []
        for x, (cw, ca) in ce.items():
            got = ke.get(x)
            if got is not None:
                w = min(cw, got[0])
                if ca or got[1]:
                    w *= 1.5
                ws.append(w)
        ov = sum(ws)
        if ov > best_ov + 1e-9:
            best, best_ov, best_e = kc, ov, ke
    return best, best_ov, best_e


def _shared(cc: Clause, kc: Clause) -> list[str]:
    lx = lexicon()
    return [x for x in cc.signs if x in kc.signs and lx.kind.get(x) not in {"generic", "slot"}
            and cc.signs[x] and kc.signs[x]]


def _pair_w(x: str, cc: Clause, kc: Clause) -> float:
    w = min(_w(x, cc), _w(x, kc))
    if x in cc.antonymic or x in kc.antonymic:
        w *= 1.5  # one of a pair of opposites: evaluative core of the claim
    return w


def _overlap(cc: Clause, kc: Clause) -> float:
    return sum(_pair_w(x, cc, kc) for x in _shared(cc, kc))


def _best_clause(cc: Clause, k: Analysis) -> tuple[Clause | None, float]:
    best, best_ov = None, 0.0
    for kc in k.clauses:
        if kc.exception:
            continue
        ov = _overlap(cc, kc)
        if ov > best_ov + 1e-9:
            best, best_ov = kc, ov
    return best, best_ov


def _polarity(c: Analysis, k: Analysis, cx: _Fx | None = None, kx: _Fx | None = None) -> tuple[str, str] | None:
    """(what the candidate does, detail) when it flips the constraint's polarity, else None.

    With the analyses' features (``cx``, ``kx``) the steps that cannot fire are skipped and the best clause is
    found from precomputed tables; the result is the one of the plain path.
    """
    # Required approval gates: "ask first", "without review", "directly".
    if kx is not None:
        if cx.c_flip is None:
            cx.c_flips(c)
        if kx.k_flip is None:
            kx.k_flips(k)
        required = kx.gate_required
    else:
        k_gate = [kc.signs["GATE"] for kc in k.clauses if not kc.exception and kc.signs.get("GATE")]
        required = k_gate and all(s > 0 for s in k_gate)
    if required:
        c_gate = [(cc, cc.signs["GATE"]) for cc in c.clauses if cc.signs.get("GATE")]
        if any(s < 0 and (cc.force in {"permit", "relax", "indiff"} or not c.report) for cc, s in c_gate):
            return "bypasses", "it skips the approval the constraint requires"
        if c_gate and all(s > 0 for _, s in c_gate):
            return None
    hit = _time_window(c, k) if kx is None or (kx.win and cx.pos_time) else None
    if hit:
        return hit
    th = _threshold(c, k) if kx is None or not kx.th_slots.isdisjoint(cx.pos_all) else None
    if th == "conflict":
        return "permits", "the amount is beyond the limit the constraint sets"
    if th == "ok":
        return None
    if kx is not None:
        if not _flip_possible(cx, kx):
            return None  # no pair of clauses the loop compares can flip (what remains of this function)
        cx.clauses(c)
        kx.clauses(k)
    ke = None
    # with the features, only the clauses the checks below do not skip whatever the best clause (cx.pol_cl)
    for cc, ce in (cx.pol_cl if kx is not None else [(cc, None) for cc in c.clauses if not cc.exception]):
        if kx is None:
            kc, ov = _best_clause(cc, k)
        else:
            kc, ov, ke = _best_clause_fx(ce, kx)
        if kc is None or (ov < OVERLAP_MIN and not _nominal_permission(cc, kc)):
            continue
        if c.report and cc.force not in {"permit", "relax", "indiff"}:
            continue
        if cc.force not in _CONFLICT_FORCES:
            continue
        if ke is not None:
            # _shared(cc, kc): the comparable concepts of both clauses (signed, not generic or slot ids), in
            # the order of cc's signs, which is the order of its comparable concepts
            shared = [x for x in ce if x in ke]
        else:
            shared = _shared(cc, kc)
        kind = lexicon().kind
        if all(kind.get(x) == "qualifier" for x in shared):
            continue  # sharing only "Wednesday" or "prod" is not being about the same thing
        if _disjoint_values(cc, kc):
            continue  # "never deploy on Fridays" says nothing about Monday deploys
        k_actions, k_denied, required = _clause_rules(kc, kx)
        # A rule about doing something ("don't *use* Docker") is flipped by a claim about doing it, or by an
        # explicit permission/relaxation; a plain fact that merely names the thing ("Docker seat renewal") is not.
        if k_actions and k_actions.isdisjoint(cc.signs) and cc.force not in {"permit", "relax", "indiff"}:
            continue
        # "text messages, not voice notes" against "no voice messages": the line denies the very thing the
        # constraint denies elsewhere in it; its other clause is about a sibling, not a flip.
        if kc.force == "prohibit" and cc.force in {"assert", "oblige"} and any(
                cl2 is not cc and x not in cc.signs and cl2.signs.get(x, 0) < 0
                for cl2 in c.clauses for x in k_denied):
            continue
        # "only X" is denied by "not Y" for any Y other than X: a prohibition that spares X agrees.
        if kc.has_only and cc.force == "prohibit" and not (cc.negated_direct & kc.only_targets):
            continue
        # "never X without Y" makes Y a requirement: a line that keeps Y ("X with Y") agrees with it.
        if required and any(cc.signs.get(x, 0) > 0 for x in required):
            continue
        # "X without Y" against "always Y (for X)": what the candidate drops on purpose is its point.
        dropped = [x for x in shared if x in cc.local_neg and cc.signs[x] < 0 < kc.signs[x]
                   and lexicon().kind.get(x) not in {"qualifier", "generic"}]
        if dropped and cc.force in {"permit", "relax", "assert"}:
            return ("permits" if cc.force == "permit" else "asserts"), "it drops what the constraint requires"
        agree = dis = 0.0
        ant_agree = ant_dis = False
        for x in shared:
            s = cc.signs[x] * kc.signs[x]
            w = _pair_w(x, cc, kc)
            antonymic = (x in cc.antonymic or x in kc.antonymic) and x in cc.direct and x in kc.direct
            if s > 0:
                agree += w
                ant_agree |= antonymic
            else:
                dis += w
                ant_dis |= antonymic
        # A pair of opposites ("HTTP"/"HTTPS", "failing"/"pass") is the core of the claim: it decides alone.
        if ant_dis or ant_agree:
            conflict = ant_dis
        else:
            conflict = dis > agree + 1e-9
        if conflict:
            what = {"permit": "permits", "relax": "relaxes", "indiff": "waves away"}.get(cc.force, "asserts")
            return what, "it says the opposite of the constraint"
    return None


def _clause_rules(kc: Clause, kx: _Fx | None) -> tuple[frozenset[str], list[str], frozenset[str]]:
    """What ``_polarity`` asks of a constraint clause whatever the line, kept in ``kx`` (by clause) when given:
    its own actions (the act a rule is about), the concepts it denies directly (not generic, qualifier or slot
    ids), the concepts "without" makes it require."""
    got = kx.rules.get(id(kc)) if kx is not None else None
    if got is None:
        kind = lexicon().kind
        got = (_clause_actions(kc, kind),
               [x for x in kc.negated_direct
                if kind.get(x) not in {"generic", "qualifier", "slot"} and kc.signs.get(x, 0) < 0],
               frozenset([x for x in kc.local_neg if kc.signs.get(x, 0) > 0 and kind.get(x) != "generic"]))
        if kx is not None:
            kx.rules[id(kc)] = got
    return got


def _clause_actions(kc: Clause, kind: dict[str, str]) -> frozenset[str]:
    """A constraint clause's own actions (the act a rule is about; not the light DO, GET, GO)."""
    return frozenset([x for x in kc.direct if kind.get(x) == "action" and x not in {"DO", "GET", "GO"}])


def _nominal_permission(cc: Clause, kc: Clause) -> bool:
    """"A taxi is fine" against «не заказывай такси»: a permission naming no act of its own, about all the
    constraint's clause is about apart from its verb (one shared object is then enough to compare)."""
    if cc.force not in {"permit", "relax", "indiff"}:
        return False
    lx = lexicon()
    if any(lx.kind.get(x) == "action" for x in cc.direct):
        return False
    k_things = {x for x in kc.content if x in kc.direct and lx.kind.get(x) not in {"action", "qualifier"}}
    if k_things and k_things <= set(cc.signs):
        return True
    # «глютен теперь можно» against «никакого глютена в продуктах»: the permission is about nothing but the
    # constraint's own things
    own = {x for x in cc.content if x in cc.direct}
    return bool(own) and own <= set(kc.signs) and bool(own & k_things)


def _minutes(v: str) -> int:
    h, m = v.split(":")
    return int(h) * 60 + int(m)


def _time_window(c: Analysis, k: Analysis) -> tuple[str, str] | None:
    """"nothing before 10:00" against "a 9:00 meeting is fine": a time inside a forbidden window."""
    for kc in k.clauses:
        if kc.exception or kc.force != "prohibit":
            continue
        before, after = "BEFORE_X" in kc.signs, "AFTER_X" in kc.signs
        k_times = sorted({v for s, v, _ in kc.values if s == "TIME"}, key=_minutes)
        if len(k_times) == 2 and before == after:
            lo, hi = _minutes(k_times[0]), _minutes(k_times[1])  # "no calls 15:00–16:00"
        elif len(k_times) == 1 and before != after:
            lo, hi = (-1, _minutes(k_times[0])) if before else (_minutes(k_times[0]), 24 * 60 + 1)
        else:
            continue
        for cc in c.clauses:
            if cc.exception or cc.force not in {"permit", "assert", "oblige"} or (c.report and cc.force != "permit"):
                continue
            topic = [x for x in cc.signs if x in kc.signs and lexicon().kind.get(x) not in {"generic", "qualifier"}]
            if not topic:
                continue
            for s, v, sg in cc.values:
                if s == "TIME" and sg > 0 and lo < _minutes(v) < hi:
                    return "permits", f"{v} falls in the window the constraint rules out"
    return None


_WORK_START, _WORK_END = 8 * 60, 19 * 60


def _outside_business_hours(cc: Clause) -> bool:
    days = [v for s, v, _ in cc.values if s == "DAY"]
    times = [v for s, v, _ in cc.values if s == "TIME"]
    if days and all(DAY_GROUPS.get(d, {d}) <= DAY_GROUPS["WEEKEND"] for d in days):
        return True
    return bool(times) and all(not _WORK_START <= _minutes(t) < _WORK_END for t in times)


def _disjoint_values(cc: Clause, kc: Clause) -> bool:
    """Both clauses name values of one slot and none coincide: they are about different cases."""
    if "BUSINESS_HOURS" in kc.signs and "BUSINESS_HOURS" not in cc.signs and _outside_business_hours(cc):
        return True
    kv: dict[str, list[str]] = {}
    for slot, v, _ in kc.values:
        kv.setdefault(slot, []).append(v)
    cv: dict[str, list[str]] = {}
    for slot, v, _ in cc.values:
        cv.setdefault(slot, []).append(v)
    compared = None
    for slot, vals in cv.items():
        if slot not in kv:
            continue
        if compared is None:  # {"DAY", "TIME", "DATE", "FLAG", "AIRPORT_CODE"} | _SHAPE_SLOTS | the lexicon's slots
            compared = _compared_slots(lexicon())
        if slot in compared:
            if not any(_same_value(slot, a, b) for a in vals for b in kv[slot]):
                return True
    return False


def _threshold(c: Analysis, k: Analysis) -> str | None:
    """"never above 150" against 220 (conflict) or 120 (compatible): 'conflict', 'ok' or None."""
    for kc in k.clauses:
        if kc.exception or kc.force != "prohibit":
            continue
        above, below = "ABOVE" in kc.raw, "BELOW" in kc.raw
        if above == below:
            continue
        for ks, kv, _ in kc.values:
            if not ks.startswith("NUM:"):
                continue
            for cc in c.clauses:
                for cs, cv, sg in cc.values:
                    if cs != ks or sg <= 0:
                        continue
                    try:
                        a, b = float(cv.replace(",", ".")), float(kv.replace(",", "."))
                    except ValueError:
                        continue
                    inside = a > b if above else a < b
                    if not inside:
                        return "ok"
                    if cc.force in {"permit", "assert", "oblige"} and not (c.report and cc.force != "permit"):
                        return "conflict"
    return None


def _values(a: Analysis) -> dict[str, list[tuple[str, int, Clause]]]:
    out: dict[str, list[tuple[str, int, Clause]]] = {}
    for cl in a.clauses:
        if cl.exception:
            continue
        for slot, val, sg in cl.values:
            out.setdefault(slot, []).append((val, sg, cl))
    return out


def _same_value(slot: str, a: str, b: str) -> bool:
    if a == b:
        return True
    if slot == "DAY":
        ga, gb = DAY_GROUPS.get(a, {a}), DAY_GROUPS.get(b, {b})
        return ga <= gb or gb <= ga
    if slot == "NAME":
        ta, tb = set(a.split()), set(b.split())
        return ta <= tb or tb <= ta
    if slot == "TZ":
        return ("/" in a or "/" in b) and (a in b or b in a)
    if slot == "URL":
        return a in b or b in a
    return False


def _mentions_value(c: Analysis, slot: str, val: str) -> bool:
    if any(_same_value(slot, val, v) for s, v, _ in c.values if s == slot):
        return True
    if slot == "TZ" and "/" in val:
        val = val.split("/", 1)[1]  # "europe/london" is mentioned by "London", not by "Europe"
    parts = [p for p in val.replace("/", " ").replace("_", " ").split() if len(p) > 2]
    text = c.text.casefold()
    if slot in {"TZ", "NAME", "URL", "BRANCH"} and any(p in text for p in parts):
        return True
    return False


_LIGHT = {"USE_TOOL", "CHANGE", "ADD", "WRITE", "SWITCH"}
#: Slots that describe the user's own settings: one value at a time, whatever the sentence around it.
_PERSONAL_SLOTS = {"NAME", "TZ", "SEAT", "UNITS", "CURRENCY", "DATE_FORMAT", "TRAVEL_CLASS"}
#: Value slots found by the shape of the text rather than the lexicon (compared like lexicon slots).
_SHAPE_SLOTS = {"DATE_FORMAT", "VIA"}


def _value_is_object(cl: Clause, value: str) -> bool:
    """In "don't use Docker" the value is what is denied; in "never run npm install --force" it is context."""
    lx = lexicon()
    own = {value, *lx.expand(value), lx.slot_of.get(value)}
    others = [x for x in cl.direct if x not in own and x not in _LIGHT and lx.kind.get(x) not in {"generic", "qualifier"}
              and not lx.slot_of.get(x)]
    return len(others) <= 1


_SLOT_VALUES: list = [None, frozenset()]
_COMPARED_SLOTS: list = [None, frozenset()]


def _compared_slots(lx) -> frozenset[str]:
    """The slots ``_disjoint_values`` compares, built once per lexicon object (it built the set per slot)."""
    if _COMPARED_SLOTS[0] is not lx:
        _COMPARED_SLOTS[1] = frozenset({"DAY", "TIME", "DATE", "FLAG", "AIRPORT_CODE"} | _SHAPE_SLOTS
                                       | set(lx.slot_of.values()))
        _COMPARED_SLOTS[0] = lx
    return _COMPARED_SLOTS[1]


def _slot_values(lx) -> frozenset[str]:
    """``set(lx.slot_of.values())``, built once per lexicon object (a membership test scanned the values)."""
    if _SLOT_VALUES[0] is not lx:
        _SLOT_VALUES[1] = frozenset(lx.slot_of.values())
        _SLOT_VALUES[0] = lx
    return _SLOT_VALUES[1]


def _substitution(c: Analysis, k: Analysis, cx: _Fx | None = None, kx: _Fx | None = None
                  ) -> tuple[str, str, str] | None:
    """(slot, candidate value, constraint value) when the candidate sets a slot the constraint fixed."""
    if c.report:
        return None
    if kx is not None:
        if cx.pos_slots.isdisjoint(kx.vals):
            return None  # no slot the candidate sets is one the constraint names: every branch below skips
        kv, cv = kx.vals, cx.vals
    else:
        kv, cv = _values(k), _values(c)
    lx = lexicon()
    for slot, cvals in cv.items():
        kvals = kv.get(slot)
        if not kvals or slot == "MONTH_V":
            continue  # a month names when a rule applies; another month is another case, not another value
        sp = kx.split.get(slot) if kx is not None else None
        if sp is None:
            k_neg = [v for v, sg, _ in kvals if sg < 0]
            # whether a value the constraint denies can be "ruled out" below: a slot compared as a value
            ruled = bool(k_neg) and (((slot in _slot_values(lx)) if kx is not None else (slot in lx.slot_of.values()))
                                     or slot == "NAME" or slot in _SHAPE_SLOTS)
            sp = ([(v, cl) for v, sg, cl in kvals if sg > 0], k_neg, ruled)
            if kx is not None:
                kx.split[slot] = sp
        k_pos, k_neg, ruled = sp
        for val, sg, ccl in cvals:
            if sg <= 0:
                continue
            if (ruled and any(_same_value(slot, val, nv) for nv in k_neg)
                    and not any(_same_value(slot, val, pv) for pv, _ in k_pos)):
                # a value the user ruled out ("not Samuel", "Zoom doesn't work for me"), now asserted
                k_cls = kx.neg_objects.get((slot, val)) if kx is not None else None
                if k_cls is None:  # the constraint's clauses denying the value as their object
                    k_cls = [cl for v, sg2, cl in kvals if sg2 < 0 and _same_value(slot, val, v)
                             and _value_is_object(cl, v)]
                    if kx is not None:
                        kx.neg_objects[(slot, val)] = k_cls
                if not k_cls and slot != "NAME":
                    continue
                lonely = len([x for x in _content_ids(ccl) if not lx.slot_of.get(x)]) <= 2 and (
                    slot in ccl.direct or any(x in k.concepts for x in _content_ids(ccl) if lx.slot_of.get(x) != slot))
                anchored = any(x for kcl in k_cls for x in _shared(ccl, kcl)
                               if not lx.slot_of.get(x) and x != slot and lx.kind.get(x) != "qualifier"
                               and (x in ccl.direct or x in kcl.direct))
                if lonely or anchored or slot == "NAME":
                    return slot, val, "!" + next(v for v in k_neg if _same_value(slot, val, v))
            if slot == "DATE" and len({pv for pv, _ in k_pos}) > 1:
                continue  # a date range in the constraint: "off Dec 22 - Jan 2"
            # Compare clause by clause: "GraphQL only for mobile, web stays on REST" fixes REST for the web.
            by_clause: dict[int, tuple[Clause, list[str]]] = {}
            for pv, kcl in k_pos:
                by_clause.setdefault(id(kcl), (kcl, []))[1].append(pv)
            for kcl, pvs in by_clause.values():
                if any(_same_value(slot, val, pv) for pv in pvs):
                    continue
                k_months = {v for s2, v, sg2 in kcl.values if s2 == "MONTH_V" and sg2 > 0}
                c_months = {v for s2, v, sg2 in ccl.values if s2 == "MONTH_V" and sg2 > 0}
                if k_months and c_months and not (k_months & c_months):
                    continue  # "in January: Wednesdays" says nothing about February
                if any(_mentions_value(c, slot, pv) for pv in pvs):
                    continue
                if kcl.force == "prohibit" and slot in {"DATE", "TIME", "DAY"}:
                    continue
                if slot.startswith("NUM:"):
                    if slot[4:] in ccl.signs:
                        return slot, val, pvs[0]
                    continue
                anchors = [x for x in _shared(ccl, kcl) if not lx.slot_of.get(x) and x != slot
                           and lx.kind.get(x) not in {"qualifier"} and (x in ccl.direct or x in kcl.direct)]
                if not anchors and not [x for x in _content_ids(ccl) if not lx.slot_of.get(x)]:
                    # "…, Word is fine too": a clause holding only the value takes its topic from the line
                    anchors = [x for cl2 in c.clauses if cl2 is not ccl for x in _shared(cl2, kcl)
                               if not lx.slot_of.get(x) and x != slot and lx.kind.get(x) not in {"qualifier"}]
                lonely = len([x for x in _content_ids(ccl) if not lx.slot_of.get(x)]) <= 2 and (
                    slot in ccl.direct or any(x in k.concepts for x in _content_ids(ccl) if lx.slot_of.get(x) != slot))
                if anchors or (lonely and slot not in {"DATE", "TIME", "DAY", "PROPER", "DOM"}) \
                        or slot in _PERSONAL_SLOTS \
                        or slot.startswith("KEY:"):
                    return slot, val, pvs[0]
    return None


def _scope_choices(k: Analysis, scope: str) -> tuple[Analysis, set[str], list[tuple[dict[str, float], float]],
                                                       frozenset[str], frozenset[str]]:
    """What a scoped decision chooses, clause by clause (its own content minus the scope): (the scope's analysis,
    its concept ids, [(choice -> weight, total weight)], every choice key, the values of the "v:" keys).
    Depends on the constraint only."""
    lx = lexicon()
    scope_a = analyze(scope)
    scope_ids = {x for cl in scope_a.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    choices = []
    for kc in k.clauses:
        if kc.exception:
            continue
        ch: dict[str, float] = {}
        for x in kc.direct:
            if x in scope_ids or lx.kind.get(x) in {"generic"} or x in {"BEFORE_X", "AFTER_X", "MONTH", "QUARTER"}:
                continue
            ch[x] = _w(x)
        for slot, v, sg in kc.values:
            if sg > 0 and slot not in {"DAY", "DATE", "TIME", "MONTH_V", "DOM", "DAYPART"}:
                ch["v:" + v] = KIND_VALUE
        if not ch:
            continue
        choices.append((ch, sum(ch.values())))
    keys = frozenset(x for ch, _ in choices for x in ch)
    return scope_a, scope_ids, choices, keys, frozenset([x[2:] for x in keys if x.startswith("v:")])


def _scope_generalization(c: Analysis, k: Analysis, scope: str, kx: _Fx | None = None) -> bool:
    lx = lexicon()
    if kx is not None:
        pre = kx.scopes.get(scope)
        if pre is None:
            pre = kx.scopes[scope] = _scope_choices(k, scope)
        cx = _fx(c)
        c_vals = (cx.line(c) if cx.pos_slots is None else cx).c_vals
        if pre[3].isdisjoint(c.concepts) and pre[4].isdisjoint(c_vals):
            return False  # the line touches none of the choices: every coverage below is 0
    else:
        pre = _scope_choices(k, scope)
        c_vals = {v for _, v, sg in c.values if sg > 0}
    scope_a, scope_ids, choices = pre[:3]
    choice: dict[str, float] = {}
    best = 0.0
    for ch, total in choices:
        got = sum(w for x, w in ch.items() if x in c.concepts or (x.startswith("v:") and x[2:] in c_vals))
        cov = got / total
        if cov > best:
            best, choice = cov, ch
    if best < CHOICE_MIN:
        return False
    # The choice itself must be named: a tool, a value, a name, not only generic actions.
    if not any((x in c.concepts and (lx.kind.get(x) in {"value", "object"} or x.startswith("w:")))
               or (x.startswith("v:") and x[2:] in c_vals) for x in choice):
        return False
    c_ids = {x for cl in c.clauses for x in cl.direct if lx.kind.get(x) != "generic"}
    if c.universal:
        return True
    scope_when = {(s, v) for s, v, sg in scope_a.values if sg > 0 and s in {"MONTH_V", "DATE", "DAY", "DOM"}}
    if scope_when and scope_when & {(s, v) for s, v, sg in c.values if sg > 0}:
        return False  # "until the end of January" kept as "in January"
    env_scope = scope_ids & _ENV_SCOPE
    env_c = {x for x in c_ids if x in _ENV_SCOPE}
    if env_scope and env_c and not (env_c & env_scope):
        return True  # "Docker Compose only for local development" -> "production runs on Docker Compose"
    if scope_ids:
        sw = sum(_w(x) for x in scope_ids)
        kept = sum(_w(x) for x in scope_ids if x in c.concepts)
        if kept / sw > 0.5 or (scope_ids & c_ids & _ENV_SCOPE):
            return False
    novel = [x for x in c_ids if x not in choice and x not in scope_ids and not lx.slot_of.get(x)]
    return len(novel) / max(len(c_ids), 1) <= NOVEL_MAX


def _explain(kind: str, cand_tier: Tier, cons: Constraint, detail: str) -> tuple[str, str]:
    tname = cons.tier.name
    if kind == "scope-generalization":
        return (
            f'Attempting to generalize a scoped DECISION ("{cons.scope}") into an unscoped or wider claim.',
            f'Ask the user, or narrow the line to the decision\'s scope ("{cons.scope}").',
        )
    if kind == "value-substitution":
        return (
            f"The line gives a different value ({detail}) for something the {tname} already fixed.",
            f"Keep the value the user gave in {cons.file}:{cons.line}, or ask the user; "
            "only a new instruction from the user can change it.",
        )
    if kind == "lower-tier-over-directive":
        return (
            f"A {cand_tier.name} (the agent's own inference) cannot override a {tname}: {detail}.",
            f"Drop the inference, or ask the user whether {cons.file}:{cons.line} still applies; "
            "only the user can amend it.",
        )
    if kind == "unverified-amendment":
        return (
            f"The line claims to change a {tname}, but it does not come from the user's own words in this turn.",
            "Quote the user's current prompt verbatim, or ask the user to confirm the change.",
        )
    return (
        f"The line contradicts the {tname}: {detail}.",
        f"Do not store it. Ask the user; if they change their mind, their new instruction supersedes "
        f"{cons.file}:{cons.line}. Or rewrite the line so it agrees with the constraint.",
    )


_MODAL = frozenset({"PERMIT", "RELAX", "INDIFF", "OBLIGE", "HEDGE", "FUTURE_PLAN"})
_INFER_WORDS = frozenset({"so", "therefore", "hence", "thus", "means", "значит", "поэтому", "следовательно",
                          "выходит", "итак"})


def _inferred(c: Analysis) -> bool:
    """The line draws a conclusion ("…, so reviews can be skipped", «значит, можно»): an inference, not a report."""
    return _inferred_text(c.text)


def _inferred_fx(cx: _Fx, c: Analysis) -> bool:
    """``_inferred(c)``, kept with the analysis' features."""
    inf = cx.inferred
    if inf is None:
        inf = cx.inferred = _inferred_text(c.text)
    return inf


@functools.lru_cache(maxsize=4096)
def _inferred_text(text: str) -> bool:
    from .text import words

    return any(w in _INFER_WORDS for w in words(text))


def check_conflict(c: Analysis, cand_tier: Tier, cons: Constraint) -> Conflict | None:
    """The conflict between a candidate and one constraint, or None when they are compatible."""
    return _check(c, cand_tier, cons, True)


def _check_conflict_exhaustive(c: Analysis, cand_tier: Tier, cons: Constraint) -> Conflict | None:
    """``check_conflict`` evaluating every step in full, without features or skips: the reference the fast path
    is tested against (tests/tiers/test_arbitrate_speed_equivalence.py)."""
    return _check(c, cand_tier, cons, False)


def _check(c: Analysis, cand_tier: Tier, cons: Constraint, fast: bool, cx: _Fx | None = None,
           kk: tuple[Analysis, _Fx] | None = None, rel: float | None = None) -> Conflict | None:
    """The check; on the fast path ``cx`` may be ``_fx(c)`` and ``kk`` the constraint's (analysis, ``_fx`` of it),
    as ``arbitrate`` keeps them (the same objects this would look up), and ``rel`` the relatedness
    ``_relatedness_fx`` gives them, when the caller computed it."""
    k = analyze(cons.content) if kk is None else kk[0]  # cons.analysis
    if c.mention and not (c.markers & {"PERMIT", "RELAX", "INDIFF"}):
        return None
    if fast:
        if cx is None:
            cx = _fx(c)
        kx = _kfx(k) if kk is None else kk[1]
        if rel is None:
            rel = _relatedness_fx(kx, c)
    else:
        cx = kx = None
        rel = _relatedness(k, c)
    if rel < RELATED_MIN and cons.tier is not Tier.DECISION and not c.indiff:
        if fast:
            if cx.slots.isdisjoint(kx.slots):
                return None
        else:
            c_slots = {s for s, _, _ in c.values}
            if not any(s in c_slots for s, _, _ in k.values):
                return None  # unrelated and no common slot: nothing below could fire
    if fast:
        if not cx.done:
            cx.full(c)
        if not kx.done:
            kx.full(k)
    if cons.tier is Tier.DECISION and cons.scope and _scope_generalization(c, k, cons.scope, kx):
        reason, res = _explain("scope-generalization", cand_tier, cons, "")
        return Conflict(cons, "scope-generalization", reason, res, 1.0 + rel)
    sub = _substitution(c, k, cx, kx)
    if sub:
        slot, val, kval = sub
        label = "number" if slot.startswith("NUM:") else slot.lower().replace("_", " ")
        kind = "value-substitution"
        shown = val.replace("_", " ").lower() if val.isupper() else val
        if kval.startswith("!"):
            detail = f'{label} "{shown}", which the user ruled out'
        else:
            kshown = kval.replace("_", " ").lower() if kval.isupper() else kval
            detail = f'{label} "{shown}" instead of "{kshown}"'
        reason, res = _explain(kind, cand_tier, cons, detail)
        return Conflict(cons, kind, reason, res, 1.0 + rel)
    if cand_tier is Tier.OBSERVATION and not (c.markers & _MODAL) and not (_inferred_fx(cx, c) if fast
                                                                             else _inferred(c)):
        # An environment report states a fact ("`npm audit` reports …", "Calendar API: 4 meetings"): naming the
        # tool or the thing is not doing what the rule is about. It conflicts only when it reports the ruled act.
        if fast:
            k_acts = kx.acts
        else:
            lx = lexicon()
            k_acts = {x for kc in k.clauses for x in kc.direct if lx.kind.get(x) == "action" and x not in _LIGHT}
        if not (k_acts & c.concepts):
            return None
    if c.indiff and max(rel, _c_coverage(c, k)) >= 0.5:
        rel = max(rel, RELATED_MIN)
    if fast:
        # _time_window needs a prohibiting clause with a time and a positive time in the line; _threshold a
        # prohibiting clause's number slot the line gives a positive value
        window = (_time_window(c, k) if kx.win and cx.pos_time else None) or (
            ("permits", "the amount is beyond the limit the constraint sets")
            if not kx.th_slots.isdisjoint(cx.pos_all) and _threshold(c, k) == "conflict" else None)
    else:
        window = _time_window(c, k) or (("permits", "the amount is beyond the limit the constraint sets")
                                         if _threshold(c, k) == "conflict" else None)
    if window is not None:
        lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and (c.hedged or cand_tier is Tier.OBSERVATION)
        kind = "lower-tier-over-directive" if lower else "polarity-flip"
        reason, res = _explain(kind, cand_tier, cons, window[1])
        return Conflict(cons, kind, reason, res, max(rel, RELATED_MIN))
    if rel < RELATED_MIN:
        return None
    if c.indiff:
        detail = "it treats as indifferent something the user ruled on"
    else:
        pol = _polarity(c, k, cx, kx)
        if pol is None:
            return None
        what, detail = pol
        detail = f"the line {what} what the constraint rules out" if what != "bypasses" else detail
    lower = cand_tier in (Tier.HYPOTHESIS, Tier.OBSERVATION) and (c.hedged or cand_tier is Tier.OBSERVATION
                                                                  or (_inferred_fx(cx, c) if fast
                                                                      else _inferred(c)))
    kind = "lower-tier-over-directive" if lower else "polarity-flip"
    if cand_tier is Tier.DIRECTIVE:
        kind = "unverified-amendment"
    reason, res = _explain(kind, cand_tier, cons, detail)
    return Conflict(cons, kind, reason, res, rel)


def _constraint_fx(index: ConstraintIndex, content: str) -> tuple[Analysis, _Fx]:
    """(analysis, ``_fx``) of a constraint's content, kept with the index: a lint checks each constraint many
    times."""
    kfx = index.__dict__.setdefault("_kfx", {})
    kk = kfx.get(content)
    if kk is None:
        k = analyze(content)
        kk = kfx[content] = (k, _kfx(k))
    return kk


def _plan(index: ConstraintIndex, a: Analysis, cands: list[Constraint]) -> tuple[list, list, frozenset[str]]:
    """How ``arbitrate`` visits the candidates of ``a``'s scoring: (steps, the steps not *lone*, the slots of the
    lone ones). A step is (constraint, its identity for the check, (its analysis, features), relatedness, lone).

    The relatedness depends on the line only through its index keys (the constraint's content concepts are not
    generic, and the index keys are the line's concepts less the generic ones), so every line of the scoring
    shares it. A candidate is lone when it is not a scoped DECISION and its relatedness is under RELATED_MIN:
    for a line that is not "indifferent" (the scoring's ``indiff``) and holds none of its slots, the check
    finds nothing (``_may_conflict``). A constraint that cannot be analysed is left to ``arbitrate``'s
    loop (None for its features and relatedness), where the failure is reported as before."""
    steps = []
    lone_slots: set[str] = set()
    # per constraint of the index (by id: the index holds them): (its identity for the check, (analysis,
    # features), whether it is a scoped DECISION), made once however many scorings it is a candidate of
    known = index.__dict__.setdefault("_steps", {})
    for cons in cands:
        got = known.get(id(cons))
        if got is None or got[0] is not cons:
            same = (cons.content, id(cons.tier), cons.scope)  # tiers are singletons: id() spares Enum.__hash__
            try:
                kk = _constraint_fx(index, cons.content)
            except Exception:  # noqa: BLE001 - reported by the loop, which fails on it again
                steps.append((cons, same, None, None, False))
                continue
            got = known[id(cons)] = (cons, same, kk, cons.tier is Tier.DECISION and bool(cons.scope))
        _, same, kk, scoped = got
        try:
            rel = _relatedness_fx(kk[1], a)
        except Exception:  # noqa: BLE001 - reported by the loop, which fails on it again
            steps.append((cons, same, None, None, False))
            continue
        lone = rel < RELATED_MIN and not scoped
        if lone:
            lone_slots.update(kk[1].slots)
        steps.append((cons, same, kk, rel, lone))
    return steps, [st for st in steps if not st[4]], frozenset(lone_slots)


def _may_conflict(c: Analysis, cx: _Fx, cons: Constraint, kk: tuple[Analysis, _Fx], rel: float, apart: bool
                  ) -> bool:
    """Whether ``_check`` could find a conflict between a line that is not "indifferent" and a constraint
    (``kk``: its analysis and features), ``rel`` their relatedness; ``apart`` when the constraint holds none of
    the line's slots. False only when the check returns None.

    A value is substituted only in a slot the line sets and the constraint fixes (``_Fx.subst_slots``), and only
    when the line is not a report; a time window or threshold applies only with a prohibiting clause's TIME or
    number slot the line gives a positive value (in the check and in ``_polarity``): none of these without a
    common slot. What remains: a scoped DECISION's generalization, and from RELATED_MIN on (the relatedness of a
    line that is not "indifferent" is not raised) a flip by ``_polarity``: a bypassed approval (a required gate
    the line denies) or its loop (``_flip_possible``)."""
    k, kx = kk
    if not apart:
        if cx.pos_slots is None:
            cx.line(c)
        if not kx.done:
            kx.full(k)
        if not c.report and not cx.pos_slots.isdisjoint(kx.subst_slots):
            return True
        if (kx.win and cx.pos_time) or not kx.th_slots.isdisjoint(cx.pos_all):
            return True
    if rel >= RELATED_MIN:
        if kx.k_flip is None:  # the stage is built once per analysis (a method call per pair cost more)
            kx.k_flips(k)
        if cx.c_flip is None:
            cx.c_flips(c)
        if (kx.gate_required and cx.neg_gate) or _flip_possible(cx, kx):
            return True
    return cons.tier is Tier.DECISION and bool(cons.scope) and _scope_generalization(c, k, cons.scope, kx.full(k))


def _ask_judge(index: ConstraintIndex, a: Analysis, cand_tier: Tier, content: str,
               grey: list[tuple[float, Constraint]]) -> list[Conflict]:
    """Ask the optional judge about the three most related constraints the local layer let pass."""
    out = []
    for rel, cons in sorted(grey, key=lambda g: -g[0])[:3]:
        ctx = {"tier": cand_tier.name, "constraint_tier": cons.tier.name, "scope": cons.scope,
               "relatedness": round(rel, 3)}
        try:
            verdict = index.judge(content, cons.content, ctx)
        except Exception:  # noqa: BLE001 - the judge is optional; its failures never block or crash a write
            _log().exception("arbitration judge failed; ignoring it")
            return out
        if not isinstance(verdict, dict) or not verdict.get("conflict"):
            continue
        try:
            confidence = float(verdict.get("confidence", 0.0))
        except (TypeError, ValueError):
            continue
        if confidence < index.judge_threshold:
            continue
        why = str(verdict.get("reason") or "a semantic judge found the line contradicts the constraint")[:300]
        reason, res = _explain("polarity-flip", cand_tier, cons, why)
        out.append(Conflict(cons, "judge", reason + f" (decided by the local judge, confidence {confidence:.2f})",
                            res, rel))
    return out


def conflict_error(cand_tier: Tier, content: str, conflict: Conflict) -> dict[str, Any]:
    """The EpistemicConflictError JSON object for a block (plain JSON: it travels inside hosts' reason strings)."""
    return {
        "error": "EpistemicConflictError",
        "attempted": {"tier": cand_tier.name, "content": content},
        "conflicts_with": conflict.constraint.to_json(),
        "kind": conflict.kind,
        "reason": conflict.reason,
        "resolution": conflict.resolution,
    }


def _tier_of(tier: Tier | str) -> Tier:
    return tier if isinstance(tier, Tier) else Tier.from_code(str(tier))


def arbitrate(index: ConstraintIndex, text: str, tier: Tier | str, *, file: str = "MEMORY.md",
              scope: str | None = None, verified: bool = False) -> Arbitration:
    """Decide whether ``text`` (a new line of ``file`` with ``tier``) may be written beside the constraints.

    ``verified`` marks a line built from the user's own words this turn (tiers.provenance): a verified
    DIRECTIVE/DECISION amends what it contradicts and is allowed, returning the superseded constraints.
    """
    cand_tier = _tier_of(tier)
    content = split_stamp(text)[0].strip()
    a = analyze(content)
    if not strip_markup(content):
        return Arbitration("allow", cand_tier, content, file)
    if a.mention and index.judge is None and not (a.markers & {"PERMIT", "RELAX", "INDIFF"}):
        return Arbitration("allow", cand_tier, content, file)  # check_conflict passes a mention against anything
    conflicts: list[Conflict] = []
    grey: list[tuple[float, Constraint]] = []
    # (content, tier, scope) of constraints found compatible: check_conflict depends on nothing else of a
    # constraint but the identity it puts in a Conflict, so the same rule restated in another file passes too
    passed: set[tuple] = set()
    cx = _fx(a)
    # Most candidates share a word with the line and nothing else: against a line that is not "indifferent",
    # _check finds a conflict only where _may_conflict says it may (with no common slot: a flip from RELATED_MIN
    # on, or a scoped DECISION's generalization). That test is made here, before the call; the plan marks
    # the candidates that fail it whatever the line's slots, and when the line shares none of their slots they
    # are not visited at all (they conflict with nothing and the judge is asked only from RELATED_MIN on).
    slots = None if a.indiff else cx.slots
    scoring = index._scoring(a)
    plan = scoring[1]
    if plan is None:
        plan = scoring[1] = _plan(index, a, scoring[0])
    steps, core, lone_slots = plan
    if slots is not None and slots.isdisjoint(lone_slots):
        steps = core
    for cons, same, kk, rel, lone in steps:
        if cons.file == file and cons.content == content:
            continue  # the line restates itself (an unchanged line re-sent by a whole-file write)
        if same in passed:
            cf = None
        else:
            try:
                if kk is None:  # the plan could not analyse the constraint: fail (and report) here
                    kk = _constraint_fx(index, cons.content)
                    rel = _relatedness_fx(kk[1], a)
                if slots is None:
                    cf = _check(a, cand_tier, cons, True, cx, kk, rel)  # check_conflict
                else:
                    apart = slots.isdisjoint(kk[1].slots)
                    may = not (apart and lone) and _may_conflict(a, cx, cons, kk, rel, apart)
                    cf = _check(a, cand_tier, cons, True, cx, kk, rel) if may else None
            except Exception:  # noqa: BLE001 - a bug in one comparison must not block or crash the write path
                _log().exception("arbitration failed for constraint %s", cons.id)
                continue
            if cf is None:
                passed.add(same)
        if cf is not None:
            conflicts.append(cf)
        elif index.judge is not None:
            rel = _relatedness(cons.analysis, a)
            if rel >= RELATED_MIN:
                grey.append((rel, cons))
    if not conflicts and grey and index.judge is not None:
        conflicts.extend(_ask_judge(index, a, cand_tier, content, grey))
    if not conflicts:
        return Arbitration("allow", cand_tier, content, file)
    if verified and cand_tier in (Tier.DIRECTIVE, Tier.DECISION):
        sup = tuple(cf.constraint for cf in conflicts
                    if cand_tier is Tier.DIRECTIVE or cf.constraint.tier is Tier.DECISION)
        if len(sup) == len(conflicts):
            return Arbitration("allow", cand_tier, content, file, supersedes=sup, conflicts=tuple(conflicts))
        conflicts = [cf for cf in conflicts if cf.constraint not in sup]
    conflicts.sort(key=lambda cf: (-cf.constraint.tier.rank, -cf.strength))
    error = conflict_error(cand_tier, content, conflicts[0])
    return Arbitration("block", cand_tier, content, file, error=error, conflicts=tuple(conflicts))
