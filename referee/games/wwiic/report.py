"""The state as JSON data, its invariants, and the per-unit move list of ``referee moves``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.games.wwiic.board import ALLIED, BOX, FERRY, GERMAN, SPACE, Board
from referee.games.wwiic.state import SUPPLY_STATES, Phase, WState

if TYPE_CHECKING:
    from referee.games.wwiic.unitmoves import Option


def time_label(board: Board, time: int) -> str:
    if time <= 0:
        return "START"
    return "END" if time >= board.impulses else str(time)


def opening_control(board: Board) -> set[str]:
    """Allied-controlled spaces at setup (3.D), before the Red Devils move out."""
    sides: dict[str, set[str]] = {}
    for info in board.units.values():
        if info.start is not None and board.kind[info.start] == SPACE:
            sides.setdefault(info.start, set()).add(info.side)
    return {space for space, present in sides.items() if present == {ALLIED}}


def unit_status(board: Board, state: WState, unit: str) -> str:
    if state.location[unit] is not None:
        return "spent" if unit in state.spent else "active" if unit in state.active else "ready"
    if unit in state.eliminated:
        return "eliminated"
    arrives = state.due.get(unit, board.units[unit].arrives)
    if arrives is None:
        return "off map"
    if arrives < state.turn:
        return "off map (not placed when due)"
    return f"due turn {arrives}"


def state_json(board: Board, state: WState, to_act: str | None) -> dict[str, Any]:
    occupants: dict[str, list[str]] = {}
    for unit in board.unit_order:
        place = state.location[unit]
        if place is not None:
            occupants.setdefault(place, []).append(unit)
    contested = {
        place for place, units in occupants.items()
        if len({board.side_of[u] for u in units}) == 2
    }
    allied = state.allied_control
    spent = state.spent
    return {
        "game": "wwiic",
        "scenario": state.scenario,
        "turn": state.turn,
        "half": board.half(state.turn),
        "date": board.date(state.turn),
        "phase": str(state.phase),
        "weather": state.weather,
        "initiative": state.initiative,
        "impulse": state.time,
        "time": time_label(board, state.time),
        "impulses": state.impulses(),
        "to_act": to_act,
        "last_pass": state.last_pass,
        "active": list(state.active),
        "combat": None if state.combat is None else {
            "mandatory": list(state.combat.mandatory),
            "optional": list(state.combat.optional),
        },
        "foot_crossing_used": state.foot_crossing_used,
        "special_crossing_used": state.special_crossing_used,
        "special_crossers": dict(state.special_crossers),
        "units": [
            {
                "id": unit,
                "side": info.side,
                "formation": info.formation,
                "type": info.type,
                "strength": state.strength[unit],
                "space": state.location[unit],
                "spent": unit in spent,
                "supply": state.supply[unit],
                "status": unit_status(board, state, unit),
            }
            for unit, info in board.units.items()
        ],
        "spaces": [
            {
                "id": space,
                "control": "allied" if space in allied else "german",
                "contested": space in contested,
            }
            for space in board.spaces
        ],
        "boxes": [
            {
                "id": box,
                "formation": info.formation,
                "closed": board.box_closed(box, state.turn),
                "units": occupants.get(box, []),
            }
            for box, info in board.boxes.items()
        ],
        "ferry": occupants.get(board.ferry, []),
        "eliminated": list(state.eliminated),
        "vp": {
            "objective": board.objective_vp.get(state.objective_marker, 0),
            "eliminated": state.eliminated_vp,
            "total": board.objective_vp.get(state.objective_marker, 0) + state.eliminated_vp,
        },
        "objective_marker": state.objective_marker,
        "polish_marker": state.polish_marker,
        "battle": None if state.battle is None else {
            "space": state.battle.space,
            "attacker": state.battle.attacker,
            "attackers": list(state.battle.attackers),
            "defenders": list(state.battle.defenders),
            "defender_hits": state.battle.defender_hits,
            "attacker_hits": state.battle.attacker_hits,
            "step": state.battle.step,
            "taken": list(state.battle.taken),
        },
        "reinforcements": {
            "placing": list(state.arrivals),
            "due": {
                unit: state.due.get(unit, info.arrives)
                for unit, info in board.units.items()
                if info.arrives is not None and state.location[unit] is None
                and unit not in state.eliminated
                and state.due.get(unit, info.arrives) >= state.turn
            },
            "delayed": sorted(state.delayed),
        },
        "replacements": dict(state.replacements),
    }


def eliminated_vp(board: Board, state: WState) -> int:
    """The Eliminated Units VPs the eliminated units add up to (11.2)."""
    total = 0
    for unit in state.eliminated:
        info = board.units[unit]
        total += info.vp if info.side == GERMAN else -info.vp
    return total


def invariants(board: Board, state: WState) -> list[str]:
    """Broken invariants in words: stacking, one place per unit, control, ranges."""
    problems: list[str] = []
    counts: dict[tuple[str, str], int] = {}
    present: dict[str, set[str]] = {}
    for unit, place in state.location.items():
        info = board.units.get(unit)
        if info is None:
            problems.append(f"unknown unit {unit}")
            continue
        if place is None:
            continue
        kind = board.kind.get(place)
        if kind is None:
            problems.append(f"{unit} is in an unknown place {place}")
            continue
        if kind == SPACE:
            key = (place, info.side)
            counts[key] = counts.get(key, 0) + 1
            present.setdefault(place, set()).add(info.side)
        elif kind == BOX:
            box = board.boxes[place]
            if info.side != GERMAN or info.formation != box.formation:
                problems.append(f"{unit} is in off-map box {place} of another formation")
            # Boxes close at the start of a turn, after its weather roll (6.5); a game won at
            # the beginning of a turn (11.3) ends before that.
            settled = state.turn - 1 if state.phase in (Phase.WEATHER, Phase.OVER) else state.turn
            if board.box_closed(place, settled):
                problems.append(f"{unit} is in closed off-map box {place}")
        elif kind == FERRY and info.side != GERMAN:
            problems.append(f"{unit} is in the ferry box")
        if unit in state.eliminated:
            problems.append(f"{unit} is eliminated but on the board")
        if not 1 <= state.strength[unit] <= info.max_strength:
            problems.append(f"{unit} has strength {state.strength[unit]}")
        if state.supply[unit] not in SUPPLY_STATES:
            problems.append(f"{unit} has supply state {state.supply[unit]}")
    if len(state.location) != len(board.units):
        problems.append("not every unit has one place")
    for (place, side), count in counts.items():
        if count > 2:
            problems.append(f"{count} {side} units in {place} (6.2 allows two)")
    ferry = [u for u, p in state.location.items() if p == board.ferry]
    if len(ferry) > board.ferry_capacity:
        problems.append(f"{len(ferry)} units in the ferry box")
    for space, sides in present.items():
        if len(sides) == 1:
            (side,) = sides
            if state.controller(space) != side:
                problems.append(f"{space} is held only by {side} units but not {side}-controlled")
    for space in state.allied_control:
        if board.kind.get(space) != SPACE:
            problems.append(f"Allied control marker on {space}, which is not a space")
    for unit in state.spent:
        if unit not in board.units:
            problems.append(f"unknown spent unit {unit}")
    if not 0 <= state.time <= board.impulses:
        problems.append(f"time track at {state.time}")
    if state.eliminated_vp != eliminated_vp(board, state):
        problems.append(f"the Eliminated Units VPs marker shows {state.eliminated_vp:+d}, but the "
                        f"eliminated units add up to {eliminated_vp(board, state):+d} (11.2)")
    if state.objective_marker not in board.objective_vp:
        problems.append(f"the Objective VPs marker is in {state.objective_marker}, not an "
                        "objective space (11.1)")
    for unit in state.eliminated:
        if state.eliminated.count(unit) > 1:
            problems.append(f"{unit} is eliminated twice")
    return problems


def moves_by_unit(board: Board, options: dict[str, list[Option]]) -> list[dict[str, Any]]:
    """Each unit and where it can go: single moves, two-space moves, strategic moves, and
    ``commands``: every activation of the unit alone, written as ``play`` takes it."""
    out: list[dict[str, Any]] = []
    for unit, found in options.items():
        start = found[0].start if found else None
        single: list[str] = []
        double: list[str] = []
        strategic: list[str] = []
        commands: list[str] = []
        for option in found:
            commands.extend(f"activate {move}" for move in option.forms())
            if not option.path:
                continue
            for move in option.forms():
                text = "->".join(board.name(p) for p in move.path)
                if move.enabler is not None:
                    text += f" with {move.enabler}"
                if option.strategic:
                    strategic.append(text)
                elif len(option.path) == 1:
                    single.append(text)
                else:
                    double.append(text)
        out.append({
            "unit": unit,
            "formation": board.units[unit].formation,
            "type": board.units[unit].type,
            "from": start,
            "single": single,
            "two_space": double,
            "strategic": strategic,
            "commands": commands,
        })
    return out
