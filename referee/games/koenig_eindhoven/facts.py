"""The rulebook facts the Eindhoven Bridge scenario data must satisfy.

The rulebook prints no map and no counters, but it pins down a good deal: the map's sides the
entry roads lie on, three large bridges, the reinforcement schedule, the tables, the 40-piece
counter sheet.  Each fact below turns one rule into a check on the data; ``check_facts``
returns one sentence per broken fact, naming the rule, so an owner who types in the printed
map and counters learns at once where they disagree with the rulebook (or with a
reconstruction choice, which the sentence then names).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.core.scenario import ScenarioError
from referee.games.koenig_eindhoven.board import ALLIED, GERMAN, NEVER, Board
from referee.games.koenig_eindhoven.loader import load_scenario

Fact = Callable[[Board], list[str]]


def symmetric_adjacency(board: Board) -> list[str]:
    """2.1 / 8.0: hex-to-hex movement; a hex is adjacent to its neighbours both ways, and
    has at most six of them."""
    problems = []
    for ident in sorted(board.hexes):
        near = board.neighbours(ident)
        if len(near) > 6:
            problems.append(f"hex {ident} has {len(near)} neighbours; a hex has at most six")
        for other in near:
            if ident not in board.neighbours(other):
                problems.append(f"{ident} is adjacent to {other} but not the other way (2.1)")
    return problems


def bridges_on_rivers(board: Board) -> list[str]:
    """8.1.1: "Units may not move across River hexsides except at Bridges"; a bridge
    crosses a river hexside, and a road crosses a river hexside only by a bridge."""
    problems = []
    for key, side in sorted(board.hexsides.items(), key=lambda kv: sorted(kv[0])):
        a, b = sorted(key)
        if side.bridge and not side.river:
            problems.append(f"the {side.bridge} bridge at {a}-{b} is not on a River hexside "
                            "(8.1.1)")
        if side.road and side.river and not side.bridge:
            problems.append(f"a road crosses the River hexside {a}-{b} without a bridge "
                            "(8.1.1)")
    return problems


def three_large_bridges(board: Board) -> list[str]:
    """Exclusive 9.1.1: "The three core Eindhoven bridges ... are all large bridges";
    Exclusive 12.0: three primary bridge hexes with red stars, each at one of them."""
    problems = []
    large = [key for key, side in board.hexsides.items() if side.bridge == "large"]
    stars = board.red_star_hexes()
    if len(large) != 3:
        problems.append(f"the map has {len(large)} large bridges; Exclusive 9.1.1 names three")
    if len(stars) != 3:
        problems.append(f"the map has {len(stars)} red-star hexes; Exclusive 12.0 names three")
    for star in stars:
        if not any(star in key for key in large):
            problems.append(f"red-star hex {star} is at none of the large bridges "
                            "(Exclusive 9.1.1, 12.0)")
    for key in large:
        if not any(h in key for h in stars):
            a, b = sorted(key)
            problems.append(f"the large bridge {a}-{b} has no red-star hex (Exclusive 12.0)")
    return problems


def objectives(board: Board) -> list[str]:
    """Exclusive 12.0: objective City and Town hexes (red hex borders); the +5 VP for the
    red-star hexes is "in addition to the VPs awarded solely for the cities/towns"."""
    problems = []
    for h in sorted(board.hexes.values(), key=lambda h: h.id):
        if h.objective and h.objective != h.terrain:
            problems.append(f"objective {h.objective} hex {h.id} is {h.terrain} terrain "
                            "(Exclusive 12.0)")
        if h.red_star and not h.objective:
            problems.append(f"red-star hex {h.id} is not an objective City or Town hex "
                            "(Exclusive 12.0)")
    if not any(h.objective == "city" for h in board.hexes.values()):
        problems.append("the map has no objective City hex (Exclusive 12.0)")
    if not any(h.objective == "town" for h in board.hexes.values()):
        problems.append("the map has no objective Town hex (Exclusive 12.0)")
    return problems


EDGE_OF = {"A": "northeast", "B": "northeast", "C": "northwest", "D": "northwest"}
"""Exclusive 8.5: A and B "on the northeast (left) side", C and D "on the northwest (bottom)
side"; the rules say nothing of E and F's side."""


