"""The rulebook facts the Market-Garden scenario data must satisfy.

The rulebook does not print the map or the counters, but its examples pin many details down:
who is adjacent to whom, which border is a canal, which space is a city, which unit has which
hit chance.  Each fact below is one example (or rule) turned into a check; ``check_facts``
returns one sentence per broken fact, so an owner who types in the printed map learns at once
where it disagrees with the rulebook (or where this reconstruction did).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from itertools import pairwise
from pathlib import Path

from referee.core.names import normalise
from referee.games.wwiic.loader import load_scenario
from referee.games.wwiic.scenario import Scenario, ScenarioError, Unit

Fact = Callable[[Scenario], list[str]]


def _adjacent(s: Scenario, a: str, b: str) -> bool:
    return s.border(a, b) is not None


def _need_spaces(s: Scenario, *ids: str) -> list[str]:
    return [f"the map has no space '{i}'" for i in ids if not s.has_space(i)]


def _expect_adjacent(s: Scenario, a: str, others: Iterable[str], rule: str) -> list[str]:
    return [f"{a} must be adjacent to {b} ({rule})" for b in others if not _adjacent(s, a, b)]


def _distance(s: Scenario, a: str, b: str) -> int | None:
    """Fewest borders crossed from ``a`` to ``b`` (None when unreachable)."""
    seen = {a: 0}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for nxt in s.neighbours(here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def _plain_off_road(s: Scenario, a: str, b: str) -> bool:
    """a and b share a plain border with no road across it."""
    border = s.border(a, b)
    return border is not None and border.kind == "plain" and not border.road


def _bridged(s: Scenario, a: str, b: str) -> bool:
    border = s.border(a, b)
    return border is not None and border.bridge


def _kind(s: Scenario, a: str, b: str) -> str | None:
    border = s.border(a, b)
    return None if border is None else border.kind


def _stops_mover(s: Scenario, a: str, b: str) -> bool:
    """Crossing a-b ends a move at once or is impossible: unbridged canal or river (6.3)."""
    border = s.border(a, b)
    return border is None or (border.kind != "plain" and not border.bridge)


def fact_map_key_de_groote(s: Scenario) -> list[str]:
    """2.1, 3.E, 8., 11.1: De Groote on the south edge, 30 Corps source, 0 VPs, Club Route 1."""
    problems = _need_spaces(s, "De Groote", "Westerhoven", "Bergeijk")
    if problems:
        return problems
    g = s.space("De Groote")
    if "south" not in g.edges:
        problems.append("De Groote must lie on the south edge of the map (2.1)")
    if g.supply_source != ["30C"] or s.supply_sources("30C") != ["De Groote"]:
        problems.append("De Groote must be the (only) 30 Corps supply source (8.)")
    if g.vp != 0 or g.club_route != 1:
        problems.append("De Groote must be the 0-VP objective at the start of Club Route (11.1)")
    if not _adjacent(s, "De Groote", "Westerhoven"):
        problems.append("De Groote must be adjacent to Westerhoven (2.1)")
    if _adjacent(s, "De Groote", "Bergeijk"):
        problems.append("De Groote must not be adjacent to Bergeijk: they meet at a vertex (2.1)")
    if s.tracks.setup.objective_marker != "De Groote":
        problems.append("the Objective VPs marker must start in De Groote (3.E)")
    return problems


CLUB_ROUTE_ORDER = (
    "De Groote", "Valkenswaard", "Waalre", "Eindhoven", "Zon", "St. Oedenrode", "Doerhoek",
    "Veghel", "Uden", "Zeeland", "Grave", "Nijmegen", "Arnhem",
)
CLUB_ROUTE_RUN = ("Eindhoven", "Zon", "St. Oedenrode", "Doerhoek", "Veghel", "Uden", "Zeeland")


def fact_strategic_movement_example_club_route(s: Scenario) -> list[str]:
    """2.1, 6.4 example, 11.1: Club Route runs De Groote ... Arnhem, continuously by road."""
    route = s.club_route()
    problems = [f"Club Route must pass through {name}" for name in CLUB_ROUTE_ORDER
                if name not in route]
    if problems:
        return problems
    positions = [route.index(name) for name in CLUB_ROUTE_ORDER]
    if positions != sorted(positions) or route[0] != "De Groote" or route[-1] != "Arnhem":
        problems.append("Club Route must run from De Groote through Valkenswaard, Waalre, "
                        "Eindhoven ... Grave, Nijmegen to Arnhem, in that order")
    start = route.index(CLUB_ROUTE_RUN[0])
    if tuple(route[start:start + len(CLUB_ROUTE_RUN)]) != CLUB_ROUTE_RUN:
        problems.append("Club Route must run Eindhoven, Zon, St. Oedenrode, Doerhoek, Veghel, "
                        "Uden, Zeeland with nothing between (6.4 and 2.2 examples)")
    for a, b in pairwise(route):
        border = s.border(a, b)
        if border is None or not border.road:
            problems.append(f"Club Route spaces {a} and {b} must be joined by road (2.1)")
    if "Heeze" in route:
        problems.append("Heeze must be off Club Route (6.4 example C)")
    if "Nederwetten" in route:
        problems.append("Nederwetten is not a Club Route space in this reconstruction: Zon is "
                        "(NOTES.md, 'Zon or Nederwetten')")
    return problems


def fact_victory_objective_values(s: Scenario) -> list[str]:
    """11.1, 11.3: objective VPs rise along Club Route from 0 to 24; 10, 14, 18 exist."""
    problems: list[str] = []
    values = [vp for vp in (s.space(i).vp for i in s.club_route()) if vp is not None]
    if values != sorted(values) or len(set(values)) != len(values):
        problems.append("objective VPs must rise strictly along Club Route (11.1)")
    expected = {"De Groote": 0, "Grave": 10, "Nijmegen": 16, "Arnhem": 24}
    for name, vp in expected.items():
        if s.has_space(name) and s.space(name).vp != vp:
            problems.append(f"{name} must be worth {vp} objective VPs (11.1, 11.3)")
    if values and max(values) != 24:
        problems.append("Arnhem's 24 VPs must be the highest objective value (11.1)")
    for turn in s.tracks.turns:
        if turn.german_threshold is not None and turn.german_threshold not in values:
            problems.append(f"an objective worth {turn.german_threshold} VPs must exist for the "
                            f"turn-{turn.number} threshold (11.3)")
    return problems


def fact_general_movement_example_mook_neighbours(s: Scenario) -> list[str]:
    """6. General Movement and 7.6 Retreat Options examples: Mook and its neighbours."""
    names = ("Mook", "Groesbeek", "St. Anna", "Hengstal", "Nijmegen", "Cuyk", "Over Asselt")
    problems = _need_spaces(s, *names)
    if problems:
        return problems
    if s.space("Mook").terrain != "woods":
        problems.append("Mook must be woods (7.6 Retreat Options: hits reduced for woods)")
    problems += _expect_adjacent(s, "Mook", names[1:], "6., 7.6 examples")
    cuyk = s.border("Mook", "Cuyk")
    if cuyk is not None and (cuyk.kind != "river" or cuyk.bridge):
        problems.append("Mook-Cuyk must be an unbridged river boundary (6. example)")
    asselt = s.border("Mook", "Over Asselt")
    if asselt is not None and (asselt.kind != "canal" or asselt.bridge):
        problems.append("Mook-Over Asselt must be an unbridged canal boundary (6. examples)")
    return problems


def fact_two_space_movement_example_st_anna(s: Scenario) -> list[str]:
    """6. Two-space Movement example: the spaces around St. Anna."""
    names = ("St. Anna", "Neerbosch", "Weurt", "Nijmegen", "Mook", "Wijchen", "Over Asselt",
             "Ewijk", "Hengstal", "Groesbeek")
    problems = _need_spaces(s, *names)
    if problems:
        return problems
    problems += _expect_adjacent(s, "St. Anna", ("Neerbosch", "Weurt", "Nijmegen", "Mook"),
                                 "6. two-space example")
    problems += _expect_adjacent(s, "Neerbosch", ("Wijchen", "Over Asselt"),
                                 "6. two-space example")
    weurt = s.border("St. Anna", "Weurt")
    if weurt is not None and (weurt.kind != "canal" or weurt.bridge):
        problems.append("St. Anna-Weurt must be an unbridged canal boundary (6. example)")
    for a, b in (("St. Anna", "Neerbosch"), ("Neerbosch", "Wijchen")):
        border = s.border(a, b)
        if border is None or not border.road:
            problems.append(f"{a}-{b} must be a road connection (6.1 example)")
    step = s.border("Neerbosch", "Over Asselt")
    if step is not None and step.kind != "plain":
        problems.append("Neerbosch-Over Asselt must not cross a canal, river or bridge: units "
                        "move two spaces into enemy-occupied Over Asselt that way (6. example)")
    asselt = s.space("Over Asselt")
    if asselt.terrain in ("polder", "woods") and not (step and step.road):
        problems.append("Over Asselt must not be polder or woods, or be entered by road from "
                        "Neerbosch: armor moves two spaces into it (6. example)")
    if s.space("Ewijk").terrain not in ("polder", "woods"):
        problems.append("Ewijk must be polder or woods: armor can't end a two-space move there "
                        "(6. example)")
    via = [m for m in s.neighbours("St. Anna")
           if not _stops_mover(s, "St. Anna", m) and _plain_off_road(s, m, "Ewijk")]
    if not via:
        problems.append("a recon unit in St. Anna must reach Ewijk in two moves, the second "
                        "not by road (6. example)")
    if not (_distance(s, "St. Anna", "Hengstal") or 9) <= 2:
        problems.append("Hengstal must be within two moves of St. Anna (6. example)")
    if not (_adjacent(s, "Mook", "Groesbeek") and _adjacent(s, "St. Anna", "Mook")):
        problems.append("St. Anna reaches Groesbeek in two moves through Mook (6. example)")
    return problems


def fact_movement_from_different_spaces_example_wijchen(s: Scenario) -> list[str]:
    """6.1 example: Wijchen, Appeltern, St. Anna and Zeeland."""
    problems = _need_spaces(s, "Wijchen", "Appeltern", "Zeeland")
    if problems:
        return problems
    if s.space("Wijchen").terrain not in ("polder", "woods"):
        problems.append("Wijchen must be polder or woods (6.1 example)")
    if _adjacent(s, "Appeltern", "Wijchen"):
        problems.append("Appeltern must be two spaces from Wijchen, not adjacent (6.1 example)")
    recon = [m for m in s.neighbours("Appeltern")
             if not _stops_mover(s, "Appeltern", m) and _plain_off_road(s, m, "Wijchen")]
    if not recon:
        problems.append("a recon unit in Appeltern must reach Wijchen in two moves, not by "
                        "road (6.1 example)")
    if _adjacent(s, "Zeeland", "Wijchen"):
        problems.append("Zeeland must not be adjacent to Wijchen (6.1 example)")
    bridged = [m for m in s.neighbours("Zeeland")
               if not _stops_mover(s, "Zeeland", m) and _bridged(s, m, "Wijchen")]
    if not bridged:
        problems.append("Zeeland must reach Wijchen in two moves only by crossing a bridge "
                        "into Wijchen (6.1 example)")
    return problems


def fact_special_river_crossing_example_weurt(s: Scenario) -> list[str]:
    """6.3 Allied infantry special river crossing example: Weurt across the Waal."""
    problems = _need_spaces(s, "Weurt", "Slijk-Ewijk", "Oosterhaut")
    for other in ("Slijk-Ewijk", "Oosterhaut"):
        border = s.border("Weurt", other)
        if not problems and (border is None or border.kind != "river" or border.bridge):
            problems.append(f"Weurt must be adjacent to {other} across an unbridged river "
                            "(6.3 example)")
    return problems


def fact_unit_activation_example_zon(s: Scenario) -> list[str]:
    """4. Unit Activation example and 7.2 Example 3: Zon, Nederwetten, Best, Doerhoek."""
    problems = _need_spaces(s, "Zon", "Nederwetten", "St. Oedenrode", "Best", "Doerhoek")
    if problems:
        return problems
    problems += [f"{a} must be adjacent to St. Oedenrode (4. example)"
                 for a in ("Nederwetten", "Zon") if not _adjacent(s, a, "St. Oedenrode")]
    if _adjacent(s, "Best", "Doerhoek") or set(s.neighbours("Best")) & set(
        s.neighbours("Doerhoek")
    ):
        problems.append("Best and Doerhoek must have no common neighbour (4. example)")
    if s.space("Zon").terrain != "polder":
        problems.append("Zon must be polder (7.2 Example 3)")
    canals = [m for m in s.neighbours("Zon") if _kind(s, "Zon", m) == "canal"]
    if len(canals) < 2:
        problems.append("Zon must have canal boundaries with at least two spaces "
                        "(7.2 Example 3)")
    return problems


def fact_combat_outcome_scenarios_eindhoven(s: Scenario) -> list[str]:
    """7.4 and its examples, 7.2 Example 2: Eindhoven, Valkenswaard, Geldorp."""
    problems = _need_spaces(s, "Eindhoven", "Nuenen", "Valkenswaard", "Geldorp")
    if problems:
        return problems
    if s.space("Eindhoven").terrain != "city" or s.space("Eindhoven").hit_reduction != -2:
        problems.append("Eindhoven must be a city (hit reduction -2)")
    problems += _expect_adjacent(s, "Eindhoven", ("Nuenen",), "Combat Outcome Scenarios")
    if not s.space("Valkenswaard").town or s.space("Valkenswaard").hit_reduction != -1:
        problems.append("Valkenswaard must have a town (hit reduction -1, 7.4)")
    if s.space("Geldorp").terrain != "clear":
        problems.append("Geldorp must be clear terrain (7.2 Example 2)")
    return problems


def fact_allied_supply_example_sources(s: Scenario) -> list[str]:
    """8. Allied supply and Tracing Supply examples, 9.: supply sources and the drop area."""
    problems = _need_spaces(s, "Beek", "Lieshout", "Zon", "Best", "Over Asselt", "Heelsum",
                            "Heide", "Driel")
    if problems:
        return problems
    if not (_adjacent(s, "Beek", "Lieshout") and _adjacent(s, "Lieshout", "Zon")):
        problems.append("Beek, Lieshout and Zon must form an overland path (8. example B)")
    if not s.space("Zon").road:
        problems.append("Zon must be a road space (8. example B)")
    expected = {"101": "Best", "82": "Over Asselt", "1AB": "Heelsum"}
    for formation, space in expected.items():
        if space not in s.supply_sources(formation):
            problems.append(f"{space} must be a supply source for {formation} (8., 9.)")
    if "Heide" not in s.supply_sources("1AB"):
        problems.append("Heide must be a 1st Airborne supply source (8., 9. examples)")
    for formation in ("101", "82", "1AB"):
        if len(s.supply_sources(formation)) != 2:
            problems.append(f"the {formation} formation must have two supply sources (8.)")
    drop = s.polish_drop_area()
    near = [d for d in drop if d == "Driel" or _adjacent(s, d, "Driel")]
    if len(drop) != 3 or len(near) != 3:
        problems.append("the Polish drop area must be three spaces at or next to Driel (9.)")
    return problems


def fact_tracing_supply_example_arnhem(s: Scenario) -> list[str]:
    """8. Tracing Supply and German Combat examples, 6.3: the Arnhem-Oosterbeek area."""
    names = ("Heelsum", "Doorwerth", "Wolfheze", "Heide", "Oosterbeek", "Renkum", "Arnhem",
             "Elden", "Schaarsbergen", "Driel")
    problems = _need_spaces(s, *names)
    if problems:
        return problems
    problems += _expect_adjacent(s, "Heelsum", ("Doorwerth", "Wolfheze"), "8. example")
    problems += _expect_adjacent(s, "Wolfheze", ("Heide",), "8. example")
    problems += _expect_adjacent(s, "Doorwerth", ("Oosterbeek", "Renkum", "Wolfheze"),
                                 "8. example")
    problems += _expect_adjacent(s, "Arnhem", ("Elden", "Oosterbeek", "Schaarsbergen"),
                                 "8. and German Combat examples")
    if s.space("Arnhem").terrain != "city":
        problems.append("Arnhem must be a city (German Combat Example 1)")
    bridge = s.border("Arnhem", "Elden")
    if bridge is not None and not (bridge.kind == "river" and bridge.bridge):
        problems.append("Arnhem-Elden must cross the Nederrijn by a road bridge (key changes)")
    foot = [b for b in s.borders if b.foot_crossing]
    if len(foot) != 1 or {foot[0].a, foot[0].b} != {"Oosterbeek", "Driel"}:
        problems.append("the only foot crossing must join Oosterbeek and Driel (6.3)")
    return problems


def fact_off_map_boxes_example_e4(s: Scenario) -> list[str]:
    """6.5 German off-map boxes example, closings and the Pannerden Ferry (6.3)."""
    problems: list[str] = []
    boxes = {box.id: box for box in s.boxes}
    wanted = {f"W{i}" for i in (1, 2)} | {f"N{i}" for i in range(1, 5)} | {
        f"E{i}" for i in range(1, 5)}
    if set(boxes) != wanted:
        return ["the off-map boxes must be W1-W2, N1-N4 and E1-E4 (6.5)"]
    for box in s.boxes:
        formation = {"W": "15A", "N": "IISS", "E": "1FJ"}[box.id[0]]
        if box.formation != formation:
            problems.append(f"box {box.id} must belong to formation {formation} (6.5)")
    e4 = boxes["E4"]
    if set(e4.adjoining_spaces()) != {"Groesbeek", "Zijfflich", "Wyler"} or "E3" not in e4.links:
        problems.append("E4 must adjoin Groesbeek, Zijfflich and Wyler and link to E3 (6.5)")
    for far in ("Hengstal", "Leuth"):
        if far in e4.adjoining_spaces() or not any(
            _adjacent(s, far, near) for near in e4.adjoining_spaces()
        ):
            problems.append(f"{far} must be two spaces from E4, not adjoining it (6.5 example)")
    early = {box.id: box.units_move_to for box in s.boxes if box.closes_turn == 7}
    if early != {"W1": "W2", "E1": "E3", "E2": "E3"}:
        problems.append("W1, E1 and E2 must close at turn 7, their units going to W2 or E3")
    if any(box.closes_turn != 13 for box in s.boxes if box.id not in early):
        problems.append("every other box must close at the start of turn 13 (6.5)")
    closing = {t.number: set(t.closes_boxes) for t in s.tracks.turns if t.closes_boxes}
    if closing != {7: set(early), 13: wanted - set(early)}:
        problems.append("the turn track must close W1, E1, E2 on turn 7 and the rest on 13")
    if set(s.ferry.adjoins) != {"Doornenburg", "Duiven"}:
        problems.append("the Pannerden Ferry must border Doornenburg and Duiven (6.3)")
    return problems


def fact_strategic_movement_example_oeffelt(s: Scenario) -> list[str]:
    """6.4 example B and 10. example: Oeffelt reaches Zeeland by road; Gassel, Uden near."""
    problems = _need_spaces(s, "Oeffelt", "Zeeland", "Gassel", "Uden")
    if problems:
        return problems
    seen, queue = {"Oeffelt"}, deque(["Oeffelt"])
    while queue:
        here = queue.popleft()
        for nxt in s.neighbours(here):
            border = s.border(here, nxt)
            if nxt not in seen and border is not None and border.road:
                seen.add(nxt)
                queue.append(nxt)
    if "Zeeland" not in seen:
        problems.append("Oeffelt must reach Zeeland along roads (6.4 example B)")
    for near in ("Gassel", "Uden"):
        if (_distance(s, near, "Zeeland") or 9) > 2:
            problems.append(f"{near} must be near Zeeland (10. example)")
    return problems


def fact_setup_counts(s: Scenario) -> list[str]:
    """3.B, 3.D, 3.G, 3.H: the opening position."""
    problems: list[str] = []
    setup = s.tracks.setup
    starting = [u for u in s.units if u.start is not None]
    for side, count in (("german", setup.german_units), ("allied", setup.allied_units)):
        have = sum(1 for u in starting if u.side == side)
        if have != count:
            problems.append(
                f"{count} {side.capitalize()} units must start in play, not {have} (3.B)"
            )
    occupants: dict[str, set[str]] = {}
    for unit in starting:
        if unit.start is not None and s.has_space(unit.start):
            occupants.setdefault(unit.start, set()).add(unit.side)
    allied_only = [sid for sid, sides in occupants.items() if sides == {"allied"}]
    if len(allied_only) != setup.allied_control_markers:
        problems.append(f"exactly {setup.allied_control_markers} spaces must hold only Allied "
                        f"units at the start, not {len(allied_only)} (3.D)")
    for space in setup.unprepared:
        if "german" not in occupants.get(space, set()):
            problems.append(f"a German unit must start in {space} (3.G)")
    for unit in starting:
        stack = [u for u in starting if u.start == unit.start and u.side == unit.side]
        if len(stack) > 2:
            problems.append(f"more than two {unit.side} units start in {unit.start} (6.2)")
            break
    movers = [u for u in starting if u.formation == "1AB" and u.start and s.has_space(u.start)]
    if not any(n not in occupants for u in movers for n in s.neighbours(u.start or "")):
        problems.append("a 1st Airborne unit must have an adjacent empty space to move to (3.H)")
    return problems


def fact_game_turn_track(s: Scenario) -> list[str]:
    """4., the map's turn track and tables, 10., 11.3."""
    problems: list[str] = []
    t = s.tracks
    if len(t.turns) != 13:
        problems.append("the game has 13 game-turns (1.)")
    for turn in t.turns:
        if turn.half != ("PM" if turn.number % 2 else "AM"):
            problems.append(f"game-turn {turn.number} must be {'PM' if turn.number % 2 else 'AM'}")
        if turn.date.day != 17 + turn.number // 2 or turn.date.month != 9:
            problems.append(f"game-turn {turn.number} has the wrong date {turn.date}")
        if (turn.initiative == "allied") != (turn.number <= 3):
            problems.append("the Allies have the initiative on turns 1-3, then by weather (4.)")
        if turn.weather_roll == (turn.number == 1):
            problems.append("weather is rolled every turn except turn 1 (4.)")
        replaced = turn.number >= 6 and turn.number % 2 == 0
        if (turn.allied_replacements, turn.german_replacements) != ((2, 1) if replaced else (0, 0)):
            problems.append(f"turn {turn.number}: replacements are A2 G1 on turn 6 and every "
                            "even turn after, none otherwise (10.)")
    thresholds = {turn.number: turn.german_threshold for turn in t.turns if turn.german_threshold}
    if thresholds != {8: 10, 10: 14, 12: 18}:
        problems.append("German victory thresholds must be 10, 14, 18 at turns 8, 10, 12 (11.3)")
    w = t.weather
    if w.first_turn != "clear" or (w.AM.clear, w.AM.overcast, w.PM.clear, w.PM.overcast) != (
        (1, 2), (3, 10), (1, 6), (7, 10)
    ):
        problems.append("weather: turn 1 clear; AM 1-2 clear, 3-10 overcast; PM 1-6 clear, "
                        "7-10 overcast")
    if t.impulses != 12:
        problems.append("the Time track has twelve impulses (4.)")
    if (t.eliminated_vp_min, t.eliminated_vp_max) != (-7, 7):
        problems.append("the Eliminated Units VP track runs from -7 to +7 (11.3)")
    if (t.final.allied_min, t.final.draw) != (22, 21):
        problems.append("final result: 22+ Allied, 21 draw, 20- German (11.3)")
    return problems


