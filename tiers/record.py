"""Record classes: ``@dataclass(frozen=True, slots=True)`` values with named fields, made without ``exec``.

The one isolated alternative to :mod:`dataclasses` the project keeps, for a measured reason: the stdlib decorator
writes the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and the frozen ``__setattr__`` of each
class and compiles it with ``exec`` — about 0.6 ms a class, and the hook imports some 45 record classes on every
call, as much time again as the bare interpreter's start (``python benchmarks/record_speed.py``). Here the same
methods are closures over the class's field list, made in microseconds.

What it supports is what the project uses, with the stdlib's meaning: ``frozen``, ``slots``, fields with a
``default`` or ``default_factory`` (``field()``), ``compare``/``hash``/``repr`` per field, inheritance from another
record, ``__post_init__``, :func:`replace`, :func:`fields`, :func:`is_record`, pickling and copying, and
:class:`FrozenInstanceError` (the stdlib's own class). Anything else raises TypeError at class creation.
"""

from __future__ import annotations

from operator import attrgetter

__all__ = ["FrozenInstanceError", "MISSING", "Field", "dataclass", "field", "fields", "is_record", "replace"]


def _frozen_error() -> type[AttributeError]:
    # the stdlib's class, imported when first needed: `dataclasses` pulls in inspect, ast, dis and tokenize (a
    # quarter of the bare interpreter's start-up) into every hook call, none of which assigns to a record
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError


def __getattr__(name: str):
    if name == "FrozenInstanceError":
        return _frozen_error()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Slotted:
    __slots__ = ("x",)


_MEMBER = type(_Slotted.__dict__["x"])  # the type of a slot's descriptor (types.MemberDescriptorType)


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


class Field:
    """One field of a record: its name, default or default factory, and whether it takes part in ``==``, ``hash``
    and ``repr``."""

    __slots__ = ("name", "default", "default_factory", "compare", "hash", "repr")

    def __init__(self, default=MISSING, default_factory=MISSING, compare: bool = True, hash: bool | None = None,
                 repr: bool = True) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.hash = compare if hash is None else hash
        self.repr = repr

    def __repr__(self) -> str:
        return f"Field(name={self.name!r})"


def field(*, default=MISSING, default_factory=MISSING, compare: bool = True, hash: bool | None = None,
          repr: bool = True) -> Field:
    """A field with options, as ``dataclasses.field`` (the options the project uses)."""
    return Field(default, default_factory, compare, hash, repr)


def fields(obj) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    try:
        return obj.__record_fields__
    except AttributeError:
        raise TypeError("fields() takes a record class or instance") from None


def is_record(obj) -> bool:
    return hasattr(obj, "__record_fields__")


def replace(obj, /, **changes):
    """A copy of record ``obj`` with ``changes`` (unknown names raise TypeError, as the constructor does)."""
    values = {f.name: getattr(obj, f.name) for f in obj.__record_fields__}
    values.update(changes)
    return obj.__class__(**values)


def _is_classvar(annotation) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return text.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar"))


