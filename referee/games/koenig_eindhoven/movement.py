"""Movement (8.0-8.4, Exclusive 8.5, 4.0 redeployment): the cost of each step, the path a
log writes checked hex by hex, and every hex a unit can reach.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.state import KState, Places

STACK = 2
"""8.2: two units a hex, both sides together, at all times."""


def half(value: int) -> int:
    """2.2 The Rule of Halves: fractions round up."""
    return (value + 1) // 2


@dataclass(frozen=True, slots=True)
class Refusal:
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class Step:
    """What entering one hex costs, or why it cannot be entered."""

    cost: int
    refusal: Refusal | None = None
    close_combat: bool = False
    """The hex holds exactly one enemy unit: entering it starts Close Combat (8.3, 10.0)."""


class Occupancy:
    """Who is in each hex (a view of the state for one move).  Never changed once made:
    ``occupancy`` keeps one on the state's table of hexes (``Places``), which makes the view
    anew when a unit's hex changes (``moved``)."""

    __slots__ = ("board", "by_side", "count")

    def __init__(self, board: Board, state: KState, moving: str | None = None) -> None:
        self.board = board
        self.count: dict[str, int] = {}
        self.by_side: dict[str, dict[str, int]] = {}
        """Side -> hex -> how many of its units are there."""
        units = board.units
        count = self.count
        for unit, place in state.hex.items():
            if place is not None and unit != moving:
                count[place] = count.get(place, 0) + 1
                side = units[unit].side
                mine = self.by_side.get(side)
                if mine is None:
                    mine = self.by_side[side] = {}
                mine[place] = mine.get(place, 0) + 1

    def moved(self, unit: str, before: str | None, after: str | None) -> Occupancy | None:
        """The view with ``unit`` moved from ``before`` to ``after`` (``None``: off the map
        or not in the table), made anew (this one is never changed: copies of the state may
        share it); ``None`` for a unit the board does not know (the view is dropped)."""
        if before == after:
            return self
        spec = self.board.units.get(unit)
        if spec is None:
            return None
        side = spec.side
        made = Occupancy.__new__(Occupancy)
        made.board = self.board
        count = made.count = dict(self.count)
        by_side = made.by_side = dict(self.by_side)
        mine = by_side[side] = dict(by_side.get(side, ()))
        if before is not None:
            for counts in (count, mine):
                left = counts[before] - 1
                if left:
                    counts[before] = left
                else:
                    del counts[before]
        if after is not None:
            count[after] = count.get(after, 0) + 1
            mine[after] = mine.get(after, 0) + 1
        if not mine:
            del by_side[side]
        return made

    def without(self, place: str, side: str) -> Occupancy:
        """The view with one unit of ``side`` in ``place`` left out (the unit that moves)."""
        made = Occupancy.__new__(Occupancy)
        made.board = self.board
        made.count = _less(self.count, place)
        made.by_side = by_side = dict(self.by_side)
        mine = by_side[side] = _less(by_side[side], place)
        if not mine:
            del by_side[side]
        return made

    def enemies(self, hex_id: str, side: str) -> int:
        return sum(c.get(hex_id, 0) for s, c in self.by_side.items() if s != side)

    def units(self, hex_id: str) -> int:
        return self.count.get(hex_id, 0)

    def enemy_counts(self, side: str) -> dict[str, int]:
        """Hex -> the number of units of the other side in it (hexes with none left out);
        read it, never change it (it may be the occupancy's own table)."""
        others = [c for s, c in self.by_side.items() if s != side]
        if len(others) == 1:
            return others[0]
        found: dict[str, int] = {}
        for counts in others:
            for hex_id, n in counts.items():
                found[hex_id] = found.get(hex_id, 0) + n
        return found


def _less(counts: dict[str, int], place: str) -> dict[str, int]:
    """A copy of ``counts`` with one fewer in ``place`` (and no entry when none is left)."""
    fewer = dict(counts)
    left = fewer[place] - 1
    if left:
        fewer[place] = left
    else:
        del fewer[place]
    return fewer


def occupancy(board: Board, state: KState, moving: str | None = None) -> Occupancy:
    """``Occupancy(board, state, moving)``, made once for a table of hexes and kept on it
    (``Places.seen``: a unit's hex set anew moves it in the view, any other change of the
    table drops the view)."""
    hexes = state.hex
    occ = getattr(hexes, "seen", None)
    if type(occ) is not Occupancy or occ.board is not board:
        occ = Occupancy(board, state)
        if type(hexes) is Places:  # a plain dict keeps nothing
            hexes.seen = occ
    if moving is not None:
        place = hexes[moving]
        if place is not None:
            return occ.without(place, board.units[moving].side)
    return occ


