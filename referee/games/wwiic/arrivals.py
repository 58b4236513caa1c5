"""Reinforcements (9) and replacements (10): steps 5 and 6 of the start of a game-turn.

Each reinforcement is placed in turn (the initiative player's first); a unit with one place
open is placed by the referee, a unit with none is delayed a turn (Allied) and a unit with a
choice waits for its owner's ``reinforce`` command.  Replacement points wait for ``replace``
unless no unit may take them (they are then forfeit).
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, BOX, GERMAN, SPACE, Board
from referee.games.wwiic.state import Phase, WState
from referee.games.wwiic.victory import advance_objective

POLISH = "P/1P"


def due_units(board: Board, state: WState) -> list[str]:
    """Reinforcements due now (9), the initiative player's first: those scheduled for this
    turn and those delayed to it (a position built with setup lines says itself which units
    it holds: an earlier turn's reinforcement it leaves out does not arrive later)."""
    due = [
        unit for unit, info in board.units.items()
        if info.arrives is not None and state.location[unit] is None
        and unit not in state.eliminated and state.due.get(unit, info.arrives) == state.turn
    ]
    first = [u for u in due if board.side_of[u] == state.initiative]
    return first + [u for u in due if board.side_of[u] != state.initiative]


def placements(board: Board, state: WState, unit: str) -> list[str]:
    """Where ``unit`` may be placed now (9)."""
    info = board.units[unit]
    if info.side == GERMAN:
        boxes = [b for b in info.entry if b in board.boxes]
        out: list[str] = []
        for box in boxes:
            target: str | None = box
            while target is not None and board.box_closed(target, state.turn):
                target = board.boxes[target].units_move_to
            if target is not None and target not in out:
                out.append(target)
        return out
    spaces = list(info.entry)
    if info.corps30:
        spaces = [board.objective_start]
    elif unit in state.delayed and board.objective_start not in spaces:
        spaces.append(board.objective_start)  # 9: a delayed airborne unit may enter there
    allowed: list[str] = []
    for space in spaces:
        if board.kind.get(space) != SPACE:
            continue
        units = state.units_in(space)
        if sum(1 for u in units if board.side_of[u] == ALLIED) >= 2:
            continue  # 9: already two Allied units
        if state.controller(space) == GERMAN and any(board.side_of[u] == GERMAN for u in units):
            continue  # 9: enemy-controlled and enemy-occupied
        allowed.append(space)
    return allowed


def placement_refusal(board: Board, state: WState, unit: str, space: str) -> str:
    """Why ``unit`` can't enter at ``space`` (9), in words."""
    info = board.units[unit]
    entry = [board.objective_start] if info.corps30 else list(info.entry)
    if unit in state.delayed and info.airborne:
        entry.append(board.objective_start)
    if space not in entry:
        return "it enters only at " + ", ".join(board.name(s) for s in entry)
    return ("an Allied reinforcement is not placed in a space with two Allied units, or in one "
            "both enemy-controlled and enemy-occupied")


def place_unit(board: Board, state: WState, unit: str, where: str, events: list[Event]) -> None:
    side = board.side_of[unit]
    state.location[unit] = where
    state.supply[unit] = "in"
    state.due.pop(unit, None)
    state.delayed.discard(unit)
    if unit in state.arrivals:
        state.arrivals.remove(unit)
    text = f"5. reinforcement: {unit} enters at {board.name(where)}"
    if board.kind[where] == SPACE:
        others = [u for u in state.units_in(where) if board.side_of[u] != side]
        if not others and state.controller(where) != side:
            if side == ALLIED:
                state.allied_control.add(where)
            else:
                state.allied_control.discard(where)
            text += f" ({board.name(where)} becomes {side.capitalize()}-controlled)"
        if unit == POLISH and where in board.polish_drop:
            state.polish_marker = where
            text += "; the Polish supply marker is placed there (9)"
    events.append(Event("reinforcement", text, {"unit": unit, "space": where}))


def settle_start(board: Board, state: WState, events: list[Event]) -> None:
    """Go on with steps 5 and 6 until a player's choice is needed, then to the impulses."""
    while state.arrivals:
        unit = state.arrivals[0]
        options = placements(board, state, unit)
        if len(options) > 1:
            state.phase = Phase.REINFORCE
            state.side = board.side_of[unit]
            return
        if options:
            place_unit(board, state, unit, options[0], events)
            continue
        state.arrivals.pop(0)
        state.due[unit] = state.turn + 1
        if board.side_of[unit] == ALLIED:
            state.delayed.add(unit)
        events.append(Event(
            "reinforcement", f"5. reinforcement: {unit} can't be placed; its arrival is delayed "
            "to the next game-turn (9)", {"unit": unit, "delayed_to": state.turn + 1},
        ))
    advance_objective(board, state, events)
    for side in (ALLIED, GERMAN):
        points = state.replacements.get(side, 0)
        if not points:
            continue
        if eligible(board, state, side):
            state.phase = Phase.REPLACE
            state.side = side
            return
        state.replacements[side] = 0
        events.append(Event(
            "replacement", f"6. replacements: no {side.capitalize()} unit may take a "
            f"replacement point; {points} forfeit (10)", {"side": side, "forfeit": points},
        ))
    state.replacements.clear()
    state.phase = Phase.IMPULSE
    state.side = state.initiative
    state.last_pass = None


def contested(board: Board, state: WState, unit: str) -> bool:
    place = state.location[unit]
    side = board.side_of[unit]
    return any(board.side_of[u] != side for u in state.units_in(place))


def why_not_eligible(board: Board, state: WState, unit: str) -> str | None:
    """10: why ``unit`` can't take a replacement point now, or None."""
    info = board.units[unit]
    if info.side == ALLIED and not info.corps30:
        return f"{unit} is in an airborne formation: only 30 Corps units take Allied replacements"
    if info.side == GERMAN and info.type == "armor":
        return f"{unit} is armor: German replacements go to non-armor units"
    place = state.location[unit]
    if place is None:
        return f"{unit} is {'eliminated' if unit in state.eliminated else 'not in play'}"
    if state.strength[unit] >= info.max_strength:
        return f"{unit} is at full strength"
    if board.kind[place] in (SPACE,) and contested(board, state, unit):
        return f"{unit} is in a contested space"
    if state.supply[unit] == "out":
        return f"{unit} is out of supply"
    if board.kind[place] not in (SPACE, BOX) and place != board.ferry:
        return f"{unit} is not on the map"
    return None


def eligible(board: Board, state: WState, side: str) -> list[str]:
    return [u for u in board.unit_order if board.side_of[u] == side
            and why_not_eligible(board, state, u) is None]


def replace(board: Board, state: WState, units: tuple[str, ...], events: list[Event]) -> None:
    """Assign this side's replacement points (10); the rest are forfeit."""
    side = state.side
    points = state.replacements.get(side, 0)
    if len(units) > points:
        raise IllegalMove("10", f"the {side.capitalize()} player has {points} replacement "
                          f"point{'s' if points != 1 else ''} this turn, not {len(units)}")
    if len(set(units)) != len(units):
        raise IllegalMove("10", "the Allied replacement points go to two different units")
    for unit in units:
        if board.side_of[unit] != side:
            raise IllegalMove("10", f"{unit} is not a {side.capitalize()} unit")
        why = why_not_eligible(board, state, unit)
        if why is not None:
            raise IllegalMove("10", why + "; it can't receive a replacement point")
    for unit in units:
        state.strength[unit] += 1
        events.append(Event("replacement", f"6. replacement: {unit} gains a strength point: "
                            f"strength {state.strength[unit]} (10)",
                            {"unit": unit, "strength": state.strength[unit]}))
    if len(units) < points:
        events.append(Event("replacement", f"{points - len(units)} {side.capitalize()} "
                            "replacement point(s) not assigned: forfeit (10)",
                            {"side": side, "forfeit": points - len(units)}))
    state.replacements[side] = 0


def replacement_options(board: Board, state: WState) -> list[tuple[str, ...]]:
    side = state.side
    points = state.replacements.get(side, 0)
    units = eligible(board, state, side)
    found: list[tuple[str, ...]] = [()]
    found += [(u,) for u in units]
    if points >= 2:
        found += [tuple(sorted((a, b))) for i, a in enumerate(units) for b in units[i + 1:]]
    return found
