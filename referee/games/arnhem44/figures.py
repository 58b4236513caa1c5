"""Figures of the moving side and the movement points they have left (Units: In General).

A figure that has not moved this movement phase is *fresh*: it has its full allowance (halved
at night: tanks 2, infantry and artillery 1) and started the phase where it stands (what an
infantry crossing without a bridge needs).  Figures that moved keep their remaining points in
``AState.moved``.  Figures being identical, a command that takes n figures of a kind from a
sector takes the fresh ones first, then those with the most points left.
"""

from __future__ import annotations

from collections import Counter

from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN_GROUP,
    Board,
    Key,
    key_text,
    side_of,
)
from referee.games.arnhem44.commands import Groups
from referee.games.arnhem44.copying import changed
from referee.games.arnhem44.state import AState


def allowance(board: Board, state: AState, kind: str) -> int:
    """Movement points of a fresh figure: half at night (Units: In General)."""
    mp = board.mp[kind]
    return mp // 2 if state.night else mp


def fresh(state: AState, sector: str, key: Key) -> int:
    here = state.units.get(sector)
    count: int = here.get(key, 0) if here else 0
    moved = state.moved.get(sector)
    if not moved:
        return count
    return count - sum(n for (g, k, _), n in moved.items() if (g, k) == key)


def points(board: Board, state: AState, sector: str, key: Key) -> list[tuple[int, bool]]:
    """(movement points left, fresh) of each figure of ``key`` in ``sector``, best first."""
    full = allowance(board, state, key[1])
    if state.joker_sector == sector:
        full += 1  # Jokers: "ALL units from one single sector gain an extra movement point"
    out = [(full, True)] * fresh(state, sector, key)
    moved = state.moved.get(sector)
    if not moved:
        return out
    for (g, k, mp), n in sorted(moved.items(), key=lambda kv: -kv[0][2]):
        if (g, k) == key:
            out += [(mp, False)] * n
    return out


def take(state: AState, sector: str, key: Key, n: int, board: Board,
         chosen: list[tuple[int, bool]] | None = None) -> list[tuple[int, bool]]:
    """Remove ``n`` figures of ``key`` from ``sector`` (the best first); their (points, fresh).
    ``chosen``: ``points(...)[:n]`` of the state as it stands, when the caller has it."""
    if chosen is None:
        chosen = points(board, state, sector, key)[:n]
    state.remove(sector, key, n)
    moved = state.moved.get(sector)
    for mp, was_fresh in chosen:
        if not was_fresh and moved is not None:
            # a new count, as AState.remove makes (the old one may be shared with a copy)
            moved_key = (key[0], key[1], mp)
            moved = changed(moved, moved_key, (moved.get(moved_key, 0) - 1) or None)
            state.moved[sector] = moved
    return chosen


def put(state: AState, sector: str, key: Key, mp: int, n: int = 1) -> None:
    """Place figures that moved this phase, with ``mp`` points left."""
    state.add(sector, key, n)
    moved_key = (key[0], key[1], mp)
    here = state.moved.get(sector)
    state.moved[sector] = changed(here, moved_key, (here.get(moved_key, 0) if here else 0) + n)


_NO_FIGURES: Counter[Key] = Counter()
"""An empty sector (read only)."""


def resolve(state: AState, side: str, sector: str, groups: Groups, rule: str) -> list[
        tuple[Key, int]]:
    """The figures a command names, with their groups filled in and their presence checked."""
    here = state.units.get(sector) or _NO_FIGURES
    out: dict[Key, int] = {}
    for (group, kind), n in groups:
        if side != ALLIED:
            if group not in ("", GERMAN_GROUP):
                raise IllegalMove(rule, f"German figures have no group: write '{n} {kind}'")
            group = GERMAN_GROUP
        elif group == "":
            options = sorted({g for (g, k) in here if k == kind and side_of(g) == ALLIED})
            if len(options) != 1:
                raise IllegalMove(
                    rule, f"name the group of the Allied {kind} figures in {sector}"
                    + (f": {', '.join(f'{kind}/{g}' for g in options)}" if options else
                       " (there are none)"))
            group = options[0]
        elif group == GERMAN_GROUP:
            raise IllegalMove(rule, "DE is the German figures' group; Allied groups are UK, US, "
                              "1AB, PL, 82, 101")
        key = (group, kind)
        out[key] = out.get(key, 0) + n
    for key, n in out.items():
        if here[key] < n:
            raise IllegalMove(rule, f"{sector} holds {here[key]} {key_text(key)}, not {n}")
    return list(out.items())
