"""The WWII Commander state: where every unit is, who controls every space, and where in the
game-turn the players stand (4).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from itertools import compress, repeat
from operator import eq


class Phase(StrEnum):
    """Where the game stands."""

    MOVE_OUT = "move-out"   # 3.H Red Devils Move Out, before the first impulse
    WEATHER = "weather"     # start of a game-turn from turn 2: the referee rolls the weather
    IMPULSE = "impulse"     # a player activates one or two units, or passes (4)
    COMBAT = "combat"       # after movement: the active player's attacks (4, 7)
    BATTLE = "battle"       # a combat's decisions: hits, retreat, breakthrough (7.3-7.7)
    REINFORCE = "reinforce"  # start of a game-turn: placing a reinforcement (9)
    REPLACE = "replace"     # start of a game-turn: assigning replacement points (10)
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
class Battle:
    """One combat after its dice: the hits still to apply and who decides next (7.3-7.7)."""

    space: str
    attacker: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    defender_hits: int
    """Hits on the defender after the terrain reduction (7.4)."""
    attacker_hits: int
    step: str
    """'defender' (hits, or hits then retreat), 'retreat' (the one hit left is the retreat),
    'attacker' (hits), 'breakthrough' (7.7)."""
    taken: tuple[str, ...] = ()
    """Hits the defender has applied so far, one unit id per hit."""

    def copy(self) -> Battle:
        return Battle(self.space, self.attacker, self.attackers, self.defenders,
                      self.defender_hits, self.attacker_hits, self.step, self.taken)


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
    battle: Battle | None = None
    objective_marker: str = "De Groote"
    """The space of the Allied Objective VPs marker (11.1)."""
    eliminated_vp: int = 0
    """The Eliminated Units VPs marker (11.2): Allied gains minus losses."""
    due: dict[str, int] = field(default_factory=dict)
    """Reinforcements not yet placed and the turn each is due (9; delays move it on)."""
    arrivals: list[str] = field(default_factory=list)
    """This turn's reinforcement queue, in placing order (9)."""
    delayed: set[str] = field(default_factory=set)
    """Allied reinforcements delayed at least once (9: they may enter at De Groote)."""
    replacements: dict[str, int] = field(default_factory=dict)
    """Replacement points still to assign this turn, per side (10)."""
    polish_marker: str | None = None
    """The space of the Polish supply source marker, once placed (9)."""
    result: dict[str, object] | None = None
    """The outcome once the game has ended (11.3)."""
    built: bool = False
    """Setup statements have been applied (the block's move-out taken as done, once, 3.H)."""

    def copy(self) -> WState:
        """A copy sharing nothing that changes.  Built with the fields in their order, not by
        name: the driver copies the state before every line, and thirty keyword arguments
        cost half of the copy (issue 31; ``tests/games/wwiic/test_state_copy.py``)."""
        combat, battle = self.combat, self.battle
        return WState(
            self.scenario, self.turn, self.phase, self.weather, self.initiative, self.time,
            self.side, dict(self.location), dict(self.strength), dict(self.supply),
            set(self.spent), set(self.allied_control), self.last_pass, self.active,
            Combat(combat.mandatory, combat.optional) if combat else None,
            self.foot_crossing_used, self.special_crossing_used, dict(self.special_crossers),
            dict(self.entered_across), list(self.eliminated),
            battle.copy() if battle else None, self.objective_marker, self.eliminated_vp,
            dict(self.due), list(self.arrivals), set(self.delayed), dict(self.replacements),
            self.polish_marker, self.result, self.built,
        )

    def take(self, other: WState) -> None:
        """Become ``other`` (the work copy a command was applied to)."""
        for name in _FIELD_NAMES:
            setattr(self, name, getattr(other, name))

    def controller(self, space: str) -> str:
        return "allied" if space in self.allied_control else "german"

    def units_in(self, place: str | None) -> list[str]:
        """The units in ``place``, in the order of ``location`` (the board's order of units),
        picked without a Python loop (asked for each space a retreat or placement looks at)."""
        location = self.location
        return list(compress(location, map(eq, location.values(), repeat(place))))

    def impulses(self) -> dict[str, int]:
        """Impulses each side has completed this game-turn, read off the time track: the
        player without the initiative has had one per box; the initiative player as many, or
        one more while it is the other player's impulse (4)."""
        other = "german" if self.initiative == "allied" else "allied"
        if self.phase in (Phase.WEATHER, Phase.MOVE_OUT, Phase.REINFORCE, Phase.REPLACE):
            return {self.initiative: 0, other: 0}
        extra = 1 if self.side != self.initiative else 0
        return {self.initiative: self.time + extra, other: self.time}


_FIELD_NAMES = tuple(item.name for item in fields(WState))
