"""Winning the Game: bridge points at the end of round 18, major victory, the early end.

The seed (Winning the Game): "The winner of the game is the player with the most points at the
end of round 18. Of course a game can end earlier: when either side is eliminated or forfeits
the game. The winner has the right to proclaim a major victory when he has gathered twice the
points his opponent has."  Points come from bridges: "Every captured bridge has a predefined
value ... At the start of the game the total value of the bridges represents 100 points."

Reading A7 (docs/arnhem44-interpretations.md): a side scores the values of the standing bridges
it controls (control by reading A6: Waterways, "A player is only in control of a bridge when
both sides of the bridge are free of enemy troops", so a bridge with troops of both sides at its
ends is held by neither and scores for nobody); a destroyed bridge scores for nobody; equal
points are a draw; a major victory needs twice the opponent's points and more than 0.

Every question "is this bridge still there?" goes through :func:`standing`, so that the
demolition of bridges (Phase 3.1/3.2) and Bailey bridges (Phase 3.4) only have to fill the state
that function reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import repeat
from operator import is_
from typing import Any

from referee.core.engine import Event
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    SIDES,
    Board,
    other,
    side_of,
)
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.presence import KEPT, NO_FIGURES, sides_here
from referee.games.arnhem44.sectors import journal_of, written_since
from referee.games.arnhem44.state import OVER, AState

RULE = "Winning"

def destroyed(state: AState) -> frozenset[str]:
    """The bridges blown up or destroyed (Phases 3.1/3.2; Veterans/4 damage).  The ground war
    destroys none; the explosives module keeps them in ``state.destroyed``."""
    gone = getattr(state, "destroyed", None)
    return frozenset(gone) if gone else frozenset()


def standing(board: Board, state: AState) -> list[str]:
    """The bridges still standing, in the board's order (the one reading of destruction)."""
    gone = destroyed(state)
    return [b for b in board.bridges if b not in gone]


def bridge_values(board: Board, state: AState) -> dict[str, int]:
    """Every bridge's value on the chart (Bailey bridges, when they exist, count 0: "gains
    little or no points", reading A7); destroyed bridges are worth nothing."""
    gone = destroyed(state)
    return {b.id: 0 if b.id in gone else b.value for b in board.bridges.values()}


def sides_at(board: Board, state: AState, bridge: str) -> tuple[bool, bool]:
    """(German, Allied): which sides have troops at either end of ``bridge``."""
    b = board.bridges[bridge]
    units = state.units
    german_a, allied_a = sides_here(units.get(b.a, NO_FIGURES))
    german_b, allied_b = sides_here(units.get(b.b, NO_FIGURES))
    return german_a or german_b, allied_a or allied_b


def bridge_sides(board: Board, state: AState) -> tuple[tuple[str, bool, bool], ...]:
    """(bridge, German, Allied) for every bridge of the board in its order: ``sides_at`` of
    each in one pass (the holders are asked before and after every command, and self-play's
    invariants ask again).  The answer depends on the figures at the bridges' ends alone, so
    the last one is kept with the figures it came from (each end's ``Figures``, never changed
    in place) and given again while the ends hold the same figures: most commands change none
    of them."""
    units = state.units
    memo = _memo
    if memo is not None and memo[0] is board \
            and written_since(units, memo[3], memo[4], end_set(board)) is False:
        journal, length = journal_of(units)  # no bridge's end written since (``Sectors``)
        if length != memo[4]:  # kept from here on: the next look reads only what comes after
            _keep((*memo[:3], journal, length))
        return memo[2]
    here = tuple(map(units.get, end_sectors(board)))
    if memo is None or memo[0] is not board:
        old: Iterator[Any] = repeat(_NOWHERE)  # the first answer: every bridge looked at
        was: tuple[tuple[str, bool, bool], ...] = ()
    elif all(map(is_, here, memo[1])):  # the very figures: identity, never changed in place
        _keep((*memo[:3], *journal_of(units)))
        return memo[2]
    else:
        old, was = iter(memo[1]), memo[2]
    out = []
    it = iter(here)
    for index, ((bridge, _, _), here_a, here_b, was_a, was_b) in enumerate(zip(
            _ends(board), it, it, old, old, strict=False)):  # old: as long or endless
        if here_a is was_a and here_b is was_b:
            out.append(was[index])  # this bridge's ends hold the figures they held
            continue
        german_a, allied_a = _sides(here_a)
        german_b, allied_b = _sides(here_b)
        out.append((bridge, german_a or german_b, allied_a or allied_b))
    answer = tuple(out)
    if set(map(type, here)) <= _KEEPABLE:  # every end empty or a sector's Figures
        _keep((board, here, answer, *journal_of(units)))
    return answer


