"""The Operations Phase (7.0-7.2) and the German night redeployment (4.0): one unit's
Movement or Combined movement (8.0-8.4, Exclusive 8.5), the checks of a Fire Attack's
preparation (7.1.1, 8.3.1, 9.0), and the end of an activation.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.koenig_eindhoven import concert
from referee.games.koenig_eindhoven.board import GERMAN, Board
from referee.games.koenig_eindhoven.closecombat import open_close_combat
from referee.games.koenig_eindhoven.combat import across_rivers, open_battle
from referee.games.koenig_eindhoven.commands import Fire, Move
from referee.games.koenig_eindhoven.movement import Refusal, half, occupancy, walk
from referee.games.koenig_eindhoven.sequence import available
from referee.games.koenig_eindhoven.state import (
    COMBINED,
    DUE,
    ELIMINATED,
    FULL_FIRE,
    IN_PLAY,
    MOVEMENT,
    NEVER,
    OFF,
    OFF_MAP,
    OPERATIONS_PHASE,
    REDEPLOYED,
    REDEPLOYMENT_PHASE,
    US_MACHINE_GUNS,
    KState,
)

VERB_OPERATION = {"move": MOVEMENT, "combined": COMBINED, "redeploy": REDEPLOYED}
GONE = {ELIMINATED: "eliminated", OFF_MAP: "off the map for good (11.1)",
        NEVER: "a unit that never arrived (Exclusive 5.0)"}


def allowance(board: Board, verb: str, unit: str) -> int:
    """The Movement Points of the Operation: the printed MA for Movement (8.0); half of it,
    rounded up, for Combined (8.4) and for the night redeployment (4.0)."""
    ma = board.units[unit].ma
    return ma if verb == "move" else half(ma)


def adjacent_enemy(board: Board, state: KState, unit: str) -> str | None:
    """An enemy-occupied hex adjacent to the unit's hex (4.0), if any."""
    here = state.hex[unit]
    assert here is not None
    side = board.units[unit].side
    enemy = occupancy(board, state).enemy_counts(side)
    if here not in enemy and not any(there in enemy for there in board.neighbours(here)):
        return None  # no enemy unit beside it (the view of who is where answers at once)
    for other, place in state.hex.items():  # the first enemy unit's hex, in the table's order
        if place is not None and board.units[other].side != side and (
            place == here or board.adjacent(here, place)
        ):
            return place
    return None


def check_actor(board: Board, state: KState, unit: str, verb: str) -> bool:
    """7.0, 7.1, 8.4, 8.5, 4.0: may this unit perform this Operation now?  True when it is
    the second half of the unit's open Combined Operation (its movement after its Mobile
    Fire, 8.4)."""
    spec = board.units[unit]
    if spec.hq:  # K20: an HQ is a chit of the Command Cup, never a unit on the map
        raise IllegalMove("7.0", f"{unit} is an HQ: drawn from the Command Cup it activates its "
                          f"formation, whose units perform the Operations; an HQ never moves, "
                          f"fires or redeploys")
    status = state.status[unit]
    if verb == "redeploy":
        if state.phase is not REDEPLOYMENT_PHASE:
            raise IllegalMove("4.0", "redeployment happens only in the German Redeployment "
                              "Phase of a night turn; by day units act when their HQ is drawn")
        if spec.side != GERMAN:
            raise IllegalMove("4.0", "only the German player redeploys at night")
    else:
        if state.phase is REDEPLOYMENT_PHASE:
            raise IllegalMove("4.0", f"Game Turn {state.turn} is a night turn: there is no "
                              "Operations Phase; the German player may only redeploy")
        if state.phase is not OPERATIONS_PHASE:
            raise IllegalMove("7.0", "Operations wait for the Operations Phase")
        if state.active is None:
            raise IllegalMove("7.0", "no formation is active: the referee draws the next HQ "
                              "from the Command Cup first")
        if spec.formation != state.active:
            raise IllegalMove("7.1", f"{unit} belongs to formation {spec.formation}; only units "
                              f"of the active formation ({state.active}) may perform an "
                              "Operation")
    if status in GONE:
        raise IllegalMove("7.0", f"{unit} is {GONE[status]}")
    if status == DUE and verb == "redeploy":
        raise IllegalMove("4.0", f"{unit} is not on the map: only units on the map redeploy")
    if status == DUE and (spec.arrival_turn or 0) > state.turn:
        raise IllegalMove("8.5", f"{unit} arrives on Game Turn {spec.arrival_turn}, not "
                          f"{state.turn}")
    done = state.operation.get(unit)
    if unit in state.engaged and verb != "redeploy":
        raise IllegalMove("10.3", f"{unit} initiated a Close Combat: its Operation is over; no "
                          "further movement or Fire Attacks this turn")
    if done is not None:
        if verb == "redeploy":
            raise IllegalMove("4.0", f"{unit} has already redeployed this night")
        if verb == "combined" and concert.check_second_move(state, unit):
            return True
        if verb == "move" and done == COMBINED and concert.moved(state, unit):
            concert.check_second_move(state, unit)  # 8.4.1: it raises
        raise IllegalMove("7.0", f"{unit} has already performed an Operation this turn "
                          f"({done}): each unit performs one Operation")
    return False


