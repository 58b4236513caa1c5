"""Eindhoven Bridge through the generic machinery: ``referee moves``, ``render``, ``position``,
``simulate`` and a play-by-e-mail game started, played and verified."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

from ...conftest import LOGS

SAMPLE = LOGS / "koenig-eindhoven" / "opening-tabletop.log"


def test_moves_lists_each_units_operations_and_destinations() -> None:
    result = CliRunner().invoke(main, ["moves", str(SAMPLE), "--upto", "11"])
    assert result.exit_code == 0, result.output
    assert "awaiting Allied: formation 506's Operations" in result.output
    assert "3/506 (infantry) in road A/B: " in result.output
    # What a player writes: the whole path (issue 26), as the command play takes (issue 29).
    lines = result.output.splitlines()
    assert "  move 3/506 A->0113->0112" in lines and "  move 3/506 A->0113" in lines
    assert "  combined 3/506 A->0113" in lines


def test_render_draws_the_units_on_the_map(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(main, ["render", str(SAMPLE), "-o", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "Game Turn 4 (day)" in svg and "<title>1/935" in svg


def test_position_round_trip_of_the_sample() -> None:
    from referee.api import position_text, replay_text

    original = replay_text(SAMPLE.read_text(), upto=30)
    resumed = replay_text(position_text(original))
    assert resumed.problems == []
    assert resumed.state_json() == original.state_json()


def test_simulate_plays_complete_games() -> None:
    result = CliRunner().invoke(main, ["simulate", "koenig-eindhoven", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "Game Turn 10 completed" in result.output


def test_play_by_email_moderated_game(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "game.log"
    secret = tmp_path / "game.secret"
    assert runner.invoke(main, ["new", "koenig-eindhoven", "--commit", "-o", str(log)]
                         ).exit_code == 0
    played = runner.invoke(main, ["play", str(log), "--secret", str(secret)])
    assert played.exit_code == 0, played.output
    assert "is drawn" in played.output
    status = runner.invoke(main, ["status", str(log)])
    assert "Operations (7.0)" in status.output
    ended = runner.invoke(main, ["play", str(log), "--secret", str(secret), "end"])
    assert ended.exit_code == 0, ended.output
    verified = runner.invoke(main, ["verify", str(log), "--secret", str(secret)])
    assert verified.exit_code == 0 and "proved" in verified.output, verified.output


def test_hexes_by_printed_place_name() -> None:
    from referee.api import replay_text

    text = ('[Game "koenig-eindhoven"]\n[Seed "17091944"]\nartillery\nallied-support\n'
            "draw {cup: 935}\ngerman: move 1/935 D->1221->Best\n")
    report = replay_text(text)
    assert report.problems == []
    state = report.state_json()
    assert state is not None
    assert {u["id"]: u["hex"] for u in state["units"]}["1/935"] == "1121"


def test_batch_over_the_bundled_logs() -> None:
    import json
    from collections import Counter

    from .conftest import expected

    folder = LOGS / "koenig-eindhoven"
    result = CliRunner().invoke(main, ["batch", str(folder)])
    assert result.exit_code == 1  # the illegal-* logs break the rules, on purpose
    rows = {Path(row["path"]).name: row for row in map(json.loads, result.stdout.splitlines())}
    assert set(rows) == {p.name for p in folder.rglob("*.log")}  # scenario-files/ too
    for name, row in rows.items():
        cases = expected(Path(row["path"]))
        assert row["status"] == ("illegal" if cases else "legal"), name
        # A line for the wrong side cites the sequence of play, 4.0 (issue 28).
        cited = Counter(rule or "4.0" for _, kind, rule in cases if rule or kind == "wrong-side")
        assert row["problems_by_rule"] == dict(cited), name
    for name in ("complete-game.log", "complete-tabletop.log"):
        assert rows[name]["result"] == "allied victory" and rows[name]["turn"] == 10
    assert "Game Turn 10 completed" in rows["complete-game.log"]["reason"]
