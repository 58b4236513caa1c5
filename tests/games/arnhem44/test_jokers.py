"""Jokers on the one-die throws, on the combat roll, and before a crossing (issue 25, item 4).

Jokers: "To counter a single throw of one D10 when a ZERO is rolled: reroll the D10, but the
next result stands!"; "ALL units from one single sector gain an extra movement point ... A
joker cannot be used to cross a river or canal; it can however be used to move infantry units
that so need an extra sector AFTER the unit has crossed the waterway."  Readings A38, A46, A47.
"""

from __future__ import annotations

from typing import Any

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE
from tests.games.arnhem44.helpers import EXAMPLES, replayed


def replay_text(text: str) -> Report:
    return replay(parse_log(text, "jokers.log", engine=ENGINE), ENGINE)


def dice_of(report: Report, line: int) -> list[list[int]]:
    return [list(r.faces) for e in report.events if e.line == line for r in e.event.rolls]


def bridge(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(b for b in state["bridges"] if b["id"] == name)


def test_ten_sided_dice_jokers_defusing_and_detonation_throws() -> None:
    """Ten-Sided Dice: a 0 "rolled in an attempt to defuse a crate of dynamite: the operation
    fails and the bridge is destroyed after all"; "rolled to detonate a box of dynamite: the
    dynamite fails to explode".  Jokers: "To counter a single throw of one D10 when a ZERO is
    rolled: reroll the D10, but the next result stands!"  The Allied 0 rerolled to a 7 defuses
    the crate of 5 ("HIGHER than the number on the crate"); the German 0 rerolled to a 3 blows
    the crate of 4 ("lower or equal to the numeric value")."""
    report = replayed("Jokers-one-die-throws.log")
    assert report.problems == []
    assert dice_of(report, 14) == [[0], [7]]
    assert dice_of(report, 18) == [[0], [3]]
    state = report.state_json()
    assert state is not None
    assert bridge(state, "Son-bridge")["state"] == "intact"
    assert bridge(state, "Grave-bridge")["state"] == "destroyed"
    assert state["jokers"]["held"] == {"allied": 0, "german": 0}
    # without the joker the same first die stands: the defusing 0 loses the bridge, the
    # detonating 0 burns the crate out and the bridge stands
    text = (EXAMPLES / "Jokers-one-die-throws.log").read_text(encoding="utf-8")
    plain = replay_text(text.replace(" joker {d10: 0 7}", " {d10: 0}")
                        .replace(" joker {d10: 0 3}", " {d10: 0}"))
    after = plain.state_json()
    assert after is not None
    assert bridge(after, "Son-bridge")["state"] == "destroyed"
    assert bridge(after, "Grave-bridge")["state"] == "intact"
    assert after["explosives"]["crates"] == {}


def test_jokers_a_one_die_throw_without_a_zero_keeps_the_joker() -> None:
    """"when a ZERO is rolled": a defusing 6 is no zero; the joker written on it is kept."""
    report = replay_text('[Game "arnhem44"]\nsetup: clear; round 3; phase 3.1-allied\n'
                         "setup: place 1 inf/UK Zon; crate Son-bridge 5\n"
                         "setup: unseen; stock 0\n"
                         "allied: defuse Son-bridge joker {d10: 6}\n")
    assert report.problems == []
    state = report.state_json()
    assert state is not None and state["jokers"]["held"]["allied"] == 1
    assert "joker-kept" in [e.event.kind for e in report.events]


def test_jokers_a_spent_joker_on_a_one_die_throw_is_refused_before_the_die() -> None:
    """"A player can use a joker but once": refused with the rule, and no die is asked for."""
    report = replay_text('[Game "arnhem44"]\nsetup: clear; round 3; phase 3.2\n'
                         "setup: place 1 inf Grave; crate Grave-bridge 4\n"
                         "setup: unseen; stock 0; jokers german 0\n"
                         "german: detonate Grave-bridge joker\n")
    (problem,) = report.problems
    assert (problem.rule, str(problem.kind)) == ("Jokers", "illegal-move")
    assert "but once" in problem.message


def test_jokers_on_the_combat_roll_the_holders_own_hit_dice() -> None:
    """Phase 4.2: "in theory both players roll the dice at the same time": each side's hit
    dice are its own throw.  The German's first 0 is rerolled right after his hit dice (a 2,
    a hit at Achel's forest 6), then his one distribution die; the Allied dice pass as they
    are.  A joker where the player rolls no hit die (artillery facing infantry: "It cannot hit
    anything but tanks") is refused, not spent."""
    report = replayed("Jokers-combat.log")
    assert {(p.line, p.rule) for p in report.problems} == {(12, "Jokers"), (19, "Jokers"),
                                                           (21, "Jokers")}
    assert "rolls no hit die" in next(p.message for p in report.problems if p.line == 19)
    assert dice_of(report, 15) == [[9, 9], [0, 9], [2], [1]]
    used = [e.event.data for e in report.events if e.event.kind == "joker"]
    assert used == [{"side": "german", "used": "reroll", "face": 2}]
    state = report.state_json()
    assert state is not None
    assert state["jokers"]["held"] == {"allied": 1, "german": 0}
    # 1 of its 2 hit points: "Units that lose half or more hit points ... must withdraw"
    assert [e.event.kind for e in report.events if e.line == 15][-1] == "must-withdraw"


def test_jokers_three_players_combat_joker_counters_only_the_players_own_dice() -> None:
    """Veterans/3: "Allied players CANNOT move or fight but with their own units": the US
    joker on a combat roll rerolls the first 0 of the US figures' dice, never the UK's."""
    report = replay_text('[Game "arnhem44"]\n[Option "three-players"]\n'
                         "setup: clear; round 9; phase 4.2\n"
                         "setup: place 1 inf/UK Achel; place 1 inf/82 Achel; place 1 tank Achel\n"
                         "setup: combat Achel\n"
                         "combat Achel joker us {d10: 0 9 9 9 | 9 9 9 9}\n")
    assert report.problems == []
    # the UK infantry's 0 is no US die: nothing is rerolled and the US joker is kept
    assert dice_of(report, 6) == [[0, 9], [9, 9], [9, 9, 9, 9]]
    assert "joker-kept" in [e.event.kind for e in report.events if e.line == 6]
    state = report.state_json()
    assert state is not None
    assert state["jokers"]["held"] == {"uk": 1, "us": 1, "german": 1}
    # a 0 of the 82nd's (US) dice is the US player's own: rerolled, and the first Allied joker
    # used goes to the German ("hands over his card to the German player")
    used = replay_text('[Game "arnhem44"]\n[Option "three-players"]\n'
                       "setup: clear; round 9; phase 4.2\n"
                       "setup: place 1 inf/UK Achel; place 1 inf/82 Achel; place 1 tank Achel\n"
                       "setup: combat Achel\n"
                       "combat Achel joker us {d10: 9 9 0 9 | 2 | 1 | 9 9 9 9}\n")
    assert used.problems == []
    assert dice_of(used, 6) == [[9, 9], [0, 9], [2], [1], [9, 9, 9, 9]]
    after = used.state_json()
    assert after is not None
    assert after["jokers"]["held"] == {"uk": 1, "us": 0, "german": 2}


def test_jokers_extra_movement_point_after_the_crossing() -> None:
    """Infantry: "Crossing a waterway without a bridge consumes all movement points of that
    unit.* * The joker cannot be used to cross a waterway, but only to move the unit(s) an extra
    sector AFTER crossing."  Played before the crossing, the joker is not lost in it: the
    figures cross on their own 2 points and go one sector on; a figure of another sector has
    none left."""
    report = replayed("Jokers-after-the-crossing.log")
    assert {(p.line, p.rule) for p in report.problems} == {(18, "Move/Contact"),
                                                           (22, "Move/Contact")}
    state = report.state_json()
    assert state is not None
    borkel = next(s for s in state["sectors"] if s["id"] == "Borkel")
    assert borkel["units"] == {"allied": {"UK": {"inf": 2}}}
    assert state["jokers"]["held"]["allied"] == 0


def test_jokers_a_night_fall_back_of_infantry_rolls_nothing_to_counter() -> None:
    """Fall Back: "Infantry can always retreat or fall back at night without being spotted":
    no spotting die, no fight, so a joker written on it counters nothing and is refused (kept),
    before anything moves; the same fall back without the word is legal."""
    text = ('[Game "arnhem44"]\nsetup: clear; round 10; phase 4.1\n'
            "setup: place 2 inf/UK Achel; place 1 inf Achel\n"
            "allied: fall-back 2 inf/UK Achel->Borkel joker\n"
            "allied: fall-back 2 inf/UK Achel->Borkel\n")
    report = replay_text(text)
    (problem,) = report.problems
    assert (problem.line, problem.rule) == (4, "Jokers")
    state = report.state_json()
    assert state is not None
    assert state["jokers"]["held"]["allied"] == 1
    borkel = next(s for s in state["sectors"] if s["id"] == "Borkel")
    assert borkel["units"] == {"allied": {"UK": {"inf": 2}}}