def entry_roads(board: Board) -> list[str]:
    """Exclusive 8.5: roads A-F; A/B on the north-east (left) edge, C/D on the north-west
    (bottom) edge; each entry hex on the map edge its road is on."""
    problems = []
    if board.orientation.get("left") != "northeast" or board.orientation.get(
            "bottom") != "northwest":
        problems.append("scenario.toml: the map's left side must be the north-east and its "
                        "bottom the north-west (Exclusive 8.5)")
    for letter in "ABCDEF":
        if letter not in board.entry_roads:
            problems.append(f"the map has no entry road {letter} (Exclusive 8.5)")
            continue
        hex_id = board.entry_roads[letter]
        edge = board.entry_edges.get(letter, "")
        wanted = EDGE_OF.get(letter, edge)
        if edge != wanted:
            problems.append(f"road {letter} is on the {edge} side; Exclusive 8.5 puts it on "
                            f"the {wanted} side")
        if wanted not in board.on_edge(hex_id):
            problems.append(f"the entry hex {hex_id} of road {letter} is not on the {wanted} "
                            "edge of the map (Exclusive 8.5)")
    entries = list(board.entry_roads.values())
    if len(set(entries)) != len(entries):
        problems.append("two entry roads share one entry hex (Exclusive 8.5 lists six roads)")
    return problems


def counter_sheet(board: Board) -> list[str]:
    """2.0: "1 sheet of 40, double-sided game pieces"."""
    if len(board.units) > 40:
        return [f"the scenario has {len(board.units)} units; the counter sheet holds 40 "
                "pieces (2.0)"]
    return []


def _units(board: Board, formation: str) -> list[str]:
    return list(board.formations[formation].units) if formation in board.formations else []


def reinforcements(board: Board) -> list[str]:
    """Exclusive 8.5's schedule, unit by unit."""
    problems: list[str] = []
    schedule = [
        ("935", GERMAN, 1, ("C", "D"), False, None),
        ("1034", GERMAN, 2, ("C", "D"), False, None),
        ("1222", GERMAN, 5, ("E", "F"), False, None),
    ]
    for formation, side, turn, roads, landing, _ in schedule:
        units = _units(board, formation)
        if len(units) != 3:
            problems.append(f"formation {formation} has {len(units)} units besides its HQ; "
                            "Exclusive 8.5 gives it three")
        for unit in units:
            problems.extend(_arrival(board, unit, side, turn, roads, landing))
    for formation in ("501", "502", "506"):
        units = _units(board, formation)
        if not units:
            problems.append(f"the scenario has no {formation} formation (14.3.1 names "
                            f"MG/{formation}/101)")
        for unit in units:
            problems.extend(_arrival(board, unit, ALLIED, 1, ("A", "B"), False))
    glider = {"2/327": 6, "3/327": 6, "1/327": 8, "M/327": 8}
    for unit, turn in glider.items():
        if unit not in board.units:
            problems.append(f"the scenario has no unit {unit} (Exclusive 8.5)")
            continue
        problems.extend(_arrival(board, unit, ALLIED, turn, ("A", "B"), True))
    extra = [u for u in _units(board, "327") if u not in glider]
    if extra:
        problems.append(f"327th units {', '.join(extra)} are not in Exclusive 8.5's schedule")
    # 5.0: the Exclusive Rules give "a complete listing of Allied reinforcements by Game
    # Turn"; Exclusive 8.5 lists only the 327th's four units (so no Anti-Tank unit, 2.2, can
    # arrive: see NOTES.md).
    unlisted = [u for u, spec in board.units.items()
                if spec.side == ALLIED and not spec.hq and u not in glider
                and (spec.arrival_turn or 1) > 1]
    if unlisted:
        problems.append(f"Allied units {', '.join(unlisted)} arrive after Game Turn 1, but "
                        "Exclusive 8.5, \"a complete listing of Allied reinforcements\" (5.0), "
                        "names only 2/327, 3/327 (GT6), 1/327 and M/327 (GT8)")
    for f in board.formations.values():
        hq = board.units.get(f.hq)
        if hq is not None and hq.arrival_turn != f.arrives:
            problems.append(f"{f.hq} arrives on turn {hq.arrival_turn}; its formation {f.id} "
                            f"arrives on turn {f.arrives} (7.0, Exclusive 8.5)")
        first = min((board.units[u].arrival_turn or 1 for u in f.units), default=None)
        if first is not None and f.arrives != first:
            problems.append(f"the HQ of formation {f.id} goes into the cup on turn {f.arrives} "
                            f"but its first units arrive on turn {first} (7.0, Exclusive 8.5)")
    for reg in ("MG/501", "MG/502", "MG/506", "M/327"):
        spec = board.units.get(reg)
        if spec is not None and spec.kind != "heavy-weapons":
            problems.append(f"{reg} is {spec.kind}; 14.3.1's US machine-gun units are heavy "
                            "weapons")
    return problems


