"""``frozen`` and ``record``: ``@dataclass(frozen=True)`` and ``@dataclass`` made at a third
of the cost, for modules that declare many small records (a game's commands) and are loaded
by every command.

``dataclass(frozen=True)`` compiles six methods from source, one ``exec`` each (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``): about 0.3 ms a
class, 10 ms for the 35 Arnhem '44 commands a ``referee status`` loads (issue 31).  Here
only ``__init__`` is compiled; the others are shared functions reading the class's fields.
The class is still a dataclass (``dataclasses.fields``, ``replace``, ``match``) and behaves
as dataclass's would: the same ``__init__`` signature, ``repr``, equality, hash, docstring
and ``FrozenInstanceError``; methods the class writes itself are kept, as dataclass keeps
them (tests/core/test_records.py compares the two).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from inspect import formatannotation
from operator import attrgetter
from typing import Any, Generic, TypeVar, dataclass_transform, overload

T = TypeVar("T", bound=type)
V = TypeVar("V")

_MISSING = dataclasses.MISSING


@dataclass_transform(frozen_default=True)
def frozen(cls: T) -> T:
    """``cls`` as ``@dataclass(frozen=True)`` makes it (fields with plain defaults or
    ``default_factory``; no ``InitVar``, ``kw_only`` or ``init=False`` field)."""
    return _made(cls, frozen=True)


@dataclass_transform()
def record(cls: T) -> T:
    """``cls`` as ``@dataclass`` makes it (the fields as ``frozen`` takes them)."""
    return _made(cls, frozen=False)


def _made(cls: T, frozen: bool) -> T:
    """The class as dataclass makes it with ``eq=True``: its own ``__init__``, ``__repr__``
    and ``__eq__`` kept, ``__hash__`` as dataclass's table says."""
    own = cls.__dict__
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and "__eq__" in own))
    documented = bool(cls.__doc__)
    if not documented:
        cls.__doc__ = "-"  # dataclass would call inspect.signature for it: made below
    dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(cls)
    made: Any = cls  # given its methods below
    for field in fields:
        if not field.init or field.kw_only is True:
            raise TypeError(f"{cls.__name__}.{field.name}: not a plain field")
    for field in made.__dataclass_fields__.values():
        if isinstance(field.type, dataclasses.InitVar) or str(field.type).startswith(
                ("InitVar", "dataclasses.InitVar")):
            raise TypeError(f"{cls.__name__}.{field.name}: an InitVar")
    if "__init__" not in own:
        made.__init__ = _init(cls, fields, frozen)
    if not documented:
        made.__doc__ = _signature(cls, fields)
    made.__record_repr__ = tuple((f.name, attrgetter(f.name)) for f in fields if f.repr)
    made.__record_key__ = _getter(tuple(f.name for f in fields if f.compare))
    made.__record_hash__ = _getter(tuple(
        f.name for f in fields if (f.compare if f.hash is None else f.hash)))
    if "__repr__" not in own:
        made.__repr__ = _repr
    if "__eq__" not in own:
        made.__eq__ = _eq
    if not explicit_hash:
        made.__hash__ = _hash if frozen else None
    if frozen:
        for name, method in (("__setattr__", _setattr), ("__delattr__", _delattr)):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
            setattr(made, name, method)
    return cls


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...],
          frozen: bool) -> Callable[..., None]:
    """The ``__init__`` dataclass writes for the class, compiled in one ``exec``: a frozen
    class's fields set through ``object.__setattr__``, a mutable one's by plain assignment
    (as dataclass does: a property or descriptor of the class is honoured, and it costs
    half as much, issue 31)."""
    params, body, scope = [], [], {"_set": object.__setattr__, "_MISSING": _MISSING}
    for index, field in enumerate(fields):
        name = field.name
        if field.default_factory is not _MISSING:
            scope[f"_factory{index}"] = field.default_factory
            params.append(f"{name}=_MISSING")
            value = f"_factory{index}() if {name} is _MISSING else {name}"
        else:
            if field.default is not _MISSING:
                scope[f"_default{index}"] = field.default
                params.append(f"{name}=_default{index}")
            else:
                params.append(name)
            value = name
        body.append(f"  _set(self, {name!r}, {value})" if frozen
                    else f"  self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    source = (f"def __init__(self, {', '.join(params)}):\n" if params
              else "def __init__(self):\n") + ("\n".join(body) or "  pass") + "\n"
    compiled: dict[str, Any] = {}
    exec(source, scope, compiled)  # source built above from the field names
    init: Callable[..., None] = compiled["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _signature(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> str:
    """The docstring dataclass gives a class without one: its name and ``__init__``'s
    signature, as ``inspect.signature`` writes it."""
    params = []
    for field in fields:
        param = f"{field.name}: {formatannotation(field.type)}"
        if field.default_factory is not _MISSING:
            param += " = <factory>"
        elif field.default is not _MISSING:
            param += f" = {field.default!r}"
        params.append(param)
    return f"{cls.__name__}({', '.join(params)})"


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields of a record (what dataclass compares and hashes)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={get(self)!r}" for name, get in self.__record_repr__)
    return f"{type(self).__qualname__}({shown})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = type(self).__record_key__
    return key(self) == key(other)


def _hash(self: Any) -> int:
    return hash(type(self).__record_hash__(self))


def _setattr(self: Any, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


class once(Generic[V]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one at every first
    read: a fiftieth of an Arnhem '44 replay, whose driver reads each new dice record's
    ``faces``, issue 31): the value is worked out at the first read and kept in the
    instance's ``__dict__``, which later reads find before this descriptor.  A frozen
    record may use it (its ``__dict__`` is written directly, as cached_property does)."""

    __slots__ = ("name", "work")

    def __init__(self, work: Callable[[Any], V]) -> None:
        self.work = work
        self.name = work.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[V]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> V | once[V]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.work(instance)
        return value
