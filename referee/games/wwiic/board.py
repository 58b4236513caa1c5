"""The scenario in plain structures the rules read on every command.

``load_board`` converts the pydantic scenario once: adjacency as dicts of ``Crossing``,
unit facts as ``UnitInfo``, off-map boxes as ``BoxInfo``.  Nothing on the hot path
(``legal``/``apply``) touches pydantic.
"""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.names import NameIndex, normalise, short_forms
from referee.core.resources import scenario_dir
from referee.games.wwiic.scenariofiles import SHIPPED_DATA, read_files, scenario_files

if TYPE_CHECKING:
    from referee.games.wwiic.scenario import Scenario

ALLIED = "allied"
GERMAN = "german"
SIDES = (ALLIED, GERMAN)

LEG_TYPES = frozenset({"infantry", "airborne", "glider"})
"""Leg infantry (6): airborne and glider infantry are identical to leg infantry (2.2)."""
RECON_TYPES = frozenset({"recon", "glider_recon"})
TRACKED_TYPES = frozenset({"armor", "armored_recon", "mechanized_infantry"})
"""The types whose two-space move can't end in an enemy-occupied polder or woods space (6)."""
MOTORIZED = "motorized_infantry"
TYPES = ("armor", "armored_recon", "mechanized_infantry", "motorized_infantry", "infantry",
         "airborne", "glider", "recon", "glider_recon")
TERRAINS = ("clear", "mixed", "woods", "city", "polder")
STRATEGIC_TYPES = RECON_TYPES | TRACKED_TYPES | {MOTORIZED}
"""The types that may use strategic movement when eligible (6, 6.4)."""

TYPE_WORDS = {
    "armor": "armor",
    "armored_recon": "armored recon",
    "mechanized_infantry": "mechanized infantry",
    "motorized_infantry": "motorized infantry",
    "infantry": "leg infantry",
    "airborne": "airborne infantry",
    "glider": "glider infantry",
    "recon": "recon",
    "glider_recon": "glider recon",
}

SPACE = "space"
BOX = "box"
FERRY = "ferry"

# Kinds of crossing between two places.
PLAIN = "plain"
CANAL = "canal"
RIVER = "river"
BOX_LINK = "box"        # a map space and an off-map box, or two linked boxes (6.5)
FERRY_LINK = "ferry"    # the Pannerden Ferry box and one of its two banks (6.3)


def other_side(side: str) -> str:
    return GERMAN if side == ALLIED else ALLIED


@dataclass(frozen=True, slots=True)
class Crossing:
    """How one place is entered from another: the boundary between them."""

    kind: str
    road: bool = False
    bridge: bool = False
    foot: bool = False
    key: frozenset[str] = frozenset()
    """The two places, for 'one unit per bridge or canal boundary' counts (6.3)."""

    @property
    def unbridged_canal(self) -> bool:
        return self.kind == CANAL and not self.bridge

    @property
    def unbridged_river(self) -> bool:
        return self.kind == RIVER and not self.bridge and not self.foot

    @property
    def water(self) -> bool:
        return self.kind in (CANAL, RIVER)


@dataclass(frozen=True, slots=True)
class UnitInfo:
    """What never changes about a unit."""

    id: str
    name: str
    side: str
    formation: str
    type: str
    max_strength: int
    start: str | None
    arrives: int | None
    corps30: bool
    airborne: bool
    """In (or attached to) an Allied airborne formation (2.2)."""
    hit_chance: tuple[int, ...] = ()
    """Base hit chance at strength 1, 2, ... (the attacking value for elite armor, 7.2)."""
    defend_hit_chance: tuple[int, ...] = ()
    """The defending value at each strength (lower for elite armor, 7.2)."""
    elite: bool = False
    vp: int = 0
    """VPs on the 1-strength face (11.2)."""
    entry: tuple[str, ...] = ()
    """Where the unit may be placed when it arrives as a reinforcement (9)."""

    @property
    def leg(self) -> bool:
        return self.type in LEG_TYPES

    @property
    def type_words(self) -> str:
        return TYPE_WORDS.get(self.type, self.type)


