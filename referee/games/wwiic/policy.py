"""Self-play policies for WWII Commander beyond the random one.

Combat (section 7) is not implemented yet, so a random player soon stands before an attack it
must make and cannot; the ``mover`` policy plays movement only: it prefers activations whose
units all end away from enemy units (no combat follows), moves rather than stays, and declines
optional attacks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from referee.games.wwiic.board import Board, bundled_board
from referee.games.wwiic.commands import Activate, NoAttack, Pass
from referee.games.wwiic.state import WState


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
    """Movement only: a quiet activation that moves if there is one, else a quiet one, else
    'no attack' or 'pass', else anything."""
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


POLICIES = {"mover": mover_policy}
