"""The seed's worked examples for the ground war, each a log in ``examples/``.

A log sets up the example's situation with ``setup:`` lines, plays it with the dice the example
states (``{d10: ...}``, faces 0-9) and asserts the outcome with ``expect`` lines.  A comment
``# illegal [RULE]: why`` just before an action line says that line breaks RULE; every other
line must replay cleanly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE
from tests.games.arnhem44.helpers import EXAMPLES, marked_lines, replayed

FOLDER = EXAMPLES
LOGS = sorted(FOLDER.glob("*.log"))


def dice_of(report: Report, line: int) -> list[list[int]]:
    return [list(r.faces) for e in report.events if e.line == line for r in e.event.rolls]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_example_log_replays_as_the_rulebook_says(path: Path) -> None:
    report = replayed(path)
    found = {(p.line, p.rule) for p in report.problems}
    assert all(str(p.kind) == "illegal-move" for p in report.problems), report.problems
    assert found == marked_lines(path)


def test_move_waterways_unbridged_day_page_25() -> None:
    """Crossing Waterways: "2 infantry killed, 2 units injured, they cannot enter the sector,
    one infantry unit unharmed"; the defending tank rolls 4 + 3 dice by day."""
    report = replayed(FOLDER / "Move-waterways-unbridged-day.log")
    rolls = dice_of(report, 12)
    assert len(rolls[0]) == 7
    state = report.state_json()
    assert state is not None
    veghel = next(s for s in state["sectors"] if s["id"] == "Veghel")
    assert veghel["units"] == {"allied": {"UK": {"inf": 1}}, "german": {"DE": {"tank": 1}}}
    assert state["combat"]["sectors"] == ["Veghel"]


def test_move_waterways_bridge_bonus_dice() -> None:
    """Crossing a bridge: infantry 2+2, artillery 2+2, a tank 4+2 d10."""
    report = replayed(FOLDER / "Move-waterways-bridge.log")
    assert [len(r) for r in dice_of(report, 10)] == [4, 6, 4, 4]


def test_first_round_airborne_bonus_in_the_oosterbeek_intrusion() -> None:
    """The 1st Round: +1 d10 per airborne unit in phase 4.1: four infantry roll 3 dice each;
    the defender goes first with 2 + 4 dice."""
    report = replayed(FOLDER / "Move-contact-defender-first.log")
    assert [len(r) for r in dice_of(report, 10)] == [2, 4, 3, 3, 3, 3, 6]


def test_fall_back_day_s_is_e_plus_f() -> None:
    """Fall Back: S = E + F = 2 + 2; a 4 is spotted, a 5 escapes."""
    report = replayed(FOLDER / "Move-fallback-day.log")
    spot = next(e.event for e in report.events if e.event.kind == "fall-back")
    assert (spot.data["spotted"], spot.data["unseen"]) == (1, 1)


def test_fall_back_night_only_tanks_and_artillery_roll() -> None:
    report = replayed(FOLDER / "Move-fallback-night.log")
    assert dice_of(report, 7) == [[3]]


def test_distribution_loops_over_three_targets() -> None:
    """Distributing the hits: 1, 4, 7 strike the first unit; 2, 5, 8 the second; 3, 6, 9 the
    third; 0 is a ricochet."""
    report = replayed(FOLDER / "RoE-distribution-and-withdrawal.log")
    texts = [e.event.text for e in report.events]
    assert "Allied fires: 10 hits, 1 ricochet" in texts
    assert "tank withdraws Wolfheze->Schaarsbergen" in texts


def test_phase1_barrage_split_two_units_at_a_one_at_b() -> None:
    """Artillery and Barrage Fire: "fire two units at sector "A" and one unit at sector "B"";
    every unit's 6 hit dice first, then each target's distribution dice."""
    report = replayed(FOLDER / "Phase1-barrage-split.log")
    assert [len(r) for r in dice_of(report, 18)] == [6, 6, 6, 3, 1]
    texts = [(e.auto, e.event.text) for e in report.events]
    assert (True, "German skips: his barrage fire phase ends") in texts
    assert "Allied barrage Grave->Wijchen: 3 hits" in [t for _, t in texts]


