"""The Arnhem '44 board as plain structures, built once from the scenario.

Figures have no identity: a figure is a *unit key* ``(group, kind)``.  Allied groups are the
ground forces ``UK`` and ``US`` and the airborne groups ``1AB``, ``PL``, ``82`` and ``101``;
every German figure is in group ``DE``.  Kinds are ``inf``, ``tank`` and ``art``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

from referee.core.names import NameIndex
from referee.games.arnhem44.scenario import Scenario, load_scenario

ALLIED = "allied"
GERMAN = "german"
SIDES = (ALLIED, GERMAN)
GERMAN_GROUP = "DE"
ALLIED_GROUPS = ("UK", "US", "1AB", "PL", "82", "101")
GROUPS = (*ALLIED_GROUPS, GERMAN_GROUP)
AIRBORNE = frozenset({"1AB", "PL", "82", "101"})
AIRBORNE_GROUPS = ("1AB", "PL", "82", "101")
"""The four HQ cards in a fixed order (Phase 2.3)."""
NATIONALITY = {"UK": "UK", "US": "US", "1AB": "UK", "PL": "PL", "82": "US", "101": "US",
               "DE": "DE"}
KINDS = ("inf", "tank", "art")
"""The order in which hits are distributed: all infantry, then tanks, then artillery."""
KIND_ALIASES = {
    "inf": "inf", "infantry": "inf", "tank": "tank", "tanks": "tank", "armour": "tank",
    "armor": "tank", "art": "art", "artillery": "art",
}

Key = tuple[str, str]
"""A unit key: (group, kind)."""


def side_of(group: str) -> str:
    return GERMAN if group == GERMAN_GROUP else ALLIED


def other(side: str) -> str:
    return GERMAN if side == ALLIED else ALLIED


def key_text(key: Key) -> str:
    group, kind = key
    return kind if group == GERMAN_GROUP else f"{kind}/{group}"


def key_order(key: Key) -> tuple[int, int]:
    """Canonical order of figures: kind (infantry, tanks, artillery), then group."""
    return KINDS.index(key[1]), GROUPS.index(key[0])


@dataclass(frozen=True, slots=True)
class Link:
    """The border between two adjacent sectors."""

    kind: str  # plain | waterway | stream
    water: str | None
    bridge: str | None
    ferry: str | None


@dataclass(frozen=True, slots=True)
class BridgeInfo:
    id: str
    name: str
    kind: str
    a: str
    b: str
    value: int


class Board:
    """Sectors, adjacency, numbers and units' values: everything the rules look up."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        meta = scenario.meta
        self.rounds = meta.rounds
        self.max_per_side = meta.max_per_side
        self.order: tuple[str, ...] = tuple(s.id for s in scenario.sectors)
        self.rank = {sid: i for i, sid in enumerate(self.order)}
        self.display = {s.id: s.id for s in scenario.sectors}
        self.type = {s.id: s.type for s in scenario.sectors}
        self.numbers: dict[str, tuple[int, int, int]] = {
            s.id: s.numbers or meta.types[s.type].numbers for s in scenario.sectors
        }
        self.xy = {s.id: (s.x, s.y) for s in scenario.sectors}
        self.above_rhine = {s.id for s in scenario.sectors if s.above_rhine}
        self.above_canal = {s.id for s in scenario.sectors if s.above_canal}
        self.flags = {s.id for s in scenario.sectors if s.flag}
        self.starts = {s.start: s.id for s in scenario.sectors if s.start}
        self.start_sectors = tuple(self.starts[k] for k in ("west", "centre", "east")
                                   if k in self.starts)
        self.links: dict[str, dict[str, Link]] = {sid: {} for sid in self.order}
        for border in scenario.borders:
            link = Link(border.kind, border.water, border.bridge, border.ferry)
            self.links[border.a][border.b] = link
            self.links[border.b][border.a] = link
        self.neighbours = {sid: tuple(sorted(self.links[sid], key=self.rank.__getitem__))
                           for sid in self.order}
        self.bridges = {b.id: BridgeInfo(b.id, b.name, b.kind, b.a, b.b, b.value)
                        for b in scenario.crossings.bridges}
        self.ferries = {f.id: (f.a, f.b) for f in scenario.crossings.ferries}
        self.sectors = NameIndex[str]("sector")
        for s in scenario.sectors:
            aliases = list(s.aliases)
            if s.name and s.name != s.id:
                aliases.append(s.name)
            self.sectors.add(s.id, s.id, aliases)
        self.bridge_names = NameIndex[str]("bridge")
        for b in scenario.crossings.bridges:
            self.bridge_names.add(b.id, b.id, [b.name])
        kinds = meta.kinds
        self.fp = {k: kinds[k].fp for k in KINDS}  # type: ignore[index]
        self.at_fp = dict(kinds["art"].at_fp or {})
        self.hp = {(side, k): kinds[k].hp[side] for side in SIDES for k in KINDS}  # type: ignore[index]
        self.mp = {k: kinds[k].mp for k in KINDS}  # type: ignore[index]
        self._around: dict[tuple[str, int], tuple[str, ...]] = {}
        self._within: dict[tuple[str, int], frozenset[str]] = {}

    def name(self, sector: str) -> str:
        return self.display.get(sector, sector)

    def number(self, sector: str, kind: str) -> int:
        return self.numbers[sector][KINDS.index(kind)]

    def hit_points(self, key: Key) -> int:
        return self.hp[(side_of(key[0]), key[1])]

    def combat_fp(self, key: Key) -> int:
        """Dice a figure rolls in a fight (movement-phase engagements and phases 4.2/5.2):
        artillery there is an anti-tank weapon (Units: Artillery as an Anti-Tank Weapon)."""
        group, kind = key
        if kind == "art":
            return self.at_fp[side_of(group)]
        return self.fp[kind]

    def within(self, sector: str, zones: int) -> frozenset[str]:
        """Sectors at most ``zones`` steps from ``sector`` ("+ 1 zone", "+ 2 zones"; kept: the
        board never changes, and a barrage asks it for every battery that fires)."""
        found = self._within.get((sector, zones))
        if found is None:
            found = self._within[(sector, zones)] = frozenset(self._search(sector, zones))
        return found

    def _search(self, sector: str, zones: int) -> dict[str, int]:
        """The steps from ``sector`` to each sector at most ``zones`` steps from it."""
        dist = {sector: 0}
        queue = deque([sector])
        while queue:
            here = queue.popleft()
            if dist[here] == zones:
                continue
            for there in self.neighbours[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def around(self, sector: str, zones: int) -> tuple[str, ...]:
        """The sectors of ``within(sector, zones)`` other than ``sector``, in map order (kept:
        the board never changes)."""
        found = self._around.get((sector, zones))
        if found is None:
            near = self.within(sector, zones)
            found = self._around[(sector, zones)] = tuple(
                s for s in self.order if s in near and s != sector)
        return found


@cache
def bundled_board() -> Board:
    return Board(load_scenario())
