"""The records of an Arnhem '44 scenario the engine reads: named tuples, one for each pydantic
model of ``scenario_models.py`` (the same name, the same fields in the same order:
``tests/games/arnhem44/test_scenario_records.py``).

The models validate a scenario's files; what they validated is turned into these
(``scenario_models.plain``, which gives every field, so the records have no defaults).  They
need no pydantic: the bundled scenario, shipped compiled as these records
(``tools/build_scenarios.py``), loads without importing it.  Named tuples rather than frozen
dataclasses, as a class of them is made four times faster when the module loads (16 frozen
dataclasses took 8-10 ms of every start of a command on an Arnhem '44 log).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

SectorType = Literal["open-field", "forest", "polder", "village", "town"]
BorderKind = Literal["plain", "waterway", "stream"]
Kind = Literal["inf", "tank", "art"]
AlliedGroup = Literal["UK", "US", "1AB", "PL", "82", "101"]

FILES = ("scenario.toml", "sectors.toml", "borders.toml", "crossings.toml", "forces.toml")


class SectorTypeInfo(NamedTuple):
    name: str
    numbers: tuple[int, int, int]
    colour: str


class KindInfo(NamedTuple):
    name: str
    fp: int
    at_fp: dict[str, int] | None
    hp: dict[str, int]
    mp: int


class Meta(NamedTuple):
    game: Literal["arnhem44"]
    id: str
    title: str
    rounds: int
    first_day: str
    max_per_side: int
    figures: int
    bridge_points: int
    supply_tokens: int
    """The box's supply tokens (Contents: "29 supply tokens")."""
    types: dict[SectorType, SectorTypeInfo]
    kinds: dict[Kind, KindInfo]


class Sector(NamedTuple):
    """One sector of the board (The Map)."""

    id: str
    name: str | None
    type: SectorType
    numbers: tuple[int, int, int] | None
    """The printed [infantry, tanks, artillery] numbers where they differ from the type's."""
    x: float
    y: float
    lat: float
    lon: float
    above_rhine: bool
    above_canal: bool
    flag: bool
    start: Literal["west", "centre", "east"] | None
    aliases: list[str]
    merged: list[str]


class Border(NamedTuple):
    a: str
    b: str
    kind: BorderKind
    water: str | None
    bridge: str | None
    ferry: str | None


class Bridge(NamedTuple):
    id: str
    name: str
    kind: Literal["small", "major"]
    a: str
    b: str
    value: int


class Ferry(NamedTuple):
    id: str
    name: str
    a: str
    b: str


class DropZone(NamedTuple):
    number: int
    name: str
    group: AlliedGroup
    centre: str
    green: list[str]
    black: list[str]


class Crossings(NamedTuple):
    bridges: list[Bridge]
    ferries: list[Ferry]
    drop_zones: list[DropZone]


class Pool(NamedTuple):
    group: AlliedGroup
    kind: Kind
    count: int  # type: ignore[assignment]  # the model's name; it hides tuple.count, unused


class SetupEntry(NamedTuple):
    sector: str | None
    zones: int
    above_canal: bool
    units: dict[Kind, int]


class GermanReserve(NamedTuple):
    round: int
    above_rhine: bool
    units: dict[Kind, int]
    crates: list[int]


class Landing(NamedTuple):
    round: int
    group: AlliedGroup
    zone: int
    units: dict[Kind, int]
    supplies: int


class SupplyDrop(NamedTuple):
    """Scheduled supply drops (Phase 2.2): ``tokens`` on every ``every``-th round from
    ``first_round``, rolled onto the markers of drop zone ``zone``."""

    group: AlliedGroup
    zone: int
    first_round: int
    every: int
    tokens: int


class Forces(NamedTuple):
    allied_setup: list[Pool]
    reserve_icons: list[str]
    german_setup: list[SetupEntry]
    german_reserves: list[GermanReserve]
    setup_crates: list[int]
    airborne: list[Landing]
    supply_drops: list[SupplyDrop]


class Scenario(NamedTuple):
    meta: Meta
    sectors: list[Sector]
    borders: list[Border]
    crossings: Crossings
    forces: Forces
    folder: str
