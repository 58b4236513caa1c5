"""The sample Eindhoven Bridge logs: replayed, each illegal line reported with its case, text
and JSON reports snapshotted."""

from __future__ import annotations

import io
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
            "8.3.1", "8.4.1", "8.5", "9.0", "9.1", "9.2.2", "9.2.3", "10.3", "11.0",
            "11.2"} <= rules


def test_tabletop_opening_reaches_turn_4_legally() -> None:
    report = run(LOGS / "koenig-eindhoven" / "opening-tabletop.log")
    assert report.problems == [] and report.exit_code == 0
    state = report.state_json()
    assert state is not None and state["turn"] == 4
