"""Issue 26, rulings: each test is named after the case it covers and quotes the seed
(``koenig-eindhoven-bridge.txt``); the readings are rows of
``docs/koenig-eindhoven-interpretations.md``."""

from __future__ import annotations

from referee.api import replay_text
from referee.core.replay import Report

HEADER = '[Game "koenig-eindhoven"]\n'
DAY = ("setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; "
       "active 506\n")


def problems(report: Report) -> list[tuple[int | None, str | None, str]]:
    return [(p.line, p.rule, p.message) for p in report.problems]


# -- 8.1.1 Prohibited Terrain: off the map, and retreats across a River hexside ------------

def test_8_1_1_a_move_off_the_map_is_read_and_refused() -> None:
    """8.1.1: "Units may not move across River hexsides except at Bridges) nor off the map
    into 'imaginary' adjacent hexes."  0111 is on the map edge; ``->off`` is read (it is not
    an unknown hex) and refused citing 8.1.1."""
    report = replay_text(HEADER + DAY + "setup: place 1/506 0111\n"
                         "allied: move 1/506 0111->off\n"
                         "allied: combined 1/506 0111->0110->off\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(4, "8.1.1"), (5, "8.1.1")]
    assert "off the map into 'imaginary' adjacent hexes" in found[0][2]
    state = report.state_json()
    assert state is not None
    assert {u["id"]: u["hex"] for u in state["units"]}["1/506"] == "0111"


def test_8_1_1_night_redeployment_off_the_map_is_refused() -> None:
    """8.1.1 holds for every move, the German night redeployment (4.0) too."""
    report = replay_text(HEADER + "setup: clear; turn 3; phase redeployment; place 1/935 0111\n"
                         "german: redeploy 1/935 0111->off\n")
    assert [(line, rule) for line, rule, _ in problems(report)] == [(3, "8.1.1")]


def test_8_1_1_a_retreat_may_not_cross_a_river_hexside() -> None:
    """8.1.1 "Units may not move across River hexsides except at Bridges"; 11.0 "Units are
    always Retreated by their owning player into an adjacent hex" (K30: a retreat is a move,
    so it crosses a River hexside only at a bridge).  0110-0210 is the Wilhelmina canal."""
    report = replay_text(HEADER + DAY + "setup: place MG/506 0109; place 1/935 0110\n"
                         "allied: full-fire 0110 with MG/506\n"
                         "roll {d6: 1}\n"
                         "german: retreat 1/935->0210\n"
                         "german: retreat 1/935->0209\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(6, "8.1.1")]
    assert "across a River hexside" in found[0][2]
    state = report.state_json()
    assert state is not None
    assert {u["id"]: u["hex"] for u in state["units"]}["1/935"] == "0209"