def dataclass(cls=None, /, *, frozen: bool = False, slots: bool = False, **unsupported):
    """Make ``cls`` a record (``@dataclass``, ``@dataclass(frozen=True, slots=True)``)."""
    if unsupported:
        raise TypeError(f"record options not supported: {', '.join(sorted(unsupported))}")

    def wrap(cls):
        return _make(cls, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _make(cls, frozen: bool, slots: bool):
    inherited: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in getattr(base, "__record_fields__", ()):
            inherited[f.name] = f
    own: list[Field] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        own.append(f)
        inherited.pop(name, None)
    flds = tuple(inherited.values()) + tuple(own)
    seen_default = False
    for f in flds:
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default field {f.name!r} follows a default field in {cls.__name__}")
        seen_default = seen_default or has_default
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for f in own:
        namespace.pop(f.name, None)
    if slots:
        namespace["__slots__"] = tuple(f.name for f in own)
    namespace["__record_fields__"] = flds
    namespace["__match_args__"] = tuple(f.name for f in flds)
    new = type(cls)(cls.__name__, cls.__bases__, namespace) if slots else cls
    if not slots:
        for f in own:
            if hasattr(cls, f.name) and isinstance(cls.__dict__.get(f.name), Field):
                delattr(cls, f.name)
            if f.default is not MISSING:
                setattr(cls, f.name, f.default)
        cls.__record_fields__ = flds
        cls.__match_args__ = namespace["__match_args__"]
    _methods(new, flds, frozen)
    return new


def _methods(cls, flds: tuple[Field, ...], frozen: bool) -> None:
    names = tuple(f.name for f in flds)
    index = {n: i for i, n in enumerate(names)}
    defaults = tuple(f.default for f in flds)
    factories = tuple(f.default_factory for f in flds)
    count = len(names)
    post_init = getattr(cls, "__post_init__", None)
    set_ = object.__setattr__
    # a slotted record's fields are member descriptors: calling their __set__ skips the attribute lookup that
    # object.__setattr__ makes (a third of a record's construction time)
    slots = [next((c.__dict__[n] for c in cls.__mro__ if n in c.__dict__), None) for n in names]
    setters = tuple(d.__set__ for d in slots) if all(type(d) is _MEMBER for d in slots) else \
        tuple((lambda obj, value, n=n: set_(obj, n, value)) for n in names)
    qual = cls.__qualname__

    def __init__(self, *args, **kwargs):
        given = len(args)
        if given == count and not kwargs:  # every field in order, the common call: one pass, nothing to default
            for setter, value in zip(setters, args):
                setter(self, value)
            if post_init is not None:
                self.__post_init__()
            return
        if given > count:
            raise TypeError(f"{qual}() takes {count} arguments but {given} were given")
        for i in range(given):
            setters[i](self, args[i])
        for i in range(given, count):
            value = kwargs.pop(names[i], MISSING) if kwargs else MISSING
            if value is MISSING:
                value = defaults[i]
                if value is MISSING:
                    factory = factories[i]
                    if factory is MISSING:
                        raise TypeError(f"{qual}() missing required argument {names[i]!r}")
                    value = factory()
            setters[i](self, value)
        if kwargs:
            key = next(iter(kwargs))
            if key in index:
                raise TypeError(f"{qual}() got multiple values for argument {key!r}")
            raise TypeError(f"{qual}() got an unexpected keyword argument {key!r}")
        if post_init is not None:
            self.__post_init__()

    shown = tuple(f.name for f in flds if f.repr)

    def __repr__(self):
        return f"{type(self).__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")"

    compared = tuple(f.name for f in flds if f.compare)

    key = _tuple_getter(compared)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    cls.__init__ = __init__
    cls.__repr__ = __repr__
    cls.__eq__ = __eq__
    if frozen:
        hashed = _tuple_getter(tuple(f.name for f in flds if f.hash))

        def __hash__(self):
            return hash(hashed(self))

        def __setattr__(self, name, value):
            if type(self) is cls or name in names:
                raise _frozen_error()(f"cannot assign to field {name!r}")
            set_(self, name, value)

        def __delattr__(self, name):
            if type(self) is cls or name in names:
                raise _frozen_error()(f"cannot delete field {name!r}")
            object.__delattr__(self, name)

        cls.__hash__ = __hash__
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__
    else:
        cls.__hash__ = None
    if "__slots__" in cls.__dict__:
        def __getstate__(self):
            return [getattr(self, n) for n in names]

        def __setstate__(self, state):
            for n, v in zip(names, state):
                set_(self, n, v)

        cls.__getstate__ = __getstate__
        cls.__setstate__ = __setstate__


def _tuple_getter(names: tuple[str, ...]):
    """``obj -> (obj.a, obj.b, …)`` in C (attrgetter returns a bare value for one name, so wrap that case)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names) if names else lambda obj: ()
