"""Which constraints a check examines (ConstraintIndex.candidates): the best-scored first, ties by file and line."""

from __future__ import annotations

import pytest

from tiers.arbitrate import MAX_CANDIDATES, ConstraintIndex
from tiers.concepts import analyze


def _rules(n: int) -> list[str]:
    return [f"- User said: never deploy svc{i} on Fridays." for i in range(n)]


@pytest.mark.parametrize("n", [40, 300], ids=["rare-keys", "frequent-keys"])
def test_the_constraint_naming_the_lines_rare_word_comes_first(n):
    # with 300 rules, "deploy" and "Friday" are held by more than POSTING_CAP of them: only the rare word ranks
    lines = [c.line for c in ConstraintIndex.from_lines(_rules(n)).candidates(analyze("- Deploying svc7 on Friday is "
                                                                                      "fine."))]
    assert lines[0] == 8
    assert len(lines) == MAX_CANDIDATES
    assert lines[1:] == sorted(lines[1:])  # the others score the same: by line


def test_equal_scores_rank_by_file_then_line():
    index = ConstraintIndex.from_texts({"a.md": "\n".join(_rules(10)) + "\n",
                                        "b.md": "- User said: never deploy svc7 on Fridays.\n"})
    got = [(c.file, c.line) for c in index.candidates(analyze("- Deploying svc7 on Friday is fine."))]
    assert got[:2] == [("a.md", 8), ("b.md", 1)]  # both name svc7: file order
    assert got[2:] == [("a.md", n) for n in (1, 2, 3, 4, 5, 6, 7, 9, 10)]
    plain = [(c.file, c.line) for c in index.candidates(analyze("- Friday deploys are fine."))]
    assert plain == [("a.md", n) for n in range(1, 11)] + [("b.md", 1)]


def test_two_frequent_concepts_alone_examine_the_latest_constraints_holding_both():
    # 300 rules hold "deploy" and "Friday": the check looks at the last POSTING_CAP (256) of them, first by line
    lines = [c.line for c in ConstraintIndex.from_lines(_rules(300)).candidates(analyze("- Friday deploys are fine."))]
    assert lines == list(range(45, 45 + MAX_CANDIDATES))


def test_the_limit_is_kept_and_a_smaller_one_is_a_prefix():
    index = ConstraintIndex.from_lines(_rules(120))
    a = analyze("- Deploying svc7 on Friday is fine.")
    full = index.candidates(a)
    assert index.candidates(a, limit=5) == full[:5]


def test_a_line_sharing_no_concept_meets_no_constraint():
    assert ConstraintIndex.from_lines(_rules(50)).candidates(analyze("- The cat sleeps on the sofa.")) == []


def test_typed_slots_are_read_off_the_shape_and_the_clock_values():
    from tiers.arbitration.index import typed_slots

    assert typed_slots("- Board at gate D.") == {"DESIGNATOR:gate"}
    assert typed_slots("- Buckets go to us-east-2.") == {"REGION"}
    assert typed_slots("- Calls in the evening.", ["DAYPART"]) == {"CLOCK"}
    assert typed_slots("- No calls after 18:00.", ["TIME"]) == {"CLOCK"}
    assert typed_slots("- Calls on Friday.", ["DAY"]) == frozenset()
    assert typed_slots("") == frozenset()


def test_a_constraint_sharing_a_typed_slot_is_offered_however_few_words_it_shares():
    from tiers.arbitrate import ConstraintIndex
    from tiers.concepts import analyze

    index = ConstraintIndex.from_lines(["- User said: always board at gate B for the shuttle, and bring the pass."])
    assert [c.analysis.text for c in index.candidates(analyze("- Use gate D tomorrow."))]
    assert not index.candidates(analyze("- Use lot D tomorrow."))


def test_a_rule_sharing_only_a_region_with_the_line_is_reached_through_it():
    from tiers.arbitrate import ConstraintIndex
    from tiers.concepts import analyze

    index = ConstraintIndex.from_lines(["- User said: backups go to the `eu-west-1` bucket, nowhere else."])
    assert index.candidates(analyze("- restic repository: s3:eu-central-1/backups-nightly."))
    assert not index.candidates(analyze("- restic repository lives on the NAS."))
