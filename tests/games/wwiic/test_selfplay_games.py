"""Random self-play of complete games: every command legal, every invariant kept after every
command (stacking, one place per unit, strengths within the unit's counters, control, VP
markers consistent with the eliminated units and the objective marker), every game ending.

20 games in the default run; 500 more with ``REFEREE_SLOW=1`` (marked ``slow``).
"""

from __future__ import annotations

import os

import pytest

from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic.engine import ENGINE


def check_game(seed: int) -> None:
    """One game through the core's self-play (the engine draws its random commands), every
    invariant (VP markers included) checked after every command."""
    record = play_game(ENGINE, str(seed), random_policy, keep_log=True)
    assert record.broken == [], (seed, (record.log or "").splitlines()[-5:], record.broken)
    assert record.result in ("allied victory", "german victory", "draw")


@pytest.mark.parametrize("seed", range(20))
def test_random_self_play_finishes_with_every_invariant(seed: int) -> None:
    check_game(seed)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("REFEREE_SLOW") != "1", reason="set REFEREE_SLOW=1")
@pytest.mark.parametrize("seed", range(1000, 1500))
def test_random_self_play_500_games(seed: int) -> None:
    check_game(seed)


def test_core_random_policy_plays_a_complete_game() -> None:
    """``referee simulate wwiic --policy random``: the core's uniform policy, to the end."""
    record = play_game(ENGINE, "3", random_policy)
    assert record.broken == []
    assert record.result in ("allied victory", "german victory", "draw")
