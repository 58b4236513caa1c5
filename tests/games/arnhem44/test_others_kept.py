"""Issue 31: Veterans/3's "no combined actions" check compares the other Allied player's
figures before and after each movement command, kept on each sector's figures
(``turns._others_here``).  Compared with the whole count made afresh (the way it was: one
Counter over every sector) at every command of the three-player logs and self-played
three-player games, and a command that moved the other player's figures is still refused."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.api import replay_text
from referee.core.errors import IllegalMove
from referee.core.selfplay import play_game, random_policy
from referee.games.arnhem44 import turns
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.options import player_of

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"


def _afresh(state: Any) -> Counter[Any]:
    out: Counter[Any] = Counter()
    for sector, counts in state.units.items():
        for key, n in counts.items():
            if key[0] != "DE" and player_of(key[0]) != state.part:
                out[(sector, key)] = n
    return out


def _flat(kept: dict[str, dict[Any, int]]) -> Counter[Any]:
    return Counter({(sector, key): n for sector, here in kept.items() for key, n in here.items()})


def test_the_kept_figures_are_the_counted_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    real_others, real_check = turns.others, turns.check_own
    befores: list[Counter[Any]] = []
    checked = {"same": 0, "moved": 0}

    def others(state: Any) -> dict[str, dict[Any, int]]:
        kept = real_others(state)
        assert _flat(kept) == _afresh(state)
        assert real_others(state) == kept  # asked again: the kept answer
        befores.append(_afresh(state))
        return kept

    def check_own(before: Any, state: Any, part: str | None) -> None:
        counted_moved = part == state.part and _afresh(state) != befores[-1]
        try:
            real_check(before, state, part)
        except Exception:
            assert counted_moved
            checked["moved"] += 1
            raise
        assert not counted_moved
        checked["same"] += 1

    monkeypatch.setattr(turns, "others", others)
    monkeypatch.setattr(turns, "check_own", check_own)
    for name in ("three-players.log", "illegal-veterans.log"):
        replay_text((LOGS / name).read_text(encoding="utf-8"))
    for seed in range(4):
        play_game(ENGINE, f"kept-{seed}", random_policy, options={"three-players": "on"})
    assert checked["same"] > 1000, checked


def test_a_command_that_moved_the_other_players_figures_is_refused() -> None:
    lines = (LOGS / "illegal-veterans.log").read_text(encoding="utf-8").splitlines()
    state = replay_text("\n".join(lines[:34]) + "\n").state
    assert state is not None and state.phase == "4.1" and state.part == "uk"
    sector = next(iter(state.units))
    for key, refused in ((("UK", "inf"), False), (("1AB", "inf"), False),
                         (("US", "inf"), True), (("82", "tank"), True)):
        work = state.copy()
        before = turns.others(work)
        work.add(sector, key)
        assert (turns.others(work) != before) is refused
        try:
            turns.check_own(before, work, "uk")
        except IllegalMove:
            assert refused
        else:
            assert not refused
        assert turns.others(state) == before  # the original's figures are as they were
