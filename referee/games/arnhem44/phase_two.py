"""Block 2, airborne troops: Phase 2.1 (landings and anti-aircraft fire), Phase 2.2 (supply
drops and their tokens) and Phase 2.3 (distributing supplies), in that order.  Each step says
whether the block is done; the round goes on to block 3 when it is."""

from __future__ import annotations

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.airborne import (
    anti_aircraft,
    due,
    land,
    land_supplies,
    landing_rounds,
    schedule,
)
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.commands import (
    AntiAircraft,
    Collect,
    Command,
    LandingRoll,
    SupplyDropRoll,
    TokenRoll,
)
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import (
    collect,
    distribute,
    drop,
    drop_due,
    token_tie,
    waiting,
)

BLOCK_TWO = (LandingRoll, AntiAircraft, SupplyDropRoll, TokenRoll, Collect)
"""The commands of block 2 alone (``out_of_phase`` refuses them elsewhere)."""


def out_of_phase(state: AState, command: Command) -> None:
    """Refuse a block-2 command outside block 2, with the rule that says when it happens."""
    if isinstance(command, LandingRoll):
        raise IllegalMove("Airborne Divisions", "airborne troops land only in phase 2.1 of "
                          "rounds 1, 3 and 7 (the airborne chart), not now")
    if isinstance(command, AntiAircraft):
        raise IllegalMove("Anti-Aircraft Fire", "anti-aircraft fire hits airborne units as "
                          "they land (phase 2.1), not now")
    if isinstance(command, SupplyDropRoll):
        raise IllegalMove("Phase 2.2", "supplies are dropped in phase 2.2 of odd rounds (not "
                          "round 3), not now")
    if isinstance(command, (TokenRoll, Collect)):
        raise IllegalMove("Picking Up Supply Tokens", "tokens are collected at the moment "
                          "they are dropped (phase 2.2) or picked up by moving, not now")


def start(board: Board, state: AState, events: list[Event]) -> bool:
    """Enter block 2 at the start of a round; True when nothing waits."""
    if state.round in landing_rounds(board) and state.round % 2 == 1:
        if due(board, state):
            state.phase = "2.1"
            return False
        events.append(Event("phase", "Phase 2.1 - Airborne Troops: every unit of this round's "
                            "schedule is already on the map", {"phase": "2.1"}))
        events += land_supplies(state, schedule(board, state))
    else:
        rounds = ", ".join(map(str, sorted(landing_rounds(board))))
        events.append(Event("phase", f"Phase 2.1 - Airborne Troops: no landing this round (the "
                            f"airborne troops arrive in round {rounds})", {"phase": "2.1"}))
    return start_drops(board, state, events)


def start_drops(board: Board, state: AState, events: list[Event]) -> bool:
    if drop_due(board, state):
        state.phase = "2.2"
        return False
    if state.round % 2 == 0:
        why = "odd rounds only"
    elif state.round in landing_rounds(board):
        why = ("the landing units' supplies come with them: do not roll the dice for the "
               "supplies during this turn (Airborne Divisions)")
    else:
        why = "no drop scheduled" if state.box else "the box holds no supply token"
    events.append(Event("phase", f"Phase 2.2 - Supplies: no supply drop this round ({why})",
                        {"phase": "2.2"}))
    events += distribute(state)
    return True


def needs(board: Board, state: AState) -> str:
    """What block 2 waits for: landing, anti-aircraft, drop, roll (a token's tie) or collect."""
    if state.phase == "2.1":
        return "anti-aircraft" if state.anti_aircraft else "landing"
    if not state.dropping:
        return "drop"
    return waiting(board, state) or "drop"


def legal(board: Board, state: AState) -> list[Command]:
    need = needs(board, state)
    if need == "landing":
        return [LandingRoll()]
    if need == "anti-aircraft":
        return [AntiAircraft(state.anti_aircraft[0][0])]
    if need == "roll":
        return [TokenRoll(state.dropping[0])]
    if need == "collect":
        from referee.games.arnhem44.supply import candidates, collectors

        return [Collect(g) for g in candidates(state, collectors(board, state,
                                                                 state.dropping[0]))]
    return [SupplyDropRoll()]


def decision(board: Board, state: AState) -> str:
    need = needs(board, state)
    if need == "landing":
        return "Phase 2.1 - the landing roll, one die per airborne unit (landing)"
    if need == "anti-aircraft":
        return f"anti-aircraft fire in {state.anti_aircraft[0][0]} (anti-aircraft SECTOR)"
    if need == "roll":
        return f"the tie roll for the supply token on {state.dropping[0]} (token SECTOR)"
    if need == "collect":
        options = " or ".join(str(c) for c in legal(board, state))
        return f"which HQ card takes the token on {state.dropping[0]}: {options}"
    return "Phase 2.2 - the supply drop, one die per token (supply-drop)"


def apply(board: Board, state: AState, command: Command, dice: Dice,
          events: list[Event]) -> bool:
    """Apply a block-2 command; True when the block is done."""
    need = needs(board, state)
    if need == "landing" and isinstance(command, LandingRoll):
        events += land(board, state, dice)
    elif need == "anti-aircraft" and isinstance(command, AntiAircraft):
        events += anti_aircraft(board, state, dice, command.sector)
    elif need == "drop" and isinstance(command, SupplyDropRoll):
        events += drop(board, state, dice)
    elif need == "roll" and isinstance(command, TokenRoll):
        events += token_tie(board, state, dice, command.sector)
    elif need == "collect" and isinstance(command, Collect):
        events += collect(board, state, command)
    else:
        rule = {"landing": "Phase 2.1", "anti-aircraft": "Anti-Aircraft Fire",
                "drop": "Phase 2.2"}.get(need, "Picking Up Supply Tokens")
        raise IllegalMove(rule, f"'{command}' must wait: {decision(board, state)}")
    if state.phase == "2.1":
        if state.anti_aircraft:
            return False
        return start_drops(board, state, events)
    if state.dropping:
        return False
    events += distribute(state)
    return True
