"""Every legal command (the engine's ``legal``) and each unit's options (``referee moves``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

from referee.core.errors import IllegalMove
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
from referee.games.koenig_eindhoven.concert import check_concert, moved
from referee.games.koenig_eindhoven.movement import (
    can_step,
    entry_steps,
    occupancy,
    reachable,
)
from referee.games.koenig_eindhoven.operations import adjacent_enemy, allowance
from referee.games.koenig_eindhoven.sequence import available, landing_due
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    IN_PLAY,
    LANDING_PHASE,
    OPERATIONS_PHASE,
    REDEPLOYMENT_PHASE,
    SUPPORT_PHASE,
    KState,
)

VERBS = {OPERATIONS_PHASE: ("move", "combined"), REDEPLOYMENT_PHASE: ("redeploy",)}
"""The movement Operations of each phase, in the order ``legal`` lists them."""


Destination = tuple[str, str | None, tuple[str, ...]]
"""A move not yet made a ``Move``: its verb, where it starts (hex or road) and its path."""


def unit_moves(board: Board, state: KState, unit: str, verbs: tuple[str, ...]) -> list[Move]:
    """The unit's moves (``destinations``)."""
    return [Move(verb, unit, path, origin)
            for verb, origin, path in destinations(board, state, unit, verbs)]


Ends = dict[str, tuple[int, tuple[str, ...]]]
"""Hex -> the cost and path of reaching it (``reachable``)."""


def search(board: Board, state: KState, unit: str,
           verbs: tuple[str, ...]) -> tuple[list[int], list[tuple[str | None, Ends, Ends]]]:
    """The allowance of each of ``verbs``, and for each start of the unit (its hex, or each
    entry road of a reinforcement) the hexes one search reaches with the largest allowance,
    and the hexes it can enter for Close Combat (10.0).

    One search per start serves every verb: the hexes a smaller allowance reaches, their
    cheapest costs and paths are those of the larger search up to that cost (the search
    takes hexes in order of cost, and a path never costs less than its beginning)."""
    spec = board.units[unit]
    here = state.hex[unit]
    limits = [allowance(board, verb, unit) for verb in verbs]
    occ = occupancy(board, state, moving=unit)
    starts: list[tuple[str | None, str | None]] = (
        [(here, None)] if here is not None else [(None, road) for road in spec.entry_roads]
    )
    night = "redeploy" in verbs
    searched: list[tuple[str | None, Ends, Ends]] = []
    for start, road in starts:
        close: Ends = {}
        reach = reachable(board, occ, spec.side, start, road, max(limits), night=night,
                          close=None if night else close)
        searched.append((start if start is not None else road, reach, close))
    return limits, searched


def destinations(board: Board, state: KState, unit: str,
                 verbs: tuple[str, ...]) -> list[Destination]:
    """The unit's moves for each of ``verbs`` in turn (move, combined, redeploy) to every hex
    it can reach, by the cheapest path (ties by hex id), in hex order; a reinforcement once
    per entry road.  Moves into Close Combat (10.0) come after the others."""
    limits, searched = search(board, state, unit, verbs)
    found: list[Destination] = []
    ordered = [(origin, sorted(reach.items()) + sorted(close.items()))
               for origin, reach, close in searched]
    for verb, limit in zip(verbs, limits, strict=True):
        for origin, ends in ordered:
            found.extend((verb, origin, path) for _, (cost, path) in ends if cost <= limit)
    return found


def random_destination(board: Board, state: KState, unit: str, verbs: tuple[str, ...],
                       rng: random.Random) -> Move | None:
    """One of the unit's moves (``destinations``), each as likely as the others, found
    without sorting or listing them; ``None`` when it has none."""
    limits, searched = search(board, state, unit, verbs)
    total = sum(1 for limit in limits for _, reach, close in searched
                for ends in (reach, close) for cost, _ in ends.values() if cost <= limit)
    if not total:
        return None
    index = rng.randrange(total)
    for verb, limit in zip(verbs, limits, strict=True):
        for origin, reach, close in searched:
            for ends in (reach, close):
                for cost, path in ends.values():
                    if cost <= limit:
                        if not index:
                            return Move(verb, unit, path, origin)
                        index -= 1
    raise AssertionError("the drawn move was counted but not found")


def actors(board: Board, state: KState) -> list[str]:
    """The units that may still perform an Operation (or redeploy) now."""
    if state.phase is REDEPLOYMENT_PHASE:
        return [
            u for u, spec in board.units.items()
            if not spec.hq and spec.side == GERMAN and state.status[u] == IN_PLAY
            and u not in state.operation and adjacent_enemy(board, state, u) is None
        ]
    if state.phase is OPERATIONS_PHASE and state.active is not None:
        return [u for u in available(board, state, state.active) if u not in state.operation]
    return []


