"""Build the reconstructed Eindhoven Bridge hex map from geography.

Writes ``hexes.toml``, ``hexsides.toml`` and ``roads.toml`` under
``scenarios/koenig-eindhoven/eindhoven-bridge/``.  The printed map of Paul Koenig's
Market-Garden: Eindhoven Bridge is not available; this script lays a grid of 600 m hexes (2.1)
over sourced and approximate coordinates (NOTES.md in that folder lists each one and says which
is which) and derives per hex terrain, per hexside waterways and bridges, and roads as hex
paths.  Run it again after changing the geography below; an owner of the printed game edits the
TOML files directly instead (the referee reads only the TOML).

    python tools/build_koenig_map.py

Geometry.  Flat-topped hexes in vertical columns, 15 columns x 21 rows, hex ids ``CCRR``.
Odd columns sit half a hex higher than even ones.  Screen right points south-west and screen
down points north-west, so the north-east edge is on the left and the north-west edge at the
bottom, as Exclusive Rule 8.5 says ("the northeast (left) side", "the northwest (bottom)
side").
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "scenarios" / "koenig-eindhoven" / "eindhoven-bridge"

COLUMNS = 15
ROWS = 21
HEX_KM = 0.6
COL_KM = HEX_KM * math.sqrt(3) / 2
ORIGIN = (51.4408, 5.4778)  # Eindhoven (Markt), wwiic-geography.md A
KM_PER_DEG_LAT = 111.2
KM_PER_DEG_LON = 111.32 * math.cos(math.radians(ORIGIN[0]))
NE0 = 6.1   # km north-east of the origin of column 01's centre line
NW0 = -2.4  # km north-west of the origin of row 01 (odd columns)

Point = tuple[float, float]


def to_screen(lat: float, lon: float) -> Point:
    """Screen km (x right = south-west, y down = north-west) of a WGS84 point."""
    north = (lat - ORIGIN[0]) * KM_PER_DEG_LAT
    east = (lon - ORIGIN[1]) * KM_PER_DEG_LON
    ne = (north + east) / math.sqrt(2)
    nw = (north - east) / math.sqrt(2)
    return NE0 - ne, nw - NW0


def to_geo(x: float, y: float) -> Point:
    ne = NE0 - x
    nw = y + NW0
    north = (ne + nw) / math.sqrt(2)
    east = (ne - nw) / math.sqrt(2)
    return ORIGIN[0] + north / KM_PER_DEG_LAT, ORIGIN[1] + east / KM_PER_DEG_LON


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def centre(col: int, row: int) -> Point:
    return (col - 1) * COL_KM, (row - 1) * HEX_KM + (HEX_KM / 2 if col % 2 == 0 else 0.0)


HEXES = [(c, r) for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]


def neighbours(col: int, row: int) -> list[tuple[int, int]]:
    if col % 2:  # odd columns are the high ones
        cand = [(col, row - 1), (col, row + 1), (col - 1, row - 1), (col - 1, row),
                (col + 1, row - 1), (col + 1, row)]
    else:
        cand = [(col, row - 1), (col, row + 1), (col - 1, row), (col - 1, row + 1),
                (col + 1, row), (col + 1, row + 1)]
    return [(c, r) for c, r in cand if 1 <= c <= COLUMNS and 1 <= r <= ROWS]


def nearest_hex(x: float, y: float) -> tuple[int, int] | None:
    """The hex whose centre is nearest (a hex is the Voronoi cell of its centre)."""
    best = min(HEXES, key=lambda h: (centre(*h)[0] - x) ** 2 + (centre(*h)[1] - y) ** 2)
    cx, cy = centre(*best)
    if math.hypot(cx - x, cy - y) > HEX_KM / math.sqrt(3) + 1e-9:
        return None  # outside the map
    return best


# ---------------------------------------------------------------------------------------
# Geography.  (lat, lon).  "src" = the project's geography reference or a source named in
# NOTES.md; "approx" = placed from general knowledge of the area, to be checked on a map.
# ---------------------------------------------------------------------------------------

# name: (lat, lon, radius km of the built-up area, terrain, objective)
PLACES: dict[str, tuple[float, float, float, str, str | None]] = {
    "Eindhoven": (51.4408, 5.4778, 0.45, "city", "city"),      # src
    "Son": (51.5114, 5.4928, 0.45, "town", "town"),             # src
    "Best": (51.5075, 5.3903, 0.45, "town", "town"),            # src
    "Nuenen": (51.4733, 5.5467, 0.40, "town", "town"),          # src
    "Nederwetten": (51.4917, 5.5236, 0.20, "town", None),       # src
    "Woensel": (51.4600, 5.4700, 0.55, "town", "town"),         # approx
    "Tongelre": (51.4460, 5.5050, 0.40, "town", "town"),        # approx
    "Stratum": (51.4290, 5.4900, 0.45, "town", "town"),         # approx
    "Acht": (51.4800, 5.4292, 0.25, "town", None),              # src: GeoNames 2760050
    "Strijp": (51.4440, 5.4500, 0.45, "town", None),            # approx
}
CITY_KM = 0.95
"""Hexes whose centre lies within this distance of the Markt are City (1944 built-up core)."""
TOWN_RING_KM = 1.55
"""Between CITY_KM and this, Eindhoven's outskirts are Town."""

