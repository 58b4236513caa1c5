"""Shared test setup: output pinned to 100 columns and no colour, whatever the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "logs"


@pytest.fixture(autouse=True)
def pinned_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every rich Console built during a test is 100 columns wide and colourless."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "50")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    yield


ENGINELESS = "no-engine"
"""The id of a game registered without an engine (``engineless`` fixture): every real game
has one now, and the referee's sentence for a game without one must still be tested."""


@pytest.fixture
def engineless(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register a game without an engine for one test; its id."""
    from referee import games
    from referee.core.names import NameIndex

    entry = games.GameEntry(ENGINELESS, "A Game Without An Engine", "-", None)
    monkeypatch.setitem(games.GAMES, ENGINELESS, entry)
    index: NameIndex[str] = NameIndex("game")
    for game_id in games.GAMES:
        index.add(game_id, game_id)
    monkeypatch.setattr(games, "_INDEX", index)
    return ENGINELESS
