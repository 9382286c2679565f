"""The user's authority over a binding line: what a prompt of this turn lets the agent do to an active DIRECTIVE
or in-scope DECISION (docs/trust.md, "Binding lines"; docs/gate.md).

A prompt *authorizes* a change of a binding line when it asks to drop or change something ("forget", "change",
«забудь», «измени») and names the line (shares a content word with it). What it authorizes depends on what it says:

- a prompt that **states a new rule** (content words beyond the ones naming the old line, the request words and
  courtesy: "change the deploy rule to Thursdays") authorizes a rewrite that agrees with it: every new line of the
  call that is about the rule or the request (shares a content word with either) is arbitrated against the prompt
  as a DIRECTIVE constraint, with the ordinary arbitration; a line that contradicts it is refused;
- a prompt that **only asks to drop** the rule ("forget the Friday rule", "fix the Friday rule") authorizes its
  removal, nothing more: a new binding line (DIRECTIVE or DECISION) about it in the same call, or the old line
  kept with words added to its statement, is not what the user asked and is refused.

A new line built from the user's own words this turn (verified provenance) is the user's rule and is not re-judged
here.
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Words a user says to drop or change a rule ("forget", "no longer", «забудь», «больше не»), as word prefixes.
_CHANGE = (r"(?<!\w)(?:forget|forgot|remov|delet|drop|eras|scrap|cancel|revok|retract|rescind|lift|undo|ignor|"
           r"discard|no longer|any ?more|obsolete|outdated|chang|updat|rewrit|reword|edit|fix|replac|rephras|"
           r"amend|instead|забуд|забы|удал|убер|убра|сотр|отмен|больше не|неактуальн|замен|измен|помен|исправ|"
           r"перепиш|вместо)")
_CHANGE_WORDS = LazyRe(_CHANGE, re.IGNORECASE)  # compiled only when a binding line changes
_CHANGE_WHOLE = LazyRe(_CHANGE + r"\w*", re.IGNORECASE)
#: Words that name a rule or are courtesy, not a rule's content ("the Friday *rule*", "please"), as word prefixes.
_FRAME = LazyRe(r"(?<!\w)(?:rule|line|entry|note|memor|please|thank|thanks|правил|строк|запис|памят|"
                    r"пожалуйста|спасиб)\w*", re.IGNORECASE)

BINDING = ("DIRECTIVE", "DECISION")


def authorizes(prompt: str | None, content: str) -> bool:
    """The user's prompt asks to drop or change something and names this line (shares a content word with it)."""
    return bool(prompt) and bool(_CHANGE_WORDS.search(prompt)) and shares_words(prompt, content)


def shares_words(a: str, b: str) -> bool:
    from tiers.provenance import provenance_share

    return provenance_share(b, a)[1] >= 1


def states_new_rule(prompt: str, content: str) -> bool:
    """The prompt says more than "drop or change the rule named so": a content word that is not the old line's,
    not a request word and not a rule's name or courtesy."""
    from tiers.provenance import provenance_share

    rest = _FRAME.sub(" ", _CHANGE_WHOLE.sub(" ", prompt))
    share, matched = provenance_share(rest, content)
    if share == 0.0 and matched == 0:  # no content word at all, or none of them the old line's
        from tiers.provenance import content_stems

        return bool(content_stems(rest))
    return share < 1.0


def rewrite_refusal(prompt: str, content: str, kept: bool, new_lines: list[Any]) -> str | None:
    """Why this call's change of the binding line ``content`` is not what the prompt authorized, or None.
    ``kept``: the old line is still there (its statement changed: words added or cut); ``new_lines``: the new lines
    of the call (``content``, ``tier``, ``verified``); one in the rule's own words (moved, nested) is not a rewording."""
    from tiers.stamps import canonical_content

    asked = _clip(" ".join(prompt.split()), 160)
    same = canonical_content(content)
    # the rule's own words again (moved, nested, re-quoted) are not a new wording: the prompt named the rule
    about = [n for n in new_lines if not n.verified and n.content.strip() and canonical_content(n.content) != same
             and (shares_words(n.content, content) or shares_words(n.content, prompt))]
    if not states_new_rule(prompt, content):
        if kept:
            return (f"the user asked only to drop or change it ({asked!r}) and said no new wording; words added to "
                    f"or cut from the rule are not what they asked (removing it is)")
        new = next((n for n in about if n.tier in BINDING), None)
        if new is not None:
            return (f"the user asked to drop it ({asked!r}), not to put a new rule in its place: "
                    f"{_clip(new.content.strip(), 120)!r} states one (removing the rule is what they authorized)")
        return None
    from tiers.arbitrate import Constraint, ConstraintIndex, arbitrate
    from tiers.model import Tier

    index = ConstraintIndex.from_constraints([Constraint(Tier.DIRECTIVE, "prompt", "(the user's prompt)", 0, prompt,
                                                         None, None, False)])
    for n in about:
        result = arbitrate(index, n.content, n.tier or "HYPOTHESIS")
        if result.decision == "block":
            why = next((c.reason for c in result.conflicts if getattr(c, "reason", None)), "it contradicts it")
            return (f"the new wording {_clip(n.content.strip(), 120)!r} does not say what the user asked "
                    f"({asked!r}): {why}")
    return None


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