@dataclass(frozen=True, slots=True)
class BoxInfo:
    """A German off-map box (6.5)."""

    id: str
    name: str
    formation: str
    spaces: dict[str, bool]
    """The map spaces it adjoins, each with whether a road connects them."""
    links: tuple[str, ...]
    closes_turn: int
    units_move_to: str | None


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """One box of the Game-turn track."""

    number: int
    date: datetime.date
    half: str
    initiative: str
    """"allied" (turns 1-3) or "weather" (clear: Allied; overcast: German)."""
    allied_replacements: int
    german_replacements: int


@dataclass(frozen=True, slots=True)
class WeatherTable:
    """The AM and PM weather tables (4): die ranges for clear and overcast."""

    first_turn: str
    bands: dict[str, tuple[tuple[int, int, str], ...]]

    def weather(self, half: str, roll: int) -> str:
        for low, high, weather in self.bands[half]:
            if low <= roll <= high:
                return weather
        raise ValueError(f"the {half} weather table has no row for {roll}")


class Board:
    """The map, the boxes and the units of one scenario, in plain dicts and sets.

    Built from the scenario's data in the layout of its TOML files: from the files directly
    (``from_files``, fast: no pydantic on the way) or from the validated pydantic model
    (``from_scenario``).  The tests check that both give the same board.
    """

    def __init__(self, data: Mapping[str, Any], folder: Path | None = None) -> None:
        self.id: str = data["id"]
        self._folder = folder
        self._scenario: Scenario | None = None
        self.kind: dict[str, str] = {}
        self.label: dict[str, str] = {}
        self.terrain: dict[str, str] = {}
        self.road_spaces: set[str] = set()
        self.club_route: dict[str, int] = {}
        self.spaces: list[str] = []
        self.hit_reduction: dict[str, int] = {}
        """Defender hit reduction of each space that has one (7.4): 1 or 2."""
        self.objective_vp: dict[str, int] = {}
        """Allied objective spaces and their VPs (11.1)."""
        self.supply_sources: dict[str, list[str]] = {}
        """Allied formation -> its supply source spaces (8)."""
        self.polish_drop: list[str] = []
        self.places: NameIndex[str] = NameIndex("place")
        for space in data["spaces"]:
            ident = space["id"]
            self.spaces.append(ident)
            self.kind[ident] = SPACE
            self.label[ident] = space["name"]
            self.terrain[ident] = _one_of(space["terrain"], TERRAINS, "terrain")
            if space.get("road", False):
                self.road_spaces.add(ident)
            if space.get("club_route") is not None:
                self.club_route[ident] = int(space["club_route"])
            if self.terrain[ident] == "city":
                self.hit_reduction[ident] = 2
            elif self.terrain[ident] == "woods" or space.get("town", False):
                self.hit_reduction[ident] = 1
            if space.get("vp") is not None:
                self.objective_vp[ident] = int(space["vp"])
            for formation in space.get("supply_source", ()):
                self.supply_sources.setdefault(formation, []).append(ident)
            if space.get("polish_drop", False):
                self.polish_drop.append(ident)
            self.places.add(space["name"], ident, (ident, *space.get("aliases", ())))
        self.exits: dict[str, dict[str, Crossing]] = {s: {} for s in self.spaces}
        for border in data["borders"]:
            a, b = border["a"], border["b"]
            kind = _one_of(border.get("kind", PLAIN), (PLAIN, CANAL, RIVER), "border kind")
            crossing = Crossing(
                kind, bool(border.get("road", False)), bool(border.get("bridge", False)),
                bool(border.get("foot_crossing", False)), frozenset((a, b)),
            )
            self.exits[a][b] = crossing
            self.exits[b][a] = crossing
        self.boxes: dict[str, BoxInfo] = {}
        for box in data["boxes"]:
            info = BoxInfo(
                box["id"], box["name"], box["formation"],
                {link["space"]: bool(link.get("road", False)) for link in box["adjoins"]},
                tuple(box.get("links", ())), int(box["closes_turn"]), box.get("units_move_to"),
            )
            self.boxes[info.id] = info
            self.kind[info.id] = BOX
            self.label[info.id] = info.id
            self.exits[info.id] = {}
            self.places.add(info.id, info.id, (info.name,))
        for info in self.boxes.values():
            for place, road in info.spaces.items():
                key = frozenset((info.id, place))
                self.exits[info.id][place] = Crossing(BOX_LINK, road, key=key)
                self.exits[place][info.id] = Crossing(BOX_LINK, road, key=key)
            for other in info.links:
                self.exits[info.id][other] = Crossing(BOX_LINK, key=frozenset((info.id, other)))
        ferry = data["ferry"]
        self.ferry: str = ferry["id"]
        self.ferry_banks: tuple[str, ...] = tuple(ferry["adjoins"])
        self.ferry_capacity = int(ferry.get("capacity", 1))
        self.ferry_max_strength = int(ferry.get("max_strength", 2))
        self.ferry_types = frozenset(ferry.get("unit_types", ("infantry", "motorized_infantry")))
        self.kind[self.ferry] = FERRY
        self.label[self.ferry] = ferry["name"]
        self.exits[self.ferry] = {}
        self.places.add(ferry["name"], self.ferry, (self.ferry,))
        for bank in self.ferry_banks:
            key = frozenset((self.ferry, bank))
            self.exits[self.ferry][bank] = Crossing(FERRY_LINK, key=key)
            self.exits[bank][self.ferry] = Crossing(FERRY_LINK, key=key)

        units = data["units"]
        self.corps30 = _find_formation(data)
        self.first_airborne = _find_first_airborne(units)
        self.units: dict[str, UnitInfo] = {}
        self.unit_names: NameIndex[str] = NameIndex("unit")
        self.formations: dict[str, list[str]] = {}
        for unit in units:
            side = _one_of(unit["side"], SIDES, "side")
            formation = unit["formation"]
            reinforcement = unit.get("reinforcement")
            self.units[unit["id"]] = UnitInfo(
                unit["id"], unit["name"], side, formation, _one_of(unit["type"], TYPES, "type"),
                int(unit["max_strength"]), unit.get("start"),
                int(reinforcement["turn"]) if reinforcement else None,
                side == ALLIED and formation == self.corps30,
                side == ALLIED and formation != self.corps30,
                tuple(int(h) for h in unit["hit_chance"]),
                tuple(int(h) for h in (unit.get("defend_hit_chance") or unit["hit_chance"])),
                bool(unit.get("elite", False)),
                int(unit.get("vp", 0)),
                tuple(reinforcement["entry"]) if reinforcement else (),
            )
            self.unit_names.add(unit["id"], unit["id"], (unit["name"], *unit.get("aliases", ())))
            if formation not in self.formations.setdefault(side, []):
                self.formations[side].append(formation)
        # Full names are written shorter at the table: "Irish Guards" (names.short_forms).
        for ident, forms in short_forms({u["id"]: u["name"] for u in data["units"]}).items():
            self.unit_names.add(ident, ident, [f for f in forms if f not in self.unit_names])
        self.unit_order = tuple(self.units)
        self.side_of = {u.id: u.side for u in self.units.values()}
        self.corps30_units = tuple(u.id for u in self.units.values() if u.corps30)
        self.units_of = {s: tuple(u for u, x in self.side_of.items() if x == s) for s in SIDES}

        tracks = data["tracks"]
        self.turns: dict[int, TurnInfo] = {}
        for turn in tracks["turns"]:
            info_turn = TurnInfo(
                int(turn["number"]), turn["date"], _one_of(turn["half"], ("AM", "PM"), "half"),
                turn["initiative"], int(turn.get("allied_replacements", 0)),
                int(turn.get("german_replacements", 0)),
            )
            self.turns[info_turn.number] = info_turn
        self.last_turn = max(self.turns)
        self.german_thresholds: dict[int, int] = {
            int(t["number"]): int(t["german_threshold"]) for t in tracks["turns"]
            if t.get("german_threshold") is not None
        }
        self.vp_limit = (int(tracks.get("eliminated_vp_min", -7)),
                         int(tracks.get("eliminated_vp_max", 7)))
        final = tracks.get("final", {})
        self.final_allied_min = int(final.get("allied_min", 22))
        self.final_draw = int(final.get("draw", 21))
        self.objective_start: str = tracks["setup"].get("objective_marker", "De Groote")
        self.impulses = int(tracks.get("impulses", 12))
        weather = tracks["weather"]
        self.weather_table = WeatherTable(
            weather.get("first_turn", "clear"),
            {
                half: tuple(
                    (int(low), int(high), name)
                    for name in ("clear", "overcast")
                    for low, high in (weather[half][name],)
                )
                for half in ("AM", "PM")
            },
        )
        self.unprepared = tuple(tracks["setup"]["unprepared"])
        self._distances: dict[tuple[str, bool], dict[str, int]] = {}
        self._adjacent: dict[bool, dict[str, tuple[str, ...]]] = {}
        self._strategic_exits: dict[str, dict[str, tuple[str, ...]]] = {}
        self._within: dict[tuple[str, int, int], frozenset[str]] = {}
        self._strategic_entries: dict[str, dict[str, tuple[str, ...]]] = {}
        self.units_read: dict[tuple[str, ...], tuple[str, int]] = {}  # commands.py's memos
        self.places_read: dict[str, str] = {}
        self._check()

    def _check(self) -> None:
        """The references the rules follow must exist (the full checks are pydantic's)."""
        for place, exits in self.exits.items():
            for other in exits:
                if other not in self.kind:
                    raise ValueError(f"{place} leads to unknown place {other}")
        for unit in self.units.values():
            if unit.start is not None and unit.start not in self.kind:
                raise ValueError(f"{unit.id} starts in unknown place {unit.start}")
        for box in self.boxes.values():
            if box.units_move_to is not None and box.units_move_to not in self.boxes:
                raise ValueError(f"box {box.id} sends its units to unknown box")
        if sorted(self.turns) != list(range(1, self.last_turn + 1)):
            raise ValueError("the game-turns are not numbered 1, 2, 3 ...")

    @property
    def scenario(self) -> Scenario:
        """The validated pydantic scenario (loaded on first use: drawing the map needs it,
        the rules do not)."""
        if self._scenario is None:
            from referee.games.wwiic.loader import load_scenario

            self._scenario = load_scenario(self._folder)
        return self._scenario

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Board:
        """The board of a validated pydantic scenario."""
        board = cls(scenario.model_dump())
        board._scenario = scenario
        return board

    @classmethod
    def from_files(cls, folder: Path) -> Board:
        """The board read straight from the TOML files (no pydantic); any doubt about the
        data falls back to the validated loader, whose ``ScenarioError`` says what is wrong."""
        try:
            return cls(read_files(folder), folder)
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, IndexError):
            from referee.games.wwiic.loader import load_scenario

            board = cls.from_scenario(load_scenario(folder))
            board._folder = folder
            return board

    # -- questions the rules ask ---------------------------------------------------------

    @cached_property
    def club_route_order(self) -> list[str]:
        """The Club Route's spaces from De Groote on, by their number along it (11.1)."""
        return sorted(self.club_route, key=self.club_route.__getitem__)

    @cached_property
    def club_route_best(self) -> list[int]:
        """For each space of ``club_route_order``, the most Objective VPs of it and the
        spaces after it (0 for none): the marker never moves back (11.1), so the search for
        its next space stops where nothing further is worth more than where it stands."""
        best: list[int] = []
        most = 0
        for space in reversed(self.club_route_order):
            most = max(most, self.objective_vp.get(space, 0))
            best.append(most)
        return best[::-1]

    def log_name(self, place: str) -> str:
        """The name as a log writes it: each word starting with a letter or digit, as the
        log language's names do ("'s-Hertogenbosch" is written s-Hertogenbosch; names match
        without regard to apostrophes)."""
        return " ".join(_writable(w) for w in self.label.get(place, place).split())

    def name(self, place: str | None) -> str:
        if place is None:
            return "nowhere"
        return self.label.get(place, place)

    def is_space(self, place: str | None) -> bool:
        return place is not None and self.kind.get(place) == SPACE

    def box_closed(self, box: str, turn: int) -> bool:
        """Closed off-map boxes (6.5): from the turn they close on, for good."""
        return turn >= self.boxes[box].closes_turn

    def neighbours(self, place: str) -> list[str]:
        return sorted(self.exits.get(place, {}))

    def distances(self, place: str, *, roads: bool = False) -> dict[str, int]:
        """Steps between ``place`` and every place joined to it through the map's exits
        (with ``roads``, only across borders a road crosses).  Exits are symmetric, so this
        is the distance both to and from ``place``."""
        key = (place, roads)
        found = self._distances.get(key)
        if found is None:
            found = self._distances[key] = breadth_first((place,), self._adjacency(roads))
        return found

    def within(self, place: str, steps: int, road_steps: int) -> frozenset[str]:
        """The places at most ``steps`` from ``place``, or at most ``road_steps`` along roads
        (``distances``)."""
        key = (place, steps, road_steps)
        found = self._within.get(key)
        if found is None:
            near = [p for p, d in self.distances(place).items() if d <= steps]
            far = [p for p, d in self.distances(place, roads=True).items() if d <= road_steps]
            found = self._within[key] = frozenset(near).union(far)
        return found

    @cached_property
    def supply_exits(self) -> dict[str, tuple[str, ...]]:
        """Each place's exits (in ``exits`` order) an overland supply path may take (8): into
        a map space, never across a river without a road bridge."""
        return {
            place: tuple(
                nxt for nxt, crossing in exits.items()
                if self.kind[nxt] == SPACE and not (crossing.kind == RIVER and not crossing.bridge)
            )
            for place, exits in self.exits.items()
        }

    @cached_property
    def german_supply_links(self) -> dict[str, tuple[str, ...]]:
        """Where a German supply path steps from each map space (8): its ``supply_exits``,
        and from a ferry bank the other banks it does not border (the Pannerden Ferry)."""
        links: dict[str, tuple[str, ...]] = {}
        for here, ways in self.supply_exits.items():
            if here in self.ferry_banks:
                ways += tuple(bank for bank in self.ferry_banks if bank != here
                              and bank not in self.exits[here] and self.kind.get(bank) == SPACE)
            links[here] = ways
        return links

    @cached_property
    def supply_symmetric(self) -> bool:
        """Every overland supply step between two map spaces may be taken both ways (the
        supply check then searches from the targets outward: ``supply.AlliedSupply``)."""
        exits = self.supply_exits
        return all(place in exits.get(nxt, ()) for place, ways in exits.items()
                   if self.kind[place] == SPACE for nxt in ways)

    def strategic_exits(self, side: str) -> dict[str, tuple[str, ...]]:
        """Each place's exits (in ``exits`` order) that a strategic move of ``side`` may
        take, whatever the board holds (6.4): across a road into a map space, for the Allies
        only into a Club Route space, never across an unbridged river (only leg infantry
        crosses one, 6.3, and leg infantry has no strategic movement).  A step through any
        other exit is refused for a reason no unit's move could lift."""
        found = self._strategic_exits.get(side)
        if found is None:
            found = self._strategic_exits[side] = {
                place: tuple(
                    nxt for nxt, crossing in exits.items()
                    if crossing.road
                    and self.kind[nxt] == SPACE
                    and (side != ALLIED or nxt in self.club_route)
                    and not (crossing.kind == RIVER and not crossing.bridge)
                )
                for place, exits in self.exits.items()
            }
        return found

    def strategic_entries(self, side: str) -> dict[str, tuple[str, ...]]:
        """Each place's ``strategic_exits`` turned round: the places a strategic move of
        ``side`` may step into it from."""
        found = self._strategic_entries.get(side)
        if found is None:
            entries: dict[str, list[str]] = {place: [] for place in self.exits}
            for place, exits in self.strategic_exits(side).items():
                for nxt in exits:
                    entries[nxt].append(place)
            found = self._strategic_entries[side] = {p: tuple(e) for p, e in entries.items()}
        return found

    def nearest(self, targets: frozenset[str], *, roads: bool = False) -> dict[str, int]:
        """Steps between each place and the nearest of ``targets`` (as ``distances``, which
        it is for one target)."""
        if len(targets) == 1:
            return self.distances(next(iter(targets)), roads=roads)
        return breadth_first(targets, self._adjacency(roads))

    def _adjacency(self, roads: bool) -> dict[str, tuple[str, ...]]:
        """Each place's neighbours (with ``roads``, across a road only)."""
        adjacent = self._adjacent.get(roads)
        if adjacent is None:
            adjacent = self._adjacent[roads] = {
                place: tuple(n for n, c in exits.items() if c.road or not roads)
                for place, exits in self.exits.items()
            }
        return adjacent

    def half(self, turn: int) -> str:
        return self.turns[turn].half if turn in self.turns else ("PM" if turn % 2 else "AM")

    def date(self, turn: int) -> str:
        return self.turns[turn].date.isoformat() if turn in self.turns else ""


