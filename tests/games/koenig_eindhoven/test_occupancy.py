"""Issue 31: the view of who is where (``Occupancy``) is made once for a table of hexes and kept
on it (``movement.occupancy``, ``state.Places``), moved with each unit whose hex is set anew;
``forced`` asks whether a unit can take a first step from the board's crossings
(``movement.can_step``), and the retreat hexes and the enemy beside a unit are read from the
view.  Each is checked against the long way at every position of self-played games, of the
bundled logs and of crowded positions no game reaches: the kept view against one made afresh
(with and without each moving unit), ``can_step`` against ``step`` for every neighbour, every
allowance, by day and at night, ``retreat_hexes``, ``adjacent_enemy`` and ``fire_targets``
against the scans of every unit they were, and whether the active formation can fire
(``can_fire``) against the list of its attacks."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import StreamDice
from referee.games.koenig_eindhoven.combat import across_rivers
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.legal import can_fire, choosing, fire_targets, fires
from referee.games.koenig_eindhoven.movement import (
    Occupancy,
    can_step,
    occupancy,
    step,
)
from referee.games.koenig_eindhoven.operations import adjacent_enemy
from referee.games.koenig_eindhoven.retreats import retreat_hexes
from referee.games.koenig_eindhoven.state import OFF, KState, Places

BOARD = ENGINE.board
LOGS = Path(__file__).resolve().parents[3] / "logs" / "koenig-eindhoven"


def _view(occ: Occupancy) -> Any:
    return occ.count, {side: counts for side, counts in occ.by_side.items() if counts}


def _positions(seed: int) -> Iterator[KState]:
    """Every position of a random self-played game, the state worked on in place (as the
    replay driver has it), and now and then a copy taken and the original worked on."""
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(f"occupancy-{seed}"))
    while ENGINE.to_act(state) is not None:
        yield state
        if rng.randrange(4) == 0:
            kept = state.copy()
            occupancy(BOARD, kept)  # a view kept on the copy, which must not follow the work
            ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
            yield kept
        else:
            ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
    yield state


def _check_views(state: KState) -> None:
    assert _view(occupancy(BOARD, state)) == _view(Occupancy(BOARD, state))
    for unit, place in state.hex.items():
        if place is not None:
            kept = occupancy(BOARD, state, moving=unit)
            assert _view(kept) == _view(Occupancy(BOARD, state, moving=unit)), unit
            side = BOARD.units[unit].side
            assert kept.enemy_counts(side) == Occupancy(
                BOARD, state, moving=unit).enemy_counts(side)


def test_the_kept_view_is_the_view_made_afresh_at_every_position() -> None:
    positions = 0
    for seed in range(4):
        for state in _positions(seed):
            _check_views(state)
            positions += 1
    assert positions > 500


def test_the_kept_view_at_the_end_of_each_bundled_log() -> None:
    """The replay driver's own states (its copy of each line is the undo, and a refused line
    puts it back): the view kept on the final state of each bundled log is the one made
    afresh."""
    for path in sorted(LOGS.glob("*.log")):
        log = parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE)
        report = replay(log, ENGINE)
        occupancy(BOARD, report.state)
        _check_views(report.state)


def test_every_change_of_the_table_drops_the_view() -> None:
    state = ENGINE.setup(None, {})
    unit = next(iter(state.hex))
    changes: list[Callable[[Places], object]] = [
        lambda h: h.update({unit: "0101"}),
        lambda h: h.pop(unit), lambda h: h.popitem(), lambda h: h.clear(),
        lambda h: h.setdefault("x", "0101"), lambda h: h.__delitem__(unit),
        lambda h: h.__ior__({unit: "0101"}),
    ]
    changes.append(lambda h: h.__setitem__("no such unit", "0101"))  # (a table set by hand)
    for change in changes:
        hexes = state.copy().hex
        assert isinstance(hexes, Places)
        hexes.seen = Occupancy(BOARD, state)
        change(hexes)
        assert hexes.seen is None
    plain = state.copy()
    plain.hex = dict(plain.hex)  # type: ignore[assignment]
    assert _view(occupancy(BOARD, plain)) == _view(Occupancy(BOARD, state))  # nothing kept
    assert type(plain.copy().hex) is Places and plain.copy().hex == state.hex


def test_a_unit_set_in_a_hex_moves_in_the_kept_view() -> None:
    """``table[unit] = hex`` (how every rule moves a unit) gives the view of the table with
    the unit moved, a new one (the copies of the state keep theirs): units put on the map,
    moved, stacked, taken off, set where they are."""
    rng = random.Random(43)
    state = next(s for i, s in enumerate(_positions(5)) if i == 60)
    units = sorted(state.hex)
    hexes = [*sorted(BOARD.hexes)[:12], None]  # a few hexes, so that units stack
    occupancy(BOARD, state)
    for _ in range(600):
        before = state.hex.seen
        kept = state.copy()
        unit = rng.choice(units)
        state.hex[unit] = rng.choice((state.hex[unit], *hexes))
        assert kept.hex.seen is before and _view(before) == _view(Occupancy(BOARD, kept))
        _check_views(state)


def _first_steps_agree(state: KState, units: list[str]) -> int:
    """``can_step`` against ``step`` for every neighbour of each of ``units`` (on the map),
    each side asking, allowances 0-6, by day and at night, with the whole view and the view
    without the unit; the number of answers compared."""
    compared = 0
    occ = Occupancy(BOARD, state)
    for unit in units:
        here = state.hex[unit]
        assert here is not None
        moving = occupancy(BOARD, state, moving=unit)
        for side in ("allied", "german"):
            for night in (False, True):
                for limit in range(7):
                    for view in (occ, moving):
                        long_way = any(
                            s.refusal is None and s.cost <= limit
                            for s in (step(BOARD, view, side, here, there, night=night)
                                      for there in BOARD.neighbours(here)))
                        assert can_step(BOARD, view, side, here, limit,
                                        night=night) == long_way, (unit, here, side, limit)
                        compared += 1
    return compared


def test_a_first_step_is_what_step_allows_in_self_play() -> None:
    compared = 0
    for seed in range(2):
        for index, state in enumerate(_positions(seed + 10)):
            if index % 3 == 0:
                compared += _first_steps_agree(
                    state, [u for u, h in state.hex.items() if h is not None])
    assert compared > 50_000


def test_a_first_step_is_what_step_allows_among_crowds() -> None:
    """Positions no game reaches (``_crowds``): stacks over the limit, enemy stacks to fight
    into, friends and enemies together."""
    for state, mover in _crowds(400, seed=41):
        _first_steps_agree(state, [mover])


def _retreat_hexes_long_way(state: KState, unit: str) -> list[str]:
    """11.0 as ``retreat_hexes`` was written before the view: each neighbour's units listed."""
    here = state.hex[unit]
    assert here is not None
    side = BOARD.units[unit].side
    found = []
    for there in BOARD.neighbours(here):
        occupants = [u for u, h in state.hex.items() if h == there]
        hexside = BOARD.hexside(here, there)
        if hexside.river and hexside.bridge is None:
            continue
        if any(BOARD.units[u].side != side for u in occupants) or len(occupants) >= 2:
            continue
        found.append(there)
    if len(BOARD.neighbours(here)) < 6:
        found.append(OFF)
    return found


