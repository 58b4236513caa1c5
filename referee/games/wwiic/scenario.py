"""The WWII Commander: Market-Garden scenario: map, off-map boxes, units and tracks.

The data lives in TOML files under ``scenarios/wwiic/market-garden/`` and is a documented
reconstruction (the rulebook prints the rules, not the map, counters or charts; see NOTES.md
there).  This module holds the pydantic models; ``loader.py`` reads the files and runs the
cross-reference checks of ``crossref.py``; ``view.py`` is the JSON view.  The rulebook facts
the data must satisfy are checked in ``facts.py``.  Imports point one way:
loader -> crossref -> scenario, view -> scenario.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from referee.core.names import NameIndex
from referee.core.scenario import ScenarioError

__all__ = [
    "Border",
    "Box",
    "BoxLink",
    "Ferry",
    "Reinforcement",
    "Scenario",
    "ScenarioError",
    "Space",
    "Tracks",
    "Turn",
    "Unit",
    "UnitStep",
]

Terrain = Literal["clear", "mixed", "woods", "city", "polder"]
BorderKind = Literal["plain", "canal", "river"]
Side = Literal["allied", "german"]
Edge = Literal["north", "south", "east", "west"]
Half = Literal["AM", "PM"]
Weather = Literal["clear", "overcast"]
UnitType = Literal[
    "armor",
    "armored_recon",
    "mechanized_infantry",
    "motorized_infantry",
    "infantry",
    "airborne",
    "glider",
    "recon",
    "glider_recon",
]

TERRAINS: tuple[str, ...] = get_args(Terrain)
LEG_TYPES: frozenset[str] = frozenset({"infantry", "airborne", "glider"})
"""Leg infantry (6.): airborne and glider infantry are identical to leg infantry (2.2)."""
RECON_TYPES: frozenset[str] = frozenset({"recon", "glider_recon"})
"""Glider recon is identical to recon (2.2)."""
AIRBORNE_TYPES: frozenset[str] = frozenset({"airborne", "glider", "glider_recon"})

def terrain_hit_reduction(terrain: str, town: bool) -> int:
    """Defender hit reduction of a space (7.4): city -2; woods or a town -1; otherwise 0."""
    if terrain == "city":
        return -2
    if terrain == "woods" or town:
        return -1
    return 0


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Space(_Model):
    """One named map space (2.1), about 5 km across."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    terrain: Terrain
    town: bool = False
    hit_reduction: int = Field(default=0, ge=-2, le=0)
    """Derived from terrain and town when the file leaves it out (7.4)."""
    road: bool = False
    club_route: int | None = Field(default=None, ge=1)
    """Position along Club Route, counting De Groote as 1."""
    vp: int | None = Field(default=None, ge=0)
    """Allied objective VPs (11.1); only on objective spaces."""
    supply_source: list[str] = []
    """Allied formations this space is a supply source for (8.)."""
    polish_drop: bool = False
    edges: list[Edge] = []
    """Map edges the space lies on."""
    x: float
    y: float
    """Drawing position in km: x east of 5.0 E, y north of 51.2 N."""
    lat: float | None = None
    lon: float | None = None
    municipality: str | None = None
    aliases: list[str] = []
    notes: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _derive_hit_reduction(cls, data: Any) -> Any:
        if isinstance(data, dict) and "hit_reduction" not in data:
            terrain, town = data.get("terrain"), data.get("town", False)
            if terrain in TERRAINS and isinstance(town, bool):
                data = {**data, "hit_reduction": terrain_hit_reduction(terrain, town)}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Space:
        expected = terrain_hit_reduction(self.terrain, self.town)
        if self.hit_reduction != expected:
            raise ValueError(
                f"hit_reduction {self.hit_reduction} does not match terrain '{self.terrain}'"
                f"{' with a town' if self.town else ''} (7.4 gives {expected})"
            )
        if self.vp is not None and self.club_route is None:
            raise ValueError("an objective VP value is only printed on Club Route spaces (11.1)")
        if self.club_route is not None and not self.road:
            raise ValueError("a Club Route space must have a road")
        return self


