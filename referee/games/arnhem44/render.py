"""The text view of an Arnhem '44 state (rich tables)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from referee.core.names import side_title
from referee.games.arnhem44 import damage
from referee.games.arnhem44.bailey import wrecked
from referee.games.arnhem44.board import (
    AIRBORNE_GROUPS,
    ALLIED,
    GERMAN,
    Board,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.victory import contested, holder

if TYPE_CHECKING:
    from rich.console import RenderableType


def render(board: Board, state: AState, to_act: str | None, decision: str) -> Sequence[
        RenderableType]:
    out: list[RenderableType] = []
    head = (f"Round {state.round} ({'night' if state.night else 'day'}, {state.weather} "
            f"weather), phase {state.phase}")
    out.append(Text(head, style="bold"))
    table = Table(title="Sectors", title_justify="left")
    for column in ("Sector", "Type", "Numbers", "Allied", "German"):
        table.add_column(column)
    for sector in board.order:
        counts = state.units.get(sector)
        if not counts:
            continue
        cells = {}
        for side in (ALLIED, GERMAN):
            keys = sorted((k for k in counts if side_of(k[0]) == side), key=key_order)
            cells[side] = ", ".join(f"{counts[k]} {key_text(k)}" for k in keys)
        table.add_row(sector, board.type[sector], " ".join(map(str, board.numbers[sector])),
                      cells[ALLIED], cells[GERMAN])
    out.append(table)
    if state.track:
        out.append(Text("R1-R15: " + ", ".join(key_text(k) for k in state.track)))
    if state.engineers:
        out.append(Text("E01-E08: " + ", ".join(key_text(k) for k in state.engineers)))
    for built in state.baileys:
        out.append(Text(f"{built.id} {built.a}->{built.b} ({built.size}): "
                        + ("destroyed (bridge damage)" if wrecked(state, built) else
                           "open" if built.points == 0 else
                           f"{built.points} construction markers left")))
    gone = [f"{f} {s}" for f, s in sorted(state.ferries.items())]
    if gone:
        out.append(Text("Ferries: " + ", ".join(gone)))
    if state.eliminated:
        out.append(Text("Eliminated: " + ", ".join(
            f"{n} {key_text(k)}" for k, n in sorted(state.eliminated.items(),
                                                    key=lambda kv: key_order(kv[0])))))
    hurt = damage.view(board, state)  # Veterans/4: bridge damage
    if hurt:
        out.append(Text(hurt))
    held = [f"{b} {ALLIED}" for b in sorted(state.control)
            if b not in state.destroyed and holder(board, state, b) == ALLIED]
    if held:
        out.append(Text("Allied bridges: " + ", ".join(held)))
    neither = contested(board, state)  # Waterways: troops of both sides at the bridge
    if neither:
        out.append(Text("Bridges held by neither side: " + ", ".join(sorted(neither))))
    out += supply_lines(state)
    ex = state.explosives  # face-down crates show no value (Explosives in General)
    if ex.crates or ex.stock or state.destroyed:
        rigged = []
        for bridge in board.bridges:
            shown = ["?" if c.value is None else str(c.value) for c in ex.under(bridge)]
            if shown:
                rigged.append(f"{bridge} [{', '.join(shown)}]")
        line = ("Crates: " + ("; ".join(rigged) if rigged else "none rigged")
                + f"; stock {ex.stock}")
        if state.destroyed:
            line += "; destroyed: " + ", ".join(b for b in board.bridges if b in state.destroyed)
        out.append(Text(line))
    if to_act is not None:
        out.append(Text(f"awaiting {side_title(to_act)}: {decision}"))
    return out


def supply_lines(state: AState) -> list[RenderableType]:
    """Block 2: the HQ cards in play and the supply tokens on the map."""
    if not state.hq and not state.tokens:
        return []
    cards = []
    for group in AIRBORNE_GROUPS:
        if group in state.hq:
            status = "contact with GARDEN" if group in state.contact else state.status.get(
                group, "full")
            cards.append(f"{group} {state.hq[group]} ({status})")
    words = "HQ cards: " + ", ".join(cards) if cards else "HQ cards: none in play"
    if state.tokens:
        words += "; tokens on the map: " + ", ".join(f"{s} {n}" for s, n in
                                                     sorted(state.tokens.items()))
    return [Text(words + f"; {state.box} in the box")]
