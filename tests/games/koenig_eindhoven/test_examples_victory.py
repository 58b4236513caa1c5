"""The Exclusive 12.0 victory schedule (spec §6: E9) as a named test of its setup log."""

from __future__ import annotations

from referee.api import replay_text

from .conftest import HERE, expected, problems, run

LOG = HERE / "examples" / "12.0-victory.log"


def test_12_0_victory_example_every_vp_line_and_a_tie() -> None:
    report = run(LOG)
    assert problems(report) == expected(LOG) == set()
    state = report.state_json()
    assert state is not None and state["phase"] == "over"
    assert state["outcome"]["result"] == "draw" and state["outcome"]["winner"] is None
    assert state["outcome"]["vp"]["breakdown"] == {
        # 3 star hexes x City 2 + Son 1; 1/935; 1/506 and MG/506; all three red stars
        "allied": {"objectives": 7, "eliminated_enemy": 1, "undamaged_units": 2, "bridges": 5},
        # Eindhoven 2 + Best, Woensel, Tongelre, Stratum 1 each; 1/501, 3/501, 1/502; six
        # units without Hits.  2/501 (off the map) and 2/327 (never arrived) score nothing.
        "german": {"objectives": 6, "eliminated_enemy": 3, "undamaged_units": 6, "bridges": 0},
    }


def test_12_0_victory_two_red_stars_are_no_bonus() -> None:
    # 3/506 leaves the Elzent bridge (1403): its City 2 VP and the +5 VP bonus are gone.
    text = LOG.read_text(encoding="utf-8").replace("place 3/506 1403", "place 3/506 1503")
    text = text.replace("expect vp.allied = 15", "expect vp.allied = 8")
    text = text.replace("expect outcome.result = draw", "expect outcome.result = german victory")
    report = replay_text(text)
    assert report.problems == []
    state = report.state_json()
    assert state is not None
    assert state["outcome"]["winner"] == "german"
    assert state["outcome"]["vp"]["breakdown"]["allied"]["bridges"] == 0
