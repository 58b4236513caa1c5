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
