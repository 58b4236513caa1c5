"""Phase 2.1 - Airborne Troops: the landings of rounds 1, 3 and 7 onto the drop-zone markers
(Airborne Divisions, Drop Zones) and the anti-aircraft fire on units landing in enemy territory
(Anti-Aircraft Fire).
"""

from __future__ import annotations

from collections import Counter

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    Board,
    Key,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.fire import counts_text, expand
from referee.games.arnhem44.scenario import Landing
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import activate, marker, receive

RULE_AA = "Anti-Aircraft Fire"


def landing_rounds(board: Board) -> set[int]:
    """Airborne Divisions: "The airborne troops arrive in round 1, 3 and 7" (the schedule)."""
    return {a.round for a in board.scenario.forces.airborne}


def schedule(board: Board, state: AState) -> list[Landing]:
    return [a for a in board.scenario.forces.airborne if a.round == state.round]


def due(board: Board, state: AState) -> list[tuple[Landing, Key]]:
    """This round's landing figures still off the map, one by one in schedule order; within a
    landing the artillery comes last (it rolls the white die).  A position may already have
    put some of them on the map: those are not landed twice."""
    left = Counter(state.waiting)
    out: list[tuple[Landing, Key]] = []
    for landing in schedule(board, state):
        counts: dict[Key, int] = {(landing.group, k): n for k, n in landing.units.items()}
        for key in sorted(counts, key=key_order):
            for _ in range(counts[key]):
                if left[key] > 0:
                    left[key] -= 1
                    out.append((landing, key))
    return out


def land_supplies(state: AState, landings: list[Landing]) -> list[Event]:
    """Airborne Divisions: "On landing they automatically receive their assigned supplies"
    (no dice for them, taken from the box while it holds tokens)."""
    events: list[Event] = []
    for landing in landings:
        activate(state, landing.group)
        n = min(landing.supplies, state.box)
        state.box -= n
        events += receive(state, landing.group, n, f"the {landing.group} lands with its supplies")
    return events


def land(board: Board, state: AState, dice: Dice) -> list[Event]:
    """Phase 2.1: one d10 per unit; face k lands it on marker k of its drop zone (green markers
    in good weather, black in bad).  A marker's sector that already holds 9 Allied units sends
    the unit to the next marker of the zone with room (interpretation)."""
    units = due(board, state)
    colour = "green" if state.weather == "fine" else "black"
    faces = dice.roll(10, len(units), f"airborne landings ({colour} markers; artillery: the "
                      "white die)", low=0)
    landed: dict[str, list[Key]] = {}
    words: list[str] = []
    lost: Counter[Key] = Counter()
    for (landing, key), face in zip(units, faces, strict=True):
        spot = None
        for step in range(10):
            sector = marker(board, landing.zone, (face + step) % 10, state.weather)
            allies = sum(n for k, n in state.units.get(sector, Counter()).items()
                         if side_of(k[0]) == ALLIED)
            if allies < board.max_per_side:
                spot = sector
                break
        state.waiting[key] -= 1
        if spot is None:
            state.eliminated[key] += 1
            lost[key] += 1
            continue
        state.add(spot, key)
        landed.setdefault(spot, []).append(key)
        words.append(f"{key_text(key)} {face}->{spot}")
    state.waiting += Counter()
    events = [Event("landing", f"Phase 2.1 - Airborne Troops ({colour} markers): "
                    + ", ".join(words), {"landed": {s: [key_text(k) for k in ks]
                                                    for s, ks in landed.items()}})]
    if lost:
        events.append(Event("eliminated", f"no marker of the zone has room: {counts_text(lost)} "
                            "lost", {"figures": {key_text(k): n for k, n in lost.items()}}))
    events += land_supplies(state, schedule(board, state))
    for sector in board.order:
        if sector in landed and _germans(state, sector):
            state.anti_aircraft.append((sector, sorted(landed[sector], key=key_order)))
    return events


def _germans(state: AState, sector: str) -> dict[Key, int]:
    return {k: n for k, n in state.units.get(sector, Counter()).items()
            if side_of(k[0]) == GERMAN}


def anti_aircraft(board: Board, state: AState, dice: Dice, sector: str) -> list[Event]:
    """Anti-Aircraft Fire: every German unit in the sector rolls its firepower (artillery 6),
    all dice ONCE; each face k (1 to N) hits landing unit k, a 0 or a face above N misses; only
    eliminations count (injured units do not withdraw)."""
    if not state.anti_aircraft:
        raise IllegalMove(RULE_AA, "no airborne unit waits for anti-aircraft fire")
    where, targets = state.anti_aircraft[0]
    if sector != where:
        raise IllegalMove(RULE_AA, f"the next anti-aircraft fire is in {where}, not {sector}")
    state.anti_aircraft.pop(0)
    shooters = expand(_germans(state, sector))
    total = sum(board.fp[k[1]] for k in shooters)
    faces = dice.roll(10, total, f"anti-aircraft fire in {sector} ("
                      + ", ".join(key_text(k) for k in shooters) + ")", low=0)
    damage = [0] * len(targets)
    for face in faces:
        if 1 <= face <= len(targets):
            damage[face - 1] += 1
    present = state.units.get(sector, Counter())
    dead: Counter[Key] = Counter()
    for key, hits in zip(targets, damage, strict=True):
        if hits >= board.hit_points(key) and present[key] > dead[key]:
            dead[key] += 1
    for key, n in dead.items():
        state.remove(sector, key, n)
        state.eliminated[key] += n
    hit = sum(1 for d in damage if d)
    text = (f"anti-aircraft fire in {sector}: {total} dice at "
            f"{len(targets)} landing unit{'s' if len(targets) != 1 else ''}, {hit} hit")
    text += f"; eliminated {counts_text(dict(dead))}" if dead else "; none eliminated"
    return [Event("anti-aircraft", text, {"sector": sector, "damage": damage,
                                          "eliminated": {key_text(k): n for k, n in
                                                         dead.items()}})]
