"""The referee says which dice to roll, how many and why (issue 28): Battle Card.

Each roll of the card is described before it is rolled (``rolls_needed``), in
``pending.dice``, the ``roll:`` line of ``replay`` and ``moves``, and the dice messages.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from referee.api import replay_text
from referee.cli import main
from referee.games.battle_card import ENGINE
from referee.games.battle_card.commands import Fight, Landing

from ..dice_described import self_play, table_view
from .helpers import after_airdrop, opening

HEAD = '[Game "battle-card"]\n'


def test_airborne_landing_one_d6_for_each_allied_unit() -> None:
    """Airborne Landing: "Roll a die for each Allied unit to determine its starting strength
    modifier." The card starts with three Allied units (101st, 82nd, 1st): three d6."""
    (need,) = ENGINE.rolls_needed(opening(), None)
    assert (need.die, need.count, need.then) == ("d6", 3, None)
    assert "101st, 82nd, 1st" in need.for_


def test_turn_1_combat_rolls_one_d6_whichever_way_it_is_fought() -> None:
    """Turn 1: "Choose whether to defend or attack ... Roll 1d6 and consult the combat
    results table." One d6, attacking or defending; none for a city that does not fight."""
    state = after_airdrop()
    for attack in (True, False):
        (need,) = ENGINE.rolls_needed(state, Fight("Eindhoven", attack))
        assert (need.die, need.count) == ("d6", 1)
    assert ENGINE.rolls_needed(state, Fight("Belgium", True)) == []
    (pending,) = ENGINE.rolls_needed(state, None)
    assert (pending.die, pending.count) == ("d6", 1)


def test_turn_4_landing_one_d6_against_the_turn() -> None:
    """Turn 4: "Roll 1d6 and compare the result with the turn number." One d6, and none when
    the game is not at that step."""
    assert ENGINE.rolls_needed(after_airdrop(), Landing()) == []
    report = replay_text(HEAD + "airdrop {d6: 6 6 6}\nattack Eindhoven {d6: 6}\n"
                         "attack Grave {d6: 6}\nattack Arnhem {d6: 6}\npass\n")
    assert report.pending() is not None
    assert report.pending()["dice"] == [  # type: ignore[index]
        {"die": "d6", "count": 1,
         "for": "the landing of the first airborne army: success on 1 or less (Turn "
                "step 4)"}]


def test_described_count_equals_the_dice_rolled_in_self_play() -> None:
    """Every roll of the self-played games: the dice described before it are the dice the
    engine then rolled (kind and count), and a chance step's pending description is the
    roll's own."""
    tally = self_play(ENGINE)
    assert tally.wrong == []
    assert tally.rolls > 0


def test_roll_lines_and_dice_messages(snapshot: SnapshotAssertion) -> None:
    """What a player at the table reads: the pending roll, and dice written short or long."""
    views = [
        table_view(HEAD),
        table_view(HEAD + "airdrop {d6: 4 6 3}\n"),
        table_view(HEAD + "airdrop {d6: 4 6}\n"),
        table_view(HEAD + "airdrop {d6: 4 6 3}\nattack Eindhoven {d6: 3 4}\n"),
        table_view(HEAD + "airdrop {d6: 4 6 3}\nattack Eindhoven\n"),
    ]
    assert views == snapshot


def test_replay_moves_and_status_print_the_pending_roll(tmp_path: Path) -> None:
    """The pending roll is a line of ``replay``, ``moves`` and ``status`` (the body of a
    play-by-email message), in the engine's words."""
    log = tmp_path / "opening.log"
    log.write_text(HEAD, encoding="utf-8")
    words = ("3 d6 for the airborne landing, one for each Allied unit in order 101st, 82nd, "
             "1st (Airborne Landing)")
    for command, prefix in (("replay", "  roll: "), ("moves", "  roll: "),
                            ("status", "Roll:     ")):
        out = CliRunner().invoke(main, [command, str(log)]).stdout
        assert prefix + words + "\n" in out, command


def test_described_count_holds_with_every_option() -> None:
    """The other readings (docs/battle-card-interpretations.md) change who lands and when;
    the described dice still equal the dice rolled."""
    options = {option: "on" for option in (
        "landing-all-units", "landing-turns-completed", "no-control-when-destroyed",
        "nijmegen-needs-allied-arnhem", "check-grown-cities-only")}
    tally = self_play(ENGINE, prefix="options", options=options)
    assert tally.wrong == [] and tally.rolls > 0
