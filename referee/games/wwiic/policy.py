"""Self-play for WWII Commander: policies for ``referee simulate`` and a fast random player.

``referee simulate wwiic --policy random`` uses the core's uniform choice among every legal
command; each impulse then lists every activation of one or two units, which is where its
time goes (see ``bench/wwiic_selfplay.py``).  ``random_command`` plays random legal games
without listing every pair: in an impulse it picks an unspent unit and one of that unit's
own moves (or passes, when allowed); every other decision (attacks, hits, retreats,
breakthroughs, reinforcements, replacements) comes from ``legal()``, which is short there.
The ``mover`` policy plays quietly: moves away from enemy units, no attacks unless it must.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from referee.games.wwiic.board import Board, bundled_board
from referee.games.wwiic.commands import Activate, Attack, Command, NoAttack, Pass
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.sequence import may_pass
from referee.games.wwiic.state import Phase, WState
from referee.games.wwiic.unitmoves import activatable, unit_options

PASS_CHANCE = 0.08
ATTACK_CHANCE = 0.8


def quiet(board: Board, state: WState, command: Activate) -> bool:
    """Whether no combat can follow ``command``: every unit ends where no enemy unit is."""
    for move in command.moves:
        side = board.side_of[move.unit]
        end = move.path[-1] if move.path else state.location[move.unit]
        if any(
            p == end and board.side_of[u] != side for u, p in state.location.items()
        ):
            return False
    return True


def mover_policy(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """Movement first: a quiet activation that moves if there is one, else a quiet one, else
    'no attack' or 'pass', else anything (a mandatory attack and its decisions)."""
    board = bundled_board()
    if len(legal) == 1:
        return legal[0]
    quiet_moves = [c for c in legal if isinstance(c, Activate) and quiet(board, state, c)]
    moving = [c for c in quiet_moves if any(m.path for m in c.moves)]
    for pool in (moving, quiet_moves):
        if pool:
            return pool[rng.randrange(len(pool))]
    for command in legal:
        if isinstance(command, NoAttack | Pass):
            return command
    return legal[rng.randrange(len(legal))]


def random_command(engine: Any, state: WState, rng: random.Random) -> Command:
    """A random legal command, without listing every activation of an impulse."""
    board: Board = engine.board
    if state.phase is Phase.IMPULSE:
        if may_pass(board, state) and rng.random() < PASS_CHANCE:
            return Pass()
        units = activatable(board, MapView(board, state), state.side)
        if not units:
            return Pass()
        unit = units[rng.randrange(len(units))]
        options = unit_options(MapView(board, state), unit)
        forms = [m for o in options for m in o.forms()]
        return Activate((forms[rng.randrange(len(forms))],))
    legal: list[Command] = list(engine.legal(state))
    if state.phase is Phase.COMBAT:
        attacks = [c for c in legal if isinstance(c, Attack)]
        if len(attacks) < len(legal) and rng.random() > ATTACK_CHANCE:
            return NoAttack()
        return attacks[rng.randrange(len(attacks))]
    return legal[rng.randrange(len(legal))]


POLICIES = {"mover": mover_policy}
