"""Property tests: legal() is exact, illegal commands change nothing, invariants always hold.

Two sources of states: random legal play from the opening, and random positions built around
the places where the movement rules bite (rivers, canals, bridges, the ferry, the foot
crossing, off-map boxes, contested spaces), with random supply, spent units and weather.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.dice import DiceTray
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, BOX, FERRY, GERMAN, SIDES, SPACE
from referee.games.wwiic.commands import Activate, Command, UnitMove
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

from .positions import BOARD, command, opening

HOT_SPOTS = (
    "Weurt", "Oosterbeek", "Duiven", "Doornenburg", "Mook", "St. Anna", "Zon", "Eindhoven",
    "Arnhem", "Groesbeek", "Veghel", "Grave", "Wijchen", "Nijmegen", "Best", "Wyler",
    "Oirschot", "Zeeland", "Driel", "Elden",
)


def tray(rng: random.Random) -> DiceTray:
    return DiceTray(None, recorded=tuple(rng.randint(1, 10) for _ in range(80)),
                    recorded_sides=10)


def try_apply(state: WState, cmd: Command, rng: random.Random) -> tuple[bool, WState]:
    after = ENGINE.copy(state)
    try:
        ENGINE.apply(after, cmd, tray(rng))
    except IllegalMove:
        return False, after
    return True, after


def random_walk(rng: random.Random, start: str, longest: int) -> tuple[str, ...]:
    path: list[str] = []
    here = start
    for _ in range(rng.randint(0, longest)):
        exits = sorted(BOARD.exits[here])
        if not exits:
            break
        here = rng.choice(exits)
        path.append(here)
    return tuple(path)


def random_move(rng: random.Random, state: WState, unit: str, target: str | None) -> UnitMove:
    start = state.location[unit]
    assert start is not None
    strategic = rng.random() < 0.25
    longest = 6 if strategic else 3
    path = random_walk(rng, start, longest)
    if target is not None and rng.random() < 0.7:
        if target in BOARD.exits[start]:
            path = (target,)
        elif target == start:
            path = ()
    enabler = None
    if rng.random() < 0.1:
        enabler = rng.choice([u for u, i in BOARD.units.items() if i.corps30])
    return UnitMove(unit, path, strategic, enabler, start if rng.random() < 0.5 else None)


def candidates(rng: random.Random, state: WState, count: int) -> list[Command]:
    side = state.side
    units = [
        u for u in BOARD.unit_order
        if BOARD.side_of[u] == side and state.location[u] is not None
    ]
    out: list[Command] = []
    if not units:
        return out
    for _ in range(count):
        first = rng.choice(units)
        move = random_move(rng, state, first, None)
        if rng.random() < 0.45 and len(units) > 1:
            same = [u for u in units if u != first and (
                state.location[u] == state.location[first]
                or BOARD.units[u].formation == BOARD.units[first].formation
            )]
            second = rng.choice(same or [u for u in units if u != first])
            reply = random_move(rng, state, second, move.end)
            out.append(Activate.of(move, reply))
        else:
            out.append(Activate((move,)))
    return out


def check_exact(state: WState, rng: random.Random, sample: int = 25, tries: int = 60) -> None:
    """legal() lists what apply() accepts, no more and no less; refusals change nothing."""
    assert ENGINE.invariants(state) == []
    legal = list(ENGINE.legal(state))
    listed = set(legal)
    assert len(listed) == len(legal), "legal() lists a command twice"
    for cmd in rng.sample(legal, min(sample, len(legal))):
        assert command(str(cmd)) == cmd, f"'{cmd}' does not read back as itself"
        ok, after = try_apply(state, cmd, rng)
        assert ok, f"listed but refused: {cmd}"
        assert ENGINE.invariants(after) == [], (str(cmd), ENGINE.invariants(after))
    before = ENGINE.to_json(state)
    if state.phase is not Phase.IMPULSE:
        return
    for cmd in candidates(rng, state, tries):
        copy = ENGINE.copy(state)
        try:
            ENGINE.apply(copy, cmd, tray(rng))
        except IllegalMove:
            # A refusal may leave the copy part-changed (Engine.apply): the replay driver's
            # copy is the undo (tests/games/wwiic/test_engine_sequence.py, replay digests).
            assert ENGINE.to_json(state) == before, f"refused and changed the original: {cmd}"
            assert cmd not in listed, f"listed but refused: {cmd}"
            continue
        assert cmd in listed, f"accepted but not listed: {cmd}"
        assert ENGINE.invariants(copy) == []


def random_position(rng: random.Random) -> WState:
    state = opening()
    for unit in state.location:
        state.location[unit] = None
    centre = rng.choice(HOT_SPOTS) if rng.random() < 0.8 else rng.choice(BOARD.spaces)
    near = [p for p, d in BOARD.distances(centre).items() if d <= 3]
    counts: dict[tuple[str, str], int] = {}
    units = list(BOARD.unit_order)
    rng.shuffle(units)
    turn = rng.randint(2, 12)
    for unit in units[: rng.randint(6, 26)]:
        info = BOARD.units[unit]
        for _ in range(10):
            place = rng.choice(near)
            kind = BOARD.kind[place]
            if kind == BOX and (
                info.side != GERMAN or BOARD.boxes[place].formation != info.formation
                or BOARD.box_closed(place, turn)
            ):
                continue
            if kind == FERRY and (  # 6.3: German leg or motorized infantry, one at a time
                info.side != GERMAN or info.type not in BOARD.ferry_types
                or any(p == place for p in state.location.values())
            ):
                continue
            if kind == SPACE and counts.get((place, info.side), 0) >= 2:
                continue
            state.location[unit] = place
            counts[(place, info.side)] = counts.get((place, info.side), 0) + 1
            break
    present: dict[str, set[str]] = {}
    for unit, where in state.location.items():
        if where is not None and BOARD.kind[where] == SPACE:
            present.setdefault(where, set()).add(BOARD.side_of[unit])
    state.allied_control = set()
    for space in BOARD.spaces:
        sides = present.get(space)
        if sides is not None and len(sides) == 1:
            if sides == {ALLIED}:
                state.allied_control.add(space)
        elif rng.random() < 0.4:
            state.allied_control.add(space)
    for unit in BOARD.units:
        if state.location[unit] is None:
            continue
        if rng.random() < 0.2:
            state.spent.add(unit)
        low = "low" if BOARD.units[unit].airborne else "out"  # 8.1: Low Supply is airborne's
        state.supply[unit] = rng.choice(("in", "in", "in", low, "out"))
        top = BOARD.units[unit].max_strength
        if BOARD.kind[state.location[unit]] == FERRY:
            top = min(top, BOARD.ferry_max_strength)  # 6.3: strength 2 or less
        state.strength[unit] = rng.randint(1, top)
    state.spent -= {u for u in state.spent if state.location[u] is None}
    state.turn = turn
    state.weather = rng.choice(("clear", "overcast"))
    state.initiative = ALLIED if turn <= 3 or state.weather == "clear" else GERMAN
    state.side = rng.choice(SIDES)
    state.time = rng.randint(0, 11)
    state.phase = Phase.IMPULSE
    state.last_pass = rng.choice((None, GERMAN if state.side == ALLIED else ALLIED))
    state.foot_crossing_used = rng.random() < 0.2
    state.special_crossing_used = rng.random() < 0.2
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_properties_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng)
    check_exact(state, rng)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_properties_random_legal_play(seed: int) -> None:
    rng = random.Random(seed)
    state = opening()
    for _ in range(40):
        if ENGINE.to_act(state) is None:
            break
        check_exact(state, rng, sample=8, tries=25)
        legal = list(ENGINE.legal(state))
        if not legal:
            break  # a mandatory attack: combat is section 7's
        rng.shuffle(legal)
        for cmd in legal[:10]:
            ok, after = try_apply(state, cmd, rng)
            assert ok
            stuck = after.combat is not None and after.combat.mandatory
            if not stuck:
                break
        state = after
        assert ENGINE.invariants(state) == []
