"""Questions a replay asks again and again, answered the short way (issue 31), against the
long way on every position where they are asked while replaying the bundled logs and playing
and replaying self-played games:

- ``advance_objective`` (after every move) looks first at where the 30 Corps units stand:
  the marker as ``along_club_route``, the search from De Groote, leaves it, events included;
- ``WState.units_in`` (retreats, placements) as a loop over ``location`` picks them;
- ``has_unspent`` (before every line), on random positions too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.core.engine import Event
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic import activation, arrivals, battle, sequence, victory
from referee.games.wwiic.board import ALLIED, GERMAN, Board
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import WState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "wwiic"


def _checking(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every question asked from now on checked against the long way; how many were asked,
    and how many of them had the rarer answer."""
    asked = {"objective": 0, "advances": 0, "units_in": 0}
    advance, units_in = victory.advance_objective, WState.units_in

    def checked_advance(board: Board, state: WState, events: list[Event],
                        occupants: Mapping[str, Sequence[str]] | None = None) -> None:
        other, other_events = state.copy(), list(events)
        victory.along_club_route(board, other, other_events, occupants)
        before = state.objective_marker
        advance(board, state, events, occupants)
        assert state.objective_marker == other.objective_marker
        assert [(e.kind, e.text, e.data) for e in events] == [
            (e.kind, e.text, e.data) for e in other_events]
        asked["objective"] += 1
        asked["advances"] += state.objective_marker != before

    def checked_units_in(state: WState, place: str | None) -> list[str]:
        answer = units_in(state, place)
        assert answer == [u for u, p in state.location.items() if p == place]
        asked["units_in"] += 1
        return answer

    for module in (activation, arrivals, battle):
        monkeypatch.setattr(module, "advance_objective", checked_advance)
    monkeypatch.setattr(WState, "units_in", checked_units_in)
    return asked


def _replayed(texts: list[tuple[str, str]]) -> None:
    for name, text in texts:
        replay(parse_log(text, name, engine=ENGINE), ENGINE)


def test_the_bundled_logs_questions_are_answered_as_the_long_way_answers() -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        asked = _checking(monkeypatch)
        _replayed([(p.name, p.read_text(encoding="utf-8"))
                   for p in sorted(LOGS.glob("*.log"))])
    assert min(asked.values()) > 0, asked


def test_self_played_games_questions_are_answered_as_the_long_way_answers() -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        asked = _checking(monkeypatch)
        logs: list[tuple[str, str]] = []
        for seed in range(6):
            log: Any = play_game(ENGINE, f"questions-{seed}", random_policy, keep_log=True,
                                 check=False).log
            logs.append((f"questions-{seed}", log or ""))
        _replayed(logs)
    assert min(asked.values()) > 0, asked
    assert asked["objective"] > 1000


def test_has_unspent_on_random_positions() -> None:
    """``has_unspent`` goes through the side's own units (``Board.units_of``): as ``unspent``
    lists them, on positions with units anywhere (boxes, the ferry, out of play) and any
    share of them spent, all of them too."""
    rng = random.Random(31)
    board = ENGINE.board
    places = [*board.kind, None, None]
    answers = {True: 0, False: 0}
    for _ in range(3000):
        state = ENGINE.setup(None, {})
        for unit in board.unit_order:
            state.location[unit] = rng.choice(places)
        share = rng.choice((rng.random(), 0.97, 1.0))
        state.spent = {u for u in board.unit_order if rng.random() < share}
        for side in (ALLIED, GERMAN):
            answer = sequence.has_unspent(board, state, side)
            assert answer == bool(sequence.unspent(board, state, side))
            answers[answer] += 1
    assert min(answers.values()) > 1000
