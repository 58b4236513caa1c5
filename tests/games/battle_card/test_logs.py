"""The canonical Battle Card logs: replayed, their text and JSON reports snapshotted."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from referee import output
from referee.api import replay_file

from ...conftest import LOGS

CANONICAL = sorted((LOGS / "battle-card").glob("*.log"))


def text_report(path: Path, events: bool = True) -> str:
    buffer = io.StringIO()
    console = output.make_console(buffer, width=100, color=False)
    report = replay_file(path)
    report.source = f"logs/battle-card/{path.name}"
    output.print_report(console, report, events=events)
    return buffer.getvalue()


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.stem)
def test_canonical_log_text(path: Path, snapshot: SnapshotAssertion) -> None:
    assert text_report(path) == snapshot


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.stem)
def test_canonical_log_json(path: Path, snapshot: SnapshotAssertion) -> None:
    data = replay_file(path).to_json()
    data["source"] = path.name
    assert data == snapshot


EXPECTED = {
    "win": (0, "win", "30th Corps reached Arnhem"),
    "loss-time": (0, "loss", "6 turns are complete"),
    "loss-elimination": (0, "loss", "all Allied forces have left the game"),
    "tabletop": (0, "loss", "6 turns are complete"),
    "moves-back": (0, "loss", "6 turns are complete"),
    "pending": (0, None, None),
    "illegal": (2, None, None),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_canonical_log_outcome(name: str) -> None:
    report = replay_file(LOGS / "battle-card" / f"{name}.log")
    code, result, reason = EXPECTED[name]
    assert report.exit_code == code
    outcome = report.outcome()
    assert outcome is not None
    assert (outcome["result"], outcome["reason"]) == (result, reason)


def test_pending_log_reports_the_open_decision() -> None:
    report = replay_file(LOGS / "battle-card" / "pending.log")
    pending = report.pending()
    assert pending is not None
    assert pending["side"] == "allied"
    assert pending["text"].startswith("awaiting Allied: move 30th Corps")
    assert "pass" in pending["choices"]


def test_illegal_log_reports_every_kind() -> None:
    report = replay_file(LOGS / "battle-card" / "illegal.log")
    kinds = {(p.line, str(p.kind), p.rule) for p in report.problems}
    assert kinds == {
        (7, "illegal-move", "Turn step 1"),
        (8, "dice-mismatch", None),
        (9, "illegal-move", "Turn step 1"),
        (10, "dice-extra", None),
        (12, "syntax", None),
        (13, "unknown-name", None),
        (14, "wrong-side", "Turn steps 1-5"),  # the card's sequence of play
        (15, "illegal-move", "Turn step 1"),
        (17, "illegal-move", "Turn step 3"),
        (18, "illegal-move", "Turn step 3"),
        (19, "assertion", None),
        (21, "dice-mismatch", None),
    }


def test_seeded_log_replays_identically_with_or_without_its_dice() -> None:
    """loss-time.log records the dice its seed rolls; without them the result is the same."""
    path = LOGS / "battle-card" / "loss-time.log"
    stripped = re.sub(r"\{[^}]*\}", "", path.read_text())
    from referee.api import replay_text

    with_dice, without = replay_file(path), replay_text(stripped)
    assert with_dice.ok and without.ok
    assert with_dice.state_json() == without.state_json()


def test_turn_3_moves_back_toward_belgium_are_legal() -> None:
    """Turn step 3 "move either the 30th Corps or any Allied unit to an adjacent location" names no
    direction (reading 13): in moves-back.log 30th Corps goes Grave->Eindhoven and the 82nd,
    with it in Grave, goes back to Eindhoven and joins the 101st, and every line is legal."""
    report = replay_file(LOGS / "battle-card" / "moves-back.log")
    assert report.problems == [] and report.exit_code == 0
    moves = [e.event.text for e in report.events if e.event.kind == "move"]
    assert "30th Corps moves Grave->Eindhoven" in moves
    assert "82nd moves Grave->Eindhoven" in moves
    assert any(e.event.kind == "merge" and "82nd joins 101st" in e.event.text
               for e in report.events)