def test_barrage_on_disputed_sectors_bonus_die_and_friendly_fire() -> None:
    """Barrage on Disputed Sectors: 6 + 1 dice; each 0 a friendly hit, rerolled among one's own
    units there; the initiative tie (2, 2) is rolled again (A21)."""
    report = replayed(FOLDER / "Artillery-barrage-disputed.log")
    assert dice_of(report, 11) == [[2, 2], [5, 1]]
    assert [len(r) for r in dice_of(report, 18)] == [7, 2, 2]
    texts = [e.event.text for e in report.events]
    assert "Allied barrage Zeeland->Grave: 2 hits; 2 friendly hits (zeros on a disputed " \
           "sector)" in texts
    assert "Allied loses 1 inf/UK in Grave (removed at once)" in texts


def test_jokers_reroll_the_first_zero_right_after_the_roll() -> None:
    """Jokers: the 0 is rerolled and "the next result stands"; without a 0 the joker is kept;
    the extra movement point comes after a crossing, never for it."""
    report = replayed(FOLDER / "Jokers-reroll-and-extra-move.log")
    assert dice_of(report, 14) == [[0, 9, 9, 9, 9, 9], [3], [1]]
    assert dice_of(report, 18) == [[9, 9, 9, 9, 9, 9]]
    kinds = [e.event.kind for e in report.events if e.line == 18]
    assert "joker-kept" in kinds


def test_phase1_skipping_ends_only_that_sides_barrage() -> None:
    """Phase 1: "In skipping a turn to give barrage fire, a player ends his barrage fire
    phase" (A22): the other side goes on, one battery at a time, until he skips too."""
    from referee.core.dice import DiceTray
    from referee.games.arnhem44.commands import Barrage, NoBarrage

    text = ('[Game "arnhem44"]\nsetup: clear; round 4; phase 1; barrage-turn german\n'
            "setup: place 1 art/UK Zeeland; place 1 art/UK Uden; place 2 inf Gassel\n"
            "setup: place 1 art Schaijk\n")
    state = replay(parse_log(text, "skip.log", engine=ENGINE), ENGINE).state
    dice = DiceTray(None, recorded=(9,) * 12, recorded_sides=10)
    ENGINE.apply(state, NoBarrage(), dice)
    assert (ENGINE.to_act(state), state.barrage_over) == ("allied", ["german"])
    uk = ((("UK", "art"), 1),)
    ENGINE.apply(state, Barrage(((uk, "Zeeland", "Gassel"),)), dice)
    assert ENGINE.to_act(state) == "allied"  # the German has ended his phase: Allied again
    assert ENGINE.legal(state)[-1] == NoBarrage()
    ENGINE.apply(state, Barrage(((uk, "Uden", "Gassel"),)), dice)
    assert ENGINE.forced(state) == NoBarrage()  # no battery left: the only answer
    ENGINE.apply(state, NoBarrage(), dice)
    assert state.phase == "4.1"


def test_jokers_on_the_movers_intrusion_and_fall_back() -> None:
    """Jokers: the intruders' first 0 among their hit dice, and the first 0 of the spotting
    dice of a fall back, rerolled at once; the defender's dice are not the mover's."""
    report = replayed(FOLDER / "Jokers-intrusion-and-fall-back.log")
    assert dice_of(report, 11) == [[9, 9, 9, 9], [0, 1, 9, 9], [9, 9, 9, 9], [2], [1, 1]]
    assert dice_of(report, 19) == [[0, 5], [7]]
    used = [e.event.data["side"] for e in report.events if e.event.kind == "joker"]
    assert used == ["allied", "german"]
