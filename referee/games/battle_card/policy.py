"""Self-play policies for Battle Card beyond the random one."""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.games.battle_card.commands import Command, Fight, Move, Pass
from referee.games.battle_card.state import BattleCardState

ROUTE = ("Belgium", "Eindhoven", "Grave", "Nijmegen", "Arnhem")


def greedy_policy(state: BattleCardState, legal: Sequence[Command], rng: random.Random) -> Command:
    """Push 30th Corps north as fast as the card allows.

    Attack where the city is not yet Allied (only an attack can take control) or where the
    Allied unit is the stronger; defend otherwise.  Move 30th Corps north when it can; else
    send the unit with it north into a city that has no Allied unit; else pass.
    """
    fights = [c for c in legal if isinstance(c, Fight)]
    if fights:
        city = fights[0].city
        unit = state.unit_in(city)
        german = state.german.get(city) or 0
        attack = not state.allied_controls(city) or (unit is not None and unit.strength > german)
        return next(c for c in fights if c.attack == attack)
    moves = [c for c in legal if isinstance(c, Move)]
    north = [c for c in moves if ROUTE.index(c.destination) > ROUTE.index(c.origin or "Belgium")]
    corps = [c for c in north if c.unit == "30-corps"]
    if corps:
        return corps[0]
    free = [c for c in north if state.unit_in(c.destination) is None]
    if free:
        return free[0]
    passes = [c for c in legal if isinstance(c, Pass)]
    return passes[0] if passes else legal[rng.randrange(len(legal))]
