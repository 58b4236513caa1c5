"""Activating units in an impulse (4): the units activated, their moves run one at a time
(6), and the positions and control they leave written back to the state (``commit``, which
the Red Devils' Move Out of 3.H uses too).  The WWII Commander engine (``engine``) calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, GERMAN, Board
from referee.games.wwiic.commands import Activate, Command, UnitMove
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk, run_move
from referee.games.wwiic.refusal import Refusal
from referee.games.wwiic.sequence import end_impulse, open_combats, unspent
from referee.games.wwiic.state import Phase, WState
from referee.games.wwiic.unitmoves import unit_options
from referee.games.wwiic.victory import advance_objective

MAX_ALTERNATIVES = 8


def few(commands: Iterable[Command]) -> list[str]:
    """The legal alternatives a refusal lists: none when there are more than
    ``MAX_ALTERNATIVES``."""
    listed = list(islice(commands, MAX_ALTERNATIVES + 1))
    return [str(c) for c in listed] if len(listed) <= MAX_ALTERNATIVES else []


def activate(board: Board, work: WState, command: Activate) -> list[Event]:
    """An impulse's activation of one or two units (4), their moves (6) and the attacks
    it opens (7)."""
    moves = command.moves
    if not 1 <= len(moves) <= 2:
        raise IllegalMove("4", "an impulse activates one or two units")
    if len(moves) == 2 and moves[0].unit == moves[1].unit:
        raise IllegalMove("4", f"{moves[0].unit} is named twice: activate two different units")
    for move in moves:
        _check_unit(board, work, move)
    if len(moves) == 2:
        starts = [work.location[m.unit] for m in moves]
        if starts[0] != starts[1]:
            a, b = (board.units[m.unit] for m in moves)
            if a.formation != b.formation:
                raise IllegalMove(
                    "4", f"{a.id} ({a.formation}) and {b.id} ({b.formation}) are in different "
                    "spaces: two units in different spaces are activated together only if in "
                    "the same formation",
                )
            ends = [m.path[-1] if m.path else s for m, s in zip(moves, starts, strict=True)]
            if ends[0] != ends[1]:
                raise IllegalMove(
                    "4", f"{a.id} and {b.id} start in different spaces, so they must end their "
                    f"movement together in one space (not {board.name(ends[0])} and "
                    f"{board.name(ends[1])})",
                )
    units = tuple(m.unit for m in moves)
    mapview = MapView(board, work)
    mapview.active = frozenset(units)
    walks: list[Walk] = []
    first_refusal: Refusal | None = None
    # The units move one at a time (6): in the order written, or else the other way round.
    for order in (moves,) if len(moves) == 1 else (moves, moves[::-1]):
        mark = mapview.mark()
        walks, refusal = _run(mapview, order)
        if refusal is None:
            break
        first_refusal = first_refusal or refusal
        mapview.undo(mark)
        mapview.crossed = set()
    else:
        assert first_refusal is not None
        raise IllegalMove(
            first_refusal.rule, first_refusal.message, _alternatives(board, work, moves)
        )
    events = [Event("activate", _activates(work.side, units), {"units": list(units)})]
    events += commit(
        board, work, mapview, [(w.unit, w.start, tuple(w.path)) for w in walks], walks
    )
    work.active = units
    combat = open_combats(board, work, mapview.occ)
    if combat is None:
        end_impulse(board, work, events, passed=False)
        return events
    work.combat = combat
    work.phase = Phase.COMBAT
    for space in combat.mandatory:
        events.append(Event(
            "combat-due", f"must attack at {board.name(space)} (enemy-controlled)",
            {"space": space, "mandatory": True},
        ))
    for space in combat.optional:
        events.append(Event(
            "combat-option", f"may attack at {board.name(space)} (friendly-controlled), or "
            "decline with 'no attack'", {"space": space, "mandatory": False},
        ))
    return events


def _run(mapview: MapView, order: Sequence[UnitMove]) -> tuple[list[Walk], Refusal | None]:
    walks: list[Walk] = []
    for move in order:
        refusal, walk = run_move(mapview, move.unit, move.path, move.strategic, move.enabler)
        if refusal is not None:
            return walks, refusal
        walks.append(walk)
    return walks, None


def _check_unit(board: Board, work: WState, move: UnitMove) -> None:
    unit = move.unit
    info = board.units[unit]
    if info.side != work.side:
        raise IllegalMove(
            "4", f"{unit} is a {info.side.capitalize()} unit, and this is the "
            f"{work.side.capitalize()} impulse",
        )
    place = work.location[unit]
    if place is None:
        why = "eliminated" if unit in work.eliminated else "not in play yet"
        raise IllegalMove(
            "4", f"{unit} is {why}: a unit must be in a map space or an off-map box to be "
            "activated",
        )
    if unit in work.spent:
        if work.turn == 1 and info.start in board.unprepared and info.side == GERMAN:
            # 3.G: an unprepared II SS unit starts Game-turn 1 spent; none activated it.
            raise IllegalMove(
                "3.G", f"{unit} starts Game-turn 1 spent: the II SS Panzer Corps is "
                f"unprepared ({board.name(info.start)}), so it may be activated from "
                "Game-turn 2",
                few(_unspent_alternatives(board, work)),
            )
        raise IllegalMove(
            "4", f"{unit} is spent: it was activated already this game-turn",
            few(_unspent_alternatives(board, work)),
        )
    if move.start is not None and move.start != place:
        raise IllegalMove(
            "6", f"{unit} is in {board.name(place)}, not {board.name(move.start)}"
        )


def _unspent_alternatives(board: Board, work: WState) -> list[Command]:
    return [Activate((UnitMove(u, start=work.location[u]),))
            for u in unspent(board, work, work.side)]


def _alternatives(board: Board, work: WState, moves: tuple[UnitMove, ...]) -> list[str]:
    if len(moves) != 1:
        return []
    mapview = MapView(board, work)
    options = unit_options(mapview, moves[0].unit)
    forms = [Activate((m,)) for o in options for m in o.forms() if o.path]
    return few(forms)


def commit(
    board: Board,
    work: WState,
    mapview: MapView,
    paths: list[tuple[str, str, tuple[str, ...]]],
    walks: Sequence[Walk] = (),
) -> list[Event]:
    """Write the view's positions and control back to the state, with the events."""
    events: list[Event] = []
    for unit, start, path in paths:
        if path:
            events.append(Event("move", _moves(board, unit, (start, *path)),
                                {"unit": unit, "path": [start, *path]}))
        else:
            events.append(Event("stay", _stays(board, unit, start),
                                {"unit": unit, "path": [start]}))
    for walk in walks:
        if walk.special:
            work.special_crossers[walk.unit] = work.turn
        if walk.across is not None:
            work.entered_across[walk.unit] = walk.across
    if mapview.spend:
        for enabler in mapview.spend:
            work.spent.add(enabler)
            events.append(Event(
                "spent", f"{enabler} enabled the special river crossing and is spent (6.3)",
                {"units": [enabler]},
            ))
    gained_set = mapview.allied - work.allied_control
    lost_set = work.allied_control - mapview.allied
    if gained_set or lost_set:
        order = {place: i for i, place in
                 enumerate(p for _, s, ps in paths for p in (s, *ps))}
        gained = sorted(gained_set, key=lambda p: order.get(p, 0))
        lost = sorted(lost_set, key=lambda p: order.get(p, 0))
        for space in gained:
            events.append(Event("control", f"{board.name(space)} becomes Allied-controlled",
                                {"space": space, "control": ALLIED}))
        for space in lost:
            events.append(Event("control", f"{board.name(space)} becomes German-controlled",
                                {"space": space, "control": GERMAN}))
    # The view is done with: the state takes its positions and control over (the
    # driver's copy before the line is the undo).
    work.location = mapview.loc
    work.allied_control = mapview.allied
    work.foot_crossing_used = mapview.foot_used
    work.special_crossing_used = mapview.special_used
    mapview.keep()
    advance_objective(board, work, events, mapview.occ)
    return events


# The words of the commonest events, made when read (``Event``: a replay reads none of them;
# issue 31).  Each is made of values that do not change: the state's own go on changing.


def _activates(side: str, units: tuple[str, ...]) -> Callable[[], str]:
    return lambda: f"{side.capitalize()} activates " + ", ".join(units)


def _moves(board: Board, unit: str, route: tuple[str, ...]) -> Callable[[], str]:
    return lambda: f"{unit} moves " + "->".join(board.name(p) for p in route)


def _stays(board: Board, unit: str, place: str) -> Callable[[], str]:
    return lambda: f"{unit} stays in {board.name(place)}"
