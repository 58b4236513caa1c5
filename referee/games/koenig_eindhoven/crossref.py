"""Cross-reference checks of an Eindhoven Bridge scenario folder: what the files, each valid
on its own, cannot mean together (unknown ids, duplicates, gaps in the grid, roads that jump).
Each problem is a sentence naming the file and record."""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.koenig_eindhoven.scenario import (
    HexesFile,
    HexsidesFile,
    RoadsFile,
    ScenarioFile,
    TracksFile,
    UnitsFile,
)


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
