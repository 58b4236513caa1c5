"""JSON text indented by two spaces, the same to the byte as ``json.JSONEncoder(indent=2,
ensure_ascii=False).iterencode``, but written a whole flat object at a time.

The standard library encodes indented JSON in Python one token at a time (its C encoder runs
only without indentation): a ``--json`` report of 100,000 problems took seconds of it.  An
object or array whose members are all plain values (the problems, the events) is written
here as one string by the C encoder (given the indentation as its separator); anything else
nests as the standard
encoder nests it.  ``tests/core/test_jsonwrite.py`` compares the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from json.encoder import (  # type: ignore[attr-defined]
    c_make_encoder,
    encode_basestring,
)
from typing import Any

_INFINITY = float("inf")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _plain(value: Any) -> str | None:
    """A plain value as JSON text, or ``None`` when it is an object or an array."""
    if isinstance(value, str):
        text: str = encode_basestring(value)
        return text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, list | tuple | dict):
        return None
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


_FLAT = frozenset({str, int, float, bool, type(None)})
"""The types of a plain value, exactly (a subclass, such as an enumeration, goes the long
way, as the standard encoder writes it)."""

_flat_writers: dict[int, Callable[[Any, int], Any]] = {}


def _flat_writer(level: int) -> Callable[[Any, int], Any] | None:
    """The C encoder, separating the members of an object or array at ``level`` by a comma,
    a new line and the indentation of its members: an object of plain values comes out as
    the indented encoder writes it, but for the new lines after ``{`` and before ``}``."""
    if c_make_encoder is None:
        return None
    writer = _flat_writers.get(level)
    if writer is None:
        writer = _flat_writers[level] = c_make_encoder(
            None, _refuse, encode_basestring, None, ": ", ",\n" + "  " * (level + 1),
            False, False, True)
    return writer


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _flat(data: dict[Any, Any] | list[Any] | tuple[Any, ...], level: int) -> str | None:
    """A non-empty object or array of plain values, written by the C encoder, or ``None``."""
    values = data.values() if isinstance(data, dict) else data
    for value in values:
        if type(value) not in _FLAT:
            return None
    writer = _flat_writer(level)
    if writer is None:
        return None
    text = "".join(writer(data, 0))
    inner = "\n" + "  " * (level + 1)
    return text[0] + inner + text[1:-1] + "\n" + "  " * level + text[-1]


def json_chunks(data: Any, level: int = 0) -> Iterator[str]:
    """``data`` as indented JSON text, in pieces (the standard encoder's ``indent=2``)."""
    plain = _plain(data)
    if plain is not None:
        yield plain
        return
    if not data:
        yield "{}" if isinstance(data, dict) else "[]"
        return
    flat = _flat(data, level)
    if flat is not None:
        yield flat
        return
    inner = "\n" + "  " * (level + 1)
    close = "\n" + "  " * level
    if isinstance(data, dict):
        yield "{"
        for index, (key, value) in enumerate(data.items()):
            yield ("," if index else "") + inner + encode_basestring(_key(key)) + ": "
            yield from json_chunks(value, level + 1)
        yield close + "}"
        return
    yield "["
    for index, value in enumerate(data):
        yield "," + inner if index else inner
        if type(value) is dict and value:
            flat = _flat(value, level + 1)
            if flat is not None:
                yield flat
                continue
        yield from json_chunks(value, level + 1)
    yield close + "]"
