"""The explosives: the seed's worked statements as named tests (logs in ``examples/``), the
illegal log of ``logs/arnhem44/``, the hidden crate values kept out of every view, and the
bridge points that destroyed bridges take away."""

from __future__ import annotations

import re
from pathlib import Path

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.explosives import bridge_points, standing
from tests.games.arnhem44.helpers import replayed

from ...conftest import LOGS

FOLDER = Path(__file__).parent / "examples"
MARK = re.compile(r"^# illegal \[([^\]]+)\]: ")



def events(report: Report, kind: str) -> list[str]:
    return [e.event.text for e in report.events if e.event.kind == kind]


def test_phase_3_2_blowing_up_bridges_a_5_becomes_a_4_a_0_burns_out_a_hit_destroys() -> None:
    """How to Use Explosives: higher than the crate -> value minus one; 0 -> the crate is
    removed, the bridge stands; at or under the crate -> the bridge and all its crates go."""
    report = replayed(FOLDER / "Phase3.2-blowing-up-bridges.log")
    texts = events(report, "detonate")
    assert "the crate becomes a 4" in texts[0]
    assert "burns out" in texts[1] and "the bridge stands" in texts[1]
    assert "Son-bridge blows up" in texts[2]
    state = report.state_json()
    assert state is not None
    assert state["explosives"]["crates"] == {}
    assert state["explosives"]["destroyed"] == ["Son-bridge"]


def test_phase_3_1_diffuse_german_first_higher_defuses_lower_does_nothing_zero_loses() -> None:
    report = replayed(FOLDER / "Phase3.1-diffuse-explosive-charges.log")
    texts = events(report, "defuse")
    assert "defused, back in his stock" in texts[0]
    assert "nothing happens" in texts[1]
    assert "bridge is destroyed after all" in texts[2]
    assert [p.rule for p in report.problems] == ["Phase 3.1"]


def test_phase_3_3_install_four_or_less_under_a_major_bridge_and_the_exchange() -> None:
    report = replayed(FOLDER / "Phase3.3-install-explosive-charges.log")
    assert [p.rule for p in report.problems] == ["Phase 3.3", "Bridges", "Explosives in General"]
    assert events(report, "swap") == ["German exchanges a crate of 6 from his stash for a 4"]


def test_set_up_explosives_in_general_any_bridge_values_concealed() -> None:
    report = replayed(FOLDER / "SetUp-explosives-in-general.log")
    assert [p.rule for p in report.problems] == ["Bridges"]
    assert len(events(report, "commit")) == 2


def test_illegal_explosives_log_reports_each_marked_line_with_its_heading() -> None:
    path = LOGS / "arnhem44" / "illegal-explosives.log"
    lines = path.read_text(encoding="utf-8").splitlines()
    marked = {(n, MARK.match(lines[n - 2]).group(1))  # type: ignore[union-attr]
              for n in range(2, len(lines) + 1)
              if MARK.match(lines[n - 2]) and not lines[n - 1].startswith("#")}
    report = replayed(path)
    assert {(p.line, p.rule) for p in report.problems} == marked
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    rules = {rule for _, rule in marked}
    assert rules == {"Phase 3.1", "Phase 3.2", "Phase 3.3", "Bridges", "Explosives in General"}


def test_a_face_down_crate_shows_no_value_in_any_view() -> None:
    """The German Player Goes First: "He must conceal the numeric value": the state, the
    pending decision and the text view never hold a face-down crate's value."""
    text = ('[Game "arnhem44"]\nsetup: clear; round 3; phase 3.1-german\n'
            "setup: place 1 inf Eindhoven; place 1 inf/UK Zon\n"
            "setup: crate Son-bridge hidden; unseen 7 6; stock 1\n"
            "german: pass\nallied: defuse Son-bridge {d10: 7}\n")
    report = replay(parse_log(text, "hidden.log", engine=ENGINE), ENGINE)
    assert report.problems == []
    state = report.state_json()
    assert state is not None
    assert state["explosives"]["crates"] == {"Son-bridge": [{"value": None, "tried": True}]}
    pending = report.pending()
    assert pending is not None and pending["side"] == "german"
    # the choices are the values the crate may hold by what is known (7 or 6), not its own:
    # a 7 defuses a 6 and not a 7, so the outcome needs the value (the reading of a value shown)
    assert pending["choices"] == ["reveal 6", "reveal 7"]


def test_phase_3_1_a_defusing_roll_that_fails_whatever_the_crate_holds_asks_no_value() -> None:
    """Phase 3.1: a roll no higher than the crate's value: "nothing happens, the explosives
    stay in place"; with values 7 and 6 unseen a 6 fails whatever it holds, so the table
    shows nothing and the crate stays face down (the reading of a value shown).  A log
    written before that reading shows the value on the next line, and that stays legal."""
    text = ('[Game "arnhem44"]\nsetup: clear; round 3; phase 3.1-german\n'
            "setup: place 1 inf Eindhoven; place 1 inf/UK Zon\n"
            "setup: crate Son-bridge hidden; unseen 7 6; stock 1\n"
            "german: pass\nallied: defuse Son-bridge {d10: 6}\n")
    report = replay(parse_log(text, "hidden.log", engine=ENGINE), ENGINE)
    assert report.problems == []
    state = report.state_json()
    assert state is not None
    assert state["explosives"]["crates"]["Son-bridge"][0]["value"] is None
    assert state["explosives"]["waiting"] is None
    pending = report.pending()
    assert pending is not None and not any(c.startswith("reveal") for c in pending["choices"])
    assert any("nothing happens" in e.event.text for e in report.events)
    shown = replay(parse_log(text + "german: reveal 7\n", "hidden.log", engine=ENGINE), ENGINE)
    assert shown.problems == []
    after = shown.state_json()
    assert after is not None and after["explosives"]["crates"]["Son-bridge"][0]["value"] == 7
    assert after["explosives"]["unseen"] == [6]
    # a value the crate cannot hold is refused; a late value one line too late is too
    wrong = replay(parse_log(text + "german: reveal 5\n", "hidden.log", engine=ENGINE), ENGINE)
    assert [p.rule for p in wrong.problems] == ["Explosives in General"]
    late = replay(parse_log(text + "german: pass\ngerman: reveal 7\n", "hidden.log",
                            engine=ENGINE), ENGINE)
    assert [p.line for p in late.problems] == [8]


def test_bridge_points_sum_to_100_minus_the_destroyed_bridges() -> None:
    report = replayed(FOLDER / "Phase3.2-blowing-up-bridges.log")
    state = report.state
    points = bridge_points(ENGINE.board, state)
    son = ENGINE.board.bridges["Son-bridge"].value
    assert "Son-bridge" not in standing(ENGINE.board, state)
    assert sum(points.values()) == 100 - son


def test_reinforcement_crates_go_to_the_german_stock() -> None:
    """How to Use Explosives: "During play the German player receives another 7 crates"."""
    text = ('[Game "arnhem44"]\nsetup: clear; round 2; phase 6.3; unseen 7; stock 1\n')
    state = replay(parse_log(text, "r.log", engine=ENGINE), ENGINE).state
    assert state is not None
    work = ENGINE.copy(state)
    from referee.games.arnhem44.reserves import due_german

    due_german(ENGINE.board, work)
    round_two = [c for r in ENGINE.board.scenario.forces.german_reserves if r.round == 2
                 for c in r.crates]
    assert work.explosives.stock == 1 + len(round_two)
    assert ENGINE.invariants(work) == []
