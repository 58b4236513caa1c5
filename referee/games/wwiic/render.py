"""The text view of a WWII Commander state: the tracks, the units by formation and the spaces
whose control changed (rich renderables)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from referee.games.wwiic.board import SIDES, Board
from referee.games.wwiic.report import opening_control, time_label, unit_status
from referee.games.wwiic.state import WState


def _track(cells: list[str], current: int) -> Text:
    text = Text()
    for index, cell in enumerate(cells):
        if index:
            text.append(" ")
        if index == current:
            text.append(f"[{cell}]", style="bold reverse")
        else:
            text.append(cell, style="dim")
    return text


def tracks(board: Board, state: WState, to_act: str | None, decision: str) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    turns = [str(n) for n in sorted(board.turns)]
    grid.add_row("Game-turn", _track(turns, state.turn - 1))
    grid.add_row("", Text(f"{board.date(state.turn)} {board.half(state.turn)}"))
    grid.add_row("Weather", Text(state.weather))
    grid.add_row("Initiative", Text(state.initiative.capitalize()))
    times = ["START", *(str(n) for n in range(1, board.impulses)), "END"]
    grid.add_row("Time", _track(times, min(state.time, board.impulses)))
    grid.add_row("Impulses", Text(
        f"Allied {state.impulses()['allied']}, German {state.impulses()['german']} "
        f"(time {time_label(board, state.time)})"
    ))
    if state.last_pass:
        grid.add_row("Last impulse", Text(f"{state.last_pass.capitalize()} passed"))
    objective = board.objective_vp.get(state.objective_marker, 0)
    grid.add_row("Allied VPs", Text(
        f"{objective + state.eliminated_vp} (Objective VPs marker in "
        f"{board.name(state.objective_marker)}: {objective}; Eliminated Units "
        f"{state.eliminated_vp:+d})"
    ))
    if state.polish_marker is not None:
        grid.add_row("Polish supply", Text(board.name(state.polish_marker)))
    if state.battle is not None:
        battle = state.battle
        grid.add_row("Combat", Text(
            f"at {board.name(battle.space)}: {battle.defender_hits} hit(s) on the defender "
            f"after terrain, {battle.attacker_hits} on the attacker ({battle.step})"
        ))
    if state.result is not None:
        grid.add_row("Result", Text(f"{state.result['result']}: {state.result['reason']}"))
    if to_act is not None:
        grid.add_row("To act", Text(f"{to_act.capitalize()}: {decision}"))
    else:
        grid.add_row("To act", Text("nobody: the game is over"))
    return grid


def units_table(board: Board, state: WState) -> Table:
    table = Table(title="Units by formation", title_justify="left")
    for column in ("Formation", "Unit", "Type", "Str", "Location", "Status", "Supply"):
        table.add_column(column)
    for side in SIDES:
        for formation in board.formations.get(side, []):
            first = True
            for unit in board.unit_order:
                info = board.units[unit]
                if info.formation != formation:
                    continue
                place = state.location[unit]
                table.add_row(
                    formation if first else "",
                    unit,
                    info.type_words,
                    str(state.strength[unit]) if place is not None else "",
                    board.name(place) if place is not None else "",
                    unit_status(board, state, unit),
                    state.supply[unit] if place is not None else "",
                )
                first = False
    return table


def control_table(board: Board, state: WState) -> Table | Text:
    start = opening_control(board)
    changed = sorted(
        (s for s in board.spaces if (s in state.allied_control) != (s in start)),
        key=lambda s: board.name(s),
    )
    if not changed:
        return Text("No space has changed control since setup.")
    table = Table(title="Spaces whose control changed since setup", title_justify="left")
    for column in ("Space", "Control", "Contested", "Units"):
        table.add_column(column)
    for space in changed:
        units = [u for u in board.unit_order if state.location[u] == space]
        sides = {board.side_of[u] for u in units}
        table.add_row(
            board.name(space),
            state.controller(space).capitalize(),
            "yes" if len(sides) == 2 else "",
            ", ".join(units),
        )
    return table


def render(
    board: Board, state: WState, to_act: str | None, decision: str
) -> Sequence[RenderableType]:
    return [tracks(board, state, to_act, decision), units_table(board, state),
            control_table(board, state)]
