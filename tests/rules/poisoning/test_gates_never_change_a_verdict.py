"""The stems that gate the detectors and frames (rules.poisoning.patterns: _STEMS, FRAME_GATES) are a speed device
only: on every line of the injection sets, the detector with every gate open gives the same verdict as the gated one.
A word class widened without its gate stem (the gap this guards against) fails here."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

detect_module = importlib.import_module("rules.poisoning.detect")
from rules.poisoning.patterns import _STEMS, FRAME_GATES  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SETS = sorted([*ROOT.glob("benchmarks/data/eval/injection-*.jsonl"), *ROOT.glob("benchmarks/heldout/injection-*.jsonl"),
               *ROOT.glob("benchmarks/data/probes-poison-*.jsonl")])
LINES = [json.loads(row)["line"] for path in SETS for row in path.read_text(encoding="utf-8").splitlines() if row.strip()]
ALL_OPEN = frozenset(["frame:" + g for g in FRAME_GATES] + list(_STEMS) + ["exfiltration", "trust-source", "base64"])


def test_the_sets_are_there():
    assert len(SETS) >= 5 and len(LINES) >= 400


@pytest.mark.parametrize("chunk", range(4))
def test_opening_every_gate_changes_no_verdict(chunk, monkeypatch):
    lines = LINES[chunk::4]
    gated = [bool(detect_module.detect(line)) for line in lines]
    monkeypatch.setattr(detect_module, "_present", lambda text: ALL_OPEN)
    opened = [bool(detect_module.detect(line)) for line in lines]
    gaps = [line for line, a, b in zip(lines, gated, opened) if a != b]
    assert gaps == []
