"""The text view of an Eindhoven Bridge state: the tracks, the cup and the units by side."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from referee.games.koenig_eindhoven.board import SIDES, Board
from referee.games.koenig_eindhoven.report import unit_status
from referee.games.koenig_eindhoven.state import ALLIED_SUPPORT, ARTILLERY, KState
from referee.games.koenig_eindhoven.victory import victory_points


def render(board: Board, state: KState, to_act: str | None,
           decision: str) -> Sequence[RenderableType]:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    track = Text()
    for turn_spec in board.turns:
        if turn_spec.number > 1:
            track.append(" ")
        label = f"{turn_spec.number}{'N' if turn_spec.night else ''}"
        if turn_spec.number == state.turn:
            track.append(f"[{label}]", style="bold reverse")
        else:
            track.append(label, style="dim")
    turn = board.turn(state.turn)
    grid.add_row("Game Turn", track)
    grid.add_row("", Text(f"{turn.date} {turn.time} ({'night' if turn.night else 'day'})"))
    grid.add_row("Phase", Text(str(state.phase)))
    grid.add_row("Command Cup", Text(", ".join(f"HQ {f}" for f in state.cup) or "empty"))
    if state.active is not None:
        grid.add_row("Active", Text(f"formation {state.active}"))
    grid.add_row("Points", Text(f"German Artillery {state.points[ARTILLERY]}, Allied Support "
                                f"{state.points[ALLIED_SUPPORT]}"))
    vp = victory_points(board, state)
    grid.add_row("VP now", Text(f"Allied {vp['allied']}, German {vp['german']}"))
    if state.result is not None:
        grid.add_row("Result", Text(str(state.result["reason"])))
    if to_act is not None:
        grid.add_row("To act", Text(f"{to_act.capitalize()}: {decision}"))
    units = Table(title="Units", title_justify="left", expand=False)
    for column in ("unit", "side", "type", "CS-MA", "hex", "hits", "status", "operation"):
        units.add_column(column, overflow="fold")
    for side in SIDES:
        for unit, spec in board.units.items():
            if spec.hq or spec.side != side:
                continue
            op = state.operation.get(unit, "")
            if unit in state.mp_left:
                op += f" ({state.mp_left[unit]} MP left)"
            units.add_row(unit, side, spec.kind, f"{spec.cs}-{spec.ma}", state.hex[unit] or "",
                          str(state.hits[unit]), unit_status(board, state, unit), op)
    return [grid, units]
