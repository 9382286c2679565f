"""The `apply_patch` grammar (`*** Begin Patch`) used by Codex and OpenClaw: parse, apply to text, render back.

The gate needs the file each patch operation would produce, so that only the new lines are tiered, and (for
OpenClaw, which can rewrite arguments) a patch it can hand back with stamped lines. Parsing is strict about
structure and raises `ParseError` (never anything else) on malformed input; applying a hunk whose context is
not in the file also raises `ParseError`, as the host's own tool would fail.
"""

from __future__ import annotations

from tiers.errors import ParseError
from tiers.record import dataclass

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ADD = "*** Add File: "
UPDATE = "*** Update File: "
DELETE = "*** Delete File: "
MOVE = "*** Move to: "
EOF_MARK = "*** End of File"


@dataclass(frozen=True, slots=True)
class Hunk:
    """One `@@` hunk: an optional anchor line, then (tag, text) pairs with tag ' ', '-' or '+'."""

    anchor: str | None
    lines: tuple[tuple[str, str], ...]
    end_of_file: bool = False

    @property
    def old_lines(self) -> list[str]:
        return [t for tag, t in self.lines if tag in " -"]

    @property
    def new_lines(self) -> list[str]:
        return [t for tag, t in self.lines if tag in " +"]


@dataclass(frozen=True, slots=True)
class PatchOp:
    """One file operation of a patch: ``add`` (with its lines), ``update`` (hunks, maybe a move) or ``delete``."""

    kind: str
    path: str
    move_to: str | None = None
    add_lines: tuple[str, ...] = ()
    hunks: tuple[Hunk, ...] = ()

    @property
    def target(self) -> str:
        return self.move_to or self.path


