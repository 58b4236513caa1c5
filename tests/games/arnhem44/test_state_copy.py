"""The state's copy (``AState.copy``, ``copying.py``): every field of a copy is equal to the
original's and shares nothing mutable with it, whatever the field holds; changing any field of
the copy leaves the original as it was.  The fields are read from ``dataclasses.fields``, so a
field added later is checked as well.  The figures of a sector are shared (``Figures``): they
cannot be changed in place, and ``add``/``remove`` on a copy leave the original as it was."""

from __future__ import annotations

import contextlib
import copy
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from referee.core.dice import DiceStream, DiceTray
from referee.core.errors import RefereeError
from referee.core.selfplay import StreamDice
from referee.games.arnhem44.commands import EndMovement
from referee.games.arnhem44.copying import (
    IMMUTABLE,
    Figures,
    _field_hints,
    _shared_hint,
    changed,
    copied,
    peek,
)
from referee.games.arnhem44.crates import Attempt, Crate
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState, Bailey, FallBackPending, Withdrawal


def _played(seed: str, commands: int) -> AState:
    """A state ``commands`` random commands into a game."""
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(seed), keep_rolls=False)
    for _ in range(commands):
        if ENGINE.to_act(state) is None:
            break
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
    return state


def _filled() -> AState:
    """A state well into a game, with the fields a game leaves empty at that moment given
    values of their kind (so that every shape of the state is there to be copied)."""
    state = _played("copy-1", 300)
    key = ("UK", "inf")
    state.fallback = FallBackPending("A", "B", [key], [("UK", "tank")], {key: 1}, 2)
    state.withdrawals = [Withdrawal("A", ("DE", "inf"), 2)]
    state.anti_aircraft = [("A", [("1AB", "inf"), ("1AB", "art")])]
    state.result = {"result": "draw", "points": {"allied": 50, "german": 50}, "by": ["x"]}
    state.baileys = [Bailey("bailey-1", "A", "B", "small", 7, 3)]
    state.explosives.crates.append(Crate(99, "bridge", None, "commit", major=True))
    state.explosives.attempt = Attempt("defuse", "allied", 99, 4)
    state.moved["A"] = changed(state.moved.get("A"), ("UK", "inf", 2), 1)
    state.intruded["A"] = 3
    state.tokens["A"] = 2
    state.dropping.append("A")
    state.destroyed.add("bridge")
    state.contact.add("82")
    state.engineers.append(key)
    state.arriving.append(key)
    state.combats.append("A")
    return state


def _shared(original: Any, twin: Any, where: str) -> list[str]:
    """Mutable objects the copy shares with the original, by their place in the state."""
    if type(original) in IMMUTABLE:
        return []
    out = []
    if twin is original and not (type(original) is tuple and not _mutable_inside(original)):
        out.append(where)
    if isinstance(original, dict):
        for k, v in original.items():
            out += _shared(v, twin[k], f"{where}[{k!r}]")
    elif isinstance(original, (list, tuple)):
        for i, (a, b) in enumerate(zip(original, twin, strict=True)):
            out += _shared(a, b, f"{where}[{i}]")
    elif is_dataclass(original):
        for f in fields(original):
            out += _shared(getattr(original, f.name), getattr(twin, f.name), f"{where}.{f.name}")
    return out


def _mutable_inside(value: tuple[Any, ...]) -> bool:
    return any(type(v) not in IMMUTABLE and (type(v) is not tuple or _mutable_inside(v))
               for v in value)


def _mutate(value: Any) -> bool:
    """Change a container in place (at its first level and, where it holds containers, below);
    False for a value that cannot be changed in place (numbers, strings, None, a sector's
    figures)."""
    if isinstance(value, Figures):
        return False
    if isinstance(value, Counter):
        value[("probe", "inf")] += 1
    elif isinstance(value, dict):
        for v in list(value.values()):
            _mutate(v)
        value["probe"] = 1
    elif isinstance(value, list):
        for v in value:
            _mutate(v)
        value.append("probe")
    elif isinstance(value, set):
        value.add("probe")
    elif isinstance(value, tuple):
        return any([_mutate(v) for v in value])
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            inner = getattr(value, f.name)
            if not _mutate(inner):
                setattr(value, f.name, "probe")
    else:
        return False
    return True


def test_every_field_of_a_copy_equals_the_original_and_shares_nothing_mutable() -> None:
    state = _filled()
    twin = state.copy()
    assert twin == state
    assert ENGINE.to_json(twin) == ENGINE.to_json(state)
    for f in fields(AState):
        original, copy_value = getattr(state, f.name), getattr(twin, f.name)
        # a copy's sectors are a plain dict until written (``sectors.Sectors``)
        assert type(copy_value) is (dict if f.name == "units" else type(original)), f.name
        assert _shared(original, copy_value, f.name) == [], f.name


@pytest.mark.parametrize("name", [f.name for f in fields(AState)])
def test_changing_a_field_of_a_copy_leaves_the_original_as_it_was(name: str) -> None:
    state = _filled()
    before = copy.deepcopy(state)
    twin = state.copy()
    if not _mutate(getattr(twin, name)):
        setattr(twin, name, "probe")
    assert getattr(twin, name) != getattr(before, name)
    assert state == before


