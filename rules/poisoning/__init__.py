"""Memory-poisoning detection (EN and RU): instructions that would steer every future session of an agent.

Kinds: ``trust-source``, ``exfiltration``, ``run-command``, ``disable-safety``, ``instruction-override``,
``override-user``, ``base64-payload``, ``html-comment``, ``link-payload``, ``persistence`` (the categories are stated
in the CU302 rule docs, ``cuticle rule CU302``). Each detector looks for the *act*
(an imperative plus its dangerous object), not for trigger words: "ignore the vendor/ folder" is a preference,
"ignore previous instructions" is an override. Guards keep legitimate memory quiet: a negation before the
act ("never run scripts piped from curl"), and a quoted attack phrase in a line that reports it
("found a prompt-injection attempt: 'ignore previous instructions'"). Hidden text is analysed too: invisible
characters are removed and Unicode tag characters decoded first (see :mod:`rules.unicode`).

Besides fixed patterns, *frames* (``_FRAME_SOURCES``) catch new wordings: word classes that must co-occur in one
sentence in any order: a sending verb + a sensitive object (keys, .env, passport, phone, «паспорт») + an outside
target; a source declared official/trusted + running or following what it serves; a safety step (gate, hooks,
confirmation, «подтверждение») + switched off / no longer asked; earlier instructions + void; the user's rule +
outdated; a comment addressed to the AI («Ассистенту:», «боту»); a persona swapped in; a line that restores or
keeps itself; secrets printed by a command (`printenv`) sent out; a source's content counted as approved or as the
user's word; a safety key set to off; a destructive command on every session; the user's word losing to an outside
source or a change kept from them (docs/rules.md, "How CU302 decides"). Frames stay quiet in lines that discuss an attack,
after a negation, and (for preference-like waivers) in lines that report the user's own words ("User said: …").
A detector or frame runs only when one of its stems occurs in the line (``patterns._STEMS``, ``patterns.FRAME_GATES``);
every word class, pattern and stem is defined once in :mod:`rules.poisoning.patterns`.
"""

from __future__ import annotations

from .detect import KINDS, Signal, detect, is_poisoned, normalize

__all__ = ["KINDS", "Signal", "detect", "is_poisoned", "normalize"]
