"""What a side may do in its impulse: every activation of one or two units (4, 6).

Each unit's moves are found by its own search (``unitmoves``), which also notes the
*blockers*: the spaces whose units or control stopped or refused the unit somewhere, each
with what a friendly move would have to do there to lift the refusal (``Refusal.lift``: a
unit arriving to stay, a unit leaving, control changing).  A pair of units moves one unit
at a time, in either order (``apply`` tries the order written, then the other).  For the
order "A, then B":

* A's move changes the board only where it ends (A arrives), at its start (A leaves) and in
  the spaces whose control it changed; the spaces it only passed through are as they were.
  If none of those changes lifts one of B's blockers, B can't gain a move, so B's moves alone
  are the candidates, each checked after A's move (or, when the two moves touch no common
  space and use no once-per-turn crossing, taken as they are).  A candidate is walked again
  only where it steps into a space A's move changed: one that steps into none is allowed as
  it was, and one that only ends (or passes, by regular movement) where A ended is judged
  by the friendly units there (6.2, 6.4) without being walked (``_unchanged_verdict``);
* otherwise B's moves are searched afresh on the board as A left it.

So the list is exact: what ``apply`` accepts is listed, and what is listed is accepted.  The
order is that of the enumeration this replaced (``tests/games/wwiic/legal_reference.py``): B's
moves come in the order its search finds them either way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from referee.games.wwiic.board import ALLIED, FERRY, SPACE, Board
from referee.games.wwiic.commands import Activate, Command, UnitMove
from referee.games.wwiic.lifted import lifted_moves
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk, run_move
from referee.games.wwiic.refusal import ARRIVE, CONTROL, LEAVE
from referee.games.wwiic.unitmoves import Option, UnitMoves, activatable, search


def activations(
    board: Board, view: MapView, side: str, between: Sequence[Command] = ()
) -> Iterator[Command]:
    """Every legal activation, lazily: each unit alone first (in the order of battle), then
    ``between`` (the pass, when allowed), then the pairs, pair by pair.  The pairs of two
    units in one space can run to hundreds of thousands of joint moves, so a caller that
    shows a page of answers (``pending``, ``moves``, the play-by-e-mail table) takes only
    the first ones, and the joint moves of a pair are found only when reached.

    ``view`` belongs to the generator until it is exhausted or dropped."""
    units = activatable(board, view, side)
    moves: dict[str, UnitMoves] = {}
    for unit in units:
        view.active = frozenset((unit,))
        moves[unit] = search(view, unit, record=True)
    view.active = frozenset()
    for unit in units:
        for option in moves[unit].options:
            for move in option.forms():
                yield Activate((move,))
    yield from between
    shared = Shared(view, moves)
    for index, unit in enumerate(units):
        for other in units[index + 1 :]:
            same = view.loc[unit] == view.loc[other]
            if same or board.units[unit].formation == board.units[other].formation:
                a, b = sorted((unit, other))
                yield from _pair(view, a, b, same, shared)


def _independent(one: Option, two: Option) -> bool:
    """Two moves from one space that can't affect each other (see the module docstring)."""
    return (
        not (one.special or two.special or one.foot or two.foot)
        and one.entered.isdisjoint(two.entered)
    )


def reach(view: MapView, unit: str) -> frozenset[str]:
    """The places ``unit`` could end a move in on an empty board: a quick filter for pairs."""
    start = view.loc[unit]
    assert start is not None
    walk = Walk(view, unit, strategic=True)
    strategic = walk.allowance if walk.begin() is None else -1
    return view.board.within(start, Walk(view, unit).allowance, strategic)


@dataclass(slots=True)
class Shared:
    """What one ``activations`` call works out once for all its pairs: each unit's moves
    alone (and by where they end), how far it could go, and the first units' moves tried."""

    view: MapView
    moves: dict[str, UnitMoves]
    reaches: dict[str, frozenset[str]] = field(default_factory=dict)
    ending: dict[str, dict[str, list[Option]]] = field(default_factory=dict)
    tried: dict[UnitMove, Tried] = field(default_factory=dict)

    def reach(self, unit: str) -> frozenset[str]:
        """The places ``unit`` could end in on an empty board (``reach``)."""
        found = self.reaches.get(unit)
        if found is None:
            found = self.reaches[unit] = reach(self.view, unit)
        return found

    def by_end(self, unit: str) -> dict[str, list[Option]]:
        """The unit's moves alone, grouped by where they end (in their order)."""
        found = self.ending.get(unit)
        if found is None:
            found = self.ending[unit] = _by_end(self.moves[unit].options)
        return found


