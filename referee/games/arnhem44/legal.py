"""What may be done now (``Engine.legal``).  Figures being identical, movement, fall back,
invasion and withdrawal are listed for one figure at a time (``move 1 tank/UK A->B``); any count
of the same figures that fits the rules is accepted as well."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from referee.core.errors import IllegalMove
from referee.games.arnhem44 import bailey, barrage, explosives, phase_two
from referee.games.arnhem44.bailey import open_borders
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    GERMAN_GROUP,
    KINDS,
    Board,
    Key,
    side_of,
)
from referee.games.arnhem44.combat import _current, destinations, waiting
from referee.games.arnhem44.commands import (
    CombatRoll,
    Command,
    Deploy,
    EndMovement,
    EndSetup,
    Enter,
    FallBack,
    First,
    Invade,
    JokerMove,
    Move,
    Reinforce,
    ReserveOrder,
    ReserveRoll,
    Support,
    WeatherRoll,
    Withdraw,
    WithdrawOrder,
)
from referee.games.arnhem44.deployment import (
    allied_on_map_done,
    german_missing,
    placed,
    room,
    table,
)
from referee.games.arnhem44.figures import points
from referee.games.arnhem44.jokers import held
from referee.games.arnhem44.movement import crossing, passage
from referee.games.arnhem44.options import player_of
from referee.games.arnhem44.presence import (
    NO_FIGURES,
    TOTALS_KEPT,
    enemies,
    friends,
    side_totals,
)
from referee.games.arnhem44.reserves import entries, flag_sectors, reserves_left
from referee.games.arnhem44.state import (
    AIRBORNE_PHASES,
    BAILEY,
    COMBAT,
    EXPLOSIVES,
    MOVEMENT,
    RESERVES,
    SETUP_ALLIED,
    SETUP_GERMAN,
    AState,
)


def legal(board: Board, state: AState) -> list[Command]:
    phase = state.phase
    if phase == SETUP_GERMAN:
        return german_setup(board, state)
    if phase == SETUP_ALLIED:
        return allied_setup(board, state)
    if phase in EXPLOSIVES:
        return explosives.legal(board, state)
    if phase in MOVEMENT:
        return movement(board, state)
    if phase == "1":
        return barrage.legal(board, state)
    if phase in COMBAT:
        return combat(board, state)
    if phase in RESERVES:
        return block_six(board, state)
    if phase in AIRBORNE_PHASES:
        return phase_two.legal(board, state)
    if phase == BAILEY:
        return bailey.legal(board, state)
    return []


def only(options: Iterator[Command]) -> Command | None:
    """The first of ``options`` when it is the only one, else None (the rest not made)."""
    first = next(options, None)
    return first if first is not None and next(options, None) is None else None


def block_six(board: Board, state: AState) -> list[Command]:
    """Phases 6.1-6.3: the weather roll, the Allied reserve roll and placements, the German
    reserves' placements (one figure at a time)."""
    return list(block_six_options(board, state))


def block_six_options(board: Board, state: AState) -> Iterator[Command]:
    """``block_six`` one command at a time, in its order (``Engine.forced`` asks whether
    there is one only: it stops at the second)."""
    if state.phase == "6.1":
        yield WeatherRoll()
        return
    if state.phase == "6.2":
        if not state.arriving:
            dice = ["black"] if reserves_left(board, state) or not state.engineers else []
            for die in (*dice, *(["green"] if state.engineers else [])):
                yield ReserveRoll(die)
            return
        for key in sorted(set(state.arriving)):
            for sector in entries(board, state, key):
                yield Enter(((key, 1),), sector)
        return
    above = state.above_rhine > 0
    keys = sorted(set(state.arriving[: state.above_rhine] if above else state.arriving))
    for key in keys:
        for sector in flag_sectors(board, state, above):
            yield Reinforce(((key, 1),), sector)


def german_setup(board: Board, state: AState) -> list[Command]:
    out: list[Command] = []
    missing = german_missing(board, state)
    for kind in KINDS:
        if not missing[kind]:
            continue
        may = deployable(board, state, kind, placed(state, kind))
        for sector in sorted(deploy_sectors(board, kind), key=board.rank.__getitem__):
            if may(sector):
                out.append(Deploy((((GERMAN_GROUP, kind), 1),), sector))
    if not sum(missing.values()):
        # then the crates (Explosives in General), face down
        out += explosives.setup_rigs(board, state) + explosives.swaps(state)
        out.append(EndSetup())
    return out


