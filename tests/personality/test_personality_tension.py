"""Tension pairs (Chitin §14.2/§14.3) through a working stemmer, with negation; the EN and RU stemmers."""

from __future__ import annotations

import pytest
from personality_data import make

from personality.tension import CHITIN_PAIRS, detect_conflicts, tension
from personality.text import analyse, stem, stem_en, stem_ru

P4 = 0.7058823529411764
P2 = 0.5454545454545454

# Chitin's vectors where cuticle keeps the result (score and pairs, in table order).
KEPT = [
    ("Boss prefers detailed verbose explanations", "Boss values concise brief responses", P4,
     ['"verbose" ↔ "concise"', '"verbose" ↔ "brief"', '"detailed" ↔ "concise"', '"detailed" ↔ "brief"']),
    ("Always ask before taking action", "Act first on clear tasks, explain later", 0.375, ['"ask" ↔ "act"']),
    ("Use formal professional tone in messages", "Keep it casual and relaxed", P2,
     ['"formal" ↔ "casual"', '"professional" ↔ "casual"']),
    ("Boss values directness and efficiency", "Boss prefers direct communication style", 0, []),
    ("TDD means writing tests first", "Boss likes coffee in the morning", 0, []),
    ("Be VERBOSE in explanations", "Keep things CONCISE", 0.375, ['"verbose" ↔ "concise"']),
    ("Boss values directness and brevity", "Boss prefers detailed verbose explanations", P4,
     ['"verbose" ↔ "brief"', '"verbose" ↔ "direct"', '"detailed" ↔ "brief"', '"detailed" ↔ "direct"']),
    ("Be careful and cautious", "Be fast and bold", P2, ['"cautious" ↔ "bold"', '"careful" ↔ "fast"']),
    ("Be verbose but concise", "Be verbose and concise", 0, []),
    ("Be deliberate", "Act quick", 0.375, ['"deliberate" ↔ "quick"']),
    ("Show directness", "Be verbose", 0.375, ['"verbose" ↔ "direct"']),
    ("Value brevity", "Be verbose", 0.375, ['"verbose" ↔ "brief"']),
]


@pytest.mark.parametrize("a, b, score, pairs", KEPT, ids=[f"{a[:22]}|{b[:16]}" for a, b, _, _ in KEPT])
def test_tension_vectors_kept_from_chitin(a, b, score, pairs):
    t = tension(a, b)
    assert t.score == score
    assert list(t.pairs) == pairs


# Deliberate differences (docs/personality.md): the stemmer works, and negation flips a term's side.
CHANGED = [
    ("Be deliberate", "Act quickly", 0, 0.375, "stemmer: quickly -> quick"),
    ("Speak formally", "Speak casually", 0, 0.375, "stemmer: formally/casually"),
    ("Avoid conciseness", "Be verbose", 0.375, 0, "negation: avoiding concise agrees with verbose"),
    ("Always ask permission before proceeding with tasks", "Act decisively on tasks without waiting", P2, 0.375,
     "negation: 'without waiting' is not 'wait'"),
    ("Never ask before acting", "Always ask before acting", 0, 0.375, "negation: same term, opposite polarity"),
    ("Don't be verbose", "Be concise", 0.375, 0, "negation: agreement"),
    ("Don't be verbose", "Don't be concise", 0.375, 0.375, "both negated: still opposite"),
    ("Всегда отвечай подробно", "Отвечай кратко", 0, 0.375, "Russian pairs"),
    ("Не спрашивай разрешения", "Спрашивай разрешения", 0, 0.375, "Russian negation"),
]


@pytest.mark.parametrize("a, b, chitin, ours, why", CHANGED, ids=[c[4] for c in CHANGED])
def test_tension_deliberate_differences(a, b, chitin, ours, why):
    assert tension(a, b).score == ours, why