def apply_move(board: Board, state: KState, command: Move, events: list[Event]) -> None:
    unit = command.unit
    verb = command.verb
    second_half = check_actor(board, state, unit, verb)
    spec = board.units[unit]
    here = state.hex[unit]
    start = command.start
    entry: str | None = None
    if here is None:
        if start is None or start not in spec.entry_roads:
            roads = " or ".join(spec.entry_roads)
            raise IllegalMove("8.5", f"{unit} enters the map via road {roads}: write "
                              f"'{verb} {unit} {spec.entry_roads[0]}->HEX…'")
        entry = start
    elif start is not None and start != here:
        raise IllegalMove("8.0", f"{unit} is in {here}, not {start}")
    if OFF in command.path:
        raise IllegalMove("8.1.1", f"{unit} may not move off the map: units may not move \"off "
                          "the map into 'imaginary' adjacent hexes\" (only a retreat leaves "
                          "it, 11.1)")
    if verb == "redeploy":
        near = adjacent_enemy(board, state, unit)
        if near is not None:
            raise IllegalMove("4.0", f"{unit} is adjacent to the enemy unit in {near}: only "
                              "units not adjacent to enemy units redeploy")
    limit = allowance(board, verb, unit)
    occ = occupancy(board, state, moving=unit)
    result = walk(board, occ, spec.side, here, entry, command.path, limit,
                  night=verb == "redeploy")
    if isinstance(result, Refusal):
        message = result.message
        if verb != "move" and result.rule == "8.1":
            message += f"; {'a Combined Operation' if verb == 'combined' else 'a redeployment'}"
            message += f" moves at most half the MA ({limit} MP, 8.4, 4.0)"
        raise IllegalMove(result.rule, message)
    origin = here if here is not None else f"road {entry}"
    state.hex[unit] = command.path[-1]
    if state.status[unit] == DUE:
        state.status[unit] = IN_PLAY
    state.operation[unit] = VERB_OPERATION[verb]
    state.mp_left[unit] = limit - result.spent
    if verb == "combined" and not (result.close_combat and not second_half):
        concert.after_combined_move(state, unit, second_half)
    elif verb == "combined":
        # 8.4.2, 10.3: a Combined Operation begun with a move into Close Combat ends with
        # the combat, with no joint Mobile Fire to come: the other open ones close (7.1).
        state.concert = (unit,)
    else:
        concert.close(state)
    what = {"move": "Movement", "combined": "Combined (movement)",
            "redeploy": "night redeployment"}[verb]
    route = "->".join((origin, *command.path))
    events.append(Event(
        "move", f"{unit} {what}: {route}, {result.spent} of {limit} MP",
        {"unit": unit, "operation": VERB_OPERATION[verb], "path": [origin, *command.path],
         "mp": result.spent, "allowance": limit},
    ))
    if here is None:
        events.append(Event("arrive", f"{unit} enters the map by road {entry} (Exclusive 8.5)",
                            {"unit": unit, "road": entry}))
    if result.close_combat:
        open_close_combat(board, state, unit, command.path[-1], here is None, events)


