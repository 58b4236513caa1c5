"""The Battle Card state: the dice on the card, and where in the turn the game stands."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from referee.core.engine import Side
from referee.games.battle_card.card import Card


class Step(StrEnum):
    """Where the game stands: the card's own steps."""

    AIRDROP = "airdrop"  # Airborne Landing at setup: one modifier roll per Allied unit
    COMBAT = "combat"  # turn step 1 (step 2, German Reinforcement, follows by itself)
    MOVEMENT = "movement"  # turn step 3
    LANDING = "landing"  # turn step 4 (step 5, Next Turn, follows by itself)
    OVER = "over"


ALLIED: Side = "allied"
ALLIED_CONTROL = 6
GERMAN_CONTROL = 1


@dataclass(slots=True)
class AlliedUnit:
    id: str
    city: str
    strength: int


@dataclass(slots=True)
class BattleCardState:
    """Everything on the card.

    ``german`` maps each city to its German unit's value (``None`` once 30th Corps has removed
    it); ``control`` holds each city's control die (1 German, 6 Allied); ``box`` is where the
    turn die sits, ``"fog"`` or ``"clear"``.
    """

    card: Card
    """The scenario's card: shared by every copy of the state, never changed."""
    turn: int
    step: Step
    units: dict[str, AlliedUnit]
    german: dict[str, int | None]
    control: dict[str, int]
    corps: str
    box: str = "fog"
    combats_left: list[str] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None
    options: frozenset[str] = frozenset()
    removed: list[str] = field(default_factory=list)
    """Allied units that left the game: eliminated, or merged into another unit."""

    def copy(self) -> BattleCardState:
        # Positional: the replay driver copies the state before every line (its undo).
        return BattleCardState(
            self.card,
            self.turn,
            self.step,
            {k: AlliedUnit(u.id, u.city, u.strength) for k, u in self.units.items()},
            self.german.copy(),
            self.control.copy(),
            self.corps,
            self.box,
            self.combats_left.copy(),
            self.result,
            self.reason,
            self.options,
            self.removed.copy(),
        )

    def unit_in(self, city: str) -> AlliedUnit | None:
        for unit in self.units.values():
            if unit.city == city:
                return unit
        return None

    def allied_controls(self, city: str) -> bool:
        return self.control.get(city) == ALLIED_CONTROL
