"""The rulebook's stated facts as checks on the scenario data (``referee scenario check``).

Every check quotes or names the seed's statement it enforces; a reconstruction that breaks
one is reported in a sentence.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from referee.core.scenario import ScenarioError
from referee.games.arnhem44.board import KINDS
from referee.games.arnhem44.scenario import Scenario, load_scenario

STREAMS = ("Nederrijn", "Waal", "Maas")


def check_scenario(path: Path | None = None) -> list[str]:
    """Every problem of a scenario folder: its schema, then the rulebook's facts."""
    try:
        scenario = load_scenario(path)
    except ScenarioError as error:
        return list(error.problems)
    return facts(scenario)


def facts(s: Scenario) -> list[str]:
    out: list[str] = []
    meta = s.meta
    ids = [x.id for x in s.sectors]
    known = set(ids)
    for sid, n in Counter(ids).items():
        if n > 1:
            out.append(f"sectors.toml: sector '{sid}' is listed {n} times")
    # The Map: five types, each with the same three numbers, within the stated ranges.
    if set(meta.types) != {"open-field", "forest", "polder", "village", "town"}:
        out.append("scenario.toml: The Map has 5 types of sectors: open field, forest, polder, "
                   "village and town/bunker")
    if meta.types["forest"].numbers != (6, 4, 2):
        out.append("scenario.toml: forest numbers are 6, 4, 2 (The Map: infantry in the FOREST "
                   "must roll 6 or less; tanks hit with 40%, artillery with 20%)")
    for sector in s.sectors:
        numbers = sector.numbers or meta.types[sector.type].numbers
        inf, tank, art = numbers
        if not (4 <= inf <= 7 and 2 <= tank <= 7 and 2 <= art <= 6):
            out.append(f"sector '{sector.id}': numbers {list(numbers)} outside The Map's ranges "
                       "(infantry 4-7, tanks 2-7, artillery 2-6)")
    # Adjacency: each border once, between known sectors; a connected map.
    seen: Counter[tuple[str, str]] = Counter()
    for border in s.borders:
        for end in (border.a, border.b):
            if end not in known:
                out.append(f"borders.toml: border {border.a}|{border.b} names an unknown sector "
                           f"'{end}'")
        if border.a == border.b:
            out.append(f"borders.toml: border {border.a}|{border.b} joins a sector to itself")
        seen[(min(border.a, border.b), max(border.a, border.b))] += 1
        if border.kind == "plain" and (border.water or border.bridge or border.ferry):
            out.append(f"borders.toml: plain border {border.a}|{border.b} names a waterway, "
                       "bridge or ferry")
        if border.kind == "stream" and border.water not in STREAMS:
            out.append(f"borders.toml: {border.a}|{border.b} is deep blue but '{border.water}' is "
                       "not one of the 3 streams (Waterways: Nieder-Rhine, Waal and Maas)")
        if border.kind == "waterway" and border.water in STREAMS:
            out.append(f"borders.toml: {border.a}|{border.b} crosses the {border.water}, a "
                       "deep-blue stream, not a light-blue canal or river")
    for pair, n in seen.items():
        if n > 1:
            out.append(f"borders.toml: border {pair[0]}|{pair[1]} is listed {n} times (each "
                       "border once, the same from either side)")
    adjacency: dict[str, set[str]] = {sid: set() for sid in known}
    for a, b in seen:
        if a in known and b in known:
            adjacency[a].add(b)
            adjacency[b].add(a)
    if ids:
        reach = {ids[0]}
        todo = [ids[0]]
        while todo:
            for there in adjacency[todo.pop()]:
                if there not in reach:
                    reach.add(there)
                    todo.append(there)
        if reach != known:
            out.append(f"the map is not connected: {len(known - reach)} sectors cannot be reached")
    # Bridges: 13 (9 small on rivers/canals, 4 major on the streams), values summing to 100.
    bridges = s.crossings.bridges
    kinds = Counter(b.kind for b in bridges)
    if len(bridges) != 13 or kinds["small"] != 9 or kinds["major"] != 4:
        out.append(f"crossings.toml: {len(bridges)} bridges ({kinds['small']} small, "
                   f"{kinds['major']} major); Waterways and components: 13 bridges, 9 small and "
                   "4 major")
    total = sum(b.value for b in bridges)
    if total != meta.bridge_points:
        out.append(f"crossings.toml: bridge values sum to {total}, not {meta.bridge_points} (At "
                   "the start of the game the total value of the bridges represents 100 points)")
    if bridges and max(bridges, key=lambda b: b.value).id != "Arnhem-bridge":
        out.append("crossings.toml: the bridge at Arnhem holds the highest value (Winning)")
    on_border = {(min(b.a, b.b), max(b.a, b.b)): b for b in s.borders}
    for bridge in bridges:
        found = on_border.get((min(bridge.a, bridge.b), max(bridge.a, bridge.b)))
        want = "stream" if bridge.kind == "major" else "waterway"
        if found is None:
            out.append(f"bridge {bridge.id}: {bridge.a} and {bridge.b} are not adjacent")
        elif found.kind != want or found.bridge != bridge.id:
            out.append(f"bridge {bridge.id}: a {bridge.kind} bridge stands on a "
                       f"{'stream' if bridge.kind == 'major' else 'river or canal'} and its "
                       f"border must name it (Bridges)")
    named = [b.bridge for b in s.borders if b.bridge]
    if sorted(named) != sorted(b.id for b in bridges):
        out.append("borders.toml: the bridges named on borders differ from crossings.toml")
    # Ferries: 5, each on a waterway.
    ferries = s.crossings.ferries
    if len(ferries) != 5:
        out.append(f"crossings.toml: {len(ferries)} ferries; the board has 5 ferry indicators")
    for ferry in ferries:
        link = on_border.get((min(ferry.a, ferry.b), max(ferry.a, ferry.b)))
        if link is None or link.kind == "plain" or link.ferry != ferry.id:
            out.append(f"ferry {ferry.id}: not on a waterway border that names it (Ferry)")
    # Drop zones: 6, numbered 1-6, each 10 green and 10 black markers on sectors.
    zones = s.crossings.drop_zones
    if sorted(z.number for z in zones) != [1, 2, 3, 4, 5, 6]:
        out.append("crossings.toml: drop zones are numbered 1 to 6 (Drop Zones)")
    for zone in zones:
        if len(zone.green) != 10 or len(zone.black) != 10:
            out.append(f"drop zone {zone.number}: exactly 10 green and 10 black markers "
                       "(Drop Zones)")
        for sid in [zone.centre, *zone.green, *zone.black]:
            if sid not in known:
                out.append(f"drop zone {zone.number}: unknown sector '{sid}'")
    # Start sectors and flags.
    starts = [x for x in s.sectors if x.start]
    if sorted(x.start or "" for x in starts) != ["centre", "east", "west"]:
        out.append("sectors.toml: three start sectors (west, centre, east) south of the "
                   "Scheldt-Maas canal (The Allied Player's Turn to Set Up: 4 artillery + 5 "
                   "others per sector, 27 units)")
    for x in starts:
        if x.above_canal or x.above_rhine:
            out.append(f"sector '{x.id}': a start sector lies below the canal and the Rhine")
    if not any(x.flag and x.above_rhine for x in s.sectors):
        out.append("sectors.toml: no German flag sector above the Rhine (Phase 6.3)")
    # Units (The Units).
    kinds_info = meta.kinds
    expected = {"inf": (2, 2, 2, 2), "tank": (4, 3, 4, 4), "art": (6, 2, 2, 2)}
    for name, (fp, hp_a, hp_g, mp) in expected.items():
        info = kinds_info.get(name)  # type: ignore[call-overload]
        if info is None or (info.fp, info.hp.get("allied"), info.hp.get("german"), info.mp) != (
            fp, hp_a, hp_g, mp
        ):
            out.append(f"scenario.toml: {name} has firepower {fp}, hit points {hp_a} (Allied) / "
                       f"{hp_g} (German), movement {mp} (The Units)")
    artillery_info = kinds_info.get("art")
    if artillery_info is None or artillery_info.at_fp != {"allied": 2, "german": 3}:
        out.append("scenario.toml: artillery as an anti-tank weapon rolls 2 (Allied) or 3 "
                   "(German) dice")
    # Forces.
    f = s.forces
    pool = Counter({(p.group, p.kind): p.count for p in f.allied_setup})
    allied = sum(pool.values())
    artillery = sum(n for (_, k), n in pool.items() if k == "art")
    if allied != 42 or artillery != 12:
        out.append(f"forces.toml: the Allied set-up has {allied} units with {artillery} "
                   "artillery; the seed: 42 units available at set up, 12 artillery")
    if any(group not in ("UK", "US") for group, _ in pool):
        out.append("forces.toml: the Allied set-up holds ground units only (UK, US)")
    for icon in f.reserve_icons:
        kind, _, group = icon.partition("/")
        if kind not in KINDS or group not in ("UK", "US"):
            out.append(f"forces.toml: reserve icon '{icon}' is not KIND/UK or KIND/US")
    for entry in f.german_setup:
        if entry.above_canal == (entry.sector is not None):
            out.append("forces.toml: a set-up entry names a sector or is 'above the canal'")
        if entry.sector is not None and entry.sector not in known:
            out.append(f"forces.toml: set-up entry in unknown sector '{entry.sector}'")
    oosterbeek = [e for e in f.german_setup if e.sector == "Oosterbeek" and e.zones == 0]
    if not any(e.units == {"tank": 1, "inf": 1} for e in oosterbeek):
        out.append("forces.toml: the set-up table places a tank and an infantry unit at "
                   "Oosterbeek (The German Player Goes First, example)")
    first = [r for r in f.german_reserves if r.round == 1]
    if not any(r.above_rhine and r.units == {"inf": 2, "tank": 2, "art": 1} for r in first):
        out.append("forces.toml: round 1 brings 5 German units above the Rhine: 2 infantry, 2 "
                   "tanks and 1 artillery (Phase 6.3)")
    crates = len(f.setup_crates) + sum(len(r.crates) for r in f.german_reserves)
    if len(f.setup_crates) != 5 or crates != 12:
        out.append(f"forces.toml: {len(f.setup_crates)} crates at set-up and {crates} in all; "
                   "the seed: 5 crates at set-up, another 7 later, 12 in all")
    if sorted({a.round for a in f.airborne}) != [1, 3, 7]:
        out.append("forces.toml: the airborne troops arrive in round 1, 3 and 7")
    landed = sum(a.supplies for a in f.airborne)
    if landed > meta.supply_tokens:
        out.append(f"forces.toml: the landings bring {landed} supply tokens; the box has "
                   f"{meta.supply_tokens}")
    if not any(d.group == "1AB" and d.first_round == 5 and d.every == 2 and d.tokens == 3
               for d in f.supply_drops):
        out.append("forces.toml: the 1st Airborne receives fresh supplies in round 5, 7, 9, 11 "
                   "and so forth; 3 units of supplies each time (Phase 2.2)")
    if meta.supply_tokens != 29:
        out.append("scenario.toml: the box holds 29 supply tokens")
    german = sum(sum(e.units.values()) for e in f.german_setup) + sum(
        sum(r.units.values()) for r in f.german_reserves
    )
    airborne = sum(sum(a.units.values()) for a in f.airborne)
    figures = allied + len(f.reserve_icons) + german + airborne
    if figures > meta.figures:
        out.append(f"the forces hold {figures} figures; the box has about {meta.figures}")
    return out