def _pair(
    view: MapView,
    a: str,
    b: str,
    same: bool,
    shared: Shared,
) -> Iterator[Activate]:
    """Every legal activation of units ``a`` and ``b`` together, each once, as found."""
    found: set[tuple[object, ...]] = set()
    both = frozenset((a, b))
    moves, tried = shared.moves, shared.tried

    def joint(move: UnitMove, reply: UnitMove) -> tuple[object, ...]:
        """What tells the activation of ``move`` and ``reply`` from the pair's others, as
        ``Activate`` equality does (the moves in unit order), without making it: most joint
        moves looked at are refused or found already."""
        if move.unit != a:
            move, reply = reply, move
        return (move.path, move.strategic, move.enabler, reply.path, reply.strategic,
                reply.enabler)

    def activate(move: UnitMove, reply: UnitMove) -> Activate:
        """``Activate.of(move, reply)``: the moves in unit order (``a`` before ``b``)."""
        return Activate((move, reply) if move.unit == a else (reply, move))

    def new(key: tuple[object, ...]) -> bool:
        before = len(found)
        found.add(key)
        return len(found) > before

    for first, second in ((a, b), (b, a)):
        later = moves[second]
        # Units from two spaces, when the first unit's space limited the second's moves:
        # the second unit's moves once the first has left its space (lifted off the board).
        # A first move along a path changes the board only there and in the spaces it
        # enters, so only those can give the second unit a move it does not have there.
        # Its leaving is looked at only where it could lift a refusal (``_leaving_lifts``).
        lifted = None
        leaving = not same and view.loc[first] in later.blockers and _leaving_lifts(view, first)
        if leaving:
            # Only the ends of the first unit's moves matter (4: the pair ends together).
            start, reachable = view.loc[first], shared.reach(second)
            ends = frozenset(
                end for end in shared.by_end(first)
                if end != start and end in reachable
            )
            if ends:
                lifted = lifted_moves(view, first, second, both, ends, later)
        # The second unit's moves depend on the board as the first unit's move left it, not
        # on the path it took there: moves that leave the same board share one search, and
        # one verdict for each of the second unit's candidate moves.
        searched: dict[tuple[object, ...], list[Option]] = {}
        verdicts: dict[tuple[object, ...], bool] = {}
        # 4: units from two spaces end together in one space, so the second unit's moves are
        # looked up by where they end (in their order), and each end is judged reachable once.
        ending = {} if same else {id(later): shared.by_end(second)}
        if lifted is not None:
            ending[id(lifted)] = _by_end(lifted.options)
        reachable = shared.reach(second)
        for option in moves[first].options:
            end = option.end
            if not same and end not in reachable:
                continue  # 4: the second unit could never end where the first does
            # What the first unit's move changed on the board: where it ends, the control it
            # changed, and its start (unless both units start there, or the second unit's
            # moves were found with the first unit lifted off).  The spaces it only passed
            # through are as they were.
            source = later
            with_start = not same
            if not same and option.path and lifted is not None:
                source, with_start = lifted, False
            # The second unit can gain a move only where the first unit's move lifts one of
            # its refusals: by coming to stay where it ends, by leaving its start, or by
            # changing a space's control (Refusal.lift).
            blockers, lifts = source.blockers, source.lifts
            fresh = (
                (bool(option.path) and end in lifts[ARRIVE])
                or not option.flipped.isdisjoint(lifts[CONTROL])
                or (leaving and with_start and bool(option.path) and option.start in lifts[LEAVE])
            )
            candidates = source.options if same else ending[id(source)].get(end, ())
            if not fresh and not candidates:
                continue
            # The order of the answers is that of the enumeration this replaced, which
            # searched afresh whenever the first move entered one of the second unit's
            # blockers (or left one): there the second unit's moves come in the order of its
            # own moves (a fresh search finds them in that order, each checked).  (Units from
            # two spaces have no moves that can't affect each other: ``_independent``.)
            in_order = same and not fresh and (
                not option.entered.isdisjoint(blockers)
                or (with_start and option.start in blockers)
            )
            touched: frozenset[str] | None = None
            touched_known = False  # worked out when a reply first needs it
            for move in option.forms(partner=second):
                # Each reply with its verdict when told without walking it (else None).
                replies: list[tuple[UnitMove, tuple[object, ...], bool | None]] = []
                if not fresh:
                    walk = False  # whether a reply must be walked after the first move
                    for other in candidates:
                        if same and not in_order and _independent(option, other):
                            if first == a:  # the same pair the other way round: found already
                                reply = other.plain[0]
                                if new(joint(move, reply)):
                                    yield activate(move, reply)
                            continue
                        for reply in other.forms(partner=first):
                            key = joint(move, reply)
                            # The first pass finds no joint move twice: only the second
                            # (the other unit first) meets those found already.
                            if first == a or key not in found:
                                if not touched_known:
                                    touched = _touched(option, with_start)
                                    touched_known = True
                                told = _unchanged_verdict(view, option, other, touched)
                                replies.append((reply, key, told))
                                walk = walk or told is None
                    if not replies:
                        continue
                    if not walk:
                        # Every verdict is known: the first move need not be made.
                        for reply, key, told in replies:
                            if told and new(key):
                                yield activate(move, reply)
                        continue
                view.active = both
                view.crossed = set()
                mark = view.mark()
                # The first unit's move is made on the board as it stands, whoever its
                # partner: the changes its search made are made again from the journal (a
                # special crossing's enabler depends on the partner, so it is tried each time).
                known = None if option.special else tried.get(move)
                if option.special:
                    refusal, _ = run_move(view, first, move.path, move.strategic, move.enabler)
                    allowed = refusal is None
                    board_after = _board_after(view, first, mark) if allowed else ()
                elif known is None:
                    view.redo(option.changes)
                    allowed, board_after = True, _board_after(view, first, mark)
                    tried[move] = Tried(allowed, option.changes, board_after)
                else:
                    view.redo(known.changes)
                    allowed, board_after = known.allowed, known.board_after
                if allowed:
                    if fresh:
                        target = None if same else option.end
                        if board_after not in searched:
                            searched[board_after] = search(
                                view, second, target, options_only=True
                            ).options
                        for other in searched[board_after]:
                            for reply in other.forms(partner=first):
                                if new(joint(move, reply)):
                                    yield activate(move, reply)
                    after = view.mark()
                    for reply, key, accepted in replies:
                        verdict = (board_after, reply)
                        if accepted is None:
                            accepted = verdicts.get(verdict)
                        if accepted is None:
                            refusal, _ = run_move(
                                view, second, reply.path, reply.strategic, reply.enabler
                            )
                            view.undo(after)
                            accepted = verdicts[verdict] = refusal is None
                        if accepted and new(key):
                            yield activate(move, reply)
                view.undo(mark)
    view.active = frozenset()
    view.crossed = set()


