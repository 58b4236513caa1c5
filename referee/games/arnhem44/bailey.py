"""Phase 3.4 - Constructing Bailey Bridges: starting a small or large Bailey bridge with a crew
moved to the engineer squares E01-E08, the round's assembly roll (one d10 per bridge), the
bridge opening when its construction markers reach 0, and the engineers recalled by the green
die of Phase 6.2.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import (
    AIRBORNE,
    ALLIED,
    NATIONALITY,
    Board,
    Key,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.commands import Build, Command, Pass, StartBailey
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.presence import NO_FIGURES
from referee.games.arnhem44.state import BAILEY, AState, Bailey

RULE = "Phase 3.4"
ASSEMBLY = "Phase 3.4/The Assembly of a Bridge"
TITLE = "Phase 3.4 - Constructing Bailey Bridges"
ENGINEER_SQUARES = 8
"""E01 to E08: "there are only 8 engineer spaces available"."""
TOKENS = 12
"""The box holds "12 Bailey bridges"."""
CREW = {"small": 3, "large": 5}
MARKERS = {"small": 10, "large": 20}
SIZE_OF_BORDER = {"waterway": "small", "stream": "large"}
"""A small Bailey bridge crosses a river or canal; a large one one of the 3 major streams."""
HIT_POINTS = 10
"""Veterans/4 (bridge damage): "Small bridges and Bailey bridges have 10 hit points" (large
Bailey bridges too); ``AState.bridge_hits`` keeps the hits an open Bailey bridge took."""


def wrecked(state: AState, bridge: Bailey) -> bool:
    """A Bailey bridge destroyed by bridge damage (Veterans/4): it stays among the Bailey
    bridges (its token is used) but is no crossing; another may be built across its border."""
    return state.bridge_hits.get(bridge.id, 0) >= HIT_POINTS


def bailey_between(state: AState, here: str, there: str) -> Bailey | None:
    """The Bailey bridge (built or under construction, not wrecked) across a border."""
    for bridge in state.baileys:
        a, b = bridge.a, bridge.b
        if ((a == here and b == there) or (a == there and b == here)) and not (
                state.bridge_hits and wrecked(state, bridge)):  # {a, b} == {here, there}
            return bridge
    return None


def open_between(state: AState, here: str, there: str) -> bool:
    """Whether an open Bailey bridge joins the two sectors: "the bridge is finished and
    immediately becomes accessible to all units" (The Assembly of a Bridge)."""
    bridge = bailey_between(state, here, there)
    return bridge is not None and bridge.points == 0


def open_borders(state: AState) -> frozenset[tuple[str, str]]:
    """The borders an open Bailey bridge crosses (``open_between``), both ways: across
    each border, the first Bailey bridge not wrecked (``bailey_between``) with no
    construction marker left, found in one pass over the Bailey bridges."""
    baileys = state.baileys
    if not baileys:
        return frozenset()
    hits = state.bridge_hits
    first: dict[frozenset[str], Bailey] = {}
    for bridge in baileys:
        border = frozenset((bridge.a, bridge.b))
        if border not in first and not (hits and wrecked(state, bridge)):
            first[border] = bridge
    return frozenset(way for b in first.values() if b.points == 0
                     for way in ((b.a, b.b), (b.b, b.a)))


def _german_at(state: AState, sector: str) -> bool:
    here = state.units.get(sector, NO_FIGURES)
    kept: bool | None = getattr(here, GERMAN_KEPT, None)
    if kept is None:
        kept = any(side_of(g) != ALLIED for g, _ in here)
        if type(here) is Figures:  # never changed in place: the answer is kept on it
            setattr(here, GERMAN_KEPT, kept)
    return kept


GERMAN_KEPT = "_german_keys"
"""The attribute of a sector's ``Figures`` that keeps whether a German key is among them."""



def _to_work(state: AState) -> list[Bailey]:
    """Bridges under construction whose assembly step this round has not been dealt with, in
    the order they were started ("He goes through the steps bridge after bridge")."""
    return [b for b in state.baileys
            if b.points > 0 and b.started < state.round and b.worked < state.round]


def blocked(state: AState, bridge: Bailey) -> list[str]:
    """The ends of the construction site that hold enemy troops (The Assembly of a Bridge:
    "He can only continue the assembly on the condition that no enemy troops are present at
    either side of the construction site")."""
    return [s for s in (bridge.a, bridge.b) if _german_at(state, s)]


def pending(state: AState) -> list[Bailey]:
    """Bridges whose assembly roll this round is still to come: those of ``_to_work`` with no
    enemy troops at either side (a blocked bridge gets no roll; its markers stay)."""
    return [b for b in _to_work(state) if not blocked(state, b)]