def _adjacent_enemy_long_way(state: KState, unit: str) -> str | None:
    here = state.hex[unit]
    side = BOARD.units[unit].side
    for other, place in state.hex.items():
        if place is not None and BOARD.units[other].side != side and (
                place == here or BOARD.adjacent(here or "", place)):
            return place
    return None


def _crowds(count: int, seed: int) -> Iterator[tuple[KState, str]]:
    """Positions no game reaches: a unit whose neighbours (and own hex) hold 0-3 units of
    either side, on any hex of the map (edges and rivers too)."""
    rng = random.Random(seed)
    base = ENGINE.setup(None, {})
    units = sorted(base.hex)
    hexes = sorted(BOARD.hexes)
    for _ in range(count):
        state = base.copy()
        for unit in units:
            state.hex[unit] = None
        centre = rng.choice(hexes)
        pool = iter(rng.sample(units, len(units)))
        mover = next(pool)
        state.hex[mover] = centre
        for there in (centre, *BOARD.neighbours(centre)):
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                state.hex[next(pool)] = there
        yield state, mover


def test_retreat_hexes_and_the_enemy_beside_a_unit_are_the_long_way() -> None:
    compared = 0
    for seed in range(3):
        for state in _positions(seed + 20):
            for unit, here in state.hex.items():
                if here is not None:
                    assert retreat_hexes(BOARD, state, unit) == _retreat_hexes_long_way(
                        state, unit)
                    assert adjacent_enemy(BOARD, state, unit) == _adjacent_enemy_long_way(
                        state, unit)
                    compared += 1
    for state, unit in _crowds(1500, seed=45):
        assert retreat_hexes(BOARD, state, unit) == _retreat_hexes_long_way(state, unit)
        assert adjacent_enemy(BOARD, state, unit) == _adjacent_enemy_long_way(state, unit)
    assert compared > 10_000


