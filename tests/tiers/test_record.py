"""tiers.record must behave like dataclasses for every feature the project uses: the same class, built by both
decorators, is compared on construction, defaults, repr, equality, hashing, frozenness, slots, pickling and replace."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from tiers import record


def build(mod, **opts):
    @mod.dataclass(**opts)
    class Item:
        name: str
        count: int = 0
        tags: tuple = ()
        notes: list = mod.field(default_factory=list, hash=False)
        meta: dict = mod.field(default_factory=dict, compare=False, repr=False)
        hint: str | None = mod.field(default=None, repr=False, compare=False)

        def label(self) -> str:
            return f"{self.name}:{self.count}"

    return Item


# module-level classes so that pickling finds them by name
@record.dataclass(frozen=True, slots=True)
class FrozenPoint:
    x: int
    y: int = 0


@record.dataclass(slots=True)
class MutablePoint:
    x: int
    y: list = record.field(default_factory=list)


OPTIONS = [{}, {"slots": True}, {"frozen": True}, {"frozen": True, "slots": True}]


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: "-".join(o) or "plain")
def test_same_behaviour_as_dataclasses(opts):
    ours, std = build(record, **opts), build(dataclasses, **opts)
    for cls in (ours, std):
        a = cls("a")
        assert (a.name, a.count, a.tags, a.notes, a.meta, a.hint) == ("a", 0, (), [], {}, None)
        assert cls("a").notes is not cls("a").notes  # a fresh default per instance
        assert a.label() == "a:0"
        assert cls("a", 2, ("t",)) == cls(name="a", count=2, tags=("t",))
        assert cls("a", meta={"x": 1}) == cls("a", meta={"y": 2})  # compare=False
        assert cls("a") != cls("b")
        assert cls("a").__eq__(object()) is NotImplemented
        assert cls.__match_args__ == ("name", "count", "tags", "notes", "meta", "hint")
        with pytest.raises(TypeError):
            cls()
    assert repr(ours("a", 1)) == repr(std("a", 1))
    assert repr(ours("a", 1)).endswith(".Item(name='a', count=1, tags=(), notes=[])")
    assert hasattr(ours("a"), "__dict__") == hasattr(std("a"), "__dict__")
    assert (ours.__hash__ is None) == (std.__hash__ is None)
    if opts.get("frozen"):
        for cls in (ours, std):
            item = cls("a", tags=("x",))
            assert hash(item) == hash(cls("a", tags=("x",), meta={"ignored": 1}))
            with pytest.raises(AttributeError):
                item.name = "b"
            with pytest.raises(AttributeError):
                del item.name
        with pytest.raises(record.FrozenInstanceError):
            ours("a").count = 3
    else:
        for cls in (ours, std):
            item = cls("a")
            item.count = 5
            assert item.count == 5
            with pytest.raises(TypeError):
                hash(item)


def test_replace_and_fields():
    p = FrozenPoint(1, 2)
    q = record.replace(p, y=5)
    assert (p, q) == (FrozenPoint(1, 2), FrozenPoint(1, 5))
    assert [f.name for f in record.fields(FrozenPoint)] == ["x", "y"]
    assert [f.name for f in record.fields(p)] == ["x", "y"]
    with pytest.raises(TypeError):
        record.fields(object())
    with pytest.raises(TypeError):
        record.replace(p, z=1)


@pytest.mark.parametrize("value", [FrozenPoint(3, 4), MutablePoint(1, [2, 3])], ids=["frozen", "mutable"])
def test_pickle_and_copy(value):
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):  # slots need protocol 2+, as with dataclasses
        assert pickle.loads(pickle.dumps(value, proto)) == value
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value


def test_slots_leave_no_class_default_and_keep_methods():
    assert FrozenPoint.__slots__ == ("x", "y")
    assert not hasattr(FrozenPoint(1), "__dict__")
    assert FrozenPoint(1).y == 0

    @record.dataclass(frozen=True, slots=True)
    class Child:
        a: int

        def __repr__(self) -> str:  # a method of the body is kept
            return "custom"

        def twice(self) -> int:
            return super().__hash__() is not None and self.a * 2  # zero-argument super() still works

    assert repr(Child(1)) == "custom"
    assert Child(2).twice() == 4


def test_post_init_and_init_false():
    @record.dataclass
    class Counter:
        start: int
        seen: list = record.field(default_factory=list, init=False)

        def __post_init__(self) -> None:
            self.seen.append(self.start)

    c = Counter(3)
    assert c.seen == [3]
    with pytest.raises(TypeError):
        Counter(3, [1])


def test_inherited_fields():
    @record.dataclass
    class Base:
        a: int

    @record.dataclass
    class Derived(Base):
        b: int = 2

    assert Derived(1) == Derived(1, 2)
    assert repr(Derived(1)).endswith("Derived(a=1, b=2)")


def test_bad_definitions_are_rejected_like_dataclasses():
    with pytest.raises(TypeError):
        @record.dataclass
        class Order:
            a: int = 1
            b: int

    with pytest.raises(ValueError):
        @record.dataclass
        class Shared:
            items: list = []

    with pytest.raises(ValueError):
        record.field(default=1, default_factory=list)

    with pytest.raises(TypeError):
        @record.dataclass(frozen=True)
        class Own:
            a: int

            def __setattr__(self, name, value):
                object.__setattr__(self, name, value)


def test_records_are_not_mistaken_for_dataclasses():
    assert record.is_record(FrozenPoint) and record.is_record(FrozenPoint(1))
    assert not dataclasses.is_dataclass(FrozenPoint(1))
    assert not record.is_record(object())


def test_init_is_compiled_on_first_use_and_then_is_the_generated_one():
    from tiers.record import dataclass as record_class

    @record_class(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0

    stub = Point.__dict__["__init__"]
    assert Point(1) == Point(1, 0) and Point(y=2, x=1).y == 2
    assert Point.__dict__["__init__"] is not stub  # replaced in place by the compiled one
    with pytest.raises(TypeError):
        Point()

    class Sub(Point):  # an undecorated subclass uses (and compiles) its base's __init__
        pass

    assert Sub(3).x == 3