def test_there_are_44_chitin_pairs():
    assert len(CHITIN_PAIRS) == 44
    assert CHITIN_PAIRS[0] == ("verbose", "concise") and CHITIN_PAIRS[-1] == ("initiative", "permission")


def conflicts(existing, claim):
    items = [make(f"i{n}", "relational", c, 0.8) for n, c in enumerate(existing)]
    return detect_conflicts(items, claim)


@pytest.mark.parametrize(
    "existing, claim, reported, tension_score",
    [
        (["Boss values directness and brevity"], "Boss prefers detailed verbose explanations", ["i0"], P4),
        (["Boss values concise brief responses"], "Boss prefers verbose detailed explanations", ["i0"], P4),
        (["Boss values directness. Skip the preamble."], "Boss prefers verbose explanations", ["i0"], 0.375),
        (["Boss values directness and efficiency, skip the preamble"], "Boss values directness and efficiency",
         ["i0"], 0),
        (["I enjoy debugging code"], "I find testing more satisfying than debugging", [], None),
        # Chitin missed the second (its stemmer never turned "thoroughly" into "thorough")
        (["Be verbose and detailed in all responses", "Explain everything thoroughly with examples"],
         "Be concise and brief, skip unnecessary detail", ["i0", "i1"], P4),
    ],
    ids=["directness", "concise", "preamble", "overlap-only", "unrelated", "thoroughly"],
)
def test_detect_conflicts(existing, claim, reported, tension_score):
    found = conflicts(existing, claim)
    assert [c.insight.id for c in found] == reported
    if found:
        top = found[0]
        assert top.tension == tension_score
        assert top.score == pytest.approx(0.3 * top.similarity + 0.7 * top.tension)
        assert top.score >= 0.15


def test_detect_conflicts_keeps_top_five_and_skips_archived():
    items = [make(f"i{n}", "behavioral", f"Be verbose number{n}", 0.8) for n in range(7)]
    items.append(make("arch", "behavioral", "Be verbose always", 0.8, archived_at="2026-11-30 08:27:14"))
    found = detect_conflicts(items, "Be concise")
    assert len(found) == 5 and "arch" not in {c.insight.id for c in found}


@pytest.mark.parametrize(
    "word, expected",
    [
        ("quickly", "quick"), ("formally", "formal"), ("formality", "formal"), ("casually", "casual"),
        ("directness", "direct"), ("verbosity", "verbos"), ("verbose", "verbos"), ("brevity", "brief"),
        ("conciseness", "concis"), ("running", "run"), ("hopped", "hop"), ("generously", "generous"),
        ("skies", "sky"), ("proceeding", "proceed"), ("caresses", "caress"), ("ponies", "poni"),
        ("efficiency", "effici"), ("efficient", "effici"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_english_stemmer(word, expected):
    assert stem(word) == expected


@pytest.mark.parametrize(
    "word, expected",
    [
        ("подробно", "подробн"), ("подробный", "подробн"), ("кратко", "кратк"), ("краткий", "кратк"),
        ("спрашивать", "спрашива"), ("спрашивай", "спрашива"), ("памяти", "памят"), ("красивейший", "красив"),
        ("ёлка", "елк"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_russian_stemmer(word, expected):
    assert stem(word) == expected


def test_stemmers_leave_short_and_foreign_words_alone():
    assert stem_en("is") == "is" and stem_en("naïve") == "naïve" and stem_ru("я") == "я"


@pytest.mark.parametrize(
    "text, negated",
    [
        ("Don't be verbose", {"verbos"}),
        ("Avoid conciseness", {"concis"}),
        ("Never ask before acting", {"ask"}),
        ("act without waiting", {"wait"}),
        ("не спрашивай", {"спрашива"}),
        ("be verbose", set()),
    ],
    ids=["dont", "avoid", "never", "without", "ru-ne", "none"],
)
def test_negation_scope_is_the_next_content_word(text, negated):
    assert {s for s, neg, _ in analyse(text) if neg} == negated
