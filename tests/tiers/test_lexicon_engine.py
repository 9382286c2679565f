"""The lexicon's fast matcher gives exactly what compiling every phrase with ``regex`` gives.

``tiers.lexicon.scan`` finds phrases with a word index, per-phrase gates, triggers and a step matcher (no compiles on
ordinary lines), falling back to the ``regex`` engine on lines where ``re`` and ``regex`` read characters
differently. These tests hold it to a plain reference: every phrase compiled with ``regex`` and tried at every
word of the line that its first-word keys allow, the way the lexicon worked before.
"""

from __future__ import annotations

import random
import re
import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import lexicon as lx
from tiers.text import fold

_WORD = re.compile(r"\w+")


def _reference_tables():
    """Per category: (indexed [(idx, compiled, first keys)], loose [(idx, compiled)], anchored [(idx, compiled)], entries)."""
    out = []
    for category in lx.CATEGORIES:
        indexed, loose, anchored, entries = [], [], [], []
        for lang, items in lx._TABLES[category].items():
            for item in items:
                phrase, weight = (item, 1.0) if isinstance(item, str) else item
                idx = len(entries)
                entries.append((lang, phrase, weight))
                keys = lx._first_keys(phrase)
                if keys is not None:
                    toks = phrase.split(" ")
                    while len(toks) > 1 and toks[0].endswith("?") and len(toks[0]) > 1:
                        toks = toks[1:]
                    phrase = " ".join(toks)
                    keys = lx._first_keys(phrase)
                source = lx.compile_phrase(phrase)
                if keys is not None:
                    indexed.append((idx, regex.compile(source), keys))
                elif source.startswith("^"):
                    anchored.append((idx, regex.compile(source)))
                else:
                    loose.append((idx, regex.compile(source)))
        out.append((indexed, loose, anchored, entries))
    return out


_REFERENCE = None


def reference_scan(folded: str) -> dict:
    global _REFERENCE
    if _REFERENCE is None:
        _REFERENCE = _reference_tables()
    out = {}
    for category, (indexed, loose, anchored, entries) in zip(lx.CATEGORIES, _REFERENCE):
        hits = []
        last_end = -1
        for w in _WORD.finditer(folded):
            pos = w.start()
            if pos < last_end:
                continue
            word = w.group()
            prefixes = {word[:n] for n in (1, 2, 3) if len(word) >= n}
            for idx, pat, (exact, stems) in indexed:  # in entry order: the first match is the best at this word
                # a phrase is tried where its first word is the line's word, or a stem shares its first letters
                if word not in exact and not any(st[:3] in prefixes for st in stems):
                    continue
                m = pat.match(folded, pos)
                if m:
                    hits.append((pos, m.end(), idx))
                    last_end = m.end()
                    break
        for idx, pat in anchored:
            m = pat.match(folded)
            if m:
                hits.append((0, m.end(), idx))
                break
        for idx, pat in loose:
            hits.extend((m.start(), m.end(), idx) for m in pat.finditer(folded))
        hits.sort()
        res, end = [], -1
        for s, e, idx in hits:
            if s < end:
                continue
            end = max(e, s + 1)
            res.append((s, e, *entries[idx]))
        out[category] = res
    return out


def _phrases():
    """Every phrase of the pattern language in the lexicon tables (raw ``re:`` patterns left out)."""
    for table in lx._TABLES.values():
        for items in table.values():
            for item in items:
                phrase = item if isinstance(item, str) else item[0]
                if not phrase.startswith("re:"):
                    yield phrase


def _vocabulary() -> list[str]:
    words = set()
    for phrase in _phrases():
        for tok in phrase.lstrip("^").split(" "):
            for alt in tok.rstrip("?").split("|"):
                alt = alt.rstrip("*")
                if alt and alt not in "_#":
                    words.update({alt, alt + "ами", alt + "s", alt + "-x"})
    return sorted(words)


_VOCAB = _vocabulary()
_EXTRA = ["`pytest`", "`npm test`", "42", "3.0", "11:02", "200 ok", "404", "5%", "120ms", "12 мс", ":", ",", '"', "'",
          "(", ")", "-", "?", ".", "get /api", "№12", "#1234", "error[e0425]", "traceback", "x²", "a\u0301", "\u0483",
          "\x1c", "½", "\u200d", "  ", "\t", "svc12", "_", "it's", "users'", "ci/cd", "health-check"]