@cache
def deploy_sectors(board: Board, kind: str) -> frozenset[str]:
    """The sectors the set-up table allows a German figure of ``kind`` in (made once a
    board and kind: the random set-up asks at every figure)."""
    return frozenset(s for allowed, units, _ in table(board) if units.get(kind) for s in allowed)


def may_deploy(board: Board, state: AState, kind: str, sector: str,
               where: dict[str, int]) -> bool:
    """May one more German ``kind`` be set up in ``sector`` (at most 9 a sector; the set-up
    table still fillable: The German Player Goes First)?  ``where``: that kind's sectors now."""
    return deployable(board, state, kind, where)(sector)


def deployable(board: Board, state: AState, kind: str,
               where: dict[str, int]) -> Callable[[str], bool]:
    """``may_deploy`` of one kind and placement, asked of any sector (the matching of the
    placement looked up once: the set-up asks it of many sectors)."""
    fits = room(board, kind, where)  # feasible(where + 1 in the sector)
    limit = board.max_per_side

    def may(sector: str) -> bool:
        return friends(state, sector, GERMAN) < limit and fits(sector)

    return may


def allied_setup(board: Board, state: AState) -> list[Command]:
    out: list[Command] = []
    if state.track:
        return [EndSetup()]
    if allied_on_map_done(board, state):
        order = sorted(state.pool.elements(), key=lambda k: (KINDS.index(k[1]), k[0]))
        groups: list[tuple[Key, int]] = []
        for key in order:
            if groups and groups[-1][0] == key:
                groups[-1] = (key, groups[-1][1] + 1)
            else:
                groups.append((key, 1))
        return [ReserveOrder(tuple(groups))]
    for sector in board.start_sectors:
        here = state.units.get(sector, Counter())
        art = sum(n for k, n in here.items() if k[1] == "art")
        others = sum(here.values()) - art
        for key in sorted(state.pool, key=lambda k: (KINDS.index(k[1]), k[0])):
            if key[0] == "US" and sector != board.starts.get("centre"):
                continue
            if (art if key[1] == "art" else others) >= (4 if key[1] == "art" else 5):
                continue
            out.append(Deploy(((key, 1),), sector))
    return out


def reachable(board: Board, state: AState, start: str, key: Key, mp: int,
              fresh: bool) -> dict[str, tuple[str, ...]]:
    """Sectors a figure can move to outside enemy territory, with a cheapest path each.

    Each sector's figures per side are read from what its ``Figures`` keeps
    (``presence.side_totals``), and a border that is not plain is crossed by ``step`` (what
    ``movement.crossing`` answers, without the words of a refusal): few Python calls a
    sector looked at (the random policy asks this of nearly every figure it moves)."""
    side = side_of(key[0])
    foe = GERMAN if side == ALLIED else ALLIED
    limit = board.max_per_side
    hostile: dict[str, int] = {}  # sector -> enemy units there (each counted once)
    full: dict[str, bool] = {}  # sector -> the side has 9 units there
    best: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, (start,))}
    queue: list[tuple[int, tuple[str, ...]]] = [(0, (start,))]
    links = board.links
    neighbours = board.neighbours
    kind = key[1]
    units = state.units  # an empty sector holds neither friends nor enemies
    get = units.get
    pop, push = heapq.heappop, heapq.heappush
    opened = open_borders(state)
    while queue:
        spent, path = pop(queue)
        here = path[-1]
        if best[here][0] < spent:
            continue
        if here != start:
            crowded = full.get(here)
            if crowded is None:
                counts = get(here, NO_FIGURES)
                crowded = full[here] = bool(counts) and (
                    getattr(counts, TOTALS_KEPT, None) or side_totals(counts))[side] >= limit
            if crowded:
                continue  # cannot pass through a full sector
        around = links[here]
        for there in neighbours[here]:
            foes = hostile.get(there)
            if foes is None:
                counts = get(there, NO_FIGURES)
                foes = hostile[there] = (getattr(counts, TOTALS_KEPT, None)
                                         or side_totals(counts))[foe] if counts else 0
            if foes:
                continue
            link = around[there]
            if link.kind == "plain":
                total, ends = spent + 1, False  # as passage() answers for a plain border
            else:
                crossed = passage(state, link, here, there, kind, side, len(path) == 1, fresh,
                                  opened)
                if type(crossed) is not tuple:
                    continue  # refused
                total, ends = spent + crossed[0], crossed[1]
            if total > mp:
                continue
            known = best.get(there)
            if known is not None and known[0] <= total:
                continue
            path_there = (*path, there)
            best[there] = (total, path_there)
            if not ends:
                push(queue, (total, path_there))
    out = {}
    for s, (_, p) in best.items():
        if s == start:
            continue
        crowded = full.get(s)
        if crowded is None:
            crowded = s in units and friends(state, s, side) >= limit
        if not crowded:
            out[s] = p
    return out



