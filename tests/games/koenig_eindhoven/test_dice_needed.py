"""The referee says which dice to roll, how many and why (issue 28): Koenig's Eindhoven
Bridge.  Every roll (Bridge fire, Close Combat, HQ draws, Support and Artillery Points,
Paratroop Landings) is described before it is rolled (``rolls_needed``)."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from referee.api import replay_text
from referee.games.koenig_eindhoven.engine import ENGINE

from ..dice_described import self_play, table_view

HEAD = '[Game "koenig-eindhoven"]\n[Scenario "eindhoven-bridge"]\n'
CLOSE = HEAD + (
    "setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; cup 935\n"
    "setup: active 506; place 1/506 0114; place 2/506 0214 hits 1; place 3/506 0115\n"
    "setup: place 1/935 0213; place 2/935 0215; place 3/935 0116; place 1/1034 0116\n"
    "allied: move 1/506 0114->0213\n"
)


def pending_dice(log: str) -> list[dict[str, object]]:
    pending = replay_text(log).pending()
    assert pending is not None
    return list(pending["dice"])


def test_6_1_artillery_points_one_d6() -> None:
    """6.1: the German player rolls one die for the Artillery Points of the day turn."""
    (need,) = pending_dice(HEAD + "turn 1\n")
    assert (need["die"], need["count"]) == ("d6", 1)
    assert "6.1" in str(need["for"])


def test_7_0_one_hq_drawn_from_the_command_cup() -> None:
    """7.0: an HQ is drawn blindly from the Command Cup: one chit, of those in the cup."""
    (need,) = pending_dice(HEAD + "artillery {d6: 4}\nallied-support {d6: 1}\n")
    assert (need["die"], need["count"]) == ("cup", 1)
    assert "506" in str(need["for"])


def test_10_0_close_combat_round_defensive_die_then_offensive_after_a_miss() -> None:
    """10.0: the Defensive Close Fire die first; only if it misses, the Offensive Close Fire
    die: one d6 for certain, and the rule for the second."""
    (need,) = pending_dice(CLOSE)
    assert (need["die"], need["count"]) == ("d6", 1)
    assert "Offensive Close Fire" in str(need["then"])


def test_described_count_equals_the_dice_rolled_in_self_play() -> None:
    """Every roll and draw of the self-played games: the dice described before it are the
    dice the engine then rolled, the second Close Combat die only by its rule."""
    tally = self_play(ENGINE)
    assert tally.wrong == []
    assert tally.rolls > 0


def test_roll_lines_and_dice_messages(snapshot: SnapshotAssertion) -> None:
    """What a player at the table reads: the pending roll, and dice written short or long."""
    views = [
        table_view(HEAD + "turn 1\n"),
        table_view(HEAD + "artillery {d6: 4}\nallied-support {d6: 1}\n"),
        table_view(HEAD + "artillery {d6: 4 4}\n"),
        table_view(HEAD + "artillery {d6: 4}\nallied-support {d6: 1}\ndraw\n"),
        table_view(CLOSE),
        table_view(CLOSE + "round {d6: 6}\n"),
    ]
    assert views == snapshot


def test_described_count_holds_with_the_us_machine_guns_option() -> None:
    """14.3.1 (US Machine Guns fire across rivers at half strength): more fire, the same
    dice rule."""
    tally = self_play(ENGINE, games=10, prefix="mg", options={"us-machine-guns": "on"})
    assert tally.wrong == [] and tally.rolls > 0
