"""Issue 26, "What a player reads": ``referee moves`` prints what a player can write.

8.0: "The player moves his units from hex to adjacent hex in a continuous path of hexes.
Skipping or jumping over hexes is prohibited." -- so a move is written with its whole path,
and ``referee moves`` lists it that way.  9.2.3: "A player's forces that suffer a Hit in a Full
or Mobile Fire attack may Retreat (11.0)" -- while that decision is pending, the choices are
the retreat's, not the formation's movement."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.api import replay_text
from referee.cli import main
from referee.core.dice import DiceStream
from referee.core.selfplay import StreamDice
from referee.games.koenig_eindhoven.commands import Move
from referee.games.koenig_eindhoven.engine import ENGINE

HEADER = '[Game "koenig-eindhoven"]\n'
DICE = StreamDice(DiceStream("moves"))
DAY = ("setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; "
       "active 506\n")


def moves_text(tmp_path: Path, text: str) -> str:
    log = tmp_path / "game.log"
    log.write_text(text)
    result = CliRunner().invoke(main, ["moves", str(log)])
    assert result.exit_code == 0, result.output
    return result.output


def test_8_0_moves_lists_each_destination_as_the_path_a_player_writes(tmp_path: Path) -> None:
    text = HEADER + DAY + "setup: place 1/506 0111\n"
    output = moves_text(tmp_path, text)
    written = [x.removeprefix("  move 1/506 ") for x in output.splitlines()
               if x.startswith("  move 1/506 ")]
    assert "0111->0110->0109" in written
    report = replay_text(text)
    state = report.state
    for path in written:
        start, *steps = path.split("->")
        trial = ENGINE.copy(state)
        ENGINE.apply(trial, Move("move", "1/506", tuple(steps), start), DICE)  # not refused
    assert "-fire " not in output  # no enemy beside it


def test_9_0_moves_lists_fire_attacks_as_written(tmp_path: Path) -> None:
    """9.0: "Units must be adjacent to, or in the same hex as, the target unit"."""
    output = moves_text(tmp_path, HEADER + DAY + "setup: place MG/506 0109; place 1/935 0110\n")
    lines = output.splitlines()
    assert "  full-fire 0110 with MG/506" in lines and "  mobile-fire 0110 with MG/506" in lines


def test_9_2_3_moves_while_a_retreat_is_pending_lists_the_retreat(tmp_path: Path) -> None:
    text = (HEADER + DAY + "setup: place MG/506 0109; place 1/935 0110; place 1/506 0111\n"
            "allied: full-fire 0110 with MG/506\n"
            "roll {d6: 1}\n")
    output = moves_text(tmp_path, text)
    assert "1/935 was hit (9.2.3)" in output
    assert "retreat 1/935->0209" in output and "retreat 1/935->off" in output
    assert "  stay" in output
    assert "move 1/506" not in output and "1/506 (infantry)" not in output


def test_7_1_1_moves_lists_the_joint_mobile_fire_of_units_that_moved(tmp_path: Path) -> None:
    """7.1.1: "Only units performing the same type of Operation and that are firing on the same
    target hex can perform them jointly" -- after two Combined movements the moved units'
    Mobile Fire is listed as it is written, jointly; the earlier mover's alone is not (7.1)."""
    output = moves_text(tmp_path, HEADER + DAY + "setup: place 1/935 0213; place 1/506 0215; "
                        "place 2/506 0315\n"
                        "allied: combined 1/506 0215->0214\n"
                        "allied: combined 2/506 0315->0314\n")
    lines = output.splitlines()
    at = lines.index("1/506 (infantry) in 0214: 1 command")
    assert lines[at + 1] == "  mobile-fire 0213 with 1/506, 2/506"
    at = lines.index("2/506 (infantry) in 0314: 2 commands")
    assert lines[at + 1:at + 3] == ["  mobile-fire 0213 with 2/506",
                                    "  mobile-fire 0213 with 1/506, 2/506"]
