"""Who stands in a sector: the figures of a side, friends or enemies of the side named.

Below the movement, combat, barrage, explosives, deployment and reserve modules, which all
ask it (so the explosives need not import the movement, which imports the bridge damage,
which destroys bridges through the explosives)."""

from __future__ import annotations

from referee.games.arnhem44.board import SIDES, other, side_of
from referee.games.arnhem44.state import AState

GROUPS_OF = {side: frozenset(g for g in ("UK", "US", "1AB", "PL", "82", "101", "DE")
                             if side_of(g) == side) for side in SIDES}
"""The groups of each side (Allied: UK, US, 1AB, PL, 82, 101; German: DE)."""


def friends(state: AState, sector: str, side: str) -> int:
    """Figures of ``side`` in ``sector``."""
    return state.count(sector, GROUPS_OF[side])


def enemies(state: AState, sector: str, side: str) -> int:
    """Figures of the other side in ``sector`` (enemy territory when not 0)."""
    return state.count(sector, GROUPS_OF[other(side)])
