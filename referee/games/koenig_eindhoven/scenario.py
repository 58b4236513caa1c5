"""The Eindhoven Bridge scenario files as pydantic models, with cross-reference checks.

The data lives in TOML under ``scenarios/koenig-eindhoven/eindhoven-bridge/`` and is a
documented reconstruction (NOTES.md there).  ``load_scenario`` validates every file and
reports every problem as a sentence naming the file and record; the rules read the same files
through ``board.py`` (plain structures, no pydantic at play time).  The rulebook facts the data
must satisfy are checked in ``facts.py``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core.scenario import ScenarioError, read_toml, validation_sentences
from referee.games.koenig_eindhoven.board import FILES, Board, scenario_folder

Terrain = Literal["clear", "woods", "rough", "town", "city"]
Side = Literal["allied", "german"]
Edge = Literal["northeast", "northwest", "southeast", "southwest"]
UnitType = Literal["hq", "infantry", "heavy-weapons", "anti-tank", "armor", "armored-infantry",
                   "armored-recon"]
HexId = Field(pattern=r"^\d{4}$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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


class Scenario:
    """Every file of one scenario folder, validated, and the board built from them."""

    def __init__(self, folder: Path, files: dict[str, Any], raw: dict[str, dict[str, Any]]):
        self.folder = folder
        self.scenario: ScenarioFile = files["scenario.toml"]
        self.hexes: HexesFile = files["hexes.toml"]
        self.hexsides: HexsidesFile = files["hexsides.toml"]
        self.roads: RoadsFile = files["roads.toml"]
        self.units: UnitsFile = files["units.toml"]
        self.tracks: TracksFile = files["tracks.toml"]
        self.tec: TecFile = files["tec.toml"]
        self.board = Board.from_data(raw)


def load_scenario(folder: Path | None = None) -> Scenario:
    """Validate a scenario folder (default: the bundled one); ``ScenarioError`` lists every
    problem, one sentence each."""
    folder = folder or scenario_folder()
    problems: list[str] = []
    raw: dict[str, dict[str, Any]] = {}
    files: dict[str, Any] = {}
    for name in FILES:
        path = folder / name
        try:
            raw[name] = read_toml(path)
        except ScenarioError as error:
            problems.extend(error.problems)
            continue
        try:
            files[name] = MODELS[name].model_validate(raw[name])
        except ValidationError as error:
            problems.extend(validation_sentences(error, name))
    if problems:
        raise ScenarioError(problems)
    problems = cross_check(files)
    if problems:
        raise ScenarioError(problems)
    return Scenario(folder, files, raw)


def cross_check(files: dict[str, Any]) -> list[str]:
    """What the files cannot mean together: unknown ids, duplicates, gaps in the grid."""
    problems: list[str] = []
    scenario: ScenarioFile = files["scenario.toml"]
    grid = scenario.grid
    hexes: HexesFile = files["hexes.toml"]
    ids = [h.id for h in hexes.hexes]
    for ident, count in Counter(ids).items():
        if count > 1:
            problems.append(f"hexes.toml: hex {ident} is listed {count} times")
    known = set(ids)
    for h in hexes.hexes:
        col, row = int(h.id[:2]), int(h.id[2:])
        if not (1 <= col <= grid.columns and 1 <= row <= grid.rows):
            problems.append(f"hexes.toml: hex {h.id} lies outside the "
                            f"{grid.columns}x{grid.rows} grid of scenario.toml")
    for col in range(1, grid.columns + 1):
        for row in range(1, grid.rows + 1):
            if f"{col:02d}{row:02d}" not in known:
                problems.append(f"hexes.toml: the grid has no hex {col:02d}{row:02d}")
    names = Counter(h.name.casefold() for h in hexes.hexes if h.name)
    for name, count in names.items():
        if count > 1:
            problems.append(f"hexes.toml: the place name '{name}' is on {count} hexes")
    sides: HexsidesFile = files["hexsides.toml"]
    seen: set[frozenset[str]] = set()
    for s in sides.hexsides:
        a, b = s.hexes
        where = f"hexsides.toml: hexside {a}-{b}"
        for end in (a, b):
            if end not in known:
                problems.append(f"{where}: names a hex that is not on the map ({end})")
        if not _grid_adjacent(a, b, grid.high_columns):
            problems.append(f"{where}: the two hexes are not adjacent")
        key = frozenset((a, b))
        if key in seen:
            problems.append(f"{where}: listed twice")
        seen.add(key)
    roads: RoadsFile = files["roads.toml"]
    letters = Counter(r.entry for r in roads.roads if r.entry)
    for letter, count in letters.items():
        if count > 1:
            problems.append(f"roads.toml: entry road {letter} is given {count} times")
    for r in roads.roads:
        for step in r.hexes:
            if step not in known:
                problems.append(f"roads.toml: the {r.name} runs through {step}, not on the "
                                "map")
        for a, b in zip(r.hexes, r.hexes[1:], strict=False):
            if not _grid_adjacent(a, b, grid.high_columns):
                problems.append(f"roads.toml: the {r.name} jumps from {a} to {b}, which are "
                                "not adjacent")
        if r.entry and r.edge is None:
            problems.append(f"roads.toml: entry road {r.entry} says no edge")
    units: UnitsFile = files["units.toml"]
    formations = {f.id: f for f in units.formations}
    unit_ids = Counter(u.id for u in units.units)
    for ident, count in unit_ids.items():
        if count > 1:
            problems.append(f"units.toml: unit {ident} is listed {count} times")
    entry_letters = set(letters)
    for u in units.units:
        where = f"units.toml: unit {u.id}"
        f = formations.get(u.formation)
        if f is None:
            problems.append(f"{where}: its formation '{u.formation}' is not a [[formations]] "
                            "record")
        elif f.side != u.side:
            problems.append(f"{where}: is {u.side} but its formation {f.id} is {f.side}")
        if (u.setup is None) == (u.arrives is None):
            problems.append(f"{where}: needs exactly one of setup (a hex) and arrives (a turn)")
        if u.setup is not None and u.setup not in known:
            problems.append(f"{where}: sets up in {u.setup}, not on the map")
        if u.arrives is not None and not u.entry:
            problems.append(f"{where}: arrives on turn {u.arrives} but names no entry road")
        for letter in u.entry:
            if letter not in entry_letters:
                problems.append(f"{where}: enters by road {letter}, which roads.toml lacks")
        if u.landing and u.side != "allied":
            problems.append(f"{where}: only Allied units land by parachute or glider (5.0)")
    for f in units.formations:
        hq = next((u for u in units.units if u.id == f.hq), None)
        if hq is None or hq.type != "hq" or hq.formation != f.id:
            problems.append(f"units.toml: formation {f.id}: its hq '{f.hq}' is not an HQ "
                            "unit of that formation")
    tracks: TracksFile = files["tracks.toml"]
    numbers = [t.number for t in tracks.turns]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("tracks.toml: the turns must be numbered 1, 2, 3, ... in order")
    for table, values in (("paratroop_landing", tracks.tables.paratroop_landing),
                          ("artillery_points", tracks.tables.artillery_points),
                          ("allied_support_points", tracks.tables.allied_support_points)):
        if sorted(values) != [str(i) for i in range(1, 7)]:
            problems.append(f"tracks.toml: tables.{table} needs one row for each die roll "
                            "1-6")
    return problems


def _grid_adjacent(a: str, b: str, high_columns: str) -> bool:
    try:
        ca, ra, cb, rb = int(a[:2]), int(a[2:]), int(b[:2]), int(b[2:])
    except ValueError:
        return False
    if ca == cb:
        return abs(ra - rb) == 1
    if abs(ca - cb) != 1:
        return False
    up = -1 if (ca % 2 == 1) == (high_columns == "odd") else 0
    return rb in (ra + up, ra + up + 1)


def scenario_json(board: Board) -> dict[str, Any]:
    """``referee scenario show koenig-eindhoven --json``: the whole scenario, stable keys."""
    return {
        "game": "koenig-eindhoven",
        "scenario": board.id,
        "title": board.title,
        "reconstruction": True,
        "grid": {"columns": board.columns, "rows": board.rows,
                 "high_columns": board.high_columns, "orientation": board.orientation},
        "hexes": [
            {"id": h.id, "terrain": h.terrain, "hilltop": h.hilltop, "name": h.name,
             "objective": h.objective, "red_star": h.red_star}
            for h in sorted(board.hexes.values(), key=lambda h: h.id)
        ],
        "hexsides": [
            {"hexes": sorted(key), "river": s.river, "stream": s.stream, "slope": s.slope,
             "road": s.road, "bridge": s.bridge, "name": s.name}
            for key, s in sorted(board.hexsides.items(), key=lambda kv: sorted(kv[0]))
        ],
        "roads": [{"name": r.name, "entry": r.entry, "hexes": list(r.hexes)}
                  for r in board.roads],
        "entry_roads": [{"road": letter, "hex": board.entry_roads[letter],
                         "edge": board.entry_edges[letter]}
                        for letter in sorted(board.entry_roads)],
        "places": dict(sorted(board.places.items())),
        "formations": [
            {"id": f.id, "name": f.name, "side": f.side, "hq": f.hq, "arrives": f.arrives,
             "units": list(f.units)}
            for f in board.formations.values()
        ],
        "units": [
            {"id": u.id, "name": u.name, "side": u.side, "formation": u.formation,
             "type": u.kind, "cs": u.cs, "ma": u.ma, "hq": u.hq, "setup": u.setup_hex,
             "arrives": u.arrival_turn, "entry": list(u.entry_roads), "landing": u.landing,
             "aliases": list(u.aliases),
             "start": u.setup_hex or (f"turn {u.arrival_turn} road {u.entry_road}"
                                      if u.arrival_turn else "")}
            for u in board.units.values()
        ],
        "turns": [{"number": t.number, "night": t.night, "date": t.date, "time": t.time}
                  for t in board.turns],
        "tables": {
            "paratroop_landing": {str(k): v for k, v in board.paratroop_landing.items()},
            "artillery_points": {str(k): v for k, v in board.artillery_points.items()},
            "allied_support_points": {str(k): v for k, v in
                                      board.allied_support_points.items()},
            "support_per_battle": board.support_per_battle,
        },
        "tec": {"movement": board.tec.movement, "hexside_movement": board.tec.hexside_movement,
                "combat": board.tec.combat},
    }
