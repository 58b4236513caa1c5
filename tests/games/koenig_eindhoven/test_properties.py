"""Hypothesis and self-play properties of the Eindhoven Bridge engine: legal() and apply()
agree, an illegal command changes nothing but the copy it was tried on, stacking and one
place per unit hold after every command, and positions written at any line replay to the
same state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api import position_text, replay_text
from referee.core.dice import DiceStream
from referee.core.errors import IllegalMove, RefereeError
from referee.core.selfplay import StreamDice, play_game, random_policy
from referee.games.koenig_eindhoven.commands import Move
from referee.games.koenig_eindhoven.engine import ENGINE

BOARD = ENGINE.board
HEXES = sorted(BOARD.hexes)
UNITS = sorted(u for u, s in BOARD.units.items() if not s.hq)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(5, 120), st.data())
def test_legal_and_apply_agree_and_illegal_changes_nothing(seed: int, steps: int,
                                                           data: st.DataObject) -> None:
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(str(seed)))
    for _ in range(steps):
        if ENGINE.to_act(state) is None:
            break
        # A random (mostly illegal) movement: refused without a trace, or accepted.
        unit = data.draw(st.sampled_from(UNITS))
        path = tuple(data.draw(st.lists(st.sampled_from(HEXES), min_size=1, max_size=3)))
        verb = data.draw(st.sampled_from(["move", "combined", "redeploy"]))
        before = ENGINE.to_json(state)
        trial = ENGINE.copy(state)
        try:
            ENGINE.apply(trial, Move(verb, unit, path), dice)
        except IllegalMove:
            # A refusal may leave the trial part-changed (Engine.apply): the caller's copy
            # is the undo, and the state it was copied from is untouched.
            assert ENGINE.to_json(state) == before
        legal = list(ENGINE.legal(state))
        command = legal[rng.randrange(len(legal))]
        ENGINE.apply(state, command, dice)  # a legal command is never refused
        assert ENGINE.invariants(state) == []


def test_random_self_play_games_end_after_turn_10_with_every_invariant() -> None:
    for seed in ("k1", "k2"):
        record = play_game(ENGINE, seed, random_policy)
        assert record.broken == []
        assert record.result is not None and "Game Turn 10" in (record.reason or "")


def test_position_round_trip_over_a_self_played_game() -> None:
    record = play_game(ENGINE, "rt", random_policy, keep_log=True)
    assert record.log is not None and not record.broken
    lines = record.log.splitlines()
    checked = 0
    for upto in range(4, len(lines), max(1, len(lines) // 12)):
        original = replay_text(record.log, upto=upto)
        if (original.outcome() or {}).get("result"):
            continue
        try:
            text = position_text(original)
        except RefereeError:
            continue  # inside an attack's decisions: no position to write
        resumed = replay_text(text)
        assert resumed.problems == [], (upto, resumed.problems)
        assert resumed.state_json() == original.state_json(), upto
        checked += 1
    assert checked >= 8
