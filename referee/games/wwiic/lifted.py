"""A unit's moves with its partner in a pair lifted off the board (4, 6).

Two units from two spaces end their pair activation together (4), so the first unit to move
has always left its space when the second moves.  ``legal`` asks for the second unit's moves
on the board without the first (``lifted_moves``) when the first unit's space limited them.

Looking again at the whole board would repeat the second unit's own search.  A unit leaving
its space changes what a step reads only in that space, so:

* a regular move ends in one of the pair's ends, never where the first unit started (its
  moves leave it), and no regular step reads the friendly units of a space it enters
  except the river bridge out of a contested space (6.3); when the second unit starts in
  one, the board is searched again (``lifted_search``);
* a strategic move (6.4) reads the friendly units of each space it enters: it may not enter
  a space with two of them, and stops in a space with a German unit (German movement) or a
  30 Corps unit (Allied).  Only where the whole search met such a refusal in the first unit's
  space (``UnitMoves.entries``) can the lifted board differ, so the search goes on from
  there, and the moves found join the others in the order a whole search finds them
  (depth first through the exits in the board's order).

The Pannerden Ferry box holds one unit (6.3): a first unit there is lifted off for a whole
search too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee.games.wwiic.board import FERRY, SPACE, Board, other_side
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk
from referee.games.wwiic.unitmoves import (
    Option,
    UnitMoves,
    exits_for,
    nearest,
    search,
    search_on,
)

LIFTED = "(lifted off the board)"
"""Where a unit is put while its partner's moves are looked at without it."""


@contextmanager
def lifted_off(view: MapView, first: str, both: frozenset[str]) -> Iterator[None]:
    """``view`` with ``first`` lifted off the board and the pair ``both`` active, for the
    length of the block."""
    start = view.loc[first]
    assert start is not None
    view.active = both
    view.crossed = set()
    mark = view.mark()
    view.move(first, start, LIFTED)
    try:
        yield
    finally:
        view.undo(mark)
        view.active = frozenset()


def lifted_search(
    view: MapView, first: str, second: str, both: frozenset[str], ends: frozenset[str]
) -> UnitMoves:
    """Every move of ``second`` (activated with ``first``) on the board without ``first``
    that ends in one of ``ends``, by a search of the whole board."""
    with lifted_off(view, first, both):
        return search(view, second, ends)


def lifted_moves(
    view: MapView,
    first: str,
    second: str,
    both: frozenset[str],
    ends: frozenset[str],
    alone: UnitMoves,
) -> UnitMoves:
    """What ``lifted_search`` finds (the same moves in the same order), worked out from
    ``alone``, the second unit's whole search on the board as it stands (with ``entries``).

    The blockers are those of ``alone`` and of the steps taken again: more than a search
    aimed at ``ends`` notes, which only makes ``legal`` look again at more pairs."""
    board = view.board
    start, here = view.loc[first], view.loc[second]
    assert start is not None and here is not None
    if (
        alone.entries is None
        or board.kind[start] == FERRY
        or _bridge_from_contested(view, here, board.side_of[second])
    ):
        return lifted_search(view, first, second, both, ends)
    options = alone.options
    cut = alone.first_strategic
    result = UnitMoves(
        [option for option in options[:cut] if option.end in ends],
        set(alone.blockers),
        {lift: set(spaces) for lift, spaces in alone.lifts.items()},
    )
    strategic = [option for option in options[cut:] if option.end in ends]
    result.first_strategic = len(result.options)
    paths = alone.entries.get(start, ())
    if not paths:
        result.options += strategic
        return result
    # The second unit's strategic moves through the first unit's space, now empty of it.
    further = UnitMoves([], result.blockers, result.lifts)
    with lifted_off(view, first, both):
        distance = nearest(view, ends, strategic=True)
        for path in paths:
            walk = Walk(view, second, strategic=True)
            began = walk.begin()
            assert began is None, "a strategic move found by the whole search can begin"
            base = view.mark()
            for place in path:
                refused = walk.step(place)
                assert refused is None, "a path the whole search took is taken again"
            search_on(view, walk, further, exits_for(walk), ends, distance, base, only=start)
            view.undo(base)
    if further.options:
        strategic += further.options
        strategic.sort(key=lambda option: _search_order(board, option))
    result.options += strategic
    return result


def _bridge_from_contested(view: MapView, here: str, side: str) -> bool:
    """Whether a unit of ``side`` in ``here`` is in an enemy-controlled contested space,
    from which it crosses a river bridge only into a friendly-occupied space (6.3)."""
    return (
        view.board.kind[here] == SPACE
        and view.has(here, other_side(side))
        and view.controller(here) != side
    )


def _search_order(board: Board, option: Option) -> tuple[int, ...]:
    """Where a strategic move comes in a whole search: the rank of each step among the exits
    tried from its space (a move before the moves that continue it)."""
    exits = board.strategic_exits(board.side_of[option.unit])
    places = (option.start, *option.path)
    return tuple(exits[places[i]].index(places[i + 1]) for i in range(len(option.path)))
