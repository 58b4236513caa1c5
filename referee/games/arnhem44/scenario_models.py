"""The schema of an Arnhem '44 scenario: the pydantic models its TOML files are validated by.

A scenario folder's files (and a scenario file of the user's own, ``variant.py``) are
validated here, with every problem a sentence, and then turned into the plain records the
engine plays with (``scenario_records.py``: the same classes with the same fields, which need no
pydantic, so the bundled scenario, shipped compiled, loads without it).  The rulebook facts
the data must satisfy are checked in ``facts.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core.scenario import ScenarioError, gather_toml, validation_sentences
from referee.games.arnhem44 import scenario_records as records
from referee.games.arnhem44.scenario_records import (
    FILES,
    AlliedGroup,
    BorderKind,
    Kind,
    SectorType,
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class SectorTypeInfo(_Model):
    name: str
    numbers: tuple[int, int, int]
    colour: str


class KindInfo(_Model):
    name: str
    fp: int = Field(ge=0, le=10)
    at_fp: dict[str, int] | None = None
    hp: dict[str, int]
    mp: int = Field(ge=1, le=10)


class Meta(_Model):
    game: Literal["arnhem44"]
    id: str
    title: str
    rounds: int = Field(ge=1, le=99)
    first_day: str
    max_per_side: int = Field(ge=1, le=99)
    figures: int = Field(ge=1, le=999)
    bridge_points: int = Field(ge=1, le=999)
    supply_tokens: int = Field(default=29, ge=0, le=999)
    """The box's supply tokens (Contents: "29 supply tokens")."""
    types: dict[SectorType, SectorTypeInfo]
    kinds: dict[Kind, KindInfo]


class Sector(_Model):
    """One sector of the board (The Map)."""

    id: str = Field(min_length=1)
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
    aliases: list[str] = []
    merged: list[str] = []


class Border(_Model):
    a: str
    b: str
    kind: BorderKind = "plain"
    water: str | None = None
    bridge: str | None = None
    ferry: str | None = None


class Bridge(_Model):
    id: str
    name: str
    kind: Literal["small", "major"]
    a: str
    b: str
    value: int = Field(ge=0, le=100)


class Ferry(_Model):
    id: str
    name: str
    a: str
    b: str


class DropZone(_Model):
    number: int = Field(ge=1, le=6)
    name: str
    group: AlliedGroup
    centre: str
    green: list[str]
    black: list[str]


class Crossings(_Model):
    bridges: list[Bridge]
    ferries: list[Ferry]
    drop_zones: list[DropZone]


class Pool(_Model):
    group: AlliedGroup
    kind: Kind
    count: int = Field(ge=1, le=99)


class SetupEntry(_Model):
    sector: str | None = None
    zones: int = Field(default=0, ge=0, le=2)
    above_canal: bool = False
    units: dict[Kind, int]


class GermanReserve(_Model):
    round: int = Field(ge=1, le=18)
    above_rhine: bool
    units: dict[Kind, int] = {}
    crates: list[int] = []


class Landing(_Model):
    round: int
    group: AlliedGroup
    zone: int = Field(ge=1, le=6)
    units: dict[Kind, int]
    supplies: int = Field(ge=0)


class SupplyDrop(_Model):
    """Scheduled supply drops (Phase 2.2): ``tokens`` on every ``every``-th round from
    ``first_round``, rolled onto the markers of drop zone ``zone``."""

    group: AlliedGroup
    zone: int = Field(ge=1, le=6)
    first_round: int = Field(ge=1, le=99)
    every: int = Field(ge=1, le=99)
    tokens: int = Field(ge=1, le=29)


class Forces(_Model):
    allied_setup: list[Pool]
    reserve_icons: list[str]
    german_setup: list[SetupEntry]
    german_reserves: list[GermanReserve]
    setup_crates: list[int]
    airborne: list[Landing]
    supply_drops: list[SupplyDrop] = []


class Scenario(_Model):
    meta: Meta
    sectors: list[Sector]
    borders: list[Border]
    crossings: Crossings
    forces: Forces
    folder: str = ""


def read_scenario(folder: Path) -> records.Scenario:
    """The scenario in folder ``folder``, read from its TOML files and validated, as the
    engine's records (``ScenarioError`` listing every problem, never a bare traceback)."""
    if not folder.is_dir():
        raise ScenarioError([f"{folder}: no such scenario directory"])
    problems: list[str] = []
    meta, sectors, borders, crossings, forces = (gather_toml(folder / f, problems) for f in FILES)
    if problems:
        raise ScenarioError(problems)
    parts: list[tuple[str, type[BaseModel], Any]] = [
        ("scenario.toml", Meta, meta),
        ("crossings.toml", Crossings, crossings),
        ("forces.toml", Forces, forces),
    ]
    built: dict[str, Any] = {}
    for name, model, data in parts:
        try:
            built[name] = model.model_validate(data)
        except ValidationError as error:
            problems += validation_sentences(error, name)
    sector_list: list[Sector] = []
    for index, item in enumerate(sectors.get("sectors", [])):
        try:
            sector_list.append(Sector.model_validate(item))
        except ValidationError as error:
            problems += validation_sentences(error, f"sectors.toml: sector {index + 1}")
    border_list: list[Border] = []
    for index, item in enumerate(borders.get("borders", [])):
        try:
            border_list.append(Border.model_validate(item))
        except ValidationError as error:
            problems += validation_sentences(error, f"borders.toml: border {index + 1}")
    if not sector_list:
        problems.append("sectors.toml: lists no [[sectors]]")
    if problems:
        raise ScenarioError(problems)
    return plain(Scenario(
        meta=built["scenario.toml"], sectors=sector_list, borders=border_list,
        crossings=built["crossings.toml"], forces=built["forces.toml"], folder=str(folder),
    ))


def plain(scenario: Scenario) -> records.Scenario:
    """The validated ``scenario`` as the engine's records (``scenario_records.py``)."""
    made = _plain(scenario)
    assert isinstance(made, records.Scenario)
    return made


def _plain(value: Any) -> Any:
    """A model as the record of the same name (its fields taken in turn), a list or dict of
    them likewise; any other value as it is (the models hold numbers, strings, tuples)."""
    if isinstance(value, BaseModel):
        record = getattr(records, type(value).__name__)
        return record(**{name: _plain(getattr(value, name))
                         for name in type(value).model_fields})
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
