"""The command line: every command, every exit code, and bad input of every kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main

from ..conftest import LOGS

WIN = str(LOGS / "battle-card" / "win.log")
ILLEGAL = str(LOGS / "battle-card" / "illegal.log")
PENDING = str(LOGS / "battle-card" / "pending.log")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def write(tmp_path: Path, text: str | bytes, name: str = "game.log") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_games_lists_every_game() -> None:
    code, out = run("games")
    assert code == 0
    for game in ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44"):
        assert game in out
    code, out = run("games", "--json")
    assert {g["id"] for g in json.loads(out)["games"]} >= {"battle-card", "wwiic"}


def test_replay_a_legal_log_exits_0_with_tables() -> None:
    code, out = run("replay", WIN)
    assert code == 0
    assert "The card" in out and "win: 30th Corps reached Arnhem" in out
    assert "all legal" in out


def test_replay_events_show_the_dice() -> None:
    code, out = run("replay", WIN, "--events")
    assert code == 0
    assert "{d6:" in out and "(referee)" in out


def test_replay_json_has_the_documented_keys() -> None:
    code, out = run("replay", WIN, "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data) == [
        "schema",
        "source",
        "game",
        "ok",
        "exit_code",
        "problems",
        "state",
        "pending",
        "outcome",
        "tags",
        "events",
    ]
    assert data["state"]["cities"]["Arnhem"]["control"] == "allied"
    assert data["state"]["corps"] == "Arnhem"
    assert data["outcome"]["result"] == "win"


def test_replay_upto_stops_early() -> None:
    _, out = run("replay", WIN, "--upto", "9", "--json")
    data = json.loads(out)
    assert data["state"]["turn"] == 1
    assert data["pending"]["side"] == "allied"


def test_replay_strict_stops_at_the_first_problem() -> None:
    code, out = run("replay", ILLEGAL, "--json", "--strict")
    data = json.loads(out)
    assert len(data["problems"]) == 1
    assert code == 1


def test_check_rule_breaking_log_exits_1(tmp_path: Path) -> None:
    log = write(tmp_path, '[Game "battle-card"]\n[Seed "1"]\nmove 30-corps Belgium->Eindhoven\n')
    code, out = run("check", log)
    assert code == 1
    assert "[Turn step 1]" in out


def test_check_several_logs_gives_the_worst_exit_code() -> None:
    code, out = run("check", WIN, ILLEGAL)
    assert code == 2
    assert "illegal.log:7:1" in out


def test_moves_lists_the_legal_commands() -> None:
    code, out = run("moves", PENDING)
    assert code == 0
    assert "awaiting Allied" in out and "pass" in out
    code, out = run("moves", PENDING, "--json")
    assert json.loads(out)["pending"]["choices"][-1] == "pass"


def test_moves_at_the_end_of_a_game() -> None:
    code, out = run("moves", WIN)
    assert code == 0 and "the game is over" in out


def test_new_prints_a_header() -> None:
    result = CliRunner().invoke(main, ["new", "battle-card", "--seed", "42"])
    assert result.exit_code == 0
    assert result.stdout == '[Game "battle-card"]\n[Dice "v1"]\n[Seed "42"]\n'


def test_new_random_seed_and_output_file(tmp_path: Path) -> None:
    target = tmp_path / "new.log"
    code, _ = run("new", "battle-card", "--random-seed", "-o", str(target))
    assert code == 0
    assert '[Seed "' in target.read_text()
    code, out = run("new", "battle-card", "-o", str(target))
    assert code == 2 and "never writes over" in out


def test_new_refuses_unknown_games_and_both_seeds() -> None:
    code, out = run("new", "chess")
    assert code == 2 and "unknown game" in out
    code, _ = run("new", "battle-card", "--seed", "1", "--random-seed")
    assert code == 2


def test_new_refuses_games_without_an_engine(engineless: str) -> None:
    code, out = run("new", engineless)
    assert code == 2 and "not implemented yet" in out


def test_scenario_check_the_bundled_card() -> None:
    code, out = run("scenario", "check", "bundled:battle-card/standard.toml")
    assert code == 0 and "valid" in out


def test_scenario_check_reports_a_broken_file(tmp_path: Path) -> None:
    text = (LOGS.parent / "scenarios" / "battle-card" / "standard.toml").read_text()
    broken = write(tmp_path, text.replace('"5-6" = {}', '"5" = {}', 1), "broken.toml")
    code, out = run("scenario", "check", broken)
    assert code == 1
    assert "faces 1 to 6 exactly once" in out


def test_scenario_check_missing_path() -> None:
    code, out = run("scenario", "check", "/no/such/scenario.toml")
    assert code == 1 and "no such file" in out


def test_simulate_summary_and_saved_logs(tmp_path: Path) -> None:
    code, out = run(
        "simulate",
        "battle-card",
        "--games",
        "40",
        "--policy",
        "greedy",
        "--save-logs",
        str(tmp_path / "games"),
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 40 and data["broken"] == []
    assert sum(r["games"] for r in data["results"].values()) == 40
    saved = sorted((tmp_path / "games").glob("*.log"))
    assert len(saved) == 40
    code, _ = run("check", *map(str, saved))
    assert code == 0


def test_simulate_text_and_unknown_policy() -> None:
    code, out = run("simulate", "battle-card", "--games", "5")
    assert code == 0 and "95% interval" in out
    code, out = run("simulate", "battle-card", "--games", "5", "--policy", "clever")
    assert code == 2 and "unknown policy" in out


def test_examples_lists_bundled_logs() -> None:
    code, out = run("examples")
    assert code == 0 and "bundled:battle-card/win.log" in out
    code, out = run("replay", "bundled:battle-card/win.log")
    assert code == 0
    code, out = run("replay", "bundled:../secrets")
    assert code == 2


# -- bad input: a sentence and exit 2, never a traceback ----------------------------------

BAD_INPUTS = {
    "empty": (b"", "no [Game"),
    "whitespace only": (b"\n\n   \n", "no [Game"),
    "binary": (b"\x00\x01\x02ELF", "binary file"),
    "windows-1252": ('[Game "battle-card"]\nattack “Grave”\n'.encode("cp1252"),
                     "byte 0x93 at line 2, column 8 cannot be read as UTF-8"),
    "unknown game": (b'[Game "chess"]\n', "unknown game 'chess'"),
    "game without engine": (b'[Game "no-engine"]\n', "not implemented yet"),
    "unknown name": (b'[Game "battle-card"]\n[Seed "1"]\nattack Grav\n', "did you mean 'Grave'"),
    "huge face": (b'[Game "battle-card"]\nairdrop {d6: 1 2 ' + b"9" * 500 + b"}\n", "too large"),
    "long line": (b'[Game "battle-card"]\n' + b"pass " * 20_000 + b"\n", "characters"),
    "unknown dice version": (b'[Game "battle-card"]\n[Dice "v9"]\n', "dice algorithm"),
    "tag after moves": (b'[Game "battle-card"]\n[Seed "1"]\nturn 1\n[Seed "2"]\n', "at the top"),
    "unknown option": (b'[Game "battle-card"]\n[Option "fast"]\n', "unknown option"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_a_sentence_and_exit_2(tmp_path: Path, name: str,
                                              engineless: str) -> None:
    data, expected = BAD_INPUTS[name]
    code, out = run("replay", write(tmp_path, data))
    assert code == 2, out
    assert expected in out
    assert "Traceback" not in out


def test_face_out_of_range_breaks_the_rules(tmp_path: Path) -> None:
    code, out = run("check", write(tmp_path, '[Game "battle-card"]\nairdrop {d6: 1 2 7}\n'))
    assert code == 1 and "a d6 has no face 7" in out


def test_too_few_and_too_many_dice(tmp_path: Path) -> None:
    few = write(tmp_path, '[Game "battle-card"]\nairdrop {d6: 1 2}\n', "few.log")
    code, out = run("check", few)
    assert code == 1 and "'airdrop' needs 3 d6 for the airborne landing" in out
    assert "2 dice recorded, 1 short" in out
    many = write(tmp_path, '[Game "battle-card"]\nairdrop {d6: 1 2 3 4}\n', "many.log")
    code, out = run("check", many)
    assert code == 1 and "4 dice recorded" in out


def test_tabletop_log_without_dice_is_refused_with_the_way_out(tmp_path: Path) -> None:
    log = write(tmp_path, '[Game "battle-card"]\nairdrop\n')
    code, out = run("check", log)
    assert code == 1 and "--seed" in out
    code, out = run("check", log, "--seed", "5")
    assert code == 0


def test_seed_option_must_not_contradict_the_log() -> None:
    code, out = run("replay", WIN, "--seed", "other")
    assert code == 2 and "already names its seed" in out


def test_a_million_line_log_is_refused_quickly(tmp_path: Path) -> None:
    log = write(tmp_path, '[Game "battle-card"]\n' + "pass\n" * 1_000_000)
    code, out = run("check", log)
    assert code == 2 and "100,000 lines" in out


def test_missing_file(tmp_path: Path) -> None:
    code, out = run("replay", str(tmp_path / "nope.log"))
    assert code == 2 and "cannot read" in out


def test_python_dash_m_runs_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "referee", "games", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["games"][0]["id"] == "battle-card"


def test_scenario_show_both_games() -> None:
    code, out = run("scenario", "show", "battle-card", "--json")
    assert code == 0 and json.loads(out)["route"][0] == "Belgium"
    code, out = run("scenario", "show", "wwiic", "--json")
    data = json.loads(out)
    assert code == 0 and {"spaces", "borders", "boxes", "units"} <= set(data)
    code, out = run("scenario", "show", "wwiic")
    assert code == 0 and "Spaces (" in out
    code, out = run("scenario", "show", "arnhem44")
    assert code == 0 and "Sectors (" in out


def test_scenario_show_of_a_game_without_data(engineless: str) -> None:
    code, out = run("scenario", "show", engineless)
    assert code == 2 and "no scenario data" in out


def test_scenario_check_wwiic_folder_and_file() -> None:
    folder = LOGS.parent / "scenarios" / "wwiic" / "market-garden"
    code, out = run("scenario", "check", str(folder))
    assert code == 0 and "valid" in out
    code, out = run("scenario", "check", str(folder / "units.toml"))
    assert code == 0


def test_map_writes_a_well_formed_svg(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ElementTree

    target = tmp_path / "map.svg"
    code, out = run("map", "wwiic", "-o", str(target))
    assert code == 0, out
    root = ElementTree.fromstring(target.read_text())
    assert root.tag.endswith("svg")
    code, out = run("map", "battle-card", "-o", str(tmp_path / "card.svg"))
    assert code == 2 and "no map drawing" in out


def test_position_writes_a_resumable_log(tmp_path: Path) -> None:
    code, out = run("position", str(LOGS / "battle-card" / "loss-time.log"), "--upto", "16")
    assert code == 0
    assert out.startswith('[Game "battle-card"]') and "setup: clear; turn 3" in out
    target = tmp_path / "start.log"
    code, _ = run("position", WIN, "--upto", "12", "-o", str(target))
    assert code == 0
    code, _ = run("check", str(target))
    assert code == 0
    code, out = run("position", WIN, "--upto", "12", "-o", str(target))
    assert code == 2 and "never writes over" in out


def test_position_of_a_finished_game_is_refused() -> None:
    code, out = run("position", WIN)
    assert code == 1 and "the game is over" in out


def test_moves_groups_wwiic_activations_by_unit() -> None:
    opening = str(LOGS / "wwiic" / "opening.log")
    code, out = run("moves", opening, "--json")
    data = json.loads(out)
    assert code == 0 and data["pending"]["side"] == "allied"
    first = data["units"][0]
    assert {"unit", "from", "single", "two_space", "strategic", "commands"} <= set(first)
    assert first["commands"][0] == f"activate {first['unit']} {first['from']}"
    code, out = run("moves", opening)
    assert code == 0
    # Issue 29: every line under a unit is a command play takes, and together they are every
    # legal command (the pairs and pass under "other commands").
    printed = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    choices = data["pending"]["choices"]
    assert not data["pending"]["more"]
    assert sorted(printed) == sorted(choices)
    assert f"activate {first['unit']} {first['from']}->{first['single'][0]}" in printed


def test_simulate_wwiic_plays_complete_games_whose_logs_replay(tmp_path: Path) -> None:
    code, out = run("simulate", "wwiic", "--games", "2", "--seed", "cli",
                    "--save-logs", str(tmp_path / "games"), "--json")
    data = json.loads(out)
    assert code == 0 and data["broken"] == []
    assert sum(r["games"] for r in data["results"].values()) == 2
    assert "unfinished" not in data["results"]
    saved = sorted((tmp_path / "games").glob("*.log"))
    code, out = run("check", *map(str, saved))
    assert code == 0, out


def test_version_and_help_load_no_engine_and_check_loads_no_rich() -> None:
    """Start-up (bench/check_startup.py): ``--version`` and ``--help`` import no engine, no
    parser and no rich; ``check`` of a legal log prints nothing and imports no rich, and
    ``status`` prints plain text without it (bench/interactive.py)."""
    import ast
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from referee.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = [m for m in sys.modules if m.startswith(('rich', 'lark', 'pydantic',"
        " 'referee.games', 'referee.core.replay'))]\n"
        "print(sorted({m.split('.')[0] if not m.startswith('referee') else m"
        " for m in loaded}))\n"
    )
    for args, allowed in (
        (["--version"], set()),
        (["--help"], set()),
        (["check", "bundled:battle-card/win.log"], None),
        (["status", "bundled:arnhem44/three-players.log"], None),  # plain text, for e-mail
    ):
        ran = subprocess.run(
            [sys.executable, "-c", f"import sys; sys.argv = ['referee', *{args!r}]\n" + probe],
            capture_output=True, text=True, check=True,
        )
        loaded = set(ast.literal_eval(ran.stdout.strip().splitlines()[-1]))
        assert "rich" not in loaded and "pydantic" not in loaded, (args, loaded)
        if allowed is not None:
            assert loaded == allowed, (args, loaded)