_KEEPABLE = frozenset({Figures, type(None)})
_NOWHERE = object()
"""What no end holds."""


def _sides(counts: Any) -> tuple[bool, bool]:
    """``sides_here`` of one end (None: nobody), its kept answer read directly."""
    if not counts:
        return _NOBODY
    kept: tuple[bool, bool] | None = getattr(counts, KEPT, None)
    return kept or sides_here(counts)


_NOBODY = (False, False)
_Memo = tuple[Board, tuple[Any, ...], tuple[tuple[str, bool, bool], ...], list[str] | None,
              int]
_memo: _Memo | None = None
"""The last ``bridge_sides`` kept: the board, the figures at its bridges' ends (``Figures``
or None, compared by identity), the answer (a tuple: shared, never changed) and the journal
of the sectors written then and its length (``sectors.journal_of``); a bridge whose ends hold
the figures kept keeps its answer when others change."""


def _keep(memo: _Memo) -> None:
    global _memo  # one assignment: a reader sees the old or the new memo whole
    _memo = memo


@cache
def _ends(board: Board) -> tuple[tuple[str, str, str], ...]:
    """(bridge, one end, the other) of every bridge of the board, in its order."""
    return tuple((bridge.id, bridge.a, bridge.b) for bridge in board.bridges.values())


@cache
def end_sectors(board: Board) -> tuple[str, ...]:
    """Both ends of every bridge of the board, in its order (``_ends`` flattened)."""
    return tuple(end for _, a, b in _ends(board) for end in (a, b))


@cache
def end_set(board: Board) -> frozenset[str]:
    """The sectors at the ends of the board's bridges."""
    return frozenset(end_sectors(board))


def holder(board: Board, state: AState, bridge: str) -> str | None:
    """The side in control of ``bridge`` now (Waterways: "A player is only in control of a
    bridge when both sides of the bridge are free of enemy troops"): its owner (``state.control``,
    the last side to stand at it alone, reading A6) while no enemy troops stand at either end;
    None while troops of both sides are there (held by neither, worth nothing to either)."""
    owner = state.control.get(bridge, GERMAN)
    german, allied = sides_at(board, state, bridge)
    return None if german and allied else owner


def points(board: Board, state: AState) -> dict[str, int]:
    """Each side's points now: the values of the standing bridges it controls (A6, A7); a
    bridge held by neither scores for nobody."""
    return points_and_contested(board, state)[0]


def _holders(board: Board, state: AState) -> list[tuple[str, str | None]]:
    """(bridge, ``holder``) of every standing bridge in the board's order (``standing``), the
    sides at their ends found in one pass (``bridge_sides``)."""
    gone = destroyed(state)
    owner = state.control.get
    return [(bridge, None if german and allied else owner(bridge, GERMAN))
            for bridge, german, allied in bridge_sides(board, state) if bridge not in gone]


def contested(board: Board, state: AState) -> list[str]:
    """The standing bridges held by neither side now (troops of both at their ends)."""
    return points_and_contested(board, state)[1]


def points_and_contested(board: Board, state: AState) -> tuple[dict[str, int], list[str]]:
    """``points`` and ``contested`` from one look at the bridges (the self-play invariant of
    the bridge points asks both after every command)."""
    held = _holders(board, state)
    out = dict.fromkeys(SIDES, 0)
    for bridge, side in held:
        if side is not None:
            out[side] += board.bridges[bridge].value
    return out, [bridge for bridge, side in held if side is None]


def bridge_points(board: Board, state: AState) -> dict[str, dict[str, int]]:
    """Per side, the points of each bridge it holds; destroyed bridges under ``destroyed``, the
    bridges held by neither side under ``contested`` (0 points each)."""
    out: dict[str, dict[str, int]] = {f"{s}_bridges": {} for s in SIDES}
    gone = destroyed(state)
    for bridge in board.bridges.values():
        if bridge.id in gone:
            out.setdefault("destroyed_bridges", {})[bridge.id] = 0
        else:
            side = holder(board, state, bridge.id)
            if side is None:
                out.setdefault("contested_bridges", {})[bridge.id] = 0
            else:
                out[f"{side}_bridges"][bridge.id] = bridge.value
    return out


def score(board: Board, state: AState) -> dict[str, Any]:
    """The numbers of the outcome object: points per side, then the points of each bridge."""
    return {"points": points(board, state), **bridge_points(board, state)}


