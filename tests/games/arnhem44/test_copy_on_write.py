"""The state's fast copy (``copying.copier``, fields copied on write) against the long way
(``copying.copy_record``: every value's type looked at, everything copied at once).

The copier is made from the fields' declared types and lends the fields most lines never
read (``copied_on_write``): a copy and its original share them until either reads one.  So
these tests compare the two ways where it matters: the copy of every state a replay copies
(bundled logs, self-played logs), the copy as the undo of the commands applied after it
(self-played games, the same dice for both), and whole replays with refused lines (the
bundled illegal logs, self-played logs with lines written twice, swapped or dropped)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import StreamDice, play_game, random_policy
from referee.games.arnhem44 import copying
from referee.games.arnhem44.copying import LENT, Lent, copy_record, lent_fields
from referee.games.arnhem44.crates import Explosives
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"


def _self_played(seed: str) -> str:
    record = play_game(ENGINE, seed, random_policy, keep_log=True, check=False)
    assert record.log is not None
    return record.log


def _mangled(text: str, seed: str) -> Iterator[str]:
    """The log with an action line written twice, two swapped and one dropped (each at a few
    places): lines refused, the state put back from the copy kept before them."""
    lines = text.splitlines()
    actions = [n for n, line in enumerate(lines) if line and not line.startswith(("[", "#"))]
    rng = random.Random(seed)
    for at in rng.sample(actions[1:-1], 2):
        yield "\n".join([*lines[:at + 1], lines[at], *lines[at + 1:]]) + "\n"
        yield "\n".join([*lines[:at], lines[at + 1], lines[at], *lines[at + 2:]]) + "\n"
        yield "\n".join([*lines[:at], *lines[at + 1:]]) + "\n"


def _long_way(state: AState) -> AState:
    twin: AState = copy_record(state)
    return twin


def _document(text: str) -> dict[str, Any]:
    return replay(parse_log(text, "copy.log", engine=ENGINE), ENGINE).to_json()


def _logs() -> list[tuple[str, str]]:
    found = [(path.name, path.read_text(encoding="utf-8"))
             for path in sorted(LOGS.glob("*.log"))]
    return found + [(f"self-play-{i}", _self_played(f"cow-{i}")) for i in range(2)]


def test_replays_with_the_fast_copy_and_the_long_way_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bundled log (the illegal ones refuse lines), self-played logs, and those logs
    mangled: the replay's document (problems, events, states) is the same both ways."""
    texts = []
    for name, text in _logs():
        texts.append(text)
        if name.startswith("self-play") or name == "complete-game.log":
            texts += _mangled(text, name)
    fast = [_document(text) for text in texts]
    monkeypatch.setattr(AState, "copy", _long_way)
    slow = [_document(text) for text in texts]
    assert len(texts) > 30
    refused = sum(bool(document["problems"]) for document in fast)
    assert refused > 15  # the undo is exercised
    for a, b in zip(fast, slow, strict=True):
        assert a == b


def _states_copied() -> Iterator[AState]:
    """Every state the replay of the logs copies, as it is when copied (some of its fields
    lent, some its own), itself copied the long way first so that the test may change it."""
    kept: list[AState] = []
    real = AState.copy

    def keeping(state: AState) -> AState:
        kept.append(_long_way(state))
        return real(state)

    AState.copy = keeping  # type: ignore[method-assign, assignment]
    try:
        for _, text in _logs():
            _document(text)
    finally:
        AState.copy = real  # type: ignore[method-assign]
    yield from kept