class Border(_Model):
    """The boundary between two adjacent spaces (2.1, 6.3)."""

    a: str
    b: str
    kind: BorderKind = "plain"
    road: bool = False
    """A road connects the two spaces across this border."""
    bridge: bool = False
    """A road bridge across a canal or river."""
    foot_crossing: bool = False
    """The Oosterbeek foot crossing (leg infantry only, no supply)."""
    notes: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Border:
        if self.a == self.b:
            raise ValueError(f"a border joins two different spaces, not '{self.a}' to itself")
        if self.bridge and self.kind == "plain":
            raise ValueError("a bridge crosses a canal or river, not a plain border")
        if self.bridge and not self.road:
            raise ValueError("a road bridge carries a road: set road = true")
        if self.road and self.kind != "plain" and not self.bridge:
            raise ValueError("roads cross rivers and canals only at bridges (2.1): set bridge")
        if self.foot_crossing and (self.kind != "river" or self.road):
            raise ValueError("the foot crossing spans a river and carries no road (6.3)")
        return self

    def other(self, space: str) -> str:
        """The space across this border from ``space``."""
        return self.b if space == self.a else self.a

    @property
    def water(self) -> bool:
        return self.kind != "plain"


class BoxLink(_Model):
    """A map space an off-map box adjoins, and whether a road connects them."""

    space: str
    road: bool = False


class Box(_Model):
    """A German off-map box (6.5)."""

    id: str = Field(pattern=r"^[WNE][1-4]$")
    name: str
    formation: str
    edge: Edge
    adjoins: list[BoxLink] = Field(min_length=1)
    links: list[str] = []
    closes_turn: int = Field(ge=2, le=13)
    units_move_to: str | None = None
    """Where units inside go when the box closes early (6.5); None when they are eliminated."""

    def adjoining_spaces(self) -> list[str]:
        return [link.space for link in self.adjoins]

    def road_to(self, space: str) -> bool:
        return any(link.space == space and link.road for link in self.adjoins)


class Ferry(_Model):
    """The Pannerden Ferry box (6.3)."""

    id: str
    name: str
    adjoins: list[str] = Field(min_length=2, max_length=2)
    capacity: int = Field(default=1, ge=1)
    max_strength: int = Field(default=2, ge=1, le=6)
    unit_types: list[UnitType] = ["infantry", "motorized_infantry"]


class Reinforcement(_Model):
    """When and where a unit enters play (9.)."""

    turn: int = Field(ge=2, le=13)
    entry: list[str] = Field(min_length=1)
    """The places the unit may be placed in: a box, De Groote or supply/drop spaces."""


class UnitStep(_Model):
    """One strength step of a unit: what its counter face shows."""

    strength: int
    hit_chance: int
    defend_hit_chance: int
    """The same as ``hit_chance`` except for elite armor (7.2)."""
    vp: int
    """VPs printed on this face: only the 1-strength face carries them (11.2)."""