def final_count(board: Board, state: AState, events: list[Event]) -> None:
    """The end of round 18 (Winning the Game): the most points wins; twice the opponent's
    points (and more than 0) is a major victory; equal points are a draw."""
    held = points(board, state)
    allied, german = held[ALLIED], held[GERMAN]
    said = f"Allied {allied} points, German {german} points"
    if allied == german:
        result, winner = "draw", None
        reason = f"round {board.rounds} has ended with equal bridge points"
    else:
        winner = ALLIED if allied > german else GERMAN
        mine, theirs = held[winner], held[other(winner)]
        major = mine > 0 and mine >= 2 * theirs
        result = f"{winner} {'major victory' if major else 'victory'}"
        reason = (f"round {board.rounds} has ended: {winner.capitalize()} holds "
                  + ("twice the opponent's bridge points or more" if major
                     else "more bridge points"))
    finish(board, state, events, result, winner, reason)
    events.append(Event("points", f"Bridge points: {said}", dict(held)))


def finish(board: Board, state: AState, events: list[Event], result: str,
           winner: str | None, reason: str) -> None:
    state.phase = OVER
    state.result = {"result": result, "winner": winner, "reason": reason,
                    **score(board, state)}
    events.append(Event("over", f"{result.capitalize()}: {reason}", dict(state.result)))


def in_play(state: AState) -> Counter[str]:
    """Figures each side has on the map or still to bring in (set-up pool, R1-R15, landings,
    reserve icons, German reserves, figures arriving)."""
    out: Counter[str] = Counter()
    for counts in state.units.values():
        for (group, _), n in counts.items():
            out[side_of(group)] += n
    for group, _ in (*state.pool.elements(), *state.track, *state.waiting.elements(),
                     *state.arriving):
        out[side_of(group)] += 1
    return out


def eliminated_side(state: AState) -> str | None:
    """A side with no figure on the map and none left to come in is eliminated (Winning the
    Game: "when either side is eliminated"); checked once the set-up is over."""
    if state.phase in ("setup-german", "setup-allied", OVER):
        return None
    units = state.units
    german_at, allied_at = _witnesses
    here = units.get(german_at)
    there = units.get(allied_at)
    if here and there and _sides(here)[0] and _sides(there)[1]:
        return None  # the sectors that showed both sides last time still do (the usual case)
    german = allied = False
    for sector, counts in units.items():  # the sides kept on each sector's Figures first
        kept: tuple[bool, bool] | None = getattr(counts, KEPT, None)  # ``_sides``, no call
        here_german, here_allied = kept or _sides(counts)
        if here_german and not german:
            german, german_at = True, sector
        if here_allied and not allied:
            allied, allied_at = True, sector
        if german and allied:
            _keep_witnesses((german_at, allied_at))
            return None  # both sides on the map (the usual case, found at once)
    seen: set[str] = set()
    for counts in state.units.values():
        seen.update(side_of(group) for group, _ in counts)
        if len(seen) == 2:
            return None  # both sides on the map (the usual case, found at once)
    left = in_play(state)
    for side in SIDES:
        if not left[side]:
            return side
    return None


_witnesses: tuple[str, str] = ("", "")
"""A sector that held German figures and one that held Allied figures when ``eliminated_side``
last found both sides on the map: asked first (each is read again from the state)."""


def _keep_witnesses(witnesses: tuple[str, str]) -> None:
    global _witnesses  # one assignment: a reader sees the old or the new pair whole
    _witnesses = witnesses


def check_end(board: Board, state: AState, events: list[Event]) -> None:
    """After every command, once the bridges' control is up to date: the count at the end of
    round 18, or the early end when a side has been eliminated (Winning the Game)."""
    if state.phase == OVER and state.result is None:
        final_count(board, state, events)
        return
    side = eliminated_side(state)
    if side is None:
        return
    winner = other(side)
    finish(board, state, events, f"{winner} victory", winner,
           f"the {side.capitalize()} forces are eliminated (Winning the Game: the game ends "
           "early)")


def resign(board: Board, state: AState, side: str) -> list[Event]:
    """A side forfeits the game (Winning the Game); the other wins."""
    winner = other(side)
    events = [Event("resign", f"{side.capitalize()} resigns; {winner.capitalize()} wins")]
    finish(board, state, events, f"{winner} victory", winner,
           f"{side.capitalize()} forfeits the game")
    return events


def points_json(board: Board, state: AState) -> dict[str, Any]:
    """The bridge points as they stand now (the state's JSON): per side, and per bridge."""
    return {"points": points(board, state), "values": bridge_values(board, state),
            "standing": len(standing(board, state))}
