"""Supply (8): the supply check at the start of each game-turn from Game-turn 2, the markers
of 8.1 and the low-supply flip of 8.3.

Paths run through friendly-controlled spaces (contested ones too); the unit's own space may be
enemy-controlled.  A path crosses a river only at a road bridge or, for the German player,
at the Pannerden Ferry (its two banks count as joined), and never over the Oosterbeek foot
crossing.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.games.wwiic.board import ALLIED, BOX, FERRY, GERMAN, RIVER, SPACE, Board
from referee.games.wwiic.state import WState

GENERAL_OVERLAND = 3
AIRBORNE_OVERLAND = 4


def _passable(board: Board, here: str, nxt: str) -> bool:
    crossing = board.exits[here][nxt]
    return board.kind[nxt] == SPACE and not (crossing.kind == RIVER and not crossing.bridge)


def _reach(board: Board, state: WState, start: str, side: str, limit: int) -> dict[str, int]:
    """Friendly-controlled spaces within ``limit`` overland steps of ``start``."""
    found = {start: 0}
    frontier = [start]
    passable = board.supply_exits  # the exits ``_passable`` lets through, in their order
    allied = state.allied_control
    want_allied = side == ALLIED  # ``state.controller(nxt) == side``
    for step in range(1, limit + 1):
        following: list[str] = []
        for here in frontier:
            for nxt in passable[here]:
                if nxt in found or (nxt in allied) != want_allied:
                    continue
                found[nxt] = step
                following.append(nxt)
        frontier = following
    return found


def road_net(board: Board, state: WState) -> set[str]:
    """Allied-controlled spaces joined by road to De Groote through Allied-controlled spaces
    (8: the Allied general supply path's road part)."""
    source = board.objective_start
    if state.controller(source) != ALLIED:
        return set()
    found = {source}
    frontier = [source]
    while frontier:
        following: list[str] = []
        for here in frontier:
            for nxt, crossing in board.exits[here].items():
                if (
                    nxt not in found and crossing.road and board.kind[nxt] == SPACE
                    and state.controller(nxt) == ALLIED
                ):
                    found.add(nxt)
                    following.append(nxt)
        frontier = following
    return found


def german_sources(board: Board, state: WState) -> dict[str, set[str]]:
    """Formation -> German-controlled spaces adjoining one of its off-map boxes (8)."""
    out: dict[str, set[str]] = {}
    for box in board.boxes.values():
        for space in box.spaces:
            if state.controller(space) == GERMAN:
                out.setdefault(box.formation, set()).add(space)
    return out


def german_in_supply(board: Board, state: WState, unit: str,
                     sources: dict[str, set[str]]) -> bool:
    """8 German supply path: any length, to a German-controlled space adjoining an off-map box
    of the unit's formation."""
    place = state.location[unit]
    if place is None:
        return False
    if board.kind[place] == BOX:
        return True
    targets = sources.get(board.units[unit].formation, set())
    start = [place] if board.kind[place] == SPACE else list(board.ferry_banks)
    seen = set(start)
    frontier = list(start)
    if place in targets and state.controller(place) == GERMAN:
        return True
    while frontier:
        following: list[str] = []
        for here in frontier:
            nexts = list(board.exits[here])
            if here in board.ferry_banks:
                nexts += [b for b in board.ferry_banks if b != here]
            for nxt in nexts:
                if nxt in seen or board.kind.get(nxt) != SPACE:
                    continue
                if nxt in board.exits[here] and not _passable(board, here, nxt):
                    continue
                if state.controller(nxt) != GERMAN:
                    continue
                if nxt in targets:
                    return True
                seen.add(nxt)
                following.append(nxt)
        frontier = following
    return False


def _settled_allied(board: Board, state: WState, unit: str) -> bool | None:
    """The Allied answers no supply path is searched for: a unit not in a map space is not in
    supply by a path, and an airborne unit that made the special crossing last turn is (8);
    None: search its paths."""
    place = state.location[unit]
    if place is None or board.kind[place] != SPACE:
        return False
    if board.units[unit].airborne and state.special_crossers.get(unit) == state.turn - 1:
        return True
    return None


def allied_in_supply(board: Board, state: WState, unit: str, roads: set[str]) -> bool:
    """8 Allied general path (three overland spaces to a road space, then by road to De
    Groote), airborne path (four overland spaces to a supply source of the formation or the
    Polish supply marker) and the special crossing's automatic supply."""
    settled = _settled_allied(board, state, unit)
    if settled is not None:
        return settled
    place = state.location[unit]
    assert place is not None  # a unit off the map was settled above
    info = board.units[unit]
    near = _reach(board, state, place, ALLIED, GENERAL_OVERLAND)
    if any(s in roads for s in near):
        return True
    if info.airborne:
        far = _reach(board, state, place, ALLIED, AIRBORNE_OVERLAND)
        if any(s in _sources(board, state, info.formation) and state.controller(s) == ALLIED
               for s in far):
            return True
    return False


def _sources(board: Board, state: WState, formation: str) -> set[str]:
    """The airborne supply sources of ``formation`` (8), the Polish marker's space with them
    for the British 1st Airborne."""
    sources = set(board.supply_sources.get(formation, ()))
    if formation == board.first_airborne and state.polish_marker is not None:
        sources.add(state.polish_marker)
    return sources


class AlliedSupply:
    """``allied_in_supply`` for every Allied unit of one supply check, each overland search
    made once: from the targets (the road net; each formation's sources) outward through
    Allied-controlled spaces, instead of from each unit's space toward them.  The same
    answers where an overland step may be taken both ways (``Board.supply_exits``
    symmetric, as the scenario's borders are); ``tests/games/wwiic/test_supply_fast.py``
    compares the two on the positions of self-played games."""

    def __init__(self, board: Board, state: WState, roads: set[str]) -> None:
        self.board = board
        self.state = state
        self.roads = roads
        self.toward: dict[str | None, dict[str, int]] = {}
        """Allied-controlled spaces and their overland distance to the road net (key
        ``None``) or to a formation's sources, up to the path's length."""

    def _toward(self, targets: set[str], limit: int) -> dict[str, int]:
        allied = self.state.allied_control
        passable = self.board.supply_exits
        found = {target: 0 for target in targets if target in allied}
        frontier = list(found)
        for step in range(1, limit + 1):
            following: list[str] = []
            for here in frontier:
                for nxt in passable[here]:
                    if nxt in found or nxt not in allied:
                        continue
                    found[nxt] = step
                    following.append(nxt)
            frontier = following
        return found

    def _within(self, place: str, key: str | None, limit: int) -> bool:
        """A path of at most ``limit`` overland steps from ``place`` (of either control)
        through Allied-controlled spaces to the targets of ``key``."""
        toward = self.toward.get(key)
        if toward is None:
            targets = self.roads if key is None else _sources(self.board, self.state, key)
            toward = self.toward[key] = self._toward(targets, limit)
        if place in toward:
            return True  # an Allied-controlled space on such a path, or a target itself
        return any(toward.get(nxt, limit) < limit for nxt in self.board.supply_exits[place])

    def __call__(self, unit: str) -> bool:
        board, state = self.board, self.state
        settled = _settled_allied(board, state, unit)
        if settled is not None:
            return settled
        place = state.location[unit]
        assert place is not None  # a unit off the map was settled above
        info = board.units[unit]
        if self._within(place, None, GENERAL_OVERLAND):
            return True
        return info.airborne and self._within(place, info.formation, AIRBORNE_OVERLAND)


class GermanSupply:
    """``german_in_supply`` for every German unit in a map space during one supply check:
    the German-controlled map spaces a supply path joins to each formation's sources, each
    part of the board searched once (formations share their parts: seven searches of the
    same spaces a turn before), instead of a search from each unit's space.  The same
    answers where an overland step may be taken both ways (``Board.supply_symmetric``); a
    unit in the ferry box or an off-map box is answered the long way.
    ``tests/games/wwiic/test_supply_fast.py`` compares the two on random positions."""

    def __init__(self, board: Board, state: WState, sources: dict[str, set[str]]) -> None:
        self.board = board
        self.state = state
        self.sources = sources
        self.part: dict[str, str] = {}
        """German-controlled map spaces and their part of the board (the spaces a supply
        path joins them to), named by the space its search started from."""
        self.joined: dict[str, set[str]] = {}
        """Per formation: the parts of its sources."""

    def _search(self, first: str) -> None:
        """Name ``first``'s part after it: every German-controlled map space joined to it."""
        part, allied = self.part, self.state.allied_control
        links = self.board.german_supply_links
        part[first] = first
        frontier = [first]
        while frontier:
            following: list[str] = []
            for here in frontier:
                for nxt in links[here]:
                    if nxt not in part and nxt not in allied:
                        part[nxt] = first
                        following.append(nxt)
            frontier = following

    def _joined(self, formation: str) -> set[str]:
        found = self.joined.get(formation)
        if found is not None:
            return found
        board, allied, part = self.board, self.state.allied_control, self.part
        found = self.joined[formation] = set()
        for space in self.sources.get(formation, set()):
            if board.kind.get(space) == SPACE and space not in allied:
                if space not in part:
                    self._search(space)
                found.add(part[space])
        return found

    def __call__(self, unit: str) -> bool:
        board, state = self.board, self.state
        place = state.location[unit]
        if place is None or board.kind[place] != SPACE:
            return german_in_supply(board, state, unit, self.sources)
        formation = board.units[unit].formation
        if place in self.sources.get(formation, ()) and place not in state.allied_control:
            return True
        joined = self._joined(formation)
        part = self.part  # a space of no part searched yet is joined to none of these
        return any(part.get(nxt) in joined for nxt in board.german_supply_links[place])


def supply_check(board: Board, state: WState, events: list[Event]) -> None:
    """Step 4 of the start of a game-turn: Allied, then German (8, 8.1)."""
    roads = road_net(board, state)
    sources = german_sources(board, state)
    fast = AlliedSupply(board, state, roads) if board.supply_symmetric else None
    german_fast = GermanSupply(board, state, sources) if board.supply_symmetric else None
    german: dict[tuple[str | None, str], bool] = {}  # (place, formation): in supply
    for side in (ALLIED, GERMAN):
        marked: list[str] = []
        cleared: list[str] = []
        for unit in board.units_of[side]:  # the side's units, in the board's order
            place = state.location[unit]
            if place is None or board.kind[place] not in (SPACE, BOX, FERRY):
                continue
            if side == ALLIED:
                ok = (fast(unit) if fast is not None
                      else allied_in_supply(board, state, unit, roads))
            else:  # the same answer for every unit of a formation in a place
                key = (place, board.units[unit].formation)
                known = german.get(key)
                if known is None:
                    known = german[key] = (
                        german_fast(unit) if german_fast is not None
                        else german_in_supply(board, state, unit, sources))
                ok = known
            before = state.supply[unit]
            if ok:
                state.supply[unit] = "in"
                if before != "in":
                    cleared.append(unit)
            else:
                airborne = board.units[unit].airborne
                after = "low" if airborne and before != "out" else "out"
                state.supply[unit] = after
                if after != before:
                    marked.append(f"{unit} {'Low Supply' if after == 'low' else 'Out of Supply'}")
        text = f"4. supply check, {side.capitalize()}: "
        parts = []
        if marked:
            parts.append("markers placed: " + ", ".join(marked))
        if cleared:
            parts.append("markers removed: " + ", ".join(cleared))
        out = [u for u in board.units_of[side]
               if state.location[u] is not None and state.supply[u] != "in"]
        if not parts:
            parts.append("no change")
        events.append(Event(
            "supply", text + "; ".join(parts),
            {"side": side, "not_in_supply": {u: state.supply[u] for u in out}},
        ))


def after_combat(state: WState, units: tuple[str, ...], events: list[Event]) -> None:
    """8.3: a Low Supply unit that attacked or defended becomes Out of Supply."""
    flipped = [u for u in units if state.supply.get(u) == "low"]
    for unit in flipped:
        state.supply[unit] = "out"
    if flipped:
        events.append(Event(
            "supply", "Low Supply flipped to Out of Supply after the combat (8.3): "
            + ", ".join(flipped), {"units": flipped},
        ))
