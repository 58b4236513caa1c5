"""The sequence of play (3.0, 4.0): set-up, the phases of a Game Turn, day and night, and the
end of the game after Game Turn 10.  Each function moves the state on until a side (or the
referee, for a chance step) must act.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.games.koenig_eindhoven.board import ALLIED, GERMAN, Board
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    DUE,
    IN_PLAY,
    LANDING_PHASE,
    OPERATIONS_PHASE,
    OVER_PHASE,
    REDEPLOYMENT_PHASE,
    SUPPORT_PHASE,
    KState,
    Places,
)


def opening(board: Board, scenario: str) -> KState:
    """3.0: the German player sets up first, then the Allied player; the Game Turn marker in
    box 1.  Units with a set-up hex are placed (German first); every other unit is due."""
    state = KState(scenario=scenario, turn=1, phase=LANDING_PHASE, hex=Places(), status={},
                   hits={})
    for side in (GERMAN, ALLIED):
        for spec in board.units.values():
            if spec.hq or spec.side != side:
                continue
            state.hex[spec.id] = spec.setup_hex
            state.status[spec.id] = IN_PLAY if spec.setup_hex else DUE
            state.hits[spec.id] = 0
    return state


def night(board: Board, state: KState) -> bool:
    return board.turn(state.turn).night


def landing_due(board: Board, state: KState) -> list[str]:
    """5.0, Exclusive 5.0: Allied reinforcements arriving this turn by paratroop landing whose
    roll is still to make (the starting units of Game Turn 1 make none)."""
    return [
        spec.id for spec in board.units.values()
        if spec.landing and spec.arrival_turn == state.turn and state.status[spec.id] == DUE
        and spec.id not in state.landed
    ]


def available(board: Board, state: KState, formation: str) -> list[str]:
    """The formation's units that may act when it is activated: those on the map, and those
    due whose Game Turn of arrival has come (Exclusive 8.5, K3)."""
    found = []
    for unit in board.formations[formation].units:
        status = state.status[unit]
        if status == IN_PLAY or (status == DUE and (board.units[unit].arrival_turn or 0)
                                 <= state.turn):
            found.append(unit)
    return found


def fill_cup(board: Board, state: KState) -> list[str]:
    """7.0: the HQs of formations with units on the map, and of formations arriving this turn
    (or earlier, with units still to enter), in canonical (sorted) order."""
    return sorted(f for f in board.formations if available(board, state, f))


def advance(board: Board, state: KState, events: list[Event]) -> None:
    """Move on through the phases that need nobody (4.0) until someone must act."""
    for _ in range(100):
        if state.phase is OVER_PHASE:
            return
        if state.phase is LANDING_PHASE:
            if landing_due(board, state):
                return
            if night(board, state):
                state.phase = REDEPLOYMENT_PHASE
                events.append(Event("phase", f"Game Turn {state.turn} is a night turn: German "
                                    "Redeployment Phase (4.0)", {"phase": "redeployment"}))
                return
            state.phase = SUPPORT_PHASE
            state.rolled = []
            return
        if state.phase is SUPPORT_PHASE:
            if len(state.rolled) < 2:
                return
            state.phase = OPERATIONS_PHASE
            state.cup = fill_cup(board, state)
            state.active = None
            events.append(Event(
                "cup", "Operations Phase (7.0): the Command Cup holds "
                + (", ".join(f"HQ {f}" for f in state.cup) or "no HQ"),
                {"cup": list(state.cup)},
            ))
            if state.cup:
                return
            housekeeping(board, state, events)
            continue
        if state.phase is OPERATIONS_PHASE:
            if state.active is not None or state.cup:
                return
            housekeeping(board, state, events)
            continue
        if state.phase is REDEPLOYMENT_PHASE:
            return
    raise AssertionError("the sequence of play does not settle")


def end_operations_or_night(board: Board, state: KState, events: list[Event]) -> None:
    housekeeping(board, state, events)
    advance(board, state, events)


def housekeeping(board: Board, state: KState, events: list[Event]) -> None:
    """4.0 Housekeeping: advance the Game Turn marker, or end the game after the last turn.
    Unused support points lapse (K7); operations and redeployments of the turn are over."""
    state.cup = []
    state.active = None
    state.concert = ()
    state.operation = {}
    state.mp_left = {}
    state.fired = set()
    state.engaged = set()
    state.points = {ARTILLERY: 0, ALLIED_SUPPORT: 0}
    state.rolled = []
    if state.turn >= board.last_turn:
        from referee.games.koenig_eindhoven.victory import final_result

        state.phase = OVER_PHASE
        state.result = final_result(board, state)
        events.append(Event("game-over", f"Game Turn {state.turn} is completed: the game is "
                            "over (3.0, 12.0)", dict(state.result)))
        return
    state.turn += 1
    state.phase = LANDING_PHASE
    kind = "night" if night(board, state) else "day"
    events.append(Event("turn", f"Game Turn {state.turn} begins ({kind} turn)",
                        {"turn": state.turn, "night": kind == "night"}))
