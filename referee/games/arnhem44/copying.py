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

import builtins
import copy
import dataclasses
import re
import sys
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

    # A ``Figures`` holds no count of 0 (``changed``), so two are equal as Counters (a
    # missing key counts 0) exactly when they are equal as dicts: compared in C, not by
    # ``Counter.__eq__``'s Python loop (the kept looks compare every sector after each
    # command: ``supply.update_contact``, ``placement.Fact``; issue 31).
    __eq__ = dict.__eq__
    __ne__ = dict.__ne__
    __hash__ = None  # type: ignore[assignment]


def changed(here: Mapping[Any, int] | None, key: Any, n: int | None) -> Figures:
    """The figures ``here`` (None: none) with ``n`` of ``key`` (``None`` or 0: without
    ``key``).  No count of 0 is kept (``Figures.__eq__``)."""
    twin: Figures = _new_counter(Figures)
    if here:
        if type(here) is Figures:
            _fill(twin, here)
        else:  # a plain count (a test's, a joker's bump) may hold a 0
            _fill(twin, {k: v for k, v in here.items() if v})
    if n:
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

    __slots__ = ("copy", "key", "name")

    def __init__(self, name: str, copy: Callable[[Any], Any]) -> None:
        self.name = name
        self.key = LENT + name
        self.copy = copy

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


def peek(record: Any, name: str) -> Any:
    """The value of ``record``'s field ``name`` to read and not change: its own value, or
    the lent one without copying it (a field copied on write, ``copied_on_write``)."""
    fields = record.__dict__
    return fields[name] if name in fields else fields[LENT + name]


def copied_on_write(*eager: str) -> Callable[[_K], _K]:
    """Lend, at a copy, every field of the record class made by a factory (a container, a
    record) but those named ``eager`` (copied at every copy: the fields nearly every use of
    a copy reads).  Which fields are lent changes the speed alone, never a value.  The
    ``Lent`` descriptors are put on the class by its first copy (``copier``): until then no
    record lends anything, and Python reads the fields as plain attributes, a little faster
    (self-play copies no state)."""

    def declare(kind: _K) -> _K:
        kind.__lent__ = tuple(  # type: ignore[attr-defined]
            f.name for f in dataclasses.fields(kind)
            if f.default_factory is not dataclasses.MISSING and f.name not in eager)
        kind.__getstate__ = _own_fields  # type: ignore[method-assign, assignment]
        return kind

    return declare


def lent_fields(kind: type) -> tuple[str, ...]:
    """The fields of ``kind`` copied on write."""
    lent: tuple[str, ...] = kind.__dict__.get("__lent__", ())
    return lent


def _own_fields(record: Any) -> dict[str, Any]:
    """The record's fields for pickle and deepcopy, each a value of its own (none lent), so
    that a record read back in another process needs no descriptor there."""
    for name in lent_fields(type(record)):
        getattr(record, name)
    return {k: v for k, v in record.__dict__.items() if not k.startswith(LENT)}


# -- copy functions made for a class ----------------------------------------------------------

_COPIERS: dict[type, Callable[[Any], Any]] = {}

Hint = tuple[Any, tuple[Any, ...]]
"""A declared field type read from its annotation: (the class, or ``|``/``Annotated``, and
the arguments in brackets, each a ``Hint`` but those of ``Annotated`` after the first)."""


def copier(kind: type) -> Callable[[Any], Any]:
    """The copy function of the record class ``kind`` (made at its first call, about half a
    millisecond for the state: the annotations are read without ``eval``, one ``compile``)."""
    try:
        return _COPIERS[kind]
    except KeyError:
        pass
    made = _Maker()
    name = made.record_name(kind)
    made.finish()
    return _COPIERS.setdefault(kind, made.scope[name])