def free_squares(state: AState) -> int:
    return ENGINEER_SQUARES - len(state.engineers)


def may_crew(state: AState, group: str) -> bool:
    """Airborne troops build only after contact with operation GARDEN (Phase 3.4)."""
    return side_of(group) == ALLIED and (group not in AIRBORNE or group in state.contact)


def site_problem(board: Board, state: AState, start: str, across: str) -> str | None:
    """Why no Bailey bridge can be started from ``start`` across to ``across`` (None: it can)."""
    link = board.links[start].get(across)
    if link is None or link.kind == "plain":
        return (f"{start} and {across} are not separated by a waterway: a Bailey bridge goes "
                "across a river, canal or stream from one sector to another")
    # A Small Bailey Bridge: "It's not necessary to build a Bailey bridge next to a destroyed
    # bridge. It can be placed anywhere on the map": beside an intact bridge too (B2).
    if bailey_between(state, start, across) is not None:
        return f"a Bailey bridge already crosses the {link.water} between {start} and {across}"
    for sector in (start, across):
        if _german_at(state, sector):
            return (f"both sectors must be undisputed, thus free of enemy units: {sector} "
                    "holds German units")
    if len(state.baileys) >= TOKENS:
        return f"all {TOKENS} Bailey bridge tokens are in use"
    return None


def crew_problem(board: Board, state: AState, size: str, start: str,
                 groups: tuple[tuple[Key, int], ...]) -> str | None:
    """Why these figures cannot build a ``size`` Bailey bridge (None: they can)."""
    need = CREW[size]
    total = sum(n for _, n in groups)
    if total != need:
        return (f"a {size} Bailey bridge costs {need} units, not {total}"
                + (" (A Large Bailey Bridge)" if size == "large" else ""))
    if free_squares(state) < need:
        return (f"the engineer squares E01-E08 have {free_squares(state)} free, and the crew "
                f"needs {need}: a player cannot initiate construction if there's not enough "
                "free space")
    nations = {NATIONALITY[g] for (g, _), _ in groups}
    if len(nations) > 1:
        return ("all units must have the same nationality (no mixing US troops with UK "
                f"troops): {', '.join(sorted(nations))}")
    for (group, _), _ in groups:
        if not may_crew(state, group):
            return (f"airborne troops ({group}) cannot be engaged in constructing Bailey "
                    "bridges until they've made contact with operation GARDEN")
    here = state.units.get(start, Counter())
    for key, n in groups:
        if here[key] < n:
            return f"all units must come from the same sector: {start} holds {here[key]} " \
                   f"{key_text(key)}, not {n}"
    return None


def _fill_groups(state: AState, start: str, groups: tuple[tuple[Key, int], ...]) -> tuple[
        tuple[Key, int], ...]:
    """Allied figures written without a group get the only group of that kind in the sector."""
    here = state.units.get(start, Counter())
    out: dict[Key, int] = {}
    for (group, kind), n in groups:
        if group == "":
            options = sorted({g for g, k in here if k == kind and side_of(g) == ALLIED})
            if len(options) != 1:
                raise IllegalMove(RULE, f"name the group of the {kind} figures in {start}"
                                  + (f": {', '.join(f'{kind}/{g}' for g in options)}"
                                     if options else " (there are none)"))
            group = options[0]
        elif side_of(group) != ALLIED:
            raise IllegalMove(RULE, "only the Allied player has the option to construct "
                              "Bailey bridges")
        out[(group, kind)] = out.get((group, kind), 0) + n
    return tuple(out.items())


def start(board: Board, state: AState, command: StartBailey) -> list[Event]:
    """Start a Bailey bridge: the crew leaves the map for the engineer squares."""
    problem = site_problem(board, state, command.start, command.across)
    if problem:
        raise IllegalMove(RULE, problem)
    link = board.links[command.start][command.across]
    size = SIZE_OF_BORDER[link.kind]
    if command.size != size:
        heading = "A Large Bailey Bridge" if size == "large" else "A Small Bailey Bridge"
        raise IllegalMove(
            f"{RULE}/{heading}",
            f"the {link.water} between {command.start} and {command.across} is "
            + ("one of the 3 major streams: a large Bailey bridge connects it" if size == "large"
               else "a river or canal: a small Bailey bridge connects it"))
    groups = _fill_groups(state, command.start, command.groups)
    problem = crew_problem(board, state, size, command.start, groups)
    if problem:
        raise IllegalMove(RULE, problem)
    number = len(state.baileys) + 1
    bridge = Bailey(f"Bailey-{number}", command.start, command.across, size, MARKERS[size],
                    state.round, state.round)
    state.baileys.append(bridge)
    for key, n in groups:
        state.remove(command.start, key, n)
        state.engineers += [key] * n
    squares = ", ".join(f"E{i:02d}" for i in range(len(state.engineers) - CREW[size] + 1,
                                                   len(state.engineers) + 1))
    crew = ", ".join(f"{n} {key_text(k)}" for k, n in groups)
    return [Event("bailey", f"Allied starts {bridge.id}, a {size} Bailey bridge "
                  f"{command.start}->{command.across} across the {link.water}: {crew} to "
                  f"{squares}; {bridge.points} construction markers (no work this round)",
                  {"bailey": bridge.id, "size": size, "between": [bridge.a, bridge.b],
                   "points": bridge.points, "engineers": [key_text(k) for k, n in groups
                                                          for _ in range(n)]})]