def _leaving_lifts(view: MapView, unit: str) -> bool:
    """Whether ``unit`` leaving its space could give a friendly unit from another space a
    move that ends elsewhere (the pair ends together, 4).  The refusals a unit leaving lifts
    (``LEAVE``) are: the Pannerden Ferry box full (6.3), strategic movement through two
    friendly units or stopping where a friendly unit is (6.4: a German unit, or for the
    Allies a 30 Corps unit), and stacking where a move ends (6.2, not a space the pair can end
    in: the unit's own moves don't end where they start).  While a unit that stops strategic
    movement stays there, a strategic move through it stops there and can't end elsewhere."""
    board = view.board
    start = view.loc[unit]
    assert start is not None
    if board.kind[start] == FERRY:
        return True
    others = [u for u in view.units_in(start) if u != unit]
    if board.side_of[unit] == ALLIED:
        return not any(board.units[u].corps30 for u in others)
    return not others


def _touched(option: Option, with_start: bool) -> frozenset[str] | None:
    """The spaces the first unit's move ``option`` changed for the second unit's moves
    (where it ends, the control it changed, and its start when ``with_start``); None when it
    also changed what a whole activation shares (a crossing used, 6.3)."""
    if option.special or option.foot or any(e[0] == "crossed" for e in option.changes):
        return None
    if not option.path:
        return option.flipped
    if with_start:
        return option.flipped | {option.end, option.start}
    return option.flipped | {option.end}


def _unchanged_verdict(
    view: MapView, option: Option, other: Option, touched: frozenset[str] | None
) -> bool | None:
    """Whether the second unit's move ``other`` (allowed on the board its search saw) is
    still allowed after the first unit's move ``option`` (not yet made on ``view``), when that
    can be told without walking it again; None when it must be walked.

    A step reads only its own two spaces (their units and control) and what the activation
    shares (crossings used, 6.3), and the first move changed only ``touched``.  A move that
    steps through none of them is as it was.  One that ends where the first unit arrived
    (that space's control unchanged) differs only in the friendly units there: it is refused
    when two are there already (6.2 stacking; 6.4 strategic movement can't enter a space
    with two friendly units).  A regular move passing through that space is as it was
    (only strategic movement looks at the friendly units of a space it passes, 6.4)."""
    if touched is None or other.special or other.foot:
        return None
    if other.start in touched:
        return None
    entered = other.entered
    if entered.isdisjoint(touched):
        return True
    end = option.end
    if not option.path or end in option.flipped or view.board.kind[end] != SPACE:
        return None
    if len(touched) > 1 and not entered.isdisjoint(touched - {end}):
        return None
    if other.end == end:  # the first unit, not yet there, makes one more
        return view.count(end, view.board.side_of[other.unit]) < 1
    if other.strategic:
        return None
    return True


@dataclass(frozen=True, slots=True)
class Tried:
    """A first unit's move tried on the board as it stands: allowed or not, what it changed
    (journal entries) and the board it left (``_board_after``)."""

    allowed: bool
    changes: Sequence[tuple[object, ...]]
    board_after: tuple[object, ...]


def _by_end(options: Sequence[Option]) -> dict[str, list[Option]]:
    """The options grouped by the space they end in, each group in the options' order."""
    grouped: dict[str, list[Option]] = {}
    for option in options:
        grouped.setdefault(option.end, []).append(option)
    return grouped


def _board_after(view: MapView, unit: str, mark: int) -> tuple[object, ...]:
    """What a move of ``unit`` since ``mark`` changed on ``view``: where the unit is, the
    control of the spaces it flipped, the crossings and enablers used.  Two moves with the
    same result leave the same board for the other unit of the pair, whatever their paths."""
    flipped = frozenset(
        (entry[1], entry[1] in view.allied) for entry in view.journal[mark:]
        if entry[0] == "control"
    )
    return (view.loc[unit], flipped, frozenset(view.crossed), view.foot_used,
            view.special_used, tuple(view.spend))
