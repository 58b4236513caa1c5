"""Self-play of Arnhem '44 (``referee simulate arnhem44``): a random legal command drawn
without listing every figure's every move.

In a movement phase the policy ends the phase with one chance in eight, and otherwise draws
one of the mover's figures and one of that figure's moves, intrusions or fall backs (the same
commands ``legal()`` lists for it).  The German set-up draws a kind still missing and a sector
the set-up table allows for it.  Every other decision is drawn from ``legal()``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain, compress
from operator import is_not
from typing import Any

from referee.games.arnhem44.board import GERMAN, GERMAN_GROUP, KINDS, Key
from referee.games.arnhem44.commands import Command, Deploy, EndMovement, EndSetup
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.deployment import german_missing, placed
from referee.games.arnhem44.legal import deploy_sectors, deployable, figure_options
from referee.games.arnhem44.options import player_of
from referee.games.arnhem44.state import MOVEMENT, SETUP_GERMAN, AState

END_CHANCE = 0.125
"""The chance that a random mover ends his movement phase instead of moving a figure."""


def random_command(engine: Any, state: AState, rng: random.Random) -> Command:
    board = engine.board
    if state.phase == SETUP_GERMAN:
        return _german_setup(engine, state, rng)
    if state.phase in MOVEMENT and state.fallback is None:
        if rng.random() < END_CHANCE:
            return EndMovement()
        figures = movers(state.units, state.mover == GERMAN, state.part)
        rng.shuffle(figures)
        for sector, key in figures:
            moves = figure_options(board, state, sector, key)  # figure_moves, not made
            if moves:
                make, fields = moves[rng.randrange(len(moves))]
                return make(*fields)
        return EndMovement()
    options: list[Command] = list(engine.legal(state))
    return options[rng.randrange(len(options))]


def movers(units: dict[str, Counter[Key]], german: bool, part: str | None
           ) -> list[tuple[str, Key]]:
    """The mover's figures (``legal.movable``: German or Allied, of the part's player in a
    three-player game), (sector, key) in the sectors' order and each sector's keys in order.

    A sector's figures (``Figures``) are never changed in place: each sector's figures are
    kept with the ``Figures`` they came from, and only the sectors holding other figures now
    (found by identity in C) are looked at again (a move changes two)."""
    whose = (german, part)
    kept = _movers.get(whose)
    if kept is not None:
        seen, pairs, order = kept
    else:
        seen, pairs, order = {}, {}, ()
    again = list(compress(units, map(is_not, map(seen.get, units), units.values())))
    if again or len(seen) != len(units):
        was = seen
        seen, pairs = dict(seen), dict(pairs)
        keep = True
        for sector in again:
            counts = units[sector]
            keep = keep and type(counts) is Figures  # else it may change in place
            keys = sorted(key for key in counts
                          if (key[0] == GERMAN_GROUP) is german  # legal.movable, inlined
                          and (part is None or player_of(key[0]) == part))
            pairs[sector] = tuple([(sector, key) for key in keys])
            seen[sector] = counts
        if len(seen) != len(units):  # a sector emptied
            for sector in [s for s in seen if s not in units]:
                del seen[sector], pairs[sector]
        if len(seen) != len(was) or not was.keys() >= set(again):
            order = tuple(sorted(units))
        if keep:
            _movers[whose] = (seen, pairs, order)  # one assignment: read whole
    return list(chain.from_iterable(map(pairs.__getitem__, order)))


_Movers = tuple[dict[str, Counter[Key]], dict[str, tuple[tuple[str, Key], ...]],
                tuple[str, ...]]
_movers: dict[tuple[bool, str | None], _Movers] = {}
"""The last ``movers`` of each mover (German or not, and the part): each sector's figures it
came from (compared by identity), each sector's (sector, key) pairs, and the sectors in
order.  Never changed once kept; a new one is kept whole in one assignment."""


def _german_setup(engine: Any, state: AState, rng: random.Random) -> Command:
    """A random German set-up figure: a missing kind, then a sector of the set-up table where
    every German figure of that kind can still be matched to the table."""
    board = engine.board
    missing = german_missing(board, state)
    kinds = [k for k in KINDS if missing[k]]
    if not kinds:
        return EndSetup()
    rng.shuffle(kinds)
    for kind in kinds:
        may = deployable(board, state, kind, placed(state, kind))  # may_deploy
        sectors = sorted(deploy_sectors(board, kind))
        rng.shuffle(sectors)
        for sector in sectors:
            if may(sector):
                return Deploy((((GERMAN_GROUP, kind), 1),), sector)
    options: list[Command] = list(engine.legal(state))
    return options[rng.randrange(len(options))]
