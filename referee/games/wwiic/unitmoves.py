"""One unit's moves when activated (6): a backtracking search through ``Walk``, the same
steps ``apply`` takes.

The search also notes the *blockers*: the spaces whose units or control stopped or refused the
unit somewhere, each with what a friendly move would have to do there to lift the refusal
(``Refusal.lift``: a unit arriving to stay, a unit leaving, control changing).  ``legal``
uses them to tell when a partner's move in a pair could give the unit a move it does not
have alone.  Options come in the order the search finds them: not moving, the regular moves,
then the strategic moves (6.4), each depth first through the exits in the board's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.games.wwiic.board import ALLIED, BOX, FERRY, SPACE, Board, breadth_first
from referee.games.wwiic.commands import UnitMove
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk
from referee.games.wwiic.refusal import ARRIVE, CONTROL, LEAVE, Refusal


@dataclass(frozen=True, slots=True)
class Option:
    """One way a unit may move when activated (before naming a special crossing's enabler)."""

    unit: str
    start: str
    path: tuple[str, ...]
    strategic: bool
    entered: frozenset[str]
    special: bool
    foot: bool
    flipped: frozenset[str] = frozenset()
    """The spaces whose control the move changed (5)."""
    changes: tuple[tuple[object, ...], ...] = ()
    """The view's journal entries of the move, as the search made it (``MapView.redo``)."""
    candidates: tuple[str, ...] = ()
    """For a special river crossing: the 30 Corps units that may enable it."""
    plain: tuple[UnitMove] = field(init=False, repr=False, compare=False)
    """The move as a log writes it, without 'with UNIT' (made once: pairs ask again)."""
    end: str = field(init=False, repr=False, compare=False)
    """Where the move ends: the start when it does not move."""

    def __post_init__(self) -> None:
        move = UnitMove(self.unit, self.path, self.strategic, None, self.start)
        object.__setattr__(self, "plain", (move,))
        object.__setattr__(self, "end", self.path[-1] if self.path else self.start)

    def forms(self, partner: str | None = None) -> Sequence[UnitMove]:
        """The moves a log may write for this option (with or without 'with UNIT')."""
        if not self.special:
            return self.plain
        found = [c for c in self.candidates if c != partner]
        moves = [UnitMove(self.unit, self.path, self.strategic, c, self.start) for c in found]
        if len(found) == 1:
            moves.insert(0, self.plain[0])
        return moves


@dataclass(slots=True)
class UnitMoves:
    """A unit's options, and the spaces whose state limited them."""

    options: list[Option]
    blockers: set[str] = field(default_factory=set)
    lifts: dict[str, set[str]] = field(
        default_factory=lambda: {ARRIVE: set(), LEAVE: set(), CONTROL: set()}
    )
    """The blockers again, by what a friendly move must do there to lift the refusal
    (``Refusal.lift``)."""
    first_strategic: int = 0
    """The index in ``options`` of the first strategic move (6.4): those before it are not
    moving and the regular moves."""
    entries: dict[str, list[tuple[str, ...]]] | None = None
    """Kept by a unit's whole search (``search(..., record=True)``): each space a strategic
    move could not enter, or had to stop in, because of the friendly units there (``LEAVE``),
    with the path that led to its border each time.  Those are the only places where a
    friendly unit lifted off the board changes the unit's strategic moves
    (``lifted.lifted_moves``)."""

    def note(self, refusal: Refusal) -> None:
        """Note the spaces of a refusal another unit's move could lift."""
        self.blockers.update(refusal.on)
        self.lifts[refusal.lift].update(refusal.on)

    def note_entry(self, refusal: Refusal, path: Sequence[str]) -> None:
        """Note where a strategic move along ``path`` met ``refusal`` (see ``entries``)."""
        if self.entries is not None and refusal.lift == LEAVE:
            for space in refusal.on:
                self.entries.setdefault(space, []).append(tuple(path))


def activatable(board: Board, view: MapView, side: str) -> list[str]:
    """Unspent units of ``side`` in a map space, an off-map box or the ferry box (4)."""
    out = []
    for unit in board.unit_order:
        if board.side_of[unit] != side or unit in view.spent:
            continue
        place = view.loc[unit]
        if place is not None and board.kind[place] in (SPACE, BOX, FERRY):
            out.append(unit)
    return out


def unit_options(view: MapView, unit: str) -> list[Option]:
    """Every move ``unit`` may make if activated alone (no move included)."""
    view.active = frozenset((unit,))
    found = search(view, unit).options
    view.active = frozenset()
    return found


def search(
    view: MapView,
    unit: str,
    target: str | frozenset[str] | None = None,
    *,
    record: bool = False,
    options_only: bool = False,
) -> UnitMoves:
    """Every move ``unit`` may make on ``view`` as it stands (``view.active`` set by caller);
    with ``target`` (a space, or a set of them), only the moves that end there, in the order
    the whole search finds them.  Steps from which no target is within the unit's remaining
    allowance on an empty map are not taken, so the blockers noted are those of the paths
    that could still end at a target.  With ``options_only`` (a caller that reads no
    blockers), a strategic move is not taken on where the board as it stands lets it reach
    no target (``strategic_approach``).  With ``record``, the result keeps its ``entries``."""
    start = view.loc[unit]
    assert start is not None
    targets = frozenset((target,)) if isinstance(target, str) else target
    result = UnitMoves([], entries={} if record else None)
    if targets is None or start in targets:
        result.options.append(Option(unit, start, (), False, frozenset(), False, False))
    base = view.mark()
    for strategic in (False, True):
        if strategic:
            result.first_strategic = len(result.options)
        walk = Walk(view, unit, strategic)
        if walk.begin() is not None:
            continue
        distance = None
        if targets is not None and strategic and options_only:
            distance = strategic_approach(view, walk.side, targets)
        elif targets is not None:
            distance = nearest(view, targets, strategic)
        # A strategic move's steps are taken only where no board could refuse them (6.4).
        search_on(view, walk, result, exits_for(walk), targets, distance, base)
    return result


def nearest(view: MapView, targets: frozenset[str], strategic: bool) -> dict[str, int]:
    """``Board.nearest`` (by road for a strategic move), kept by the view for the sets of
    targets asked again during its command or legal() call."""
    found = view.nearest.get((targets, strategic))
    if found is None:
        found = view.nearest[targets, strategic] = view.board.nearest(targets, roads=strategic)
    return found


def strategic_approach(view: MapView, side: str, targets: frozenset[str]) -> dict[str, int]:
    """The steps from each space to the nearest of ``targets`` for a strategic move of
    ``side`` on the board as it stands (6.4): through spaces it may enter and go on from.
    It enters no space with enemy units or two friendly units, and German movement no
    Allied-controlled space; it stops on entering a space with a German unit (German
    movement) or a 30 Corps unit (Allied).  A space missing is one from which no target can
    be reached: a search aimed at ``targets`` need not go there.  (Stopping after crossing
    an unbridged canal is left out: the distances are at most the real ones, which is all
    the search needs.)"""
    board = view.board
    units = board.units
    allied_side = side == ALLIED
    mine = view.n_allied if allied_side else view.n_german
    theirs = view.n_german if allied_side else view.n_allied
    allied, occ = view.allied, view.occ

    def passable(place: str) -> bool:
        if theirs.get(place, 0):
            return False
        if allied_side:
            return mine.get(place, 0) < 2 and not any(
                units[u].corps30 for u in occ.get(place, ())
            )
        return not mine.get(place, 0) and place not in allied

    return breadth_first(targets, board.strategic_entries(side), passable)


def exits_for(walk: Walk) -> Mapping[str, Iterable[str]]:
    """The exits the search tries from each place: all of them, or for a strategic move only
    those no board could refuse it (6.4, ``Board.strategic_exits``)."""
    board = walk.board
    return board.strategic_exits(walk.side) if walk.strategic else board.exits


def search_on(
    view: MapView,
    walk: Walk,
    result: UnitMoves,
    exits: Mapping[str, Iterable[str]],
    target: frozenset[str] | None = None,
    distance: dict[str, int] | None = None,
    base: int = 0,
    only: str | None = None,
) -> None:
    """The moves on from where ``walk`` is, through ``exits`` (``exits_for``), or with
    ``only`` through that one exit; ``base`` marks the view's journal where the search began
    (what the move changed since is in each option's ``changes``)."""
    journal = view.journal
    mark = len(journal)
    budget = walk.allowance - walk.steps - 1
    start, path = walk.start, walk.path
    recording = result.entries is not None and walk.strategic
    saved = None
    for nxt in exits[walk.at] if only is None else (only,):
        if distance is not None and distance.get(nxt, 1_000_000) > budget:
            continue
        if nxt == start or nxt in path:
            continue  # 6: no space twice in one move (a refusal that names no space)
        if saved is None:
            saved = walk.save()
        refusal = walk.advance(nxt)  # an exit, not entered yet; the unit may go on
        if refusal is not None:
            if refusal.on:
                result.note(refusal)
                if recording:
                    result.note_entry(refusal, path)
            continue
        stop = walk.stop
        if stop is not None and stop.on:
            result.note(stop)
            if recording:
                result.note_entry(stop, path[:-1])
        if target is None or nxt in target:
            refusal = walk.finish()  # checks only: the view is as the step left it
            if refusal is None:
                _found(view, walk, result, base)
            elif refusal.on:
                result.note(refusal)
        if stop is None and walk.steps < walk.allowance:
            search_on(view, walk, result, exits, target, distance, base)
        view.undo(mark)
        walk.restore(saved)


_NOTHING: frozenset[str] = frozenset()


def _found(view: MapView, walk: Walk, result: UnitMoves, base: int) -> None:
    """Note the move ``walk`` has made as an option."""
    path = tuple(walk.path)
    changes = tuple(view.journal[base:])
    if len(changes) == len(path):  # a "move" entry for each step, nothing else
        flipped: frozenset[str] = _NOTHING
    else:
        flipped = frozenset(entry[1] for entry in changes if entry[0] == "control")
    if walk.special:
        found = tuple(walk.candidates())
        if found:
            result.options.append(Option(
                walk.unit, walk.start, path, walk.strategic, frozenset(path), True,
                walk.foot, flipped, changes, found,
            ))
    else:
        result.options.append(Option(
            walk.unit, walk.start, path, walk.strategic, frozenset(path), False, walk.foot,
            flipped, changes,
        ))

