"""A view of the board for the length of one command (or one ``legal()`` call): unit
positions and space control, changed move by move, with a journal so a move can be tried and
taken back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.games.wwiic.board import ALLIED, GERMAN, Board
from referee.games.wwiic.state import WState


class MapView:
    """Unit positions and space control during one command, with an undo journal."""

    __slots__ = (
        "active", "allied", "board", "clean", "crossed", "foot_used", "journal", "loc",
        "n_allied", "n_german", "nearest", "occ", "side_of", "special_used", "spend", "spent",
        "strength", "supply", "turn", "weather",
    )

    def __init__(self, board: Board, state: WState) -> None:
        self.board = board
        self.side_of = board.side_of
        self.turn = state.turn
        self.weather = state.weather
        location = state.location
        self.loc: dict[str, str | None] = dict(location)
        kept = _kept
        if kept is not None and kept[0] is board and kept[1] == location:
            # The positions of the last view made or committed (``keep``): its counts.
            self.occ = dict(kept[2])
            self.n_allied = dict(kept[3])
            self.n_german = dict(kept[4])
        else:
            self.occ, self.n_allied, self.n_german = counted(board, location)
            _remember(board, location, self.occ, self.n_allied, self.n_german)
        self.clean = True
        self.allied: set[str] = set(state.allied_control)
        self.spent = state.spent
        self.supply = state.supply
        self.strength = state.strength
        self.foot_used = state.foot_crossing_used
        self.special_used = state.special_crossing_used
        self.active: frozenset[str] = frozenset()
        self.crossed: set[frozenset[str]] = set()
        """Bridges and canal boundaries crossed into an enemy-occupied space (6.3)."""
        self.spend: list[str] = []
        """30 Corps units spent by enabling a special river crossing (6.3)."""
        self.journal: list[tuple[Any, ...]] = []
        self.nearest: dict[tuple[frozenset[str], bool], dict[str, int]] = {}
        """Distances to sets of places (``Board.nearest``) asked for during this view's
        command or legal() call, kept for the sets asked again."""

    # -- reading ---------------------------------------------------------------------------

    def count(self, place: str, side: str) -> int:
        return (self.n_allied if side == ALLIED else self.n_german).get(place, 0)

    def has(self, place: str, side: str) -> bool:
        return (self.n_allied if side == ALLIED else self.n_german).get(place, 0) > 0

    def units_in(self, place: str) -> tuple[str, ...]:
        return self.occ.get(place, ())

    def controller(self, space: str) -> str:
        return ALLIED if space in self.allied else GERMAN

    # -- changing, with the journal ----------------------------------------------------------

    def mark(self) -> int:
        return len(self.journal)

    def move(self, unit: str, frm: str, to: str) -> None:
        self._relocate(unit, frm, to)
        self.journal.append(("move", unit, frm, to))

    def _relocate(self, unit: str, frm: str, to: str) -> None:
        occ = self.occ
        here = occ[frm]
        if len(here) == 1:  # the unit alone (it is in ``frm``)
            occ[frm] = ()
        else:
            at = here.index(unit)
            occ[frm] = here[:at] + here[at + 1:]
        there = occ.get(to)
        occ[to] = (unit,) if not there else (*there, unit)
        self.loc[unit] = to
        counts = self.n_allied if self.side_of[unit] == ALLIED else self.n_german
        counts[frm] -= 1
        counts[to] = counts.get(to, 0) + 1

    def set_control(self, space: str, side: str) -> None:
        was = space in self.allied
        if was == (side == ALLIED):
            return
        if side == ALLIED:
            self.allied.add(space)
        else:
            self.allied.discard(space)
        self.journal.append(("control", space, was))

    def add_crossed(self, key: frozenset[str]) -> None:
        self.crossed.add(key)
        self.journal.append(("crossed", key))

    def use_foot(self) -> None:
        self.journal.append(("foot", self.foot_used))
        self.foot_used = True

    def use_special(self, enabler: str) -> None:
        self.journal.append(("special", self.special_used))
        self.special_used = True
        self.spend.append(enabler)

    def redo(self, entries: Sequence[tuple[Any, ...]]) -> None:
        """Make again the changes ``entries`` (a slice of the journal, taken back since)
        record: a move tried before, on the same board, without trying it step by step.
        Not for a special river crossing (its enabler is not in the journal)."""
        for entry in entries:
            op = entry[0]
            if op == "move":
                self._relocate(entry[1], entry[2], entry[3])
            elif op == "control":
                if entry[2]:
                    self.allied.discard(entry[1])
                else:
                    self.allied.add(entry[1])
            elif op == "crossed":
                self.crossed.add(entry[1])
            elif op == "foot":
                self.foot_used = True
            else:
                raise ValueError(f"a journal entry that can't be made again: {op}")
            self.journal.append(entry)

    def undo(self, mark: int) -> None:
        journal = self.journal
        if len(journal) > mark:
            self.clean = False
        while len(journal) > mark:
            entry = journal.pop()
            op = entry[0]
            if op == "move":
                _, unit, frm, to = entry
                self._relocate(unit, to, frm)
            elif op == "control":
                _, space, was = entry
                if was:
                    self.allied.add(space)
                else:
                    self.allied.discard(space)
            elif op == "crossed":
                self.crossed.discard(entry[1])
            elif op == "foot":
                self.foot_used = entry[1]
            else:  # "special"
                self.special_used = entry[1]
                self.spend.pop()

    def keep(self) -> None:
        """Remember the positions this view leaves (the state takes them over: ``commit``),
        so that the next view of them copies its counts instead of counting.  The view is
        done with: its counts are put in the order counting gives and kept as they are (the
        next view copies them).  Only for a view never taken back (``undo`` puts a unit back
        at the end of its place's units, not where it stood among them)."""
        if not self.clean:
            return
        occ, n_allied, n_german = self.occ, self.n_allied, self.n_german
        order = self.board.unit_order.index
        for entry in self.journal:
            if entry[0] != "move":
                continue
            for place in (entry[2], entry[3]):
                here = occ.get(place)
                if here is None:
                    continue
                if not here:  # as counted: no place without units
                    del occ[place]
                    n_allied.pop(place, None)
                    n_german.pop(place, None)
                    continue
                if len(here) > 1:  # as counted: in the board's order of units
                    occ[place] = tuple(sorted(here, key=order))
                if not n_allied.get(place, 1):
                    del n_allied[place]
                if not n_german.get(place, 1):
                    del n_german[place]
        global _kept
        _kept = (self.board, dict(self.loc), occ, n_allied, n_german)


Counts = tuple[dict[str, tuple[str, ...]], dict[str, int], dict[str, int]]


def counted(board: Board, location: dict[str, str | None]) -> Counts:
    """The units in each place (in the board's order of units, which ``location`` keeps:
    ``sequence.opening``) and each side's count of them, for the places with units."""
    occ: dict[str, tuple[str, ...]] = {}
    n_allied: dict[str, int] = {}
    n_german: dict[str, int] = {}
    side_of = board.side_of
    for unit, place in location.items():
        if place is not None:
            here = occ.get(place)
            occ[place] = (unit,) if here is None else (*here, unit)
            counts = n_allied if side_of[unit] == ALLIED else n_german
            counts[place] = counts.get(place, 0) + 1
    return occ, n_allied, n_german


_kept: tuple[Board, dict[str, str | None], dict[str, tuple[str, ...]], dict[str, int],
             dict[str, int]] | None = None
"""The last positions counted or left by a view (``MapView.keep``), with their counts: a log's
activations mostly start where the last one left the units (issue 31: counting them was a
tenth of a WWII Commander replay).  Never changed: a view copies them."""


def _remember(board: Board, location: dict[str, str | None],
              occ: dict[str, tuple[str, ...]], n_allied: dict[str, int],
              n_german: dict[str, int]) -> None:
    global _kept
    _kept = (board, dict(location), dict(occ), dict(n_allied), dict(n_german))