def build(board: Board, state: AState, dice: Dice, command: Build) -> list[Event]:
    """The Assembly of a Bridge: one d10 removes that many construction markers."""
    due = pending(state)
    assert due, "no assembly roll waits"
    bridge = due[0]
    if command.bridge.casefold() != bridge.id.casefold():
        named = [b for b in state.baileys if b.id.casefold() == command.bridge.casefold()]
        if named and named[0] in _to_work(state) and blocked(state, named[0]):
            raise IllegalMove(ASSEMBLY, _halted(state, named[0]))
        if named and named[0].started == state.round:
            raise IllegalMove(RULE, f"no work on {named[0].id} this round: the Allied player "
                              "cannot work on a bridge the same turn he started the "
                              "construction (the material has to be transported first)")
        if named and named[0].points == 0:
            raise IllegalMove(ASSEMBLY, f"{named[0].id} is finished: it has no construction "
                              "markers left")
        raise IllegalMove(ASSEMBLY, f"the assembly goes bridge after bridge: {bridge.id} is next, "
                          f"not {command.bridge}")
    (face,) = dice.roll(10, 1, f"assembly of {bridge.id} ({bridge.points} markers left)", low=0)
    removed = min(face, bridge.points)
    bridge.points -= removed
    bridge.worked = state.round
    text = f"The assembly of {bridge.id}: {face}, {removed} construction marker" \
           f"{'s' if removed != 1 else ''} removed"
    if bridge.points:
        text += f", {bridge.points} left"
    else:
        text += f"; {bridge.id} {bridge.a}->{bridge.b} is finished and open to all units"
    return [Event("build", text, {"bailey": bridge.id, "face": face, "points": bridge.points,
                                  "open": bridge.points == 0})]


def _halted(state: AState, bridge: Bailey) -> str:
    return (f"no assembly roll for {bridge.id}: enemy troops are at "
            f"{' and '.join(blocked(state, bridge))}; he can only continue the assembly when no "
            "enemy troops are present at either side of the construction site (its markers "
            "stay)")


def starts(board: Board, state: AState) -> list[StartBailey]:
    """One crew per site, size and nationality that may start a Bailey bridge now (the
    figures in the canonical order: infantry, tanks, artillery).  Any other crew of the same
    nationality from that sector is accepted as well."""
    return list(_starts(board, state))


def _starts(board: Board, state: AState) -> Iterator[StartBailey]:
    """``starts`` one by one (``advance`` asks only whether there is one).  Each sector's
    crews are sorted out once (``_crews``), and a sector where no nationality has a crew
    for the smaller bridge is passed over without looking at its borders."""
    least = min(CREW.values())
    if len(state.baileys) >= TOKENS or free_squares(state) < least:
        return
    units = state.units
    for sector in _water_sectors(board):  # a sector with no waterway starts no bridge
        here = units.get(sector)
        if here is None or _german_at(state, sector):
            continue
        crews = _crews(state, here)
        if not any(sum(here[k] for k in keys) >= least for keys in crews.values()):
            continue  # (no crew: nothing below would be yielded)
        for across in board.neighbours[sector]:
            link = board.links[sector][across]
            if link.kind == "plain" or site_problem(board, state, sector, across):
                continue
            size = SIZE_OF_BORDER[link.kind]
            need = CREW[size]
            if free_squares(state) < need:
                continue
            for keys in crews.values():
                crew: list[tuple[Key, int]] = []
                left = need
                for key in keys:
                    take = min(left, here[key])
                    if take:
                        crew.append((key, take))
                        left -= take
                if not left:
                    yield StartBailey(size, tuple(crew), sector, across)


