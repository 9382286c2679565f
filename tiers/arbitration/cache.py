"""The persistent side of the constraint index, in ``.cuticle/cache/``.

A fresh gate process does not re-classify unchanged memory, and a changed file re-analyses only its changed lines:
``arbitrate.json`` holds each file's constraints and index keys by content hash; ``arbitrate-lines.json`` the
classification of each line (content -> [tier code, scope] or None); ``arbitrate-keys.json`` each constraint's
index keys (content -> [keys, minw]), valid for one digest of the lexicon and the analysis code. The two line
tables are read only when a file must be re-indexed. Corrupt or stale files are ignored, never trusted.
"""

from __future__ import annotations

import functools
import os

from ..concepts import blake2b

_CACHE_VERSION = 5  # 5: index keys hold the typed slots of a line (index.typed_slots)
_LINE_CACHE_MAX = 50_000
DISK: dict[str, dict] = {}


#: what an analysis depends on, under ``tiers/``: the lexicon data, the concept analysis, the arbitration code and
#: the classifier (the cache holds each line's tier and DECISION scope); a directory counts with its files ending so
_SOURCES = (("data", ".toml"), ("concepts", ".py"), ("arbitration", ".py"), ("data/markers", ".txt"),
            ("text.py", ""), ("stamps.py", ""), ("classify.py", ""), ("lexicon.py", ""), ("line.py", ""))


@functools.lru_cache(maxsize=1)
def _analysis_digest() -> str:
    """Digest of the lexicon data and the code an analysis depends on (cached index keys are valid for it)."""
    return sources_digest(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sources_digest(tiers: str) -> str:
    """The digest of the analysis sources (``_SOURCES``) under the directory ``tiers``.

    Each source counts by its name, size and modification time, the test CPython uses to trust a ``.pyc``: any
    edit, checkout or install of a source changes them. Reading and hashing the ~30 files instead cost a fresh hook
    process over a millisecond for the same answer."""
    seen: list[tuple] = []
    for name, suffix in _SOURCES:
        path = os.path.join(tiers, name)
        try:
            if suffix:
                with os.scandir(path) as it:
                    found = sorted((e.name, e.stat()) for e in it if e.name.endswith(suffix) and e.is_file())
                seen.extend((f"{name}/{n}", st.st_size, st.st_mtime_ns) for n, st in found)
            else:
                st = os.stat(path)
                seen.append((name, st.st_size, st.st_mtime_ns))
        except OSError:
            seen.append((name, "?"))
    return blake2b(repr(seen).encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()


def disk_cache(ws) -> dict:
    path = ws.state_path("cache", "arbitrate.json")
    root = str(ws.root)
    cached = DISK.get(root)
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
    DISK[root] = data
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
    rec = disk_cache(ws)["files"].get(rel)
    return bool(rec) and rec.get("sha") == blake2b(data + key, digest_size=16).hexdigest()


def save_disk_cache(ws, data: dict) -> None:
    if not data.get("_dirty") or not ws.state_dir.is_dir():
        return
    import json

    from ..fsutil import atomic_write

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
                         json.dumps({"v": _CACHE_VERSION, "lx": data["lx"], "lines": lines}, ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8"))
        if akeys is not None and data.get("_akeys_dirty"):
            atomic_write(ws.state_path("cache", "arbitrate-keys.json"),
                         json.dumps({"v": _CACHE_VERSION, "lx": data["lx"], "akeys": akeys}, ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8"))
            data["_akeys_dirty"] = False
    except OSError as exc:
        _log().warning("arbitration cache not saved: %s", exc)


def lines_table(ws, disk: dict | None) -> dict | None:
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
                    and loaded.get("lx") == disk.get("lx") and isinstance(loaded.get("lines"), dict)):
                table = loaded["lines"]
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        disk["_lines"] = table
    return table


def akeys_table(ws, disk: dict | None) -> dict | None:
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




def _log():
    import logging

    return logging.getLogger("tiers.arbitrate")
