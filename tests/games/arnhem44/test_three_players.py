"""Veterans Only, option 3 (three players) in phase 1 and with the jokers: the barrage order
without an initiative roll, the Allied player stepping in, and the first Allied joker handed to
the German (examples ``Veterans-three-players-*.log``; readings A44 and A45)."""

from __future__ import annotations

import pytest

from referee.core.dice import DiceTray
from referee.core.errors import IllegalMove
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44 import barrage, jokers
from referee.games.arnhem44.commands import Initiative
from referee.games.arnhem44.engine import ENGINE
from tests.games.arnhem44.helpers import EXAMPLES, replayed, texts

THREE = '[Game "arnhem44"]\n[Option "three-players"]\n'


def position(body: str) -> str:
    return THREE + body.strip() + "\n"


def test_veterans_3_barrage_has_no_initiative_roll() -> None:
    report = replay(parse_log(position("""
setup: clear; round 9; phase 1
setup: place 1 art/UK Zeeland; place 2 inf Gassel
"""), "three.log", engine=ENGINE), ENGINE)
    state = report.state
    assert ENGINE.to_act(state) == "uk"
    with pytest.raises(IllegalMove, match="no rolling the dice concerning the initiative") as e:
        ENGINE.apply(state, Initiative(), DiceTray(None, recorded=(1, 2), recorded_sides=10))
    assert e.value.rule == "Veterans/3"


def test_veterans_3_barrage_order_uk_german_us_german() -> None:
    report = replayed("Veterans-three-players-barrage.log")
    assert [(p.line, p.rule) for p in report.problems] == [(17, "Veterans/3")]
    fired = [t.split(" barrage from")[0] for t in texts(report) if " barrage from " in t]
    assert fired == ["UK", "German", "US"]
    skips = [t.split(" skips")[0] for t in texts(report) if " skips:" in t]
    assert skips == ["German", "UK", "US"]


def test_veterans_3_the_other_ally_steps_in() -> None:
    report = replayed("Veterans-three-players-barrage-step-in.log")
    assert report.problems == []
    fired = [t.split(" barrage from")[0] for t in texts(report) if " barrage from " in t]
    assert fired == ["US", "German", "US"]


def test_jokers_three_players_the_first_allied_joker_goes_to_the_german() -> None:
    report = replayed("Veterans-three-players-barrage.log")
    passed = [t for t in texts(report) if "hands the card over" in t]
    assert passed == ["UK used the first Allied joker and hands the card over to the German "
                      "player (Jokers, three players)"]
    assert report.state.jokers == {"uk": 0, "us": 0, "german": 2}


def test_jokers_three_players_a_joker_move_is_the_players_own() -> None:
    report = replayed("Veterans-three-players-joker-move.log")
    assert [p.rule for p in report.problems] == ["Units/In General"]
    assert report.state.jokers == {"uk": 0, "us": 0, "german": 2}


def test_jokers_three_players_hold_one_each_and_positions_name_them() -> None:
    state = ENGINE.setup(None, {"three-players": "on"})
    assert state.jokers == {"uk": 1, "us": 1, "german": 1}
    assert jokers.holders(state) == ("uk", "us", "german")
    state.jokers = {"uk": 0, "us": 1, "german": 2}
    lines = ENGINE.position(state)
    assert "setup: jokers uk 0" in lines and "setup: jokers german 2" in lines
    rebuilt = replay(parse_log(THREE + "\n".join(lines) + "\n", "p.log", engine=ENGINE), ENGINE)
    assert rebuilt.problems == []
    assert rebuilt.state.jokers == state.jokers


def test_positions_of_phase_1_name_the_allied_turn_and_the_skips() -> None:
    path = EXAMPLES / "Veterans-three-players-barrage.log"
    text = path.read_text(encoding="utf-8")
    upto = text.splitlines().index("german: barrage 1 art Schaijk->Zeeland {d10: 9 9 9 9 9 9}")
    before = replay(parse_log(text, path.name, engine=ENGINE), ENGINE, upto=upto + 1)
    state = before.state
    assert (state.barrage_turn, state.part, ENGINE.to_act(state)) == ("allied", "us", "us")
    lines = ENGINE.position(state)
    assert "setup: part us" in lines
    rebuilt = replay(parse_log(THREE + "\n".join(lines) + "\n", "p.log", engine=ENGINE), ENGINE)
    assert rebuilt.problems == []
    assert ENGINE.to_json(rebuilt.state) == ENGINE.to_json(state)
    assert barrage.firer(ENGINE.board, rebuilt.state, "allied") == "us"


def test_a_position_may_not_give_the_allied_turn_when_both_allies_skipped() -> None:
    report = replay(parse_log(position("""
setup: clear; round 9; phase 1
setup: place 1 art/UK Zeeland; place 2 inf Gassel; place 1 art Schaijk
setup: barrage-over uk; barrage-over us
"""), "three.log", engine=ENGINE), ENGINE)
    assert any("both Allied players have skipped" in p.message for p in report.problems)
