"""Every legal command (the engine's ``legal``) and each unit's options (``referee moves``)."""

from __future__ import annotations

from itertools import combinations

from referee.games.koenig_eindhoven.board import GERMAN, Board
from referee.games.koenig_eindhoven.combat import across_rivers
from referee.games.koenig_eindhoven.commands import (
    Command,
    Draw,
    End,
    Fire,
    Landing,
    Move,
    SupportRoll,
)
from referee.games.koenig_eindhoven.movement import Occupancy, reachable
from referee.games.koenig_eindhoven.operations import adjacent_enemy, allowance
from referee.games.koenig_eindhoven.sequence import available, landing_due
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    IN_PLAY,
    KState,
    Phase,
)


def unit_moves(board: Board, state: KState, unit: str, verb: str) -> list[Move]:
    """The unit's ``verb`` (move, combined, redeploy) to every hex it can reach, by the
    cheapest path (ties by hex id), in hex order; a reinforcement once per entry road.
    Moves into Close Combat (10.0) come after the others."""
    spec = board.units[unit]
    here = state.hex[unit]
    limit = allowance(board, verb, unit)
    occ = Occupancy(board, state, moving=unit)
    found: list[Move] = []
    starts: list[tuple[str | None, str | None]] = (
        [(here, None)] if here is not None else [(None, road) for road in spec.entry_roads]
    )
    for start, road in starts:
        close: dict[str, tuple[int, tuple[str, ...]]] = {}
        night = verb == "redeploy"
        reach = reachable(board, occ, spec.side, start, road, limit, night=night,
                          close=None if night else close)
        for _, (_, path) in sorted(reach.items()) + sorted(close.items()):
            found.append(Move(verb, unit, path, start if start is not None else road))
    return found


def actors(board: Board, state: KState) -> list[str]:
    """The units that may still perform an Operation (or redeploy) now."""
    if state.phase is Phase.REDEPLOYMENT:
        return [
            u for u, spec in board.units.items()
            if not spec.hq and spec.side == GERMAN and state.status[u] == IN_PLAY
            and u not in state.operation and adjacent_enemy(board, state, u) is None
        ]
    if state.phase is Phase.OPERATIONS and state.active is not None:
        return [u for u in available(board, state, state.active) if u not in state.operation]
    return []


def fire_targets(board: Board, state: KState, unit: str, full: bool = True) -> list[str]:
    """Adjacent hexes with enemy units the unit may fire at (9.0, 9.1: not across a River
    hexside without a bridge, but for a US machine gun's Full Fire under 14.3.1)."""
    here = state.hex[unit]
    if here is None:
        return []  # 8.3.1: no fire from off the map
    side = board.units[unit].side
    enemy = {h for u, h in state.hex.items() if h is not None and board.units[u].side != side}
    over_rivers = full and across_rivers(board, state, unit)
    found = []
    for there in board.neighbours(here):
        hexside = board.hexside(here, there)
        if there in enemy and (over_rivers or not (hexside.river and hexside.bridge is None)):
            found.append(there)
    return found


def fires(board: Board, state: KState) -> list[Command]:
    """Every Full Fire and Mobile Fire attack the active formation may make now: each target
    hex with every group of eligible units (7.1.1: one kind of Operation an attack)."""
    assert state.active is not None
    full: list[str] = []
    mobile: list[str] = []
    for unit in available(board, state, state.active):
        if state.status[unit] != IN_PLAY:
            continue
        if unit not in state.operation:
            full.append(unit)
            mobile.append(unit)
        elif state.current == unit and unit not in state.fired:
            mobile.append(unit)
    found: list[Command] = []
    for verb, units in (("full-fire", full), ("mobile-fire", mobile)):
        targets: dict[str, list[str]] = {}
        for unit in units:
            for target in fire_targets(board, state, unit, verb == "full-fire"):
                targets.setdefault(target, []).append(unit)
        for target, group in sorted(targets.items()):
            for size in range(1, len(group) + 1):
                for chosen in combinations(group, size):
                    found.append(Fire(verb, target, chosen))
    return found


def legal(board: Board, state: KState) -> list[Command]:
    phase = state.phase
    if phase is Phase.LANDING:
        return [Landing(u) for u in landing_due(board, state)[:1]]
    if phase is Phase.SUPPORT:
        return [SupportRoll(ARTILLERY if not state.rolled else ALLIED_SUPPORT)]
    if phase is Phase.OPERATIONS and state.active is None:
        return [Draw()] if state.cup else []
    if phase in (Phase.OPERATIONS, Phase.REDEPLOYMENT):
        found: list[Command] = [End()]
        verbs = ("redeploy",) if phase is Phase.REDEPLOYMENT else ("move", "combined")
        for unit in actors(board, state):
            for verb in verbs:
                found.extend(unit_moves(board, state, unit, verb))
        if phase is Phase.OPERATIONS:
            found.extend(fires(board, state))
        return found
    return []


def moves_by_unit(board: Board, state: KState) -> list[dict[str, object]]:
    """``referee moves``: each unit that may act, its Operations and destinations."""
    grouped: list[dict[str, object]] = []
    verbs = ("redeploy",) if state.phase is Phase.REDEPLOYMENT else ("move", "combined")
    for unit in actors(board, state):
        spec = board.units[unit]
        entry: dict[str, object] = {
            "unit": unit, "type": spec.kind,
            "from": state.hex[unit] or "road " + "/".join(spec.entry_roads),
        }
        for verb in verbs:
            key = {"move": "movement", "combined": "combined", "redeploy": "redeploy"}[verb]
            entry[key] = [
                (f"{m.start}->" if state.hex[unit] is None else "") + m.path[-1]
                for m in unit_moves(board, state, unit, verb)
            ]
        if state.phase is Phase.OPERATIONS:
            targets = fire_targets(board, state, unit)
            if targets:
                entry["fire"] = [f"at {t}" for t in targets]
        grouped.append(entry)
    return grouped
