"""A map view of the positions the last view was made of or left copies that view's counts
(``MapView.keep``, issue 31) instead of counting the units: every view made while replaying
the bundled logs (the illegal ones too: a refused line leaves the state as it was) and while
playing and replaying self-played games must hold what counting gives (``mapview.counted``:
the same units in each place, in the same order, and the same counts), and most of the
replays' views must have come from the kept counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic import mapview
from referee.games.wwiic.board import Board
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.mapview import MapView, counted
from referee.games.wwiic.state import WState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "wwiic"


def _checking(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every view made from now on checked against counting; how many there were, and how
    many copied kept counts."""
    made = {"views": 0, "kept": 0}
    original = MapView.__init__

    def checked(self: MapView, board: Board, state: WState) -> None:
        kept = mapview._kept
        made["kept"] += kept is not None and kept[0] is board and kept[1] == state.location
        made["views"] += 1
        original(self, board, state)
        assert (self.occ, self.n_allied, self.n_german) == counted(board, state.location)

    monkeypatch.setattr(MapView, "__init__", checked)
    return made


def _replayed(texts: list[tuple[str, str]]) -> None:
    for name, text in texts:
        replay(parse_log(text, name, engine=ENGINE), ENGINE)


def test_every_view_of_the_bundled_logs_counts_as_counting_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _checking(monkeypatch)
    _replayed([(p.name, p.read_text(encoding="utf-8")) for p in sorted(LOGS.glob("*.log"))])
    assert made["views"] > 400
    assert made["kept"] > made["views"] // 2


def test_every_view_of_self_played_games_counts_as_counting_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _checking(monkeypatch)
    logs: list[tuple[str, str]] = []
    for seed in range(6):  # the policy's legal() makes views too, moves tried and taken back
        log: Any = play_game(ENGINE, f"kept-{seed}", random_policy, keep_log=True,
                             check=False).log
        logs.append((f"kept-{seed}", log or ""))
    assert made["views"] > 1000
    made["views"] = made["kept"] = 0
    _replayed(logs)
    assert made["views"] > 300
    assert made["kept"] > made["views"] // 2


def test_a_view_taken_back_is_not_kept() -> None:
    """``undo`` puts a unit back at the end of its place's units: such a view's counts are
    not kept (the logs above seldom take an activation back)."""
    board = ENGINE.board
    state = ENGINE.setup(None, {})
    view = MapView(board, state)
    place, units = next((p, u) for p, u in view.occ.items() if len(u) >= 2)
    other = next(p for p in board.exits[place] if p not in view.occ)
    mark = view.mark()
    view.move(units[0], place, other)
    view.undo(mark)
    assert view.occ[place] == (*units[1:], units[0])
    state.location = view.loc  # as commit leaves it
    view.keep()
    again = MapView(board, state)
    assert (again.occ, again.n_allied, again.n_german) == counted(board, state.location)
    assert again.occ[place] == units
