"""PERSONALITY.md: the token budget filled by score, rendered grouped by type, every character counted.

Differences from Chitin's marshal (deliberate): insights are *chosen* by score (best first, skipping any that do
not fit) and only then grouped by type, so a low-scored personality line can never push out a high-scored skill;
a section header is emitted only with at least one line under it; the header, blank separators and final newline
are all charged; low-confidence insights go to a marked advisory section. Same inputs give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiers.record import dataclass

from .model import DISPLAY_ORDER, Insight, InsightType
from .retrieve import Scored

HEADER = (
    "# Personality Context (cuticle)\n"
    "\n"
    "These are your learned behavioral patterns and insights.\n"
    "They persist across sessions. You can update them with `cuticle contribute`."
)
LABELS = {t: t.value.capitalize() for t in InsightType}
ADVISORY_LABEL = "Advisory (low confidence: hints, not rules)"


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units (what Chitin's ``s.length`` counted)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def estimate_tokens(text: str) -> int:
    """Chitin's estimate: ``ceil(utf16_length / 4)``; empty text is 0 tokens."""
    return -(-utf16_len(text) // 4)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def insight_line(ins: Insight, *, fmt: str = "compact", include_context: bool = False) -> str:
    """One rendered line (Chitin's line formats; ``full`` adds indented Context/Reasoning/Limitations lines)."""
    claim = _one_line(ins.claim)
    if ins.type is InsightType.TRIGGER and ins.condition and ins.condition.strip():
        line = f"- When: {_one_line(ins.condition)} → {'avoid' if ins.avoid else 'do'}: {claim}"
    elif ins.type is InsightType.TRIGGER and ins.avoid:
        line = f"- Avoid: {claim}"
    else:
        line = f"- {claim}"
    if fmt == "full":
        for label, value in (("Context", ins.context), ("Reasoning", ins.reasoning), ("Limitations", ins.limitations)):
            if value:
                line += f"\n  {label}: {_one_line(value)}"
    elif include_context and ins.context:
        line += f" ({_one_line(ins.context)})"
    return line


def _advisory_line(ins: Insight, **kw) -> str:
    return f"{insight_line(ins, **kw)} ({ins.type.value}, confidence {ins.confidence:.2f})"


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    included: tuple[str, ...]  # ids, in score order
    omitted: int  # how many scored insights did not fit
    tokens: int

    def to_json(self) -> dict:
        return {"tokenEstimate": self.tokens, "included": list(self.included), "omitted": self.omitted}


def marshal(
    scored: Sequence[Scored],
    budget: int,
    *,
    header: str | None = HEADER,
    advisory_below: float = 0.0,
    fmt: str = "compact",
    include_context: bool = False,
) -> Rendered:
    """Fill ``budget`` tokens greedily in score order, then render grouped by type (Chitin's section order).

    With a ``header`` the text is the whole file (header, blank line, sections, final newline); without, it is
    the bare body (sections only, no trailing newline), as ``retrieve`` prints it. ``ceil(utf16/4) ≤ budget``.
    """
    limit = max(budget, 0) * 4
    if header is not None:
        base = utf16_len(header) + 1
        if base > limit:
            return Rendered("", (), len(scored), 0)
    else:
        base = -2
    used = base
    sections: dict[object, list[str]] = {}
    chosen: list[str] = []
    # no line is shorter than "- " + the shortest claim + its newline: once that no longer fits, stop looking
    min_cost = getattr(scored, "min_units", 4)
    iter_insights = getattr(scored, "iter_insights", None)
    stream = iter_insights() if iter_insights is not None else (s.insight for s in scored)
    for ins in stream:
        if limit - max(used, 0) < min_cost:
            break
        advisory = ins.confidence < advisory_below
        key: object = "advisory" if advisory else ins.type
        line = (_advisory_line if advisory else insight_line)(ins, fmt=fmt, include_context=include_context)
        cost = utf16_len(line) + 1
        if key not in sections:
            label = ADVISORY_LABEL if advisory else LABELS[ins.type]
            cost += utf16_len(f"### {label}") + 2
        if used + cost > limit:
            continue
        used += cost
        sections.setdefault(key, []).append(line)
        chosen.append(ins.id)
    blocks: list[str] = []
    for key in (*DISPLAY_ORDER, "advisory"):
        lines = sections.get(key)
        if lines:
            label = ADVISORY_LABEL if key == "advisory" else LABELS[key]  # type: ignore[index]
            blocks.append("\n".join([f"### {label}", *lines]))
    body = "\n\n".join(blocks)
    if header is None:
        text = body
    elif body:
        text = f"{header}\n\n{body}\n"
    else:
        text = f"{header}\n"
    omitted = len(scored) - len(chosen)
    tokens = estimate_tokens(text)
    assert tokens <= budget or not text, "budget accounting is off"  # noqa: S101 - an internal invariant
    return Rendered(text, tuple(chosen), omitted, tokens)
