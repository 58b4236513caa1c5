"""Self-play of Arnhem '44 (``referee simulate arnhem44``): a random legal command drawn
without listing every figure's every move.

In a movement phase the policy ends the phase with one chance in eight, and otherwise draws
one of the mover's figures and one of that figure's moves, intrusions or fall backs (the same
commands ``legal()`` lists for it).  The German set-up draws a kind still missing and a sector
the set-up table allows for it.  Every other decision is drawn from ``legal()``.
"""

from __future__ import annotations

import random
from typing import Any

from referee.games.arnhem44.board import GERMAN, GERMAN_GROUP, KINDS
from referee.games.arnhem44.commands import Command, Deploy, EndMovement, EndSetup
from referee.games.arnhem44.deployment import german_missing, placed
from referee.games.arnhem44.legal import deploy_sectors, figure_moves, may_deploy
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
        units = state.units
        german = state.mover == GERMAN
        part = state.part
        figures = []
        for sector in sorted(units):
            keys = [key for key in units[sector]
                    if (key[0] == GERMAN_GROUP) is german  # legal.movable, inlined
                    and (part is None or player_of(key[0]) == part)]
            if keys:
                keys.sort()
                figures += [(sector, key) for key in keys]
        rng.shuffle(figures)
        for sector, key in figures:
            moves = figure_moves(board, state, sector, key)
            if moves:
                return moves[rng.randrange(len(moves))]
        return EndMovement()
    options: list[Command] = list(engine.legal(state))
    return options[rng.randrange(len(options))]


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
        where = placed(state, kind)
        sectors = sorted(deploy_sectors(board, kind))
        rng.shuffle(sectors)
        for sector in sectors:
            if may_deploy(board, state, kind, sector, where):
                return Deploy((((GERMAN_GROUP, kind), 1),), sector)
    options: list[Command] = list(engine.legal(state))
    return options[rng.randrange(len(options))]