# Woods: polygons (approx) of the forests and heath woods in the area.
WOODS: dict[str, list[Point]] = {
    "Sonse Bossen": [(51.5060, 5.4150), (51.5260, 5.4150), (51.5300, 5.4700),
                     (51.5150, 5.4800), (51.5080, 5.4650)],
    "woods south of the canal at Best": [(51.4850, 5.4050), (51.4990, 5.4050),
                                         (51.5020, 5.4450), (51.4880, 5.4500)],
    "Eckartse Bossen": [(51.4650, 5.5050), (51.4800, 5.5050), (51.4800, 5.5250),
                        (51.4650, 5.5250)],
    "Wielewaal woods": [(51.4750, 5.4500), (51.4880, 5.4500), (51.4880, 5.4700),
                        (51.4750, 5.4700)],
}

# Waterways: kind, polyline.
WATERWAYS: dict[str, tuple[str, list[Point]]] = {
    # Wilhelmina canal: Son bridge src; Best bridge src (the Joe Mann memorial stone "near the
    # Wilhelmina Bridge", fietsnetwerk.nl); the rest approx.
    "Wilhelmina canal": ("river", [
        (51.4900, 5.3300), (51.4990, 5.3900), (51.5027, 5.4192), (51.5040, 5.4550),
        (51.5055, 5.4919),
        (51.5030, 5.5150), (51.4990, 5.5400), (51.5050, 5.5700)]),
    # Dommel: through Eindhoven's centre (the four bridges, src: marketgarden1944.nl) north to
    # pass under the canal between Son and Breugel (src: geography reference D); course approx.
    "Dommel": ("river", [
        (51.4100, 5.4800), (51.4250, 5.4820), (51.4345, 5.4815), (51.4380, 5.4835),
        (51.4420, 5.4840), (51.4480, 5.4880), (51.4580, 5.4930), (51.4700, 5.5000),
        (51.4850, 5.5050), (51.4950, 5.5060), (51.5050, 5.5000), (51.5150, 5.5020),
        (51.5300, 5.4950)]),
    # Eindhovensch Kanaal: start 51.437466 N 5.486970 E (src: en.wikipedia), east to Helmond.
    "Eindhovensch Kanaal": ("river", [
        (51.4375, 5.4870), (51.4410, 5.5100), (51.4450, 5.5400), (51.4480, 5.5700),
        (51.4580, 5.6720)]),
    # Brooks (approx): the Kleine Dommel from Geldrop, the Gender from Veldhoven.
    "Kleine Dommel": ("stream", [
        (51.4100, 5.5700), (51.4217, 5.5597), (51.4300, 5.5300), (51.4360, 5.5050),
        (51.4400, 5.4900), (51.4430, 5.4845)]),
    "Gender": ("stream", [
        (51.4150, 5.4200), (51.4280, 5.4450), (51.4350, 5.4650), (51.4390, 5.4780),
        (51.4400, 5.4835)]),
}

