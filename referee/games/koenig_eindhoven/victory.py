"""Victory (12.0, Exclusive 12.0): Victory Points at the end of Game Turn 10."""

from __future__ import annotations

from typing import Any

from referee.games.koenig_eindhoven.board import ALLIED, GERMAN, SIDES, Board
from referee.games.koenig_eindhoven.state import ELIMINATED, IN_PLAY, KState

BRIDGE_BONUS = 5
"""Exclusive 12.0: +5 VP for occupying all three red-star bridge hexes."""
OBJECTIVE_VP = {"city": 2, "town": 1}


def holder(board: Board, state: KState, hex_id: str) -> str | None:
    """The side whose units occupy a hex (K23: occupation at the end, no control markers)."""
    sides = {board.units[u].side for u, h in state.hex.items() if h == hex_id}
    return sides.pop() if len(sides) == 1 else None


def victory_points(board: Board, state: KState) -> dict[str, Any]:
    """Each side's VP with the breakdown of Exclusive 12.0."""
    points: dict[str, dict[str, int]] = {
        side: {"objectives": 0, "eliminated_enemy": 0, "undamaged_units": 0, "bridges": 0}
        for side in SIDES
    }
    for hex_id, kind in sorted(board.objectives().items()):
        side = holder(board, state, hex_id)
        if side is not None:
            points[side]["objectives"] += OBJECTIVE_VP[kind]
    for unit, status in state.status.items():
        side = board.units[unit].side
        other = GERMAN if side == ALLIED else ALLIED
        if status == ELIMINATED:
            points[other]["eliminated_enemy"] += 1  # K17: a unit that never arrived: none
        elif status == IN_PLAY and state.hits[unit] == 0:
            points[side]["undamaged_units"] += 1
    stars = board.red_star_hexes()
    for side in SIDES:
        if stars and all(holder(board, state, h) == side for h in stars):
            points[side]["bridges"] = BRIDGE_BONUS
    totals = {side: sum(points[side].values()) for side in SIDES}
    return {"allied": totals[ALLIED], "german": totals[GERMAN], "breakdown": points}


def final_result(board: Board, state: KState) -> dict[str, object]:
    """12.0: the higher total wins; equal totals are a draw (K24)."""
    vp = victory_points(board, state)
    allied, german = vp["allied"], vp["german"]
    if allied == german:
        winner, result = None, "draw"
    else:
        winner = ALLIED if allied > german else GERMAN
        result = f"{winner} victory"
    return {"result": result, "winner": winner,
            "reason": f"Game Turn {state.turn} completed: Allied {allied} VP, German {german} VP "
                      "(Exclusive 12.0)", "vp": vp}
