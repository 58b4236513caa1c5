"""The supply check's searches made once per target (``supply.AlliedSupply``,
``supply.GermanSupply``, issue 31) answer as ``allied_in_supply`` and ``german_in_supply``,
each unit's own search, do: on random positions (random control of every space, units
scattered, the Polish marker placed or not, special river crossers of the turn before), for
every unit."""

from __future__ import annotations

import random

from referee.games.wwiic.board import ALLIED, GERMAN, SPACE
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.supply import (
    AlliedSupply,
    GermanSupply,
    allied_in_supply,
    german_in_supply,
    german_sources,
    road_net,
)

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


def test_the_german_search_answers_as_each_units_own() -> None:
    """German units anywhere (map spaces, the ferry box, off-map boxes), random control."""
    rng = random.Random(32)
    spaces = sorted(p for p, kind in BOARD.kind.items() if kind == SPACE)
    others = sorted(p for p, kind in BOARD.kind.items() if kind != SPACE)
    german = sorted(u for u in BOARD.units if BOARD.side_of[u] == GERMAN)
    answers = {True: 0, False: 0}
    banks = list(BOARD.ferry_banks)
    for round_ in range(600):
        state = ENGINE.setup(None, {})
        share = rng.random() if round_ % 2 else 0.6 + 0.4 * rng.random()  # sparse paths too
        state.allied_control = {p for p in spaces if rng.random() < share}
        state.allied_control -= set(banks) if round_ % 3 == 0 else set()  # the ferry's way
        for unit in german:
            state.location[unit] = rng.choice([*spaces, *spaces, *spaces, *others, *banks,
                                               None])
        sources = german_sources(BOARD, state)
        fast = GermanSupply(BOARD, state, sources)
        for unit in rng.sample(german, len(german)):
            expected = german_in_supply(BOARD, state, unit, sources)
            assert fast(unit) == expected, (unit, state.location[unit])
            answers[expected] += 1
    assert min(answers.values()) > 1000


def _path(start: str, ends: set[str]) -> list[str]:
    """The places of a shortest overland supply path from ``start`` to one of ``ends``,
    whatever the control (``[]`` for none)."""
    back: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for here in frontier:
            if here in ends:
                found: list[str] = []
                at: str | None = here
                while at is not None:
                    found.append(at)
                    at = back[at]
                return found
            for nxt in BOARD.supply_exits[here]:
                if nxt not in back:
                    back[nxt] = here
                    following.append(nxt)
        frontier = following
    return []


def test_a_german_supply_path_across_the_ferry() -> None:
    """German control on one bank, the other, and a path from there to a formation's
    sources, the Allies everywhere else: a unit on the first bank is supplied across the
    Pannerden Ferry, or not, as each unit's own search says."""
    spaces = {p for p, kind in BOARD.kind.items() if kind == SPACE}
    supplied = 0
    for formation in sorted({BOARD.units[u].formation for u in BOARD.units
                             if BOARD.side_of[u] == GERMAN}):
        unit = next(u for u in BOARD.unit_order if BOARD.units[u].formation == formation)
        ends = {s for box in BOARD.boxes.values() if box.formation == formation
                for s in box.spaces}
        for here, there in (BOARD.ferry_banks, BOARD.ferry_banks[::-1]):
            state = ENGINE.setup(None, {})
            german = {here, *_path(there, ends)}
            state.allied_control = spaces - german
            state.location[unit] = here
            sources = german_sources(BOARD, state)
            expected = german_in_supply(BOARD, state, unit, sources)
            assert GermanSupply(BOARD, state, sources)(unit) == expected, (formation, here)
            supplied += expected
    assert supplied > 0
