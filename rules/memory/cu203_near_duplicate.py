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
from collections import Counter, defaultdict

from rules.engine import Problem, Severity, rule


def _tokens(line) -> frozenset[str]:
    from tiers.text import words

    return frozenset(words(line.body))


@rule("CU203", "near-duplicate", "Near-duplicate memory line", Severity.INFO,
      options={"threshold": 0.8, "min_words": 4})
def check(ctx):
    from rules.document import normalized_content

    threshold = float(ctx.options["threshold"])
    min_words = int(ctx.options["min_words"])
    items = []
    seen_exact = set()
    for line in ctx.lines:
        if not line.is_memory:
            continue
        key = normalized_content(line.text)
        if key in seen_exact:
            continue  # exact repeats are CU202's
        seen_exact.add(key)
        toks = _tokens(line)
        if len(toks) >= min_words:
            items.append((line, toks))
    if len(items) < 2:
        return
    freq = Counter(t for _, toks in items for t in toks)
    index: dict[str, list[int]] = defaultdict(list)
    reported = set()
    for i, (line, toks) in enumerate(items):
        ordered = sorted(toks, key=lambda t: (freq[t], t))
        prefix = len(ordered) - math.ceil(threshold * len(ordered)) + 1
        candidates = set()
        for t in ordered[:prefix]:
            candidates.update(index[t])
            index[t].append(i)
        best = None
        for j in sorted(candidates):
            other_line, other = items[j]
            inter = len(toks & other)
            union = len(toks | other)
            sim = inter / union if union else 0.0
            if sim < threshold:
                continue
            diff = toks ^ other
            if any(any(c.isdigit() for c in t) for t in diff):
                continue
            if best is None or sim > best[0]:
                best = (sim, other_line)
        if best and line.number not in reported:
            reported.add(line.number)
            yield Problem(f"{ctx.path}:{line.number}: nearly the same as line {best[1].number} "
                          f"(similarity {best[0]:.2f}); keep one wording", line.number)
