"""Build the Arnhem '44 sector map from the WWII Commander map of the same corridor.

RECONSTRUCTION.  The Arnhem '44 rulebook (the seed) prints the rules, not the board.  This
script derives a sector map from ``scenarios/wwiic/market-garden/`` (sourced coordinates,
adjacency, canals and rivers): it merges thirteen pairs of small neighbouring spaces, adds the
three Allied start sectors south of the Scheldt-Maas canal, maps terrain to the five sector
types, sorts every waterway into light blue (canals, rivers) or deep blue (Nederrijn, Waal,
Maas), and computes the "above the Rhine" / "above the canal" flags, the German flag sectors
and the drop-zone markers.  Its output, ``scenarios/arnhem44/standard/sectors.toml`` and
``borders.toml``, is committed; run ``python tools/build_arnhem44_map.py`` to rebuild them
after changing the tables below.  NOTES.md in that folder explains every choice.

An owner of the printed board does not need this script: edit the TOML files directly.
"""

from __future__ import annotations

import tomllib
from collections import deque
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WWIIC = ROOT / "scenarios" / "wwiic" / "market-garden"
OUT = ROOT / "scenarios" / "arnhem44" / "standard"

# (kept, absorbed): two neighbouring spaces with a plain border between them become one sector
MERGES = [
    ("Luyksgestel", "Weebosch"), ("Eersel", "Reithoven"), ("Maarheeze", "Leende"),
    ("Someren", "Asten"), ("Deurne", "Bakel"), ("Sint Anthonis", "De Rips"),
    ("Boxmeer", "Oeffelt"), ("Liempde", "Herkenshagen"), ("Barneveld", "Kootwijk"),
    ("Apeldoorn", "Hoog Soeren"), ("Eerbeek", "Loenen"), ("Veenendaal", "Lunteren"),
    ("Leuth", "Zijfflich"),
]

# The three start sectors south of the Scheldt-Maas (Bocholt-Herentals) canal
# (coordinates from wwiic-geography.md; Hamont approximate).
STARTS = [
    {"id": "Start-West", "name": "Lommel", "start": "west", "lat": 51.2307, "lon": 5.3135,
     "x": 21.8, "y": 2.0, "north": ["Luyksgestel"]},
    {"id": "Start-Centre", "name": "Neerpelt", "start": "centre", "lat": 51.2281, "lon": 5.4427,
     "x": 28.0, "y": 1.0, "north": ["De Groote", "Achel"]},
    {"id": "Start-East", "name": "Hamont", "start": "east", "lat": 51.2520, "lon": 5.5470,
     "x": 35.5, "y": 2.0, "north": ["Achel", "Budel"]},
]
# Joe's Bridge: the only bridge over the Scheldt-Maas canal on the board.
JOES_BRIDGE = ("Start-Centre", "De Groote")

TYPE_OF_TERRAIN = {"clear": "open-field", "polder": "polder", "woods": "forest",
                   "city": "town"}

STREAMS = ("Nederrijn", "Waal", "Maas")

# Bridges: (id, name, kind, a, b, value); major ones on the three streams.
BRIDGES = [
    ("Arnhem-bridge", "Arnhem road bridge", "major", "Arnhem", "Elden", 30),
    ("Nijmegen-bridge", "Nijmegen road bridge (Waalbrug)", "major", "Nijmegen", "Lent", 20),
    ("Grave-bridge", "Grave bridge", "major", "Grave", "Wijchen", 15),
    ("Oosterbeek-bridge", "Oosterbeek railway bridge", "major", "Oosterbeek", "Driel", 10),
    ("Joes-bridge", "Joe's Bridge", "small", "Start-Centre", "De Groote", 3),
    ("Son-bridge", "Son bridge", "small", "Eindhoven", "Zon", 3),
    ("Best-bridge", "Best bridge", "small", "Best", "Eindhoven", 2),
    ("Veghel-bridge", "Veghel canal bridge", "small", "Doerhoek", "Veghel", 3),
    ("Heumen-bridge", "Heumen lock bridge", "small", "Mook", "Over Asselt", 3),
    ("Honinghutje-bridge", "Honinghutje bridge", "small", "Neerbosch", "St. Anna", 3),
    ("IJssel-bridge", "IJssel bridge Westervoort", "small", "Arnhem", "Westervoort", 3),
    ("Helmond-bridge", "Helmond canal bridge", "small", "Helmond", "Lieshout", 3),
    ("Beek-bridge", "Beek en Donk bridge", "small", "Beek", "Lieshout", 2),
]

