"""Every worked example of the seed's rules 5-8, as a setup log (tests/.../examples) and a
named test; the 8.1 example on the shipped scenario file hilltop.toml (the reconstruction has
no hilltop)."""

from __future__ import annotations

import pytest

from referee.core.dice import DiceTray
from referee.core.parsing import read_log
from referee.core.replay import replay
from referee.games.koenig_eindhoven.engine import ENGINE, KoenigEngine
from referee.games.koenig_eindhoven.movement import Occupancy, step
from referee.games.koenig_eindhoven.position import SetupStatement
from referee.games.koenig_eindhoven.state import Phase

from .conftest import HERE, SCENARIO_FILES, expected, hilltop_board, problems, run

EXAMPLES = HERE / "examples"


def test_5_0_paratroop_landing_example_intact_and_never_arrives() -> None:
    report = run(EXAMPLES / "5.0-paratroop-landing-1.log")
    assert report.problems == []
    texts = [e.event.text for e in report.events]
    assert "Paratroop Landing Table 2: 2/327 arrives intact" in texts
    assert any("3/327 never arrives" in t for t in texts)


def test_5_0_paratroop_landing_example_one_and_two_hits() -> None:
    report = run(EXAMPLES / "5.0-paratroop-landing-2.log")
    assert report.problems == []


@pytest.mark.parametrize(("face", "result"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2),
                                              (6, "never")])
def test_5_0_paratroop_landing_table_every_face(face: int, result: object) -> None:
    state = ENGINE.setup(None, {})
    ENGINE.place(state, SetupStatement("setup_turn", number=6))
    ENGINE.place(state, SetupStatement("setup_phase", word="landing"))
    tray = DiceTray(None, recorded=(face,), recorded_sides=6)
    from referee.games.koenig_eindhoven.commands import Landing

    ENGINE.apply(state, Landing("2/327"), tray)
    if result == "never":
        assert state.status["2/327"] == "never arrived"
    else:
        assert state.hits["2/327"] == result and state.status["2/327"] == "due"


@pytest.mark.parametrize(("artillery", "support"), [(1, 2), (3, 4), (5, 6)])
def test_6_1_and_6_2_support_bands(artillery: int, support: int) -> None:
    from referee.api import replay_text

    text = (
        '[Game "koenig-eindhoven"]\n'
        f"artillery {{d6: {artillery}}}\nallied-support {{d6: {support}}}\n"
    )
    state = replay_text(text).state_json()
    assert state is not None
    band = (artillery + 1) // 2
    assert state["points"] == {"artillery": band, "allied-support": band}
    assert run(EXAMPLES / "6-support.log").problems == []


def test_7_1_1_firing_in_concert_example() -> None:
    path = EXAMPLES / "7.1.1-firing-in-concert.log"
    assert problems(run(path)) == expected(path)


def test_8_3_no_zones_of_control_example() -> None:
    report = run(EXAMPLES / "8.3-no-zoc.log")
    assert report.problems == []
    assert any("3 of 5 MP" in e.event.text for e in report.events)


def test_8_1_movement_cost_example_on_a_fixture_map() -> None:
    board = hilltop_board()
    state = KoenigEngine(board).setup(None, {})
    state.hex["1/935"] = "0215"
    state.status["1/935"] = "in play"
    occ = Occupancy(board, state)
    cost = step(board, occ, "allied", "0214", "0215")
    assert cost.close_combat and cost.cost == 6  # 2 + 1 + 3, the example's total
    path = SCENARIO_FILES / "hilltop-8.1.log"  # [Scenario "file:hilltop.toml"]
    report = replay(read_log(path))
    assert problems(report) == expected(path)


def test_8_1_bundled_map_has_no_hilltop() -> None:
    assert not any(h.hilltop for h in ENGINE.board.hexes.values())


def test_opening_is_turn_1_support_phase() -> None:
    state = ENGINE.setup(None, {})
    assert state.phase is Phase.SUPPORT and state.turn == 1


def test_10_2_close_combat_support_example() -> None:
    report = run(EXAMPLES / "10.2-close-combat-support.log")
    assert report.problems == []
    fires = [e.event.data for e in report.events if e.event.kind == "close-fire"]
    # Allied 2 against German 1: net +1 to the Allies, -1 to the Germans, every round.
    assert [(f["fire"], f["af"]) for f in fires] == [("defensive", 3), ("offensive", 4)] * 2
