"""The one place lint fixes hand removed lines to the memory model's GC archive (`tiers.gc`).

Records are written in GC's own format (``tiers.gc.Removed`` plus the neighbour and EOL GC keeps), so
`cuticle gc --restore ID` brings back a line removed by `cuticle lint --fix` exactly like one GC removed.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any


def archive_available() -> bool:
    """True when this build has the GC archive and the session counter (needed by the CU103 fix)."""
    try:
        import tiers.gc  # noqa: F401
        import tiers.session  # noqa: F401
    except ImportError:
        return False
    return True


def archive_lines(ws: Any, rel_path: str, doc: Any, numbers: list[int]) -> None:
    """Record each stamped line ``numbers`` of ``doc`` in the GC archive (before rewriting the file: a crash in
    between leaves the line in place and a record that restore() skips and the next run does not repeat)."""
    from tiers.gc import Removed, archive_once
    from tiers.session import current_session
    from tiers.stamps import render_stamp

    current = current_session(ws)
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    records: list[dict] = []
    for n in numbers:
        ln = doc.lines[n - 1]
        stamp = ln.stamp
        if stamp is None:
            raise ValueError(f"{rel_path}:{n}: only stamped lines can be archived")
        prev = next((doc.lines[i].text for i in range(n - 2, -1, -1) if doc.lines[i].text.strip()), None)
        reason = (f"expired (HYPOTHESIS live through session {stamp.expires}, now session {current})"
                  if stamp.expires is not None else "removed by cuticle lint --fix")
        item = Removed(stamp.id, rel_path, n, ln.text, render_stamp(stamp), reason, stamp.tier.name)
        records.append({**item.to_json(), "eol": ln.eol, "prev": prev, "session": current, "removed_at": now,
                        "by": "cuticle lint --fix (CU103)"})
    # once per id: a fix killed after archiving and run again adds no duplicate record
    archive_once(ws, records)
