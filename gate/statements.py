"""How the lines of a write line up with the file on disk, and which lines read as one statement.

``align`` maps the lines the agent kept to their old places (stamps aside, moved lines matched by content), so only
new lines are judged; ``statement_groups`` joins a list item's continuation lines and a plain paragraph's unfinished
sentences into one statement, so words appended on the next line are judged with the line they change;
``standings`` says where a line stands (quoted, nested under which items), so a rule moved under "- Wrong:" is not
taken for the same rule. Each is linear in the lines it reads (the adversarial-payload tests hold them to it).
"""

from __future__ import annotations


#: a line's blockquote marks, its indentation after them, and a list marker after that
_STANDING = None


def standings(lines, wanted) -> dict[int, tuple[int, tuple[str, ...]]]:
    """Where each line of ``wanted`` (indexes) stands in its document, apart from its words: how deep it is quoted,
    and the words of the list items it is nested under, outermost first (none at the top level). Two lines of the same words and the
    same standing say the same thing; quoted, or nested under "- Wrong:", they do not. The parent is the nearest
    item above, at the same quote depth and less indented, with no structure and no line at column 0 that is not an
    item between them. One pass from the top (linear in the file); whitespace and reflow keep the standing."""
    global _STANDING
    if _STANDING is None:
        import re

        _STANDING = re.compile(r"((?:[ \t]*>)*)([ \t]*)((?:[-*+]|\d{1,9}[.)])(?:[ \t]|$))?")
    from tiers.stamps import canonical_content

    wanted = set(wanted)
    out: dict[int, tuple[int, tuple[str, ...]]] = {}
    last = max(wanted, default=-1)
    stack: list[tuple[int, int]] = []  # (indent, line index) of the open items
    quote = 0
    for k in range(last + 1):
        line = lines[k]
        text = line.text
        if not text.strip(" \t>"):
            continue
        m = _STANDING.match(text)
        depth, indent, item = m.group(1).count(">"), len(m.group(2).expandtabs(4)), bool(m.group(3))
        if line.kind != "memory" or depth != quote or (indent == 0 and not item):
            stack.clear()
        quote = depth
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if k in wanted:
            out[k] = (depth, tuple(canonical_content(lines[i].text) for _ind, i in stack) if indent else ())
        if item and line.kind == "memory":
            stack.append((indent, k))
    return out


#: a line that opens a list item (after any blockquote marks) or a bold label: it starts a statement of its own
_STATEMENT_START = None
#: the end of a sentence (closing quotes, brackets and emphasis marks after it allowed)
_SENTENCE_END = None


def statement_groups(lines, points=None) -> list[list[int]]:
    """The statements of a document: index lists of the memory lines that read as one. A list item is its first
    line and every continuation line of its paragraph (indented or lazy, after a hard break or not); in a paragraph
    outside a list, a line continues the one before it unless that one ends a sentence (``. ! ? …``) or this one
    opens a bold label. A blank line, a new item and any line that is not a memory line end a statement.

    With ``points`` (a set of line indexes), only the statements that hold one of them: a write changes a few lines of a large file,
    and the runs between lines that must start a statement (a new item, a label, a line after structure) are
    grouped from their start, so grouping them alone gives what grouping the whole file would."""
    global _STATEMENT_START, _SENTENCE_END
    if _STATEMENT_START is None:
        import re

        _STATEMENT_START = re.compile(r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|\*\*|__)")
        _SENTENCE_END = re.compile(r"[.!?…][\"'»”’)\]*_`]*[ \t]*\\?$")
    n = len(lines)

    def memory(j: int) -> bool:
        return lines[j].kind == "memory" and bool(lines[j].text.strip())

    if points is None:
        runs = [(0, n)]
    else:
        runs = []
        covered = 0  # the points are taken in order: one inside the last run is grouped already (linear time)
        for j in sorted(points):
            if not covered <= j < n or not memory(j):
                continue
            k = j
            while k > covered and memory(k - 1) and not _STATEMENT_START.match(lines[k].text):
                k -= 1
            m = j + 1
            while m < n and memory(m) and not _STATEMENT_START.match(lines[m].text):
                m += 1
            runs.append((k, m))
            covered = m
    from tiers.stamps import split_stamp

    groups: list[list[int]] = []
    for first, end in runs:
        item = open_sentence = False
        for j in range(first, end):
            line = lines[j]
            if not memory(j):
                open_sentence = item = False
                continue
            starts_here = _STATEMENT_START.match(line.text)
            if j == first or not groups or groups[-1][-1] != j - 1 or starts_here or not (item or open_sentence):
                groups.append([j])
                item = bool(starts_here) and not line.text.lstrip(" \t>").startswith(("**", "__"))
            else:
                groups[-1].append(j)
            content = split_stamp(line.text)[0].rstrip() if "<!--" in line.text else line.text.rstrip()
            open_sentence = not _SENTENCE_END.search(content[-64:])  # the end is all it reads: not a long line's every position
    if points is not None:
        return [g for g in groups if not points.isdisjoint(g)]
    return groups


