"""The shortcuts legal()'s searches take give what the long way gives (issue 14).

* A strategic move is searched only through ``Board.strategic_exits``: every other exit is
  refused to any strategic move, wherever the unit is, for a reason no unit's move could
  lift (a refusal naming no space), so leaving it out changes neither the moves nor the
  blockers found.
* ``lifted_moves`` (a pair's second unit with the first lifted off the board, worked out
  from the second unit's own search) lists the moves a whole search of the lifted board
  lists, in the same order, and notes at least its blockers.
* A search for a pair's second unit that wants only its moves (``options_only``) does not
  take a strategic move on where the board lets it reach no target: it finds the moves a
  whole search finds there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.log import Entry
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
from referee.games.wwiic.board import (
    ALLIED,
    GERMAN,
    LEG_TYPES,
    SPACE,
    STRATEGIC_TYPES,
    other_side,
)
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.lifted import lifted_moves, lifted_search
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk
from referee.games.wwiic.state import WState
from referee.games.wwiic.unitmoves import activatable, search

FULL_GAME = Path(__file__).resolve().parents[3] / "logs" / "wwiic" / "full-game-draw.log"


def test_units_that_move_strategically_never_cross_an_unbridged_river() -> None:
    # 6.3: only leg infantry crosses a river without a bridge; 6.4: no leg unit moves
    # strategically.  strategic_exits leaves those crossings out on this ground.
    assert STRATEGIC_TYPES.isdisjoint(LEG_TYPES)


@pytest.mark.parametrize("side", [ALLIED, GERMAN])
def test_every_exit_left_out_of_strategic_exits_is_refused_naming_no_space(side: str) -> None:
    board = ENGINE.board
    state = ENGINE.setup(None, {})
    unit = next(
        u for u, info in board.units.items()
        if info.side == side and info.type in STRATEGIC_TYPES and (side != ALLIED or info.corps30)
    )
    left_out = 0
    for place in board.exits:
        kept = set(board.strategic_exits(side)[place])
        for nxt in board.exits[place]:
            if nxt in kept:
                continue
            view = MapView(board, state)
            if view.has(place, other_side(side)):
                continue  # 6.4: a strategic move neither starts in nor enters such a space
            view.weather = "overcast"  # 6.4: German strategic movement needs it
            start = view.loc[unit]
            assert start is not None
            if start != place:
                view.move(unit, start, place)
            refusal = Walk(view, unit, strategic=True).step(nxt)
            assert refusal is not None, (place, nxt)
            assert refusal.on == (), (place, nxt, refusal.message)
            left_out += 1
    assert left_out > 100


def _impulses(text: str, every: int) -> list[WState]:
    states: list[WState] = []

    class Positions(Replayer):
        def _entry(self, entry: Entry) -> None:
            super()._entry(entry)
            states.append(ENGINE.copy(self.report.state))

    Positions(parse_log(text, "full-game-draw.log", engine=ENGINE), ENGINE).run()
    return [s for s in states if not isinstance(ENGINE.legal(s), list)][::every]


def test_lifted_moves_are_those_of_a_whole_search_of_the_lifted_board() -> None:
    board = ENGINE.board
    compared = further = 0
    for state in _impulses(FULL_GAME.read_text(), every=6):
        view = MapView(board, state)
        units = activatable(board, view, state.side)
        alone = {}
        for unit in units:
            view.active = frozenset((unit,))
            alone[unit] = search(view, unit, record=True)
        view.active = frozenset()
        for first in units:
            for second in units:
                start = view.loc[first]
                assert start is not None
                if first == second or start == view.loc[second] or board.kind[start] != SPACE:
                    continue
                ends = frozenset(o.end for o in alone[first].options if o.path)
                both = frozenset((first, second))
                short = lifted_moves(view, first, second, both, ends, alone[second])
                whole = lifted_search(view, first, second, both, ends)
                assert short.options == whole.options, (first, second)
                assert whole.blockers <= short.blockers
                for lift, spaces in whole.lifts.items():
                    assert spaces <= short.lifts[lift]
                compared += 1
                paths = alone[second].entries or {}
                further += bool(paths.get(start))
    assert compared > 1000
    assert further > 50  # the strategic moves searched on through the first unit's space


def test_a_search_for_options_only_finds_the_moves_a_whole_search_finds() -> None:
    # strategic_approach leaves out only the spaces from which no strategic move reaches the
    # target on the board as it stands.
    board = ENGINE.board
    compared = strategic = 0
    for state in _impulses(FULL_GAME.read_text(), every=10):
        view = MapView(board, state)
        for unit in activatable(board, view, state.side):
            view.active = frozenset((unit,))
            whole = search(view, unit).options
            for end in {o.end for o in whole} | set(board.spaces[::7]):
                aimed = [o for o in whole if o.end == end]
                assert search(view, unit, end, options_only=True).options == aimed
                compared += 1
                strategic += any(o.strategic for o in aimed)
        view.active = frozenset()
    assert compared > 1000
    assert strategic > 100
