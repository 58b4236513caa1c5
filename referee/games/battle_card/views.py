"""Battle Card's views of a state: its outcome, its JSON (whole, or value by value for
``expect``), its picture on a terminal, and the invariants self-play checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from referee.core.engine import Side
from referee.games.battle_card.state import (
    ALLIED,
    ALLIED_CONTROL,
    GERMAN_CONTROL,
    BattleCardState,
    Step,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

_OVER = Step.OVER


class CardViews:
    """The views of ``BattleCardEngine`` (``rules``), which it inherits."""

    to_act: Callable[[BattleCardState], Side | None]

    def outcome(self, state: BattleCardState) -> dict[str, Any]:
        # Solitaire: a loss is the card's (the German side's) win.
        winner = {"win": ALLIED, "loss": "german"}.get(state.result or "")
        return {
            "result": state.result,
            "winner": winner,
            "reason": state.reason,
            "turn": state.turn,
        }

    def to_json(self, state: BattleCardState) -> dict[str, Any]:
        return {key: get() for key, get in self.json_parts(state).items()}

    def turn_of(self, state: BattleCardState) -> int:
        """``to_json(state)["turn"]``, without the rest (a batch's row asks it)."""
        return state.turn

    def json_parts(self, state: BattleCardState) -> dict[str, Callable[[], Any]]:
        """Each top-level value of ``to_json``, computed only when asked for (``expect``)."""
        card = state.card

        def cities() -> dict[str, Any]:
            out: dict[str, Any] = {}
            for city in card.cities:
                unit = state.unit_in(city)
                out[city] = {
                    "allied": unit.strength if unit else None,
                    "allied_unit": unit.id if unit else None,
                    "german": state.german[city],
                    "control": "allied" if state.allied_controls(city) else "german",
                }
            return out

        return {
            "turn": lambda: state.turn,
            "turns": lambda: card.turns,
            "step": lambda: str(state.step),
            "to_act": lambda: self.to_act(state),
            "cities": cities,
            "corps": lambda: state.corps,
            "box": lambda: state.box,
            "units": lambda: {
                u.id: {"city": u.city, "strength": u.strength} for u in state.units.values()
            },
            "removed": lambda: list(state.removed),
            "combats_left": lambda: list(state.combats_left),
            "options": lambda: sorted(state.options),
        }

    def render(self, state: BattleCardState) -> Sequence[RenderableType]:
        from referee.games.battle_card.render import render  # rich tables load only to print

        return render(self.to_json(state), self.outcome(state))

    def invariants(self, state: BattleCardState) -> list[str]:
        """Unit dice 1-6 in distinct cities, German dice 1-6, control dice 1 or 6, 30th Corps
        on the road, the turn die 1-6, and a result once the game is over."""
        card = state.card
        top = card.max_strength
        broken = []
        cities = [unit.city for unit in state.units.values()]
        if len(set(cities)) != len(cities):
            broken.append("two Allied units share a city")
        for unit in state.units.values():
            if not 1 <= unit.strength <= top or unit.city not in card.cities:
                broken.append(f"{unit.id} has strength {unit.strength} in {unit.city}")
        for city, german in state.german.items():
            if german is not None and not 1 <= german <= top:
                broken.append(f"the German unit in {city} has strength {german}")
        for city, die in state.control.items():
            if die != ALLIED_CONTROL and die != GERMAN_CONTROL:
                broken.append(f"the control die of {city} shows {die}")
        if state.corps not in card.route:
            broken.append(f"30th Corps is in {state.corps}")
        if not 1 <= state.turn <= card.turns:
            broken.append(f"the turn die shows {state.turn}")
        if state.step is _OVER and state.result not in ("win", "loss"):
            broken.append("the game is over without a result")
        return broken