class _Maker:
    """Copy functions of record classes: functions of the stdlib (``list.copy``...) or of
    this module where a field allows, else Python compiled in one go (``finish``)."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {"_new": object.__new__, "_counter": _counter,
                                      "_copied": copied}
        self.sources: list[str] = []
        self.records: dict[type, str] = {}
        self.lent: list[tuple[type, str, str]] = []
        """(class, field, the name of its copy function) of each field to lend."""

    def finish(self) -> None:
        if self.sources:  # source made here from the fields' names and declared types
            exec(compile("\n".join(self.sources), "<arnhem44 copier>", "exec"), self.scope)
        for kind, field, name in self.lent:
            setattr(kind, field, Lent(field, self.scope[name]))

    def function(self, hint: Hint) -> str:
        """The name in ``scope`` of a function copying a value of the declared type."""
        origin, args = hint
        if _is_record(origin):
            return self.record_name(origin)
        if (origin is list or origin is dict or origin is set) and args \
                and all(map(_shared_hint, args)):
            name = f"_{origin.__name__}_copy"
            self.scope[name] = origin.copy  # one level holds all: copied in C
            return name
        if origin is Counter and all(map(_shared_hint, args)):
            return "_counter"
        name = f"_f{len(self.scope)}"
        self.sources.append(f"def {name}(value):\n"
                            f"    return {self.expression(hint, 'value', 0) or 'value'}\n")
        self.scope[name] = None
        return name

    def expression(self, hint: Hint, value: str, depth: int) -> str | None:
        """Python copying ``value`` (a name or ``d[...]``) of the declared type ``hint``;
        None: it is shared as it is."""
        if _shared_hint(hint):
            return None
        origin, args = hint
        item = f"v{depth}"
        if origin == "|":
            rest = [a for a in args if a[0] is not type(None)]
            if len(rest) == 1:
                return f"(None if {value} is None else {self.expression(rest[0], value, depth)})"
        elif _is_record(origin):
            return f"{self.record_name(origin)}({value})"
        elif origin is Counter and args and _shared_hint(args[0]):
            return f"_counter({value})"
        elif origin is dict and len(args) == 2 and _shared_hint(args[0]):
            if _shared_hint(args[1]):
                return f"{value}.copy()"
            inner = self.expression(args[1], item, depth + 1)
            return f"{{k{depth}: {inner} for k{depth}, {item} in {value}.items()}}"
        elif (origin is list or origin is set) and len(args) == 1:
            if _shared_hint(args[0]):
                return f"{value}.copy()"
            if origin is list:
                return f"[{self.expression(args[0], item, depth + 1)} for {item} in {value}]"
        elif origin is tuple and args and all(a[0] is not Ellipsis for a in args):
            parts = [self.expression(a, f"{value}[{i}]", depth) or f"{value}[{i}]"
                     for i, a in enumerate(args)]
            return f"({', '.join(parts)},)"
        return f"_copied({value})"  # a shape not declared precisely: looked at when copied

    def record_name(self, kind: type) -> str:
        """The name in ``scope`` of the copy function of the record class ``kind``."""
        name = self.records.get(kind)
        if name is not None:
            return name
        name = self.records[kind] = f"_copy_{kind.__name__}_{len(self.records)}"
        self.scope[name + "_class"] = kind
        self.scope[name] = None
        hints = _field_hints(kind)
        lent = lent_fields(kind)
        lines = [f"def {name}(value):", "    d = value.__dict__"]
        for own in lent:  # the record's own values of lent fields become lent
            lines.append(f"    if {own!r} in d: d[{LENT + own!r}] = d.pop({own!r})")
        copies = []
        for field, hint in hints.items():
            if field in lent:
                self.lent.append((kind, field, self.function(hint)))
                continue
            made = self.expression(hint, f"d[{field!r}]", 0)
            if made is not None:
                copies.append(f"    out[{field!r}] = {made}")
        if not copies and not lent:  # numbers and names alone (a crate, a Bailey bridge)
            self.scope[name] = _flat_copier(kind)
            return name
        self.sources.append("\n".join([
            *lines, "    out = d.copy()", *copies, f"    twin = _new({name}_class)",
            "    twin.__dict__ = out", "    return twin", ""]))
        return name


def _flat_copier(kind: type) -> Callable[[Any], Any]:
    """The copy function of a record of numbers and names (its fields' dict copied)."""
    new = object.__new__

    def copy_flat(value: Any) -> Any:
        twin: Any = new(kind)
        twin.__dict__ = value.__dict__.copy()
        return twin

    return copy_flat


def _shared_hint(hint: Hint) -> bool:
    """Values of this declared type are never changed in place."""
    origin, args = hint
    if origin == "Annotated":
        return SHARED in args[1:] or _shared_hint(args[0])
    if origin == "|" or origin is tuple or origin is frozenset:
        return all(a[0] is Ellipsis or _shared_hint(a) for a in args)
    return origin in IMMUTABLE and not args


def _field_hints(kind: type) -> dict[str, Hint]:
    """The declared type of each field of ``kind`` (``from __future__ import annotations``:
    strings, read here with the names of the class's module)."""
    names = vars(sys.modules[kind.__module__])
    return {f.name: _hint(f.type, names) if isinstance(f.type, str) else _normal(f.type)
            for f in dataclasses.fields(kind)}


_TOKEN = re.compile(r"\s*([\w.]+|\.\.\.|[\[\],|])")


def _hint(text: str, names: Mapping[str, Any]) -> Hint:
    """An annotation's text as a ``Hint`` (names, ``X[...]``, ``X | Y``)."""
    tokens = _TOKEN.findall(text)
    at = 0

    def union() -> Hint:
        nonlocal at
        parts = [single()]
        while at < len(tokens) and tokens[at] == "|":
            at += 1
            parts.append(single())
        return parts[0] if len(parts) == 1 else ("|", tuple(parts))

    def single() -> Hint:
        nonlocal at
        word = tokens[at]
        at += 1
        found = _named(word, names)
        if at < len(tokens) and tokens[at] == "[":
            at += 1
            args = [union()]
            while tokens[at] == ",":
                at += 1
                args.append(union())
            at += 1  # "]"
            origin = _normal(found)[0]
            if origin == "Annotated":
                return origin, (args[0], *(_value(a) for a in args[1:]))
            return origin, tuple(args)
        return _normal(found)

    hint = union()
    if at != len(tokens):
        raise ValueError(f"annotation not read: {text!r}")
    return hint


def _named(word: str, names: Mapping[str, Any]) -> Any:
    if word == "None":
        return type(None)
    if word == "...":
        return Ellipsis
    head, *rest = word.split(".")
    found = names[head] if head in names else getattr(builtins, head)
    for part in rest:
        found = getattr(found, part)
    return found


def _value(hint: Hint) -> Any:
    """The metadata of ``Annotated`` (a name bound to a value) as that value."""
    return hint[0]


def _normal(found: Any) -> Hint:
    """A type object (``tuple[str, str]``, ``Counter``, ``typing.Annotated``) as a ``Hint``."""
    if found is typing.Annotated:
        return "Annotated", ()
    if found is Ellipsis:
        return Ellipsis, ()
    origin = typing.get_origin(found)
    if origin is None:
        return found, ()
    if origin is typing.Annotated:
        return "Annotated", (_normal(found.__origin__), *found.__metadata__)
    if origin is typing.Union or origin is types.UnionType:
        return "|", tuple(_normal(a) for a in typing.get_args(found))
    return origin, tuple(_normal(a) for a in typing.get_args(found))
