"""What keeps replay linear: the next action found in one pass, assertions that compute only
the values they name (and agree with the whole state JSON)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.core.dice import DiceStream, DiceTray
from referee.core.log import ActionLine, Entry, Expectation
from referee.core.parsing import parse_log
from referee.core.replay import _next_actions, replay
from referee.games import engine_for


def _naive(entries: list[Entry], start: int, limit: int | None) -> ActionLine | None:
    for entry in entries[start:]:
        if limit is not None and entry.number > limit:
            return None
        if isinstance(entry, ActionLine):
            return entry
    return None


@given(
    kinds=st.lists(st.booleans(), max_size=30),
    limit=st.one_of(st.none(), st.integers(0, 35)),
)
def test_next_actions_in_one_pass_match_a_scan_from_each_entry(
    kinds: list[bool], limit: int | None
) -> None:
    entries: list[Entry] = [
        ActionLine(n, "pass") if action else Expectation(n, "expect turn = 1", key="turn",
                                                         value="1", column=8)
        for n, action in enumerate(kinds, 1)
    ]
    found = _next_actions(entries, limit)
    assert found == [_naive(entries, i + 1, limit) for i in range(len(entries))]


def _positions(game: str, games: int, every: int) -> list[Any]:
    engine = engine_for(game)
    states = []
    for g in range(games):
        rng = random.Random(g)
        state = engine.setup(None, {})
        for step in range(400):
            if engine.to_act(state) is None:
                break
            if step % every == 0:
                states.append(engine.copy(state))
            quick = getattr(engine, "random_command", None)
            command = quick(state, rng) if quick else rng.choice(list(engine.legal(state)))
            engine.apply(state, command, DiceTray(DiceStream(f"{g}"), step * 50))
        states.append(state)
    return states


def test_battle_card_json_parts_are_its_state_json() -> None:
    engine = engine_for("battle-card")
    for state in _positions("battle-card", 10, 1):
        parts = engine.json_parts(state)  # type: ignore[attr-defined]
        assert {key: get() for key, get in parts.items()} == engine.to_json(state)


def test_wwiic_json_parts_agree_with_its_state_json() -> None:
    engine = engine_for("wwiic")
    for state in _positions("wwiic", 2, 25):
        whole = engine.to_json(state)
        for key, get in engine.json_parts(state).items():  # type: ignore[attr-defined]
            assert get() == whole[key], key


def test_assertions_read_values_after_the_state_changes() -> None:
    log = parse_log(
        '[Game "battle-card"]\n[Seed "17093953"]\n'
        "turn 1\nexpect turn = 1\nexpect Cities.ARNHEM.control = german\n"
        "expect outcome.result = null\n"
        "attack Eindhoven; attack Grave; attack Arnhem\npass\n"
        "turn 2\nexpect turn = 2\nexpect turn = 1\nexpect nothing.here = 1\n"
    )
    report = replay(log)
    assert [(p.line, p.message) for p in report.problems] == [
        (11, "the log expects turn = 1, but it is 2."),
        (12, "the state has no value 'nothing.here'."),
    ]