# Ferries: (id, name, a, b)
FERRIES = [
    ("Renkum-ferry", "Renkum-Heteren ferry", "Renkum", "Heteren"),
    ("Driel-ferry", "Heveadorp-Driel ferry", "Doorwerth", "Driel"),
    ("Druten-ferry", "Druten-Dodewaard ferry", "Druten", "Dodewaard"),
    ("Pannerden-ferry", "Pannerden ferry", "Doornenburg", "Duiven"),
    ("Ravenstein-ferry", "Ravenstein ferry", "Ravenstein", "Wijchen"),
]

# Drop zones: number -> (name, airborne group, centre sector)
DROP_ZONES = {
    1: ("Wolfheze-Renkum heath", "1AB", "Wolfheze"),
    2: ("Ginkel Heath", "1AB", "Heide"),
    3: ("Driel", "PL", "Driel"),
    4: ("Groesbeek heights", "82", "Groesbeek"),
    5: ("Overasselt", "82", "Over Asselt"),
    6: ("Son-Veghel", "101", "St. Oedenrode"),
}

# Green markers the seed itself places: Anti-Aircraft Fire, "The German player decides to
# intercept the paratroopers at Veghel and positions his three units ... in the drop zone. Four
# Allied units land in that zone": Veghel is a landing sector of the 101st's zone (the
# historical DZ A of the 501st lay between Veghel and Eerde).  (zone, marker) -> sector, in
# place of the cycled repeat at that marker (here the second Liempde).
SEED_MARKERS = {(6, 7): "Veghel"}


def load() -> tuple[list[dict], list[dict], list[dict]]:
    spaces = tomllib.loads((WWIIC / "spaces.toml").read_text())["spaces"]
    borders = tomllib.loads((WWIIC / "borders.toml").read_text())["borders"]
    boxes = tomllib.loads((WWIIC / "boxes.toml").read_text())["boxes"]
    return spaces, borders, boxes


def water_of(border: dict) -> str:
    notes = border.get("notes", "")
    if "IJssel and Nederrijn" in notes or "Oosterbeek foot crossing" in notes:
        return "Nederrijn"
    for name in ("Maas-Waal canal", "Wilhelmina canal", "Zuid-Willemsvaart",
                 "Pannerdens Kanaal", "IJssel"):
        if name in notes:
            return name
    for stream in STREAMS:
        if stream in notes:
            return stream
    raise SystemExit(f"border {border['a']}|{border['b']}: which waterway? ({notes!r})")


