"""The Eindhoven Bridge scenario files as pydantic models.

The data lives in TOML under ``scenarios/koenig-eindhoven/eindhoven-bridge/`` and is a
documented reconstruction (NOTES.md there).  These models say what each file may hold; the
loader (``loader.py``) validates a folder with them and runs the cross-reference checks
(``crossref.py``); the rules read the same files through ``board.py`` (plain structures, no
pydantic at play time); the rulebook facts the data must satisfy are checked in ``facts.py``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Terrain = Literal["clear", "woods", "rough", "town", "city"]
Side = Literal["allied", "german"]
Edge = Literal["northeast", "northwest", "southeast", "southwest"]
UnitType = Literal["hq", "infantry", "heavy-weapons", "anti-tank", "armor", "armored-infantry",
                   "armored-recon"]
HexId = Field(pattern=r"^\d{4}$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Grid(_Model):
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    high_columns: Literal["odd", "even"] = "odd"
    hex_km: float = Field(gt=0)


class Orientation(_Model):
    left: Edge
    bottom: Edge
    top: Edge
    right: Edge


class ScenarioFile(_Model):
    game: Literal["koenig-eindhoven"]
    id: str
    title: str
    reconstruction: bool = True
    grid: Grid
    orientation: Orientation


class HexRecord(_Model):
    id: str = HexId
    terrain: Terrain
    hilltop: bool = False
    name: str | None = None
    objective: Literal["city", "town"] | None = None
    red_star: bool = False
    lat: float | None = None
    lon: float | None = None
    notes: str | None = None


class HexesFile(_Model):
    hexes: list[HexRecord]


class HexsideRecord(_Model):
    hexes: tuple[str, str]
    river: bool = False
    stream: bool = False
    slope: bool = False
    bridge: Literal["large", "small"] | None = None
    bridge_name: str | None = None
    name: str | None = None
    notes: str | None = None


class HexsidesFile(_Model):
    hexsides: list[HexsideRecord] = []


class RoadRecord(_Model):
    name: str
    entry: Literal["A", "B", "C", "D", "E", "F"] | None = None
    edge: Edge | None = None
    hexes: list[str] = Field(min_length=1)
    notes: str | None = None


class RoadsFile(_Model):
    roads: list[RoadRecord]


class FormationRecord(_Model):
    id: str
    name: str
    side: Side
    hq: str
    arrives: int = Field(ge=1)
    colour: str = "#dddddd"


class UnitRecord(_Model):
    id: str
    name: str
    side: Side
    formation: str
    type: UnitType
    cs: int = Field(ge=0)
    ma: int = Field(ge=0)
    setup: str | None = None
    arrives: int | None = Field(default=None, ge=1)
    entry: list[Literal["A", "B", "C", "D", "E", "F"]] = []
    landing: bool = False
    aliases: list[str] = []
    notes: str | None = None


class UnitsFile(_Model):
    formations: list[FormationRecord]
    units: list[UnitRecord]


class TurnRecord(_Model):
    number: int = Field(ge=1)
    night: bool
    date: str = ""
    time: str = ""


class Support(_Model):
    german_per_battle: int = Field(ge=0)
    allied_per_battle: int = Field(ge=0)


class Tables(_Model):
    paratroop_landing: dict[str, int | Literal["never"]]
    artillery_points: dict[str, int]
    allied_support_points: dict[str, int]


class TracksFile(_Model):
    turns: list[TurnRecord]
    tables: Tables
    support: Support


class TecFile(_Model):
    movement: dict[str, int]
    hexside_movement: dict[str, int]
    combat: dict[str, int]


MODELS: dict[str, type[_Model]] = {
    "scenario.toml": ScenarioFile,
    "hexes.toml": HexesFile,
    "hexsides.toml": HexsidesFile,
    "roads.toml": RoadsFile,
    "units.toml": UnitsFile,
    "tracks.toml": TracksFile,
    "tec.toml": TecFile,
}
