"""legal() yields the same commands, in the same order, as the enumeration before the pair
search was made cheaper (issue 14: pairs looked up by where they end, the lifted search aimed
at those ends): compared at positions of the bundled full game and of self-played games."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.log import Entry
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic import engine as engine_module
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import WState
from tests.games.wwiic import legal_reference

FULL_GAME = Path(__file__).resolve().parents[3] / "logs" / "wwiic" / "full-game-draw.log"


class _Positions(Replayer):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.states: list[WState] = []

    def _entry(self, entry: Entry) -> None:
        super()._entry(entry)
        self.states.append(ENGINE.copy(self.report.state))


def _sample(text: str, source: str, every: int) -> list[WState]:
    replayer = _Positions(parse_log(text, source, engine=ENGINE), ENGINE)
    replayer.run()
    impulses = [s for s in replayer.states if not isinstance(ENGINE.legal(s), list)]
    return impulses[::every]


def _reference(state: WState, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    with monkeypatch.context() as patch:
        patch.setattr(engine_module, "activations", legal_reference.activations)
        return list(ENGINE.legal(state))


def test_full_game_positions_list_the_same_commands_in_the_same_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states = _sample(FULL_GAME.read_text(), "full-game-draw.log", every=25)
    assert len(states) >= 8
    for state in states:
        assert list(ENGINE.legal(state)) == _reference(state, monkeypatch)


def test_self_played_positions_list_the_same_commands_in_the_same_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = play_game(ENGINE, "legal-2", random_policy, keep_log=True)
    assert record.log is not None
    states = _sample(record.log, "self-play", every=30)
    assert len(states) >= 4
    for state in states:
        assert list(ENGINE.legal(state)) == _reference(state, monkeypatch)
