"""Copies of the Arnhem '44 state that share nothing mutable, made fast.

Every command is applied to a copy of the state (a refused command leaves the state as it
was), so the copy is a large part of self-play's time.  ``copied`` copies the shapes the state
is made of by hand: numbers, strings and frozensets are shared; tuples are shared when they
hold only those (a figure's key, a path); counters, dicts, lists and sets are copied level by
level; dataclass records (a Bailey bridge, a withdrawal, the explosives, a crate) field by
field.  Anything else is copied deeply, so a field of a new shape is still copied correctly
(tests/games/arnhem44/test_state_copy.py mutates every field of a copy).

The figures of a sector (``Figures``) are shared between copies: they are never changed in
place (``AState.add``/``remove`` put a new count in the sector), and changing one in place
raises, so that a copy can never see its original change.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Any

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


def copied(value: Any) -> Any:
    """A copy of ``value`` sharing nothing mutable with it."""
    kind = type(value)
    if kind in IMMUTABLE:
        return value
    if kind is dict:
        if all(map(_shared, map(type, value.values()))):
            return value.copy()  # numbers, names, a sector's figures: one level is enough
        out: dict[Any, Any] = {}
        for k, v in value.items():
            vk = type(v)
            if vk is Counter:  # the figures of a sector: Counter.__init__ is slow
                twin = _new_counter(Counter)
                _fill(twin, v)
                out[k] = twin
            else:
                out[k] = v if vk in IMMUTABLE else copied(v)
        return out
    if kind is Counter:
        twin = _new_counter(Counter)
        _fill(twin, value)
        return twin
    if kind is list or kind is set:
        if all(map(_shared, map(type, value))):
            return value.copy()
        for v in value:
            vk = type(v)
            if vk in IMMUTABLE:
                continue
            if vk is tuple:
                for x in v:
                    if type(x) not in IMMUTABLE:
                        break
                else:
                    continue  # a flat tuple (a figure's key)
            if kind is list and _RECORD.get(vk):  # records (Bailey bridges, crates)
                return [copy_record(v) if _RECORD.get(type(v)) else copied(v) for v in value]
            return [copied(v) for v in value] if kind is list else {copied(v) for v in value}
        return kind(value)
    if kind is tuple:
        for v in value:
            if type(v) not in IMMUTABLE:
                return tuple(copied(v) for v in value)
        return value
    record = _RECORD.get(kind)
    if record is None:
        record = _RECORD[kind] = _is_record(kind)
    if record:
        return copy_record(value)
    return copy.deepcopy(value)


def copy_record(value: Any) -> Any:
    """A copy of a dataclass record, field by field (``copied`` for each)."""
    kind = type(value)
    twin = object.__new__(kind)
    fields = value.__dict__
    out = fields.copy()  # numbers and names as they are
    flat = _FLAT.get(kind)
    if flat is None:
        flat = _FLAT[kind] = _is_flat(kind)
    if flat or all(map(_shared, map(type, fields.values()))):
        twin.__dict__ = out  # a record of numbers and names (a crate, a bridge)
        return twin
    for k, v in fields.items():
        kind = type(v)
        if kind in IMMUTABLE:
            continue
        # The shapes most fields hold, without a call of ``copied`` each (the state has some
        # forty fields and is copied before every line of a replay, issue 31): an empty
        # container, a list or dict of numbers and names (or a dict of a sector's figures).
        if kind is list or kind is dict or kind is set:
            if not v:
                out[k] = kind()
                continue
            if all(map(_shared, map(type, v.values() if kind is dict else v))):
                out[k] = v.copy()
                continue
        out[k] = copied(v)
    twin.__dict__ = out
    return twin


_FLAT: dict[type, bool] = {}
"""Whether a record type declares numbers, names and flags alone (``_is_flat``)."""
_FLAT_TYPES = frozenset({"int", "str", "bool", "float", "int | None", "str | None",
                         "bool | None"})


def _is_flat(kind: type) -> bool:
    """A dataclass whose every field is declared a number, a name or a flag (or None): a crate,
    a Bailey bridge, a roll waiting for a reveal.  Such a record is copied by copying its
    fields' dict, without looking at each value (mypy --strict holds the values to the
    declared types; tests/games/arnhem44/test_state_copy.py checks them in self-play)."""
    return dataclasses.is_dataclass(kind) and all(
        field.type in _FLAT_TYPES for field in dataclasses.fields(kind))


_RECORD: dict[type, bool] = {}
"""Whether a type is a plain record, copied field by field."""


def _is_record(kind: type) -> bool:
    """A dataclass, not frozen (its ``__setattr__`` is object's), keeping its fields in
    ``__dict__`` (no slots)."""
    return (dataclasses.is_dataclass(kind) and "__slots__" not in kind.__dict__
            and kind.__setattr__ is object.__setattr__)
