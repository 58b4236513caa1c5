"""Invariants of the whole game beyond the figures (report.invariants calls them after every
command in self-play): the bridge points, the supply tokens, the three-player turn, bridge
damage (Veterans/4: only with the option, below a standing bridge's hit points; a bridge it
destroys loses its points through ``state.destroyed`` like a blown one, so ``bridge_points``
holds).

Each check reads the state through one function, so that it picks up the state the phases
1-3 add (destroyed bridges: ``victory.destroyed``; supply tokens: ``supply_tokens``) and holds
trivially while they are not there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from referee.games.arnhem44.board import SIDES, Board
from referee.games.arnhem44.damage import problems as damage_problems
from referee.games.arnhem44.options import THREE_PLAYERS, UK, US
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.victory import (
    bridge_sides,
    destroyed,
    points_and_contested,
    standing,
)

SUPPLY_TOKENS = 29
"""The Game Board and Game Components: "29 supply tokens"."""


def bridge_points(board: Board, state: AState) -> list[str]:
    """The points of both sides add up to 100 less the value of the destroyed bridges and of
    the bridges held by neither side (Winning the Game: "At the start of the game the total
    value of the bridges represents 100 points"; Waterways: control only while both ends are
    free of enemy troops), and every standing bridge has an owner (reading A6).

    The answer depends on the sides at the bridges' ends (``victory.bridge_sides``), the
    bridges' owners and the destroyed bridges alone: the last one is given again while they
    are the same (most commands change none of them; each is compared in C, the sides first
    by identity: the very answer ``bridge_sides`` kept while the ends hold the same figures)."""
    sides = bridge_sides(board, state)
    lost = destroyed(state)
    control = state.control
    kept = _points_kept
    if kept is not None and kept[0] is board and (kept[1] is sides or kept[1] == sides) \
            and kept[2] == lost and _dict_eq(kept[3], control) is True:
        return list(kept[4])
    out = bridge_points_long_way(board, state)
    if type(control) is dict:
        _keep_points((board, sides, lost, dict(control), tuple(out)))
    return out


_dict_eq: Callable[[Any, Any], Any] = dict.__eq__
_points_kept: tuple[Board, tuple[tuple[str, bool, bool], ...], frozenset[str], dict[str, str],
                    tuple[str, ...]] | None = None
"""The last ``bridge_points``: the board, ``bridge_sides`` it came from (a tuple, never
changed), the destroyed bridges, a copy of the owners, the answer."""


def _keep_points(kept: tuple[Board, tuple[tuple[str, bool, bool], ...], frozenset[str],
                             dict[str, str], tuple[str, ...]]) -> None:
    global _points_kept  # one assignment: a reader sees the old or the new answer whole
    _points_kept = kept


def bridge_points_long_way(board: Board, state: AState) -> list[str]:
    """``bridge_points`` worked out from the state."""
    out: list[str] = []
    bridges = board.bridges
    total = sum(b.value for b in bridges.values())
    lost = destroyed(state)
    gone = sum(bridges[b].value for b in lost if b in bridges)
    held, neither = points_and_contested(board, state)
    open_ = sum(bridges[b].value for b in neither)
    if sum(held.values()) != total - gone - open_:
        out.append(f"bridge points {held} do not add up to {total} less {gone} destroyed and "
                   f"{open_} held by neither side")
    control = state.control
    for bridge in standing(board, state):
        if control.get(bridge) not in SIDES:
            out.append(f"the standing bridge {bridge} has no controller")
    if not lost <= bridges.keys():
        out.append("an unknown bridge is destroyed")
    return out


BARRAGE_DICE = {"full": 6, "short": 5, "flipped": 4}
"""Phase 2.3 / Artillery (as a Long Range Weapon): a battery's unit rolls 6 white D10 in phase
1; "artillery rolls 5 D10 instead of 6 in the barrage fire phase" once its HQ has distributed
its last token; the flipped card's "minus 2 D10 penalty" leaves 4.  Written out here, apart
from the penalty the engine uses, so that the invariant checks the engine against the text."""


def barrage_supply(state: AState) -> list[str]:
    """Every figure that fired in the last command's barrage rolled the dice its HQ's supply
    allows (``state.barrage_rolls``: the status its card showed when it fired)."""
    out: list[str] = []
    for group, status, n in state.barrage_rolls:
        want = BARRAGE_DICE.get(status)
        if want is None:
            out.append(f"artillery of {group} fired with an unknown HQ status {status!r}")
        elif n != want:
            out.append(f"artillery of {group} rolled {n} d10 in the barrage with its HQ {status} "
                       f"(Phase 2.3: {want})")
    return out


def supply_tokens(state: AState) -> Mapping[str, int] | None:
    """Where the supply tokens are (place -> count, spent and lost tokens included), when the
    state keeps them (Phases 2.2/2.3: ``state.supply_tokens``); None before that."""
    tokens = getattr(state, "supply_tokens", None)
    return tokens if isinstance(tokens, Mapping) else None


def tokens_conserved(state: AState) -> list[str]:
    """The supply tokens are conserved: wherever they are, the 29 of the box."""
    tokens = supply_tokens(state)
    if tokens is None:
        return []
    if any(n < 0 for n in tokens.values()):
        return ["a negative count of supply tokens"]
    total = sum(Counter(tokens).values())
    if total != SUPPLY_TOKENS:
        return [f"{total} supply tokens, not the box's {SUPPLY_TOKENS}"]
    return []


def turn(state: AState) -> list[str]:
    """Veterans/3: a part of the Allied movement phase only in a three-player game."""
    if state.part is None:
        return []
    if THREE_PLAYERS not in state.options or state.part not in (UK, US):
        return [f"an Allied part '{state.part}' outside a three-player game"]
    if state.phase not in ("1", "4.1"):
        return [f"an Allied part '{state.part}' outside phases 1 and 4.1"]
    return []


def game_invariants(board: Board, state: AState) -> list[str]:
    return (bridge_points(board, state) + tokens_conserved(state) + turn(state)
            + damage_problems(board, state) + barrage_supply(state))
