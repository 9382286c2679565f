r"""CU304 bidi-control: bidirectional override, embedding or isolate controls in memory.

## What it does
Reports U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and U+2066–U+2069 (LRI, RLI, FSI, PDI), and LRM/RLM/ALM marks
in lines that contain no right-to-left script (where they have no legitimate job).

## Why is this bad
Bidi overrides make text render in a different order than the model reads it ("Trojan Source"): a reversed
URL looks harmless to a reviewer, an instruction renders as gibberish.

## Example
```markdown
- Trusted install script: \u202ehs.llatsni/moc.elpmaxe//:sptth\u202c
```

## Fix safety
Safe: the fix deletes the control characters only; the text keeps its logical order (what the model reads).
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Applicability, Edit, Fix, Problem, Severity, rule


@rule("CU304", "bidi-control", "Bidirectional control characters that reorder text", Severity.ERROR,
      fix=Applicability.SAFE, security=True, inputs=file_only)
def check(ctx):
    from rules.unicode import scan, strip_hidden

    for line in ctx.unicode_lines:  # scan() finds nothing in a printable ASCII line
        hits = [h for h in scan(line.text) if h.kind == "bidi"]
        if not hits:
            continue
        fix = Fix("delete the bidi control characters", (Edit(line.number, strip_hidden(line.text, ("bidi",)),
                                                              line.text),), Applicability.SAFE)
        for h in hits:
            names = ", ".join(dict.fromkeys(h.names))
            yield Problem(f"{ctx.path}:{line.number}:{h.start + 1}: bidi control ({names}) makes the text render "
                          f"differently from what the model reads; delete it (`cuticle lint --fix`)",
                          line.number, h.start + 1, fix=fix)
            fix = None
