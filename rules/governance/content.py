"""What content on disk or inline would touch: the files a patch names, the members of an archive.

A patch or archive is judged by the paths it writes, not by the command that applies it. Content the hook cannot
read (a missing file, a remote stash, an archive too large to list quickly) is ``None``: the caller treats the
write as reaching every protected path under the destination.
"""

from __future__ import annotations

import os
import stat

#: larger patch files or archives are not read on the hook path (their writes count as unknown)
MAX_BYTES = 8 * 1024 * 1024
MAX_MEMBERS = 20_000

_HEADERS = ("diff --git ", "--- ", "+++ ", "rename from ", "rename to ", "copy from ", "copy to ",
            "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:", "Index: ")


def diff_paths(text: str) -> list[str]:
    """Every path a unified / git / apply_patch diff names, as written and with a leading ``a/``/``b/`` removed
    (``patch -p0`` and ``-p1`` read the same header differently, so both forms count)."""
    out: dict[str, None] = {}
    for line in text.splitlines():
        if not line.startswith(("d", "-", "+", "r", "c", "*", "I")) or not line.startswith(_HEADERS):
            continue
        if line.startswith("diff --git "):
            parts = line[len("diff --git "):].split()
            names = parts[-2:] if len(parts) >= 2 else parts
        elif line.startswith(("--- ", "+++ ")):
            name = line[4:].split("\t", 1)[0].strip()
            names = [name]
        else:
            names = [line.split(":", 1)[1].strip() if line.startswith("***") else line.split(" ", 2)[-1].strip()]
        for name in names:
            if not name or name == "/dev/null":
                continue
            if name.startswith('"') and name.endswith('"') and len(name) > 1:
                name = name[1:-1]
            out[name] = None
            if name[:2] in ("a/", "b/"):
                out[name[2:]] = None
    return list(out)


def read_text(path: str) -> str | None:
    """A small text file's content, or None when it cannot be read cheaply."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None  # only regular files: a device, fifo or /dev/stdin would read the evaluator's own input
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except (OSError, ValueError):
        return None


def archive_members(path: str) -> list[str] | None:
    """Member names of a tar or zip archive on disk (None: unreadable, too large or not an archive)."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
    except (OSError, ValueError):
        return None
    import tarfile
    import zipfile

    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
        else:
            with tarfile.open(path) as t:
                names = []
                for m in t:
                    names.append(m.name)
                    if m.issym() or m.islnk():
                        names.append(m.linkname)  # a link member points somewhere: that is touched too
                    if len(names) > MAX_MEMBERS:
                        return None
    except Exception:  # noqa: BLE001 - any unreadable archive is unknown content
        return None
    return names if len(names) <= MAX_MEMBERS else None