def test_figures_added_and_removed_on_a_copy_leave_the_original_as_it_was() -> None:
    state = _filled()
    before = copy.deepcopy(state)
    twin = state.copy()
    for sector, counts in list(twin.units.items()):
        key = next(iter(counts))
        twin.remove(sector, key, counts[key])
        twin.add(sector, ("UK", "tank"), 2)
    twin.add("Grave", ("US", "art"))
    assert twin.units != before.units
    assert state == before
    assert all(type(c) is Figures for c in twin.units.values())


def test_a_sector_s_figures_are_never_changed_in_place() -> None:
    """They are shared between copies: a change in place would reach the original."""
    state = _filled()
    sector, counts = next(iter(state.units.items()))
    key = next(iter(counts))
    twin = state.copy()
    assert twin.units[sector] is counts
    with pytest.raises(TypeError, match="never changed in place"):
        twin.units[sector][key] += 1
    with pytest.raises(TypeError, match="never changed in place"):
        del twin.units[sector][key]
    with pytest.raises(TypeError, match="never changed in place"):
        twin.units[sector].subtract({key: 1})
    with pytest.raises(TypeError, match="never changed in place"):
        twin.units[sector].update({key: 1})
    with pytest.raises(TypeError, match="never changed in place"):
        twin.units[sector].pop(key)
    with pytest.raises(TypeError, match="never changed in place"):
        twin.units[sector].clear()
    assert state.units[sector] == counts and twin.units[sector] == counts


def test_a_copy_of_a_shape_the_state_does_not_have_yet_is_deep() -> None:
    """A field of a new shape (here a plain object holding a list, and a tuple holding a
    list) is still copied without sharing: ``copied`` falls back on a deep copy."""

    class Holder:
        def __init__(self) -> None:
            self.items = [1, 2]

    value: dict[str, Any] = {"holder": Holder(), "pair": ("a", [1]),
                             "nested": [[1], {"k": {2}}]}
    twin: dict[str, Any] = copied(value)
    assert twin["holder"] is not value["holder"] and twin["holder"].items == [1, 2]
    assert twin["holder"].items is not value["holder"].items
    assert twin["pair"] == ("a", [1]) and twin["pair"][1] is not value["pair"][1]
    assert twin["nested"][0] is not value["nested"][0]
    assert twin["nested"][1]["k"] is not value["nested"][1]["k"]


def _self_played(seed: str) -> Iterator[AState]:
    """The state after each command of a game the random policy plays with ``seed`` (the
    same state, changed in place)."""
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(seed), keep_rolls=False)
    while ENGINE.to_act(state) is not None:
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
        yield state


def test_records_copied_by_their_dict_alone_hold_numbers_names_and_flags() -> None:
    """A record whose fields are all declared numbers, names, flags or None (a crate, a
    Bailey bridge, a roll waiting for a reveal, a withdrawal) is copied by its fields' dict
    alone (``copying._flat_copier``): in every position of self-played games its fields hold
    such values, and a copy of the state shares no record with the original."""
    flat = [kind for kind in (Crate, Bailey, Attempt, Withdrawal, FallBackPending, AState)
            if all(map(_shared_hint, _field_hints(kind).values()))]
    assert flat == [Crate, Bailey, Attempt, Withdrawal]
    seen = 0
    for seed in ("flat-1", "flat-2"):
        for state in _self_played(seed):
            records = [*state.explosives.crates, *state.baileys, *state.withdrawals]
            if state.explosives.attempt is not None:
                records.append(state.explosives.attempt)
            for record in records:
                assert all(type(v) in (int, str, bool, float, type(None)) or (
                    type(v) is tuple and all(type(x) is str for x in v))
                           for v in vars(record).values()), record
            seen += len(records)
            twin = state.copy()
            assert all(a is not b for a, b in zip(twin.explosives.crates,
                                                  state.explosives.crates, strict=True))
            assert all(a is not b for a, b in zip(twin.baileys, state.baileys, strict=True))
    assert seen > 1000


def test_a_sector_s_moved_figures_are_figures_in_every_position() -> None:
    """``units`` and ``moved`` are declared to hold counts never changed in place (the copier
    shares them): in every position of self-played games they are ``Figures``."""
    for seed in ("moved-1", "moved-2"):
        for state in _self_played(seed):
            assert all(type(c) is Figures for c in state.units.values())
            assert all(type(c) is Figures for c in state.moved.values())


def test_a_field_peeked_at_is_the_field_read_and_is_not_copied() -> None:
    """``copying.peek`` (``Engine.apply`` asks whether a crate's value was shown late on the
    line before, on every line) gives the value the field reads, its own or lent, and leaves
    a lent one lent: the explosives are copied only by a state that reads them."""
    state = _filled()
    state.explosives.shown_late = Attempt("defuse", "german", 99, 4)
    own = state.explosives
    assert peek(state, "explosives") is own  # its own value, before any copy
    twin = state.copy()
    assert "explosives" not in twin.__dict__ and "explosives" not in state.__dict__  # lent
    for record in (state, twin):
        seen = peek(record, "explosives")
        assert seen.shown_late == own.shown_late
        assert "explosives" not in record.__dict__  # still lent: nothing copied
    assert twin.explosives.shown_late == own.shown_late  # read: copied for the twin alone
    assert twin.explosives is not peek(state, "explosives")
    with contextlib.suppress(RefereeError):  # refused or not, the command is a next line:
        ENGINE.apply(twin, EndMovement(), DiceTray(DiceStream("peek")))
    assert twin.explosives.shown_late is None  # the late value is cleared on the next line
    assert peek(state, "explosives").shown_late == own.shown_late  # the original keeps it
