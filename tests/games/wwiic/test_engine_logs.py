"""The sample WWII Commander logs: replayed, their text and JSON reports snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from referee import output
from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.wwiic.engine import ENGINE

from ...conftest import LOGS

SAMPLES = sorted((LOGS / "wwiic").glob("*.log"))


def replayed(path: Path) -> Report:
    report = replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)
    report.source = f"logs/wwiic/{path.name}"
    return report


def text_report(path: Path) -> str:
    buffer = io.StringIO()
    console = output.make_console(buffer, width=100, color=False)
    output.print_report(console, replayed(path), events=True)
    return buffer.getvalue()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_log_text(path: Path, snapshot: SnapshotAssertion) -> None:
    assert text_report(path) == snapshot


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_log_json(path: Path, snapshot: SnapshotAssertion) -> None:
    data = replayed(path).to_json()
    assert data == snapshot


def test_opening_log_is_legal_and_reaches_turn_2() -> None:
    report = replayed(LOGS / "wwiic" / "opening.log")
    assert report.problems == []
    assert report.exit_code == 0
    state = report.state_json()
    assert state is not None and state["turn"] == 2 and state["half"] == "AM"
    texts = [e.event.text for e in report.events]
    assert any(t.startswith("4. supply check, Allied") for t in texts)
    assert any(t.startswith("5. reinforcement: 2HC enters at De Groote") for t in texts)


def expected_problems(path: Path) -> set[tuple[int, str, str]]:
    """(line, kind, rule) of every line whose comment starts with a section: 'RULE: why'."""
    expected = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if "#" in line and not line.startswith("#"):
            rule = line.split("#", 1)[1].strip().split(":", 1)[0]
            if rule != "legal":
                expected.add((number, "illegal-move", rule))
    return expected


ILLEGAL = sorted((LOGS / "wwiic").glob("illegal-*.log"))


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_illegal_logs_report_each_move_with_its_section(path: Path) -> None:
    report = replayed(path)
    found = {(p.line, str(p.kind), p.rule) for p in report.problems}
    assert found == expected_problems(path)


def test_illegal_logs_cover_every_movement_rule() -> None:
    rules = {rule for path in ILLEGAL for _, _, rule in expected_problems(path)}
    assert {"3.H", "4", "6", "6.1", "6.2", "6.3", "6.4", "6.5", "8.2", "7"} <= rules
    report = replayed(LOGS / "wwiic" / "illegal-movement.log")
    pending = report.pending()
    assert pending is not None and pending["text"].startswith("awaiting Allied: must attack")

DOC = LOGS.parent / "docs" / "wwiic-log-format.md"


def test_the_log_format_page_game_replays_cleanly() -> None:
    text = DOC.read_text(encoding="utf-8")
    game = text.split("```\n", 2)[1]
    report = replay(parse_log(game, "doc", engine=ENGINE), ENGINE)
    assert report.problems == []


def test_every_example_on_the_log_format_page_reads() -> None:
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `") and line.count("`") >= 4]
    examples = [row.rsplit("|", 2)[-2].strip().strip("`") for row in rows]
    assert len(examples) >= 25
    log = parse_log('[Game "wwiic"]\n' + "\n".join(examples) + "\n", engine=ENGINE)
    assert log.problems == []
    assert len(log.entries) == len(examples)


def test_illegal_logs_cover_every_rule_of_sections_7_to_10() -> None:
    rules = {rule for path in ILLEGAL for _, _, rule in expected_problems(path)}
    assert {"7", "7.5", "7.6", "7.7", "8.2", "9", "10"} <= rules


@pytest.mark.parametrize(("name", "result", "winner"), [
    ("full-game-draw.log", "draw", None),
    ("early-german-victory-turn-8.log", "german victory", "german"),
    ("early-allied-victory-arnhem.log", "allied victory", "allied"),
    ("early-victory-eliminated-units.log", "allied victory", "allied"),
    ("early-german-victory-eliminated-units.log", "german victory", "german"),
])
def test_complete_games_end_with_their_result(name: str, result: str, winner: str | None) -> None:
    report = replayed(LOGS / "wwiic" / name)
    assert report.problems == []
    outcome = report.outcome()
    assert outcome is not None
    assert outcome["result"] == result and outcome["winner"] == winner
    assert report.pending() is None


def test_full_game_log_plays_all_13_turns_with_combat() -> None:
    report = replayed(LOGS / "wwiic" / "full-game-draw.log")
    state = report.state_json()
    assert state is not None and state["turn"] == 13 and state["phase"] == "over"
    kinds = {e.event.kind for e in report.events}
    assert {"combat-fire", "hits", "supply", "reinforcement", "replacement"} <= kinds


def test_pbem_log_stops_on_a_pending_retreat_decision() -> None:
    report = replayed(LOGS / "wwiic" / "pbem-pending-retreat.log")
    assert report.problems == []
    pending = report.pending()
    assert pending is not None and pending["side"] == "allied"
    assert "Allied defender at Mook" in pending["text"]
    assert any(c.startswith("retreat ") for c in pending["choices"])
