"""Whether a line reports what happened (a narrative past) rather than states a rule."""

from __future__ import annotations

from .flags import _F_EN_PAST, _F_RU_PART, _F_RU_PAST
from .words import _AUX_OR_NOT_SUBJECT, _PRESENT_AUX, _en_past


_MODAL = frozenset({"PERMIT", "RELAX", "INDIFF", "OBLIGE", "FUTURE_PLAN"})
_NOT_NARRATIVE = frozenset({"PERMIT", "RELAX", "OBLIGE", "NEG", "FUTURE_PLAN"})
_NOMINAL_KINDS = frozenset({"object", "qualifier", "value", "slot"})


def _reports(texts: list[str], kinds: list[str], flags: list[int], line_flags: int, line_markers: set[str],
             concept_at: list[tuple[int, set[str]]], cinfo) -> bool:
    """Whether a line tells what happened (``Analysis.report``): a past verb where the verb of a line stands, and
    no modal marker. A test a line's flags rule out (no token with _F_RU_PAST, _F_RU_PART, _F_EN_PAST) is skipped."""
    if not line_markers.isdisjoint(_MODAL):
        return False

    def nominal(i: int) -> bool:  # «спортзал» is a noun: a concept at i names a thing, not an action
        return any(k == i and any(cinfo(c)[0] in _NOMINAL_KINDS for c in ids)
                   and not any(cinfo(c)[0] == "action" for c in ids) for k, ids in concept_at)

    first_i = kinds.index("word") if "word" in kinds else -1
    first_f = flags[first_i] if first_i >= 0 else 0  # _en_past(""), _ru_past("") are False
    past = "PAST" in line_markers or bool(first_f & _F_EN_PAST) or (bool(first_f & _F_RU_PAST) and not nominal(first_i))
    if not past and line_flags & _F_RU_PAST:
        past = any(kinds[i] == "word" and flags[i] & _F_RU_PAST and not nominal(i) for i in range(min(4, len(texts))))
    if not past and line_flags & _F_RU_PART:
        past = any(kinds[i] == "word" and flags[i] & _F_RU_PART for i in range(min(2, len(texts))))
    if past and first_f & _F_EN_PAST:
        words_ = [t for t, kind in zip(texts, kinds) if kind == "word"]
        if not _PRESENT_AUX.isdisjoint(words_[1:5]):
            past = False  # "Scanned documents are named …": a participle used as an adjective, the verb is present
    if not past and line_flags & _F_EN_PAST and line_markers.isdisjoint(_NOT_NARRATIVE):
        words_ = [t for t, kind in zip(texts, kinds) if kind == "word"]
        # "Friends ordered steaks …": a past verb in second or third place after a subject
        for i in (1, 2) if len(words_) > 2 else ():
            if _en_past(words_[i]) and words_[i - 1] not in _AUX_OR_NOT_SUBJECT \
                    and (i == 1 or words_[0] not in _AUX_OR_NOT_SUBJECT) \
                    and _PRESENT_AUX.isdisjoint(words_[i + 1:i + 5]):
                past = True
                break
    return past
