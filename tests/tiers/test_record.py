"""Records are stdlib dataclasses imported through tiers.record: frozen, slotted, comparable, picklable."""

from __future__ import annotations

import copy
import pickle

import pytest

from tiers import record
from tiers.model import Classification, Tier
from tiers.line import Line, prepare


@record.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = record.field(default=(), compare=False)


def test_a_frozen_record_refuses_assignment() -> None:
    p = Point(1, 2)
    with pytest.raises(record.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]


def test_a_slotted_record_has_no_instance_dict() -> None:
    assert not hasattr(Point(1), "__dict__")
    assert Point.__slots__ == ("x", "y", "tags")


def test_fields_left_out_of_comparison_do_not_change_equality_or_hash() -> None:
    assert Point(1, 2, ("a",)) == Point(1, 2, ("b",))
    assert hash(Point(1, 2, ("a",))) == hash(Point(1, 2))


def test_replace_makes_a_changed_copy_and_fields_lists_them_in_order() -> None:
    p = Point(1, 2)
    assert record.replace(p, y=5) == Point(1, 5)
    assert [f.name for f in record.fields(Point)] == ["x", "y", "tags"]


@pytest.mark.parametrize("value", [Point(1, 2, ("t",)), Classification(Tier.DECISION, 0.9, "for CI", ("r",)),
                                   prepare("- User said: x <!-- cu:D s=1 -->")],
                         ids=["point", "classification", "prepared-line"])
def test_records_pickle_and_copy_to_equal_values(value) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value


def test_is_record_knows_records_and_rejects_other_objects() -> None:
    assert record.is_record(Point) and record.is_record(Point(1)) and record.is_record(Line)
    assert not record.is_record(object())
