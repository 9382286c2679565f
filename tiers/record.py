"""Record classes: the part of :mod:`dataclasses` this project uses, at a small fraction of its start-up cost.

The hook runs in a fresh interpreter on every memory write, so class creation is on its hot path. The standard
``dataclasses`` module imports ``inspect`` (and with it ``ast``, ``dis`` and ``tokenize``, ~15 ms) and compiles each
generated method separately, and ``slots=True`` builds every class twice: about 1-3 ms per class, for the ~35
record classes a hook call touches. This module generates all methods of a class from one source string, compiled
once, and imports nothing heavy.

Supported, with the semantics of :mod:`dataclasses`: ``@dataclass`` with ``frozen``, ``slots``, ``eq`` and
``repr``; :func:`field` with ``default``, ``default_factory``, ``repr``, ``compare`` and ``hash``; ``__post_init__``;
fields inherited from a record base class; methods the class body defines itself are kept; the hash rules
(frozen + eq: hashed by the compared fields; eq alone: unhashable); frozen instances raise
:class:`FrozenInstanceError` on assignment and still pickle and copy; :func:`replace` and :func:`fields`.
Not supported (and not used here): ``InitVar``, ``ClassVar``, ``KW_ONLY``, ``order``, ``unsafe_hash``.
"""

from __future__ import annotations

from operator import attrgetter

Any = object  # annotations only (postponed); importing typing costs start-up time

__all__ = ["FrozenInstanceError", "MISSING", "Field", "builder", "dataclass", "field", "fields", "is_record", "replace"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    __slots__ = ("name", "default", "default_factory", "repr", "compare", "hash", "init")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True,
                 compare: bool = True, hash: bool | None = None, init: bool = True) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.hash = hash
        self.init = init

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, compare: bool = True,
          hash: bool | None = None, init: bool = True) -> Any:
    return Field(default, default_factory, repr, compare, hash, init)


#: where a record class keeps its fields (not ``__dataclass_fields__``: ``dataclasses.is_dataclass`` would then
#: claim the class, and its other functions would fail on it)
_FIELDS = "__record_fields__"