def build() -> tuple[list[dict], list[dict]]:
    spaces, borders, boxes = load()
    into = {absorbed: kept for kept, absorbed in MERGES}
    sectors: dict[str, dict] = {}
    members: dict[str, list[dict]] = {}
    for space in spaces:
        sid = into.get(space["id"], space["id"])
        members.setdefault(sid, []).append(space)
    for sid, group in members.items():
        head = next(s for s in group if s["id"] == sid)
        terrain = head["terrain"]
        if terrain == "mixed":
            kind = "village" if head.get("town") else "open-field"
        else:
            kind = TYPE_OF_TERRAIN[terrain]
        sectors[sid] = {
            "id": sid, "name": head.get("name", sid), "type": kind,
            "x": round(sum(s["x"] for s in group) / len(group), 1),
            "y": round(sum(s["y"] for s in group) / len(group), 1),
            "lat": head["lat"], "lon": head["lon"],
            "merged": [s["id"] for s in group if s["id"] != sid],
            "aliases": list(head.get("aliases", [])) + [s["id"] for s in group if s["id"] != sid],
        }
    for start in STARTS:
        sectors[start["id"]] = {
            "id": start["id"], "name": start["name"], "type": "open-field", "x": start["x"],
            "y": start["y"], "lat": start["lat"], "lon": start["lon"], "merged": [],
            "aliases": [start["name"]], "start": start["start"],
        }
    links: dict[tuple[str, str], dict] = {}
    for border in borders:
        a, b = into.get(border["a"], border["a"]), into.get(border["b"], border["b"])
        if a == b:
            continue
        key = (min(a, b), max(a, b))
        kind = border.get("kind", "plain")
        entry = {"a": key[0], "b": key[1], "kind": "plain"}
        if kind != "plain":
            water = water_of(border)
            entry = {"a": key[0], "b": key[1],
                     "kind": "stream" if water in STREAMS else "waterway", "water": water}
        old = links.get(key)
        if old is not None and old["kind"] != entry["kind"]:
            raise SystemExit(f"merging makes {key} both {old['kind']} and {entry['kind']}")
        links[key] = entry
    # the start sectors: plain between each other, the Scheldt-Maas canal to the north
    order = [s["id"] for s in STARTS]
    for left, right in pairwise(order):
        key = (min(left, right), max(left, right))
        links[key] = {"a": key[0], "b": key[1], "kind": "plain"}
    for start in STARTS:
        for north in start["north"]:
            key = (min(start["id"], north), max(start["id"], north))
            links[key] = {"a": key[0], "b": key[1], "kind": "waterway",
                          "water": "Scheldt-Maas canal"}
    # the Pannerden ferry crosses the Pannerdens Kanaal between Doornenburg and Duiven
    key = ("Doornenburg", "Duiven")
    links.setdefault(key, {"a": key[0], "b": key[1], "kind": "waterway",
                           "water": "Pannerdens Kanaal"})
    for bid, _name, kind, a, b, _value in BRIDGES:
        key = (min(a, b), max(a, b))
        link = links[key]
        want = "stream" if kind == "major" else "waterway"
        if link["kind"] != want:
            raise SystemExit(f"bridge {bid}: {key} is {link['kind']}, not {want}")
        link["bridge"] = bid
    for fid, _name, a, b in FERRIES:
        key = (min(a, b), max(a, b))
        if links[key]["kind"] == "plain":
            raise SystemExit(f"ferry {fid}: {key} is not a waterway")
        links[key]["ferry"] = fid
    adjacency: dict[str, set[str]] = {s: set() for s in sectors}
    for a, b in links:
        adjacency[a].add(b)
        adjacency[b].add(a)
    # above the Rhine: reachable from Apeldoorn without crossing the Nederrijn, the Waal or the
    # Pannerdens Kanaal; above the canal: every sector but the three start sectors.
    cut = {k for k, v in links.items() if v.get("water") in ("Nederrijn", "Waal",
                                                               "Pannerdens Kanaal")}
    north = component("Apeldoorn", adjacency, cut)
    flags = set()
    for box in boxes:
        for item in box.get("adjoins", []):
            space = item["space"] if isinstance(item, dict) else item
            flags.add(into.get(space, space))
    flags |= {"Arnhem", "Ede", "Deelen", "Oss"}
    flags -= {s["id"] for s in STARTS}
    for sid, sector in sectors.items():
        sector["above_rhine"] = sid in north
        sector["above_canal"] = "start" not in sector
        sector["flag"] = sid in flags
    for number, (_name, _group, centre) in DROP_ZONES.items():
        ring = rings(centre, adjacency, {k for k, v in links.items() if v["kind"] == "stream"})
        near = [s for d in (0, 1) for s in ring.get(d, [])]
        wide = [s for d in (1, 2) for s in ring.get(d, [])]
        sectors[centre]["drop_zone"] = number
        green = cycle(near, 10)
        for (zone, marker), sector in SEED_MARKERS.items():
            if zone == number:
                green[marker] = sector
        zone_markers[number] = (green, cycle(wide, 10))
    # a log word cannot start with an apostrophe: the id is written without it (the name keeps it)
    for old, new in RENAMES.items():
        sector = sectors.pop(old)
        sector["id"] = new
        sector["aliases"].insert(0, old)
        sectors[new] = sector
        for link in links.values():
            for end in ("a", "b"):
                if link[end] == old:
                    link[end] = new
    return list(sectors.values()), sorted(links.values(), key=lambda x: (x["a"], x["b"]))


RENAMES = {"'s-Hertogenbosch": "s-Hertogenbosch"}


zone_markers: dict[int, tuple[list[str], list[str]]] = {}


def cycle(names: list[str], count: int) -> list[str]:
    return [names[i % len(names)] for i in range(count)]


def component(root: str, adjacency: dict[str, set[str]], cut: set[tuple[str, str]]) -> set[str]:
    seen = {root}
    queue = deque([root])
    while queue:
        here = queue.popleft()
        for there in adjacency[here]:
            if (min(here, there), max(here, there)) in cut or there in seen:
                continue
            seen.add(there)
            queue.append(there)
    return seen


def rings(root: str, adjacency: dict[str, set[str]],
          cut: set[tuple[str, str]]) -> dict[int, list[str]]:
    """Sectors by distance from ``root`` (not across a deep-blue stream), nearest first."""
    dist = {root: 0}
    queue = deque([root])
    while queue:
        here = queue.popleft()
        for there in sorted(adjacency[here]):
            if (min(here, there), max(here, there)) in cut or there in dist:
                continue
            dist[there] = dist[here] + 1
            queue.append(there)
    out: dict[int, list[str]] = {}
    for name, d in sorted(dist.items(), key=lambda kv: (kv[1], kv[0])):
        out.setdefault(d, []).append(name)
    return out


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


