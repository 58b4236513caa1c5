"""Copies of the Arnhem '44 state that share nothing changed in place, made fast.

Every line of a replay is applied to the state after a copy of it is kept (a refused line
leaves the state as it was), so the copy is a large part of a replay's time (issue 31).

``copier(kind)`` is a copy function made for one record class (the state, the explosives, a
crate...), built once from the class's declared field types: numbers, names, frozensets,
flat tuples and a sector's figures are shared; a list, set or dict of those is copied in one
step, a counter without ``Counter.__init__``, a record by its own copier, any other shape by
``copied`` (deep at worst).  No field's type is looked at again in a copy.

Copy on write (``copied_on_write``): a field of a record that most lines never read is not
copied at all.  At a copy, the record's own value of such a field is *lent*: kept under
another key of the record's ``__dict__``, shared by the record and its copy, and changed in
place by neither; the first read of the field on either (a ``Lent`` descriptor, called only
while the record has no value of its own) copies the lent value for that record alone.  So a
field is copied only by a record that reads it after a copy, once.  A reference to such a
field taken *before* a copy must not be used to change it after (it is the lent value);
the referee's code reads its fields from the state after the copy (the replay driver copies
before a line, the engine works after).

The figures of a sector (``Figures``) are shared between copies: they are never changed in
place (``AState.add``/``remove`` put a new count in the sector), and changing one in place
raises, so that a copy can never see its original change.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

_new_counter = Counter.__new__
_fill = dict.update
_set = dict.__setitem__
_del = dict.__delitem__


class Figures(Counter[Any]):
    """The figures of one sector, (group, kind) -> count: a Counter that is never changed in
    place, shared between copies of the state (``changed`` makes a changed count)."""

    __slots__ = ()

    def _unchanged(self, *_: Any, **__: Any) -> Any:
        raise TypeError("a sector's figures are shared between copies of the state and never "
                        "changed in place: use AState.add/remove")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = _unchanged


def changed(here: Mapping[Any, int] | None, key: Any, n: int | None) -> Figures:
    """The figures ``here`` (None: none) with ``n`` of ``key`` (``None``: without ``key``)."""
    twin: Figures = _new_counter(Figures)
    if here:
        _fill(twin, here)
    if n is not None:
        _set(twin, key, n)
    elif key in twin:
        _del(twin, key)
    return twin


IMMUTABLE = frozenset({int, str, bool, float, type(None), frozenset, Figures})
"""Types shared between copies as they are (frozensets here hold strings; ``Figures`` are
never changed in place)."""


_shared = IMMUTABLE.__contains__

SHARED = "never changed in place"
"""``Annotated[T, SHARED]`` declares values of type T that are never changed in place (a
sector's figures are ``Figures``): copies share them."""


def copied(value: Any) -> Any:
    """A copy of ``value`` sharing nothing mutable with it, whatever its shape (the long way:
    the type of every value is looked at)."""
    kind = type(value)
    if kind in IMMUTABLE:
        return value
    if kind is dict:
        return {k: v if type(v) in IMMUTABLE else copied(v) for k, v in value.items()}
    if kind is Counter:
        return _counter(value)
    if kind is list or kind is set:
        if all(map(_shared, map(type, value))):
            return value.copy()
        return [copied(v) for v in value] if kind is list else {copied(v) for v in value}
    if kind is tuple:
        for v in value:
            if type(v) not in IMMUTABLE:
                return tuple(copied(v) for v in value)
        return value
    if _is_record(kind):
        return copy_record(value)
    return copy.deepcopy(value)


def copy_record(value: Any) -> Any:
    """A copy of a dataclass record, field by field (``copied`` for each; the long way)."""
    twin = object.__new__(type(value))
    twin.__dict__ = {k: v if type(v) in IMMUTABLE else copied(v)
                     for k, v in value.__dict__.items()}
    return twin


def _counter(value: Mapping[Any, int]) -> Counter[Any]:
    """A copy of a Counter (``Counter.__init__`` is slow)."""
    twin: Counter[Any] = _new_counter(Counter)
    _fill(twin, value)
    return twin


def _is_record(kind: type) -> bool:
    """A dataclass, not frozen (its ``__setattr__`` is object's), keeping its fields in
    ``__dict__`` (no slots)."""
    return (dataclasses.is_dataclass(kind) and "__slots__" not in kind.__dict__
            and kind.__setattr__ is object.__setattr__)


# -- copy on write ---------------------------------------------------------------------------

LENT = "lent "
"""The key of a lent value in a record's ``__dict__``: ``LENT + field`` (not a name)."""

_K = TypeVar("_K", bound=type)


class Lent:
    """A field of a record copied on write (``copied_on_write``): read while the record has
    no value of its own, it copies the lent value for the record and keeps the copy."""

    __slots__ = ("kind", "name", "key", "copy")

    def __init__(self, kind: type, name: str) -> None:
        self.kind = kind
        self.name = name
        self.key = LENT + name
        self.copy: Callable[[Any], Any] = self._first

    def _first(self, value: Any) -> Any:
        copier(self.kind)  # builds the class's copiers, this field's too (``_build``)
        return self.copy(value)

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        fields = instance.__dict__
        try:
            lent = fields[self.key]
        except KeyError:
            raise AttributeError(f"{type(instance).__name__!r} object has no attribute "
                                 f"{self.name!r}") from None
        value = fields[self.name] = self.copy(lent)
        return value


def copied_on_write(*eager: str) -> Callable[[_K], _K]:
    """Lend, at a copy, every field of the record class made by a factory (a container, a
    record) but those named ``eager`` (copied at every copy: the fields nearly every use of
    a copy reads).  Which fields are lent changes the speed alone, never a value."""

    def install(kind: _K) -> _K:
        for field in dataclasses.fields(kind):
            if field.default_factory is not dataclasses.MISSING and field.name not in eager:
                setattr(kind, field.name, Lent(kind, field.name))
        return kind

    return install


def lent_fields(kind: type) -> tuple[str, ...]:
    """The fields of ``kind`` copied on write."""
    return tuple(f.name for f in dataclasses.fields(kind)
                 if isinstance(kind.__dict__.get(f.name), Lent))


# -- copy functions made for a class ----------------------------------------------------------

_COPIERS: dict[type, Callable[[Any], Any]] = {}


def copier(kind: type) -> Callable[[Any], Any]:
    """The copy function of the record class ``kind`` (made at the first call)."""
    try:
        return _COPIERS[kind]
    except KeyError:
        pass
    scope: dict[str, Any] = {"_new": object.__new__, "_counter": _counter, "_copied": copied,
                             "_descriptors": []}
    name = _record_copier(kind, scope)
    for descriptor, function in scope["_descriptors"]:
        descriptor.copy = scope[function]
    return _COPIERS.setdefault(kind, scope[name])


def _shared_type(hint: Any) -> bool:
    """Values of this declared type are never changed in place."""
    if hint in IMMUTABLE:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return SHARED in hint.__metadata__ or _shared_type(typing.get_args(hint)[0])
    if origin is tuple or origin is frozenset or origin is typing.Union \
            or origin is types.UnionType:
        return all(a is Ellipsis or _shared_type(a) for a in typing.get_args(hint))
    return False


def _expression(hint: Any, value: str, depth: int, scope: dict[str, Any]) -> str | None:
    """Python copying ``value`` (a name or ``d[...]``) of the declared type ``hint``; None:
    it is shared as it is."""
    if _shared_type(hint):
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    item = f"v{depth}"
    if isinstance(hint, type) and _is_record(hint):
        return f"{_record_copier(hint, scope)}({value})"
    if origin is typing.Union or origin is types.UnionType:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            inner = _expression(rest[0], value, depth, scope)
            return f"(None if {value} is None else {inner})"
    elif not args:
        pass
    elif origin is Counter and _shared_type(args[0]):
        return f"_counter({value})"
    elif origin is dict and _shared_type(args[0]):
        if _shared_type(args[1]):
            return f"{value}.copy()"
        inner = _expression(args[1], item, depth + 1, scope)
        return f"{{k{depth}: {inner} for k{depth}, {item} in {value}.items()}}"
    elif origin is list or origin is set:
        if _shared_type(args[0]):
            return f"{value}.copy()"
        if origin is list:
            inner = _expression(args[0], item, depth + 1, scope)
            return f"[{inner} for {item} in {value}]"
    elif origin is tuple and Ellipsis not in args:
        parts = [_expression(a, f"{value}[{i}]", depth, scope) or f"{value}[{i}]"
                 for i, a in enumerate(args)]
        return f"({', '.join(parts)},)"
    return f"_copied({value})"  # a shape not declared precisely: looked at when copied


def _record_copier(kind: type, scope: dict[str, Any]) -> str:
    """The name, in ``scope``, of the copy function of the record class ``kind`` (made and
    put there with the functions of the records it holds and of its lent fields)."""
    name = f"_copy_{kind.__name__}_{id(kind)}"
    if name in scope:
        return name
    scope[name] = None  # a record holding its own kind copies it by this name
    scope[kind.__name__ + f"_{id(kind)}"] = kind
    hints = typing.get_type_hints(kind, include_extras=True)
    lent = lent_fields(kind)
    lines = [f"def {name}(value):", "    d = value.__dict__"]
    for own in lent:  # the record's own values of lent fields become lent
        lines.append(f"    if {own!r} in d: d[{LENT + own!r}] = d.pop({own!r})")
    copies = []
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        if field.name in lent:
            function = f"_copy_{kind.__name__}_{id(kind)}_{field.name}"
            body = _expression(hint, "value", 0, scope) or "value"
            _compile(f"def {function}(value):\n    return {body}\n", scope)
            scope["_descriptors"].append((kind.__dict__[field.name], function))
            continue
        made = _expression(hint, f"d[{field.name!r}]", 0, scope)
        if made is not None:
            copies.append(f"    out[{field.name!r}] = {made}")
    made_kind = f"{kind.__name__}_{id(kind)}"
    if copies:
        lines += ["    out = d.copy()", *copies, f"    twin = _new({made_kind})",
                  "    twin.__dict__ = out"]
    else:  # numbers and names alone (a crate, a Bailey bridge)
        lines += [f"    twin = _new({made_kind})", "    twin.__dict__ = d.copy()"]
    lines.append("    return twin")
    _compile("\n".join(lines) + "\n", scope)
    return name


def _compile(source: str, scope: dict[str, Any]) -> None:
    exec(compile(source, "<arnhem44 copier>", "exec"), scope)  # made above from field types
