"""``Engine.forced`` in block 6 (phases 6.1-6.3) stops at the second command it finds
(``legal.block_six_options``) instead of listing every placement: here it is compared with
the long way, ``legal()``'s one command or none, before every command of the bundled logs and
of self-played games (reserves rolled, entered and placed, held over the Rhine)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.core.dice import DiceStream, DiceTray
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.commands import Command
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.legal import legal
from referee.games.arnhem44.state import RESERVES, AState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"


class _Compared:
    """Wraps the engine's ``forced``: in block 6, its answer against the long way."""

    def __init__(self) -> None:
        self.forced = ENGINE.forced
        self.asked: dict[str, int] = {}
        self.differ: list[str] = []

    def __call__(self, state: AState) -> Command | None:
        answer = self.forced(state)
        if state.phase in RESERVES:
            options = legal(ENGINE.board, state)
            long_way = options[0] if len(options) == 1 else None
            if state.phase == "6.2" and not state.arriving:
                long_way = None  # the Allied player's choice of die, written with its roll
            self.asked[state.phase] = self.asked.get(state.phase, 0) + 1
            if str(answer) != str(long_way) or type(answer) is not type(long_way):
                self.differ.append(f"{state.phase} round {state.round}: {answer} against "
                                   f"{long_way}")
        return answer


def test_block_six_forced_is_the_long_way_in_the_bundled_logs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compared = _Compared()
    monkeypatch.setattr(ENGINE, "forced", compared)
    for path in sorted(LOGS.glob("*.log")):
        replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)
    assert compared.differ == []
    assert set(compared.asked) == set(RESERVES) and sum(compared.asked.values()) > 150


@pytest.mark.parametrize("options", [{}, {"three-players": "on"}])
def test_block_six_forced_is_the_long_way_in_self_played_games(
        monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]) -> None:
    compared = _Compared()
    for seed in ("reserves-1", "reserves-2", "reserves-3"):
        state = ENGINE.setup(None, options)
        rng = random.Random(seed)
        stream, position = DiceStream(seed), 0
        while ENGINE.to_act(state) is not None:
            compared(state)
            command = ENGINE.random_command(state, rng)
            tray = DiceTray(stream, position, subject=command)
            ENGINE.apply(state, command, tray)
            position = tray.position
    assert compared.differ == []
    assert set(compared.asked) == set(RESERVES) and sum(compared.asked.values()) > 100