def _crews(state: AState, here: Counter[Key]) -> dict[str, list[Key]]:
    """Nationality (in name order) -> its keys in ``here`` that may build a Bailey bridge
    (``may_crew``), in the canonical order."""
    found: dict[str, list[Key]] = {}
    for key in here:
        if may_crew(state, key[0]):
            found.setdefault(NATIONALITY[key[0]], []).append(key)
    return {nation: sorted(found[nation], key=key_order) for nation in sorted(found)}


@cache
def _water_sectors(board: Board) -> tuple[str, ...]:
    """The sectors of the board in its order that border a waterway (a link not plain): the
    only ones a Bailey bridge may start from (``site_problem``)."""
    return tuple(s for s in board.order
                 if any(link.kind != "plain" for link in board.links[s].values()))


def open_phase(board: Board, state: AState, events: list[Event]) -> bool:
    """Enter Phase 3.4; True while it waits for a roll or the Allied player's decision."""
    state.phase = BAILEY
    building = [b.id for b in state.baileys if b.points > 0]
    events.append(Event("phase", TITLE + (": under construction " + ", ".join(building)
                                          if building else ""), {"phase": BAILEY}))
    return advance(board, state, events)


def advance(board: Board, state: AState, events: list[Event]) -> bool:
    """Pass over bridges with enemy troops at either side (no work this round); True while a
    roll or a decision waits, False when the phase is over."""
    for bridge in _to_work(state):
        enemy = blocked(state, bridge)
        if not enemy:
            return True
        bridge.worked = state.round
        events.append(Event("build-halted", f"no work on {bridge.id} this round: enemy troops "
                            f"at {' and '.join(enemy)} (The Assembly of a Bridge)",
                            {"bailey": bridge.id}))
    if next(_starts(board, state), None) is not None:
        return True
    events.append(Event("phase", f"{TITLE}: no Bailey bridge can be started",
                        {"phase": BAILEY}))
    return False


def act(board: Board, state: AState, command: Command, dice: Dice) -> tuple[list[Event], bool]:
    """One command of Phase 3.4; (events, whether the phase goes on)."""
    if pending(state):
        if not isinstance(command, Build):
            raise IllegalMove(ASSEMBLY, f"the assembly roll for {pending(state)[0].id} comes first "
                              f"(build {pending(state)[0].id})")
        events = build(board, state, dice, command)
        return events, advance(board, state, events)
    if isinstance(command, Pass):
        return [Event("pass", "Allied starts no (more) Bailey bridges")], False
    if isinstance(command, StartBailey):
        events = start(board, state, command)
        return events, advance(board, state, events)
    if isinstance(command, Build):
        named = [b for b in _to_work(state) if b.id.casefold() == command.bridge.casefold()]
        if named and blocked(state, named[0]):
            raise IllegalMove(ASSEMBLY, _halted(state, named[0]))
        raise IllegalMove(ASSEMBLY, f"no assembly roll waits: {command.bridge} is not under "
                          "construction, was started this round (the material has to be "
                          "transported first) or has had its roll")
    raise IllegalMove(RULE, f"'{command}' must wait: start a Bailey bridge (bailey small|large "
                      "GROUPS FROM->ACROSS) or pass")


def decision(state: AState) -> str:
    due = pending(state)
    if due:
        return f"{TITLE}: the assembly roll for {due[0].id} (build {due[0].id})"
    return (f"{TITLE}: start a Bailey bridge (bailey small|large GROUPS FROM->ACROSS) or "
            "pass")


def legal(board: Board, state: AState) -> list[Command]:
    due = pending(state)
    if due:
        return [Build(due[0].id)]
    return [*starts(board, state), Pass()]


def recall(state: AState, dice: Dice) -> list[Event]:
    """Phase 6.2, the green die: that many units from E01 on come in as reserves; the rest
    slide towards E01; a surplus is lost."""
    (face,) = dice.roll(10, 1, "Allied reserves (green die: the engineer squares)", low=0)
    taken = state.engineers[:face]
    state.engineers = state.engineers[face:]
    state.arriving = list(taken)
    state.recalled = True
    lost = face - len(taken)
    text = f"Phase 6.2 - the Allies roll the green die: {face}"
    if taken:
        text += f"; {len(taken)} unit{'s' if len(taken) != 1 else ''} from the engineer " \
                "squares arrive"
    if lost:
        text += f" ({lost} more than the units on the engineer squares: lost)"
    if state.engineers:
        text += f"; {len(state.engineers)} slide towards E01"
    return [Event("reserves", text, {"face": face, "die": "green",
                                     "units": [key_text(k) for k in taken]})]