def is_record(obj_or_cls: Any) -> bool:
    """Whether ``obj_or_cls`` is a record class or an instance of one (``dataclasses.is_dataclass``)."""
    return hasattr(obj_or_cls, _FIELDS)


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    try:
        return tuple(getattr(obj_or_cls, _FIELDS).values())
    except AttributeError:
        raise TypeError("must be called with a record class or instance") from None


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of ``obj`` with some fields changed (``dataclasses.replace``)."""
    for f in getattr(obj, _FIELDS).values():
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def _has_explicit_hash(cls: type) -> bool:
    h = cls.__dict__.get("__hash__", MISSING)
    return not (h is MISSING or (h is None and "__eq__" in cls.__dict__))


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _frozen_getstate(self):
    return tuple(getattr(self, name) for name in self.__record_fields__)


def _frozen_setstate(self, state):
    for name, value in zip(self.__record_fields__, state):
        object.__setattr__(self, name, value)


def _getter(names: tuple[str, ...]):
    """``obj -> tuple of the named attributes`` at C speed (``attrgetter`` with one name returns a bare value)."""
    if not names:
        return lambda obj: ()
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda obj: (get(obj),)
    return get


def _install(cls: type, name: str, fn) -> None:
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)


def _make_repr(names: tuple[str, ...]):
    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _make_eq(values):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _make_hash(values):
    def __hash__(self):
        return hash(values(self))

    return __hash__


def _lazy_init(cls: type, source: str, env: dict):
    """An ``__init__`` that compiles the generated one on its first call and puts it in its own place.

    Compiling is most of the cost of decorating a class, and a process instantiates few of the records its
    imports define (a hook call, about a third): the rest never pay for it. ``cls`` is a closure cell, so the
    slots rebuild (which rewrites cells that hold the old class) retargets it to the final class."""
    def __init__(self, *args, **kwargs):
        ns: dict[str, Any] = {}
        exec(source, env, ns)  # noqa: S102 - our own generated source, as dataclasses does
        real = ns["__init__"]
        _install(cls, "__init__", real)
        real(self, *args, **kwargs)

    return __init__


def _process(cls: type, frozen: bool, slots: bool, eq: bool, repr_: bool) -> type:
    own = cls.__dict__.get("__annotations__", {})
    all_fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        all_fields.update(getattr(base, _FIELDS, None) or {})
    for name in own:
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        if f.default_factory is MISSING and isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name = name
        all_fields[name] = f
        # a plain default stays a class attribute (as in dataclasses); a Field object never does
        if isinstance(value, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)

    names = list(all_fields)
    env: dict[str, Any] = {"MISSING": MISSING, "__setter": object.__setattr__}
    params, body = [], []
    seen_default = False
    for name, f in all_fields.items():
        if not f.init:
            if f.default_factory is not MISSING:
                env[f"__f_{name}"] = f.default_factory
                value = f"__f_{name}()"
            elif f.default is not MISSING:
                env[f"__d_{name}"] = f.default
                value = f"__d_{name}"
            else:
                continue
        elif f.default_factory is not MISSING:
            env[f"__f_{name}"] = f.default_factory
            params.append(f"{name}=MISSING")
            value = f"__f_{name}() if {name} is MISSING else {name}"
            seen_default = True
        elif f.default is not MISSING:
            env[f"__d_{name}"] = f.default
            params.append(f"{name}=__d_{name}")
            value = name
            seen_default = True
        else:
            if seen_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            params.append(name)
            value = name
        body.append(f"  __setter(self, {name!r}, {value})" if frozen else f"  self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    src = [f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):", *(body or ["  pass"])]
    if "__init__" not in cls.__dict__:
        _install(cls, "__init__", _lazy_init(cls, "\n".join(src), env))
    # the other methods are shared closures over C-level attribute getters: nothing more to compile per class
    if repr_ and "__repr__" not in cls.__dict__:
        _install(cls, "__repr__", _make_repr(tuple(n for n, f in all_fields.items() if f.repr)))
    values = _getter(tuple(n for n, f in all_fields.items() if f.compare))
    if eq and "__eq__" not in cls.__dict__:
        _install(cls, "__eq__", _make_eq(values))
    explicit_hash = _has_explicit_hash(cls)
    if eq and frozen and not explicit_hash:
        _install(cls, "__hash__", _make_hash(_getter(tuple(
            n for n, f in all_fields.items() if (f.compare if f.hash is None else f.hash)))))
    if eq and not frozen and not explicit_hash:
        cls.__hash__ = None  # type: ignore[assignment]
    if frozen:
        for name, fn in (("__setattr__", _frozen_setattr), ("__delattr__", _frozen_delattr)):
            if name in cls.__dict__:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
            setattr(cls, name, fn)
    setattr(cls, _FIELDS, all_fields)
    cls.__match_args__ = tuple(n for n, f in all_fields.items() if f.init)
    if slots:
        cls = _with_slots(cls, names, frozen)
    return cls


def _with_slots(cls: type, names: list[str], frozen: bool) -> type:
    inherited = {s for base in cls.__mro__[1:-1] for s in base.__dict__.get("__slots__", ())}
    cls_dict = dict(cls.__dict__)
    cls_dict["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in names:
        cls_dict.pop(name, None)  # a default would shadow the slot descriptor
    cls_dict.pop("__dict__", None)
    cls_dict.pop("__weakref__", None)
    new = type(cls)(cls.__name__, cls.__bases__, cls_dict)
    new.__qualname__ = cls.__qualname__
    for value in new.__dict__.values():  # methods keep their class for zero-argument super()
        closure = getattr(getattr(value, "__func__", value), "__closure__", None)
        for cell in closure or ():
            if cell.cell_contents is cls:
                cell.cell_contents = new
    if frozen and "__getstate__" not in cls_dict:
        new.__getstate__ = _frozen_getstate
        new.__setstate__ = _frozen_setstate
    return new


def dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
              repr: bool = True):
    """``@dataclass`` / ``@dataclass(frozen=True, slots=True)``: generate ``__init__``, ``__repr__``, ``__eq__``
    (and ``__hash__`` when frozen) from the class annotations, in order."""

    def wrap(c: type) -> type:
        return _process(c, frozen, slots, eq, repr)

    return wrap if cls is None else wrap(cls)


def builder(cls: type) -> type:
    """A class with ``cls``'s slots (in order) and nothing else; assign ``cls`` to an instance's ``__class__``
    once every slot is set. The hot paths use it to build frozen records without the generated ``__init__``'s
    ``object.__setattr__`` per field (see rules/governance/_records.py for why the result is an ordinary frozen
    instance)."""
    slots = cls.__dict__.get("__slots__")
    if not isinstance(slots, tuple) or "__dict__" in slots or "__weakref__" in slots:
        raise TypeError(f"{cls.__name__} is not a slotted record")
    return type(f"_{cls.__name__}Builder", (), {"__slots__": slots, "__module__": cls.__module__})
