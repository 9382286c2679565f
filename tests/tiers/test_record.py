"""Records made by tiers.record: frozen, slotted, comparable, hashable, picklable, with defaults and inheritance."""

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
    import dataclasses

    p = Point(1, 2)
    with pytest.raises(record.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):  # the stdlib's own class, as the stdlib decorator raises
        del p.y
    assert record.FrozenInstanceError is dataclasses.FrozenInstanceError


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


@record.dataclass(frozen=True, slots=True)
class Labelled(Point):
    label: str = ""
    notes: list = record.field(default_factory=list, compare=False, repr=False)


def test_a_record_inherits_its_base_fields_and_takes_defaults_and_factories() -> None:
    a, b = Labelled(1), Labelled(1)
    assert [f.name for f in record.fields(Labelled)] == ["x", "y", "tags", "label", "notes"]
    assert (a.x, a.y, a.tags, a.label, a.notes) == (1, 0, (), "", [])
    assert a.notes is not b.notes  # one new list per instance
    assert a == b and Labelled(1, label="k") != a
    assert repr(Labelled(2, 3, label="k")) == "Labelled(x=2, y=3, tags=(), label='k')"


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((), {}, "missing required argument 'x'"),
    ((1, 2, (), 4), {}, "takes 3 arguments but 4 were given"),
    ((1,), {"x": 2}, "multiple values for argument 'x'"),
    ((1,), {"z": 2}, "unexpected keyword argument 'z'"),
    ((1, 2, ()), {"x": 2}, "multiple values for argument 'x'"),
    ((1, 2, ()), {"z": 2}, "unexpected keyword argument 'z'"),
], ids=["missing", "too-many", "twice", "unknown", "all-given-and-twice", "all-given-and-unknown"])
def test_a_bad_construction_is_a_type_error_naming_the_field(args, kwargs, message) -> None:
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)


def test_records_of_different_classes_are_never_equal_and_unhashable_when_mutable() -> None:
    @record.dataclass
    class Box:
        x: int
        items: list = record.field(default_factory=list)

    assert Box(1) == Box(1) and Box(1) != Point(1)
    with pytest.raises(TypeError):
        hash(Box(1))
    box = Box(1)
    box.x = 2
    assert box.x == 2


def test_options_it_does_not_implement_are_refused_at_class_creation() -> None:
    with pytest.raises(TypeError, match="not supported: order"):
        @record.dataclass(order=True)
        class Ordered:
            x: int


def test_a_non_default_field_after_a_default_one_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default field 'y' follows a default field"):
        @record.dataclass
        class Bad:
            x: int = 0
            y: int


def test_post_init_runs_once_however_the_fields_are_given() -> None:
    calls = []

    @record.dataclass(frozen=True, slots=True)
    class Checked:
        a: int
        b: int = 2

        def __post_init__(self) -> None:
            calls.append((self.a, self.b))

    assert Checked(1, 5) == Checked(1, b=5) == Checked(a=1, b=5)
    Checked(3)
    assert calls == [(1, 5), (1, 5), (1, 5), (3, 2)]