def _lines(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        toks = [rng.choice(_VOCAB) if rng.random() < 0.75 else rng.choice(_EXTRA) for _ in range(rng.randint(1, 12))]
        sep = rng.choice([" ", " ", " ", "", "  "])
        out.append(fold(unicodedata.normalize("NFC", sep.join(toks))))
    return out


@pytest.mark.parametrize("compile_after", [0, 10**9], ids=["compiled-re", "steps"])
def test_scan_equals_the_regex_reference_on_generated_lines(monkeypatch, compile_after):
    monkeypatch.setattr(lx, "COMPILE_AFTER", compile_after)
    monkeypatch.setattr(lx, "_BUILT", None)  # fresh patterns: none compiled yet
    for line in _lines(1500, seed=compile_after % 997):
        assert lx.scan(line) == reference_scan(line), line


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_VOCAB + _EXTRA), min_size=1, max_size=10), st.sampled_from([" ", "", ", ", ": "]))
def test_scan_equals_the_regex_reference_on_any_mix(words, sep):
    line = fold(sep.join(words))
    assert lx.scan(line) == reference_scan(line)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_scan_equals_the_regex_reference_on_any_text(text):
    line = fold(unicodedata.normalize("NFC", text))
    assert lx.scan(line) == reference_scan(line)


def test_steps_match_like_the_compiled_phrase_at_every_position():
    lines = _lines(400, seed=5)
    for phrase in _phrases():
        steps = lx.phrase_steps(phrase)
        compiled = re.compile(lx.compile_phrase(phrase))
        for line in lines:
            if lx.needs_regex(line):
                continue
            for pos in range(len(line) + 1):
                m = compiled.match(line, pos)
                assert lx.run_steps(steps, line, pos) == (m.end() if m else None), (phrase, line, pos)


def test_triggers_never_turn_a_match_away():
    lines = _lines(3000, seed=11) + [fold(s) for s in (
        "user (voice note): no calls", "пользователь (в чате): не звонить", "`make` ok", "get /health 200 ok",
        "12 tests failed", "500 internal server error", "rebuilt in 3.2s", "#1234 merged", "№12 закрыт",
        "тесты упали: 3 ошибки", "100%", "oomkilled again", "stack trace in logs", "is it up?")]
    table = lx._tables()
    for _ci, _idx, pat in table.loose + table.anchored_loose:
        rx = regex.compile(pat.source)
        for line in lines:
            if rx.search(line):
                assert lx._may_match(pat.trigger, line, bool(re.search(r"\d", line))), (pat.source, line)


@pytest.mark.parametrize(("source", "trigger"), [
    (r"\d+\s?%", ("digit", ("%",))),
    (r"(?<=\S\s)`[^`]+`", (("`",), ("`",))),
    (r"^(?:the )?(?:user|human)\s*\(", (("user", "human"), ("(",))),
    (r"(?:error\[?e\d{3,4}|oomkilled)", (("error", "oomkilled"),)),
    (r"ab?c", (("a",), ("c",))),
    (r"a|b", None),
    (r"(?i)abc", None),
    (r"(?:x|y)?z", (("z",),)),
    (r"\w+(?:ть|ти)", (("ть", "ти"),)),
], ids=["digit-percent", "lookbehind", "optional-group", "alternation", "optional-char", "top-level-bar", "flags",
        "optional-alternation", "class-then-group"])
def test_trigger_reads_only_what_every_match_contains(source, trigger):
    assert lx._trigger(source) == trigger


