"""A Single Round: the six blocks in order.  The blocks the referee does not referee yet (phases
1, 2.1-2.3 and 3.1-3.3, the next Arnhem '44 issue) are named and skipped with a sentence in
the events, never silently.  Phase 3.4 (Bailey bridges) and block 6 (weather, reserves) are
refereed.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.games.arnhem44 import bailey, ferries
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.combat import disputed
from referee.games.arnhem44.reserves import due_german, reserves_left, stuck_allied, stuck_german
from referee.games.arnhem44.state import OVER, AState

SKIPPED_START = (
    ("2.2", "Phase 2.2 - Supplies"),
    ("2.3", "Phase 2.3 - Distributing Supplies"),
    ("3.1", "Phase 3.1 - Diffuse Explosive Charges"),
    ("3.2", "Phase 3.2 - Blowing Up Bridges"),
    ("3.3", "Phase 3.3 - Install Explosive Charges"),
)


def _skip(phase: str, title: str, why: str = "") -> Event:
    return Event("skipped", f"{title}: not refereed yet{why}; skipped",
                 {"phase": phase, "implemented": False})


def begin_round(board: Board, state: AState, events: list[Event]) -> None:
    """Blocks 1-3 of a round, then the Allied movement phase."""
    time = "night" if state.night else "day"
    events.append(Event("round", f"Round {state.round} ({time}, {state.weather} weather)",
                        {"round": state.round, "night": state.night}))
    if state.round == 1:
        events.append(Event("phase", "Phase 1 - Barrage Fire: there is no phase 1 in the first "
                            "round (The 1st Round)", {"phase": "1"}))
    else:
        events.append(_skip("1", "Phase 1 - Barrage Fire"))
    if state.round % 2 == 1:
        events.append(_skip("2.1", "Phase 2.1 - Airborne Troops",
                            " (no airborne unit lands)" if state.round in (1, 3, 7) else ""))
    for phase, title in SKIPPED_START:
        events.append(_skip(phase, title))
    start_bailey(board, state, events)


def start_bailey(board: Board, state: AState, events: list[Event]) -> None:
    """Phase 3.4 - Constructing Bailey Bridges, then the Allied movement phase."""
    if not bailey.open_phase(board, state, events):
        start_movement(state, "4.1", events)


def start_movement(state: AState, phase: str, events: list[Event]) -> None:
    state.phase = phase
    state.moved = {}
    state.intruded = {}
    who = "Allies move their units" if phase == "4.1" else "German player moves his troops"
    events.append(Event("phase", f"Phase {phase} - the {who}", {"phase": phase}))


def start_combat(board: Board, state: AState, events: list[Event]) -> None:
    state.phase = "4.2" if state.phase == "4.1" else "5.2"
    state.moved = {}
    state.intruded = {}
    state.combats = disputed(board, state)
    events.append(Event("phase", f"Phase {state.phase} - Combat: "
                        + (", ".join(state.combats) if state.combats else "no disputed sector"),
                        {"phase": state.phase, "sectors": list(state.combats)}))
    after_combat(board, state, events)


def after_combat(board: Board, state: AState, events: list[Event]) -> None:
    """Go on when the phase's combats and withdrawals are done."""
    if state.combats or state.withdrawals:
        return
    if state.phase == "4.2":
        start_movement(state, "5.1", events)
        return
    end_round(board, state, events)


def end_round(board: Board, state: AState, events: list[Event]) -> None:
    """After phase 5.2: block 6, or the end of the game after the last round."""
    if state.round >= board.rounds:
        events.append(Event("phase", f"the game ends after round {board.rounds}: no block 6"))
        state.phase = OVER
        state.result = {
            "result": "unscored",
            "winner": None,
            "reason": f"round {board.rounds} has ended; the victory count (Winning: bridge "
                      "points) is not refereed yet",
        }
        events.append(Event("over", state.result["reason"]))
        return
    if state.round % 2 == 0:
        state.phase = "6.1"  # the referee rolls tomorrow's weather
        return
    start_allied_reserves(board, state, events)


def start_allied_reserves(board: Board, state: AState, events: list[Event]) -> None:
    """Phase 6.2 - the Allied reserve roll, unless no reserve is left."""
    state.arriving = []
    if reserves_left(board, state) or state.engineers:
        state.phase = "6.2"
        return
    events.append(Event("phase", "Phase 6.2 - The Allies Bring In Reserves: no reserves left"))
    start_german_reserves(board, state, events)


def allied_reserves_placed(board: Board, state: AState, events: list[Event]) -> None:
    stuck_allied(board, state, events)
    if not state.arriving:
        start_german_reserves(board, state, events)


def start_german_reserves(board: Board, state: AState, events: list[Event]) -> None:
    """Phase 6.3 - the round's German reserves, placed by the German player."""
    state.phase = "6.3"
    events += due_german(board, state)
    german_reserves_placed(board, state, events)


def german_reserves_placed(board: Board, state: AState, events: list[Event]) -> None:
    stuck_german(board, state, events)
    if state.arriving:
        return
    state.above_rhine = 0
    ferries.end_of_round(state, events)
    state.round += 1
    begin_round(board, state, events)
