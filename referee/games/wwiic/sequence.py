"""Setup (3) and the sequence of play (4): start-of-turn activities, impulses, passing, the
time track and the three ways a game-turn ends.  Off-map box closures (6.5) happen here too,
at the start of the turns they close on; the supply check (8), reinforcements (9),
replacements (10) and the victory checks (11.3) are called from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.core.engine import Event
from referee.games.wwiic.arrivals import due_units, settle_start
from referee.games.wwiic.board import ALLIED, BOX, FERRY, GERMAN, SPACE, Board, other_side
from referee.games.wwiic.state import Combat, Phase, WState
from referee.games.wwiic.supply import supply_check
from referee.games.wwiic.victory import (
    check_eliminated_track,
    eliminate,
    end_of_turn_victory,
    start_of_turn_victory,
)


def opening(board: Board) -> WState:
    """The position after setup steps 3.B-3.G; 3.H (Red Devils Move Out) is the first action."""
    location: dict[str, str | None] = {}
    for unit, info in board.units.items():
        location[unit] = info.start  # reinforcements (start None) are not in play yet
    occupants: dict[str, set[str]] = {}
    for unit, place in location.items():
        if place is not None and board.kind[place] == SPACE:
            occupants.setdefault(place, set()).add(board.side_of[unit])
    # 3.D / 5: Allied control markers in the spaces occupied solely by Allied units.
    allied_control = {space for space, sides in occupants.items() if sides == {ALLIED}}
    # 3.G: the II SS units in the unprepared spaces start Game-turn 1 spent.
    spent = {
        unit for unit, place in location.items()
        if place in board.unprepared and board.side_of[unit] == GERMAN
    }
    return WState(
        scenario=board.id,
        turn=1,
        phase=Phase.MOVE_OUT,
        weather=board.weather_table.first_turn,
        initiative=ALLIED,  # 4 Initiative: the Allies on Game-turns 1-3
        time=0,
        side=ALLIED,
        location=location,
        strength={unit: info.max_strength for unit, info in board.units.items()},
        supply=dict.fromkeys(board.units, "in"),
        spent=spent,
        allied_control=allied_control,
    )


def in_play(board: Board, state: WState, unit: str) -> bool:
    place = state.location.get(unit)
    return place is not None and board.kind[place] in (SPACE, BOX, FERRY)


def unspent(board: Board, state: WState, side: str) -> list[str]:
    """The units ``side`` could still activate this game-turn (4)."""
    return [
        unit for unit in board.unit_order
        if board.side_of[unit] == side and unit not in state.spent
        and in_play(board, state, unit)
    ]


def has_unspent(board: Board, state: WState, side: str) -> bool:
    """Whether ``side`` could still activate a unit this game-turn (4): ``unspent`` is not
    empty, found without listing every unit (asked before every line a log replays)."""
    spent = state.spent
    location = state.location
    kind = board.kind
    for unit in board.units_of[side]:  # the side's units, in the board's order
        if unit not in spent:
            place = location.get(unit)
            if place is not None and kind[place] in (SPACE, BOX, FERRY):
                return True
    return False


def _all_spent(board: Board, state: WState) -> bool:
    """Every unit in play is spent (``in_play`` of each, without a call per unit)."""
    spent = state.spent
    location = state.location
    kind = board.kind
    for unit in board.unit_order:
        if unit not in spent:
            place = location.get(unit)
            if place is not None and kind[place] in (SPACE, BOX, FERRY):
                return False
    return True


def may_pass(board: Board, state: WState) -> bool:
    """4 Passing: the German player any time; the Allied player only when every Allied unit
    is spent or the German player passed in the impulse just before."""
    if state.side == GERMAN:
        return True
    return state.last_pass == GERMAN or not has_unspent(board, state, ALLIED)


def open_combats(board: Board, state: WState,
                 occupants: Mapping[str, Sequence[str]]) -> Combat | None:
    """The attacks after an activation's movement (4 Activation; 7; 8.2: no attack out of
    supply): mandatory in enemy-controlled spaces, optional in friendly-controlled ones.
    ``occupants``: the units in each place of ``state.location`` (the move's ``MapView``)."""
    side = state.side
    side_of = board.side_of
    spaces: list[str] = []
    for unit in state.active:
        place = state.location[unit]
        if place is None or board.kind[place] != SPACE or state.supply.get(unit) == "out":
            continue
        if place in spaces:
            continue
        if any(side_of[u] != side for u in occupants.get(place, ())):
            spaces.append(place)
    if not spaces:
        return None
    mandatory = tuple(s for s in spaces if state.controller(s) != side)
    optional = tuple(s for s in spaces if state.controller(s) == side)
    return Combat(mandatory, optional)


def joining_units(board: Board, state: WState, space: str) -> list[str]:
    """Units that join an attack in ``space`` without having been activated (4, 7): the
    active side's unspent, supplied units there."""
    return [
        unit for unit, place in state.location.items()
        if place == space and board.side_of[unit] == state.side
        and unit not in state.active and unit not in state.spent
        and state.supply.get(unit) != "out"
    ]


def end_impulse(board: Board, state: WState, events: list[Event], passed: bool) -> None:
    """Place activation cubes, advance the time track, and see whether the turn ends (4)."""
    side = state.side
    for unit in state.active:
        if unit not in state.eliminated:  # a unit eliminated in its own attack gets no cube
            state.spent.add(unit)
    active = state.active
    if active:
        events.append(Event("spent", lambda: "activation cubes on " + ", ".join(active),
                            {"units": list(active)}))
    state.active = ()
    state.combat = None
    state.entered_across.clear()
    if side != state.initiative:
        state.time += 1
        where = "END" if state.time >= board.impulses else str(state.time)
        events.append(Event(
            "time", lambda: f"{side.capitalize()} (without the initiative) advances the Time "
            f"marker to {where}", {"time": state.time},
        ))
    reason = None
    if state.time >= board.impulses:
        reason = "the Time marker entered the END box"
    elif passed and state.last_pass == other_side(side):
        reason = "both players passed in succession"
    elif _all_spent(board, state):
        reason = "all units of both players are spent"
    if reason is not None:
        end_turn(board, state, events, reason)
        return
    state.last_pass = side if passed else None
    state.side = other_side(side)
    state.phase = Phase.IMPULSE


def end_turn(board: Board, state: WState, events: list[Event], reason: str) -> None:
    """End of Game-turn: advance the turn marker; the time reset is the next turn's step 1."""
    events.append(Event(
        "turn-end", f"Game-turn {state.turn} ends: {reason}", {"turn": state.turn,
                                                              "reason": reason},
    ))
    state.last_pass = None
    state.active = ()
    state.combat = None
    end_of_turn_victory(board, state, events)
    if state.phase is Phase.OVER:
        return
    state.turn += 1
    state.time = 0
    state.phase = Phase.WEATHER
    turn = board.turns[state.turn]
    events.append(Event(
        "turn-start", f"Game-turn {state.turn} begins ({turn.date.strftime('%d %b')} "
        f"{turn.half}); 1. time reset: the Time marker goes to START",
        {"turn": state.turn, "half": turn.half},
    ))
    start_of_turn_victory(board, state, events)


def start_of_turn(board: Board, state: WState, roll: int, events: list[Event]) -> None:
    """Start-of-turn activities 2-6 (4), after the weather die is rolled."""
    turn = board.turns[state.turn]
    weather = board.weather_table.weather(turn.half, roll)
    state.weather = weather
    state.initiative = ALLIED if turn.initiative == "allied" or weather == "clear" else GERMAN
    events.append(Event(
        "weather", f"2. weather: {roll} on the {turn.half} table, {weather}; "
        f"{state.initiative.capitalize()} initiative",
        {"roll": roll, "weather": weather, "initiative": state.initiative},
    ))
    state.spent.clear()
    state.foot_crossing_used = False
    state.special_crossing_used = False
    events.append(Event("activation-reset", "3. activation reset: activation cubes removed"))
    close_boxes(board, state, events)
    check_eliminated_track(board, state, events)
    if state.phase is Phase.OVER:
        return
    supply_check(board, state, events)
    state.arrivals = due_units(board, state)
    if not state.arrivals:
        events.append(Event("reinforcement", "5. reinforcements: none due"))
    state.replacements = {}
    if turn.allied_replacements:
        state.replacements[ALLIED] = turn.allied_replacements
    if turn.german_replacements:
        state.replacements[GERMAN] = turn.german_replacements
    if state.replacements:
        events.append(Event(
            "replacement", f"6. replacements: {turn.allied_replacements} Allied and "
            f"{turn.german_replacements} German replacement point(s) (10)",
            {"allied": turn.allied_replacements, "german": turn.german_replacements},
        ))
    settle_start(board, state, events)


def close_boxes(board: Board, state: WState, events: list[Event]) -> None:
    """6.5 Closed off-map boxes: units inside move to the named box, spent, or are eliminated.

    Done after the activation reset, so the activation cubes placed here stay for the turn.
    """
    closing = [box for box, info in board.boxes.items() if info.closes_turn == state.turn]
    for box in closing:
        target = board.boxes[box].units_move_to
        inside = [u for u in board.unit_order if state.location[u] == box]
        if target is not None and board.box_closed(target, state.turn):
            target = None
        for unit in inside:
            if target is None:
                eliminate(board, state, unit, events)
            else:
                state.location[unit] = target
                state.spent.add(unit)
        text = f"off-map box {box} closes for good (6.5)"
        if inside:
            if target is None:
                text += "; eliminated there: " + ", ".join(inside)
            else:
                text += f"; moved to {target} and spent: " + ", ".join(inside)
        events.append(Event(
            "box-closed", text, {"box": box, "units": inside, "to": target},
        ))
