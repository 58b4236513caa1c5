"""8 Supply: the exits an overland supply path may take, listed once per board
(``Board.supply_exits``), are exactly those ``supply._passable`` lets through, in the board's
order, so every supply search reaches the same spaces in the same order.

Rulebook, 8: "Supply paths can be traced through any type of terrain and boundary, except the
path can cross a river boundary only at a road bridge or (if German) at the Pannerden Ferry.
Supply can't be traced across the Oosterbeek foot crossing."
"""

from __future__ import annotations

from referee.games.wwiic.board import bundled_board
from referee.games.wwiic.supply import _passable


def test_supply_exits_are_the_passable_exits_in_board_order() -> None:
    board = bundled_board()
    assert board.supply_exits.keys() == board.exits.keys()
    for place, exits in board.exits.items():
        assert board.supply_exits[place] == tuple(
            nxt for nxt in exits if _passable(board, place, nxt)), place


def test_no_supply_exit_crosses_a_river_without_a_road_bridge() -> None:
    board = bundled_board()
    crossed = 0
    for place, ends in board.supply_exits.items():
        for nxt in ends:
            crossing = board.exits[place][nxt]
            if crossing.kind == "river":
                assert crossing.bridge, (place, nxt)
                crossed += 1
    assert crossed > 0  # the map's road bridges are supply exits
