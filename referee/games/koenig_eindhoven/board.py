"""The Eindhoven Bridge scenario in plain structures the rules read on every command.

``load_board`` reads the scenario's TOML files straight into frozen dataclasses and dicts (no
pydantic on the way: the pydantic models in ``scenario.py`` validate the same files for
``referee scenario check``; the tests check that both agree).  Hex ids are ``CCRR`` (column,
row); adjacency comes from the grid (flat-topped hexes in columns, 2.1), hexside features from
``hexsides.toml`` and ``roads.toml``.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from referee.core.names import NameIndex
from referee.core.resources import scenario_dir

GAME = "koenig-eindhoven"
DEFAULT_SCENARIO = "eindhoven-bridge"
ALLIED = "allied"
GERMAN = "german"
SIDES = (ALLIED, GERMAN)
TERRAINS = ("clear", "woods", "rough", "town", "city")
BRIDGES = ("large", "small")
UNIT_TYPES = ("hq", "infantry", "heavy-weapons", "anti-tank", "armor", "armored-infantry",
              "armored-recon")
"""Unit types of 2.2 (Headquarters, Infantry, Heavy Weapons, Anti-Tank, Armor (Panzer),
Armored Infantry, Armored Reconnaissance); the US machine-gun units are Heavy Weapons."""
EDGES = ("northeast", "northwest", "southeast", "southwest")
NEVER = "never"
"""The Paratroop Landing Table result for "it never arrives" (Exclusive 5.0)."""
FILES = ("scenario.toml", "hexes.toml", "hexsides.toml", "roads.toml", "units.toml",
         "tracks.toml", "tec.toml")


@dataclass(frozen=True, slots=True)
class Hex:
    id: str
    terrain: str
    """clear, woods, rough, town or city (9.1)."""
    hilltop: bool = False
    name: str | None = None
    objective: str | None = None
    """"city" or "town": a red-bordered objective hex (Exclusive 12.0)."""
    red_star: bool = False
    """One of the three primary Eindhoven bridge hexes (Exclusive 12.0)."""

    @property
    def column(self) -> int:
        return int(self.id[:2])

    @property
    def row(self) -> int:
        return int(self.id[2:])


@dataclass(frozen=True, slots=True)
class Hexside:
    river: bool = False
    stream: bool = False
    slope: bool = False
    road: bool = False
    bridge: str | None = None
    """"large" (one of the three core Eindhoven bridges) or "small" (Exclusive 9.1.1)."""
    name: str | None = None
    """The waterway's name, or the bridge's where there is one."""


PLAIN = Hexside()
"""A hexside with nothing on it."""


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """What never changes about a unit (its counter, 2.2)."""

    id: str
    name: str
    side: str
    formation: str
    kind: str
    """The unit type: hq, infantry, heavy-weapons, ..."""
    cs: int
    ma: int
    hq: bool
    setup_hex: str | None
    arrival_turn: int | None
    entry_roads: tuple[str, ...]
    """The road letters it may enter by (Exclusive 8.5: "via roads A or B")."""
    landing: bool
    """Arrives by paratroop landing: the German player rolls for it (5.0, Exclusive 5.0)."""
    aliases: tuple[str, ...] = ()

    @property
    def entry_road(self) -> str | None:
        """The entry roads as printed ("A/B"), or None for a unit set up on the map."""
        return "/".join(self.entry_roads) if self.entry_roads else None

    @property
    def machine_gun(self) -> bool:
        """A US machine-gun unit of optional rule 14.3.1."""
        return self.side == ALLIED and self.kind == "heavy-weapons"


@dataclass(frozen=True, slots=True)
class Formation:
    id: str
    name: str
    side: str
    hq: str
    arrives: int
    colour: str
    units: tuple[str, ...]
    """Its units other than the HQ, in scenario order."""


@dataclass(frozen=True, slots=True)
class TurnSpec:
    number: int
    night: bool
    date: str = ""
    time: str = ""


@dataclass(frozen=True, slots=True)
class Tec:
    """The Terrain Effects Chart (8.1, 9.1)."""

    movement: dict[str, int]
    hexside_movement: dict[str, int]
    combat: dict[str, int]

    def enter_cost(self, terrain: str, hilltop: bool = False) -> int:
        return self.movement["hilltop"] if hilltop else self.movement[terrain]


@dataclass(frozen=True, slots=True)
class EntryRoad:
    letter: str
    hex: str
    edge: str
    road: str


@dataclass(frozen=True, slots=True)
class Road:
    name: str
    hexes: tuple[str, ...]
    entry: str | None = None


@dataclass
class Board:
    """The map, the counters and the tracks of one scenario."""

    id: str
    title: str
    columns: int
    rows: int
    high_columns: str
    orientation: dict[str, str]
    hexes: dict[str, Hex]
    hexsides: dict[frozenset[str], Hexside]
    roads: tuple[Road, ...]
    entry_roads: dict[str, str]
    """Road letter A-F -> its entry hex on the map edge (Exclusive 8.5)."""
    entry_edges: dict[str, str]
    """Road letter -> the map side it is on (northeast, northwest, ...)."""
    places: dict[str, str]
    """Printed place name -> hex id."""
    units: dict[str, UnitSpec]
    formations: dict[str, Formation]
    turns: tuple[TurnSpec, ...]
    paratroop_landing: dict[int, int | str]
    """Die roll -> Hits the arriving unit takes, or "never" (Exclusive 5.0)."""
    artillery_points: dict[int, int]
    allied_support_points: dict[int, int]
    support_per_battle: dict[str, int]
    """Side -> the most points it may commit to one battle (9.0)."""
    tec: Tec
    _neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    _crossings: dict[str, tuple[tuple[str, int], ...]] = field(
        default_factory=dict, repr=False, compare=False)
    _costs: dict[str, dict[str, int]] = field(default_factory=dict, repr=False, compare=False)
    _names: NameIndex[str] | None = field(default=None, repr=False, compare=False)

    # -- building ----------------------------------------------------------------------

    @classmethod
    def from_files(cls, folder: Path) -> Board:
        data = {name: _read(folder / name) for name in FILES}
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: Mapping[str, Mapping[str, Any]]) -> Board:
        scenario = data["scenario.toml"]
        grid = scenario["grid"]
        hexes = {
            h["id"]: Hex(h["id"], h["terrain"], bool(h.get("hilltop", False)), h.get("name"),
                         h.get("objective"), bool(h.get("red_star", False)))
            for h in data["hexes.toml"]["hexes"]
        }
        sides: dict[frozenset[str], Hexside] = {}
        for s in data["hexsides.toml"].get("hexsides", []):
            sides[frozenset(s["hexes"])] = Hexside(
                river=bool(s.get("river", False)), stream=bool(s.get("stream", False)),
                slope=bool(s.get("slope", False)), bridge=s.get("bridge"),
                name=s.get("bridge_name") or s.get("name"),
            )
        roads: list[Road] = []
        entry_roads: dict[str, str] = {}
        entry_edges: dict[str, str] = {}
        for r in data["roads.toml"].get("roads", []):
            path = tuple(r["hexes"])
            roads.append(Road(r["name"], path, r.get("entry")))
            for a, b in itertools.pairwise(path):
                key = frozenset((a, b))
                old = sides.get(key, PLAIN)
                sides[key] = Hexside(old.river, old.stream, old.slope, True, old.bridge,
                                     old.name)
            if r.get("entry"):
                entry_roads[r["entry"]] = path[-1]
                entry_edges[r["entry"]] = r.get("edge", "")
        places = {h.name: h.id for h in hexes.values() if h.name}
        members: dict[str, list[str]] = {}
        units: dict[str, UnitSpec] = {}
        for u in data["units.toml"]["units"]:
            spec = UnitSpec(
                id=u["id"], name=u.get("name", u["id"]), side=u["side"],
                formation=u["formation"], kind=u["type"], cs=int(u["cs"]), ma=int(u["ma"]),
                hq=u["type"] == "hq", setup_hex=u.get("setup"), arrival_turn=u.get("arrives"),
                entry_roads=tuple(u.get("entry", ())), landing=bool(u.get("landing", False)),
                aliases=tuple(u.get("aliases", ())),
            )
            units[spec.id] = spec
            if not spec.hq:
                members.setdefault(spec.formation, []).append(spec.id)
        formations = {
            f["id"]: Formation(f["id"], f["name"], f["side"], f["hq"], int(f["arrives"]),
                               f.get("colour", "#dddddd"), tuple(members.get(f["id"], ())))
            for f in data["units.toml"]["formations"]
        }
        tracks = data["tracks.toml"]
        turns = tuple(
            TurnSpec(int(t["number"]), bool(t["night"]), str(t.get("date", "")),
                     str(t.get("time", "")))
            for t in tracks["turns"]
        )
        tables = tracks["tables"]
        tec = data["tec.toml"]
        return cls(
            id=scenario["id"], title=scenario["title"], columns=int(grid["columns"]),
            rows=int(grid["rows"]), high_columns=grid.get("high_columns", "odd"),
            orientation=dict(scenario.get("orientation", {})), hexes=hexes, hexsides=sides,
            roads=tuple(roads), entry_roads=entry_roads, entry_edges=entry_edges,
            places=places, units=units, formations=formations, turns=turns,
            paratroop_landing=_die_table(tables["paratroop_landing"]),
            artillery_points={k: int(v) for k, v in
                              _die_table(tables["artillery_points"]).items()},
            allied_support_points={k: int(v) for k, v in
                                   _die_table(tables["allied_support_points"]).items()},
            support_per_battle={GERMAN: int(tracks["support"]["german_per_battle"]),
                                ALLIED: int(tracks["support"]["allied_per_battle"])},
            tec=Tec(dict(tec["movement"]), dict(tec["hexside_movement"]), dict(tec["combat"])),
        )

    def altered(self, hexes: Iterable[Hex] = (),
                hexsides: Mapping[tuple[str, str], Hexside] | None = None) -> Board:
        """A copy with some hexes and hexsides replaced: the fixture maps of tests whose
        rulebook example needs terrain the reconstruction lacks (a hilltop and a slope
        hexside for the 8.1 example, woods behind streams for 9.1).  A hexside given with
        ``road=False`` over a road hexside removes the road there."""
        new_hexes = dict(self.hexes)
        for h in hexes:
            if h.id not in new_hexes:
                raise ValueError(f"{h.id} is not on the map")
            new_hexes[h.id] = h
        new_sides = dict(self.hexsides)
        for (a, b), side in (hexsides or {}).items():
            if not self.adjacent(a, b):
                raise ValueError(f"{a} and {b} are not adjacent")
            new_sides[frozenset((a, b))] = side
        return replace(self, hexes=new_hexes, hexsides=new_sides, _neighbours={}, _crossings={},
                       _costs={}, _names=None)

    # -- the grid ----------------------------------------------------------------------

    def is_high(self, column: int) -> bool:
        """Whether a column sits half a hex higher than its neighbours."""
        return (column % 2 == 1) == (self.high_columns == "odd")

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The hexes adjacent to ``hex_id`` on the map (never off it, 8.1.1)."""
        found = self._neighbours.get(hex_id)
        if found is None:
            col, row = int(hex_id[:2]), int(hex_id[2:])
            up = -1 if self.is_high(col) else 0
            cand = [(col, row - 1), (col, row + 1), (col - 1, row + up),
                    (col - 1, row + up + 1), (col + 1, row + up), (col + 1, row + up + 1)]
            found = tuple(sorted(i for c, r in cand if (i := f"{c:02d}{r:02d}") in self.hexes))
            self._neighbours[hex_id] = found
        return found

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def hexside(self, a: str, b: str) -> Hexside:
        """The hexside between two adjacent hexes (``ValueError`` when they are not)."""
        if not self.adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent")
        return self.hexsides.get(frozenset((a, b)), PLAIN)

    def enter_cost(self, a: str, b: str) -> int:
        """The Movement Points to enter ``b`` from the adjacent ``a`` when no enemy unit is
        there: 8.1.2 road movement whatever the terrain and hexside, else the terrain of ``b``
        (8.1, a hilltop's own cost) plus the hexside's slope, stream and bridge costs (8.1:
        "These costs are cumulative").  A River hexside without a bridge is not checked here
        (8.1.1, ``crossings``)."""
        tec = self.tec
        side = self.hexside(a, b)
        if side.road:
            return tec.movement["road"]
        target = self.hexes[b]
        cost = tec.enter_cost(target.terrain, target.hilltop)
        if side.slope:
            cost += tec.hexside_movement["slope"]
        if side.stream:
            cost += tec.hexside_movement["stream"]
        if side.bridge is not None:
            cost += tec.hexside_movement["bridge"]
        return cost

    def crossings(self, hex_id: str) -> tuple[tuple[str, int], ...]:
        """Each neighbour a unit may move to from ``hex_id`` (not across a River hexside
        without a bridge, 8.1.1) with ``enter_cost``, in hex order; worked out once per hex
        (the move search asks for it at every step)."""
        found = self._crossings.get(hex_id)
        if found is None:
            found = tuple(
                (there, self.enter_cost(hex_id, there)) for there in self.neighbours(hex_id)
                if not ((side := self.hexside(hex_id, there)).river and side.bridge is None)
            )
            self._crossings[hex_id] = found
        return found

    def crossing_costs(self, hex_id: str) -> dict[str, int]:
        """``crossings`` of ``hex_id`` as neighbour -> MP (a written move's steps)."""
        found = self._costs.get(hex_id)
        if found is None:
            found = self._costs[hex_id] = dict(self.crossings(hex_id))
        return found

    def crossing_table(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """``crossings`` of every hex."""
        if len(self._crossings) < len(self.hexes):
            for hex_id in self.hexes:
                self.crossings(hex_id)
        return self._crossings

    def on_edge(self, hex_id: str) -> tuple[str, ...]:
        """The map sides (northeast, ...) a hex lies on."""
        col, row = int(hex_id[:2]), int(hex_id[2:])
        found = []
        names = {"left": col == 1, "right": col == self.columns, "top": row == 1,
                 "bottom": row == self.rows}
        for screen, yes in names.items():
            if yes and screen in self.orientation:
                found.append(self.orientation[screen])
        return tuple(found)

    # -- names -------------------------------------------------------------------------

    def unit_index(self) -> NameIndex[str]:
        """Unit ids and their aliases (``1/506/101`` for ``1/506``), for the log's words."""
        if self._names is None:
            index: NameIndex[str] = NameIndex("unit")
            for spec in self.units.values():
                index.add(spec.id, spec.id, spec.aliases)
            self._names = index
        return self._names

    def place(self, word: str) -> str | None:
        """The hex a log means by ``word``: a hex id or a printed place name."""
        if word in self.hexes:
            return word
        for name, ident in self.places.items():
            if _fold(name) == _fold(word):
                return ident
        return None

    def turn(self, number: int) -> TurnSpec:
        return self.turns[number - 1]

    @property
    def last_turn(self) -> int:
        return self.turns[-1].number

    def units_of(self, formation: str) -> tuple[UnitSpec, ...]:
        return tuple(self.units[u] for u in self.formations[formation].units)

    def hq_of(self, formation: str) -> UnitSpec:
        return self.units[self.formations[formation].hq]

    def red_star_hexes(self) -> tuple[str, ...]:
        return tuple(h.id for h in self.hexes.values() if h.red_star)

    def objectives(self) -> dict[str, str]:
        """Objective hex -> "city" or "town" (Exclusive 12.0)."""
        return {h.id: h.objective for h in self.hexes.values() if h.objective}


def _fold(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _die_table(table: Mapping[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in sorted(table.items(), key=lambda kv: int(kv[0]))}


def _read(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def scenario_folder(scenario: str | None = None) -> Path:
    return scenario_dir(GAME) / (scenario or DEFAULT_SCENARIO)


@cache
def engine_board() -> Board:
    """The bundled scenario's board as the engine (and its self-play policies) play on it:
    a copy of its own, so the caches it fills (neighbours) stay out of ``load_board``'s, which
    the scenario tests compare field by field."""
    return Board.from_files(scenario_folder(DEFAULT_SCENARIO))


@cache
def load_board(scenario: str | None = None) -> Board:
    """The board of a bundled scenario (default ``eindhoven-bridge``), built once per
    process straight from its TOML files."""
    return Board.from_files(scenario_folder(scenario))


def iter_hexsides(board: Board) -> Iterable[tuple[str, str, Hexside]]:
    """Every hexside with a feature, as (a, b, hexside) with a < b, sorted."""
    for key, side in sorted(board.hexsides.items(), key=lambda kv: sorted(kv[0])):
        a, b = sorted(key)
        yield a, b, side