HEADER = """# Arnhem '44 - {what}
#
# RECONSTRUCTION, generated by tools/build_arnhem44_map.py from the WWII Commander map of the
# same corridor (scenarios/wwiic/market-garden/, sourced coordinates).  The rulebook prints the
# rules, not the board; NOTES.md in this folder gives every source and choice.  An owner of
# the printed board replaces any value by editing this file (no code changes): {how}
"""


def write_sectors(sectors: list[dict]) -> str:
    lines = [HEADER.format(
        what="sectors (The Map)",
        how="keep `id` as the name printed on\n# the board, set `type` (open-field, forest, "
            "polder, village, town) and, where the board's\n# numbers differ from the type's, "
            "`numbers = [infantry, tanks, artillery]`; x/y are drawing\n# positions in km "
            "(east of 5.0 E, north of 51.2 N).",
    )]
    for s in sectors:
        lines.append("[[sectors]]")
        lines.append(f"id = {q(s['id'])}")
        if s["name"] != s["id"]:
            lines.append(f"name = {q(s['name'])}")
        lines.append(f"type = {q(s['type'])}")
        lines.append(f"x = {s['x']}")
        lines.append(f"y = {s['y']}")
        lines.append(f"lat = {s['lat']}")
        lines.append(f"lon = {s['lon']}")
        lines.append(f"above_rhine = {str(s['above_rhine']).lower()}")
        lines.append(f"above_canal = {str(s['above_canal']).lower()}")
        if s["flag"]:
            lines.append("flag = true")
        if "start" in s:
            lines.append(f"start = {q(s['start'])}")
        if s["aliases"]:
            lines.append("aliases = [" + ", ".join(q(a) for a in s["aliases"]) + "]")
        if s["merged"]:
            lines.append("merged = [" + ", ".join(q(a) for a in s["merged"]) + "]")
        lines.append("")
    return "\n".join(lines)


def write_borders(borders: list[dict]) -> str:
    lines = [HEADER.format(
        what="adjacency and waterways (The Map, Waterways)",
        how="each border is listed once;\n# kind = plain | waterway (light blue: canal or "
            "river) | stream (deep blue: Nederrijn, Waal,\n# Maas); water names it; bridge and "
            "ferry name the bridge (bridges.toml) or ferry on it.",
    )]
    for b in borders:
        lines.append("[[borders]]")
        lines.append(f"a = {q(b['a'])}")
        lines.append(f"b = {q(b['b'])}")
        if b["kind"] != "plain":
            lines.append(f"kind = {q(b['kind'])}")
            lines.append(f"water = {q(b['water'])}")
        if "bridge" in b:
            lines.append(f"bridge = {q(b['bridge'])}")
        if "ferry" in b:
            lines.append(f"ferry = {q(b['ferry'])}")
        lines.append("")
    return "\n".join(lines)


def write_crossings() -> str:
    lines = [HEADER.format(
        what="bridges, ferries and drop zones (Bridges, Ferry, Drop Zones)",
        how="set `value` from the\n# bridge value chart (the values must sum to 100), move a "
            "bridge or ferry by changing a/b\n# (and the border in borders.toml), and list the "
            "printed drop markers: green[k] is the\n# sector of green marker k (0-9), black[k] "
            "the sector of black marker k.",
    )]
    for bid, name, kind, a, b, value in BRIDGES:
        lines += ["[[bridges]]", f"id = {q(bid)}", f"name = {q(name)}", f"kind = {q(kind)}",
                  f"a = {q(a)}", f"b = {q(b)}", f"value = {value}", ""]
    for fid, name, a, b in FERRIES:
        lines += ["[[ferries]]", f"id = {q(fid)}", f"name = {q(name)}", f"a = {q(a)}",
                  f"b = {q(b)}", ""]
    for number, (name, group, centre) in DROP_ZONES.items():
        green, black = zone_markers[number]
        lines += ["[[drop_zones]]", f"number = {number}", f"name = {q(name)}",
                  f"group = {q(group)}", f"centre = {q(centre)}",
                  "green = [" + ", ".join(q(s) for s in green) + "]",
                  "black = [" + ", ".join(q(s) for s in black) + "]", ""]
    return "\n".join(lines)


def main() -> None:
    sectors, borders = build()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "sectors.toml").write_text(write_sectors(sectors))
    (OUT / "borders.toml").write_text(write_borders(borders))
    (OUT / "crossings.toml").write_text(write_crossings())
    print(f"{len(sectors)} sectors, {len(borders)} borders")


if __name__ == "__main__":
    main()
