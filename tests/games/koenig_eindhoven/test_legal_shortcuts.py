"""The shortcuts that keep self-play and replay fast agree with the full listing of legal
commands: the random player's draw is always a legal command, ``forced`` (which only asks
whether a unit can take a first step) matches ``legal()``, and one move search serves both a
Movement (8.0) and a Combined Operation (8.4, half the MA) as two searches would."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.dice import DiceStream
from referee.core.selfplay import StreamDice
from referee.games.koenig_eindhoven.commands import Move
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.legal import (
    VERBS,
    actors,
    choosing,
    destinations,
    random_destination,
)
from referee.games.koenig_eindhoven.state import KState, Phase

BOARD = ENGINE.board


def check_position(state: KState, rng: random.Random) -> None:
    listed = list(ENGINE.legal(state))
    texts = {str(c) for c in listed}
    assert len(texts) == len(listed)  # no command listed twice
    drawn = ENGINE.random_command(state, random.Random(rng.random()))
    assert str(drawn) in texts
    assert ENGINE.forced(state) == (listed[0] if len(listed) == 1 else None)
    if state.phase is Phase.OPERATIONS and choosing(state) and state.battle is None:
        for unit in actors(BOARD, state):
            both = destinations(BOARD, state, unit, ("move", "combined"))
            for verb in ("move", "combined"):
                alone = destinations(BOARD, state, unit, (verb,))
                assert alone == [d for d in both if d[0] == verb]


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10_000))
def test_the_random_draw_forced_and_one_search_agree_with_legal(seed: int) -> None:
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(f"shortcut-{seed}"))
    positions = 0
    while ENGINE.to_act(state) is not None:
        check_position(state, rng)
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
        positions += 1
    assert positions > 100 and state.result is not None


def test_forced_ends_an_activation_with_nothing_left_to_do() -> None:
    """7.2: when no unit of the active formation can move or fire, ``end`` is the only
    legal command and the referee applies it."""
    rng = random.Random(7)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream("forced-end"))
    seen = 0
    while ENGINE.to_act(state) is not None and seen < 3:
        listed = list(ENGINE.legal(state))
        if choosing(state) and state.battle is None and len(listed) == 1:
            assert str(ENGINE.forced(state)) == "end"
            seen += 1
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
    assert seen >= 1


def test_invariants_name_each_broken_one() -> None:
    """The one-pass check of every command finds each kind of breakage, and the sentences
    name it: hits 0-2 (9.2), stacking (8.2), one place per unit (2.1), statuses."""
    state = ENGINE.setup(None, {})
    units = sorted(state.hex)
    for unit, place in zip(units[:3], ("0505", "0505", "0606"), strict=True):
        state.hex[unit], state.status[unit] = place, "in play"
    assert ENGINE.invariants(state) == []
    a, b, c, due = units[:4]
    cases = {
        f"{a} has 3 hits": lambda s: s.hits.__setitem__(a, 3),
        "0505 holds 3 units (8.2": lambda s: s.hex.__setitem__(c, "0505"),
        f"{a} is in play but its hex is None": lambda s: s.hex.__setitem__(a, None),
        f"{due} is due but its hex is 0101": lambda s: s.hex.__setitem__(due, "0101"),
        f"{due} has an unknown status 'lost'": lambda s: s.status.__setitem__(due, "lost"),
        f"{b} is in 9999, which is not on the map": lambda s: s.hex.__setitem__(b, "9999"),
    }
    for words, breaks in cases.items():
        broken = state.copy()
        breaks(broken)
        found = ENGINE.invariants(broken)
        assert any(words in line for line in found), (words, found)


def test_the_random_move_reaches_every_destination_of_the_unit() -> None:
    """``random_destination`` counts and finds a unit's moves without listing them: drawn
    often enough, it gives each of ``destinations`` (every Operation, every hex) and nothing
    else."""
    rng = random.Random(3)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream("every-destination"))
    checked = 0
    while ENGINE.to_act(state) is not None and checked < 6:
        if choosing(state) and state.battle is None:
            verbs = VERBS[state.phase]
            for unit in actors(BOARD, state)[:2]:
                listed = {str(Move(v, unit, p, o))
                          for v, o, p in destinations(BOARD, state, unit, verbs)}
                drawn = set()
                for _ in range(30 * len(listed)):
                    move = random_destination(BOARD, state, unit, verbs, rng)
                    assert move is not None
                    drawn.add(str(move))
                assert drawn == listed
                checked += 1
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
    assert checked >= 6
