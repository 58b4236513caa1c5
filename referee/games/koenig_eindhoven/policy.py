"""Self-play policies for ``referee simulate koenig-eindhoven``: the random one, and a greedy
one that plays for the Victory Points of Exclusive 12.0.

The greedy player scores every legal command and plays the best (ties broken by the game's
random generator): a move by the Victory Points it brings within reach (objective hexes
occupied, steps gained towards the nearest objective its side does not hold, an objective
left empty counted against it), a fire attack by its chance of a Hit (9.0: a die below the
Attack Factor) less half its chance of an Exchange, ``end`` at nothing.  In an attack it
commits all the support it may, puts each Hit where it costs the enemy most and its own side
least (9.2.2), stays after a Hit when it may and otherwise retreats towards an objective
(Capture!, 11.2, when the hex is an objective).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from referee.games.koenig_eindhoven import combat
from referee.games.koenig_eindhoven.board import GERMAN, Board, engine_board
from referee.games.koenig_eindhoven.commands import (
    Capture,
    Command,
    Fire,
    HitUnit,
    Move,
    Retreat,
    Stay,
    Support,
)
from referee.games.koenig_eindhoven.state import OFF, KState, Phase
from referee.games.koenig_eindhoven.victory import OBJECTIVE_VP, holder

STEP_VALUE = 0.25
"""A step closer to an objective, in Victory Points (a guess that makes a unit walk)."""
FAR = 99


_steps: dict[int, tuple[Board, dict[str, dict[str, int]]]] = {}


def steps_to_objectives(board: Board) -> dict[str, dict[str, int]]:
    """For each objective hex, every hex's number of steps to it, never across a River
    hexside without a bridge (8.1.1); computed once a board."""
    held = _steps.get(id(board))
    if held is not None and held[0] is board:
        return held[1]
    tables: dict[str, dict[str, int]] = {}
    for objective in board.objectives():
        table = {objective: 0}
        queue = deque([objective])
        while queue:
            here = queue.popleft()
            for there in board.neighbours(here):
                side = board.hexside(here, there)
                if there in table or (side.river and side.bridge is None):
                    continue
                table[there] = table[here] + 1
                queue.append(there)
        tables[objective] = table
    _steps[id(board)] = (board, tables)
    return tables


class Greedy:
    """One decision of the greedy player: the board, the state, and the side choosing."""

    def __init__(self, board: Board, state: KState) -> None:
        self.board = board
        self.state = state
        if state.battle is not None:
            self.side = combat.to_act(board, state)
        elif state.phase is Phase.REDEPLOYMENT or state.active is None:
            self.side = GERMAN
        else:
            self.side = board.formations[state.active].side
        tables = steps_to_objectives(board)
        wanted = [h for h in tables if holder(board, state, h) != self.side]
        self.wanted = [tables[h] for h in wanted] or list(tables.values())

    def distance(self, hex_id: str) -> int:
        return min((table.get(hex_id, FAR) for table in self.wanted), default=FAR)

    def value(self, command: Command) -> float:
        if isinstance(command, Move):
            return self.move_value(command)
        if isinstance(command, Fire):
            return self.fire_value(command)
        if isinstance(command, Support):
            return command.points
        if isinstance(command, HitUnit):
            return self.hit_value(command.unit)
        if isinstance(command, Capture):
            target = self.state.battle.target if self.state.battle else ""
            return 2.0 if target in self.board.objectives() else -1.0
        if isinstance(command, Stay):
            return 1.0
        if isinstance(command, Retreat):
            return -0.5 if command.to == OFF else -STEP_VALUE * self.distance(command.to)
        return 0.0  # end, and the referee's steps

    def move_value(self, move: Move) -> float:
        board, state = self.board, self.state
        here = state.hex[move.unit]
        end = move.path[-1]
        before = self.distance(here) if here is not None else self.distance(end) + 1
        score = STEP_VALUE * (before - self.distance(end))
        kind = board.hexes[end].objective
        if kind is not None and holder(board, state, end) != self.side:
            score += OBJECTIVE_VP[kind]
        left = board.hexes[here].objective if here is not None else None
        if left is not None and state.occupants(here or "") == [move.unit]:
            score -= OBJECTIVE_VP[left] + 1
        return score

    def fire_value(self, fire: Fire) -> float:
        board, state = self.board, self.state
        total = sum(combat.unit_fire(board, state, u, fire.target, fire.verb == "mobile-fire")[0]
                    for u in fire.units)
        af = total + combat.terrain(board, state, fire.units, fire.target)[0]
        hit = min(max(af - 1, 0), 6) / 6
        exchange = 1 / 6 if 1 <= af <= 6 else 0.0
        # Using fewer units for the same chance keeps the others for their own Operations.
        return 2 * hit - exchange / 2 - 0.01 * len(fire.units)

    def hit_value(self, unit: str) -> float:
        hits = self.state.hits[unit]
        if self.board.units[unit].side != self.side:
            return {2: 2.0, 0: 1.0, 1: 0.5}[hits]  # eliminate, else spoil an undamaged unit
        return {1: 2.0, 0: 1.0, 2: 0.0}[hits]  # no VP lost, then 1, elimination last


def greedy_policy(state: KState, legal: Sequence[Command], rng: random.Random, *,
                  board: Board | None = None) -> Command:
    """The command worth the most Victory Points now, by ``Greedy``'s reckoning, on ``board``
    (the engine passes its own; by default the bundled scenario's)."""
    if len(legal) == 1:
        return legal[0]
    chooser = Greedy(board if board is not None else engine_board(), state)
    scored = [(chooser.value(c), rng.random(), i) for i, c in enumerate(legal)]
    return legal[max(scored)[2]]


POLICIES: dict[str, Any] = {"greedy": greedy_policy}
