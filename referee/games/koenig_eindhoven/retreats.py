"""Retreats (11.0, 11.1), shared by Fire Combat (9.2.3, ``combat``) and Close Combat (10.0,
``closecombat``): the hexes a hit unit may retreat to and the retreat itself."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.movement import STACK, occupancy
from referee.games.koenig_eindhoven.state import OFF, OFF_MAP, KState

CLOSE = "close-combat"
"""The kind of a Close Combat battle (10.0); Full and Mobile Fire are ``full-fire`` and
``mobile-fire``."""


def retreat_hexes(board: Board, state: KState, unit: str) -> list[str]:
    """11.0: adjacent hexes without enemy units, within stacking, not across a River hexside
    without a bridge (K30); ``off`` from a hex on the map edge (11.1)."""
    here = state.hex[unit]
    assert here is not None
    side = board.units[unit].side
    found = []
    occ = occupancy(board, state)
    count = occ.count
    enemy = occ.enemy_counts(side)
    crossings = board.crossing_costs(here)  # the neighbours not across a River without bridge
    for there in board.neighbours(here):
        if there not in crossings:
            continue
        if there in enemy or count.get(there, 0) >= STACK:
            continue
        found.append(there)
    if len(board.neighbours(here)) < 6:
        found.append(OFF)
    return found


def move_in_retreat(board: Board, state: KState, unit: str, where: str,
                    allowed: Sequence[str]) -> Event:
    """Move ``unit`` back to ``where``, one of the ``allowed`` hexes (11.0), or off the map
    (11.1: out of play, not eliminated): after fire (9.2.3) and in Close Combat (10.0)."""
    if where not in allowed and where != OFF and state.hex[unit] is not None:
        here = state.hex[unit] or ""
        hexside = board.hexside(here, where) if board.adjacent(here, where) else None
        if hexside is not None and hexside.river and hexside.bridge is None:
            # K30: the retreat is a move, and 8.1.1 prohibits moving across a River hexside.
            raise IllegalMove("8.1.1", f"{unit} cannot retreat from {here} to {where} across a "
                              "River hexside: units may not move across River hexsides "
                              "except at Bridges" + (f" ({', '.join(allowed)})" if allowed
                                                     else ""))
    if where not in allowed:
        raise IllegalMove("11.0", f"{unit} cannot retreat to {where}: a retreat goes to an "
                          "adjacent hex without enemy units, within stacking, not across a "
                          "River hexside" + (f" ({', '.join(allowed)})" if allowed else ""))
    origin = state.hex[unit]
    if where == OFF:
        state.hex[unit] = None
        state.status[unit] = OFF_MAP
        return Event("retreat", f"{unit} retreats off the map from {origin}: out of play, not "
                     "eliminated (11.1)", {"unit": unit, "to": OFF})
    state.hex[unit] = where
    return Event("retreat", f"{unit} retreats {origin}->{where} (11.0)",
                 {"unit": unit, "to": where})
