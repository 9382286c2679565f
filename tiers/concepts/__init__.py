"""Bilingual concept analysis of one memory line: what it is about, with which polarity, force and values.

Arbitration cannot compare words: "never deploy on Fridays" and «выкатывать релиз в конце рабочей недели —
нормально» share none. This package maps a line onto language-neutral *concept ids* from the lexicon in
``tiers/data/concepts.toml`` (EN and RU stems, phrases, tools grouped into slots, antonym pairs), splits it into
clauses, gives every concept the sign of its clause (negation and relaxation scope), records the clause's force
(obligation, permission, relaxation, prohibition, plain assertion), and extracts slot values (timezones, names,
times, dates, URLs, versions, branch names, tools). ``tiers.arbitrate`` compares two analyses.

Everything is deterministic, local and loaded lazily on first use. The modules, from the bottom up:

- ``patterns``: regular expressions compiled by `re` on first use; ``words``: word lists and word-shape tests;
- ``tokens``: the tokenizer; ``tables``: the lexicon built from the TOML and its shipped JSON copy
  (``python -m tiers.concepts --build``); ``memos``: per-text and per-concept memos; ``scan``: pattern matching;
- ``flags``: per-token flags of a line; ``records``: ``Clause`` and ``Analysis``; ``clauses``: clause bounds;
- ``values``, ``names``, ``keyed``: slot values of a clause, forms of address and proper words, "label: value";
- ``reports``: narrative past; ``analysis``: ``analyze()``, which puts the stages together.
"""

from .analysis import analyze, seed_analyses
from .records import Analysis, Clause
from .tables import Lexicon, blake2b, lexicon, weight
from .words import DAY_GROUPS

__all__ = ["Analysis", "Clause", "DAY_GROUPS", "Lexicon", "analyze", "blake2b", "lexicon", "seed_analyses", "weight"]