def check_fire(board: Board, state: KState, command: Fire, events: list[Event]) -> None:
    """7.1, 7.1.1, 8.3.1, 8.4 and 9.0's Preparation step; then the attack (``combat``)."""
    if state.phase is REDEPLOYMENT_PHASE:
        raise IllegalMove("4.0", "there is no combat in the German Redeployment Phase")
    if len(set(command.units)) != len(command.units):
        raise IllegalMove("9.0", "a unit is named twice: each unit fires once in an attack")
    mobile = command.verb == "mobile-fire"
    for unit in command.units:
        if unit in state.engaged:
            raise IllegalMove("10.3", f"{unit} initiated a Close Combat: it may not initiate "
                              "further movement or Fire Attacks this turn")
        done = state.operation.get(unit)
        if done == COMBINED and not mobile:
            raise IllegalMove("7.1.1", f"{unit} is performing a Combined Operation: only units "
                              "performing the same type of Operation fire jointly")
        if mobile and concert.check_mobile_firer(state, unit):
            continue  # 8.4: it moved; now its Mobile Fire
        check_actor(board, state, unit, "combined" if mobile else "move")
        if state.status[unit] == DUE:
            raise IllegalMove("8.3.1", f"{unit} is still off the map: a reinforcement cannot "
                              "conduct a Full or Mobile Fire Attack from off the map")
    if mobile:
        concert.check_concert(state, command.units)
    side = board.units[command.units[0]].side
    if not any(h == command.target and board.units[u].side != side
               for u, h in state.hex.items()):
        raise IllegalMove("9.0", f"{command.target} holds no enemy unit: the target hex holds "
                          "at least one enemy unit")
    for unit in command.units:
        here = state.hex[unit]
        assert here is not None
        if not board.adjacent(here, command.target):
            raise IllegalMove("9.0", f"{unit} in {here} is not adjacent to {command.target}: "
                              "units must be adjacent to the target")
        hexside = board.hexside(here, command.target)
        if hexside.river and hexside.bridge is None:
            river_fire(board, state, unit, command.verb)
    if mobile:
        concert.after_mobile_fire(state, command.units)
    else:
        for unit in command.units:
            state.operation[unit] = FULL_FIRE
        concert.close(state)
    open_battle(board, state, command.verb, command.target, command.units, events)


def river_fire(board: Board, state: KState, unit: str, verb: str) -> None:
    """9.1: no Fire Combat across a River hexside without a bridge; optional 14.3.1 lets a US
    machine-gun unit make a Full Fire Attack across one at half CS."""
    if verb == "full-fire" and across_rivers(board, state, unit):
        return
    if board.units[unit].machine_gun and US_MACHINE_GUNS in state.options:
        raise IllegalMove("14.3.1", f"{unit} would fire across a River hexside in a Mobile Fire "
                          "Attack: a US machine-gun unit fires across River hexsides in Full "
                          "Fire Attacks only")
    why = ""
    if board.units[unit].machine_gun:
        why = f" (optional 14.3.1, [Option \"{US_MACHINE_GUNS}\"], is not in play)"
    raise IllegalMove("9.1", f"{unit} would fire across a River hexside: Fire Combat is "
                      "prohibited across River hexsides" + why)


def end_activation(board: Board, state: KState, events: list[Event]) -> None:
    """7.2: the active formation is done; the next HQ is drawn, or the phase ends."""
    if state.phase is REDEPLOYMENT_PHASE:
        events.append(Event("end", "the German Redeployment Phase ends (4.0)"))
        return
    if state.phase is not OPERATIONS_PHASE or state.active is None:
        raise IllegalMove("7.2", "no formation is active: the referee draws the next HQ from "
                          "the Command Cup")
    left = [u for u in available(board, state, state.active) if u not in state.operation]
    events.append(Event(
        "end", f"formation {state.active}'s activation ends (7.2)"
        + (f"; {', '.join(left)} did nothing" if left else ""),
        {"formation": state.active, "idle": left},
    ))
    state.active = None
    concert.close(state)