def fact_hit_chance_examples(s: Scenario) -> list[str]:
    """2.2, 7.2 Examples 1-3, German Combat Examples, 10. and 11.2: units and counters."""
    problems: list[str] = []

    def some(test: Callable[[Unit], bool], text: str) -> None:
        if not any(test(u) for u in s.units):
            problems.append(text)

    some(lambda u: u.formation == "30C" and u.type == "armor" and u.max_strength >= 4
         and u.hit(4) == 5 and u.hit(3) == 4,
         "a 30 Corps armor unit must have base 5 at strength 4 and 4 at 3 (7.2 Examples 1, 3)")
    some(lambda u: u.formation == "30C" and u.type == "motorized_infantry"
         and u.max_strength == 6 and u.hit(6) == 4,
         "a 30 Corps motorized infantry unit must roll 6 dice at base 4 (7.2 Examples 2, 3)")
    some(lambda u: u.side == "german" and u.elite_armor and u.max_strength >= 2
         and u.hit(2) == 6 and u.hit(2, attacking=False) == 4,
         "a German elite armor unit must attack at 6 and defend at 4 with strength 2 "
         "(German Combat Example 1, 7.2 Example 1)")
    some(lambda u: u.side == "german" and u.elite_armor and u.vp >= 1,
         "a German armor unit must be worth a VP (Combat Outcome Scenarios)")
    some(lambda u: u.side == "german" and u.type == "mechanized_infantry"
         and u.max_strength >= 5 and u.hit(5) == 4 and u.hit(4) == 4
         and u.counter_for(5) == u.counter_for(4),
         "a German mechanized infantry unit must have base 4 at 5 and flip to its 4 side "
         "(German Combat Example 1)")
    some(lambda u: u.side == "german" and u.type == "motorized_infantry"
         and u.max_strength >= 5 and u.hit(5) == 4,
         "a German motorized infantry unit must have base 4 at 5 (German Combat Example 2)")
    checks: dict[str, Callable[[Unit], bool]] = {
        "21G/5G": lambda u: u.counter_for(u.max_strength) == u.counter_for(u.max_strength - 1),
        "32G": lambda u: u.max_strength >= 3 and u.counter_for(2) != u.counter_for(3),
        "16/7F": lambda u: u.max_strength >= 2 and u.counter_for(1) != u.counter_for(2),
    }
    ids = {normalise(u.id): u for u in s.units}
    for uid, test in checks.items():
        unit = ids.get(normalise(uid))
        if unit is None or not test(unit):
            problems.append(f"unit {uid}'s counters must match the 10. replacement example")
    for unit in s.units:
        if unit.side == "allied" and unit.vp not in (1, 2):
            problems.append(f"Allied unit {unit.id} must be worth 1 or 2 VPs (11.2)")
        if unit.formation != "30C" and unit.side == "allied" and not unit.elite:
            problems.append(f"Allied airborne unit {unit.id} must be elite (2.2)")
    for name, turn in (("4P/1AB", 3), ("P/1P", 7)):
        unit = ids.get(normalise(name))
        if unit is None or unit.reinforcement is None or unit.reinforcement.turn != turn:
            problems.append(f"{name} must arrive on turn {turn} (8., 9. examples)")
    return problems