def _fire_targets_long_way(state: KState, unit: str, full: bool) -> list[str]:
    here = state.hex[unit]
    if here is None:
        return []
    side = BOARD.units[unit].side
    enemy = {h for u, h in state.hex.items() if h is not None and BOARD.units[u].side != side}
    over_rivers = full and across_rivers(BOARD, state, unit)
    found = []
    for there in BOARD.neighbours(here):
        hexside = BOARD.hexside(here, there)
        if there in enemy and (over_rivers or not (hexside.river and hexside.bridge is None)):
            found.append(there)
    return found


def test_fire_targets_and_whether_a_formation_can_fire_are_the_long_way() -> None:
    choices = 0
    for seed in range(4):
        for state in _positions(seed + 30):
            for unit in state.hex:
                for full in (True, False):
                    assert fire_targets(BOARD, state, unit, full) == _fire_targets_long_way(
                        state, unit, full)
            if state.battle is None and choosing(state) and state.active is not None:
                assert can_fire(BOARD, state) == bool(fires(BOARD, state))
                choices += 1
    for state, unit in _crowds(1500, seed=47):
        for full in (True, False):
            assert fire_targets(BOARD, state, unit, full) == _fire_targets_long_way(
                state, unit, full)
    assert choices > 300


def _copies_apart(state: KState) -> set[str]:
    """``state.copy()`` equals ``state`` field by field, each container a new one; the
    fields set (not empty) in ``state``."""
    copy = state.copy()
    assert copy == state
    filled = set()
    for field in fields(KState):
        mine, theirs = getattr(state, field.name), getattr(copy, field.name)
        assert mine == theirs, field.name
        if mine:
            filled.add(field.name)
        if isinstance(mine, (dict, list, set)) and field.name != "result":
            assert mine is not theirs, field.name  # (the result is shared, never changed)
    return filled


def test_a_copy_of_the_state_is_equal_and_apart() -> None:
    """``KState.copy`` (positional, in the order of the fields): every field equal, every
    container a new one, at every position of a self-played game, and at one with every
    field set apart from the others (so that two fields swapped are seen)."""
    for state in _positions(50):
        _copies_apart(state)
    state = ENGINE.setup(None, {})
    state.cup, state.active, state.operation = ["501"], "502", {"1/501": "movement"}
    state.mp_left, state.concert, state.landed = {"2/501": 1}, ("3/501",), {"1/502"}
    state.rolled, state.points = ["artillery"], {"artillery": 2, "allied-support": 3}
    state.result, state.fired, state.engaged = {"result": "draw"}, {"2/502"}, {"3/502"}
    state.options = frozenset({"us-machine-guns"})
    assert _copies_apart(state) == {f.name for f in fields(KState)} - {"battle"}