def _strip_wrapper(text: str) -> list[str]:
    """Lines of the patch proper: tolerates a heredoc wrapper (`apply_patch <<'EOF'`) and surrounding blanks."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and lines[0].strip() != BEGIN and "<<" in lines[0] and lines[-1].strip() and BEGIN in text:
        marker = lines[0].split("<<", 1)[1].strip().strip("'\"")
        if marker and lines[-1].strip() == marker:
            lines = lines[1:-1]
    return lines


def looks_like_patch(text: object) -> bool:
    return isinstance(text, str) and BEGIN in text[:2000]


def parse_patch(text: str) -> list[PatchOp]:
    """Parse a `*** Begin Patch` … `*** End Patch` text into file operations. Raises ParseError on bad input."""
    if not isinstance(text, str):
        raise ParseError("apply_patch input must be a string")
    lines = _strip_wrapper(text)
    if not lines or lines[0].strip() != BEGIN:
        raise ParseError(f"patch line 1: expected '{BEGIN}'")
    if lines[-1].strip() != END:
        raise ParseError(f"patch line {len(lines)}: expected '{END}' as the last line")
    ops: list[PatchOp] = []
    i, last = 1, len(lines) - 1
    while i < last:
        line = lines[i]
        no = i + 1
        if line.startswith(ADD):
            path = _path(line[len(ADD):], no)
            body: list[str] = []
            i += 1
            while i < last and not lines[i].startswith("*** "):
                if not lines[i].startswith("+"):
                    raise ParseError(f"patch line {i + 1}: every line of an added file must start with '+'")
                body.append(lines[i][1:])
                i += 1
            ops.append(PatchOp("add", path, add_lines=tuple(body)))
        elif line.startswith(DELETE):
            ops.append(PatchOp("delete", _path(line[len(DELETE):], no)))
            i += 1
        elif line.startswith(UPDATE):
            path = _path(line[len(UPDATE):], no)
            i += 1
            move_to = None
            if i < last and lines[i].startswith(MOVE):
                move_to = _path(lines[i][len(MOVE):], i + 1)
                i += 1
            hunks: list[Hunk] = []
            while i < last and not (lines[i].startswith("*** ") and lines[i].strip() != EOF_MARK):
                hunk, i = _hunk(lines, i, last, first=not hunks)
                hunks.append(hunk)
            if not hunks and move_to is None:
                raise ParseError(f"patch line {no}: update of {path} has no hunks")
            ops.append(PatchOp("update", path, move_to=move_to, hunks=tuple(hunks)))
        elif not line.strip():
            i += 1
        else:
            raise ParseError(
                f"patch line {no}: expected '*** Add File:', '*** Update File:' or '*** Delete File:', got {line[:60]!r}"
            )
    if not ops:
        raise ParseError("patch has no file operations")
    return ops


def _path(raw: str, no: int) -> str:
    path = raw.strip()
    if not path:
        raise ParseError(f"patch line {no}: missing file path")
    return path


def _hunk(lines: list[str], i: int, last: int, *, first: bool) -> tuple[Hunk, int]:
    anchor: str | None = None
    if lines[i].startswith("@@"):
        rest = lines[i][2:]
        anchor = rest[1:] if rest.startswith(" ") else (rest or None)
        if anchor is not None and not anchor.strip():
            anchor = None
        i += 1
    elif not first:
        raise ParseError(f"patch line {i + 1}: expected '@@' to start a hunk, got {lines[i][:60]!r}")
    body: list[tuple[str, str]] = []
    eof = False
    while i < last:
        line = lines[i]
        if line.strip() == EOF_MARK:
            eof = True
            i += 1
            break
        if line.startswith("@@") or line.startswith("*** "):
            break
        if line == "":
            body.append((" ", ""))  # a blank context line whose leading space was trimmed
        elif line[0] in " -+":
            body.append((line[0], line[1:]))
        else:
            raise ParseError(f"patch line {i + 1}: hunk lines must start with ' ', '-' or '+', got {line[:60]!r}")
        i += 1
    if not body and anchor is None:
        raise ParseError(f"patch line {i}: empty hunk")
    return Hunk(anchor, tuple(body), eof), i


# -- applying ------------------------------------------------------------------------------------------


def _seek(haystack: list[str], needle: list[str], start: int, eof: bool) -> int:
    """Index of ``needle`` in ``haystack`` at or after ``start`` (exact, then ignoring trailing, then all
    surrounding whitespace, as Codex does); with ``eof`` prefer the match that ends the file. -1 if absent."""
    if not needle:
        return len(haystack) if eof else start
    n = len(needle)
    for norm in (lambda s: s, str.rstrip, str.strip):
        want = [norm(x) for x in needle]
        if eof and len(haystack) - n >= start and [norm(x) for x in haystack[-n:]] == want:
            return len(haystack) - n
        for k in range(start, len(haystack) - n + 1):
            if norm(haystack[k]) == want[0] and [norm(x) for x in haystack[k:k + n]] == want:
                return k
    return -1


def apply_hunks(original: str, hunks: tuple[Hunk, ...] | list[Hunk], *, path: str = "file") -> str:
    """The text ``original`` becomes after the hunks (one final newline, like Codex)."""
    lines = original.split("\n")  # like Codex: a CRLF file keeps its '\r's (matching ignores trailing space)
    if lines and lines[-1] == "":
        lines.pop()
    pos = 0
    for h in hunks:
        if h.anchor is not None:
            k = _seek(lines, [h.anchor], pos, False)
            if k < 0:
                raise ParseError(f"{path}: patch context {h.anchor!r} not found; re-read the file and regenerate the patch")
            pos = k + 1
        old, new = h.old_lines, h.new_lines
        if not old:
            k = len(lines) if (h.end_of_file or h.anchor is None) else pos
        else:
            k = _seek(lines, old, pos, h.end_of_file)
            if k < 0 and old and old[-1] == "":
                old, new = old[:-1], (new[:-1] if new and new[-1] == "" else new)
                k = _seek(lines, old, pos, h.end_of_file)
            if k < 0:
                first = next((x for x in old if x.strip()), old[0])
                raise ParseError(f"{path}: patch lines starting {first!r} not found; re-read the file and regenerate the patch")
        lines[k:k + len(old)] = new
        pos = k + len(new)
    return "\n".join(lines) + "\n" if lines else ""


def added_text(op: PatchOp) -> str:
    """The content of an ``add`` operation."""
    return "\n".join(op.add_lines) + "\n" if op.add_lines else ""


# -- rendering (for hosts that accept rewritten arguments) ---------------------------------------------


def render_patch(ops: list[PatchOp]) -> str:
    out = [BEGIN]
    for op in ops:
        if op.kind == "add":
            out.append(ADD + op.path)
            out.extend("+" + x for x in op.add_lines)
        elif op.kind == "delete":
            out.append(DELETE + op.path)
        else:
            out.append(UPDATE + op.path)
            if op.move_to:
                out.append(MOVE + op.move_to)
            for h in op.hunks:
                out.append("@@" + (" " + h.anchor if h.anchor is not None else ""))
                out.extend(tag + text for tag, text in h.lines)
                if h.end_of_file:
                    out.append(EOF_MARK)
    out.append(END)
    return "\n".join(out)


def replacement_hunk(old_span: list[str], new_span: list[str]) -> Hunk:
    """One hunk that replaces the (unique) run of lines ``old_span`` with ``new_span``."""
    return Hunk(None, tuple([("-", x) for x in old_span] + [("+", x) for x in new_span]))
