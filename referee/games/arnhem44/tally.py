"""The figures on the map as the invariants count them after every command (self-play checks
them all, issue 31): each sector's problems (an unknown sector, a count not positive, more than
9 units of a side) and the figures on the map per key, worked out again only for the sectors
whose figures changed since the last count.

A sector's figures (``copying.Figures``) are never changed in place: ``AState.add``/``remove``
put a new count in the sector.  So the last count is kept with the very ``Figures`` it came
from, sector by sector; the sectors holding other figures now are found by identity in C (as
``supply.update_contact`` finds them), and only they are counted again: the map's total per key
is the kept one less their old figures and plus their new ones (a move changes two sectors; four
commands in ten change none).  A sector holding anything but a ``Figures`` (a test's plain
``Counter``, which may change in place) makes the count the long way, and nothing is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from operator import is_not
from typing import Any

from referee.games.arnhem44.board import GERMAN_GROUP, SIDES, Board, Key, side_of
from referee.games.arnhem44.copying import Figures

MapFigures = tuple[tuple[str, ...], dict[Key, int]]
"""The problems of the sectors' figures, in the sectors' order, and the figures on the map per
key (a key may stand at 0: a sector's count of 0, or figures gone since the count kept)."""

_Kept = tuple[Board, dict[str, Figures], dict[str, tuple[str, ...]], MapFigures]
_kept: _Kept | None = None
"""The last count: the board, the sectors' figures it came from (sector -> its ``Figures``,
compared by identity), the problems of each sector that has any, and the answer.  Never
changed once kept (another replay in this process may be reading it): a new count is kept
whole in one assignment."""


def map_figures(board: Board, units: Mapping[str, Mapping[Key, int]]) -> MapFigures:
    """The problems of the sectors' figures and the figures on the map per key: the kept
    count, with the sectors whose figures are not those it came from counted again."""
    kept = _kept
    if kept is None or kept[0] is not board:
        return count_all(board, units)
    seen = kept[1]
    # the sectors whose figures are not those counted (filtered without a Python loop)
    again = list(compress(units, map(is_not, map(seen.get, units), units.values())))
    if not again and len(seen) == len(units):
        answer = kept[3]
        return (_in_order(units, kept[2]), answer[1]) if kept[2] else answer
    seen = dict(seen)
    bad = dict(kept[2])
    on_map = dict(kept[3][1])
    limit = board.max_per_side
    rank = board.rank
    for sid in again:
        counts = units[sid]
        if type(counts) is not Figures:
            return count_all(board, units)  # may change in place: nothing kept
        old = seen.get(sid)
        if old is not None:
            for key, v in old.items():
                on_map[key] -= v
        if _counted(counts, on_map, limit) or sid not in rank:
            bad[sid] = tuple(sector_problems(board, sid, counts))
        elif sid in bad:
            del bad[sid]
        seen[sid] = counts
    if len(seen) != len(units):  # a sector emptied (gone from the map's sectors)
        for sid in [s for s in seen if s not in units]:
            for key, v in seen.pop(sid).items():
                on_map[key] -= v
            bad.pop(sid, None)
    answer = (_in_order(units, bad), on_map)
    _keep((board, seen, bad, answer))
    return answer


def _counted(counts: Mapping[Key, int], on_map: dict[Key, int], limit: int) -> bool:
    """One sector's figures added to ``on_map``; whether the sector has a problem of its
    figures (a count not positive, more than ``limit`` units of a side)."""
    german = allied = 0
    empty = False
    for key, v in counts.items():
        if v <= 0:
            empty = True
        if key[0] == GERMAN_GROUP:
            german += v
        else:
            allied += v
        on_map[key] = on_map.get(key, 0) + v
    return german > limit or allied > limit or empty


def _in_order(units: Mapping[str, Any], bad: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The sectors' problems in the sectors' order (as one pass over them finds them)."""
    if not bad:
        return ()
    return tuple(problem for sid in units if sid in bad for problem in bad[sid])


def count_all(board: Board, units: Mapping[str, Mapping[Key, int]]) -> MapFigures:
    """``map_figures`` the long way: every sector looked at, in one pass; kept when every
    sector holds a ``Figures``."""
    problems: list[str] = []
    on_map: dict[Key, int] = {}
    bad: dict[str, tuple[str, ...]] = {}
    limit = board.max_per_side
    rank = board.rank
    for sid, counts in units.items():
        if _counted(counts, on_map, limit) or sid not in rank:
            bad[sid] = tuple(sector_problems(board, sid, counts))
            problems += bad[sid]
    answer = (tuple(problems), on_map)
    if all(type(counts) is Figures for counts in units.values()):
        _keep((board, dict(units), bad, answer))  # type: ignore[arg-type]
    return answer


def _keep(count: _Kept | None) -> None:
    global _kept  # one assignment: a reader sees the old or the new count whole
    _kept = count


def forget() -> None:
    """No count kept (the next one looks at every sector)."""
    _keep(None)


def sector_problems(board: Board, sid: str, counts: Mapping[Key, int]) -> list[str]:
    """A sector's figures: a known sector, positive counts, at most 9 units a side."""
    out = []
    if sid not in board.rank:
        out.append(f"figures in an unknown sector {sid}")
    per_side = dict.fromkeys(SIDES, 0)
    for (group, _), v in counts.items():
        per_side[side_of(group)] += v
        if v <= 0:
            out.append(f"{sid} holds a count that is not positive")
    for side, n in per_side.items():
        if n > board.max_per_side:
            out.append(f"{sid} holds {n} {side} units (at most {board.max_per_side})")
    return out
