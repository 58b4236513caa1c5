"""The WWII Commander state: where every unit is, who controls every space, and where in the
game-turn the players stand (4).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum


class Phase(StrEnum):
    """Where the game stands."""

    MOVE_OUT = "move-out"   # 3.H Red Devils Move Out, before the first impulse
    WEATHER = "weather"     # start of a game-turn from turn 2: the referee rolls the weather
    IMPULSE = "impulse"     # a player activates one or two units, or passes (4)
    COMBAT = "combat"       # after movement: the active player's attacks (4, 7)
    OVER = "over"           # after Game-turn 13


SUPPLY_STATES = ("in", "low", "out")


@dataclass(slots=True)
class Combat:
    """The attacks open after an activation's movement (4 Activation, 7)."""

    mandatory: tuple[str, ...]
    """Enemy-controlled spaces where active supplied units stand with enemy units: must attack."""
    optional: tuple[str, ...]
    """Friendly-controlled spaces with active supplied units and enemy units: may attack."""


@dataclass(slots=True)
class WState:
    """Everything on the board, the tracks and the players' minds about the current impulse."""

    scenario: str
    turn: int
    phase: Phase
    weather: str
    initiative: str
    time: int
    """Time track position: non-initiative impulses completed this turn (0 = START)."""
    side: str
    """The side whose impulse it is (or who moves out, or who attacks)."""
    location: dict[str, str | None]
    """Every unit: the space, off-map box or ferry box it is in; ``None`` when not in play."""
    strength: dict[str, int]
    supply: dict[str, str]
    spent: set[str]
    allied_control: set[str]
    """Spaces with an Allied control marker; every other space is German-controlled (5)."""
    last_pass: str | None = None
    """The side that passed in the impulse just completed, if it passed."""
    active: tuple[str, ...] = ()
    """Units activated in the current impulse (until its end)."""
    combat: Combat | None = None
    foot_crossing_used: bool = False
    """The Oosterbeek foot crossing was used this game-turn (6.3)."""
    special_crossing_used: bool = False
    """An Allied infantry special river crossing was made this game-turn (6.3)."""
    special_crossers: dict[str, int] = field(default_factory=dict)
    """Units that made the special river crossing, and the turn they made it (supply, 8)."""
    entered_across: dict[str, str] = field(default_factory=dict)
    """Active units that entered their space this impulse across a river or canal (7.2)."""
    eliminated: list[str] = field(default_factory=list)

    def copy(self) -> WState:
        return WState(
            scenario=self.scenario,
            turn=self.turn,
            phase=self.phase,
            weather=self.weather,
            initiative=self.initiative,
            time=self.time,
            side=self.side,
            location=dict(self.location),
            strength=dict(self.strength),
            supply=dict(self.supply),
            spent=set(self.spent),
            allied_control=set(self.allied_control),
            last_pass=self.last_pass,
            active=self.active,
            combat=Combat(self.combat.mandatory, self.combat.optional) if self.combat else None,
            foot_crossing_used=self.foot_crossing_used,
            special_crossing_used=self.special_crossing_used,
            special_crossers=dict(self.special_crossers),
            entered_across=dict(self.entered_across),
            eliminated=list(self.eliminated),
        )

    def take(self, other: WState) -> None:
        """Become ``other`` (the work copy a command was applied to)."""
        for item in fields(self):
            setattr(self, item.name, getattr(other, item.name))

    def controller(self, space: str) -> str:
        return "allied" if space in self.allied_control else "german"

    def impulses(self) -> dict[str, int]:
        """Impulses each side has completed this game-turn, read off the time track: the
        player without the initiative has had one per box; the initiative player as many, or
        one more while it is the other player's impulse (4)."""
        other = "german" if self.initiative == "allied" else "allied"
        if self.phase in (Phase.WEATHER, Phase.MOVE_OUT):
            return {self.initiative: 0, other: 0}
        extra = 1 if self.side != self.initiative else 0
        return {self.initiative: self.time + extra, other: self.time}