def fact_reinforcement_entries(s: Scenario) -> list[str]:
    """9.: where each side's reinforcements enter."""
    problems: list[str] = []
    drop = set(s.polish_drop_area())
    for unit in s.units:
        if unit.reinforcement is None:
            continue
        entry = set(unit.reinforcement.entry)
        if unit.side == "german":
            ok = len(entry) == 1 and all(s.box(e).formation == unit.formation for e in entry
                                         if e in {b.id for b in s.boxes})
            ok = ok and entry <= {b.id for b in s.boxes}
        elif unit.formation == "30C":
            ok = entry == set(s.supply_sources("30C"))
        else:
            sources = set(s.supply_sources(unit.formation))
            ok = entry == sources or (normalise(unit.id) == normalise("P/1P")
                                      and entry == sources | drop)
        if not ok:
            problems.append(f"unit {unit.id} enters at {', '.join(sorted(entry))}, not where 9. "
                            "places its formation")
    return problems


def fact_map_integrity(s: Scenario) -> list[str]:
    """2.1: symmetric adjacency, one connected map, unique names."""
    problems: list[str] = []
    for border in s.borders:
        if s.border(border.a, border.b) is not s.border(border.b, border.a):
            problems.append(f"adjacency {border.a}-{border.b} is not symmetric")
    first = s.spaces[0].id
    reachable = {first}
    queue = deque([first])
    while queue:
        for nxt in s.neighbours(queue.popleft()):
            if nxt not in reachable:
                reachable.add(nxt)
                queue.append(nxt)
    lost = [space.id for space in s.spaces if space.id not in reachable]
    if lost:
        problems.append(f"the map is not connected: {', '.join(lost)} cannot be reached")
    keys: dict[str, str] = {}
    for space in s.spaces:
        for name in (space.id, space.name, *space.aliases):
            key = normalise(name)
            if keys.setdefault(key, space.id) != space.id:
                problems.append(f"'{name}' names both {keys[key]} and {space.id}")
    return problems


