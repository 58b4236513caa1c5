"""A committed hidden value: a choice one side makes without showing it (a crate's value,
a face-down chit), for every game.

The engine never holds a hidden value.  A command that makes the choice carries either the
value in the open (a tabletop log that chooses to show it), nothing (a tabletop log: the value
is simply shown when it is used), or a **commitment** to it (play by e-mail).  The engine
records the choice as unknown and says so in two events the core understands:

* ``commit``: data ``slot`` (the hidden value's name, unique in the game, e.g. ``crate 3``),
  ``side`` (who chose), ``commitment`` (``None`` in a tabletop log) and ``allowed`` (the values
  the rules allowed for it at that moment);
* ``reveal``: data ``slot``, ``side``, ``value`` and ``reveals: true``, when the value is shown
  because the rules use it.

``referee play`` turns the writer's value into a commitment before it writes the line (a
command with ``conceal_value`` and ``concealed(commitment)``, see ``Concealable``), and
``referee verify`` with the chooser's secret opens every commitment and checks every
revealed value against it (``referee.pbem.hidden``; docs/pbem.md, "Hidden values").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from referee.core.engine import Event
from referee.core.records import frozen

COMMIT = "commit"
REVEAL = "reveal"


@runtime_checkable
class Concealable(Protocol):
    """A command that may hold a value its side keeps hidden."""

    @property
    def conceal_value(self) -> int | None:
        """The value written in the open (``None``: already hidden or committed)."""
        ...

    def concealed(self, commitment: str) -> Any:
        """The same command with the value replaced by its commitment."""
        ...


def commit_event(slot: str, side: str, commitment: str | None, allowed: Iterable[int],
                 text: str | Callable[[], str]) -> Event:
    """The event of a hidden choice (see the module's description)."""
    values = sorted(set(allowed))
    return Event(COMMIT, text, {"slot": slot, "side": side, "commitment": commitment,
                                "allowed": values})


def reveal_event(slot: str, side: str, value: int, text: str | Callable[[], str],
                 extra: Mapping[str, Any] | None = None) -> Event:
    """The event of a hidden value shown (``reveals: true``: ``undo`` cannot take it back)."""
    return Event(REVEAL, text, {"slot": slot, "side": side, "value": value, "reveals": True,
                                **(extra or {})})


@frozen
class Committed:
    """One hidden choice of a replayed log and, if it was shown, its reveal."""

    slot: str
    side: str
    line: int | None
    command: str
    commitment: str | None
    allowed: tuple[int, ...]
    revealed: int | None = None
    reveal_line: int | None = None


def hidden_choices(events: Iterable[Any]) -> list[Committed]:
    """Every hidden choice among a replay's events (``LineEvent``s), with its reveal."""
    found: dict[str, Committed] = {}
    order: list[str] = []
    for item in events:
        event = item.event
        if event.kind not in (COMMIT, REVEAL):
            continue
        data = event.data
        slot = str(data.get("slot"))
        if event.kind == COMMIT:
            found[slot] = Committed(slot, str(data.get("side")), item.line, item.command,
                                    data.get("commitment"), tuple(data.get("allowed", ())))
            order.append(slot)
        elif slot in found and found[slot].revealed is None:
            was = found[slot]
            found[slot] = Committed(was.slot, was.side, was.line, was.command, was.commitment,
                                    was.allowed, int(data.get("value", -1)), item.line)
    return [found[slot] for slot in order]
