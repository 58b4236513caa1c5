"""A scenario of the user's own, ``[Scenario "file:NAME.toml"]`` (docs/log-format.md, "A
scenario of your own"): read like every file a log names (beside the log, a regular file,
bounded), validated by the game's pydantic models with every problem in a sentence (line,
field), and its counters are the ones a position is checked against."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.api import position_text, replay_file
from referee.cli import main
from referee.core.ownscenario import ScenarioFile, engine_of, read_scenario_file
from referee.core.parsing import read_log
from referee.core.replay import replay
from referee.core.scenario import MAX_SCENARIO_BYTES, ScenarioError
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.variant import variant_board

from ..conftest import LOGS

SHIPPED = LOGS / "koenig-eindhoven" / "scenario-files"
HEADER = '[Game "koenig-eindhoven"]\n[Scenario "file:{name}"]\n'
SIX = """game = "koenig-eindhoven"
title = "A variant: 1/506 is a 6-6 counter"

[[units]]
id = "1/506"
cs = 6
ma = 6
"""
POSITION = ("setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; "
            "active 506\nsetup: place 1/506 0214\n")


def game_on(tmp_path: Path, scenario: str | bytes, name: str = "mine.toml",
            body: str = "") -> Path:
    path = tmp_path / name
    if isinstance(scenario, bytes):
        path.write_bytes(scenario)
    else:
        path.write_text(scenario, encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text(HEADER.format(name=name) + body, encoding="utf-8")
    return log


def refusal(log: Path) -> list[str]:
    report = replay_file(log)
    assert report.state is None and report.exit_code == 2
    return [p.message.removesuffix(".") for p in report.problems]


def unit(report_state: dict[str, object], ident: str) -> dict[str, object]:
    units = report_state["units"]
    assert isinstance(units, list)
    return next(u for u in units if u["id"] == ident)


def test_2_2_counter_values_set_by_the_file_and_a_position_written_with_them(
        tmp_path: Path) -> None:
    """2.2: a counter's Combat Strength and Movement Allowance are its printed values; a
    variant prints 1/506 as 6-6, and a position of that unit can be written and read back."""
    log = game_on(tmp_path, SIX, body=POSITION)
    report = replay_file(log)
    assert report.problems == []
    state = report.state_json()
    assert state is not None and (unit(state, "1/506")["cs"], unit(state, "1/506")["ma"]) == (
        6, 6)
    assert unit(state, "2/506")["cs"] == 5  # the rest of the bundled counters stay
    written = tmp_path / "resumed.log"
    written.write_text(position_text(report), encoding="utf-8")
    assert '[Scenario "file:mine.toml"]' in written.read_text()
    again = replay_file(written)
    assert again.problems == [] and again.state_json() == state


def test_8_1_hilltop_file_is_the_bundled_map_with_a_hilltop_and_a_slope() -> None:
    """8.1: "across a slope hexside (+1 MP to cross) in a hilltop hex (3 MP to enter)"."""
    board = variant_board(read_scenario_file(SHIPPED, "hilltop.toml"))
    assert board.hexes["0215"].hilltop and board.hexside("0214", "0215").slope
    assert board.hexes["0215"].terrain == "woods"  # what the file does not change stays
    log = read_log(SHIPPED / "hilltop-8.1.log")
    assert log.engine is not None and log.scenario_sha256 is not None
    assert log.engine.board.hexes["0215"].hilltop


def test_every_problem_of_the_file_is_a_sentence_with_its_line_and_field(
        tmp_path: Path) -> None:
    text = ('game = "koenig-eindhoven"\n\n[[units]]\nid = "1/506"\ncs = -1\nma = "six"\n\n'
            '[[hexes]]\nid = "0215"\nterrain = "lava"\n')
    problems = refusal(game_on(tmp_path, text))
    assert problems == [
        "mine.toml, line 10: hexes[1]: terrain: Input should be 'clear', 'woods', 'rough', "
        "'town' or 'city'",
        "mine.toml, line 5: units[1]: cs: Input should be greater than or equal to 0",
        "mine.toml, line 6: units[1]: ma: Input should be a valid integer, unable to parse "
        "string as an integer",
    ]


def test_a_new_record_needs_every_field_and_an_unknown_part_is_named(tmp_path: Path) -> None:
    text = 'game = "koenig-eindhoven"\n[[units]]\nid = "9/999"\ncs = 3\n[[weather]]\nrain = 1\n'
    problems = refusal(game_on(tmp_path, text))
    assert problems == ["mine.toml, line 5: weather is not a part of a koenig-eindhoven "
                        "scenario file (it may hold [[hexes]], [[hexsides]], [[units]], "
                        "[[formations]], [[roads]])"]
    problems = refusal(game_on(tmp_path, text.split("[[weather]]")[0]))
    assert "mine.toml, line 2: units[1]: name: is missing (the bundled scenario has no such " \
           "record, so this one is new and gives every field)" in problems


def test_the_file_must_be_for_the_logs_game(tmp_path: Path) -> None:
    problems = refusal(game_on(tmp_path, 'game = "arnhem44"\n'))
    assert problems == ["mine.toml: game is 'arnhem44', but the log is a game of "
                        "koenig-eindhoven"]


def test_a_game_without_scenario_files_says_so() -> None:
    class NoFiles:
        info = ENGINE.info

    file = ScenarioFile("mine.toml", "", {}, "0" * 64)
    with pytest.raises(ScenarioError, match="takes no scenario file of the user's own yet"):
        engine_of(file, NoFiles())


def bc_game(tmp_path: Path, scenario: str) -> Path:
    (tmp_path / "mine.toml").write_text(scenario)
    log = tmp_path / "game.log"
    log.write_text('[Game "battle-card"]\n[Scenario "file:mine.toml"]\n[Seed "3"]\n')
    return log


def test_battle_card_game_setup_takes_the_files_unit_dice_and_turns(tmp_path: Path) -> None:
    """Game Setup: the unit dice "with their starting values"; a variant starts the 1st
    Airborne at 4 and plays 7 turns instead of "if you complete 6 turns"."""
    log = bc_game(tmp_path, 'game = "battle-card"\nturns = 7\n[[units]]\nid = "1st"\n'
                            'strength = 4\n[[cities]]\nname = "Arnhem"\ngerman = 4\n')
    report = replay_file(log)
    assert report.problems == []
    state = report.state_json()
    assert state is not None and state["turns"] == 7
    assert state["cities"]["Arnhem"]["german"] == 4
    # the landing roll of the seed then takes 1 off the 1st's 4 (the bundled 6 gives 5)
    assert state["units"]["1st"]["strength"] < 4


def test_battle_card_file_problems_are_sentences(tmp_path: Path) -> None:
    log = bc_game(tmp_path, 'game = "battle-card"\nturns = 99\n[[units]]\nid = "1st"\n'
                            'strength = 9\n[combat.attack.allied."1"]\nallied = 3\n')
    assert refusal(log) == [
        "mine.toml, line 2: turns: Input should be less than or equal to 20",
        "mine.toml, line 5: units[1]: strength: Input should be less than or equal to 6",
        "mine.toml, line 7: combat.attack.allied.1.allied: Input should be less than or "
        "equal to 0",
    ]


def test_wwiic_unit_values_set_by_the_file(tmp_path: Path) -> None:
    """2.2: a unit's hit chance is printed on its counter; a variant prints 1P/1AB's as 4."""
    (tmp_path / "mine.toml").write_text(
        'game = "wwiic"\n[[units]]\nid = "1P/1AB"\nhit_chance = [4, 4, 4, 4, 4, 4]\n')
    log = tmp_path / "game.log"
    log.write_text('[Game "wwiic"]\n[Scenario "file:mine.toml"]\n[Seed "1"]\n')
    parsed = read_log(log)
    assert parsed.engine is not None
    unit = next(u for u in parsed.engine.board.scenario.units if u.id == "1P/1AB")
    assert unit.hit_chance == [4, 4, 4, 4, 4, 4]
    assert replay(parsed).problems == []
    (tmp_path / "mine.toml").write_text(
        'game = "wwiic"\n[[units]]\nid = "1P/1AB"\nmax_strength = 4\n')
    assert refusal(log) == [
        "mine.toml, line 2: units[1]: hit_chance lists 6 values for 4 strength steps; "
        "counters must be one to three 1- or 2-sided counters showing each strength 1..4 "
        "once (2.2)"]


def test_arnhem44_unit_values_set_by_the_file(tmp_path: Path) -> None:
    """The units' values (fire power, movement points) are the scenario's; a variant's
    tanks fire 6 and move 6."""
    (tmp_path / "mine.toml").write_text(
        'game = "arnhem44"\n[kinds.tank]\nfp = 6\nmp = 6\n')
    log = tmp_path / "game.log"
    log.write_text('[Game "arnhem44"]\n[Scenario "file:mine.toml"]\n[Seed "1"]\n')
    parsed = read_log(log)
    assert parsed.engine is not None
    assert (parsed.engine.board.fp["tank"], parsed.engine.board.mp["tank"]) == (6, 6)
    assert replay(parsed).problems == []
    (tmp_path / "mine.toml").write_text(
        'game = "arnhem44"\n[kinds.tank]\nfp = 60\n[[borders]]\na = "Arnhem"\n'
        'b = "Atlantis"\n')
    assert refusal(log) == ["mine.toml, line 3: kinds.tank.fp: Input should be less than or "
                            "equal to 10"]
    (tmp_path / "mine.toml").write_text(
        'game = "arnhem44"\n[[borders]]\na = "Arnhem"\nb = "Atlantis"\n')
    assert refusal(log) == ["mine.toml: the border Arnhem-Atlantis names the sector "
                            "Atlantis, which the map does not have"]


# -- hostile files ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../mine.toml", "/etc/passwd.toml", "sub\\\\mine.toml",
                                  "c:mine.toml", "", "mine.txt"])
def test_hostile_names_are_refused_before_anything_is_read(tmp_path: Path, name: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(HEADER.format(name=name))
    problems = refusal(log)
    assert len(problems) == 1 and ("must name a file beside the log" in problems[0]
                                   or "must be a TOML file" in problems[0])


def test_a_link_out_of_the_logs_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "real.toml").write_text(SIX)
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "mine.toml").symlink_to(outside / "real.toml")
    log = folder / "game.log"
    log.write_text(HEADER.format(name="mine.toml"))
    assert "lies outside the log's folder" in refusal(log)[0]


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "mine.toml")
    log = tmp_path / "game.log"
    log.write_text(HEADER.format(name="mine.toml"))
    assert "a pipe (FIFO)" in refusal(log)[0]


def test_a_folder_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").mkdir()
    log = tmp_path / "game.log"
    log.write_text(HEADER.format(name="mine.toml"))
    assert "it is a folder" in refusal(log)[0]
    log.write_text(HEADER.format(name="gone.toml"))
    assert "there is no scenario file there" in refusal(log)[0]


def test_a_huge_file_is_refused_by_its_size(tmp_path: Path) -> None:
    log = game_on(tmp_path, b"#" * (MAX_SCENARIO_BYTES + 1))
    assert "the referee reads a scenario file of up to" in refusal(log)[0]


def test_invalid_toml_and_bytes_that_are_not_text(tmp_path: Path) -> None:
    assert "not valid TOML" in refusal(game_on(tmp_path, "game = \n[[units]\n"))[0]
    assert "not UTF-8 text" in refusal(game_on(tmp_path, b"game = \"\xff\"\n"))[0]


def test_a_value_out_of_range_is_refused(tmp_path: Path) -> None:
    text = SIX.replace("cs = 6", "cs = -6")
    assert refusal(game_on(tmp_path, text)) == [
        "mine.toml, line 6: units[1]: cs: Input should be greater than or equal to 0"]


def test_a_log_from_standard_input_cannot_name_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", "-"], input=HEADER.format(name="mine.toml"))
    assert result.exit_code == 2 and "was not read" in result.output


# -- the command line ---------------------------------------------------------------------------

def test_scenario_check_validates_a_file_of_ones_own(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["scenario", "check", str(SHIPPED / "hilltop.toml")])
    assert result.exit_code == 0 and "the scenario is valid" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(SIX.replace("ma = 6", "ma = -1"))
    result = runner.invoke(main, ["scenario", "check", str(bad)])
    assert result.exit_code == 1
    assert "bad.toml, line 7: units[1]: ma: Input should be greater than or equal to 0" in (
        result.output)


def test_new_with_scenario_file_names_it_and_says_what_to_write(tmp_path: Path) -> None:
    shutil.copy(SHIPPED / "hilltop.toml", tmp_path / "hilltop.toml")
    out = tmp_path / "game.log"
    result = CliRunner().invoke(main, ["new", "koenig-eindhoven", "--scenario-file",
                                       str(tmp_path / "hilltop.toml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == '[Game "koenig-eindhoven"]\n[Scenario "file:hilltop.toml"]\n'
    assert "next: awaiting Referee: the German Artillery Points roll (6.1)" in result.stderr
    assert replay_file(out).problems == []
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    result = CliRunner().invoke(main, ["new", "koenig-eindhoven", "--scenario-file",
                                       str(tmp_path / "hilltop.toml"), "-o",
                                       str(elsewhere / "g.log")])
    assert result.exit_code == 2 and "must lie in the folder of" in result.output


@pytest.mark.parametrize(("game", "change"), [
    ("koenig-eindhoven", '[[hexes]]\nid = "0101"\nterrain = "city"\n'),
    ("arnhem44", '[[sectors]]\nid = "Arnhem"\nx = 1\ny = 1\n'),
])
def test_the_map_of_a_log_on_a_scenario_file_is_that_files_map(
        tmp_path: Path, game: str, change: str) -> None:
    from referee.scenarios import draw_map

    (tmp_path / "mine.toml").write_text(f'game = "{game}"\n{change}')
    own = tmp_path / "own.log"
    own.write_text(f'[Game "{game}"]\n[Scenario "file:mine.toml"]\n[Seed "1"]\n')
    bundled = tmp_path / "bundled.log"
    bundled.write_text(f'[Game "{game}"]\n[Seed "1"]\n')
    assert replay_file(own).problems == []
    assert draw_map(game, own) != draw_map(game, bundled)


def test_logs_on_one_file_share_its_engine_and_a_changed_file_gets_its_own(
        tmp_path: Path) -> None:
    """A batch of logs on one scenario file builds its board once; a file changed since is
    read again (its SHA-256 names it)."""
    first = game_on(tmp_path, SIX)
    second = tmp_path / "second.log"
    second.write_text(first.read_text())
    engine = read_log(first).engine
    assert engine is not None and read_log(second).engine is engine
    (tmp_path / "mine.toml").write_text(SIX.replace("cs = 6", "cs = 4"))
    changed = read_log(second).engine
    assert changed is not engine and changed.board.units["1/506"].cs == 4


def test_new_with_a_bad_scenario_file_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(SIX.replace("cs = 6", "cs = -1").replace("ma = 6", "ma = -2"))
    result = CliRunner().invoke(main, ["new", "koenig-eindhoven", "--scenario-file", str(bad)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: bad.toml, line 6: units[1]: cs: Input should be greater than or equal to 0",
        "error: bad.toml, line 7: units[1]: ma: Input should be greater than or equal to 0",
    ]
