"""What ``expect`` reads and where a caret points, for the replay driver: a path into the
state's JSON, values the state leaves out for being empty, the result of the last command in
the words a player notes at the table, and the column of one die of a dice record.  Also the
dice that judge a line whatever its dice (the lowest and the highest faces)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.dice import Roll
from referee.core.engine import Event
from referee.core.errors import RefereeError
from referee.core.names import normalise

TRIAL_FACES = 1_000
"""How many dice a trial of a command at one end of the dice may roll.  A roll repeated while
two dice are equal (a tie, Arnhem '44's withdrawal order or initiative) never ends when every
die shows the same face: past this many the trial stops and judges nothing."""


class TrialTooLong(RefereeError):
    """A trial at one end of the dice rolled more than ``TRIAL_FACES`` dice."""


class AllFaces:
    """A face source that shows one end of every die: the lowest face, or the highest."""

    def __init__(self, highest: bool) -> None:
        self.highest = highest

    def face(self, index: int, sides: int) -> int:
        if index >= TRIAL_FACES:
            raise TrialTooLong(f"a trial of the command at one end of the dice rolled more "
                               f"than {TRIAL_FACES:,} dice")
        return sides if self.highest else 1


LOWEST = AllFaces(highest=False)
HIGHEST = AllFaces(highest=True)


FACE = re.compile(r"[^\s|{}:]+")
"""One die face or chit name inside a dice record (after its ``d6:`` or ``cup:``)."""


def face_column(text: str, column: int, index: int) -> int:
    """The column of the die (or chit) ``index`` (from 0) of the record at ``column`` of the
    line ``text``: the caret goes under the die that is extra or changed.  The record's own
    column when the line does not show it (a line built by the referee)."""
    start = text.find(":", column - 1)
    end = text.find("}", column - 1)
    if start < 0 or end < start:
        return column
    faces = list(FACE.finditer(text, start + 1, end))
    if not 0 <= index < len(faces):
        return column
    return faces[index].start() + 1


NOTHING = frozenset({"0", "none", "absent"})
"""What ``expect`` may write for a value the state leaves out: ``0``, ``none``, ``absent``."""


def counts(data: Any) -> bool:
    """Is ``data`` a table of counts: a mapping whose every value is a number or a table of
    counts (``{"DE": {"inf": 1}}``)?"""
    return isinstance(data, Mapping) and all(
        (type(value) is int or type(value) is float) or counts(value)
        for value in data.values())


def names_in(data: Any) -> set[str]:
    """Every key and every word value of JSON data, normalised: the names the state uses."""
    names: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            names.update(normalise(str(key)) for key in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            names.add(normalise(item))
    return names


def lookup(data: Any, keys: list[str]) -> tuple[bool, Any]:
    """Follow ``keys`` into JSON data; keys and list items' ids match regardless of case."""
    for key in keys:
        wanted = normalise(key)
        if isinstance(data, Mapping):
            match = [k for k in data if normalise(str(k)) == wanted]
            if not match:
                return False, None
            data = data[match[0]]
        elif isinstance(data, list):
            items = [
                d for d in data
                if isinstance(d, Mapping) and normalise(str(d.get("id"))) == wanted
            ]
            if items:
                data = items[0]
            elif key.isdigit() and int(key) < len(data):
                data = data[int(key)]
            else:
                return False, None
        else:
            return False, None
    return True, data


NOTED = ("command", "roll", "result", "factor", "hits")
"""The shared words of ``expect last.KEY`` (docs/log-format.md, "Saying what the table saw")."""


def noted(command: Any, events: Sequence[Event], rolls: Sequence[Roll],
          engine: Any = None) -> dict[str, Any]:
    """The result of one command in the words a player notes at the table: ``command``,
    ``roll`` (its dice), ``result``, ``factor``, ``hits``, then every value of its events'
    data (the last event that has a key gives it).  An engine's ``noted(events)`` gives the
    shared words where its events name them otherwise."""
    data: dict[str, Any] = {}
    for event in events:
        data.update(event.data)
    faces = [str(roll.drawn) if roll.drawn else str(face)
             for roll in rolls for face in (roll.faces[:1] if roll.drawn else roll.faces)]
    hits = [event.data["hits"] for event in events if type(event.data.get("hits")) is int]
    words: dict[str, Any] = {
        "command": str(command),
        "roll": " ".join(faces) if faces else "none",
        "result": data.get("result"),
        "factor": data.get("factor", data.get("af")),
        "hits": sum(hits),
    }
    own = getattr(engine, "noted", None)
    if own is not None:
        words.update(own(events))
    return {**data, **{key: value for key, value in words.items() if value is not None}}


def left_out(top: Any, rest: Sequence[str], state: Any, expected: str) -> bool:
    """``expect KEY = 0`` (or ``none``, ``absent``) of a value the state leaves out because
    it is empty (``top`` the value of the path's first key, ``rest`` the keys after it,
    ``state`` the whole state JSON).  It holds when the path stops only at its last key, that
    key is a name the state uses somewhere (so a misspelt one is still "no value"), and the
    state leaves it out for being empty: the entry of a table of counts
    (``eliminated.allied``, ``sectors.Best.units.german``), or a key that the same place of
    another entry has (another unit's ``hits``)."""
    if normalise(expected) not in NOTHING or not rest:
        return False
    found, parent = lookup(top, list(rest[:-1]))
    if not found or not isinstance(parent, Mapping):
        return False
    key = normalise(rest[-1])
    if key not in names_in(state):
        return False
    if counts(parent):
        return True
    for depth in range(len(rest) - 2, -1, -1):
        found, container = lookup(top, list(rest[:depth]))
        entries = (list(container.values()) if isinstance(container, Mapping)
                   else container if isinstance(container, list) else [])
        for other in entries:
            ok, inner = lookup(other, list(rest[depth + 1:-1]))
            if ok and isinstance(inner, Mapping) and key in {normalise(str(k)) for k in inner}:
                return True
    return False
