"""The state as JSON (stable keys) and the invariants self-play checks."""

from __future__ import annotations

from typing import Any

from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.movement import STACK
from referee.games.koenig_eindhoven.state import IN_PLAY, STATUSES, KState
from referee.games.koenig_eindhoven.victory import victory_points


def unit_status(board: Board, state: KState, unit: str) -> str:
    status = state.status[unit]
    if status == "due":
        return f"due turn {board.units[unit].arrival_turn}"
    return status


def state_json(board: Board, state: KState, to_act: str | None) -> dict[str, Any]:
    turn = board.turn(state.turn)
    return {
        "game": "koenig-eindhoven",
        "scenario": state.scenario,
        "options": sorted(state.options),
        "turn": state.turn,
        "night": turn.night,
        "date": turn.date,
        "phase": str(state.phase),
        "to_act": to_act,
        "cup": list(state.cup),
        "active": state.active,
        "concert": list(state.concert),
        "points": dict(state.points),
        "battle": None if state.battle is None else {
            "kind": state.battle.kind, "target": state.battle.target,
            "attackers": list(state.battle.attackers),
            "defenders": list(state.battle.defenders), "af": state.battle.net,
            "modifiers": list(state.battle.modifiers), "defensive": state.battle.defensive,
            "offensive": state.battle.offensive, "roll": state.battle.roll,
            "result": state.battle.result, "step": state.battle.step,
        },
        "units": [
            {
                "id": unit,
                "side": spec.side,
                "formation": spec.formation,
                "type": spec.kind,
                "cs": spec.cs,
                "ma": spec.ma,
                "hex": state.hex[unit],
                "hits": state.hits[unit],
                "status": unit_status(board, state, unit),
                "operation": state.operation.get(unit),
                "mp_left": state.mp_left.get(unit),
            }
            for unit, spec in board.units.items() if not spec.hq
        ],
        "vp": victory_points(board, state),
        "outcome": state.result,
    }


def invariants(board: Board, state: KState) -> list[str]:
    """Stacking (8.2), one place per unit (2.1), hits 0-2 (9.2), statuses.

    Self-play asks after every command: one pass finds that all hold, and only a position
    where one is broken is gone over again for the sentences."""
    hexes = board.hexes
    status = state.status
    hits = state.hits
    counts: dict[str, int] = {}
    for unit, place in state.hex.items():
        if place is None:
            if status[unit] not in GONE_OR_DUE:
                break
        else:
            if status[unit] != IN_PLAY or place not in hexes:
                break
            counts[place] = counts.get(place, 0) + 1
        if not 0 <= hits[unit] <= 2:
            break
    else:
        if (not counts or max(counts.values()) <= STACK) and (
                state.active is None or state.active not in state.cup):
            return []
    return _broken(board, state)


GONE_OR_DUE = frozenset(STATUSES) - {IN_PLAY}


def _broken(board: Board, state: KState) -> list[str]:
    broken: list[str] = []
    counts: dict[str, int] = {}
    for unit, place in state.hex.items():
        status = state.status[unit]
        if status not in STATUSES:
            broken.append(f"{unit} has an unknown status {status!r}")
        if (place is None) == (status == IN_PLAY):
            broken.append(f"{unit} is {status} but its hex is {place}")
        if place is not None:
            if place not in board.hexes:
                broken.append(f"{unit} is in {place}, which is not on the map")
            counts[place] = counts.get(place, 0) + 1
        if not 0 <= state.hits[unit] <= 2:
            broken.append(f"{unit} has {state.hits[unit]} hits")
    for place, count in sorted(counts.items()):
        if count > STACK:
            broken.append(f"{place} holds {count} units (8.2: two at most)")
    if state.active is not None and state.active in state.cup:
        broken.append(f"formation {state.active} is active and still in the cup")
    return broken
