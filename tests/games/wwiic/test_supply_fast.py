"""The supply check's Allied search made once per target (``supply.AlliedSupply``, issue 31)
answers as ``allied_in_supply``, each unit's own search, does: on random positions (random
control of every space, units scattered, the Polish marker placed or not, special river
crossers of the turn before), for every Allied unit."""

from __future__ import annotations

import random

from referee.games.wwiic.board import ALLIED, SPACE
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.supply import AlliedSupply, allied_in_supply, road_net

BOARD = ENGINE.board


def test_the_bundled_board_takes_the_fast_search() -> None:
    assert BOARD.supply_symmetric


def test_the_fast_search_answers_as_each_units_own() -> None:
    rng = random.Random(31)
    spaces = sorted(p for p, kind in BOARD.kind.items() if kind == SPACE)
    allied = sorted(u for u in BOARD.units if BOARD.side_of[u] == ALLIED)
    answers = {True: 0, False: 0}
    for _ in range(400):
        state = ENGINE.setup(None, {})
        state.turn = rng.randrange(2, 14)
        share = rng.random()
        state.allied_control = {p for p in spaces if rng.random() < share}
        for unit in allied:
            state.location[unit] = rng.choice([*spaces, *spaces, None])
            if rng.random() < 0.1:
                state.special_crossers[unit] = state.turn - rng.randrange(1, 3)
        state.polish_marker = rng.choice([None, *spaces])
        roads = road_net(BOARD, state)
        fast = AlliedSupply(BOARD, state, roads)
        for unit in rng.sample(allied, len(allied)):  # in any order: nothing carries over
            expected = allied_in_supply(BOARD, state, unit, roads)
            assert fast(unit) == expected, (unit, state.location[unit])
            answers[expected] += 1
    assert min(answers.values()) > 1000  # both answers, many times over