def step(board: Board, occ: Occupancy, side: str, a: str | None, b: str,
         road_entry: bool = False, night: bool = False) -> Step:
    """The cost of entering ``b`` from ``a`` (``None``: from off the map; ``road_entry``:
    along the entry road, Exclusive 8.5)."""
    tec = board.tec
    target = board.hexes[b]
    if a is None:
        cost = tec.movement["road"] if road_entry else tec.enter_cost(target.terrain,
                                                                      target.hilltop)
    else:
        if not board.adjacent(a, b):
            return Step(0, Refusal("8.0", f"{b} is not adjacent to {a}: a unit moves from hex "
                                   "to adjacent hex, never skipping a hex"))
        side_ = board.hexside(a, b)
        if side_.river and side_.bridge is None:
            name = f" ({side_.name})" if side_.name else ""
            return Step(0, Refusal("8.1.1", f"the hexside {a}-{b} is a River hexside{name} "
                                   "without a bridge: units may not move across it"))
        cost = board.enter_cost(a, b)  # 8.1, 8.1.2: terrain and hexsides, or the road
    enemies = occ.enemies(b, side)
    if enemies:
        if night:
            return Step(0, Refusal("4.0", f"{b} holds an enemy unit: a night redeployment "
                                   "never enters an enemy hex (no Close Combat at night)"))
        if occ.units(b) >= STACK:
            return Step(0, Refusal("8.2", f"{b} already holds two units: it cannot be entered, "
                                   "not even to start Close Combat (8.2, 10.0)"))
        return Step(cost + tec.movement["close_combat"], close_combat=True)
    if occ.units(b) >= STACK:
        return Step(0, Refusal("8.2", f"{b} already holds two units: stacking is two units a "
                               "hex, both sides together, at all times (moving through too)"))
    return Step(cost)


def can_step(board: Board, occ: Occupancy, side: str, here: str, allowance: int,
             night: bool = False) -> bool:
    """Whether a unit of ``side`` in ``here`` can take a first step within ``allowance``:
    some neighbour that ``step`` lets it enter (or start Close Combat in) at a cost no more
    than that.  The same costs and refusals as ``step``, from the board's ``crossings`` and
    the hexes' counts (``reachable`` does the same), without a ``Step`` for each
    neighbour: ``forced`` asks it before every line a log replays."""
    count = occ.count
    enemy = occ.enemy_counts(side)
    close_cost = board.tec.movement["close_combat"]
    for there, price in board.crossings(here):
        units = count.get(there, 0)
        if units:
            if there in enemy:
                # 4.0: never into an enemy hex at night; 8.2: not into two units; 10.0:
                # Close Combat costs its extra MP.
                if not night and units < STACK and price + close_cost <= allowance:
                    return True
                continue
            if units >= STACK:
                continue  # 8.2
        if price <= allowance:
            return True
    return False


@dataclass(frozen=True, slots=True)
class Walk:
    """A path checked: what it cost and whether it ends in Close Combat."""

    spent: int
    close_combat: bool


def walk(board: Board, occ: Occupancy, side: str, start: str | None, entry: str | None,
         path: tuple[str, ...], allowance: int, night: bool = False) -> Walk | Refusal:
    """Check a path hex by hex.  ``start`` is the unit's hex, or ``None`` for a reinforcement
    entering by road ``entry`` (its first hex: the entry hex, or one adjacent to it when an
    enemy unit blocks the entry hex, 8.3.1).

    A step on the map that ``step`` would allow is costed here from the board's
    ``crossing_costs`` and the hexes' counts (the same costs, without a ``Step``); one it
    would refuse is asked of ``step``, which words the refusal."""
    spent = 0
    here = start
    count = occ.count
    enemy = occ.enemy_counts(side)
    close_cost = board.tec.movement["close_combat"]
    cost, close = 0, False
    s: Step | None = None
    for index, there in enumerate(path):
        if here is None:
            assert entry is not None
            gate = board.entry_roads[entry]
            if there == gate:
                s = step(board, occ, side, None, there, road_entry=True)
            elif board.adjacent(gate, there) and occ.enemies(gate, side):
                if there not in beside_entry(board, gate):
                    return Refusal("8.3.1", f"{there} is across a River hexside from road "
                                   f"{entry}'s entry hex {gate}: a unit entering beside a "
                                   "blocked entry hex comes on along its own bank; it cannot "
                                   "take the bridge out of the blocked hex (8.1.1, R16)")
                s = step(board, occ, side, None, there)
            elif board.adjacent(gate, there):
                return Refusal("8.3.1", f"road {entry} enters the map at {gate}: a unit enters "
                               f"at a hex adjacent to it ({there}) only when an enemy unit "
                               "blocks the entry hex")
            else:
                return Refusal("8.5", f"road {entry} enters the map at {gate}, not {there}")
        else:
            price = board.crossing_costs(here).get(there)
            units = count.get(there, 0) if price is not None else 0
            if price is not None and not units:
                cost, close = price, False
            elif price is not None and there in enemy and not night and units < STACK:
                cost, close = price + close_cost, True  # 10.0
            elif price is not None and there not in enemy and units < STACK:
                cost, close = price, False
            else:
                s = step(board, occ, side, here, there, night=night)
        if s is not None:
            if s.refusal is not None:
                return s.refusal
            cost, close = s.cost, s.close_combat
            s = None
        if spent + cost > allowance:
            what = "Close Combat in " if close else ""
            return Refusal("8.1", f"entering {what}{there} costs {cost} MP, but only "
                           f"{allowance - spent} of {allowance} remain (8.1: a unit that cannot "
                           "pay the total cost cannot enter)")
        spent += cost
        if close and index != len(path) - 1:
            return Refusal("8.3", f"{there} holds an enemy unit: a unit must stop when it "
                           "enters it and engage in Close Combat")
        here = there
    return Walk(spent, bool(path) and close)


