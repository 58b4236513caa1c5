"""The Battle Card state as rich tables: the card from Arnhem at the top down to Belgium."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text


def render(state: Mapping[str, Any], outcome: Mapping[str, Any]) -> Sequence[RenderableType]:
    """Renderables for the terminal report, built from the JSON view of the state."""
    card = Table(title="The card", title_justify="left", show_lines=False)
    card.add_column("Location")
    card.add_column("Allied unit")
    card.add_column("Allied", justify="right")
    card.add_column("German", justify="right")
    card.add_column("Control")
    card.add_column("30th Corps")
    cities: Mapping[str, Any] = state["cities"]
    for city in reversed(list(cities)):
        row = cities[city]
        control = (
            Text("Allied (6)", style="green")
            if row["control"] == "allied"
            else Text("German (1)", style="red")
        )
        card.add_row(
            city,
            row["allied_unit"] or "-",
            str(row["allied"]) if row["allied"] is not None else "-",
            str(row["german"]) if row["german"] is not None else "removed",
            control,
            "here" if state["corps"] == city else "",
        )
    card.add_row("Belgium", "", "", "", "", "here" if state["corps"] == "Belgium" else "")
    status = Table.grid(padding=(0, 2))
    status.add_column(style="bold")
    status.add_column()
    status.add_row("Turn", f"{state['turn']} of {state['turns']}")
    status.add_row("Turn die box", "Clear" if state["box"] == "clear" else "Fog")
    status.add_row("Step", state["step"])
    if state["removed"]:
        status.add_row("Left the game", ", ".join(state["removed"]))
    if state["options"]:
        status.add_row("Options", ", ".join(state["options"]))
    if outcome.get("result"):
        status.add_row("Outcome", f"{outcome['result']}: {outcome['reason']}")
    return [card, status]
