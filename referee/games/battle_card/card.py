"""The card in the plain structures the rules read on every command.

The runtime reads the bundled TOML straight into these structures: building the pydantic
models costs about a quarter of a second at start-up, more than a whole ``referee check``
may take.  The pydantic models in ``scenario.py`` remain the schema: ``referee scenario
check`` validates through them, any scenario file that is not bundled is validated before
use, and the test suite proves that both readings of every bundled file agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.core.names import NameIndex
from referee.core.resources import scenario_dir
from referee.core.scenario import ScenarioError, read_toml

Effect = tuple[int, int, bool]
"""A combat result: Allied strength change, German strength change, Allied control."""


@dataclass(frozen=True)
class StartingUnit:
    id: str
    city: str
    strength: int


@dataclass(frozen=True)
class Card:
    name: str
    route: tuple[str, ...]
    cities: tuple[str, ...]  # bottom to top
    top_down: tuple[str, ...]  # Turn step 2 works from the topmost city down
    corps: str
    corps_start: str
    first_airborne: str
    max_strength: int
    turns: int
    german: tuple[tuple[str, int], ...]
    allied_control: frozenset[str]
    units: tuple[StartingUnit, ...]
    landing_modifier: tuple[int, ...]  # by face - 1
    combat: dict[tuple[bool, str, int], Effect]  # (attack, row, face) -> effect
    place_names: NameIndex[str]
    unit_names: NameIndex[str]

    def adjacent(self, a: str, b: str) -> bool:
        return abs(self.route.index(a) - self.route.index(b)) == 1

    def neighbours(self, place: str) -> list[str]:
        i = self.route.index(place)
        return [self.route[j] for j in (i - 1, i + 1) if 0 <= j < len(self.route)]


def _faces(key: str) -> list[int]:
    low, _, high = key.partition("-")
    return list(range(int(low), int(high or low) + 1))


def make_card(data: dict[str, Any]) -> Card:
    """The card from a scenario table (as read from TOML, or dumped from the pydantic model)."""
    places: NameIndex[str] = NameIndex("location")
    for place in data["route"]:
        places.add(place, place)
    corps = data["corps"]
    units: NameIndex[str] = NameIndex("unit")
    units.add(corps["id"], corps["id"], [corps["name"], *corps.get("aliases", [])])
    for unit in data["units"]:
        units.add(unit["id"], unit["id"], [unit["name"], *unit.get("aliases", [])])
    city_names = {c["name"] for c in data["cities"]}
    cities = tuple(p for p in data["route"] if p in city_names)
    combat: dict[tuple[bool, str, int], Effect] = {}
    for mode, attack in (("attack", True), ("defend", False)):
        for row, cells in data["combat"][mode].items():
            for key, cell in cells.items():
                effect = (cell.get("allied", 0), cell.get("german", 0), cell.get("control", False))
                for face in _faces(key):
                    combat[(attack, row, face)] = effect
    return Card(
        name=data["name"],
        route=tuple(data["route"]),
        cities=cities,
        top_down=tuple(reversed(cities)),
        corps=corps["id"],
        corps_start=data["corps_start"],
        first_airborne=next(u["id"] for u in data["units"] if u.get("first_airborne")),
        max_strength=data["max_strength"],
        turns=data["turns"],
        german=tuple((c["name"], c["german"]) for c in data["cities"]),
        allied_control=frozenset(c["name"] for c in data["cities"] if c["control"] == "allied"),
        units=tuple(StartingUnit(u["id"], u["city"], u["strength"]) for u in data["units"]),
        landing_modifier=tuple(data["landing_modifier"][str(f)] for f in range(1, 7)),
        combat=combat,
        place_names=places,
        unit_names=units,
    )


def bundled_names() -> tuple[str, ...]:
    """The names of the Battle Card scenarios shipped with the referee (``standard``...)."""
    return tuple(sorted(path.stem for path in scenario_dir("battle-card").glob("*.toml")))


@cache
def bundled_card(name: str = "standard") -> Card:
    """A scenario shipped with the referee (validated by the test suite), by name.

    A ``[Scenario]`` name is never a path: only the names of the bundled scenarios are
    known, so ``[Scenario "/tmp/x"]`` or ``[Scenario "../x"]`` reads nothing (a scenario file
    of the user's own is ``[Scenario "file:NAME.toml"]``, read beside the log by
    ``referee.core.ownscenario``, and played by an engine on its card: ``variant.py``).
    """
    if name not in bundled_names():
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise ScenarioError([f"there is no Battle Card scenario '{shown}'"])
    return make_card(read_toml(scenario_dir("battle-card") / f"{name}.toml"))