class Unit(_Model):
    """A unit and its counters (2.2)."""

    id: str = Field(min_length=1)
    name: str
    side: Side
    formation: str
    type: UnitType
    elite: bool = False
    max_strength: int = Field(ge=1, le=6)
    hit_chance: list[int]
    """Base hit chance at strength 1, 2, ... max (the higher, attacking, chance of elite armor)."""
    defend_hit_chance: list[int] | None = None
    """Elite armor only: the lower hit chance, used when defending (7.2)."""
    vp: int = Field(default=0, ge=0, le=2)
    """VPs printed on the 1-strength face (11.2); 0 for none."""
    start: str | None = None
    reinforcement: Reinforcement | None = None
    counters: list[list[int]]
    """Faces of each counter of the unit, e.g. [[6, 5], [4, 3], [2, 1]]."""
    aliases: list[str] = []
    notes: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Unit:
        problems: list[str] = []
        if len(self.hit_chance) != self.max_strength:
            problems.append(
                f"hit_chance lists {len(self.hit_chance)} values for {self.max_strength} "
                "strength steps"
            )
        if any(not 1 <= chance <= 10 for chance in self.hit_chance):
            problems.append("every hit chance is between 1 and 10")
        if self.elite_armor:
            if self.defend_hit_chance is None:
                problems.append("elite armor has two hit chances: add defend_hit_chance (7.2)")
            elif len(self.defend_hit_chance) != self.max_strength or any(
                d > a or d < 1
                for d, a in zip(self.defend_hit_chance, self.hit_chance, strict=False)
            ):
                problems.append(
                    "defend_hit_chance needs one value per step, each 1 or more and no higher "
                    "than the attacking chance"
                )
        elif self.defend_hit_chance is not None:
            problems.append("only elite armor has a second (defending) hit chance")
        if self.side == "allied" and self.type in AIRBORNE_TYPES and not self.elite:
            problems.append("all Allied airborne units are elite (2.2)")
        faces = sorted(face for counter in self.counters for face in counter)
        if (
            not 1 <= len(self.counters) <= 3
            or any(not 1 <= len(counter) <= 2 for counter in self.counters)
            or faces != list(range(1, self.max_strength + 1))
        ):
            problems.append(
                "counters must be one to three 1- or 2-sided counters showing each strength "
                f"1..{self.max_strength} once (2.2)"
            )
        if (self.start is None) == (self.reinforcement is None):
            problems.append("give exactly one of start and reinforcement")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def elite_armor(self) -> bool:
        return self.elite and self.type == "armor"

    @property
    def leg(self) -> bool:
        return self.type in LEG_TYPES

    def hit(self, strength: int, *, attacking: bool = True) -> int:
        """The base hit chance at ``strength`` (7.2): elite armor uses the lower when defending."""
        if not 1 <= strength <= self.max_strength:
            raise ValueError(f"{self.id} has no strength {strength}")
        if not attacking and self.defend_hit_chance is not None:
            return self.defend_hit_chance[strength - 1]
        return self.hit_chance[strength - 1]

    @property
    def steps(self) -> list[UnitStep]:
        """Every strength step, 1 to max."""
        return [
            UnitStep(
                strength=strength,
                hit_chance=self.hit(strength),
                defend_hit_chance=self.hit(strength, attacking=False),
                vp=self.vp if strength == 1 else 0,
            )
            for strength in range(1, self.max_strength + 1)
        ]

    def counter_for(self, strength: int) -> list[int]:
        """The counter that shows ``strength`` on one of its faces."""
        for counter in self.counters:
            if strength in counter:
                return counter
        raise ValueError(f"{self.id} has no counter showing strength {strength}")

    @property
    def replacement_counters(self) -> list[list[int]]:
        """The counters other than the full-strength one, kept on the OB display (3.C)."""
        return [counter for counter in self.counters if self.max_strength not in counter]


class Turn(_Model):
    """One box of the Game-turn track."""

    number: int = Field(ge=1, le=13)
    date: datetime.date
    half: Half
    initiative: Literal["allied", "weather"]
    """Allied on turns 1-3; afterwards clear weather gives the Allies the initiative."""
    weather_roll: bool = True
    allied_replacements: int = Field(default=0, ge=0)
    german_replacements: int = Field(default=0, ge=0)
    german_threshold: int | None = None
    """German victory at the end of this turn if the Objective VPs are fewer (11.3)."""
    closes_boxes: list[str] = []
    """Off-map boxes that close at the start of this turn (6.5)."""


class WeatherBand(_Model):
    clear: tuple[int, int]
    overcast: tuple[int, int]

    def weather(self, roll: int) -> Weather:
        if self.clear[0] <= roll <= self.clear[1]:
            return "clear"
        if self.overcast[0] <= roll <= self.overcast[1]:
            return "overcast"
        raise ValueError(f"a weather roll is 1-10, not {roll}")


class WeatherTable(_Model):
    first_turn: Weather = "clear"
    AM: WeatherBand
    PM: WeatherBand

    def weather(self, half: Half, roll: int) -> Weather:
        return (self.AM if half == "AM" else self.PM).weather(roll)


class FinalVictory(_Model):
    allied_min: int = 22
    draw: int = 21

    def result(self, total: int) -> Literal["allied", "draw", "german"]:
        if total >= self.allied_min:
            return "allied"
        return "draw" if total == self.draw else "german"


class Setup(_Model):
    """Counts and places the set-up rules (3.) name."""

    german_units: int
    allied_units: int
    allied_control_markers: int
    unprepared: list[str]
    """Spaces whose German units start spent (3.G)."""
    objective_marker: str
    """Where the Allied Objective VPs marker starts (3.E)."""


class Tracks(_Model):
    turns: list[Turn]
    weather: WeatherTable
    impulses: int = Field(default=12, ge=1)
    """Boxes of the Time track between START and END."""
    eliminated_vp_min: int = -7
    eliminated_vp_max: int = 7
    final: FinalVictory
    setup: Setup

    def turn(self, number: int) -> Turn:
        for turn in self.turns:
            if turn.number == number:
                return turn
        raise KeyError(f"there is no game-turn {number}")