def breadth_first(
    targets: Iterable[str],
    towards: Mapping[str, Iterable[str]],
    passable: Callable[[str], bool] | None = None,
) -> dict[str, int]:
    """The steps from each place to the nearest of ``targets``: ``towards[p]`` are the places
    a step reaches ``p`` from, and a place is gone through only if ``passable`` allows it
    (every place, without it)."""
    found = dict.fromkeys(targets, 0)
    frontier = list(found)
    steps = 0
    while frontier:
        steps += 1
        following: list[str] = []
        for here in frontier:
            for place in towards[here]:
                if place not in found and (passable is None or passable(place)):
                    found[place] = steps
                    following.append(place)
        frontier = following
    return found


def _writable(word: str) -> str:
    start = 0
    while start < len(word) - 1 and not word[start].isalnum():
        start += 1
    return word[start:]


def _one_of(value: Any, allowed: Iterable[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"'{value}' is not a {what}")
    return str(value)


def _find_formation(data: Mapping[str, Any]) -> str:
    """30 Corps: the formation whose supply source is De Groote, Club Route's first space (8)."""
    allied = [u["formation"] for u in data["units"] if u["side"] == ALLIED]
    for formation in dict.fromkeys(allied):
        if normalise(formation) in ("30corps", "xxxcorps", "30c", "xxx"):
            return str(formation)
    for space in data["spaces"]:
        if space.get("club_route") == 1 and space.get("supply_source"):
            return str(space["supply_source"][0])
    raise ValueError("the scenario has no 30 Corps formation")


def _find_first_airborne(units: Iterable[Mapping[str, Any]]) -> str:
    """The British 1st Airborne formation: the one the Red Devils move out from (3.H)."""
    allied = [u["formation"] for u in units if u["side"] == ALLIED]
    for formation in dict.fromkeys(allied):
        key = normalise(formation)
        if key in ("1ab", "1stairborne", "british1stairborne", "1airborne", "1stab"):
            return str(formation)
    raise ValueError("the scenario has no British 1st Airborne formation")


@cache
def bundled_board() -> Board:
    """The board of the bundled Market-Garden scenario, built once per process: from its
    compiled form when that is current, else from the files."""
    from referee.core.compiled import load_compiled

    folder = scenario_dir("wwiic") / "market-garden"
    data = load_compiled(SHIPPED_DATA, scenario_files(folder))
    if isinstance(data, dict):
        try:
            return Board(data, folder)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # the files say what is wrong
    return Board.from_files(folder)
