"""Random legal self-play: invariants hold after every command; legal() and apply() agree;
an illegal command leaves the state as it was; saved logs replay identically."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api import replay_text
from referee.core.dice import DiceStream
from referee.core.errors import IllegalMove, RefereeError
from referee.core.selfplay import StreamDice, play_game, random_policy, summarise
from referee.games.battle_card import ENGINE
from referee.games.battle_card.commands import Fight, Move, Pass
from referee.games.battle_card.state import Step

ALL_PLACES = ("Belgium", "Eindhoven", "Grave", "Nijmegen", "Arnhem")
ALL_UNITS = ("30-corps", "101st", "82nd", "1st")


def every_command() -> list[object]:
    """Every command that can be written, legal or not."""
    commands: list[object] = [Pass()]
    for city in ALL_PLACES:
        commands += [Fight(city, True), Fight(city, False)]
    for unit in ALL_UNITS:
        for a in ALL_PLACES:
            for b in ALL_PLACES:
                commands.append(Move(unit, a, b))
    return commands


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_self_play_keeps_every_invariant(seed: int) -> None:
    record = play_game(ENGINE, f"h{seed}", random_policy)
    assert record.broken == []
    assert record.result in ("win", "loss")


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_legal_and_apply_agree_and_illegal_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(str(seed)))
    candidates = every_command()
    while ENGINE.to_act(state) is not None:
        legal = list(ENGINE.legal(state))
        legal_text = {str(c) for c in legal}
        if state.step in (Step.COMBAT, Step.MOVEMENT):
            for command in rng.sample(candidates, 12):
                if str(command) in legal_text:
                    continue
                before = ENGINE.to_json(state)
                position = dice.position
                try:
                    ENGINE.apply(state, command, dice)  # type: ignore[arg-type]
                except RefereeError as error:
                    assert isinstance(error, IllegalMove)
                else:
                    raise AssertionError(f"{command} was accepted but is not in legal()")
                assert ENGINE.to_json(state) == before
                assert dice.position == position
        for command in legal:  # every legal command is accepted (on a copy)
            ENGINE.apply(ENGINE.copy(state), command, StreamDice(DiceStream("probe")))
        ENGINE.apply(state, rng.choice(legal), dice)
        assert ENGINE.invariants(state) == []


def test_saved_self_play_logs_replay_identically() -> None:
    for i in range(30):
        record = play_game(ENGINE, f"replay-{i}", ENGINE.policies["greedy"], keep_log=True)
        assert record.log is not None
        report = replay_text(record.log)
        assert report.ok, report.problems
        assert report.outcome() is not None
        assert report.outcome()["result"] == record.result  # type: ignore[index]


def test_summary_interval_contains_the_rate() -> None:
    records = [play_game(ENGINE, f"s-{i}", ENGINE.policies["greedy"]) for i in range(200)]
    summary = summarise(records)
    share, low, high = summary.rate("win")
    assert summary.games == 200
    assert low <= share <= high
    assert 0.0 < share < 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_command_is_the_random_policy_choice_from_the_same_draw(seed: int) -> None:
    """``random_command`` (self-play's shortcut) picks what ``random_policy`` picks from
    ``legal()`` with the same generator state, and a forced referee step without a draw."""
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(str(seed)), keep_rolls=False)
    quick, slow = random.Random(seed), random.Random(seed)
    while (side := ENGINE.to_act(state)) is not None:
        legal = list(ENGINE.legal(state))
        expected = legal[0] if side == "referee" and len(legal) == 1 else random_policy(
            state, legal, slow
        )
        command = ENGINE.random_command(state, quick)
        assert command == expected
        assert quick.getstate() == slow.getstate()
        ENGINE.apply(state, command, dice)


def test_rolls_kept_or_not_the_faces_are_the_same() -> None:
    kept = StreamDice(DiceStream("same"))
    bare = StreamDice(DiceStream("same"), keep_rolls=False)
    for sides, count in [(6, 1), (6, 3), (10, 2), (6, 1), (20, 5), (6, 1)]:
        assert kept.roll(sides, count, "x") == bare.roll(sides, count, "x")
    assert kept.draw(["a", "b", "c"]) == bare.draw(["a", "b", "c"])
    assert kept.position == bare.position
    assert len(kept.rolls) == 7 and bare.rolls == []
