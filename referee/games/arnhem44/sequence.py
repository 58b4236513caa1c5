"""A Single Round: the six blocks in order.  Phase 1 (barrage fire, from round 2) is
refereed in barrage.py, block 2 (airborne troops and supplies) in phase_two.py and phases
3.1-3.3 (explosives) in explosives.py, phase 3.4 (Bailey bridges) in bailey.py.  Block 6
(weather, reserves) is refereed.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.games.arnhem44 import bailey, barrage, explosives, ferries, phase_two
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.combat import disputed
from referee.games.arnhem44.reserves import due_german, reserves_left, stuck_allied, stuck_german
from referee.games.arnhem44.state import OVER, AState
from referee.games.arnhem44.turns import first_part


def begin_round(board: Board, state: AState, events: list[Event]) -> None:
    """Blocks 1-3 of a round, then the Allied movement phase."""
    time = "night" if state.night else "day"
    events.append(Event("round", f"Round {state.round} ({time}, {state.weather} weather)",
                        {"round": state.round, "night": state.night}))
    if state.round == 1:
        events.append(Event("phase", "Phase 1 - Barrage Fire: there is no phase 1 in the first "
                            "round (The 1st Round)", {"phase": "1"}))
    elif barrage.start(board, state, events):
        return  # phase 1 waits for the initiative roll and the batteries (barrage.py)
    after_barrage(board, state, events)


def after_barrage(board: Board, state: AState, events: list[Event]) -> None:
    """Blocks 2 and 3, then the Allied movement phase."""
    state.barrage_turn = None
    state.barrage_fired = []
    state.barrage_over = []
    state.part = None  # Veterans/3: the Allied player of the barrage turns
    begin_block_two(board, state, events)


def begin_block_two(board: Board, state: AState, events: list[Event]) -> None:
    """Block 2 - airborne troops (phases 2.1-2.3); block 3 follows when nothing waits."""
    if phase_two.start(board, state, events):
        begin_block_three(board, state, events)


def begin_block_three(board: Board, state: AState, events: list[Event]) -> None:
    """Block 3 - explosives and bridges, then the Allied movement phase."""
    explosives.open_phase(board, state, events)  # Phases 3.1-3.3 (explosives.py)
    if state.phase == explosives.DONE:
        after_explosives(board, state, events)


def after_explosives(board: Board, state: AState, events: list[Event]) -> None:
    """After Phase 3.3: Phase 3.4, then the Allied movement phase."""
    start_bailey(board, state, events)


def start_bailey(board: Board, state: AState, events: list[Event]) -> None:
    """Phase 3.4 - Constructing Bailey Bridges, then the Allied movement phase."""
    if not bailey.open_phase(board, state, events):
        start_movement(state, "4.1", events)


def start_movement(state: AState, phase: str, events: list[Event]) -> None:
    state.phase = phase
    state.moved = {}
    state.intruded = {}
    state.fallen_back = {}
    state.part = first_part(state)
    state.joker_sector = None
    who = "Allies move their units" if phase == "4.1" else "German player moves his troops"
    if state.part is not None:
        who += " (Veterans/3: the UK part first, then the US part)"
    events.append(Event("phase", f"Phase {phase} - the {who}", {"phase": phase}))


def start_combat(board: Board, state: AState, events: list[Event]) -> None:
    state.phase = "4.2" if state.phase == "4.1" else "5.2"
    state.part = None
    state.moved = {}
    state.intruded = {}
    state.fallen_back = {}
    state.joker_sector = None
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
        state.phase = OVER  # the count follows once the bridges' control is up to date
        state.result = None
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