# Roads: name, entry letter (at the end of the polyline that leaves the map), polyline.
# All approx except the places from the geography reference.
ROADS: list[tuple[str, str | None, list[Point]]] = [
    ("Sint-Oedenrode road", "A", [
        (51.4408, 5.4778), (51.4600, 5.4700), (51.4700, 5.4780), (51.4850, 5.4850),
        (51.4985, 5.4905), (51.5055, 5.4919), (51.5114, 5.4928), (51.5300, 5.4850),
        (51.5675, 5.4597)]),
    ("Rooijsche weg", "B", [
        (51.5114, 5.4928), (51.5200, 5.4850), (51.5350, 5.4700), (51.5500, 5.4600)]),
    ("Boxtel road", "C", [
        (51.4408, 5.4778), (51.4520, 5.4630), (51.4800, 5.4292), (51.5027, 5.4192),
        (51.5075, 5.3903), (51.5300, 5.3750), (51.5908, 5.3292)]),
    ("Oirschot road from Best", "D", [
        (51.5075, 5.3903), (51.5060, 5.3600), (51.5050, 5.3139)]),
    ("Oirschot road from Strijp", "E", [
        (51.4408, 5.4778), (51.4440, 5.4500), (51.4500, 5.4200), (51.4700, 5.3600)]),
    ("Veldhoven road", "F", [
        (51.4408, 5.4778), (51.4350, 5.4550), (51.4250, 5.4200), (51.4183, 5.4028)]),
    ("Best-Son road", None, [
        (51.5075, 5.3903), (51.5095, 5.4300), (51.5105, 5.4650), (51.5114, 5.4928)]),
    ("Nuenen road", None, [
        (51.4408, 5.4778), (51.4430, 5.4870), (51.4460, 5.5050), (51.4600, 5.5300),
        (51.4733, 5.5467), (51.4900, 5.5800)]),
    ("Geldrop road", None, [
        (51.4408, 5.4778), (51.4370, 5.4860), (51.4330, 5.5050), (51.4217, 5.5597)]),
    ("Aalst road", None, [
        (51.4408, 5.4778), (51.4360, 5.4800), (51.4300, 5.4830), (51.4150, 5.4800),
        (51.3967, 5.4778)]),
    ("Nuenen-Son road", None, [
        (51.4733, 5.5467), (51.4917, 5.5236), (51.4985, 5.4905)]),
]

# The three large (red-star) bridges: the Dommel bridges in the city centre held by the 506th
# on 18 September 1944 (src: Gardner, 'Deliver Us From Darkness': de Wal, Van Abbe/Elzent,
# Stratumseind).  Each is the Dommel hexside a road crosses nearest the given point (approx);
# the star goes on the hex on the east (far) bank, away from the Markt.
LARGE_BRIDGES: dict[str, tuple[str, Point]] = {
    "Wal bridge": ("Nuenen road", (51.4420, 5.4840)),
    "Stratumseind bridge": ("Geldrop road", (51.4380, 5.4835)),
    "Elzent bridge": ("Aalst road", (51.4345, 5.4815)),
}
# Small bridges with no road: the Son canal bridges 1,400 yards west and east of the main
# bridge (src: trantor.is Battleground Europe, ch. 5), on the canal.
NAMED_BRIDGES: dict[str, Point] = {
    "Son bridge": (51.5055, 5.4919),   # src: geography reference C
    "Best bridge": (51.5027, 5.4192),  # src: Joe Mann memorial stone, fietsnetwerk.nl
}
"""Road bridges named after the nearest point: a road crossing within 0.5 km takes the name."""
FOOT_BRIDGES: dict[str, Point] = {
    "Son west canal bridge": (51.5048, 5.4735),  # 1,400 yd (1.28 km) west of the Son bridge
}


