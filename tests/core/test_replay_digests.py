"""Replay output is byte-identical to the code from before the speed work of issue 31: the
``--json`` document (problems, events, the final state, the pending decision, the outcome)
of every bundled log, and of self-played games of every game, as played and with a line
written twice (a refused line, undone).  The digests in ``replay_digests.json`` were made by
that code (``tests/core/replay_digests.py``); 10 games a game in the default run, all 200 with
``REFEREE_SLOW=1``."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from referee.games import GAMES
from tests.core.replay_digests import FIXTURE, ROOT, bundled_digest, self_played_digests

EXPECTED: dict[str, Any] = json.loads(FIXTURE.read_text())
SLOW = os.environ.get("REFEREE_SLOW") == "1"


@pytest.mark.parametrize("name", sorted(EXPECTED["bundled"]))
def test_bundled_log_replays_as_before(name: str) -> None:
    assert bundled_digest(ROOT / name) == EXPECTED["bundled"][name]


def test_every_bundled_log_has_a_digest() -> None:
    found = {path.relative_to(ROOT).as_posix() for path in (ROOT / "logs").rglob("*.log")}
    assert found <= set(EXPECTED["bundled"]), sorted(found - set(EXPECTED["bundled"]))


@pytest.mark.parametrize("game", list(GAMES))
def test_self_played_games_replay_as_before(game: str) -> None:
    expected = EXPECTED["self_played"][game]
    assert len(expected) == 200
    for index in range(len(expected) if SLOW else 10):
        assert self_played_digests(game, index) == expected[index], (game, index)