def movement(board: Board, state: AState) -> list[Command]:
    if state.fallback is not None:
        unseen = Counter(k for k in state.fallback.unseen if k[1] == "inf")
        out: list[Command] = [Support(())]
        for key, n in sorted(unseen.items()):
            out += [Support(((key, i),)) for i in range(1, n + 1)]
        return out
    out = []
    for sector in [s for s in board.order if s in state.units]:
        for key in sorted(state.units[sector]):
            if movable(state, key):
                out += figure_moves(board, state, sector, key)
    side = state.mover
    if held(state, side) and state.joker_sector is None:
        # Jokers: one sector's units gain an extra movement point
        out += [JokerMove(s) for s in board.order
                if s in state.units and s not in state.intruded
                and any(movable(state, k) for k in state.units[s])]
    out.append(EndMovement())
    return out


def movable(state: AState, key: Key) -> bool:
    """A figure of the mover (in a three-player game, of the player whose part it is)."""
    if side_of(key[0]) != state.mover:
        return False
    return state.part is None or player_of(key[0]) == state.part


def figure_moves(board: Board, state: AState, sector: str, key: Key) -> list[Command]:
    """One figure's moves, intrusions and fall backs from ``sector``."""
    return [make(*fields) for make, fields in figure_options(board, state, sector, key)]


Unmade = tuple[Callable[..., Command], tuple[Any, ...]]
"""A command not made yet: its class and its fields."""


def figure_options(board: Board, state: AState, sector: str, key: Key) -> list[Unmade]:
    """``figure_moves`` in its order, each command not made yet (the random policy makes
    the one it draws alone)."""
    side = state.mover
    out: list[Unmade] = []
    options = points(board, state, sector, key)
    if not options or options[0][0] == 0:
        return out
    mp, fresh = options[0]
    one = ((key, 1),)
    if enemies(state, sector, side) > 0:
        for there in board.neighbours[sector]:
            if enemies(state, there, side):
                used = state.intruded.get(there, friends(state, there, side))
                if used >= board.max_per_side:
                    continue
            elif friends(state, there, side) >= board.max_per_side:
                continue
            if _crossing_cost(board, state, sector, there, key, fresh) <= mp:
                out.append((FallBack, (one, sector, there)))
        return out
    out += [(Move, (one, path))
            for path in reachable(board, state, sector, key, mp, fresh).values()]
    for there in board.neighbours[sector]:
        if not enemies(state, there, side):
            continue
        room = board.max_per_side - friends(state, there, side) - state.intruded.get(there, 0)
        if room < 1:
            continue
        if _crossing_cost(board, state, sector, there, key, fresh) <= mp:
            out.append((Invade, (there, ((sector, one),))))
    return out


def _crossing_cost(board: Board, state: AState, sector: str, there: str, key: Key,
                   fresh: bool) -> float:
    """The points a figure of ``key`` spends to cross into ``there`` (Crossing Waterways);
    infinite where it may not cross."""
    try:
        cost, _, _ = crossing(board, state, sector, there, key[1], state.mover, True, fresh)
    except IllegalMove:
        return float("inf")
    return cost


def combat(board: Board, state: AState) -> list[Command]:
    if state.combats:
        return [CombatRoll(state.combats[0])]
    need = waiting(board, state)
    if need == "roll":
        return [WithdrawOrder()]
    if need == "first":
        return [First(ALLIED), First(GERMAN)]
    if need == "where":
        current = _current(state)
        assert current is not None
        side = side_of(current.key[0])
        return [Withdraw(((current.key, 1),), current.sector, d)
                for d in destinations(board, state, current.sector, side)]
    return []
