"""Unified diffs (the one module that touches unidiff): which lines of which files a diff adds."""

from __future__ import annotations

from tiers.errors import ParseError


def _clean(path: str | None) -> str | None:
    if not path or path == "/dev/null":
        return None
    for prefix in ("a/", "b/"):
        if path.startswith(prefix):
            return path[len(prefix):]
    return path


def added_lines(diff_text: str) -> dict[str, set[int]]:
    """``{target path: {added line numbers in the new file}}``; deleted files are left out.

    Raises ParseError when the text is not a unified diff.
    """
    from unidiff import PatchSet
    from unidiff.errors import UnidiffParseError

    try:
        patch = PatchSet(diff_text.splitlines(keepends=True))
    except UnidiffParseError as exc:
        raise ParseError(f"--diff: not a unified diff ({exc}); pass the output of `git diff`") from None
    out: dict[str, set[int]] = {}
    for pf in patch:
        if pf.is_removed_file:
            continue
        path = _clean(pf.target_file) or _clean(pf.path)
        if path is None:
            continue
        lines = out.setdefault(path, set())
        for hunk in pf:
            for line in hunk:
                if line.is_added and line.target_line_no is not None:
                    lines.add(line.target_line_no)
    return out