def movers(board: Board, state: KState) -> list[tuple[str, tuple[str, ...]]]:
    """Each unit that may still move now and its movement Operations: the ``actors`` with
    the phase's verbs, then the units whose Combined Operation is open after their Mobile
    Fire, with ``combined`` (8.4 "or vice-versa (i.e., shoot first and then move)")."""
    verbs = VERBS.get(state.phase, ())
    found = [(unit, verbs) for unit in actors(board, state)]
    if state.phase is OPERATIONS_PHASE:
        found += [(unit, ("combined",)) for unit in state.concert
                  if unit in state.fired and not moved(state, unit)
                  and state.status[unit] == IN_PLAY]  # not one its own attack removed
    return found


def fire_targets(board: Board, state: KState, unit: str, full: bool = True) -> list[str]:
    """Adjacent hexes with enemy units the unit may fire at (9.0, 9.1: not across a River
    hexside without a bridge, but for a US machine gun's Full Fire under 14.3.1)."""
    here = state.hex[unit]
    if here is None:
        return []  # 8.3.1: no fire from off the map
    side = board.units[unit].side
    enemy = occupancy(board, state).enemy_counts(side)  # the hexes with enemy units
    over_rivers = full and across_rivers(board, state, unit)
    crossings = board.crossing_costs(here)  # the neighbours not across a River without bridge
    return [there for there in board.neighbours(here)
            if there in enemy and (over_rivers or there in crossings)]


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
        elif unit in state.concert and unit not in state.fired:
            mobile.append(unit)  # it moved in its Combined Operation; its Mobile Fire follows
    found: list[Command] = []
    for verb, units in (("full-fire", full), ("mobile-fire", mobile)):
        targets: dict[str, list[str]] = {}
        for unit in units:
            for target in fire_targets(board, state, unit, verb == "full-fire"):
                targets.setdefault(target, []).append(unit)
        for target, group in sorted(targets.items()):
            for size in range(1, len(group) + 1):
                for chosen in combinations(group, size):
                    if verb == "full-fire" or joint(state, chosen):
                        found.append(Fire(verb, target, chosen))
    return found


def can_fire(board: Board, state: KState) -> bool:
    """Whether ``fires`` lists any attack: a unit that may still make a Full Fire Operation
    with a target is one (a Full Fire by one unit is always listed); else ``fires`` itself
    (the Mobile Fires, whose groups must fire jointly, 7.1.1)."""
    assert state.active is not None
    for unit in available(board, state, state.active):
        if (state.status[unit] == IN_PLAY and unit not in state.operation
                and fire_targets(board, state, unit, True)):
            return True
    return bool(fires(board, state))


def joint(state: KState, units: tuple[str, ...]) -> bool:
    """7.1, 7.1.1: whether a Mobile Fire by ``units`` names every moved unit whose Combined
    Operation began after the first moved one it names (``concert.check_concert``)."""
    try:
        check_concert(state, units)
    except IllegalMove:
        return False
    return True


def legal(board: Board, state: KState) -> Iterator[Command]:
    """Every legal command, yielded as it is found: ``end`` first, then each unit's moves,
    then the fire attacks, so a caller that wants only a few (``forced``: is there more than
    one?) searches one unit's moves, not every unit's."""
    phase = state.phase
    if phase is LANDING_PHASE:
        yield from (Landing(u) for u in landing_due(board, state)[:1])
    elif phase is SUPPORT_PHASE:
        yield SupportRoll(ARTILLERY if not state.rolled else ALLIED_SUPPORT)
    elif phase is OPERATIONS_PHASE and state.active is None:
        if state.cup:
            yield Draw()
    elif phase in (OPERATIONS_PHASE, REDEPLOYMENT_PHASE):
        yield End()
        for unit, verbs in movers(board, state):
            yield from unit_moves(board, state, unit, verbs)
        if phase is OPERATIONS_PHASE:
            yield from fires(board, state)


def choosing(state: KState) -> bool:
    """Whether a formation's Operations or the night redeployment are under way: ``end`` and
    every unit's moves and attacks are legal (``legal`` lists them, ``random_legal`` draws)."""
    return state.phase is REDEPLOYMENT_PHASE or (
        state.phase is OPERATIONS_PHASE and state.active is not None)


