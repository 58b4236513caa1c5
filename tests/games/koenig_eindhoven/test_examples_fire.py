"""The seed's examples and exact statements of 9.0-9.2 (spec §6: E5, E7), and the Exclusive
9.1.1 bridges, as named tests."""

from __future__ import annotations

from typing import Any

import pytest

from referee.api import replay_text
from referee.games.koenig_eindhoven.engine import ENGINE, KoenigEngine

from .conftest import HERE, fixture_board, run

HEADER = '[Game "koenig-eindhoven"]\n'
SETUP = ("setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; "
         "active 506\n")


def stream_board() -> Any:
    def change(data: dict[str, Any]) -> None:
        for pair in (["0214", "0215"], ["0115", "0215"]):
            data["hexsides.toml"].setdefault("hexsides", []).append(
                {"hexes": pair, "stream": True})

    return fixture_board(change)


def test_9_1_example_woods_and_streams_reduce_the_attack_factor_by_two() -> None:
    report = run(HERE / "examples" / "9.1-terrain.log", KoenigEngine(stream_board()))
    assert report.problems == []
    fire = next(e.event for e in report.events if e.event.kind == "fire")
    assert fire.data["af"] == 8  # 5 + 5, woods -1, all across streams -1
    assert "-1 all attackers across Stream hexsides" in fire.data["modifiers"]


@pytest.mark.parametrize(("face", "result", "hits"), [(3, "hit", (1, 0)),
                                                      (4, "exchange", (1, 1)),
                                                      (5, "miss", (0, 0))])
def test_9_0_resolution_less_is_a_hit_equal_an_exchange_greater_a_miss(
        face: int, result: str, hits: tuple[int, int]) -> None:
    # MG/506 (CS 3) fires at 1/935 in clear 0213 (+1): AF 4.
    text = (HEADER + SETUP + "setup: place MG/506 0114; place 1/935 0213\n"
            "allied: full-fire 0213 with MG/506\n"
            f"roll {{d6: {face}}}\n")
    if result != "miss":
        text += "german: stay\n"
    if result == "exchange":
        text += "allied: stay\n"
    report = replay_text(text)
    assert report.problems == []
    rolled = next(e.event for e in report.events if e.event.kind == "roll")
    assert rolled.data == {"roll": face, "af": 4, "result": result}
    state = report.state_json()
    assert state is not None
    units = {u["id"]: u for u in state["units"]}
    assert (units["1/935"]["hits"], units["MG/506"]["hits"]) == hits


def test_9_2_a_third_hit_eliminates_and_2_hits_cost_one_cs() -> None:
    text = (HEADER + SETUP + "setup: place 1/506 0114 hits 2; place 1/935 0213 hits 2\n"
            "allied: full-fire 0213 with 1/506\nroll {d6: 1}\n")
    report = replay_text(text)
    assert report.problems == []
    fire = next(e.event for e in report.events if e.event.kind == "fire")
    assert fire.data["af"] == 5  # CS 5, 2 Hits -1, clear +1
    state = report.state_json()
    assert state is not None
    units = {u["id"]: u for u in state["units"]}
    assert units["1/935"]["status"] == "eliminated" and units["1/935"]["hex"] is None
    assert state["vp"]["breakdown"]["allied"]["eliminated_enemy"] == 1


def test_9_1_1_large_bridge_halves_and_small_bridge_takes_one() -> None:

    board = ENGINE.board
    large = [(a, b) for key, side in board.hexsides.items() if side.bridge == "large"
             for a, b in [sorted(key)]]
    small = [(a, b) for key, side in board.hexsides.items() if side.bridge == "small"
             for a, b in [sorted(key)]]
    from referee.games.koenig_eindhoven.combat import unit_fire

    for pairs, expected in ((large, 3), (small, 4)):
        a, b = pairs[0]
        state = ENGINE.setup(None, {})
        state.hex["1/506"], state.status["1/506"] = a, "in play"
        assert unit_fire(board, state, "1/506", b, mobile=False)[0] == expected
    a, b = large[0]
    state.hex["1/506"] = a
    assert unit_fire(board, state, "1/506", b, mobile=True)[0] == 2  # half of 3, up