def test_every_code_point_where_the_engines_disagree_goes_to_regex():
    """With the installed ``regex`` (maybe newer than the one ``data/regex_engine_diff.txt`` was generated from),
    every code point on which ``re`` and ``regex`` read ``\\w``, ``\\s`` or ``\\d`` differently is listed in the
    table or unassigned in Python's Unicode tables: ``needs_regex`` sends a line holding it to ``regex``."""
    import unicodedata

    everything = "".join(map(chr, range(0x110000)))
    differ: set[int] = set()
    for cls in (r"\w", r"\s", r"\d"):
        a = set(re.findall(cls, everything))
        b = set(regex.findall(cls, everything))
        differ |= {ord(c) for c in a ^ b}
    starts, ends = lx._diff_ranges()
    listed = {cp for lo, hi in zip(starts, ends) for cp in range(lo, hi + 1)}
    uncovered = {cp for cp in differ - listed if unicodedata.category(chr(cp)) != "Cn"}
    assert not uncovered, f"regenerate data/regex_engine_diff.txt: {sorted(uncovered)[:20]}"
    for cp in sorted(differ)[:: max(1, len(differ) // 400)]:
        assert lx.needs_regex("a " + chr(cp)), hex(cp)


@pytest.mark.parametrize("text", ["plain ascii", "кириллица", "x²", "a\u0301", "\u0483", "tab\tok", "\x1c", "½",
                                  "\u0d4d", "中文", "\U0001f600"])
def test_needs_regex_agrees_with_the_table(text):
    starts, ends = lx._diff_ranges()
    listed = any(lo <= ord(c) <= hi for c in text for lo, hi in zip(starts, ends))
    assert lx.needs_regex(text) is listed


@pytest.mark.parametrize("cp", [0x0378, 0x0558, 0x05C8, 0x3E03C])
def test_code_points_unknown_to_python_go_to_regex(cp):
    import unicodedata

    assert unicodedata.category(chr(cp)) == "Cn"
    assert lx.needs_regex("plain " + chr(cp))


@pytest.mark.parametrize(("token", "schedule", "time"), [
    ("fridays", True, False), ("пятницам", True, False), ("december", False, True), ("декабре", False, True),
    ("q1", False, True), ("friday-night", False, False), ("staging", False, False), ("недел²", False, False),
])
def test_word_sets_match_like_the_old_patterns(token, schedule, time):
    assert lx.is_schedule_head(token) is schedule
    assert lx.is_time_head(token) is time
    old_schedule = regex.compile("(?:" + "|".join(
        re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in lx.SCHEDULE_HEADS) + r")\Z")
    assert bool(old_schedule.match(token)) is schedule


def test_a_fresh_process_classifies_without_importing_regex():
    import subprocess
    import sys

    code = ("import sys; from tiers.classify import classify; "
            "classify('- Пользователь сказал: не деплоить по пятницам.'); "
            "classify('- `pytest` reported 3 failures, user said \"retry\" (maybe).'); "
            "print('regex' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_shipped_tables_are_the_tables_the_phrases_build():
    """tiers/data/lexicon.built.json is current: regenerate it with `python -m tiers.lexicon --build`."""
    import json

    built = lx._load_built()
    assert built is not None, "lexicon.built.json is missing or stale: run `python -m tiers.lexicon --build`"
    fresh = lx._Tables()
    assert json.dumps(lx.tables_state(built), sort_keys=True) == json.dumps(lx.tables_state(fresh), sort_keys=True)


def test_stale_or_broken_shipped_tables_are_ignored(tmp_path, monkeypatch):
    import json

    path = tmp_path / "lexicon.built.json"
    monkeypatch.setattr(lx, "BUILT", str(path))
    assert lx._load_built() is None  # absent
    lx.write_built(str(path))
    assert lx._load_built() is not None
    data = json.loads(path.read_text(encoding="utf-8"))
    data["digest"] = "0" * 24  # built from other phrases
    path.write_text(json.dumps(data), encoding="utf-8")
    assert lx._load_built() is None
    path.write_text('{"digest": "' + lx._phrases_digest() + '", "tables": {"patterns": 3}}', encoding="utf-8")
    assert lx._load_built() is None  # right digest, broken body: built from the phrases instead


def test_loaded_tables_scan_like_built_ones(monkeypatch):
    lines = ["- user said: never deploy on fridays.", "- пользователь сказал: отчёты присылай до 10:00.",
             "- maybe the cache is stale (probably).", "- `pytest` reported 3 failures in 12 ms.",
             "- decided with the user: use postgres.", "get /api/v1 returned 404 not found"]
    loaded = lx._load_built()
    monkeypatch.setattr(lx, "_BUILT", loaded)
    got = [lx.scan(line) for line in lines]
    monkeypatch.setattr(lx, "_BUILT", lx._Tables())
    lx._MEMO.clear()
    lx._ANCHORED_MEMO.clear()
    lx._BORING.clear()
    assert got == [lx.scan(line) for line in lines]
    assert any(hits for result in got for hits in result.values())


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x52F), min_size=1, max_size=30))
def test_the_set_test_below_armenian_agrees_with_the_character_loop(text):
    assert lx.needs_regex(text) == lx._needs_regex_by_char(text)


def test_every_character_below_armenian_is_decided_as_by_the_character_loop():
    for cp in range(0x80, 0x530):
        ch = chr(cp)
        assert lx.needs_regex("дом " + ch) == lx._needs_regex_by_char("дом " + ch), hex(cp)