def entry_steps(board: Board, occ: Occupancy, side: str, entry: str) -> list[tuple[str, Step]]:
    """The first hexes of a reinforcement entering by road ``entry`` and what entering each
    costs: the entry hex along the road (Exclusive 8.5), and the hexes adjacent to it when an
    enemy unit blocks it (8.3.1)."""
    gate = board.entry_roads[entry]
    firsts = [(gate, step(board, occ, side, None, gate, road_entry=True))]
    if occ.enemies(gate, side):
        firsts += [(h, step(board, occ, side, None, h)) for h in beside_entry(board, gate)]
    return firsts


def beside_entry(board: Board, gate: str) -> list[str]:
    """8.3.1 "any hex adjacent to the prescribed entry hex", on the entry hex's side of every
    River hexside (R16): a unit kept out of the entry hex by an enemy unit comes on beside it
    along the bank it arrives on, never across a river (8.1.1), nor over a bridge that leaves
    from the blocked hex (it would have to pass through that hex)."""
    return [h for h in board.neighbours(gate) if not board.hexside(gate, h).river]


def reachable(board: Board, occ: Occupancy, side: str, start: str | None,
              entry: str | None, allowance: int, night: bool = False,
              close: dict[str, tuple[int, tuple[str, ...]]] | None = None,
              ) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every hex the unit can end its movement in without Close Combat: the cheapest cost and
    a path to it (ties broken by hex id, so the listing is stable).  With ``close``, the
    enemy hexes it can enter for Close Combat go there (10.0)."""
    best: dict[str, tuple[int, tuple[str, ...]]] = {}
    queue: list[tuple[int, tuple[str, ...], str]] = []
    if start is None:
        assert entry is not None
        for h, s in entry_steps(board, occ, side, entry):
            if s.refusal is None and s.cost <= allowance:
                if s.close_combat:
                    _closer(close, h, s.cost, (h,))
                else:
                    heapq.heappush(queue, (s.cost, (h,), h))
    else:
        heapq.heappush(queue, (0, (), start))
    # The same costs and refusals as ``step`` (the search takes them from the board's
    # ``crossings`` and the hexes' counts, without a ``Step`` at every one).  A queue entry
    # is (cost, path, last hex); ``queued`` keeps the least entry for each hex so far, and an
    # entry no less than it is never queued (it would be taken after it and passed over).
    count = occ.count
    enemy = occ.enemy_counts(side)
    close_cost = board.tec.movement["close_combat"]
    dearer = close_cost >= 0  # a hex beyond the allowance is beyond it for Close Combat too
    crossings = board.crossing_table()
    queued = {entry[2]: (entry[0], entry[1]) for entry in queue}
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        cost, path, here = pop(queue)
        if here in best:
            continue
        best[here] = (cost, path)
        for there, price in crossings[here]:
            total = cost + price
            if total > allowance and dearer:
                continue
            units = count.get(there, 0)
            if units:
                if there in enemy:
                    # 4.0: never into an enemy hex at night; 8.2: not into two units; 10.0:
                    # Close Combat costs its extra MP and ends the move.
                    total += close_cost
                    if not night and units < STACK and total <= allowance:
                        _closer(close, there, total, (*path, there))
                    continue
                if units >= STACK:
                    continue  # 8.2
            if total > allowance:
                continue
            known = queued.get(there)
            if known is not None and known[0] < total:
                continue
            longer = (*path, there)
            if known is not None and known <= (total, longer):
                continue
            queued[there] = (total, longer)
            push(queue, (total, longer, there))
    if start is not None:
        best.pop(start, None)
    return best


def _closer(close: dict[str, tuple[int, tuple[str, ...]]] | None, hex_id: str, cost: int,
            path: tuple[str, ...]) -> None:
    if close is not None and (hex_id not in close or close[hex_id][0] > cost):
        close[hex_id] = (cost, path)
