"""Ferry: the five ferries are for the German player only.  "When allied troops reach the
ferry, flip over the token; the German player can still use the ferry point until the end of
his turn: at the end of the round the marker must be removed."  No points are earned.
"""

from __future__ import annotations

from functools import cache
from operator import is_
from typing import Any

from referee.core.engine import Event
from referee.games.arnhem44.board import ALLIED, Board, side_of
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.sectors import journal_of, written_since
from referee.games.arnhem44.state import AState

ACTIVE = "active"
FLIPPED = "flipped"
REMOVED = "removed"
STATUSES = (ACTIVE, FLIPPED, REMOVED)


def status(state: AState, ferry: str) -> str:
    return state.ferries.get(ferry, ACTIVE)


def usable(state: AState, ferry: str) -> bool:
    """The German player uses an active or a flipped ferry (a flipped one until the round
    ends); a removed one is gone."""
    return status(state, ferry) != REMOVED


def _allied_at(state: AState, sector: str) -> bool:
    here = state.units.get(sector)
    if not here:
        return False
    kept: bool | None = getattr(here, KEPT, None)
    if kept is None:
        kept = any(side_of(g) == ALLIED for g, _ in here)
        if type(here) is Figures:  # never changed in place: the answer is kept on it
            setattr(here, KEPT, kept)
    return kept


KEPT = "_allied_keys"
"""The attribute of a sector's ``Figures`` that keeps whether an Allied key is among them."""


def update(board: Board, state: AState) -> list[Event]:
    """A35: Allied troops reach a ferry when an Allied unit stands in either sector it joins.

    After it no active ferry has Allied troops at either end: the figures there (each
    ``Figures`` never changed in place) and the ferries' statuses are kept, and while they
    are the same nothing is looked at again (asked after every command, issue 31)."""
    units = state.units
    statuses = state.ferries
    kept = _quiet
    if kept is not None and kept[0] is board and statuses == kept[2]:
        written = written_since(units, kept[3], kept[4], _end_set(board))
        if written is False:  # no ferry's end written since (``sectors.Sectors``)
            journal, length = journal_of(units)
            if length != kept[4]:  # kept from here on: the next look reads what comes after
                _keep_quiet((*kept[:3], journal, length))
            return []
        if written is None and all(map(is_, map(units.get, _ends(board)), kept[1])):
            return []
    ends = tuple(map(units.get, _ends(board)))
    events = []
    for ferry, (a, b) in board.ferries.items():
        if statuses.get(ferry, ACTIVE) == ACTIVE and (_allied_at(state, a) or _allied_at(state, b)):
            state.ferries[ferry] = FLIPPED
            events.append(Event(
                "ferry", f"Allied troops reach the {ferry} ({a}-{b}): the marker is flipped; "
                "the German player may use it until the end of his turn, and it is removed at "
                "the end of the round (Ferry)", {"ferry": ferry, "status": FLIPPED}))
    if set(map(type, ends)) <= _KEEPABLE:  # a test's plain Counter may change in place
        _keep_quiet((board, ends, statuses.copy(), *journal_of(units)))
    return events


@cache
def _ends(board: Board) -> tuple[str, ...]:
    """Both sectors of every ferry of the board, in its order."""
    return tuple(end for a, b in board.ferries.values() for end in (a, b))


@cache
def _end_set(board: Board) -> frozenset[str]:
    return frozenset(_ends(board))


_KEEPABLE = frozenset({Figures, type(None)})
_Look = tuple[Board, tuple[Any, ...], dict[str, str], list[str] | None, int]
_quiet: _Look | None = None
"""The last look of ``update``: the board, the figures at the ferries' ends (compared by
identity), the ferries' statuses after it, and the journal of the sectors written then and
its length (``sectors.journal_of``)."""


def _keep_quiet(look: _Look | None) -> None:
    global _quiet  # one assignment: a reader sees the old or the new look whole
    _quiet = look


def end_of_round(state: AState, events: list[Event]) -> None:
    """At the end of the round every flipped ferry marker is removed."""
    for ferry, where in sorted(state.ferries.items()):
        if where == FLIPPED:
            state.ferries[ferry] = REMOVED
            events.append(Event("ferry", f"the {ferry} marker is removed at the end of the round "
                                "(Ferry)", {"ferry": ferry, "status": REMOVED}))
