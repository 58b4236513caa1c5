"""The Battle Card scenario file: cities, units, the landing table and the combat tables."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.core.resources import scenario_dir
from referee.core.scenario import ScenarioError, load_model

FACES = range(1, 7)


class Cell(BaseModel):
    """One cell of a combat results table: strength changes and the Allied-control star."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allied: int = Field(default=0, le=0)
    german: int = Field(default=0, le=0)
    control: bool = False


Row = dict[str, Cell]


def _faces(key: str) -> list[int]:
    low, _, high = key.partition("-")
    first, last = int(low), int(high or low)
    return list(range(first, last + 1))


class CombatTable(BaseModel):
    """One table (attack or defend): a row for each comparison of strengths."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allied: Row
    german: Row
    equal: Row

    @field_validator("allied", "german", "equal")
    @classmethod
    def _covers_every_face(cls, row: Row) -> Row:
        covered: list[int] = []
        for key in row:
            try:
                covered.extend(_faces(key))
            except ValueError:
                raise ValueError(f"'{key}' is not a face or a range of faces like '2-4'") from None
        if sorted(covered) != list(FACES):
            raise ValueError("the cells must cover the faces 1 to 6 exactly once")
        return row

    def cell(self, row: str, face: int) -> Cell:
        table: Row = getattr(self, row)
        for key, cell in table.items():
            if face in _faces(key):
                return cell
        raise KeyError(face)  # unreachable: the validator checks every face is covered


class Combat(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    attack: CombatTable
    defend: CombatTable


class City(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    german: int = Field(ge=1, le=6)
    control: Literal["allied", "german"]


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    aliases: list[str] = []
    city: str
    strength: int = Field(ge=1, le=6)
    first_airborne: bool = False


class Corps(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    aliases: list[str] = []


class BattleCardScenario(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Literal["battle-card"]
    name: str
    title: str
    turns: int = Field(ge=1, le=20)
    max_strength: int = Field(ge=1, le=6)
    route: list[str] = Field(min_length=2)
    corps_start: str
    corps: Corps
    cities: list[City]
    units: list[Unit]
    landing_modifier: dict[str, int]
    combat: Combat

    @model_validator(mode="after")
    def _cross_references(self) -> BattleCardScenario:
        problems: list[str] = []
        names = [c.name for c in self.cities]
        if len(set(names)) != len(names):
            problems.append("a city is listed twice")
        if self.corps_start not in self.route:
            problems.append(f"corps_start '{self.corps_start}' is not on the route")
        for name in names:
            if name not in self.route:
                problems.append(f"city '{name}' is not on the route")
        for unit in self.units:
            if unit.city not in names:
                problems.append(f"unit '{unit.id}' starts in '{unit.city}', which is not a city")
        if sorted(self.landing_modifier) != [str(f) for f in FACES]:
            problems.append("landing_modifier must give a modifier for each face 1 to 6")
        if sum(u.first_airborne for u in self.units) != 1:
            problems.append("exactly one unit must be marked first_airborne")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def load_scenario_file(path: Path) -> BattleCardScenario:
    """Validate a Battle Card scenario file (``ScenarioError`` lists what is wrong)."""
    return load_model(BattleCardScenario, path)


@cache
def bundled_scenario(name: str = "standard") -> BattleCardScenario:
    """A scenario shipped with the referee, by name (never a path: see ``bundled_card``)."""
    from referee.games.battle_card.card import bundled_names

    if name not in bundled_names():
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise ScenarioError([f"there is no Battle Card scenario '{shown}'"])
    return load_scenario_file(scenario_dir("battle-card") / f"{name}.toml")