def _segments(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    screen = [to_screen(*p) for p in points]
    return list(itertools.pairwise(screen))


def _cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(r, s, p), orient(r, s, q)
    d3, d4 = orient(p, q, r), orient(p, q, s)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    poly = [to_screen(*p) for p in polygon]
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def road_path(points: Sequence[Point]) -> list[str]:
    """The hexes a road polyline runs through, in order, each adjacent to the next."""
    path: list[str] = []
    for a, b in _segments(points):
        steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.02))
        for i in range(steps + 1):
            t = i / steps
            h = nearest_hex(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if h is None:
                continue
            ident = hex_id(*h)
            if not path or path[-1] != ident:
                if path and ident in path:  # the road doubled back through a hex
                    path = path[: path.index(ident) + 1]
                    continue
                path.append(ident)
    keep = set()
    for lat, lon in points:
        h = nearest_hex(*to_screen(lat, lon))
        if h is not None:
            keep.add(hex_id(*h))
    return _straighten(path, keep)


def _adjacent(a: str, b: str) -> bool:
    return (int(b[:2]), int(b[2:])) in neighbours(int(a[:2]), int(a[2:]))


def _straighten(path: list[str], keep: set[str]) -> list[str]:
    """Drop a hex the road only zig-zags through: where the hexes before and after it are
    adjacent, the road runs straight from one to the other (a line at 45 degrees to the
    grid's axes otherwise alternates between two columns).  The hexes of the road's own
    waypoints (the places it joins) are kept."""
    changed = True
    while changed:
        changed = False
        for i in range(1, len(path) - 1):
            if path[i] not in keep and _adjacent(path[i - 1], path[i + 1]):
                del path[i]
                changed = True
                break
    return path


def _mid(a: str, b: str) -> Point:
    (ax, ay), (bx, by) = centre(int(a[:2]), int(a[2:])), centre(int(b[:2]), int(b[2:]))
    return (ax + bx) / 2, (ay + by) / 2


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build(out: Path = OUT) -> None:
    terrain: dict[str, str] = {}
    names: dict[str, str] = {}
    objective: dict[str, str] = {}
    mx, my = to_screen(*ORIGIN)
    for col, row in HEXES:
        ident = hex_id(col, row)
        x, y = centre(col, row)
        d_markt = math.hypot(x - mx, y - my)
        kind = "clear"
        if any(_inside((x, y), poly) for poly in WOODS.values()):
            kind = "woods"
        if d_markt <= TOWN_RING_KM:
            kind = "town"
        for _, (lat, lon, radius, place_kind, _obj) in PLACES.items():
            px, py = to_screen(lat, lon)
            if math.hypot(x - px, y - py) <= radius + HEX_KM / 2 and kind != "city":
                kind = place_kind if place_kind == "city" else "town"
        if d_markt <= CITY_KM:
            kind = "city"
        terrain[ident] = kind
    for name, (lat, lon, _radius, _kind, obj) in PLACES.items():
        h = nearest_hex(*to_screen(lat, lon))
        if h is None:
            continue
        ident = hex_id(*h)
        names[ident] = name
        if obj is not None:
            objective[ident] = obj

    # Hexsides: waterways.
    sides: dict[tuple[str, str], dict[str, object]] = {}
    for col, row in HEXES:
        a = hex_id(col, row)
        for c2, r2 in neighbours(col, row):
            b = hex_id(c2, r2)
            if a > b:
                continue
            p, q = centre(col, row), centre(c2, r2)
            for name, (kind, line) in WATERWAYS.items():
                if any(_cross(p, q, r, s) for r, s in _segments(line)):
                    rec = sides.setdefault(_key(a, b), {})
                    if kind == "river" or "river" not in rec:
                        rec[kind] = True
                        rec.setdefault("names", []).append(name)  # type: ignore[union-attr]

    # Roads as hex paths; bridges where a road crosses a river hexside.
    roads: list[tuple[str, str | None, list[str]]] = []
    for name, letter, line in ROADS:
        pts = list(reversed(line)) if letter else line
        path = road_path(pts)
        if letter:
            path = list(reversed(path))  # ... ending at the entry hex on the edge
        roads.append((name, letter, path))
        for a, b in itertools.pairwise(path):
            rec = sides.get(_key(a, b))
            if rec and rec.get("river"):
                rec["bridge"] = "small"
                rec["bridge_name"] = f"{name} bridge"
                for bridge, point in NAMED_BRIDGES.items():
                    if math.dist(_mid(a, b), to_screen(*point)) < 0.5:
                        rec["bridge_name"] = bridge
    stars: dict[str, str] = {}
    for bridge, (road, point) in LARGE_BRIDGES.items():
        path = next(p for n, _, p in roads if n == road)
        target = to_screen(*point)
        crossing = [
            _key(a, b) for a, b in itertools.pairwise(path)
            if sides.get(_key(a, b), {}).get("river")
        ]
        if not crossing:
            raise SystemExit(f"the {road} does not cross a river for the {bridge}")
        k = min(crossing, key=lambda s, t=target: math.dist(_mid(*s), t))
        sides[k]["bridge"] = "large"
        sides[k]["bridge_name"] = bridge
        far = max(k, key=lambda h: math.hypot(centre(int(h[:2]), int(h[2:]))[0] - mx,
                                              centre(int(h[:2]), int(h[2:]))[1] - my))
        if far in stars:
            far = min(k, key=lambda h: h == far)
        stars[far] = bridge
    for bridge, point in FOOT_BRIDGES.items():
        target = to_screen(*point)
        best = min(
            (k for k, v in sides.items() if v.get("river") and "bridge" not in v),
            key=lambda s, t=target: math.dist(_mid(*s), t),
        )
        sides[best]["bridge"] = "small"
        sides[best]["bridge_name"] = bridge
    for ident, bridge in stars.items():
        terrain[ident] = "city"
        objective[ident] = "city"
        names.setdefault(ident, bridge)

    out.mkdir(parents=True, exist_ok=True)
    _write_hexes(out, terrain, names, objective, stars)
    _write_hexsides(out, sides)
    _write_roads(out, roads)


HEADER = """# Paul Koenig's Market-Garden: Eindhoven Bridge - {what}
#
# RECONSTRUCTION.  The rulebook prints the rules, not the map.  This file was generated by
# tools/build_koenig_map.py from real geography (NOTES.md in this folder lists every source
# and choice); it is not the printed map.  An owner of the printed game replaces any value
# with the printed one by editing this file (no code changes), then runs
# `referee scenario check scenarios/koenig-eindhoven/eindhoven-bridge`.
#
"""


def _write_hexes(out: Path, terrain: dict[str, str], names: dict[str, str],
                 objective: dict[str, str], stars: dict[str, str]) -> None:
    lines = [HEADER.format(what="hexes (2.1)"),
             "# One hex a line, column by column.  Fields: id (CCRR: column, row), terrain\n"
             "# (clear, woods, rough, town, city), hilltop (optional, 9.1), name (printed place\n"
             "# name), objective (city or town: a red-bordered objective hex, Exclusive 12.0),\n"
             "# red_star (one of the three primary Eindhoven bridge hexes, Exclusive 12.0).\n"
             "# The WGS84 position of any hex centre: to_geo() in tools/build_koenig_map.py.\n",
             "hexes = ["]
    for col, row in HEXES:
        ident = hex_id(col, row)
        fields = [f"id = {_q(ident)}", f"terrain = {_q(terrain[ident])}"]
        if ident in names:
            fields.append(f"name = {_q(names[ident])}")
        if ident in objective:
            fields.append(f"objective = {_q(objective[ident])}")
        if ident in stars:
            fields.append("red_star = true")
        lines.append("  { " + ", ".join(fields) + " },")
    lines.append("]")
    (out / "hexes.toml").write_text("\n".join(lines) + "\n")


def _write_hexsides(out: Path, sides: dict[tuple[str, str], dict[str, object]]) -> None:
    lines = [HEADER.format(what="hexsides (8.1, 8.1.1, 9.1, Exclusive 9.1.1)"),
             "# Only hexsides with a feature are listed, one a line; roads are in roads.toml.\n"
             "# Fields: hexes (the two hexes it separates), river (8.1.1: no crossing except at\n"
             "# a bridge; the Dommel, the Wilhelmina canal and the Eindhovensch Kanaal), stream,\n"
             "# slope, bridge (large: one of the three core Eindhoven bridges; small: any other),\n"
             "# bridge_name, name (the waterway).\n",
             "hexsides = ["]
    for (a, b), rec in sorted(sides.items()):
        fields = [f"hexes = [{_q(a)}, {_q(b)}]"]
        if rec.get("river"):
            fields.append("river = true")
        if rec.get("stream") and not rec.get("river"):
            fields.append("stream = true")
        if "bridge" in rec:
            fields.append(f"bridge = {_q(str(rec['bridge']))}")
            fields.append(f"bridge_name = {_q(str(rec['bridge_name']))}")
        names = rec.get("names", [])
        assert isinstance(names, list)
        fields.append(f"name = {_q(' / '.join(dict.fromkeys(names)))}")
        lines.append("  { " + ", ".join(fields) + " },")
    lines.append("]")
    (out / "hexsides.toml").write_text("\n".join(lines) + "\n")


def _write_roads(out: Path, roads: Iterable[tuple[str, str | None, list[str]]]) -> None:
    lines = [HEADER.format(what="roads (8.1.2) and entry roads A-F (Exclusive 8.5)"),
             "# Each road is a path of hexes, each adjacent to the next: every pair of\n"
             "# consecutive hexes is a road hexside (8.1.2).  A road with an `entry` letter\n"
             "# ends at its entry hex on the map edge (`edge`: the side of the map, Exclusive\n"
             "# 8.5: A and B on the north-east (left) side, C and D on the north-west (bottom)\n"
             "# side; E and F on the south-west (right) side, a reconstruction choice).\n"]
    edges = {"A": "northeast", "B": "northeast", "C": "northwest", "D": "northwest",
             "E": "southwest", "F": "southwest"}
    for name, letter, path in roads:
        lines.append("[[roads]]")
        lines.append(f"name = {_q(name)}")
        if letter:
            lines.append(f"entry = {_q(letter)}")
            lines.append(f"edge = {_q(edges[letter])}")
        lines.append("hexes = [" + ", ".join(_q(h) for h in path) + "]")
        lines.append("")
    (out / "roads.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    build()