def only_end(board: Board, state: KState) -> bool:
    """While ``choosing``: whether ``end`` is the only legal command (the referee then ends
    the activation itself).  A unit can move when it can take a first step (4.0, 8.0-8.3:
    the cost of entering an adjacent hex, or of starting Close Combat there, within its
    allowance; a reinforcement's entry hex, or one beside it, 8.3.1 and Exclusive 8.5)."""
    night = state.phase is REDEPLOYMENT_PHASE
    # One view of who is where serves every unit: a first step enters a hex beside the
    # unit, or an entry hex while it is off the map, never the hex the unit itself is in,
    # so leaving the mover out of the counts (``moving``) changes no first step.
    occ = occupancy(board, state)
    for unit, verbs in movers(board, state):
        here = state.hex[unit]
        side = board.units[unit].side
        limit = allowance(board, "move" if "move" in verbs else verbs[0], unit)  # the most
        if here is not None:
            if can_step(board, occ, side, here, limit, night=night):
                return False
            continue
        firsts = (s for road in board.units[unit].entry_roads
                  for _, s in entry_steps(board, occ, side, road))
        if any(first.refusal is None and first.cost <= limit for first in firsts):
            return False
    return night or not can_fire(board, state)


END_CHANCE = 0.125
"""How often the random player ends an activation (or the night redeployment) when it could
do something else: one chance in eight, so formations move most of their units."""


def random_legal(board: Board, state: KState, rng: random.Random) -> Command:
    """The random player's command (``referee simulate --policy random``), found without
    listing every legal command.

    In an Operations Phase with an active formation and in the night redeployment: ``end``
    with chance ``END_CHANCE``; otherwise one of the units that may still act, or the
    formation's fire attacks taken together, chosen uniformly, and then one of that unit's
    moves (every Operation, every destination) or one of the fire attacks, uniformly; a
    choice with nothing to offer is set aside and another made; with nothing left, ``end``.
    So each unit's moves are searched only when it is chosen.  Every other decision is a
    uniform choice among all the legal commands (there are few)."""
    phase = state.phase
    if not choosing(state):
        options = list(legal(board, state))
        return options[rng.randrange(len(options))]
    if rng.random() < END_CHANCE:
        return End()
    verbs_of = dict(movers(board, state))
    choices: list[str | None] = [*verbs_of]
    if phase is OPERATIONS_PHASE:
        choices.append(None)  # the fire attacks
    while choices:
        index = rng.randrange(len(choices))
        choices[index], choices[-1] = choices[-1], choices[index]
        unit = choices.pop()
        if unit is None:
            attacks = fires(board, state)
            if attacks:
                return attacks[rng.randrange(len(attacks))]
            continue
        move = random_destination(board, state, unit, verbs_of[unit], rng)
        if move is not None:
            return move
    return End()


def moves_by_unit(board: Board, state: KState) -> list[dict[str, object]]:
    """``referee moves``: each unit that may act, its Operations and destinations, each
    written as the player writes it (the whole path after the unit, ``A->0113->0212``; the
    fire attacks it may make alone), and ``commands``: each of them as ``play`` takes it;
    nothing while an attack waits for a decision (its
    choices, a retreat's hexes among them, are the pending commands)."""
    grouped: list[dict[str, object]] = []
    if state.battle is not None:
        return grouped
    for unit, verbs in movers(board, state):
        spec = board.units[unit]
        entry: dict[str, object] = {
            "unit": unit, "type": spec.kind,
            "from": state.hex[unit] or "road " + "/".join(spec.entry_roads),
        }
        keys = {"move": "movement", "combined": "combined", "redeploy": "redeploy"}
        for verb in verbs:
            entry[keys[verb]] = []
        commands: list[str] = []
        for m in unit_moves(board, state, unit, verbs):
            ends = entry[keys[m.verb]]
            assert isinstance(ends, list)
            ends.append("->".join((m.start or "", *m.path)) if m.start else "->".join(m.path))
            commands.append(str(m))
        if state.phase is OPERATIONS_PHASE and unit not in state.operation:
            attacks = [f"{verb} {target} with {unit}"
                       for verb, full in (("full-fire", True), ("mobile-fire", False))
                       for target in fire_targets(board, state, unit, full)]
            if attacks:
                entry["fire"] = attacks
                commands.extend(attacks)
        entry["commands"] = commands
        grouped.append(entry)
    if state.phase is OPERATIONS_PHASE and state.active is not None:
        # Units that moved in their open Combined Operations: their Mobile Fire, alone or
        # jointly (7.1.1), as written.
        waiting = [u for u in state.concert if u not in state.fired]
        attacks_of = {u: [str(f) for f in fires(board, state)
                          if isinstance(f, Fire) and f.verb == "mobile-fire" and u in f.units]
                      for u in waiting}
        for unit in waiting:
            if attacks_of[unit]:
                grouped.append({"unit": unit, "type": board.units[unit].kind,
                                "from": state.hex[unit] or "", "fire": attacks_of[unit],
                                "commands": attacks_of[unit]})
    return grouped
