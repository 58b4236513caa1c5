"""One JSON contract: every --json command's output against its schema in docs/schema/, and
the shared objects (pending, outcome, problems) the same wherever they appear."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import main

from ..conftest import LOGS
from .schema_check import SCHEMAS, errors, load, validate

BATTLE = LOGS / "battle-card"
WWIIC = LOGS / "wwiic"
SAMPLES = [BATTLE / "win.log", BATTLE / "pending.log", BATTLE / "illegal.log",
           WWIIC / "opening.log", WWIIC / "full-game-draw.log", WWIIC / "illegal-movement.log"]


def run_json(*args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def conforms(value: Any, schema: str) -> None:
    problems = validate(value, schema)
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("log", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("command", ["replay", "moves", "status", "verify", "position", "mail"])
def test_every_command_keeps_its_schema(command: str, log: Path) -> None:
    code, data = run_json(command, str(log))
    conforms(data, f"{command}.json")
    assert data["exit_code"] == code
    assert data["source"] == str(log)
    assert data["ok"] == (not data["problems"] and code == 0)


def test_check_writes_one_envelope_per_log() -> None:
    result = CliRunner().invoke(main, ["check", "--json", *map(str, SAMPLES)])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["source"] for row in rows] == [str(p) for p in SAMPLES]
    for row in rows:
        conforms(row, "check.json")
    assert result.exit_code == max(row["exit_code"] for row in rows)


@pytest.mark.parametrize("game", ["battle-card", "wwiic"])
def test_scenario_show_keeps_its_schema(game: str) -> None:
    code, data = run_json("scenario", "show", game)
    assert code == 0
    conforms(data, "scenario-show.json")
    assert data["source"] == f"bundled:scenarios/{game}"


def test_unreadable_logs_keep_the_schema(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.log")
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"\x00\x01")
    for command in ("replay", "moves", "position"):
        for log in (missing, str(binary)):
            code, data = run_json(command, log)
            assert code == 2 and data["state"] is None and data["pending"] is None
            conforms(data, f"{command}.json")


def test_batch_rows_keep_their_schema_and_column_types() -> None:
    result = CliRunner().invoke(main, ["batch", str(BATTLE), str(WWIIC)])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) > 10
    for row in rows:
        conforms(row, "batch-row.json")
    assert list(rows[0]) == list(rows[-1])
    scored = [row for row in rows if row["game"] == "wwiic" and row["vp_total"] is not None]
    assert scored and all(
        row["vp_total"] == row["vp_objective"] + row["vp_eliminated"] for row in scored)


def test_pending_and_outcome_are_the_same_objects_everywhere() -> None:
    for log in (BATTLE / "pending.log", BATTLE / "win.log", WWIIC / "opening.log"):
        seen = [run_json(command, str(log))[1] for command in ("replay", "moves", "status")]
        assert seen[0]["pending"] == seen[1]["pending"] == seen[2]["pending"]
        assert seen[0]["outcome"] == seen[1]["outcome"] == seen[2]["outcome"]


def test_a_finished_game_has_an_empty_pending_and_the_outcome() -> None:
    _, data = run_json("replay", str(BATTLE / "win.log"))
    assert data["pending"] == {"side": None, "decision": "", "choices": [], "more": False,
                               "dice": [],
                               "text": "the game is over: 30th Corps reached Arnhem"}
    assert data["outcome"]["over"] is True and data["outcome"]["winner"] == "allied"


def test_scores_are_flat_and_no_text_holds_a_python_repr() -> None:
    log = str(WWIIC / "full-game-draw.log")
    _, data = run_json("replay", log)
    assert set(data["outcome"]["score"]) == {"vp_objective", "vp_eliminated", "vp_total"}
    result = CliRunner().invoke(main, ["status", log])
    assert "{'" not in result.stdout and "Result:   draw" in result.stdout


def test_the_validator_finds_what_is_wrong() -> None:
    _, data = run_json("replay", str(BATTLE / "win.log"))
    data["problems"] = [{"line": 0, "kind": 3}]
    data["pending"] = None
    data["exit_code"] = 5
    del data["schema"]
    found = "\n".join(validate(data, "replay.json"))
    for wrong in ("'schema' is missing", "$.exit_code", "$.problems[0]: the key 'column'",
                  "$.problems[0].kind", "$.problems[0].line: 0 is below 1"):
        assert wrong in found


def test_every_schema_file_is_tested() -> None:
    names = {path.name for path in SCHEMAS.glob("*.json")}
    assert names == {"envelope.json", "replay.json", "check.json", "moves.json", "status.json",
                     "verify.json", "position.json", "scenario-show.json", "batch-row.json",
                     "games.json", "simulate.json", "rules.json", "mail.json"}


def test_games_is_an_envelope() -> None:
    """Issue 32: `games --json` was a bare list; every --json is the shared envelope."""
    code, data = run_json("games")
    assert code == 0
    conforms(data, "games.json")
    assert [g["id"] for g in data["games"]][:2] == ["battle-card", "wwiic"]


def test_simulate_is_an_envelope() -> None:
    """Issue 32: `simulate --json` had no `schema` key."""
    code, data = run_json("simulate", "battle-card", "--games", "3")
    assert code == 0
    conforms(data, "simulate.json")
    assert data["schema"] == "referee/1" and data["games"] == 3


@pytest.mark.parametrize("command", ["status", "verify"])
def test_an_unreadable_log_prints_an_envelope(command: str, tmp_path: Path) -> None:
    """Issue 32: `status --json` (and `verify --json`) on a missing file printed nothing on
    stdout, where `replay` and `moves` print an envelope: one behaviour."""
    for log in (str(tmp_path / "missing.log"), "-"):
        result = CliRunner().invoke(main, [command, log, "--json"], input="garbage [\n")
        data = json.loads(result.stdout)
        conforms(data, f"{command}.json")
        assert result.exit_code == data["exit_code"] == 2
        assert data["state"] is None and data["problems"][0]["message"]


PENDING_ROLLS = {
    # a log of each game whose last line leaves a roll pending (issue 28: pending.dice)
    "battle-card": '[Game "battle-card"]\n',
    "wwiic": '[Game "wwiic"]\nsetup: clear; turn 6; weather clear; phase weather\n',
    "koenig-eindhoven": '[Game "koenig-eindhoven"]\nturn 1\n',
    "arnhem44": "".join((LOGS / "arnhem44" / "tabletop.log").read_text(encoding="utf-8")
                        .splitlines(True)[:68]),
}


@pytest.mark.parametrize("game", sorted(PENDING_ROLLS))
@pytest.mark.parametrize("command", ["replay", "moves"])
def test_pending_dice_keep_their_schema_in_every_game(
    command: str, game: str, tmp_path: Path
) -> None:
    """pending.dice: one {die, count, for[, then]} a batch, published in envelope.json."""
    log = tmp_path / f"{game}.log"
    log.write_text(PENDING_ROLLS[game], encoding="utf-8")
    _, data = run_json(command, str(log))
    conforms(data, f"{command}.json")
    dice = data["pending"]["dice"]
    assert dice and all(need["count"] >= 1 and need["for"] for need in dice)
    data["pending"]["dice"][0]["count"] = "four"
    assert validate(data, f"{command}.json")
    envelope = load("envelope.json")
    found = errors(data["pending"], envelope["$defs"]["pending"], envelope, "$.pending")
    assert any(problem.startswith("$.pending.dice[0].count") for problem in found)