FACTS: dict[str, Fact] = {
    fact.__name__.removeprefix("fact_"): fact
    for fact in (
        fact_map_key_de_groote,
        fact_strategic_movement_example_club_route,
        fact_victory_objective_values,
        fact_general_movement_example_mook_neighbours,
        fact_two_space_movement_example_st_anna,
        fact_movement_from_different_spaces_example_wijchen,
        fact_special_river_crossing_example_weurt,
        fact_unit_activation_example_zon,
        fact_combat_outcome_scenarios_eindhoven,
        fact_allied_supply_example_sources,
        fact_tracing_supply_example_arnhem,
        fact_off_map_boxes_example_e4,
        fact_strategic_movement_example_oeffelt,
        fact_setup_counts,
        fact_game_turn_track,
        fact_hit_chance_examples,
        fact_reinforcement_entries,
        fact_map_integrity,
    )
}
"""Every rulebook fact, by name (the name says which example it comes from)."""


def check_facts(scenario: Scenario) -> list[str]:
    """Every broken rulebook fact as one sentence; empty when all hold."""
    problems: list[str] = []
    for fact in FACTS.values():
        problems.extend(fact(scenario))
    return problems


def check_scenario(path: Path | None = None) -> list[str]:
    """What ``referee scenario check`` reports: load problems, else broken facts."""
    try:
        scenario = load_scenario(path)
    except ScenarioError as error:
        return error.problems
    return check_facts(scenario)
