"""The Arnhem '44 logs: replayed, their text and JSON reports snapshotted; the illegal log's
problems are exactly the lines it marks."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from referee import output
from referee.core.replay import Report
from tests.games.arnhem44.helpers import marked_lines
from tests.games.arnhem44.helpers import replayed as replay_log

from ...conftest import LOGS

SAMPLES = sorted((LOGS / "arnhem44").glob("*.log"))


def replayed(path: Path) -> Report:
    report = replay_log(path)
    report.source = f"logs/arnhem44/{path.name}"
    return report


def text_report(path: Path) -> str:
    buffer = io.StringIO()
    console = output.make_console(buffer, width=100, color=False)
    output.print_report(console, replayed(path), events=True)
    return buffer.getvalue()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_log_text(path: Path, snapshot: SnapshotAssertion) -> None:
    assert text_report(path) == snapshot


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_log_json(path: Path, snapshot: SnapshotAssertion) -> None:
    assert replayed(path).to_json() == snapshot


def test_illegal_log_reports_each_marked_line_with_its_rule() -> None:
    path = LOGS / "arnhem44" / "illegal-ground-war.log"
    marked = marked_lines(path)
    report = replayed(path)
    assert {(p.line, p.rule) for p in report.problems} == marked
    kinds = {str(p.kind) for p in report.problems}
    assert "illegal-move" in kinds and kinds <= {"illegal-move", "not-implemented"}
    assert report.exit_code == 1


def test_illegal_barrage_log_reports_each_marked_line_with_its_heading() -> None:
    """Phase 1 - Barrage Fire, Artillery and Barrage Fire, Jokers: one illegal line a rule."""
    path = LOGS / "arnhem44" / "illegal-barrage.log"
    marked = marked_lines(path)
    report = replayed(path)
    assert {(p.line, p.rule) for p in report.problems} == marked
    assert {p.rule for p in report.problems} == {
        "Phase 1", "Artillery/Barrage", "Artillery/InDisputed", "Units/Artillery", "Jokers"}
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    state = report.state_json()
    assert state is not None and state["phase"] == "4.2"  # Mill's combat roll waits
    assert state["jokers"]["held"] == {"allied": 0, "german": 1}


def test_illegal_veterans_log_reports_each_option_with_its_heading() -> None:
    """Veterans Only, options 1-5 together: one illegal line per option."""
    path = LOGS / "arnhem44" / "illegal-veterans.log"
    report = replayed(path)
    assert {(p.line, p.rule) for p in report.problems} == marked_lines(path)
    assert {p.rule for p in report.problems} == {
        "Veterans/1", "Veterans/2", "Veterans/3", "Veterans/4", "Jokers"}
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    state = report.state_json()
    assert state is not None and state["phase"] == "5.1"
    assert state["jokers"] == {"off": True, "held": {"uk": 0, "us": 0, "german": 0},
                               "move_sector": None}


def test_opening_log_sets_up_and_plays_round_one() -> None:
    report = replayed(LOGS / "arnhem44" / "opening.log")
    assert report.problems == []
    texts = [e.event.text for e in report.events]
    assert any(t.startswith("Phase 2.1 - Airborne Troops (green markers): ") for t in texts)
    assert any(t.startswith("anti-aircraft fire in Groesbeek") for t in texts)
    assert any(t.startswith("Phase 2.3 - Distributing Supplies: 1AB distributes") for t in texts)
    assert "Phase 1 - Barrage Fire: there is no phase 1 in the first round (The 1st Round)" \
        in texts
    state = report.state_json()
    assert state is not None and state["round"] == 2 and state["night"] is True


def test_illegal_bailey_log_reports_each_marked_line_with_its_heading() -> None:
    """Phase 3.4, the green die of Phase 6.2 and the ferries: one illegal line per rule."""
    path = LOGS / "arnhem44" / "illegal-bailey.log"
    marked = marked_lines(path)
    report = replayed(path)
    assert {(p.line, p.rule) for p in report.problems} == marked
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    assert len(marked) == 13
