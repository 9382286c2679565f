"""The verdict on a line never depends on the interpreter's hash seed (set and frozenset iteration order).

Weighted shares are sums over sets of concepts; summed in set order, a share that is exactly a threshold (4.6 of
9.2 against 0.5) lands on either side of it depending on PYTHONHASHSEED. Each case runs in fresh interpreters
under several seeds and must give the same, expected decision in all of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ("0", "1", "2")

_PROGRAM = """
import json, sys
from datetime import date
from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.classify import classify
out = []
for memory, candidate in json.loads(sys.stdin.read()):
    index = ConstraintIndex.from_texts({"MEMORY.md": "\\n".join(memory) + "\\n"})
    cls = classify(candidate)
    res = arbitrate(index, candidate, cls.tier, file="MEMORY.md", scope=cls.scope, today=date(2026, 11, 30))
    out.append([res.decision, (res.error or {}).get("kind")])
print(json.dumps(out))
"""

# (memory, candidate, expected decision): choices whose restated share sits exactly on a threshold
CASES = [
    (["- Договорились с пользователем: на неделю дежурства Игоря (1–7 марта) critical-алерты ночью не пересылать."],
     "- Ночью critical-алерты не пересылаем.", "block"),
    (["- Договорились с пользователем: на неделю дежурства Марины (14–20 декабря) info-алерты ночью не дублировать."],
     "- Ночью info-алерты не дублируем.", "block"),
    (["- Agreed with the user: for the week of Oleg's on-call (Dec 7–13) do not escalate warning alerts at night."],
     "- Warning alerts at night are not escalated.", "block"),
    (["- User said: never deploy on Fridays.", "- User said: never deploy to prod without a review."],
     "- Friday deploys to prod are fine without a review.", "block"),
]


def _decide_under(seed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    payload = json.dumps([[m, c] for m, c, _ in CASES])
    done = subprocess.run([sys.executable, "-c", _PROGRAM], input=payload, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=True)
    return json.loads(done.stdout)


def test_the_decision_is_the_same_under_every_hash_seed():
    runs = {seed: _decide_under(seed) for seed in SEEDS}
    expected = [e for _, _, e in CASES]
    for seed, got in runs.items():
        assert [d for d, _ in got] == expected, f"PYTHONHASHSEED={seed}"
    assert len({json.dumps(got) for got in runs.values()}) == 1  # the kind of conflict too
