"""The sample Eindhoven Bridge logs: replayed, each illegal line reported with its case, text
and JSON reports snapshotted."""

from __future__ import annotations

import io
import runpy
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from referee import output

from ...conftest import LOGS
from .conftest import expected, problems, run

SAMPLES = sorted((LOGS / "koenig-eindhoven").glob("*.log"))


def text_report(path: Path) -> str:
    report = run(path)
    report.source = f"logs/koenig-eindhoven/{path.name}"
    buffer = io.StringIO()
    console = output.make_console(buffer, width=100, color=False)
    output.print_report(console, report, events=True)
    return buffer.getvalue()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_log_text(path: Path, snapshot: SnapshotAssertion) -> None:
    assert text_report(path) == snapshot


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_log_json(path: Path, snapshot: SnapshotAssertion) -> None:
    report = run(path)
    report.source = f"logs/koenig-eindhoven/{path.name}"
    assert report.to_json() == snapshot


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_each_line_reported_with_its_case(path: Path) -> None:
    assert problems(run(path)) == expected(path)


def test_illegal_logs_cover_every_movement_and_operations_rule() -> None:
    rules = {rule for path in SAMPLES for _, _, rule in expected(path)}
    assert {"4.0", "6.0", "7.0", "7.1", "7.1.1", "8.0", "8.1", "8.1.1", "8.2", "8.3",
            "8.3.1", "8.4.1", "8.5", "9.0", "9.1", "9.2.2", "9.2.3", "10.0", "10.3", "11.0",
            "11.2"} <= rules


def test_tabletop_opening_reaches_turn_4_legally() -> None:
    report = run(LOGS / "koenig-eindhoven" / "opening-tabletop.log")
    assert report.problems == [] and report.exit_code == 0
    state = report.state_json()
    assert state is not None and state["turn"] == 4


def test_complete_game_is_ten_turns_played_by_both_sides_and_scored() -> None:
    report = run(LOGS / "koenig-eindhoven" / "complete-game.log")
    assert report.problems == [] and report.exit_code == 0
    state = report.state_json()
    assert state is not None and state["phase"] == "over" and state["turn"] == 10
    outcome = state["outcome"]
    assert outcome["result"] == "allied victory"
    vp = outcome["vp"]
    assert vp["allied"] == sum(vp["breakdown"]["allied"].values())
    assert vp["german"] == sum(vp["breakdown"]["german"].values())
    text = (LOGS / "koenig-eindhoven" / "complete-game.log").read_text(encoding="utf-8")
    assert "\nallied: " in text and "\ngerman: " in text  # both sides played


def test_complete_tabletop_log_records_every_die_and_replays_the_same_game() -> None:
    folder = LOGS / "koenig-eindhoven"
    tabletop = (folder / "complete-tabletop.log").read_text(encoding="utf-8")
    assert "\n[Seed " not in tabletop and "\n[Dice " not in tabletop
    table, seeded = run(folder / "complete-tabletop.log"), run(folder / "complete-game.log")
    assert table.problems == []
    assert table.state_json() == seeded.state_json()
    for line in tabletop.splitlines():
        step = line.split("#", 1)[0].split()
        if step and step[0] in ("artillery", "allied-support", "draw", "roll", "round",
                                "landing"):
            assert "{" in line, line  # every die and every HQ drawn is on its line


def test_complete_games_are_what_the_tool_writes() -> None:
    tool = Path(__file__).resolve().parents[3] / "tools" / "build_koenig_games.py"
    namespace = runpy.run_path(str(tool))
    for name, text in namespace["logs"]().items():
        assert (LOGS / "koenig-eindhoven" / name).read_text(encoding="utf-8") == text, name
