"""Positions written at lines of random self-played games replay to exactly the state the
game had there (issue 8's round trip).  A position exists between impulses only: a line in
the middle of a combat's decisions is skipped, and so is a finished game."""

from __future__ import annotations

import pytest

from referee.api import position_text, replay_text
from referee.core.errors import RefereeError
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic import ENGINE


@pytest.mark.parametrize(("seed", "step"), [("rt1", 37), ("rt2", 23)])
def test_position_round_trip_over_a_self_played_game(seed: str, step: int) -> None:
    record = play_game(ENGINE, seed, random_policy, keep_log=True)
    assert record.log is not None and not record.broken
    lines = record.log.splitlines()
    checked = 0
    first = next(i for i, line in enumerate(lines, 1) if line.startswith("allied: move-out"))
    for upto in [first - 1, *range(4, len(lines), step)]:  # before the move-out (3.H) too
        original = replay_text(record.log, upto=upto)
        if (original.outcome() or {}).get("result"):
            continue
        try:
            text = position_text(original)
        except RefereeError:
            continue  # inside a combat's decisions: no position to write
        resumed = replay_text(text)
        assert resumed.problems == [], (upto, resumed.problems)
        assert resumed.state_json() == original.state_json(), upto
        assert resumed.draws == original.draws
        checked += 1
    assert checked >= 5
