"""Who stands in a sector: the figures of a side, friends or enemies of the side named.

Below the movement, combat, barrage, explosives, deployment and reserve modules, which all
ask it (so the explosives need not import the movement, which imports the bridge damage,
which destroys bridges through the explosives)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.games.arnhem44.board import ALLIED, GERMAN, GERMAN_GROUP, SIDES, Key, side_of
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.state import AState

GROUPS_OF = {side: frozenset(g for g in ("UK", "US", "1AB", "PL", "82", "101", "DE")
                             if side_of(g) == side) for side in SIDES}
"""The groups of each side (Allied: UK, US, 1AB, PL, 82, 101; German: DE)."""


def friends(state: AState, sector: str, side: str) -> int:
    """Figures of ``side`` in ``sector`` (``AState.count`` of the side's groups)."""
    here = state.units.get(sector)
    if not here:
        return 0
    kept: dict[str, int] | None = getattr(here, TOTALS_KEPT, None)  # ``_totals``, no call
    return (kept or _totals(here))[side]


def enemies(state: AState, sector: str, side: str) -> int:
    """Figures of the other side in ``sector`` (enemy territory when not 0)."""
    here = state.units.get(sector)
    if not here:
        return 0
    kept: dict[str, int] | None = getattr(here, TOTALS_KEPT, None)  # ``_totals``, no call
    return (kept or _totals(here))[GERMAN if side == ALLIED else ALLIED]  # other(side)


NO_FIGURES: dict[Key, int] = {}
"""An empty sector's figures (read only: never changed)."""

TOTALS_KEPT = "_totals"
"""The attribute of a sector's ``Figures`` that keeps its figures per side (``_totals``)."""


def _totals(counts: Mapping[Key, int]) -> dict[str, int]:
    """Side -> ``AState.count`` of its groups (``GROUPS_OF``) in one sector's counts, kept on
    a sector's ``Figures`` as ``sides_here`` is (the moves, combats and barrages ask it
    again and again of the same sectors)."""
    kept: dict[str, int] | None = getattr(counts, TOTALS_KEPT, None)
    if kept is not None:
        return kept
    found = {side: 0 for side in SIDES}
    for (group, _), n in counts.items():
        for side, groups in GROUPS_OF.items():
            if group in groups:
                found[side] += n
    if type(counts) is Figures:
        setattr(counts, TOTALS_KEPT, found)
    return found


side_totals = _totals
"""Side -> its figures among one sector's counts (kept on a sector's ``Figures``)."""


KEPT = "_sides"
"""The attribute of a sector's ``Figures`` that keeps ``sides_here`` of it."""


def sides_here(counts: Mapping[Key, int]) -> tuple[bool, bool]:
    """(German, Allied): whether each side has a figure among one sector's counts (a count of
    0 is none).  A sector's ``Figures`` is never changed in place (``copying.Figures``), so the
    answer is kept on it and every later question about that count is a lookup: the bridges'
    holders are asked before and after every command (``report.holders``, issue 31)."""
    kept: tuple[bool, bool] | None = getattr(counts, KEPT, None)
    if kept is not None:
        return kept
    german = allied = False
    for (group, _), n in counts.items():
        if n:
            if group == GERMAN_GROUP:
                german = True
            else:
                allied = True
    if type(counts) is Figures:
        setattr(counts, KEPT, (german, allied))
    return german, allied


GROUPS_KEPT = "_groups"
"""The attribute of a sector's ``Figures`` that keeps ``groups_here`` of it."""


def groups_here(counts: Mapping[Key, int]) -> frozenset[str]:
    """The groups with a figure among one sector's counts (a count of 0 is none), kept on a
    sector's ``Figures`` as ``sides_here`` is (contact with GARDEN asks after every command)."""
    kept: frozenset[str] | None = getattr(counts, GROUPS_KEPT, None)
    if kept is not None:
        return kept
    found = frozenset(group for (group, _), n in counts.items() if n)
    if type(counts) is Figures:
        setattr(counts, GROUPS_KEPT, found)
    return found
