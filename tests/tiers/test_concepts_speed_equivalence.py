"""The fast concept analysis equals the code as first written (test_concepts_speed_reference.py), field for field.

Compared: every field of the Analysis and of each Clause, with dict orders (``signs``, ``wmap``, ``cov_w``), list
orders (``values``, ``content``) and float sums exact; sets as sets. Lines: the repository's sample workspace,
test fixtures, held-out sets and the lint benchmark's generated workspace, then random lines built from words that
reach every stage (markers, negation, "without", "only", asides, times, dates, months, numbers, code spans,
paths, URLs, phone numbers, names, keyed values, non-plain characters).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tiers import concepts as c
from tiers.record import fields
from tiers.text import normalize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_concepts_speed_reference import analyze_reference  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _canon(v):
    if isinstance(v, (set, frozenset)):
        return ("set", sorted(map(repr, v)))
    if isinstance(v, dict):
        return ("dict", [(k, _canon(x)) for k, x in v.items()])  # in order
    if isinstance(v, (list, tuple)):
        return [_canon(x) for x in v]
    if isinstance(v, float):
        return repr(v)
    return v


def _rep(a: c.Analysis) -> dict:
    out = {}
    for f in fields(a):
        if f.name == "fx":
            continue
        v = getattr(a, f.name)
        if f.name == "clauses":
            v = [{g.name: _canon(getattr(cl, g.name)) for g in fields(cl)} for cl in v]
        else:
            v = _canon(v)
        out[f.name] = v
    return out


def _same(line: str) -> None:
    c._analyze_cached.cache_clear()
    fast = c.analyze(line)
    ref = analyze_reference(line)
    assert _rep(fast) == _rep(ref), line


def _corpus() -> list[str]:
    lines: list[str] = []
    for p in sorted((ROOT / "sample-workspace").rglob("*.md")) + sorted((ROOT / "tests").rglob("*.md")):
        lines += p.read_text(encoding="utf-8").splitlines()
    for p in sorted((ROOT / "benchmarks" / "heldout").glob("*.jsonl")):
        for row in p.read_text(encoding="utf-8").splitlines():
            if row.strip():
                rec = json.loads(row)
                for key in ("line", "candidate", "cmd", "note"):
                    if isinstance(rec.get(key), str):
                        lines.append(rec[key])
                lines += [m for m in rec.get("memory", []) if isinstance(m, str)]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lint_speed import generate

    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp), total=1500)
        for p in sorted(Path(tmp).rglob("*.md")):
            lines += p.read_text(encoding="utf-8").splitlines()
    return list(dict.fromkeys(lines))


def test_the_corpus_analyses_equal_the_reference() -> None:
    lines = _corpus()
    assert len(lines) > 1000
    for line in lines:
        _same(line)


WORDS = [
    # markers, force, clause boundaries, asides
    "never", "not", "don't", "no", "always", "must", "can", "may", "only", "without", "any", "works", "needed",
    "fine", "ok", "but", "unless", "except", "when", "if", "even", "including", "so", "that", "(", ")", ",", ".",
    ";", ":", "-", "—", "!", "?", "probably", "user", "said", "decided", "we", "agreed", "mention",
    "никогда", "не", "нельзя", "можно", "только", "без", "любой", "подойдёт", "нужно", "но", "если", "даже", "или",
    "и", "пользователь", "сказал", "выкатил", "сделан", "по", "москве", "мск", "через",
    # content, values, shapes
    "deploy", "release", "friday", "fridays", "weekend", "monday", "main", "master", "branch", "staging", "postgres",
    "sqlite", "docker", "pytest", "tabs", "spaces", "emoji", "email", "slack", "https", "http", "vim", "editor",
    "default", "=", "timezone", "utc", "utc+3", "gmt-5", "msk", "moscow", "time", "berlin", "in", "Munich", "at",
    "«Ригла»", '"Acme"', "call", "me", "Sam", "Samuel", "name", "is", "зовут", "Дима", "dd.mm.yyyy", "mm/dd/yy",
    "january", "jan", "5", "15th", "3-го", "мая", "дек", "10:30", "8:00", "22:15", "2026-11-05", "2026-11-05t10:00z",
    "3", "42", "1.5", "20%", "3x", "two", "twice", "once", "три", "svc12", "run", "failures", "мс", "таймаута",
    "`main`", "`git", "push`", "src/app.py", "./build", "notes.md", ".env", "--force", "-v", "https://x.example/a.",
    "a@b.io", "+7", "999", "123-45-67", "c++", "api's", "ёлка", "Ｆｕｌｌ", "😀", "\u1c80", "ǅ", "ﬁ", "AIRPORT",
    "(SVO)", "via", "Wise", "through", "Тинькофф", "scanned", "documents", "are", "named", "friends", "ordered",
]
LINES = st.lists(st.sampled_from(WORDS), min_size=0, max_size=16).map(" ".join)
PREFIXES = st.sampled_from(["", "- ", "* ", "- User said: ", "- [ ] ", "> ", "1. ", "**Rule:** ", "- 10:30 — "])


@settings(max_examples=1500, deadline=None)
@given(PREFIXES, LINES)
def test_random_lines_equal_the_reference(prefix: str, body: str) -> None:
    _same(prefix + body)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(list("ab1: .,-+`'/(*)@_\u00a0\tЖжé😀\u1c80") + ["ed", "https://"]),
                max_size=30).map("".join))
def test_odd_characters_equal_the_reference(body: str) -> None:
    _same(body)
    _same("- " + body)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(LINES, st.lists(st.sampled_from(list("a1:.-+`'/(*)@ _\u00e9\u0436\u1c80") + ["s ", "http://"]),
                                 max_size=24).map("".join)))
def test_chunked_tokens_equal_tokenize(text: str) -> None:
    norm = normalize(text)
    texts, kinds, codes = c._tokens(norm)
    toks = c.tokenize(norm)
    assert texts == [t.text for t in toks]
    assert kinds == [t.kind for t in toks]
    assert codes == [t.code for t in toks]


@settings(max_examples=800, deadline=None)
@given(LINES)
def test_prepared_scan_equals_the_generic_scan(text: str) -> None:
    lx = c.lexicon()
    norm = normalize(text)
    toks = c.tokenize(norm)
    lists = c._tokens(norm)
    infos = [c._token_info(t, lx, {}) for t in lists[0]]  # as the analysis prepares its tokens
    for exact, prefix, skip_code, flag, slot in ((lx.marker, lx.marker_prefix, True, c._F_MARKER, 4),
                                                 (lx.content, lx.content_prefix, False, c._F_CONTENT, 5)):
        assert c._table_spans(*lists, infos, flag, slot, skip_code) == c._scan(toks, exact, prefix, skip_code)


def test_text_flags_agree_with_the_sets_and_patterns() -> None:
    for t in [w.lower() for w in WORDS] + ["timeout", "runtime", "москва", "мск", "utc", "gmt", "decided", "may"]:
        f, date_format, month, dom = c._text_info(t)
        assert bool(f & c._F_CITY) == any(w in t for w in c._CITY_TIME_NEEDS)
        assert bool(f & c._F_MON_ANY) == any(w in t for w in c._MONTHS)
        assert bool(f & c._F_MON_EN) == any(w in t for w in c._MONTHS if w.isascii())
        assert bool(f & c._F_STOP) == (t in c._STOP or len(t) < 3)
        assert (date_format is not None) == bool(t[:1] in "dmy" and t and c._DATE_FORMAT.match(t))


def test_normalize_without_quotes_or_dashes_is_casefold_for_every_code_point() -> None:
    """tiers.text.normalize skips fold() when the text has no quote or dash to straighten."""
    import re
    import unicodedata

    from tiers import text

    ws = re.compile(r"\s+")

    def reference(x: str) -> str:
        nfc = unicodedata.normalize("NFC", x)
        return ws.sub(" ", text.fold(nfc).casefold().replace("ё", "е")).strip()

    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        x = "a" + chr(cp) + "Ё" + chr(cp) + " "
        assert text.normalize(x) == reference(x), hex(cp)


SHAPES = st.lists(st.sampled_from(list("aBcDé ÉЖж(«\"'-\n.!?:_1") + ["\u1c80", "ǅ", "😀", "In ", "в "]),
                  max_size=16).map("".join)


@settings(max_examples=2000, deadline=None)
@given(SHAPES)
def test_proper_word_helpers_equal_their_first_forms(t: str) -> None:
    capital_first = c._lazy(r"(?<=[\s(«\"'])\p{Lu}\p{Ll}{2,}(?:-\p{Lu}?\p{Ll}+)?")
    for start in (0, 1, 3):
        assert [(m.span(), m.group()) for m in c._CAPITAL.finditer(t, start)] == \
            [(m.span(), m.group()) for m in capital_first.finditer(t, start)]
    m = c._lazy(r"(\w+)\W*$").search(t)
    assert c._last_word(t) == (m.group(1) if m else None)
    assert c._may_have_upper(t) == (any(map(str.isupper, t)) or (bool(t) and max(t) >= c._NEWER_UNICODE))