def _own(value: Any, where: str, seen: dict[int, str]) -> list[str]:
    """Places of mutable values reachable from a state's fields that another place shares
    (``seen``: id -> the first place), reading each field (a lent one is copied)."""
    if type(value) in copying.IMMUTABLE:
        return []
    out = []
    if not isinstance(value, tuple):
        if id(value) in seen:
            out.append(f"{where} is {seen[id(value)]}")
        seen[id(value)] = where
    if isinstance(value, dict):
        for k, v in value.items():
            out += _own(v, f"{where}[{k!r}]", seen)
    elif isinstance(value, (list, tuple, set)):
        for i, v in enumerate(value):
            out += _own(v, f"{where}[{i}]", seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            out += _own(getattr(value, f.name), f"{where}.{f.name}", seen)
    return out


def test_the_copy_of_every_state_a_replay_copies_is_the_long_way_s() -> None:
    """Equal field by field (types too) and in JSON, and the copy and its original share no
    value that can be changed in place once each has read its fields."""
    states = list(_states_copied())
    assert len(states) > 3000
    lent_before = 0
    for state in states:
        lent_before += sum(k.startswith(LENT) for k in vars(state))
        slow, fast = _long_way(state), state.copy()
        for f in dataclasses.fields(AState):
            a, b = getattr(fast, f.name), getattr(slow, f.name)
            if f.name == "units":  # a copy's sectors: a plain dict until written (Sectors)
                assert type(a) is dict and a == b and list(a) == list(b), f.name
                continue
            assert type(a) is type(b) and a == b, f.name
        assert ENGINE.to_json(fast) == ENGINE.to_json(slow)
        seen: dict[int, str] = {}
        _own(state, "original", seen)
        assert _own(fast, "copy", seen) == []
    assert lent_before > 1000  # states with lent fields were copied


def test_a_copy_is_the_undo_of_the_commands_applied_after_it() -> None:
    """Self-played games: before each command a copy of the state is kept and the state is
    copied deeply; the command is applied to the state and, with the same dice, to the deep
    copy.  The copy kept is still the state before the command, and both ways give the same
    events and the same state after it (a copy of a copy too, every few commands)."""
    commands = 0
    for seed in ("undo-1", "undo-2"):
        rng = random.Random(seed)
        state = ENGINE.setup(None, {})
        dice = StreamDice(DiceStream(seed), keep_rolls=False)
        twin_dice = StreamDice(DiceStream(seed), keep_rolls=False)
        while ENGINE.to_act(state) is not None:
            command = ENGINE.random_command(state, rng)
            deep = _long_way(state)  # (lent fields stay lent in ``state``)
            kept = state.copy()
            if commands % 7 == 0:
                kept = kept.copy()  # a copy of a copy, its original dropped
            events = ENGINE.apply(state, command, dice)
            assert kept == deep
            assert ENGINE.apply(deep, command, twin_dice) == events
            assert deep == state
            commands += 1
    assert commands > 1000


def test_the_fields_lent_are_those_made_by_a_factory_but_the_eager_ones() -> None:
    """A field added later with a factory (a container, a record) is lent unless named
    eager; a lent field read on a copy, then on the original, gives each its own value."""
    state = ENGINE.setup(None, {})
    twin = state.copy()
    lent = set(lent_fields(AState))
    factory = {f.name for f in dataclasses.fields(AState)
               if f.default_factory is not dataclasses.MISSING}
    assert lent and lent < factory and "units" not in lent
    assert all(isinstance(vars(AState)[name], Lent) for name in lent)
    assert set(lent_fields(Explosives)) == {"crates", "unseen"}
    for name in sorted(lent):
        assert LENT + name in vars(state) and name not in vars(state)
        mine, theirs = getattr(twin, name), getattr(state, name)
        assert mine == theirs and (mine is not theirs or type(mine) in copying.IMMUTABLE)
        assert vars(state)[LENT + name] is vars(twin)[LENT + name]  # lent: neither changes it


def test_a_state_pickled_or_deep_copied_lends_nothing() -> None:
    """Pickle and deepcopy take each field's value (its own, or a copy of the lent one), so a
    state read back in a process that has copied no state needs no descriptor."""
    state = _played_state()
    twin = state.copy()
    for made in (copy.deepcopy(twin), pickle.loads(pickle.dumps(twin))):
        assert not any(k.startswith(LENT) for k in vars(made))
        assert made == state and ENGINE.to_json(made) == ENGINE.to_json(state)
    assert any(k.startswith(LENT) for k in vars(state))


def _played_state() -> AState:
    rng = random.Random("pickled")
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream("pickled"), keep_rolls=False)
    for _ in range(200):
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
    return state


def test_a_lent_field_missing_is_an_attribute_error() -> None:
    state = ENGINE.setup(None, {})
    state.copy()
    name = lent_fields(AState)[0]
    del vars(state)[LENT + name]
    with pytest.raises(AttributeError, match=name):
        getattr(state, name)
    assert not hasattr(state, name)