def _arrival(board: Board, unit: str, side: str, turn: int, roads: tuple[str, ...],
             landing: bool) -> list[str]:
    spec = board.units[unit]
    problems = []
    if spec.side != side:
        problems.append(f"{unit} is {spec.side}; Exclusive 8.5 makes it {side}")
    if spec.arrival_turn != turn:
        problems.append(f"{unit} arrives on turn {spec.arrival_turn}; Exclusive 8.5 says "
                        f"Game Turn {turn}")
    if tuple(sorted(spec.entry_roads)) != roads:
        problems.append(f"{unit} enters by {spec.entry_road}; Exclusive 8.5 says roads "
                        f"{' or '.join(roads)}")
    if spec.landing != landing:
        problems.append(f"{unit} {'rolls' if spec.landing else 'does not roll'} on the "
                        "Paratroop Landing Table; Exclusive 5.0 and 8.5 say "
                        f"{'it does' if landing else 'it does not'}")
    return problems


def turn_track(board: Board) -> list[str]:
    """3.0: play "until Game Turn 10 is completed"; 4.0: the Operations Phase is "Day turns
    only!", so every turn with reinforcements (which enter "When Activated") is a day turn."""
    problems = []
    if [t.number for t in board.turns] != list(range(1, 11)):
        problems.append("the Game Turn track must hold turns 1-10 (3.0)")
    arrival_turns = {u.arrival_turn for u in board.units.values() if u.arrival_turn}
    for number in sorted(arrival_turns):
        if number <= len(board.turns) and board.turn(number).night:
            problems.append(f"turn {number} brings reinforcements but is a night turn "
                            "(4.0, Exclusive 8.5)")
    return problems


LANDING = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: NEVER}
POINTS = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


def tables(board: Board) -> list[str]:
    """5.0 / Exclusive 5.0, 6.1, 6.2 and 9.0's per-battle caps, as the rulebook gives them."""
    problems = []
    if board.paratroop_landing != LANDING:
        problems.append("the Paratroop Landing Table differs from 5.0: 1-2 intact, 3-4 one "
                        "Hit, 5 two Hits, 6 never arrives")
    if board.artillery_points != POINTS:
        problems.append("the Artillery Points table differs from 6.1: 1-2 one, 3-4 two, "
                        "5-6 three")
    if board.allied_support_points != POINTS:
        problems.append("the Allied Support Points table differs from 6.2: 1-2 one, 3-4 two, "
                        "5-6 three")
    if board.support_per_battle != {GERMAN: 1, ALLIED: 2}:
        problems.append("9.0: at most one Artillery Point (German) or two Allied Support "
                        "Points per battle")
    return problems


def terrain_chart(board: Board) -> list[str]:
    """The Terrain Effects Chart values the rulebook states (8.1 example, 8.1.2, 10.0, 9.1)."""
    problems = []
    found_movement = {"hilltop": 3, "road": 1, "close_combat": 2}
    for key, value in found_movement.items():
        if board.tec.movement.get(key) != value:
            problems.append(f"tec.toml: movement.{key} must be {value} (8.1, 8.1.2, 10.0)")
    if board.tec.hexside_movement.get("slope") != 1:
        problems.append("tec.toml: hexside_movement.slope must be 1 (8.1 example)")
    found_combat = {"clear": 1, "woods": -1, "town": -1, "rough": -2, "city": -2,
                    "hilltop": -3, "stream": -1, "slope": -1}
    for key, value in found_combat.items():
        if board.tec.combat.get(key) != value:
            problems.append(f"tec.toml: combat.{key} must be {value:+d} (9.1)")
    for terrain in {h.terrain for h in board.hexes.values()}:
        if terrain not in board.tec.movement:
            problems.append(f"tec.toml: movement has no cost for {terrain} hexes (8.1)")
    return problems


FACTS: tuple[Fact, ...] = (
    symmetric_adjacency,
    bridges_on_rivers,
    three_large_bridges,
    objectives,
    entry_roads,
    counter_sheet,
    reinforcements,
    turn_track,
    tables,
    terrain_chart,
)


def check_facts(board: Board) -> list[str]:
    """Every broken rulebook fact, one sentence each (empty when the data agrees)."""
    return [problem for fact in FACTS for problem in fact(board)]


def check_scenario(folder: Path | None = None) -> list[str]:
    """``referee scenario check`` for an Eindhoven Bridge scenario folder."""
    try:
        scenario = load_scenario(folder)
    except ScenarioError as error:
        return list(error.problems)
    where = scenario.folder
    return [f"{where}: {problem}" for problem in check_facts(scenario.board)]