class Scenario(_Model):
    """The whole scenario, cross-checked."""

    id: str
    title: str
    spaces: list[Space]
    borders: list[Border]
    boxes: list[Box]
    ferry: Ferry
    units: list[Unit]
    tracks: Tracks

    _index: dict[str, Any] | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        # Equal data is an equal scenario, whether or not its lookup index has been built.
        if not isinstance(other, Scenario):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in Scenario.model_fields)

    __hash__ = None  # type: ignore[assignment]

    def _built(self) -> dict[str, Any]:
        # Keyed by the identity of the record lists, so a ``model_copy(update=...)`` that
        # swaps a list never sees the index of the original.
        stamp = (id(self.spaces), id(self.borders), id(self.boxes), id(self.units), id(self.ferry))
        if self._index is None or self._index["stamp"] != stamp:
            adjacency: dict[str, dict[str, Border]] = {space.id: {} for space in self.spaces}
            for border in self.borders:
                adjacency[border.a][border.b] = border
                adjacency[border.b][border.a] = border
            places: NameIndex[str] = NameIndex("place")
            for space in self.spaces:
                places.add(space.name, space.id, (space.id, *space.aliases))
            for box in self.boxes:
                places.add(box.id, box.id, (box.name,))
            places.add(self.ferry.name, self.ferry.id, (self.ferry.id,))
            units: NameIndex[str] = NameIndex("unit")
            for unit in self.units:
                units.add(unit.id, unit.id, (unit.name, *unit.aliases))
            self._index = {
                "stamp": stamp,
                "spaces": {space.id: space for space in self.spaces},
                "units": {unit.id: unit for unit in self.units},
                "boxes": {box.id: box for box in self.boxes},
                "adjacency": adjacency,
                "places": places,
                "unit_names": units,
            }
        return self._index

    def space(self, space_id: str) -> Space:
        spaces: dict[str, Space] = self._built()["spaces"]
        if space_id not in spaces:
            raise KeyError(f"there is no space '{space_id}'")
        return spaces[space_id]

    def has_space(self, space_id: str) -> bool:
        return space_id in self._built()["spaces"]

    def unit(self, unit_id: str) -> Unit:
        units: dict[str, Unit] = self._built()["units"]
        if unit_id not in units:
            raise KeyError(f"there is no unit '{unit_id}'")
        return units[unit_id]

    def box(self, box_id: str) -> Box:
        boxes: dict[str, Box] = self._built()["boxes"]
        if box_id not in boxes:
            raise KeyError(f"there is no off-map box '{box_id}'")
        return boxes[box_id]

    def neighbours(self, space_id: str) -> list[str]:
        """The spaces sharing a border with ``space_id`` (not off-map boxes), sorted."""
        self.space(space_id)
        return sorted(self._built()["adjacency"][space_id])

    def border(self, a: str, b: str) -> Border | None:
        """The border between two spaces, or None when they are not adjacent."""
        adjacency: dict[str, dict[str, Border]] = self._built()["adjacency"]
        return adjacency.get(a, {}).get(b)

    def club_route(self) -> list[str]:
        """Club Route from De Groote northwards."""
        on_route = [space for space in self.spaces if space.club_route is not None]
        return [space.id for space in sorted(on_route, key=lambda s: s.club_route or 0)]

    def objectives(self) -> list[Space]:
        """Allied objective spaces, lowest VP first."""
        return sorted((s for s in self.spaces if s.vp is not None), key=lambda s: s.vp or 0)

    def supply_sources(self, formation: str) -> list[str]:
        return [space.id for space in self.spaces if formation in space.supply_source]

    def polish_drop_area(self) -> list[str]:
        return [space.id for space in self.spaces if space.polish_drop]

    def boxes_adjoining(self, space_id: str) -> list[Box]:
        return [box for box in self.boxes if space_id in box.adjoining_spaces()]

    def resolve_place(self, name: str) -> str:
        """The id of the space, box or ferry a player calls ``name`` (``UnknownName`` if none)."""
        places: NameIndex[str] = self._built()["places"]
        return places.lookup(name)

    def resolve_unit(self, name: str) -> str:
        """The id of the unit a player calls ``name`` (``UnknownName`` if none)."""
        units: NameIndex[str] = self._built()["unit_names"]
        return units.lookup(name)

    def formations(self, side: Side) -> list[str]:
        return list(dict.fromkeys(unit.formation for unit in self.units if unit.side == side))
