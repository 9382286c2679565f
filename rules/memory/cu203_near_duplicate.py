"""CU203 near-duplicate: two memory lines in a file say almost the same thing.

## What it does
Compares the word sets of memory lines (normalized Unicode words; stamps and markup removed) and reports a
line whose Jaccard similarity with an earlier line is at least `threshold` (default 0.8). Pairs that differ in
a number (a port, a date, a version) are left to the contradiction rule: those are updates, not repeats.
Candidate pairs are found with a prefix-filter index, so the rule stays fast on large files.

## Why is this bad
Near-duplicates waste context tokens every session and tend to drift apart into conflicting versions.

## Example
```markdown
- The user prefers short answers in chat.
- The user prefers short answers in the chat.
```

## Fix safety
No fix: which wording to keep is a judgement call.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from itertools import compress

from rules.cache import file_only
from rules.model import Problem, Severity, rule


_WORD = re.compile(r"\w+(?:'\w+)*")
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")


def _tokens(normalized: str) -> frozenset[str]:
    return frozenset(_WORD.findall(normalized))


@rule("CU203", "near-duplicate", "Near-duplicate memory line", Severity.INFO,
      options={"threshold": 0.8, "min_words": 4}, inputs=file_only)
def check(ctx):
    threshold = float(ctx.options["threshold"])
    min_words = int(ctx.options["min_words"])
    lines = ctx.memory_lines
    keys = ctx.memory_keys  # normalized_content of each line, once per file
    # each distinct line once, with its first line (exact repeats are CU202's)
    distinct = list(dict.fromkeys(keys))
    if len(distinct) < 2:
        return
    first = dict(zip(reversed(keys), reversed(lines)))
    # A pair that differs in a number is never reported: only lines whose words holding a digit are the same get
    # compared. Those words' digit runs are a coarser key found in C for every line; a line whose digit runs no
    # other line shares has no partner, and only the others are split into words.
    runs = list(map(frozenset, map(_DIGITS.findall, distinct)))
    counts = Counter(runs)
    shared = {r for r, c in counts.items() if c > 1}
    if not shared:
        return
    digit = _DIGIT.search
    groups: dict[frozenset[str], list] = defaultdict(list)
    for i in compress(range(len(runs)), map(shared.__contains__, runs)):
        key = distinct[i]
        toks = _tokens(key)
        if len(toks) >= min_words:
            groups[frozenset(filter(digit, toks))].append((first[key], toks))
    found = []
    for group in groups.values():
        if len(group) > 1:
            found.extend(_similar_pairs(group, threshold))
    for line, other, sim in sorted(found, key=lambda x: x[0].number):
        yield Problem(f"{ctx.path}:{line.number}: nearly the same as line {other.number} "
                      f"(similarity {sim:.2f}); keep one wording", line.number)


def _similar_pairs(items, threshold: float):
    """For each line, its most similar earlier line at or above ``threshold`` (prefix-filtered Jaccard)."""
    freq = Counter(t for _, toks in items for t in toks)
    index: dict[str, list[int]] = defaultdict(list)
    out = []
    for i, (line, toks) in enumerate(items):
        ordered = sorted(toks, key=lambda t: (freq[t], t))
        prefix = len(ordered) - math.ceil(threshold * len(ordered)) + 1
        candidates: set[int] = set()
        for t in ordered[:prefix]:
            candidates.update(index[t])
            index[t].append(i)
        best = None
        for j in sorted(candidates):
            other_line, other = items[j]
            inter = len(toks & other)
            sim = inter / (len(toks) + len(other) - inter)
            if sim >= threshold and (best is None or sim > best[1]):
                best = (other_line, sim)
        if best:
            out.append((line, best[0], best[1]))
    return out