def statement_text(lines, group: list[int], stamps) -> str:
    """The words of a statement as one line: its first line's content and the bodies of the rest, stamps out."""
    from tiers.text import strip_markup

    parts = [stamps.strip_inner_stamps(stamps.split_stamp(lines[group[0]].text)[0]).rstrip()]
    parts += [strip_markup(stamps.strip_inner_stamps(stamps.split_stamp(lines[j].text)[0])).strip() for j in group[1:]]
    text = " ".join(p.rstrip("\\").strip() if k else p.rstrip("\\").rstrip() for k, p in enumerate(parts) if p)
    return text if text.strip() else ""


def plain_texts(data: bytes, markdown) -> list[str]:
    """The texts of the lines of the file on disk, split exactly as the Markdown model splits them but without
    parsing the Markdown structure (a second full parse of a large memory file is the slowest step of a write)."""
    split = getattr(markdown, "_split", None)
    if split is None:
        return [ln.text for ln in markdown.parse_document(data).lines]
    raw = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    return [t for t, _eol in split(raw.decode("utf-8", "surrogateescape"))]


def common_prefix(a: list, b: list) -> int:
    """How many leading items ``a`` and ``b`` share (list comparisons in C, halving the unknown range)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo]; a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def common_suffix(a: list, b: list, limit: int) -> int:
    """How many trailing items ``a`` and ``b`` share, at most ``limit``."""
    la, lb = len(a), len(b)
    if limit <= 0:
        return 0
    if a[la - limit:] == b[lb - limit:]:
        return limit
    lo, hi = 0, limit  # the last lo items match; the last hi do not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
            lo = mid
        else:
            hi = mid
    return lo


def align(old_texts: list[str], new_texts: list[str]) -> tuple[dict[int, int], list[int]]:
    """Map new line index -> old line index for lines the agent kept (compared without stamps), and list the
    indices of new lines. Common prefix/suffix first (fast for appends), then difflib on the middle, then
    moved lines matched by content so that reordering a file cannot re-label old memory."""
    from tiers.stamps import strip_stamp

    # lines written alike are alike without their stamps: the leading run the two sides share as written (all of
    # the old file, for an append) is kept as it is; after it, a kept line's text appears on both sides, so its
    # stamp is stripped once per distinct text
    pr = common_prefix(old_texts, new_texts)
    keys = {t: strip_stamp(t).rstrip() for t in {*old_texts[pr:], *new_texts[pr:]}}
    ok = old_texts[:pr] + [keys[t] for t in old_texts[pr:]]
    nk = new_texts[:pr] + [keys[t] for t in new_texts[pr:]]
    p = common_prefix(ok, nk)
    s = common_suffix(ok, nk, min(len(ok), len(nk)) - p)
    keep: dict[int, int] = dict(zip(range(p), range(p)))
    if s:
        keep.update(zip(range(len(nk) - s, len(nk)), range(len(ok) - s, len(ok))))
    o_mid, n_mid = ok[p:len(ok) - s], nk[p:len(nk) - s]
    used: set[int] = set(keep.values())
    if o_mid and n_mid:
        import difflib

        sm = difflib.SequenceMatcher(None, o_mid, n_mid, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    keep[p + j1 + k] = p + i1 + k
                    used.add(p + i1 + k)
    fresh: list[int] = []
    spare: dict[str, list[int]] = {}
    if len(used) < len(ok):
        for i in range(len(ok)):
            if i not in used and ok[i].strip():
                spare.setdefault(ok[i], []).append(i)
    for j in [j for j in range(len(nk)) if j not in keep]:
        if spare.get(nk[j]):
            keep[j] = spare[nk[j]].pop(0)
        else:
            fresh.append(j)
    return keep, fresh


__all__ = ["align", "common_prefix", "common_suffix", "plain_texts", "standings", "statement_groups",
           "statement_text"]
