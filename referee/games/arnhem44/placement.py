"""Facts worked out from where the figures stand alone, kept for as long as they stand there.

A sector's figures (``copying.Figures``) are never changed in place: ``AState.add``/``remove``
put a new count in the sector.  So while every sector holds the very same ``Figures`` (the
same objects in the same sectors, in the same order), a fact worked out from the figures alone
is the same, and ``Fact`` gives its last answer again without looking.  Most commands change
no figure (a roll, a decision, a skip) and phase 1 asks who may fire at whom at every decision
of the same figures (issue 31).  A sector holding anything but a ``Figures`` (a test's plain
``Counter``, which may change in place) keeps no answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from operator import is_
from typing import Generic, TypeVar

from referee.games.arnhem44.board import GERMAN_GROUP, Board, Key
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.sectors import journal_of, written_since
from referee.games.arnhem44.state import AState

T = TypeVar("T")

_ONLY_FIGURES = frozenset({Figures})

Figured = tuple[Counter[Key], ...]
"""The figures a fact was worked out from: each sector's, in order (``Fact``)."""


class Fact(Generic[T]):
    """A fact of the board and the figures on it (``make``), its last answer kept with the
    figures it came from.  Given again while no sector is written (``sectors.Sectors``, its
    journal as long as it was); without a journal to tell, while the very figures stand in
    the very sectors in the very order (the answer may follow the sectors' order)."""

    __slots__ = ("_last", "_make")

    def __init__(self, make: Callable[[Board, dict[str, Counter[Key]]], T]) -> None:
        self._make = make
        self._last: tuple[Board, tuple[str, ...], Figured, T, list[str] | None, int] | None = None

    def __call__(self, board: Board, state: AState) -> T:
        units = state.units
        last = self._last
        if last is not None and last[0] is board:
            written = written_since(units, last[4], last[5])
            if written is False:
                return last[3]  # no sector written since (``sectors.Sectors``)
            if written is None:  # no journal to tell: the sectors themselves
                values = tuple(units.values())
                if len(last[2]) == len(values) and all(map(is_, values, last[2])) \
                        and last[1] == tuple(units):
                    return self._again(last, units)
        answer = self._make(board, units)
        if set(map(type, units.values())) <= _ONLY_FIGURES:
            # one assignment: read whole
            self._last = (board, tuple(units), tuple(units.values()), answer,
                          *journal_of(units))
        return answer

    def _again(self, last: tuple[Board, tuple[str, ...], Figured, T, list[str] | None, int],
               units: dict[str, Counter[Key]]) -> T:
        """The last answer, found again by looking at the sectors: kept now with their
        journal (the next question, if no sector is written meanwhile, does not look)."""
        journal, length = journal_of(units)
        if journal is not None:
            self._last = (*last[:4], journal, length)
        return last[3]

    def forget(self) -> None:
        """No answer kept (the next question looks)."""
        self._last = None


def _artillery_sectors(board: Board, units: dict[str, Counter[Key]]) -> tuple[
        tuple[str, tuple[dict[Key, int], dict[Key, int]]], ...]:
    rank = board.rank
    found = []
    for sector, here in units.items():
        if here and sector in rank:
            art = artillery(here)
            if art[0] or art[1]:
                found.append((sector, art))
    return tuple(found)


artillery_sectors = Fact(_artillery_sectors)
"""(sector, ``artillery`` of it: German, Allied) of the sectors of the map holding
artillery, in the order of ``AState.units`` (phase 1's batteries, ``barrage.batteries``)."""


def artillery(counts: Counter[Key]) -> tuple[dict[Key, int], dict[Key, int]]:
    """(German, Allied) artillery among one sector's counts, kept on a sector's ``Figures``
    (never changed in place) as ``presence.sides_here`` is: phase 1 asks every sector's
    batteries at every decision (who fires, what he may fire, whether he must skip)."""
    kept: tuple[dict[Key, int], dict[Key, int]] | None = getattr(counts, ARTILLERY_KEPT, None)
    if kept is not None:
        return kept
    found = ({k: n for k, n in counts.items() if k[1] == "art" and k[0] == GERMAN_GROUP},
             {k: n for k, n in counts.items() if k[1] == "art" and k[0] != GERMAN_GROUP})
    if type(counts) is Figures:
        setattr(counts, ARTILLERY_KEPT, found)
    return found


ARTILLERY_KEPT = "_artillery"
"""The attribute of a sector's ``Figures`` that keeps ``artillery`` of it."""
