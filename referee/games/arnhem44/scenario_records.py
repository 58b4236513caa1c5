"""The records of an Arnhem '44 scenario the engine reads: plain frozen dataclasses, one for
each pydantic model of ``scenario_models.py`` (the same name, the same fields in the same
order, the same defaults, taken by keyword: ``tests/games/arnhem44/test_scenario_records.py``).

The models validate a scenario's files; what they validated is turned into these
(``scenario_models.plain``), which need no pydantic: the bundled scenario, shipped compiled as
these records (``tools/build_scenarios.py``), loads without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

SectorType = Literal["open-field", "forest", "polder", "village", "town"]
BorderKind = Literal["plain", "waterway", "stream"]
Kind = Literal["inf", "tank", "art"]
AlliedGroup = Literal["UK", "US", "1AB", "PL", "82", "101"]

FILES = ("scenario.toml", "sectors.toml", "borders.toml", "crossings.toml", "forces.toml")


@dataclass(frozen=True, kw_only=True)
class SectorTypeInfo:
    name: str
    numbers: tuple[int, int, int]
    colour: str


@dataclass(frozen=True, kw_only=True)
class KindInfo:
    name: str
    fp: int
    at_fp: dict[str, int] | None = None
    hp: dict[str, int]
    mp: int


@dataclass(frozen=True, kw_only=True)
class Meta:
    game: Literal["arnhem44"]
    id: str
    title: str
    rounds: int
    first_day: str
    max_per_side: int
    figures: int
    bridge_points: int
    supply_tokens: int = 29
    """The box's supply tokens (Contents: "29 supply tokens")."""
    types: dict[SectorType, SectorTypeInfo]
    kinds: dict[Kind, KindInfo]


@dataclass(frozen=True, kw_only=True)
class Sector:
    """One sector of the board (The Map)."""

    id: str
    name: str | None = None
    type: SectorType
    numbers: tuple[int, int, int] | None = None
    """The printed [infantry, tanks, artillery] numbers where they differ from the type's."""
    x: float
    y: float
    lat: float
    lon: float
    above_rhine: bool = False
    above_canal: bool = True
    flag: bool = False
    start: Literal["west", "centre", "east"] | None = None
    aliases: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Border:
    a: str
    b: str
    kind: BorderKind = "plain"
    water: str | None = None
    bridge: str | None = None
    ferry: str | None = None


@dataclass(frozen=True, kw_only=True)
class Bridge:
    id: str
    name: str
    kind: Literal["small", "major"]
    a: str
    b: str
    value: int


@dataclass(frozen=True, kw_only=True)
class Ferry:
    id: str
    name: str
    a: str
    b: str


@dataclass(frozen=True, kw_only=True)
class DropZone:
    number: int
    name: str
    group: AlliedGroup
    centre: str
    green: list[str]
    black: list[str]


@dataclass(frozen=True, kw_only=True)
class Crossings:
    bridges: list[Bridge]
    ferries: list[Ferry]
    drop_zones: list[DropZone]


@dataclass(frozen=True, kw_only=True)
class Pool:
    group: AlliedGroup
    kind: Kind
    count: int


@dataclass(frozen=True, kw_only=True)
class SetupEntry:
    sector: str | None = None
    zones: int = 0
    above_canal: bool = False
    units: dict[Kind, int]


@dataclass(frozen=True, kw_only=True)
class GermanReserve:
    round: int
    above_rhine: bool
    units: dict[Kind, int] = field(default_factory=dict)
    crates: list[int] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Landing:
    round: int
    group: AlliedGroup
    zone: int
    units: dict[Kind, int]
    supplies: int


@dataclass(frozen=True, kw_only=True)
class SupplyDrop:
    """Scheduled supply drops (Phase 2.2): ``tokens`` on every ``every``-th round from
    ``first_round``, rolled onto the markers of drop zone ``zone``."""

    group: AlliedGroup
    zone: int
    first_round: int
    every: int
    tokens: int


@dataclass(frozen=True, kw_only=True)
class Forces:
    allied_setup: list[Pool]
    reserve_icons: list[str]
    german_setup: list[SetupEntry]
    german_reserves: list[GermanReserve]
    setup_crates: list[int]
    airborne: list[Landing]
    supply_drops: list[SupplyDrop] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Scenario:
    meta: Meta
    sectors: list[Sector]
    borders: list[Border]
    crossings: Crossings
    forces: Forces
    folder: str = ""
