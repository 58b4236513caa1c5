"""Victory (11): the Objective VPs marker, VPs for eliminated units, early victories and the
final table.  An early victory ends the game at once (``state.result``, phase OVER).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.engine import Event
from referee.games.wwiic.board import ALLIED, GERMAN, SPACE, Board
from referee.games.wwiic.state import Phase, WState


def objective_vp(board: Board, state: WState) -> int:
    return board.objective_vp.get(state.objective_marker, 0)


def vp_json(board: Board, state: WState) -> dict[str, int]:
    objective = objective_vp(board, state)
    return {"objective": objective, "eliminated": state.eliminated_vp,
            "total": objective + state.eliminated_vp}


def finish(board: Board, state: WState, events: list[Event], winner: str | None,
           reason: str) -> None:
    """End the game with ``winner`` (None: a draw)."""
    result = "draw" if winner is None else f"{winner} victory"
    state.result = {"result": result, "winner": winner, "reason": reason,
                    "vp": vp_json(board, state)}
    state.phase = Phase.OVER
    state.battle = None
    state.combat = None
    state.active = ()
    events.append(Event("victory", f"{result.capitalize()}: {reason}", dict(state.result)))


def eliminate(board: Board, state: WState, unit: str, events: list[Event]) -> None:
    """A unit leaves play for good (7.5); its VPs move the Eliminated Units marker (11.2)."""
    state.location[unit] = None
    state.spent.discard(unit)
    state.supply[unit] = "in"
    state.strength[unit] = 1  # the counter lies on its 1-strength face, the one with its VPs
    if unit not in state.eliminated:
        state.eliminated.append(unit)
    vp = board.units[unit].vp
    if vp:
        change = vp if board.side_of[unit] == GERMAN else -vp
        state.eliminated_vp += change
        events.append(Event(
            "vp", f"{unit} goes to the Eliminated VP Units box: {change:+d} VP; Eliminated "
            f"Units VPs {state.eliminated_vp:+d} (11.2)", {"unit": unit, "vp": change,
                                                           "eliminated": state.eliminated_vp},
        ))


def check_eliminated_track(board: Board, state: WState, events: list[Event]) -> None:
    """11.3: the Eliminated Units marker entering the +7 or -7 box wins at once."""
    if state.phase is Phase.OVER:
        return
    low, high = board.vp_limit
    if state.eliminated_vp >= high:
        finish(board, state, events, ALLIED,
               f"the Eliminated Units VPs marker entered the {high:+d} box (11.3)")
    elif state.eliminated_vp <= low:
        finish(board, state, events, GERMAN,
               f"the Eliminated Units VPs marker entered the {low:+d} box (11.3)")


def advance_objective(board: Board, state: WState, events: list[Event],
                      occupants: Mapping[str, Sequence[str]] | None = None) -> None:
    """11.1: the marker moves to the highest objective held by an uncontested 30 Corps unit
    with Club Route Allied-controlled and uncontested back to De Groote; never back.
    ``occupants``: the units in each place of ``state.location`` (``MapView.occ`` after a
    move), so that only the Club Route's spaces are looked at; else it is worked out."""
    current = objective_vp(board, state)
    worth = board.objective_vp
    location = state.location
    for unit in board.corps30_units:
        if worth.get(location[unit] or "", 0) > current:
            break
    else:
        return  # no 30 Corps unit stands where the marker could go (a move mostly)
    along_club_route(board, state, events, occupants)


def along_club_route(board: Board, state: WState, events: list[Event],
                     occupants: Mapping[str, Sequence[str]] | None = None) -> None:
    """``advance_objective``'s search along the Club Route from De Groote, without its first
    look at where the 30 Corps units stand."""
    current = objective_vp(board, state)
    worth = board.objective_vp
    if occupants is None:
        found: dict[str, list[str]] = {}
        for unit, place in state.location.items():
            if place is not None:
                found.setdefault(place, []).append(unit)
        occupants = found
    units = board.units
    allied = state.allied_control
    best: str | None = None
    for space, most in zip(board.club_route_order, board.club_route_best, strict=True):
        if space not in allied or most <= current:
            break  # the route is cut here, or no space from here on is worth more
        here = occupants.get(space)
        if not here:
            continue
        corps = False
        for unit in here:
            info = units[unit]
            if info.side == GERMAN:
                break
            corps = corps or info.corps30
        else:  # no German unit here: the route goes on
            value = worth.get(space)
            if corps and value is not None and value > current:
                best = space
            continue
        break  # a German unit contests the space
    if best is not None:
        state.objective_marker = best
        events.append(Event(
            "objective", f"the Allied Objective VPs marker advances to {board.name(best)}: "
            f"{board.objective_vp[best]} Objective VPs (11.1)",
            {"space": best, "vp": board.objective_vp[best]},
        ))


def start_of_turn_victory(board: Board, state: WState, events: list[Event]) -> None:
    """11.3: the Objective marker in Arnhem at the beginning of a game-turn."""
    last = max(board.club_route, key=lambda s: board.club_route[s])
    if state.objective_marker == last:
        finish(board, state, events, ALLIED,
               f"the Allied Objective VPs marker is in {board.name(last)} at the beginning of "
               f"Game-turn {state.turn} (11.3)")


def end_of_turn_victory(board: Board, state: WState, events: list[Event]) -> None:
    """11.3: the German thresholds at the end of turns 8, 10 and 12; the final table."""
    threshold = board.german_thresholds.get(state.turn)
    if threshold is not None:
        value = objective_vp(board, state)
        nijmegen_arnhem = [s for s in ("Nijmegen", "Arnhem") if s in board.kind]
        both = all(state.controller(s) == ALLIED and board.kind[s] == SPACE
                   for s in nijmegen_arnhem)
        if value < threshold and not both:
            finish(board, state, events, GERMAN,
                   f"at the end of Game-turn {state.turn} the Objective VPs ({value}) are fewer "
                   f"than {threshold} (11.3)")
            return
    if state.turn >= board.last_turn:
        total = objective_vp(board, state) + state.eliminated_vp
        if total >= board.final_allied_min:
            winner: str | None = ALLIED
        elif total == board.final_draw:
            winner = None
        else:
            winner = GERMAN
        finish(board, state, events, winner,
               f"the Allied VP total at the end of Game-turn {state.turn} is {total} "
               f"({objective_vp(board, state)} for objectives, {state.eliminated_vp:+d} for "
               "eliminated units) (11.3)")


def outcome(board: Board, state: WState) -> dict[str, Any]:
    if state.result is not None:
        return {**state.result, "over": True}
    return {"result": None, "winner": None, "reason": None, "vp": vp_json(board, state),
            "over": False}
